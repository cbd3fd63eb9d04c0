"""The organization screen opens with only the tab it shows: its first frame paints that tab (from the cache when
the organization was visited before), the other tabs are mounted after it, and everything they load stays
reachable (palette, refresh, errors, a restored session's tab)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import TabbedContent, TabPane

from folio.models.space import SpaceSummary
from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui.screens.content.organization import TABS, OrganizationScreen
from folio.tui.widgets.resource_browser import ResourceBrowser
from tests.conftest import FROZEN_AT
from tests.tui.conftest import settle
from tests.tui.test_hostile import frame_text
from tests.tui.test_local import Machine
from tests.tui.test_organization import OPEN, TREE, _indented, _status


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)


@pytest.fixture
def machine(state: SandboxState, tmp_path: Path) -> Machine:
    return Machine(state, tmp_path / "home")


def _filled(screen: OrganizationScreen) -> dict[str, bool]:
    """Which tabs have their widget mounted."""
    return {tab: bool(screen.query_one(f"TabPane#{tab}", TabPane).children) for tab in TABS}


def _first_frame(screen: OrganizationScreen) -> dict[str, Any]:
    """Watch ``screen`` paint: what its first frame showed, and which tabs were mounted then."""
    seen: dict[str, Any] = {}
    paint = screen._compositor_refresh

    def frame() -> None:
        paint()
        if not seen:
            seen["text"] = frame_text(screen)
            seen["filled"] = _filled(screen)
            seen["tab"] = screen.query_one(TabbedContent).active

    screen._compositor_refresh = frame  # type: ignore[method-assign]
    return seen


async def test_a_visited_organization_paints_its_tab_from_the_cache_in_the_first_frame(
    machine: Machine, state: SandboxState
) -> None:
    async with machine.run() as (app, pilot):
        app.push_screen(OrganizationScreen(app.services, state.demo_org, title="Northwind Labs"))
        await settle(pilot)  # the visit that fills the cache
        app.pop_screen()
        await settle(pilot)
        screen = OrganizationScreen(app.services, state.demo_org, title="Northwind Labs")
        first = _first_frame(screen)
        await app.push_screen(screen)
        await settle(pilot)
        assert first["tab"] == "collections"
        assert first["filled"] == {"collections": True, "spaces": False, "change-requests": False, "sites": False}
        for title in ("Product", "Getting Started", "Not in a collection", "Scratchpad"):
            assert title in first["text"], title
        assert "Loading" not in first["text"]
        assert _filled(screen) == dict.fromkeys(TABS, True)  # the others after it
        assert _indented(screen.content_tree) == TREE
        assert screen.content_tree.list.has_focus


async def test_tabs_mounted_after_the_first_frame_load_and_feed_the_palette(
    open_app: Any, services: Services, state: SandboxState
) -> None:
    start = lambda: OrganizationScreen(services, state.demo_org, title="Northwind Labs")  # noqa: E731
    async with open_app(start, size=(120, 30)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, OrganizationScreen)
        assert _filled(screen) == dict.fromkeys(TABS, True)
        assert screen.tabs.active == "collections"  # nothing was shown but the first tab
        assert len(screen.spaces_list.list.rows) == 12
        assert len(screen.inbox.browser.list.rows) == len(OPEN)
        assert len(screen.sites.browser.list.rows) == 2
        kinds = {kind for kind, _ in app.loaded}
        assert {"space", "change-request", "site"} <= kinds, kinds
        # the inbox mounted late still names the spaces of its rows
        await pilot.press("3")
        await settle(pilot)
        assert screen.inbox.browser.list.has_focus
        first = screen.inbox.browser.list.rows[0]
        assert str(first.cells[1]) == "Platform Runbooks"


async def test_a_failure_is_said_in_a_tab_mounted_after_it(
    open_app: Any, services: Services, state: SandboxState
) -> None:
    state.tokens = {"another-token": state.default_user}
    start = lambda: OrganizationScreen(services, state.demo_org, title="Northwind Labs")  # noqa: E731
    async with open_app(start) as (_app, pilot):
        screen = _app.screen
        assert isinstance(screen, OrganizationScreen)
        await pilot.press("2")
        await settle(pilot)
        assert _status(screen.spaces_list).startswith("Could not load the spaces:")
        assert screen.spaces_list.query_one(".resource-browser--status").has_class("-error")
        state.tokens = {}
        await pilot.press("r")
        await settle(pilot)
        assert _status(screen.spaces_list) == "12 rows"
        assert _status(screen.content_tree) == "19 rows"


async def test_a_restored_tab_is_the_one_composed_and_shown_first(
    open_app: Any, services: Services, state: SandboxState
) -> None:
    screen = OrganizationScreen(services, state.demo_org, title="Northwind Labs")
    screen._folio_restore = {"tab": "sites"}  # type: ignore[attr-defined]  # what folio.tui.session.rebuild sets
    first = _first_frame(screen)
    async with open_app(lambda: screen, size=(120, 30)) as (_app, pilot):
        assert first["tab"] == "sites"
        assert first["filled"] == {"collections": False, "spaces": False, "change-requests": False, "sites": True}
        await settle(pilot)
        assert screen.tabs.active == "sites"
        assert screen.sites.browser.list.has_focus
        assert [row.cells[0].plain for row in screen.sites.browser.list.rows] == [  # type: ignore[union-attr]
            "Northwind Docs",
            "Internal Handbook",
        ]
        await pilot.press("1")
        assert screen.content_tree.list.has_focus
        assert _indented(screen.content_tree) == TREE


async def test_a_tab_asked_for_at_once_is_mounted_and_focused(
    open_app: Any, services: Services, state: SandboxState
) -> None:
    async with open_app() as (app, pilot):
        screen = OrganizationScreen(services, state.demo_org, title="Northwind Labs")
        await app.push_screen(screen)
        await pilot.press("3")  # (the other tabs may not be mounted yet)
        assert screen.tabs.active == "change-requests"
        assert screen.inbox.browser.list.has_focus
        await settle(pilot)
        assert [str(row.cells[0]) for row in screen.inbox.browser.list.rows] == OPEN
        assert isinstance(screen.spaces_list, ResourceBrowser)


async def test_an_organization_not_seen_before_paints_loading_not_empty_nor_failed(
    machine: Machine, state: SandboxState
) -> None:
    async with machine.run() as (app, pilot):
        assert app.services.client.store is not None  # the cache is there, this organization is not in it
        screen = OrganizationScreen(app.services, state.demo_org, title="Northwind Labs")
        first = _first_frame(screen)
        await app.push_screen(screen)
        await settle(pilot)
        assert "Loading" in first["text"]
        assert "no collections or spaces yet" not in first["text"]
        assert "Could not" not in first["text"]
        assert _indented(screen.content_tree) == TREE
        assert _status(screen.content_tree) == "19 rows"


async def test_a_first_visit_reads_the_reviews_without_saying_they_were_not_cached(
    machine: Machine, state: SandboxState
) -> None:
    """The inbox's reviews are read from the cache first (nothing there on a first visit), then from the service:
    the cache pass's misses are not problems to show."""
    async with machine.run() as (app, pilot):
        app.push_screen(OrganizationScreen(app.services, state.demo_org, title="Northwind Labs"))
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, OrganizationScreen)
        filters = str(screen.inbox.query_one(".resource-panel--hint").render())
        assert "Showing open" in filters
        assert "reviews" not in filters and "cache" not in filters, filters
        assert screen.inbox.verdicts and all(v is not None for v in screen.inbox.verdicts.values())


