"""A screen is declared once: CONTRIBUTING.md's worked example, written as a module of the ``people`` area, is
reached by its ``:`` command, listed by ``?`` and by the command palette, filtered by the words after its verb, and
reopened by the session, with nothing else added anywhere (issue 25)."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandPalette

import folio.tui.screens.people as people_area
from folio.sandbox.state import SandboxState
from folio.services import Services
from folio.tui import routes
from folio.tui.modals.help import HelpModal
from folio.tui.screens.content.organization import OrganizationScreen
from folio.tui.session import rebuild, snapshot
from folio.tui.widgets.resource_list import ResourceList
from tests.tui.conftest import settle

CONTRIBUTING = Path(__file__).resolve().parents[2] / "CONTRIBUTING.md"
MODULE = "folio.tui.screens.people.invites"


def example() -> str:
    found = re.search(r"```python example-screen\n(.*?)```", CONTRIBUTING.read_text(encoding="utf-8"), re.S)
    assert found is not None, "CONTRIBUTING.md lost its worked example"
    return found.group(1)


@pytest.fixture
def declared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The worked example as ``screens/people/invites.py``: a folder added to the area, and the table read again."""
    (tmp_path / "invites.py").write_text(example(), encoding="utf-8")
    monkeypatch.setattr(people_area, "__path__", [*people_area.__path__, str(tmp_path)])
    routes.reload()
    yield
    monkeypatch.undo()
    sys.modules.pop(MODULE, None)
    routes.reload()


def org_screen(services: Services, state: SandboxState) -> Any:
    return lambda: OrganizationScreen(services, state.demo_org, title="Northwind Labs", trail=("Organizations",))


async def type_text(pilot: Any, text: str) -> None:
    await pilot.press(*[{" ": "space", ":": "colon"}.get(c, c) for c in text])


async def command(pilot: Any, line: str) -> None:
    await pilot.press("colon")
    await settle(pilot)
    await type_text(pilot, line)
    await pilot.press("enter")
    await settle(pilot)


def shown(app: Any) -> list[list[str]]:
    rows = app.screen.query_one(ResourceList).visible_rows
    return [[c if isinstance(c, str) else c.plain for c in r.cells] for r in rows]


def invites_of(state: SandboxState) -> dict[str, Any]:
    return state.invites[state.demo_org]


async def test_the_worked_example_is_one_module_and_nothing_else(declared: None) -> None:
    route = routes.route("invites")
    assert route is not None and (route.area, route.module) == ("people", MODULE)
    assert routes.route_of_verb("invites") is route
    assert "| `:invites [words]` | people |" in routes.readme_commands()
    assert len(example().splitlines()) <= 60


async def test_colon_opens_it_and_the_words_filter_it(
    declared: None, services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(org_screen(services, state)) as (app, pilot):
        await settle(pilot)
        await command(pilot, "invites")
        assert type(app.screen).__name__ == "InvitesScreen"
        assert app.screen.crumb == "Invite links"
        assert sorted(r[2] for r in shown(app)) == sorted(invites_of(state))
        await pilot.press("escape")
        await settle(pilot)
        await command(pilot, "invites edit")
        edits = sorted(i for i, invite in invites_of(state).items() if invite.get("role") == "edit")
        assert edits and sorted(r[2] for r in shown(app)) == edits
        assert app.screen.words == "edit"  # type: ignore[attr-defined]


async def test_help_and_the_palette_list_it(
    declared: None, services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(org_screen(services, state)) as (app, pilot):
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpModal)
        assert any(r[0] == ":invites" for r in shown(app))
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert CommandPalette.is_open(app)
        await type_text(pilot, "invite links")
        await settle(pilot)
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert type(app.screen).__name__ == "InvitesScreen"


async def test_the_session_reopens_it_with_its_words(
    declared: None, services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(org_screen(services, state)) as (app, pilot):
        await settle(pilot)
        await command(pilot, "invites edit")
        saved = snapshot([app.screen])
    assert saved["screens"][0]["screen"] == "invites"
    assert saved["screens"][0]["args"] == {"org_id": state.demo_org, "words": "edit"}
    (screen,) = rebuild(services, saved)
    assert type(screen).__name__ == "InvitesScreen" and screen.words == "edit"  # type: ignore[attr-defined]
