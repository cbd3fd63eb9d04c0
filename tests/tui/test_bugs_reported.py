"""A bug of ours is not a failed request (issue 25): the screens catch what the services raise (``ServiceError``)
and say it as before, while anything else that ends a worker reaches the app's worker manager
(``folio.tui.errors.watch_workers``), which logs it and says "Something went wrong inside Folio"; the app goes on."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from textual.widgets import Static

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.screens.people.team import TeamScreen
from folio.tui.screens.people.teams import TeamsScreen
from tests.tui.conftest import settle


def _notes(app: FolioApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def _team_screen(services: Services, state: SandboxState, team_id: str) -> TeamScreen:
    return TeamScreen(services, state.demo_org, team_id, trail=("Northwind Labs", "Teams"))


def _summary(app: FolioApp) -> str:
    return str(app.screen.query_one("#team-summary", Static).render())


async def test_a_bug_in_a_load_is_logged_and_said_not_shown_as_a_failed_read(
    services: Services, state: SandboxState, open_app: Any, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    team_id = next(iter(state.teams))

    async def broken(org_id: str, team: str) -> Any:
        return {}["a bug of ours"]  # a KeyError: no service said anything

    monkeypatch.setattr(services.people, "team", broken)
    with caplog.at_level(logging.ERROR, logger="folio.tui"):
        async with open_app(lambda: _team_screen(services, state, team_id)) as (app, pilot):
            assert any("Something went wrong inside Folio (KeyError)" in note for note in _notes(app))
            assert "Could not load the team" not in _summary(app)  # not dressed up as the service's refusal
            assert any(r.message == "unexpected error" and r.exc_info for r in caplog.records)
            # the app goes on: the keys still work
            monkeypatch.undo()
            await pilot.press("r")
            await settle(pilot)
            assert state.teams[team_id]["title"] in _summary(app)


async def test_a_service_error_is_still_said_where_the_screen_says_it(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(lambda: _team_screen(services, state, "no-such-team")) as (app, _pilot):
        assert _summary(app).startswith("Could not load the team")
        assert not any("Something went wrong" in note for note in _notes(app))


async def test_a_bug_in_a_write_is_said_as_a_bug_and_the_list_stays(
    services: Services, state: SandboxState, open_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    reviewers = next(t for t, team in state.teams.items() if team["title"] == "Reviewers")

    async def broken(org_id: str, team_id: str) -> None:
        raise AttributeError("a bug of ours")

    monkeypatch.setattr(services.people, "delete_team", broken)
    async with open_app(lambda: TeamsScreen(services, state.demo_org, trail=("Northwind Labs",))) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, TeamsScreen)
        assert screen.panel.browser.list.move_to(reviewers)
        await pilot.press("D", *"Reviewers", "enter")
        await settle(pilot)
        assert app.screen is screen and reviewers in state.teams
        said = _notes(app)
        assert any("Something went wrong inside Folio (AttributeError)" in note for note in said)
        assert not any(note.startswith("Could not delete the team") for note in said)
