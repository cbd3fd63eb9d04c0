"""The trash, driven by keys over the seeded sandbox: a space deleted after Folio saw it shows with the time it has
left, ``u`` restores it (the sandbox holds it live again; the row goes, "restored" is said); the spaces known
to be deleted come soonest-to-go first; a reader is told why they cannot restore; a space removed for good
meanwhile is reported and stays; ``:trash`` opens it for the organization in view."""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from folio.api import GitBookClient
from folio.models.space import SpaceSummary
from folio.sandbox import SandboxState
from folio.services import Services
from folio.services.local import Local
from folio.tui.actions import why_unavailable
from folio.tui.app import FolioApp
from folio.tui.screens.content.trash import TrashPanel, TrashScreen
from tests.conftest import FROZEN_AT, TOKEN
from tests.tui.conftest import settle


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


def space_id(state: SandboxState, title: str) -> str:
    return next(sid for sid, s in state.spaces.items() if s["title"] == title)


def trash_screen(services: Services, state: SandboxState) -> Any:
    return lambda: TrashScreen(services, state.demo_org, trail=("Northwind Labs",))


def panel(app: FolioApp) -> TrashPanel:
    screen = app.screen
    assert isinstance(screen, TrashScreen)
    return screen.panel


def cells(trash: TrashPanel) -> list[list[str]]:
    return [[c if isinstance(c, str) else c.plain for c in r.cells] for r in trash.browser.list.visible_rows]


