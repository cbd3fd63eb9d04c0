"""The organization screen, driven by keys over the seeded sandbox (clock frozen at FROZEN_AT)."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec
import pytest
from textual.pilot import Pilot
from textual.widgets import Tab

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui import routes
from folio.tui.screens.base import CRUMB
from folio.tui.screens.content.organization import OrganizationScreen
from folio.tui.screens.content.organizations import OrganizationsScreen
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import ResourceList
from tests.conftest import FROZEN_AT
from tests.tui.conftest import settle

REVIEWS = ("GET", "/spaces/{spaceId}/change-requests/{changeRequestId}/reviews")


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)


@pytest.fixture
def org_screen(services: Services, state: SandboxState) -> Any:
    return lambda: OrganizationScreen(services, state.demo_org, title="Northwind Labs", trail=("Organizations",))


def _screen(pilot: Pilot[None]) -> OrganizationScreen:
    screen = pilot.app.screen
    assert isinstance(screen, OrganizationScreen)
    return screen


def _cells(browser: ResourceBrowser) -> list[list[str]]:
    return [[c if isinstance(c, str) else c.plain for c in row.cells] for row in browser.list.visible_rows]


def _column(browser: ResourceBrowser, index: int = 0) -> list[str]:
    return [cells[index] for cells in _cells(browser)]


def _status(browser: ResourceBrowser) -> str:
    return str(browser.query_one(".resource-browser--status").render())


def _filters(screen: OrganizationScreen) -> str:
    return str(screen.inbox.query_one(".resource-panel--hint").render())


def _active_actions(screen: OrganizationScreen) -> list[str]:
    return [active.binding.action for active in screen.active_bindings.values() if active.enabled]


def _indented(browser: ResourceBrowser) -> list[str]:
    return [
        f"{'  ' * row.indent}{cells[0]}" for row, cells in zip(browser.list.visible_rows, _cells(browser), strict=True)
    ]


TREE = [
    "▾ Product",
    "  ▾ Guides",
    "    Getting Started",
    "    User Guide",
    "    Admin Handbook",
    "  ▾ Reference",
    "    REST API Reference",
    "    SDK Reference",
    "  Release Notes",
    "▾ Engineering",
    "  ▾ Runbooks",
    "    Platform Runbooks",
    "  Architecture Decisions",
    "▾ Company",
    "  Onboarding",
    "  Brand Guidelines",
    "▾ Not in a collection",
    "  Centre d'aide",
    "  Scratchpad",
]
OPEN = [
    "#2 Weekend paging rotation",
    "#2 Remove the deprecated Rollouts API page",
    "#2 Explain rollout waves",
    "#1 Failover: lower the DNS TTL first",
    "#1 Clarify Linux install steps",
    "#1 Add pagination to the Robots API",
]


# --- collections ------------------------------------------------------------------------------------------------


async def test_collections_nest_with_their_spaces_and_the_rest_apart(open_app: Any, org_screen: Any) -> None:
    async with open_app(org_screen) as (_app, pilot):
        screen = _screen(pilot)
        assert screen.sub_title == f"Organizations {CRUMB} Northwind Labs"
        assert screen.tabs.active == "collections"
        assert _indented(screen.content_tree) == TREE
        cells = _cells(screen.content_tree)
        assert cells[0] == ["▾ Product", "6 spaces", "", ""]
        assert cells[2] == ["Getting Started", "public", "1", "10 mo ago"]
        assert cells[6] == ["REST API Reference", "public", "2", "8 d ago"]
        assert screen.content_tree.list.has_focus
        item = screen.current_item()
        assert item is not None and item.kind == "collection" and item.url and "/c/" in item.url


async def test_enter_folds_a_collection_and_opens_a_space(open_app: Any, org_screen: Any) -> None:
    async with open_app(org_screen) as (app, pilot):
        screen = _screen(pilot)
        await pilot.press("j", "enter")  # Guides
        assert _indented(screen.content_tree)[:4] == [
            "▾ Product",
            "  ▸ Guides",
            "  ▾ Reference",
            "    REST API Reference",
        ]
        await pilot.press("enter")
        assert _indented(screen.content_tree) == TREE
        await pilot.press("j")
        assert screen.content_tree.list.highlighted.cells[0].plain == "Getting Started"  # type: ignore[union-attr]
        pytest.importorskip("folio.tui.screens.content.space")
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "SpaceScreen"
        assert app.screen.parent_trail == ("Organizations", "Northwind Labs")  # type: ignore[attr-defined]


# --- spaces ----------------------------------------------------------------------------------------------------


async def test_the_spaces_tab_lists_every_space(open_app: Any, org_screen: Any, state: SandboxState) -> None:
    async with open_app(org_screen) as (app, pilot):
        screen = _screen(pilot)
        await pilot.press("2")
        assert screen.tabs.active == "spaces"
        assert screen.spaces_list.list.has_focus
        rows = _cells(screen.spaces_list)
        assert len(rows) == 12
        assert rows[0] == ["Getting Started", "public", "Guides", "10 mo ago", "1"]
        assert rows[3] == ["REST API Reference", "public", "Reference", "8 d ago", "2"]
        assert rows[-1] == ["Scratchpad", "private", "", "3 mo ago", "0"]
        assert "Legacy Docs (v1)" not in _column(screen.spaces_list)  # deleted
        await pilot.press("j")
        item = screen.current_item()
        guide = next(s for s in state.spaces.values() if s["title"] == "User Guide")
        assert item is not None and item.id == guide["id"] and item.kind == "space"
        assert item.url and item.url.endswith(f"/s/{guide['id']}/")
        assert app.loaded[("space", guide["id"])].title == "User Guide"
        pytest.importorskip("folio.tui.screens.content.space")
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "SpaceScreen"


async def test_a_screen_that_cannot_be_built_is_said_in_words(open_app: Any, org_screen: Any, monkeypatch: Any) -> None:
    gone = dataclasses.replace(routes.ROUTES["space"], module="folio.tui.screens.content.gone")
    monkeypatch.setitem(routes.ROUTES, "space", gone)
    async with open_app(org_screen) as (app, pilot):
        await pilot.press("2", "enter")
        await settle(pilot)
        assert isinstance(app.screen, OrganizationScreen)
        messages = [n.message for n in app._notifications]
        assert len(messages) == 1 and messages[0].startswith("Could not open that screen: Something went wrong")


# --- change requests -----------------------------------------------------------------------------------------


async def test_the_inbox_lists_open_change_requests_with_their_reviews(open_app: Any, org_screen: Any) -> None:
    async with open_app(org_screen, size=(120, 30)) as (app, pilot):
        screen = _screen(pilot)
        await pilot.press("3")
        await settle(pilot)
        assert screen.inbox.browser.list.has_focus
        assert _filters(screen).startswith("Showing open")
        rows = _cells(screen.inbox.browser)
        assert [r[0] for r in rows] == OPEN
        assert rows[0] == [
            "#2 Weekend paging rotation",
            "Platform Runbooks",
            "open",
            "Emeka Nwosu",
            "2 d ago",
            "2",
            "✓1",
        ]
        assert rows[2][1:] == ["User Guide", "open", "Ada Okafor", "4 d ago", "1", "✗1"]
        assert rows[4][-1] == "none"  # Dana's review went out of date when Chen pushed again
        assert rows[5][-3:] == ["13 d ago", "1", "✓1"]
        item = screen.current_item()
        assert item is not None and item.kind == "change request" and item.url and "/~/changes/2/" in item.url
        assert item == screen.inbox.current_item()  # o / y on the screen link the row as the inbox itself does
        row = screen.inbox.browser.list.highlighted
        assert row is not None and row.data.urls is not None
        row.data = msgspec.structs.replace(row.data, urls=msgspec.structs.replace(row.data.urls, app=None))
        item = screen.current_item()  # no app URL: the change request's location, as in the inbox
        assert item is not None and item.url == row.data.urls.location and item.url
        cr = next(c for c in screen.inbox.items if c.id == item.id)
        assert ("change-request", f"{cr.space}/{cr.id}") in app.loaded


async def test_reviews_are_read_only_for_the_rows_on_screen(
    open_app: Any, org_screen: Any, services: Services, state: SandboxState, monkeypatch: Any
) -> None:
    asked: list[str] = []
    verdicts = services.browse.verdicts

    async def counting(space_id: str, cr_id: str) -> Any:
        asked.append(cr_id)
        return await verdicts(space_id, cr_id)

    monkeypatch.setattr(services.browse, "verdicts", counting)
    async with open_app(org_screen, size=(80, 12)) as (_app, pilot):
        screen = _screen(pilot)
        assert asked == [] and REVIEWS not in state.hits  # not before the inbox is shown
        await pilot.press("3")
        await settle(pilot)
        height = screen.inbox.browser.list.scrollable_content_region.height
        assert 0 < height < len(OPEN)
        assert len(asked) == height
        assert _column(screen.inbox.browser, 6)[height:] == ["…"] * (len(OPEN) - height)
        await pilot.press("G")
        await settle(pilot)
        assert sorted(asked) == sorted(row.key for row in screen.inbox.browser.list.rows)
        assert "…" not in _column(screen.inbox.browser, 6)


async def test_the_inbox_filters_change_the_rows(open_app: Any, org_screen: Any) -> None:
    async with open_app(org_screen, size=(120, 30)) as (_app, pilot):
        screen = _screen(pilot)
        await pilot.press("3")
        await settle(pilot)
        expected = {
            "archived": ["#3 Refresh the welcome page"],
            "merged": ["#1 Document the canary channel"],
            "every status": 10,
            "draft": ["#1 December 2026 release notes", "#2 Reorganise troubleshooting"],
            "open": OPEN,
        }
        for status, rows in expected.items():
            await pilot.press("s")
            await settle(pilot)
            assert _filters(screen).startswith(f"Showing {status}")
            titles = _column(screen.inbox.browser)
            assert (len(titles) if isinstance(rows, int) else titles) == rows, status
        await pilot.press("a")
        await settle(pilot)
        assert _filters(screen).startswith("Showing open · awaiting my review")
        assert _column(screen.inbox.browser) == [
            "#2 Weekend paging rotation",
            "#1 Clarify Linux install steps",
            "#1 Add pagination to the Robots API",
        ]
        await pilot.press("u")
        await settle(pilot)
        assert _filters(screen).startswith("Showing open · awaiting my review · outdated")
        assert _column(screen.inbox.browser) == ["#1 Add pagination to the Robots API"]
        await pilot.press("a", "u", "m")
        await settle(pilot)
        assert _filters(screen).startswith("Showing open · mine")
        assert _column(screen.inbox.browser) == ["#2 Explain rollout waves", "#1 Failover: lower the DNS TTL first"]
        await pilot.press("s")  # archived, mine: none
        await settle(pilot)
        assert _column(screen.inbox.browser) == []
        assert _status(screen.inbox.browser) == "No change requests match: archived · mine."


async def test_enter_opens_the_change_request(open_app: Any, org_screen: Any, state: SandboxState) -> None:
    pytest.importorskip("folio.tui.screens.review.change_request")
    async with open_app(org_screen) as (app, pilot):
        await pilot.press("3")
        await settle(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "ChangeRequestScreen"


async def test_filter_keys_apply_only_in_the_inbox(open_app: Any, org_screen: Any) -> None:
    async with open_app(org_screen) as (_app, pilot):
        screen = _screen(pilot)
        assert "inbox_status" not in _active_actions(screen)
        await pilot.press("s", "a")
        await settle(pilot)
        assert screen.inbox.inbox.status == "open" and not screen.inbox.inbox.awaiting_me
        await pilot.press("3")
        assert "inbox_toggle('mine')" in _active_actions(screen)
        await pilot.press("slash", "2", "s", "a", "m")  # typed into the filter, not taken as keys
        await settle(pilot)
        assert screen.tabs.active == "change-requests"
        assert screen.inbox.browser.filter_input.value == "2sam"
        assert screen.inbox.inbox == type(screen.inbox.inbox)()
        assert _column(screen.inbox.browser) == []
        assert _status(screen.inbox.browser) == "No row matches “2sam” (esc clears the filter)."
        await pilot.press("escape")
        assert _column(screen.inbox.browser) == OPEN
    for binding in OrganizationScreen.BINDINGS:
        assert not isinstance(binding, tuple)
        assert binding.id and binding.id.startswith("organization.") and binding.tooltip
        assert "+" not in binding.key or binding.key == "ctrl+f"  # the search, as issue 12 names it


# --- sites, refresh, failures ----------------------------------------------------------------------------------


async def test_the_sites_tab_lists_the_sites(open_app: Any, org_screen: Any) -> None:
    async with open_app(org_screen) as (app, pilot):
        screen = _screen(pilot)
        await pilot.press("4")
        assert screen.tabs.active == "sites"
        rows = _cells(screen.sites.browser)
        assert [row[:4] for row in rows] == [
            ["Northwind Docs", "public", "yes", "9"],
            ["Internal Handbook", "visitor-auth", "no", "3"],
        ]
        assert rows[0][4] == "https://docs.northwind.dev/"
        item = screen.current_item()
        assert item is not None and item.kind == "site"
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "SiteScreen"


async def test_r_refreshes_every_tab(open_app: Any, org_screen: Any, state: SandboxState) -> None:
    async with open_app(org_screen) as (_app, pilot):
        screen = _screen(pilot)
        guide = next(s for s in state.spaces.values() if s["title"] == "User Guide")
        guide["title"] = "User Manual"
        waves = next(c for c in state.change_requests.values() if c["subject"] == "Explain rollout waves")
        waves["subject"] = "Explain rollout waves, with numbers"
        await pilot.press("r")
        await settle(pilot)
        assert "    User Manual" in _indented(screen.content_tree)
        assert "User Manual" in _column(screen.spaces_list)
        await pilot.press("3")
        await settle(pilot)
        row = next(r for r in _cells(screen.inbox.browser) if r[0].startswith("#2 Explain"))
        assert row[:2] == ["#2 Explain rollout waves, with numbers", "User Manual"]


async def test_a_failing_service_is_said_in_words_and_rows_stay(
    open_app: Any, org_screen: Any, state: SandboxState
) -> None:
    async with open_app(org_screen) as (_app, pilot):
        screen = _screen(pilot)
        await pilot.press("3")
        await settle(pilot)
        state.tokens = {"another-token": state.default_user}
        await pilot.press("r")
        await settle(pilot)
        browsers = [screen.content_tree, screen.spaces_list, screen.inbox.browser, screen.sites.browser]
        for browser in browsers:
            assert "The access token is invalid or expired" in _status(browser)
            assert _status(browser).endswith("Press r to try again.")
            assert browser.query_one(".resource-browser--status").has_class("-error")
        assert _status(screen.spaces_list).startswith("Could not load the spaces:")
        assert _status(screen.inbox.browser).startswith("Could not load the change requests:")
        assert _indented(screen.content_tree) == TREE
        assert len(_cells(screen.spaces_list)) == 12
        assert _column(screen.inbox.browser) == OPEN
        assert len(_cells(screen.sites.browser)) == 2
        state.tokens = {}
        await pilot.press("r")
        await settle(pilot)
        assert _status(screen.spaces_list) == "12 rows"
        assert not screen.inbox.browser.query_one(".resource-browser--status").has_class("-error")


async def test_without_a_title_the_trail_names_the_organization(
    open_app: Any, services: Services, state: SandboxState
) -> None:
    async with open_app(lambda: OrganizationScreen(services, state.demo_org)) as (_app, pilot):
        assert _screen(pilot).sub_title == "Northwind Labs"


async def test_enter_on_an_organization_opens_it(open_app: Any, state: SandboxState) -> None:
    async with open_app(size=(100, 30)) as (app, pilot):
        assert isinstance(app.screen, OrganizationsScreen)
        assert app.loaded[("organization", state.demo_org)].title == "Northwind Labs"
        await pilot.press("enter")
        await settle(pilot)
        screen = _screen(pilot)
        assert screen.org_id == state.demo_org
        assert screen.sub_title == f"Organizations {CRUMB} Northwind Labs"
        assert _indented(screen.content_tree) == TREE
        await pilot.press("escape")
        assert isinstance(app.screen, OrganizationsScreen)
        app.go_to("organization", state.demo_org)  # the go-to builds it again from its route
        await settle(pilot)
        opened = app.screen
        assert isinstance(opened, OrganizationScreen) and opened.org_id == state.demo_org


# --- numbered tabs, ctrl+f, keys typed while a list loads ---------------------------------------------------------


async def test_the_tabs_are_numbered_and_the_keys_after_the_number_reach_its_list(
    open_app: Any, org_screen: Any
) -> None:
    async with open_app(org_screen) as (_app, pilot):
        screen = _screen(pilot)
        labels = [str(tab.label) for tab in screen.tabs.query(Tab)]
        assert labels == ["1 Collections", "2 Spaces", "3 Change requests", "4 Sites"]
        await pilot.press("2", "slash", "g", "u", "i", "d", "e")  # one burst: the filter of the spaces tab
        await settle(pilot)
        assert screen.tabs.active == "spaces"
        assert screen.spaces_list.typed_filter == "guide"
        assert "User Guide" in _column(screen.spaces_list) and "Scratchpad" not in _column(screen.spaces_list)
        assert screen.content_tree.typed_filter == ""  # the tab left behind took none of them
        await pilot.press("enter", "1")  # the filter kept; 1 is a key again
        assert screen.tabs.active == "collections" and screen.content_tree.list.has_focus


async def test_ctrl_f_opens_the_organization_search(open_app: Any, org_screen: Any, state: SandboxState) -> None:
    async with open_app(org_screen) as (app, pilot):
        screen = _screen(pilot)
        assert screen.content_tree.list.has_focus  # where ctrl+f would page down
        await pilot.press("question_mark")  # ? lists it
        await settle(pilot)
        help_rows = [[str(c) for c in row.cells] for row in app.screen.query_one("ResourceList", ResourceList).rows]
        search = next(row for row in help_rows if row[-1] == "organization.search")
        assert search[1] == "Search" and "f" in search[0].lower(), search
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        await pilot.press("ctrl+f")
        await settle(pilot)
        assert type(app.screen).__name__ == "SearchScreen"
        assert app.screen.org_id == state.demo_org  # type: ignore[attr-defined]
        assert screen.content_tree.list.cursor == 0  # not paged down


async def test_back_from_a_screen_that_deleted_a_space_the_lists_no_longer_show_it(
    open_app: Any, org_screen: Any, services: Services, state: SandboxState
) -> None:
    """A space deleted (or restored) on another screen is gone from (back in) the organization's lists on return,
    without r: the screen reads its content again when the writes' topics moved while it was away."""
    from textual.screen import Screen

    scratch = next(s for s in state.spaces.values() if s["title"] == "Scratchpad")
    async with open_app(org_screen) as (app, pilot):
        await pilot.press("2")
        await settle(pilot)
        screen = _screen(pilot)
        spaces = screen._browser("spaces")
        assert spaces is not None and "Scratchpad" in _column(spaces)
        await app.push_screen(Screen())
        await services.space_admin.delete(await services.space_admin.space(scratch["id"]))
        app.pop_screen()
        await settle(pilot)
        assert "Scratchpad" not in _column(spaces)
        await app.push_screen(Screen())
        await services.trash.restore(await services.space_admin.space(scratch["id"]))
        app.pop_screen()
        await settle(pilot)
        assert "Scratchpad" in _column(spaces)