async def test_a_return_visit_shows_what_changed_since_the_cached_paint(machine: Machine, state: SandboxState) -> None:
    """The fresh read after a cached paint keeps the cached rows while its pages are the cache's, and shows a
    change as soon as a page differs (here a space renamed since the visit that filled the cache)."""
    async with machine.run() as (app, pilot):
        app.push_screen(OrganizationScreen(app.services, state.demo_org, title="Northwind Labs"))
        await settle(pilot)
        app.pop_screen()
        await settle(pilot)
        unchanged = OrganizationScreen(app.services, state.demo_org, title="Northwind Labs")
        await app.push_screen(unchanged)
        await settle(pilot)
        assert _indented(unchanged.content_tree) == TREE
        assert _status(unchanged.spaces_list) == "12 rows"
        app.pop_screen()
        await settle(pilot)
        guide = next(s for s in state.spaces.values() if s["title"] == "User Guide")
        guide["title"] = "User Manual"
        screen = OrganizationScreen(app.services, state.demo_org, title="Northwind Labs")
        await app.push_screen(screen)
        await settle(pilot)
        assert "    User Manual" in _indented(screen.content_tree)
        titles = [str(row.cells[0]) for row in screen.spaces_list.list.rows]
        assert "User Manual" in titles and "User Guide" not in titles and len(titles) == 12


