"""What issue 24 found on the people screens, driven by keys over the seeded sandbox (the signed-in user is Ada
Okafor, an admin): an admin cannot take away their own admin role (a plan, ``e`` on their row, ``D``) without
their email typed, and their row says "(you)" everywhere; a team created again under a title that exists is not
"found" in the old team after a lost answer; a member removal whose answer was lost says what is true; ``esc``
clears a service search before it leaves; a large organization's members paint their first page at once and every
key typed while they load reaches the filter."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.services import Services
from folio.services.people_plan import SELF_DEMOTION, SELF_REMOVAL
from folio.tui.app import FolioApp
from folio.tui.modals.people_forms import TypedConfirm
from folio.tui.modals.people_plan import RolePlanModal
from folio.tui.modals.site_forms import ChoiceModal
from folio.tui.screens.member import MemberScreen
from folio.tui.screens.members import MembersPanel, MembersScreen
from folio.tui.screens.team import TeamScreen
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN
from tests.tui.conftest import settle


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture
def faults() -> Faults:
    return Faults(seed=3)


@pytest.fixture
async def faulty(state: SandboxState, faults: Faults) -> AsyncIterator[Services]:
    """Services over the seeded sandbox behind ``faults`` (changed while a test runs)."""
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state, faults=faults)),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    yield Services(client, where="a faulty sandbox")
    await client.aclose()


def uid(state: SandboxState, email: str) -> str:
    return next(u for u, user in state.users.items() if user.get("email") == email)


def role_of(state: SandboxState, name: str) -> str | None:
    role: str | None = state.members[state.demo_org][uid(state, f"{name}@northwind.dev")].get("role")
    return role


def members_screen(services: Services, state: SandboxState, **kwargs: Any) -> Callable[[], MembersScreen]:
    return lambda: MembersScreen(services, state.demo_org, trail=("Northwind Labs",), **kwargs)


def panel_of(app: FolioApp) -> MembersPanel:
    screen = app.screen
    assert isinstance(screen, MembersScreen)
    return screen.panel


def names(panel: Any) -> list[str]:
    return [
        str(r.cells[1]) if isinstance(r.cells[1], str) else r.cells[1].plain for r in panel.browser.list.visible_rows
    ]


def text(widget: Any, selector: str) -> str:
    return str(widget.query_one(selector, Static).render())


def notes(app: FolioApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def patches(state: SandboxState) -> list[str]:
    return [path for method, path in state.hits if method == "PATCH"]


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await settle(pilot)


async def to_member(pilot: Pilot[None], panel: Any, state: SandboxState, name: str) -> None:
    assert panel.browser.list.move_to(uid(state, f"{name}@northwind.dev"))
    await settle(pilot)


# --- 2. an admin cannot lock themself out without typing it ---------------------------------------------------------


async def test_a_plan_that_demotes_yourself_is_sent_only_with_your_email_typed(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(members_screen(services, state), size=(100, 30)) as (app, pilot):
        panel = panel_of(app)
        assert "(you) Ada Okafor" in names(panel) and "Bruno Lindqvist" in names(panel)
        for name in ("ada", "gustavo", "ivan"):
            await to_member(pilot, panel, state, name)
            await keys(pilot, "space")
        await keys(pilot, "e", *["right"] * 5, "enter")  # read
        plan = app.screen
        assert isinstance(plan, RolePlanModal) and plan.role == "read"
        assert text(plan, "#plan-admins") == "2 changes to send · admins now 2, after 1"
        assert "Ada Okafor (you)" in text(plan, "#plan-lines")
        assert text(plan, "#plan-self").startswith(SELF_DEMOTION)
        state.hits.clear()
        await keys(pilot, "ctrl+s")
        confirm = app.screen
        assert isinstance(confirm, TypedConfirm) and confirm.expected == "ada@northwind.dev"
        await keys(pilot, "escape")  # not typed: nothing is sent
        assert app.screen is plan and text(plan, "#plan-problem").startswith("Not sent: your email was not typed")
        assert patches(state) == [] and role_of(state, "ada") == "admin" and role_of(state, "gustavo") == "comment"
        await keys(pilot, "ctrl+s", *"Ada Okafor", "enter")  # not the email
        assert isinstance(app.screen, TypedConfirm) and patches(state) == []
        await keys(pilot, "ctrl+u", *"ada@northwind.dev", "enter")
        assert app.screen is plan
        assert text(plan, "#plan-progress") == "All 2 changes made."
        assert (role_of(state, "ada"), role_of(state, "gustavo"), role_of(state, "ivan")) == ("read", "read", "read")


async def test_your_own_role_through_e_needs_your_email_typed(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(members_screen(services, state)) as (app, pilot):
        panel = panel_of(app)
        await to_member(pilot, panel, state, "ada")
        await keys(pilot, "e")
        picker = app.screen
        assert isinstance(picker, ChoiceModal)
        assert SELF_DEMOTION in text(picker, ".form--intro")  # said before a role is picked
        state.hits.clear()
        await keys(pilot, *["down"] * 5, "enter")  # read
        confirm = app.screen
        assert isinstance(confirm, TypedConfirm)
        assert SELF_DEMOTION in str(confirm.title_text)
        assert patches(state) == []  # the picker sent nothing
        await keys(pilot, "escape")
        assert isinstance(app.screen, MembersScreen) and role_of(state, "ada") == "admin" and patches(state) == []
        assert "Nothing was sent: your own role is as it was." in notes(app)
        await keys(pilot, "e", *["down"] * 5, "enter", *"ada@northwind.dev", "enter")
        assert isinstance(app.screen, MembersScreen)
        assert role_of(state, "ada") == "read"
        assert "You are now read (were admin)." in notes(app)


async def test_removing_yourself_says_what_it_takes_away(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    ada = uid(state, "ada@northwind.dev")
    async with open_app(members_screen(services, state), size=(100, 30)) as (app, pilot):
        await to_member(pilot, panel_of(app), state, "ada")
        await keys(pilot, "D")
        confirm = app.screen
        assert isinstance(confirm, TypedConfirm) and confirm.expected == "ada@northwind.dev"
        assert SELF_DEMOTION in confirm.body_text.plain and SELF_REMOVAL in confirm.body_text.plain
        await keys(pilot, "escape")
        assert ada in state.members[state.demo_org]
        await keys(pilot, "D", *"ada@northwind.dev", "enter")
        assert ada not in state.members[state.demo_org]


async def test_you_are_marked_on_the_member_and_team_screens(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    ada = uid(state, "ada@northwind.dev")
    docs = next(t for t, team in state.teams.items() if team["title"] == "Docs Core")
    async with open_app(lambda: MemberScreen(services, state.demo_org, ada, title="Ada")) as (app, pilot):
        assert "Ada Okafor (you)" in text(app.screen, "#member-summary")
        app.push_screen(TeamScreen(services, state.demo_org, docs, title="Docs Core"))
        await settle(pilot)
        rows = [r.cells[1] for r in app.screen.query_one("TeamMembersPanel").browser.list.rows]  # type: ignore[attr-defined]
        shown = [c if isinstance(c, str) else c.plain for c in rows]
        assert "(you) Ada Okafor" in shown and "Bruno Lindqvist" in shown
