"""The teams screen and a team's screen, driven by keys over the seeded sandbox: filters on the service, a team
created with two members, renamed, deleted; a title of 65 characters refused before sending and a refusal of the
service, both keeping the text; members added (by email, picked, several in one request), their team role
changed, removed one at a time and in bulk; what a caller who may not manage a team is told."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, SelectionList, Static

from folio.api.errors import RequestTimeout
from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui import routes
from folio.tui.actions import why_unavailable
from folio.tui.app import FolioApp
from folio.tui.modals.people_forms import (
    AddTeamMemberModal,
    AddTeamMembersModal,
    CreateTeamModal,
    RenameTeamModal,
    TypedConfirm,
)
from folio.tui.modals.site_forms import ChoiceModal
from folio.tui.screens.people.team import TeamMembersPanel, TeamScreen
from folio.tui.screens.people.teams import TeamsPanel, TeamsScreen
from tests.conftest import FROZEN_AT, TOKEN
from tests.tui.test_members import cells, hint, keys, notes, uid


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


def team_id(state: SandboxState, title: str) -> str:
    return next(t for t, team in state.teams.items() if team["title"] == title)


def team_members(state: SandboxState, title: str) -> dict[str, str]:
    """email -> team role of the team titled ``title``."""
    team = state.teams[team_id(state, title)]
    return {state.users[u]["email"].split("@")[0]: role for u, role in team["members"].items()}


def teams_screen(services: Services, state: SandboxState, **kwargs: Any) -> Callable[[], TeamsScreen]:
    return lambda: TeamsScreen(services, state.demo_org, trail=("Northwind Labs",), **kwargs)


def team_screen(services: Services, state: SandboxState, title: str) -> Callable[[], TeamScreen]:
    tid = team_id(state, title)
    return lambda: TeamScreen(services, state.demo_org, tid, trail=("Northwind Labs", "Teams"))


def teams_panel(app: FolioApp) -> TeamsPanel:
    screen = app.screen
    assert isinstance(screen, TeamsScreen)
    return screen.panel


def members_panel(app: FolioApp) -> TeamMembersPanel:
    screen = app.screen
    assert isinstance(screen, TeamScreen)
    return screen.panel


def titles(panel: TeamsPanel) -> list[str]:
    return [r[0] for r in cells(panel)]


async def to_row(pilot: Pilot[None], panel: Any, key: str) -> None:
    assert panel.browser.list.move_to(key)
    await pilot.pause()


def sent(state: SandboxState, method: str) -> bool:
    return any(m == method for m, _ in state.hits)


# --- the teams list -------------------------------------------------------------------------------------------


async def test_teams_listed_and_filtered_on_the_service(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(teams_screen(services, state)) as (app, pilot):
        panel = teams_panel(app)
        assert cells(panel) == [
            ["API Writers", "5", "0", "1 yr ago"],
            ["Docs Core", "4", "0", "1 yr ago"],
            ["Reviewers", "3", "0", "10 mo ago"],
        ]
        await keys(pilot, "s", *"RE", "enter")
        assert titles(panel) == ["Docs Core", "Reviewers"] and "titled “RE”" in hint(panel)
        assert app.screen.words == "RE"  # type: ignore[attr-defined]  # what the session saves
        await keys(pilot, "s", "ctrl+u", *"nothing like it", "enter")
        assert titles(panel) == []
        assert "No team matches" in str(panel.browser.query_one(".resource-browser--status", Static).render())


async def test_teams_verb_filters_by_title(services: Services, state: SandboxState, open_app: Any) -> None:
    screen = routes.build(services, "teams", {"org_id": state.demo_org, "words": "api"})
    async with open_app(lambda: screen) as (app, _pilot):
        assert titles(teams_panel(app)) == ["API Writers"] and "titled “api”" in hint(teams_panel(app))
        assert app.screen.words == "api"  # type: ignore[attr-defined]  # what the session saves


async def test_the_session_saves_and_rebuilds_the_title_filter(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    from folio.tui.session import rebuild, snapshot

    async with open_app(teams_screen(services, state, words="api")) as (app, pilot):
        await keys(pilot, "s", "ctrl+u", *"RE", "enter")
        saved = snapshot([app.screen])
    assert saved["screens"][0]["args"] == {"org_id": state.demo_org, "words": "RE"}
    (screen,) = rebuild(services, saved)
    assert isinstance(screen, TeamsScreen) and screen.words == "RE"


async def test_a_team_is_built_from_its_route_with_its_title(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    tid = team_id(state, "Docs Core")
    screen = routes.build(services, "team", {"org_id": state.demo_org, "team_id": tid}, title="Docs team")
    assert isinstance(screen, TeamScreen) and screen.crumb == "Docs team"
    assert screen.scope == {"org_id": state.demo_org, "team_id": tid}
    async with open_app(lambda: screen) as (app, _pilot):
        assert app.screen.crumb == "Docs Core"  # the team's own title, once loaded
        assert len(cells(members_panel(app))) == 4


async def test_teams_i_own_and_what_a_non_admin_may_do(services: Services, state: SandboxState, open_app: Any) -> None:
    state.tokens[TOKEN] = uid(state, "chen@northwind.dev")  # owner of API Writers, not an admin
    async with open_app(teams_screen(services, state)) as (app, pilot):
        panel = teams_panel(app)
        assert why_unavailable(app.screen, "n") == "Only admins of the organization can create teams."
        await to_row(pilot, panel, team_id(state, "Docs Core"))
        assert why_unavailable(app.screen, "D") == (
            "Only admins of the organization and owners of this team can delete this team."
        )
        await keys(pilot, "n", "D")
        assert isinstance(app.screen, TeamsScreen)  # nothing opened
        await keys(pilot, "m")
        assert titles(panel) == ["API Writers"] and hint(panel).startswith("Teams you manage")
        assert why_unavailable(app.screen, "e") is None  # an owner may rename their team


async def test_create_a_team_with_two_members(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(teams_screen(services, state)) as (app, pilot):
        await keys(pilot, "n")
        modal = app.screen
        assert isinstance(modal, CreateTeamModal)
        await keys(pilot, *"Platform")
        await keys(pilot, "tab")  # the members: Ada, Bruno, Chen, ... by name
        assert isinstance(app.focused, SelectionList)
        await keys(pilot, "down", "space", "down", "down", "space")  # Bruno and Dana
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, TeamsScreen)
        assert team_members(state, "Platform") == {"bruno": "member", "dana": "member"}
        assert "Team created: Platform (2 members)" in notes(app)
        panel = teams_panel(app)
        assert "Platform" in titles(panel)
        assert panel.browser.list.highlighted is not None and panel.browser.list.highlighted.key == team_id(
            state, "Platform"
        )


async def test_a_create_whose_answer_was_lost_is_looked_for(
    services: Services, state: SandboxState, open_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = services.client.teams.create

    async def answer_lost(*args: Any, **kwargs: Any) -> Any:
        await real(*args, **kwargs)
        raise RequestTimeout(method="PUT", path="/orgs/.../teams")

    monkeypatch.setattr(services.client.teams, "create", answer_lost)
    async with open_app(teams_screen(services, state)) as (app, pilot):
        await keys(pilot, "n", *"Platform", "ctrl+s")
        assert isinstance(app.screen, TeamsScreen)  # found on the service: not sent twice
        assert [t["title"] for t in state.teams.values()].count("Platform") == 1
        assert "The answer was lost, but the service has it: it was sent once." in notes(app)
        assert "Team created: Platform (0 members)" in notes(app)


async def test_a_title_of_65_characters_is_refused_before_sending(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(teams_screen(services, state)) as (app, pilot):
        await keys(pilot, "n")
        modal = app.screen
        assert isinstance(modal, CreateTeamModal)
        state.hits.clear()
        await keys(pilot, *("x" * 65))
        assert "At most 64 characters: this title has 65." in modal.problem_text  # as typed
        await keys(pilot, "ctrl+s")
        assert app.screen is modal and not sent(state, "PUT") and len(state.teams) == 3
        assert modal.query_one("#field-title", Input).value == "x" * 65  # kept
        await keys(pilot, "backspace", "ctrl+s")
        assert isinstance(app.screen, TeamsScreen) and "x" * 64 in [t["title"] for t in state.teams.values()]


async def test_a_refusal_of_the_service_keeps_the_text(services: Services, state: SandboxState, open_app: Any) -> None:
    reviewers = team_id(state, "Reviewers")
    async with open_app(teams_screen(services, state)) as (app, pilot):
        await to_row(pilot, teams_panel(app), reviewers)
        await keys(pilot, "e")
        modal = app.screen
        assert isinstance(modal, RenameTeamModal)
        assert modal.query_one("#field-title", Input).value == "Reviewers"  # the exact title
        del state.teams[reviewers]  # deleted by someone else meanwhile
        await keys(pilot, "ctrl+u", *"Review Board", "ctrl+s")
        assert app.screen is modal
        assert "Not renamed" in modal.problem_text and "What you typed is kept" in modal.problem_text
        assert modal.query_one("#field-title", Input).value == "Review Board"


async def test_rename_a_team(services: Services, state: SandboxState, open_app: Any) -> None:
    docs = team_id(state, "Docs Core")
    async with open_app(teams_screen(services, state)) as (app, pilot):
        await to_row(pilot, teams_panel(app), docs)
        await keys(pilot, "e", "ctrl+u", *"Docs Platform", "enter")
        assert isinstance(app.screen, TeamsScreen)
        assert state.teams[docs]["title"] == "Docs Platform"
        assert "Team renamed: Docs Core \u2192 Docs Platform" in notes(app)
        assert "Docs Platform" in titles(teams_panel(app))


async def test_delete_a_team_with_its_title_typed(services: Services, state: SandboxState, open_app: Any) -> None:
    reviewers = team_id(state, "Reviewers")
    async with open_app(teams_screen(services, state)) as (app, pilot):
        await to_row(pilot, teams_panel(app), reviewers)
        await keys(pilot, "D")
        confirm = app.screen
        assert isinstance(confirm, TypedConfirm) and confirm.expected == "Reviewers"
        await keys(pilot, *"reviewers", "enter")
        assert app.screen is confirm and reviewers in state.teams  # not the exact title
        await keys(pilot, "ctrl+u", *"Reviewers", "enter")
        assert isinstance(app.screen, TeamsScreen) and reviewers not in state.teams
        assert titles(teams_panel(app)) == ["API Writers", "Docs Core"]
        assert uid(state, "hana@northwind.dev") in state.members[state.demo_org]  # members stay
        assert "Team deleted: Reviewers" in notes(app)


# --- one team ---------------------------------------------------------------------------------------------------


async def test_a_team_opens_to_its_members(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(teams_screen(services, state)) as (app, pilot):
        await to_row(pilot, teams_panel(app), team_id(state, "Reviewers"))
        await keys(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, TeamScreen)
        assert screen.sub_title == "Northwind Labs \u203a Teams \u203a Reviewers"
        assert [r[1:] for r in cells(screen.panel)] == [
            ["Dana Moreau", "dana@northwind.dev", "owner", "review"],
            ["Bruno Lindqvist", "bruno@northwind.dev", "member", "admin"],
            ["Hana Sato", "hana@northwind.dev", "member", "review"],
        ]
        line = str(screen.query_one("#team-summary", Static).render())
        assert line.startswith("Reviewers · 3 members · 0 spaces\nCreated 2026-01-05")


async def test_add_a_member_by_email_then_by_picking(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(team_screen(services, state, "Reviewers")) as (app, pilot):
        await keys(pilot, "n")
        modal = app.screen
        assert isinstance(modal, AddTeamMemberModal)
        await keys(pilot, *"nobody@else.dev", "ctrl+s")
        assert app.screen is modal and "not a member of the organization" in modal.problem_text
        assert modal.query_one("#field-who", Input).value == "nobody@else.dev"  # kept
        await keys(pilot, "ctrl+u", *"IVAN@northwind.dev", "ctrl+s")
        assert isinstance(app.screen, TeamScreen)
        assert team_members(state, "Reviewers")["ivan"] == "member"
        assert "IVAN@northwind.dev was added to the team." in notes(app)
        assert "Ivan Petrov" in [r[1] for r in cells(members_panel(app))]
        assert "4 members" in str(app.screen.query_one("#team-summary", Static).render())
        await keys(pilot, "n")
        modal = app.screen
        assert isinstance(modal, AddTeamMemberModal)
        await keys(pilot, "tab", "right", "space")  # team role: owner
        await keys(pilot, "tab", "space")  # the first member not in the team: Ada
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, TeamScreen)
        assert team_members(state, "Reviewers")["ada"] == "owner"
        assert "Ada Okafor was added to the team." in notes(app)


async def test_change_a_team_role_and_remove_one(services: Services, state: SandboxState, open_app: Any) -> None:
    hana = uid(state, "hana@northwind.dev")
    async with open_app(team_screen(services, state, "Reviewers")) as (app, pilot):
        panel = members_panel(app)
        await to_row(pilot, panel, hana)
        await keys(pilot, "e")
        picker = app.screen
        assert isinstance(picker, ChoiceModal) and picker.current == "member"
        await keys(pilot, "up", "enter")
        assert team_members(state, "Reviewers")["hana"] == "owner"
        assert "Hana Sato is now owner of the team (was member)." in notes(app)
        await to_row(pilot, panel, hana)
        await keys(pilot, "D")
        await keys(pilot, "y")
        assert "hana" not in team_members(state, "Reviewers")
        assert hana in state.members[state.demo_org]
        assert "Hana Sato was removed from the team." in notes(app)


async def test_bulk_changes_in_one_request(services: Services, state: SandboxState, open_app: Any) -> None:
    bruno, hana = uid(state, "bruno@northwind.dev"), uid(state, "hana@northwind.dev")
    async with open_app(team_screen(services, state, "Reviewers")) as (app, pilot):
        panel = members_panel(app)
        await keys(pilot, "a")
        modal = app.screen
        assert isinstance(modal, AddTeamMembersModal)
        await keys(pilot, "ctrl+s")
        assert app.screen is modal and "Pick at least one member" in modal.problem_text
        await keys(pilot, "space", "down", "space")  # Ada and Chen (Bruno and Dana are in the team already)
        state.hits.clear()
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, TeamScreen)
        assert {"ada", "chen"} <= set(team_members(state, "Reviewers"))
        assert ("PUT", "/orgs/{organizationId}/teams/{teamId}/members") in state.hits
        assert "2 members added to the team in one request." in notes(app)
        for key in (bruno, hana):
            await to_row(pilot, panel, key)
            await keys(pilot, "space")
        assert "2 marked" in hint(panel)
        await keys(pilot, "e", "enter")  # owner, for both
        assert team_members(state, "Reviewers")["bruno"] == team_members(state, "Reviewers")["hana"] == "owner"
        assert not panel.marks
        for key in (bruno, hana):
            await to_row(pilot, panel, key)
            await keys(pilot, "space")
        state.hits.clear()
        await keys(pilot, "x", "y")
        assert {"bruno", "hana"}.isdisjoint(team_members(state, "Reviewers"))
        assert not sent(state, "DELETE")  # one PUT, not a DELETE each
        assert "2 members removed from the team." in notes(app)
        assert why_unavailable(app.screen, "x") == "No member is marked: space marks one, * marks all shown."


async def test_a_member_who_may_not_manage_the_team_is_told(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    state.tokens[TOKEN] = uid(state, "hana@northwind.dev")  # a member of Reviewers, not its owner
    async with open_app(team_screen(services, state, "Reviewers")) as (app, pilot):
        why = "Only admins of the organization and owners of this team can change its members."
        assert why_unavailable(app.screen, "n") == why and why_unavailable(app.screen, "D") == why
        state.hits.clear()
        await keys(pilot, "n", "D")
        assert isinstance(app.screen, TeamScreen) and not sent(state, "PUT") and not sent(state, "DELETE")
        assert "only its owners and admins manage it" in str(app.screen.query_one("#team-summary", Static).render())