async def test_the_inbox_and_the_sites_are_mounted_once_the_content_is_shown(
    open_app: Any, services: Services, state: SandboxState, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the spaces load, the spaces tab is mounted (the same load feeds it) but the inbox and the sites wait:
    their loads would compete with it, and with the keys typed meanwhile. A tab asked for is mounted at once."""
    release = asyncio.Event()
    pages = services.browse.spaces_pages

    async def held(org_id: str, *, limit: int = 100) -> AsyncIterator[list[SpaceSummary]]:
        await release.wait()
        async for page in pages(org_id, limit=limit):
            yield page

    monkeypatch.setattr(services.browse, "spaces_pages", held)
    async with open_app(size=(120, 30)) as (app, pilot):
        screen = OrganizationScreen(services, state.demo_org, title="Northwind Labs")
        await app.push_screen(screen)
        for _ in range(100):  # the first frame, then the other content tab
            await pilot.pause()
            if _filled(screen)["spaces"]:
                break
        for _ in range(5):
            await pilot.pause()
        assert _filled(screen) == {"collections": True, "spaces": True, "change-requests": False, "sites": False}
        await pilot.press("4")  # asked for: mounted at once, the content still loading
        assert _filled(screen)["sites"] and not _filled(screen)["change-requests"]
        assert screen.sites.browser.list.has_focus
        release.set()
        await settle(pilot)
        assert _filled(screen) == dict.fromkeys(TABS, True)
        assert _indented(screen.content_tree) == TREE
        assert [str(row.cells[0]) for row in screen.inbox.browser.list.rows] == OPEN
        # mounted after the spaces were read, the inbox names them from its first rows
        assert str(screen.inbox.browser.list.rows[0].cells[1]) == "Platform Runbooks"


async def test_the_lists_that_load_show_no_loading_indicator(
    open_app: Any, services: Services, state: SandboxState
) -> None:
    """The tree, the spaces list and the inbox say "Loading…" in their status lines: no indicator is mounted over
    them (covering mounts a widget, uncovering removes it, and the app waits for a removal before the next key)."""
    start = lambda: OrganizationScreen(services, state.demo_org, title="Northwind Labs")  # noqa: E731
    async with open_app(start, size=(120, 30)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, OrganizationScreen)
        for browser in (screen.content_tree, screen.spaces_list, screen.inbox.browser):
            browser.set_rows([], staged=False)
            browser.set_loading(True)
            await pilot.pause()
            assert _status(browser) == "Loading…"
            assert browser.list.focusable, browser
            browser.list.loading = True  # (what the base browser does with a list that has no row yet)
            await pilot.pause()
            assert browser.list._cover_widget is None, browser
            browser.list.loading = False
