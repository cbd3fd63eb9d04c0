"""The people screens pinned as SVG: the members list, a member, the teams list and a team at 80x24 and 160x50,
and the bulk role plan at 80x24 (seeded sandbox, frozen clock, no animation). Update with
``pytest tests/snapshots/test_people.py --snapshot-update`` only after looking at the report."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxState, SandboxTransport
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.screens.member import MemberScreen
from folio.tui.screens.members import MembersScreen
from folio.tui.screens.team import TeamScreen
from folio.tui.screens.teams import TeamsScreen
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN

SMALL = (80, 24)
LARGE = (160, 50)
SIZES = pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x50"])
TRAIL = ("Organizations", "Northwind Labs")


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


async def _no_sleep(seconds: float) -> None:
    return None


def _app(sandbox: Any, start: Callable[[Services], Screen[Any]]) -> FolioApp:
    # Built here, not with the async `client` fixture: snap_compare runs the app on its own event loop.
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(sandbox),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    services = Services(client, where="the demo sandbox")
    app = FolioApp(services, start=lambda: start(services))
    app.animation_level = "none"
    return app


def _after(*keys: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    """Load, press ``keys`` letting what each started finish, then stop the cursors blinking."""

    async def run(pilot: Pilot[None]) -> None:
        for key in ("", *keys):
            if key:
                await pilot.press(key)
            await pilot.pause()
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
        for widget in pilot.app.screen.query("Input, TextArea"):
            widget.cursor_blink = False  # type: ignore[attr-defined]
        await pilot.pause()

    return run


def _uid(state: SandboxState, email: str) -> str:
    return next(u for u, user in state.users.items() if user.get("email") == email)


def _team(state: SandboxState, title: str) -> str:
    return next(t for t, team in state.teams.items() if team["title"] == title)


@SIZES
def test_members(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    state.members[state.demo_org][_uid(state, "hana@northwind.dev")]["disabled"] = True
    state.members[state.demo_org][_uid(state, "emeka@northwind.dev")]["sso"] = True
    start = _app(app, lambda services: MembersScreen(services, state.demo_org, trail=TRAIL))
    # Two members marked: the hint says what e does with them.
    assert snap_compare(start, terminal_size=size, run_before=_after("j", "space", "j", "space"))


def test_members_plan(snap_compare: Any, app: Any, state: SandboxState) -> None:
    start = _app(app, lambda services: MembersScreen(services, state.demo_org, trail=TRAIL))
    keys = ("j", "space", "j", "space", "j", "space", "e", "right", "right", "enter")
    assert snap_compare(start, terminal_size=SMALL, run_before=_after(*keys))


@SIZES
def test_member(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    chen = _uid(state, "chen@northwind.dev")
    trail = (*TRAIL, "Members")
    start = _app(app, lambda services: MemberScreen(services, state.demo_org, chen, title="Chen Wei", trail=trail))
    assert snap_compare(start, terminal_size=size, run_before=_after())


def test_member_teams_tab(snap_compare: Any, app: Any, state: SandboxState) -> None:
    chen = _uid(state, "chen@northwind.dev")
    trail = (*TRAIL, "Members")
    start = _app(app, lambda services: MemberScreen(services, state.demo_org, chen, title="Chen Wei", trail=trail))
    assert snap_compare(start, terminal_size=SMALL, run_before=_after("2"))


@SIZES
def test_teams(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    start = _app(app, lambda services: TeamsScreen(services, state.demo_org, trail=TRAIL))
    assert snap_compare(start, terminal_size=size, run_before=_after())


def test_teams_create_modal(snap_compare: Any, app: Any, state: SandboxState) -> None:
    start = _app(app, lambda services: TeamsScreen(services, state.demo_org, trail=TRAIL))
    assert snap_compare(start, terminal_size=SMALL, run_before=_after("n", *"Platform", "tab", "space"))


@SIZES
def test_team(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    tid = _team(state, "API Writers")
    trail = (*TRAIL, "Teams")
    start = _app(app, lambda services: TeamScreen(services, state.demo_org, tid, title="API Writers", trail=trail))
    assert snap_compare(start, terminal_size=size, run_before=_after("j", "space"))
