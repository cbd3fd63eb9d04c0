"""What issue 24 found on the people screens, driven by keys over the seeded sandbox (the signed-in user is Ada
Okafor, an admin): an admin cannot take away their own admin role (a plan, ``e`` on their row, ``D``) without
their email typed, and their row says "(you)" everywhere; a team created again under a title that exists is not
"found" in the old team after a lost answer; a member removal whose answer was lost says what is true; ``esc``
clears a service search before it leaves; a large organization's members paint their first page at once and every
key typed while they load reaches the filter."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from folio.api import GitBookClient, RetryPolicy, Token
from folio.models.member import Member
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.services import Services
from folio.services.people.people_plan import SELF_DEMOTION, SELF_REMOVAL
from folio.tui.app import FolioApp
from folio.tui.modals.people_forms import CreateTeamModal, TypedConfirm
from folio.tui.modals.people_plan import RolePlanModal
from folio.tui.modals.site_forms import ChoiceModal
from folio.tui.screens.people.member import MemberScreen
from folio.tui.screens.people.members import MembersPanel, MembersScreen
from folio.tui.screens.people.team import TeamScreen
from folio.tui.screens.people.teams import TeamsScreen
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


class Cut(httpx.AsyncBaseTransport):
    """The link to the sandbox; while ``cut_writes``, every write is lost on its way, before the service has it
    (each of the client's own tries of an idempotent one too): the client sees the connection drop (as with the
    sandbox's ``drop_rate``) and cannot tell it from an answer lost after the write (``drop_after_write``). Reads
    go through (unlike ``drop_rate``, which drops them too, and with them the look that follows)."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.cut_writes = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.cut_writes and request.method != "GET":
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.", request=request)
        return await self.inner.handle_async_request(request)


@pytest.fixture
def link(state: SandboxState, faults: Faults) -> Cut:
    return Cut(SandboxTransport(create_app(state, faults=faults)))


@pytest.fixture
async def faulty(link: Cut) -> AsyncIterator[Services]:
    """Services over the seeded sandbox behind ``faults`` and ``link`` (changed while a test runs)."""
    client = GitBookClient(token=Token(TOKEN), base_url=SANDBOX_URL, transport=link, retry=RetryPolicy(sleep=_no_sleep))
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


# --- 4. a team created again under a title that exists ------------------------------------------------------------


def titled(state: SandboxState, title: str) -> list[str]:
    return [t for t, team in state.teams.items() if team["title"] == title and team["organization"] == state.demo_org]


async def test_a_lost_create_is_not_found_in_the_team_of_that_title_there_before(
    faulty: Services, state: SandboxState, faults: Faults, link: Cut
) -> None:
    old = titled(state, "Docs Core")
    assert len(old) == 1
    app = FolioApp(faulty, start=lambda: TeamsScreen(faulty, state.demo_org, trail=("Northwind Labs",)))
    app.animation_level = "none"
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await keys(pilot, "n", *"Docs Core")
        form = app.screen
        assert isinstance(form, CreateTeamModal)
        link.cut_writes = True  # lost before the service had it: no team was made
        await keys(pilot, "ctrl+s")
        link.cut_writes = False
        assert app.screen is form, "the old Docs Core is not the team this form sent"
        said = str(form.query_one(".form--problem", Static).render())
        assert "Folio checked: it was not done" in said
        assert titled(state, "Docs Core") == old
        faults.drop_after_write = 1.0  # sent again: made this time, its answer lost
        await keys(pilot, "ctrl+s")
        faults.drop_after_write = 0.0
        assert isinstance(app.screen, TeamsScreen)
        assert len(titled(state, "Docs Core")) == 2  # the old one and the one made, once
        assert "The answer was lost, but the service has it: it was sent once." in notes(app)


async def test_the_finder_matches_the_members_sent(services: Services, state: SandboxState) -> None:
    people = services.people
    org = state.demo_org
    bruno, chen = uid(state, "bruno@northwind.dev"), uid(state, "chen@northwind.dev")
    before = await people.teams_titled(org, "Platform")
    assert before == set()
    other = await people.create_team(org, "Platform", [chen])  # someone else's, made after ours was sent
    assert await people.find_team(org, "Platform", before=before, members=[bruno]) is None
    assert await people.find_team(org, "Platform", before={other.id}) is None
    ours = await people.create_team(org, "Platform", [bruno])
    found = await people.find_team(org, "Platform", before=before, members=[bruno])
    assert found is not None and found.id == ours.id


# --- 5. a member removal whose answer was lost --------------------------------------------------------------------


async def test_a_removal_whose_answer_was_lost_says_it_was_done(
    faulty: Services, state: SandboxState, faults: Faults
) -> None:
    bruno = uid(state, "bruno@northwind.dev")  # one of the two admins
    app = FolioApp(faulty, start=members_screen(faulty, state))
    app.animation_level = "none"
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        panel = panel_of(app)
        stale = next(r.data for r in panel.browser.list.rows if r.key == bruno)
        assert isinstance(stale, Member)
        await to_member(pilot, panel, state, "bruno")
        faults.drop_after_write = 1.0  # removed, its answer lost
        await keys(pilot, "D", *"bruno@northwind.dev", "enter")
        faults.drop_after_write = 0.0
        assert bruno not in state.members[state.demo_org]
        assert "Bruno Lindqvist was removed from the organization." in notes(app)
        assert not any("Could not remove" in n for n in notes(app))
        assert "Bruno Lindqvist" not in names(panel)
        # Sent again from what was on screen (the row as it was): what is true is said, nothing is sent.
        state.hits.clear()
        assert await faulty.people.remove_member(state.demo_org, stale) == "already gone"
        assert not any(method == "DELETE" for method, _ in state.hits)


async def test_a_removal_lost_before_it_was_made_says_nothing_was_removed(
    faulty: Services, state: SandboxState, link: Cut
) -> None:
    ivan = uid(state, "ivan@northwind.dev")
    app = FolioApp(faulty, start=members_screen(faulty, state))
    app.animation_level = "none"
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        panel = panel_of(app)
        await to_member(pilot, panel, state, "ivan")
        link.cut_writes = True
        await keys(pilot, "D", *"ivan@northwind.dev", "enter")
        link.cut_writes = False
        assert ivan in state.members[state.demo_org]
        assert any("Ivan Petrov is still a member, nothing was removed" in n for n in notes(app))


# --- 22. esc clears a service search before it leaves ---------------------------------------------------------------


async def test_esc_clears_the_service_search_then_the_filter_first_then_leaves(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app() as (app, pilot):
        before = app.screen
        screen = members_screen(services, state)()
        await app.push_screen(screen)
        await settle(pilot)
        panel = panel_of(app)
        await keys(pilot, "s", *"bruno", "enter")
        assert names(panel) == ["Bruno Lindqvist"] and panel.search == "bruno"
        await keys(pilot, "slash", *"zz")
        assert panel.browser.typed_filter == "zz"
        await keys(pilot, "escape")  # the filter first
        assert app.screen is screen and panel.browser.typed_filter == "" and panel.search == "bruno"
        await keys(pilot, "escape")  # then the search
        assert app.screen is screen and panel.search is None and len(names(panel)) == 12
        assert "bruno" not in str(panel.query_one(".resource-panel--hint", Static).render())
        at = panel.browser.list.cursor  # still on Bruno
        await keys(pilot, "space")  # space still marks and moves on
        assert len(panel.marks) == 1 and panel.browser.list.cursor == at + 1
        await keys(pilot, "escape")  # then back
        assert app.screen is before
