"""Screens left behind stay alive for a reopen (issue 15: "keep visited screens alive (bounded: the last few),
so a reopen is a push, not a build"): the same screen comes back as it was, under the trail it is opened from
now, and reads its data again once it is on screen; only the last few are kept; a deleted thing's screen is let go.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import pytest
from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Static

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui import routes
from folio.tui.app import FolioApp
from folio.tui.app.navigation import KEEP_VISITED
from folio.tui.declare import Route
from folio.tui.screens.base import FolioScreen
from folio.tui.screens.content.organization import OrganizationScreen
from folio.tui.screens.content.organizations import OrganizationsScreen
from folio.tui.screens.content.space import SPACE, SpaceScreen
from folio.tui.widgets.resource_browser import ResourceBrowser
from tests.tui.conftest import settle


class Room(FolioScreen):
    """A small screen of a fake route: counts the times it was built and refreshed."""

    built: ClassVar[int] = 0

    def __init__(self, services: Services, name: str, trail: tuple[str, ...]) -> None:
        super().__init__(services, trail=trail)
        self.crumb = name
        self.refreshes = 0
        Room.built += 1

    @classmethod
    def from_route(  # type: ignore[override]
        cls, route: Route, services: Services, ids: Any, *, title: str | None, trail: tuple[str, ...]
    ) -> Any:
        """A Room for ids with a ``name``; a real space's screen otherwise."""
        if "name" in ids:
            return cls(services, ids["name"], trail)
        return SpaceScreen.from_route(SPACE, services, ids, title=title, trail=trail)

    def compose(self) -> ComposeResult:
        yield Static(Content(f"Room {self.crumb}"))

    def action_refresh(self) -> None:
        self.refreshes += 1


@pytest.fixture(autouse=True)
def room_route(monkeypatch: pytest.MonkeyPatch) -> None:
    """``space`` routes with a ``name`` id open Rooms (a real space id still opens the real screen)."""
    room = dataclasses.replace(routes.ROUTES["space"], module=__name__, screen="Room", ids=())  # ids: Room's own
    monkeypatch.setitem(routes.ROUTES, "space", room)
    Room.built = 0


def _home(services: Services) -> FolioScreen:
    home = Room(services, "Home", ())
    Room.built = 0
    return home


async def _open(app: FolioApp, pilot: Any, name: str) -> FolioScreen:
    app.open_route("space", {"name": name})
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, Room) and screen.crumb == name
    return screen


async def test_a_screen_opened_again_is_the_one_left_and_it_reads_again(open_app: Any, services: Services) -> None:
    async with open_app(lambda: _home(services)) as (app, pilot):
        first = await _open(app, pilot, "Kitchen")
        assert Room.built == 1 and first.refreshes == 0  # a new screen reads as it mounts, not through revisit
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is not first and app.is_screen_installed(first)  # left, kept
        again = await _open(app, pilot, "Kitchen")
        assert again is first and Room.built == 1  # pushed back, not built
        assert first.refreshes == 1  # and read again once on screen
        assert "Kitchen" in first.sub_title


async def test_only_the_last_few_are_kept(open_app: Any, services: Services) -> None:
    async with open_app(lambda: _home(services)) as (app, pilot):
        left: list[FolioScreen] = []
        for index in range(KEEP_VISITED + 2):
            left.append(await _open(app, pilot, f"Room {index}"))
            await pilot.press("escape")
            await settle(pilot)
        kept = [screen for screen in left if app.is_screen_installed(screen)]
        assert kept == left[-KEEP_VISITED:]
        assert not any(screen.is_attached for screen in left[:2])  # let go: Textual frees them
        assert await _open(app, pilot, "Room 0") is not left[0]  # built again
        assert await _open(app, pilot, f"Room {KEEP_VISITED + 1}") is left[-1]


async def test_a_deleted_things_screen_is_built_again(open_app: Any, services: Services) -> None:
    async with open_app(lambda: _home(services)) as (app, pilot):
        first = await _open(app, pilot, "Attic")
        await pilot.press("escape")
        await settle(pilot)
        app.forget("space", {"name": "Attic"})
        assert not app.is_screen_installed(first) or first not in app._visited.values()  # type: ignore[union-attr]
        assert await _open(app, pilot, "Attic") is not first


async def test_a_screen_in_the_stack_is_not_pushed_twice(open_app: Any, services: Services) -> None:
    async with open_app(lambda: _home(services)) as (app, pilot):
        first = await _open(app, pilot, "Hall")
        second = await _open(app, pilot, "Hall")  # opened from itself: a second screen on top
        assert second is not first and app.screen_stack[-2:] == [first, second]


async def test_the_organization_reopens_on_its_tab_and_row_and_shows_what_changed(
    open_app: Any, services: Services, state: SandboxState
) -> None:
    async with open_app(lambda: OrganizationsScreen(services), size=(120, 40)) as (app, pilot):
        app.open_route("organization", {"org_id": state.demo_org}, title="Northwind Labs")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, OrganizationScreen)
        await pilot.press("2", "j", "j")
        await settle(pilot)
        spaces = screen.query_one("#organization-spaces", ResourceBrowser)
        row = spaces.list.highlighted
        assert row is not None
        guide = next(s for s in state.spaces.values() if s["title"] == "User Guide")
        guide["title"] = "User Guide, second edition"  # changed meanwhile, by someone else
        await pilot.press("escape")
        await settle(pilot)
        app.open_route("organization", {"org_id": state.demo_org}, title="Northwind Labs")
        await settle(pilot)
        assert app.screen is screen  # the same screen, on the spaces tab, on the same row
        assert screen.query_one("TabbedContent").active == "spaces"  # type: ignore[attr-defined]
        assert spaces.list.highlighted is not None and spaces.list.highlighted.key == row.key
        titles = [r.cells[0] if isinstance(r.cells[0], str) else r.cells[0].plain for r in spaces.list.rows]
        assert "User Guide, second edition" in titles  # and it read the organization again


async def test_a_kept_screen_takes_a_theme_chosen_while_it_was_away(open_app: Any, services: Services) -> None:
    async with open_app(lambda: _home(services)) as (app, pilot):
        first = await _open(app, pilot, "Porch")
        dark = first.styles.background
        await pilot.press("escape")
        await settle(pilot)
        app.theme = "textual-light"
        await settle(pilot)
        assert await _open(app, pilot, "Porch") is first
        assert first.styles.background != dark  # styled again for the theme (it is not restyled otherwise)


async def test_a_screen_back_on_screen_is_not_styled_again(
    open_app: Any, services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_app(lambda: _home(services)) as (app, pilot):
        first = await _open(app, pilot, "Study")
        await pilot.press("escape")
        await settle(pilot)
        styled: list[Any] = []
        real = app.update_styles
        monkeypatch.setattr(app, "update_styles", lambda node, animate=True: (styled.append(node), real(node, animate)))
        assert await _open(app, pilot, "Study") is first
        await pilot.press("escape")  # and back to the screen below it
        await settle(pilot)
        assert first not in styled and app.screen not in styled  # (Textual restyles every node at each resume)
