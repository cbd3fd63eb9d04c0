"""The members screen and a member's screen, driven by keys over the seeded sandbox: filters and search on the
service, a role changed, a bulk plan refused (it would leave no admin) and applied, SSO, removal with the email
typed, what a non-admin is told; every change checked in what the sandbox now holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui import routes
from folio.tui.actions import why_unavailable
from folio.tui.app import FolioApp
from folio.tui.modals.people_forms import TypedConfirm
from folio.tui.modals.people_plan import RolePlanModal
from folio.tui.modals.site_forms import ChoiceModal
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.screens.people.member import MemberScreen
from folio.tui.screens.people.members import MembersPanel, MembersScreen
from tests.conftest import FROZEN_AT, TOKEN
from tests.tui.conftest import settle


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ages ("1 d ago") read the sandbox's frozen clock."""
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


def uid(state: SandboxState, email: str) -> str:
    return next(u for u, user in state.users.items() if user.get("email") == email)


def role_of(state: SandboxState, name: str) -> str | None:
    member = state.members[state.demo_org][uid(state, f"{name}@northwind.dev")]
    role: str | None = member.get("role")
    return role


def members_screen(services: Services, state: SandboxState, **kwargs: Any) -> Callable[[], MembersScreen]:
    return lambda: MembersScreen(services, state.demo_org, trail=("Northwind Labs",), **kwargs)


def panel_of(app: FolioApp) -> MembersPanel:
    screen = app.screen
    assert isinstance(screen, MembersScreen)
    return screen.panel


def cells(panel: Any) -> list[list[str]]:
    return [[c if isinstance(c, str) else c.plain for c in r.cells] for r in panel.browser.list.visible_rows]


def names(panel: Any) -> list[str]:
    return [row[1] for row in cells(panel)]


def hint(panel: Any) -> str:
    return str(panel.query_one(".resource-panel--hint", Static).render())