def notes(app: FolioApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def status(trash: TrashPanel) -> str:
    return str(trash.browser.query_one(".resource-browser--status", Static).render())


async def test_a_deleted_space_is_restored_from_the_trash(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(trash_screen(services, state)) as (app, pilot):
        trash = panel(app)
        assert cells(trash) == []
        assert status(trash).startswith("No deleted space here. The service does not list deleted spaces")
        sid = space_id(state, "Scratchpad")
        await services.client.spaces.delete(sid)  # deleted elsewhere, after Folio saw it listed
        assert state.spaces[sid]["deletedAt"]
        await pilot.press("r")
        await settle(pilot)
        assert cells(trash) == [["📝 Scratchpad", "just now", "7 days left", "2026-11-08 09:00 UTC"]]
        hint = str(trash.query_one(".resource-panel--hint", Static).render())
        assert hint.startswith("1 deleted space Folio saw here")
        await pilot.press("u")
        await settle(pilot)
        assert state.spaces[sid]["deletedAt"] is None  # the sandbox has it live again
        assert cells(trash) == []
        assert "“Scratchpad” restored: it is back in the organization." in notes(app)
        assert why_unavailable(app.screen, "u") == "No deleted space is selected."


async def test_the_known_deleted_spaces_come_soonest_to_go_first(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    legacy = space_id(state, "Legacy Docs (v1)")  # deleted 3 days ago by the seed
    services.trash.saw(state.demo_org, [SpaceSummary(id=legacy, title="Legacy Docs (v1)")])
    scratch = await services.space.space(space_id(state, "Scratchpad"))
    await services.trash.delete(scratch)
    async with open_app(trash_screen(services, state)) as (app, _pilot):
        assert [row[:3] for row in cells(panel(app))] == [
            ["🗄️ Legacy Docs (v1)", "3 d ago", "4 days left"],
            ["📝 Scratchpad", "just now", "7 days left"],
        ]


async def test_a_reader_is_told_why_they_cannot_restore(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_id(state, "Scratchpad")
    services.trash.saw(state.demo_org, [SpaceSummary(id=sid, title="Scratchpad")])
    await services.client.spaces.delete(sid)
    ivan = next(u for u, rec in state.users.items() if rec["email"] == "ivan@northwind.dev")
    state.tokens = {TOKEN: ivan}
    async with open_app(trash_screen(services, state)) as (app, pilot):
        assert [row[0] for row in cells(panel(app))] == ["📝 Scratchpad"]
        await pilot.press("u")
        await settle(pilot)
        assert why_unavailable(app.screen, "u") == "Only an admin of the organization can restore a space."
        assert state.spaces[sid]["deletedAt"]  # nothing was sent


async def test_a_space_removed_for_good_meanwhile_is_reported(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    legacy = space_id(state, "Legacy Docs (v1)")
    services.trash.saw(state.demo_org, [SpaceSummary(id=legacy, title="Legacy Docs (v1)")])
    async with open_app(trash_screen(services, state)) as (app, pilot):
        assert [row[0] for row in cells(panel(app))] == ["🗄️ Legacy Docs (v1)"]
        state.clock.advance(days=5)  # past its 7 days
        await pilot.press("u")
        await settle(pilot)
        assert any(n.startswith("“Legacy Docs (v1)” was not restored") for n in notes(app))
        assert legacy not in state.spaces
        await pilot.press("r")
        await settle(pilot)
        assert cells(panel(app)) == []


async def test_the_trash_command_opens_the_organizations_trash(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(trash_screen(services, state)) as (app, pilot):
        await pilot.press(":", *"search fleet", "enter")
        await settle(pilot)
        await pilot.press("escape", ":", *"trash", "enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TrashScreen) and screen.org_id == state.demo_org
        assert screen.crumb == "Trash"


async def test_a_deleted_space_says_so_and_comes_back_when_restored_from_the_trash(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    from folio.tui.screens.content.space import GONE, SpaceScreen

    sid = space_id(state, "Getting Started")
    await services.client.spaces.delete(sid)
    start = lambda: SpaceScreen(services, sid, trail=("Northwind Labs",))  # noqa: E731
    async with open_app(start) as (app, pilot):
        space = app.screen
        assert isinstance(space, SpaceScreen)
        facts = str(space.query_one("#space-facts", Static).render())
        assert facts.startswith("Deleted, restorable until ") and facts.endswith("(:trash restores it)")
        tree_status = space.page_tree.query_one(".resource-browser--status", Static)
        assert str(tree_status.render()) == GONE  # in words, not the service's refusal with the space's id
        assert why_unavailable(space, "e") == "The space is deleted: restore it first."
        app.open_route("trash", {"org_id": state.demo_org})  # the trash on top (as the organization's X opens it)
        await settle(pilot)
        assert type(app.screen).__name__ == "TrashScreen"
        await pilot.press("u")
        await settle(pilot)
        assert state.spaces[sid]["deletedAt"] is None
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is space
        assert str(space.query_one("#space-facts", Static).render()).startswith("Public · Live editing")
        assert [str(r.cells[0]) for r in space.page_tree.list.visible_rows][:2] == ["Welcome", "Installation"]


async def test_a_space_listed_then_deleted_by_someone_else_is_in_the_trash(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    from folio.tui.screens.content.organization import OrganizationScreen

    start = lambda: OrganizationScreen(services, state.demo_org, title="Northwind Labs")  # noqa: E731
    async with open_app(start) as (app, pilot):
        sid = space_id(state, "Onboarding")
        await services.client.spaces.delete(sid)  # by someone else: Folio is not told
        await pilot.press("r")  # the organization's list read again: it is not in it any more
        await settle(pilot)
        assert all(s.id != sid for s in app.screen.spaces)  # type: ignore[attr-defined]
        app.open_route("trash", {"org_id": state.demo_org})
        await settle(pilot)
        assert [row[0] for row in cells(panel(app))] == ["👋 Onboarding"]


async def test_a_space_seen_in_an_earlier_run_is_in_the_trash_of_a_later_one(
    client: GitBookClient, state: SandboxState, tmp_path: Path
) -> None:
    """Three runs over one local cache: the first lists the organization, someone then deletes a space, the second
    lists it again (the cached list no longer names the space), the third opens the trash."""
    from folio.tui.screens.content.organization import OrganizationScreen

    local = Local(client, cache_dir=tmp_path / "cache", state_dir=tmp_path / "state")
    local.confirm(state.default_user, "Ada")
    sid = space_id(state, "Onboarding")
    try:
        for run in range(3):
            services = Services(client, local=local)
            if run == 2:
                start: Any = partial(TrashScreen, services, state.demo_org, trail=("Northwind Labs",))
            else:
                start = partial(OrganizationScreen, services, state.demo_org, title="Northwind Labs")
            app = FolioApp(services, start=start)
            app.animation_level = "none"
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot)
                if run == 2:
                    assert [row[0] for row in cells(panel(app))] == ["👋 Onboarding"]
            if run == 0:
                await client.spaces.delete(sid)
    finally:
        local.close()


async def test_trash_words_open_the_list_filtered_by_them(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """``:trash legacy``: the route hands the words to the screen, which opens its list filtered by them (the
    filter box shows them; esc clears them); the session saves them as the screen's ``words``."""
    from folio.tui import routes

    legacy, scratch = space_id(state, "Legacy Docs (v1)"), space_id(state, "Scratchpad")
    state.spaces[scratch]["deletedAt"] = state.clock.iso(FROZEN_AT - timedelta(hours=20))
    services.trash.saw(state.demo_org, [SpaceSummary(id=legacy, title=""), SpaceSummary(id=scratch, title="")])
    start = lambda: routes.build(services, "trash", {"org_id": state.demo_org, "words": "legacy"})  # noqa: E731
    async with open_app(start) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, TrashScreen)
        assert [row[0].split(" ", 1)[1] for row in cells(screen.panel)] == ["Legacy Docs (v1)"]
        assert screen.words == "legacy"
        assert screen.panel.browser.has_class("-filtering")  # the words are in the filter box, in view
        await pilot.press("escape")
        await settle(pilot)
        assert sorted(row[0].split(" ", 1)[1] for row in cells(screen.panel)) == ["Legacy Docs (v1)", "Scratchpad"]
        assert screen.words is None
