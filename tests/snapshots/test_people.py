"""The people screens pinned as SVG: the members list, a member, the teams list and a team at 80x24 and 160x50,
and the bulk role plan at 80x24 (seeded sandbox, frozen clock, no animation). Update with
``pytest tests/snapshots/test_people.py --snapshot-update`` only after looking at the report."""

from __future__ import annotations

from typing import Any

import pytest

from folio.sandbox import SandboxState
from folio.tui.screens.people.member import MemberScreen
from folio.tui.screens.people.members import MembersScreen
from folio.tui.screens.people.team import TeamScreen
from folio.tui.screens.people.teams import TeamsScreen
from tests.snapshots.support import after, freeze_now, sandbox_app

SMALL = (80, 24)
LARGE = (160, 50)
SIZES = pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x50"])
TRAIL = ("Organizations", "Northwind Labs")


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_now(monkeypatch)


def _uid(state: SandboxState, email: str) -> str:
    return next(u for u, user in state.users.items() if user.get("email") == email)


def _team(state: SandboxState, title: str) -> str:
    return next(t for t, team in state.teams.items() if team["title"] == title)


@SIZES
def test_members(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    state.members[state.demo_org][_uid(state, "hana@northwind.dev")]["disabled"] = True
    state.members[state.demo_org][_uid(state, "emeka@northwind.dev")]["sso"] = True
    start = sandbox_app(app, lambda services: MembersScreen(services, state.demo_org, trail=TRAIL))
    # Two members marked: the hint says what e does with them.
    assert snap_compare(start, terminal_size=size, run_before=after("j", "space", "j", "space"))


def test_members_plan(snap_compare: Any, app: Any, state: SandboxState) -> None:
    start = sandbox_app(app, lambda services: MembersScreen(services, state.demo_org, trail=TRAIL))
    keys = ("j", "space", "j", "space", "j", "space", "e", "right", "right", "enter")
    assert snap_compare(start, terminal_size=SMALL, run_before=after(*keys))


@SIZES
def test_member(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    chen = _uid(state, "chen@northwind.dev")
    trail = (*TRAIL, "Members")
    start = sandbox_app(
        app, lambda services: MemberScreen(services, state.demo_org, chen, title="Chen Wei", trail=trail)
    )
    assert snap_compare(start, terminal_size=size, run_before=after())


def test_member_teams_tab(snap_compare: Any, app: Any, state: SandboxState) -> None:
    chen = _uid(state, "chen@northwind.dev")
    trail = (*TRAIL, "Members")
    start = sandbox_app(
        app, lambda services: MemberScreen(services, state.demo_org, chen, title="Chen Wei", trail=trail)
    )
    assert snap_compare(start, terminal_size=SMALL, run_before=after("2"))


@SIZES
def test_teams(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    start = sandbox_app(app, lambda services: TeamsScreen(services, state.demo_org, trail=TRAIL))
    assert snap_compare(start, terminal_size=size, run_before=after())


def test_teams_create_modal(snap_compare: Any, app: Any, state: SandboxState) -> None:
    start = sandbox_app(app, lambda services: TeamsScreen(services, state.demo_org, trail=TRAIL))
    assert snap_compare(start, terminal_size=SMALL, run_before=after("n", *"Platform", "tab", "space"))


@SIZES
def test_team(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    tid = _team(state, "API Writers")
    trail = (*TRAIL, "Teams")
    start = sandbox_app(
        app, lambda services: TeamScreen(services, state.demo_org, tid, title="API Writers", trail=trail)
    )
    assert snap_compare(start, terminal_size=size, run_before=after("j", "space"))