def notes(app: FolioApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await settle(pilot)


async def to_member(pilot: Pilot[None], panel: Any, state: SandboxState, name: str) -> None:
    """Put the cursor on ``name``'s row (``name@northwind.dev``)."""
    assert panel.browser.list.move_to(uid(state, f"{name}@northwind.dev"))
    await settle(pilot)


async def test_members_listed_with_their_columns(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(members_screen(services, state), size=(160, 40)) as (app, _pilot):
        panel = panel_of(app)
        rows = cells(panel)
        assert len(rows) == 12
        # Newest first: Lena joined last. Counts: every space of the organization for a member, none for a guest.
        assert rows[0][1:8] == ["Lena Vogel", "lena@northwind.dev", "create", "", "", "1 yr ago", "1 d ago"]
        kofi = next(r for r in rows if r[1] == "Kofi Mensah")
        assert kofi[3] == "guest" and kofi[8] == "0"
        assert hint(panel).startswith("All roles · joined, newest first")
        assert app.screen.sub_title == "Northwind Labs \u203a Members"


async def test_role_filter_search_and_sort_ask_the_service(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    state.members[state.demo_org][uid(state, "hana@northwind.dev")]["disabled"] = True
    async with open_app(members_screen(services, state)) as (app, pilot):
        panel = panel_of(app)
        await keys(pilot, "f")
        assert sorted(names(panel)) == ["(you) Ada Okafor", "Bruno Lindqvist"] and hint(panel).startswith("Role admin")
        await keys(pilot, *["f"] * 6)
        assert names(panel) == ["Kofi Mensah"] and hint(panel).startswith("Guests")
        await keys(pilot, "f")
        assert len(names(panel)) == 12
        await keys(pilot, "S")
        assert "last seen lists only active members" in hint(panel)
        assert names(panel)[0] == "(you) Ada Okafor" and "Hana Sato" not in names(panel)  # active members only
        await keys(pilot, "S", "s")
        assert isinstance(app.screen, TextEntryModal)
        await keys(pilot, *"NORTHWIND.DEV")
        await keys(pilot, "enter")
        assert len(names(panel)) == 11 and "“NORTHWIND.DEV”" in hint(panel)  # the guest's email is elsewhere
        assert app.screen.words == "NORTHWIND.DEV"  # type: ignore[attr-defined]  # what the session saves


async def test_members_verb_starts_a_service_search(services: Services, state: SandboxState, open_app: Any) -> None:
    screen = routes.build(services, "members", {"org_id": state.demo_org, "words": "bruno"})
    async with open_app(lambda: screen) as (app, _pilot):
        assert names(panel_of(app)) == ["Bruno Lindqvist"]
        assert routes.route("members").optional == ("words",)  # type: ignore[union-attr]  # the session saves them
        assert app.screen.words == "bruno"  # type: ignore[attr-defined]


async def test_change_a_members_role_by_keys(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(members_screen(services, state)) as (app, pilot):
        panel = panel_of(app)
        await to_member(pilot, panel, state, "dana")
        await keys(pilot, "e")
        picker = app.screen
        assert isinstance(picker, ChoiceModal) and picker.current == "review"
        await keys(pilot, "down")  # review -> edit
        await keys(pilot, "enter")
        assert isinstance(app.screen, MembersScreen)
        assert role_of(state, "dana") == "edit"
        assert "Dana Moreau is now edit (was review)." in notes(app)
        row = next(r for r in cells(panel) if r[1] == "Dana Moreau")
        assert row[3] == "edit"


async def test_demoting_the_only_admin_is_refused_and_the_picker_stays(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    state.members[state.demo_org][uid(state, "bruno@northwind.dev")]["role"] = "edit"
    async with open_app(members_screen(services, state)) as (app, pilot):
        await to_member(pilot, panel_of(app), state, "ada")
        await keys(pilot, "e", "down", "enter")
        picker = app.screen
        assert isinstance(picker, ChoiceModal)
        assert "only admin" in str(picker.query_one(".site-form--problem", Static).render())
        assert role_of(state, "ada") == "admin"


async def _mark(pilot: Pilot[None], panel: Any, state: SandboxState, *who: str) -> None:
    for name in who:
        await to_member(pilot, panel, state, name)
        await keys(pilot, "space")


async def test_a_bulk_plan_that_leaves_no_admin_is_refused(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(members_screen(services, state)) as (app, pilot):
        panel = panel_of(app)
        await _mark(pilot, panel, state, "ada", "bruno", "ivan")
        marked = ("(you) Ada Okafor", "Bruno Lindqvist", "Ivan Petrov")
        assert [r[0] for r in cells(panel) if r[1] in marked] == ["*"] * 3
        assert "3 marked" in hint(panel)
        await keys(pilot, "e")
        plan = app.screen
        assert isinstance(plan, RolePlanModal)
        await keys(pilot, "right", "right", "right", "enter")  # admin, create, review, edit: edit
        assert plan.role == "edit"
        admins = str(plan.query_one("#plan-admins", Static).render())
        assert admins == "3 changes to send · admins now 2, after 0"
        state.hits.clear()
        await keys(pilot, "ctrl+s")
        assert app.screen is plan
        assert str(plan.query_one("#plan-problem", Static).render()).startswith("Not sent: No admin would remain")
        assert not any(method == "PATCH" for method, _ in state.hits)
        assert (role_of(state, "ada"), role_of(state, "bruno"), role_of(state, "ivan")) == ("admin", "admin", "read")
        await keys(pilot, "escape")
        assert isinstance(app.screen, MembersScreen) and len(panel.marks) == 3  # the marks stay


async def test_a_bulk_plan_applied(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(members_screen(services, state)) as (app, pilot):
        panel = panel_of(app)
        await _mark(pilot, panel, state, "bruno", "gustavo", "ivan", "hana")
        await keys(pilot, "e")
        plan = app.screen
        assert isinstance(plan, RolePlanModal)
        await keys(pilot, "right", "right", "enter")  # review
        assert str(plan.query_one("#plan-admins", Static).render()) == "3 changes to send · admins now 2, after 1"
        lines = str(plan.query_one("#plan-lines", Static).render())
        assert "Hana Sato" in lines and "already review: nothing sent" in lines
        await keys(pilot, "ctrl+s")
        assert app.screen is plan  # it says what it did before closing
        assert str(plan.query_one("#plan-progress", Static).render()) == "All 3 changes made."
        await keys(pilot, "escape")
        assert isinstance(app.screen, MembersScreen)
        assert {role_of(state, n) for n in ("bruno", "gustavo", "ivan", "hana")} == {"review"}
        assert notes(app)[-1].startswith("All 3 changes made. Gustavo Ribeiro: comment → review")
        assert not panel.marks and all(r[0] == " " for r in cells(panel))


async def test_a_bulk_plan_stopped_by_a_refusal_says_what_was_made(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(members_screen(services, state)) as (app, pilot):
        panel = panel_of(app)
        await _mark(pilot, panel, state, "gustavo", "ivan")
        await keys(pilot, "asterisk")  # every member shown marked...
        await keys(pilot, "asterisk")  # ...and unmarked again
        assert not panel.marks
        await _mark(pilot, panel, state, "gustavo", "ivan")
        await keys(pilot, "e", "right", "right", "right", "enter")
        plan = app.screen
        assert isinstance(plan, RolePlanModal)
        del state.members[state.demo_org][uid(state, "ivan@northwind.dev")]  # removed by someone else meanwhile
        await keys(pilot, "ctrl+s")
        progress = str(plan.query_one("#plan-progress", Static).render())
        assert progress.startswith("Stopped: 1 of 2 changes made. Ivan Petrov was refused")
        await keys(pilot, "escape")
        assert role_of(state, "gustavo") == "edit"
        assert "Made: Gustavo Ribeiro: comment → edit." in notes(app)[-1]


async def test_remove_a_member_with_the_email_typed(services: Services, state: SandboxState, open_app: Any) -> None:
    ivan = uid(state, "ivan@northwind.dev")
    async with open_app(members_screen(services, state)) as (app, pilot):
        panel = panel_of(app)
        await to_member(pilot, panel, state, "ivan")
        await keys(pilot, "D")
        confirm = app.screen
        assert isinstance(confirm, TypedConfirm) and confirm.expected == "ivan@northwind.dev"
        await keys(pilot, *"Ivan Petrov", "enter")
        assert app.screen is confirm and ivan in state.members[state.demo_org]
        assert "That is not the email" in str(confirm.query_one(".site-form--problem", Static).render())
        await keys(pilot, "ctrl+u", *"ivan@northwind.dev", "enter")
        assert isinstance(app.screen, MembersScreen)
        assert ivan not in state.members[state.demo_org]
        assert "Ivan Petrov" not in names(panel)
        assert "Ivan Petrov was removed from the organization." in notes(app)


async def test_set_an_sso_member(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(members_screen(services, state)) as (app, pilot):
        panel = panel_of(app)
        await to_member(pilot, panel, state, "chen")
        await keys(pilot, "O", "y")
        assert state.members[state.demo_org][uid(state, "chen@northwind.dev")]["sso"] is True
        assert next(r for r in cells(panel) if r[1] == "Chen Wei")[4] == "yes"
        assert why_unavailable(app.screen, "O") == "Chen Wei is already an SSO member."


async def test_a_non_admin_is_told_why_instead_of_failing(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    state.tokens[TOKEN] = uid(state, "chen@northwind.dev")
    async with open_app(members_screen(services, state)) as (app, pilot):
        assert len(names(panel_of(app))) == 12  # a member may read the list
        why = "Only admins of the organization can change roles."
        assert why_unavailable(app.screen, "e") == why
        state.hits.clear()
        await keys(pilot, "e", "D")
        assert isinstance(app.screen, MembersScreen)  # no dialog opened, nothing sent
        assert not any(method in ("PATCH", "DELETE") for method, _ in state.hits)
        assert why_unavailable(app.screen, "D") == "Only admins of the organization can remove members."


async def test_a_member_opens_with_their_spaces_and_teams(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    chen = uid(state, "chen@northwind.dev")
    async with open_app(members_screen(services, state)) as (app, pilot):
        await to_member(pilot, panel_of(app), state, "chen")
        await keys(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, MemberScreen) and screen.user_id == chen
        assert screen.sub_title == "Northwind Labs \u203a Members \u203a Chen Wei"
        summary = str(screen.query_one("#member-summary", Static).render())
        assert "chen@northwind.dev" in summary and "Role create · SSO no · active" in summary
        spaces = cells(screen.spaces_panel)
        assert spaces and {r[1] for r in spaces} == {"create"}
        await keys(pilot, "2")
        assert sorted((r[0], r[1]) for r in cells(screen.teams_panel)) == [
            ("API Writers", "owner"),
            ("Docs Core", "member"),
        ]
        await keys(pilot, "e", "up", "enter")  # create -> admin
        assert state.members[state.demo_org][chen]["role"] == "admin"
        assert "Role admin" in str(screen.query_one("#member-summary", Static).render())
        assert ("member", f"{state.demo_org}/{chen}") in app.loaded  # the go-to offers them


async def test_removing_from_the_member_screen_goes_back(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    lena = uid(state, "lena@northwind.dev")
    start = members_screen(services, state)
    async with open_app(start) as (app, pilot):
        await keys(pilot, "enter")  # Lena: the newest
        assert isinstance(app.screen, MemberScreen)
        await keys(pilot, "D", *"lena@northwind.dev", "enter")
        assert lena not in state.members[state.demo_org]
        assert isinstance(app.screen, MembersScreen)
        assert "Lena Vogel" not in names(panel_of(app))  # the list loaded again when shown


async def test_the_session_saves_and_rebuilds_the_search(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    from folio.tui.session import rebuild, snapshot

    async with open_app(members_screen(services, state, words="ada")) as (app, pilot):
        await keys(pilot, "s", "ctrl+u", *"bruno", "enter")
        saved = snapshot([app.screen])
    assert saved["screens"][0]["args"] == {"org_id": state.demo_org, "words": "bruno"}
    (screen,) = rebuild(services, saved)
    assert isinstance(screen, MembersScreen) and screen.words == "bruno"
