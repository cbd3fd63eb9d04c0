"""Searching from the space screen and landing on a hit's section, driven by keys over the seeded sandbox:
``ctrl+f`` on the space screen opens the space's search (wherever the focus is, and ``?`` lists it); ``enter`` on
a section hit, of the space's search or the organization's, opens the page scrolled to that section's heading."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widget import Widget

from folio.sandbox import SandboxState
from folio.services import Services
from folio.services.content.search import heading_slugs, section_index
from folio.tui import routes
from folio.tui.modals.help import HelpModal
from folio.tui.screens.content.search import SearchScreen, SpaceSearchScreen
from folio.tui.screens.content.space import SpaceScreen
from folio.tui.widgets.search_results import QueryBox, Target
from tests.tui.conftest import settle

FILLER = "\n\n".join(f"Paragraph {n} about the fleet, long enough to take a line of its own." for n in range(30))


def space_id(state: SandboxState, title: str) -> str:
    return next(sid for sid, s in state.spaces.items() if s["title"] == title and s["organization"] == state.demo_org)


def long_robots_page(state: SandboxState) -> str:
    """The REST API Reference's Robots page, with so much text between its sections that each is a screen or more
    below the one before."""
    revision = state.revisions[state.spaces[space_id(state, "REST API Reference")]["revision"]]
    page = next(p for p in revision["pages"] if p["title"] == "Robots")
    page["markdown"] = (
        f"# Robots\n\n## List robots\n\n`GET /v2/robots` returns a paged list.\n\n{FILLER}\n\n"
        f"## Get a robot\n\n`GET /v2/robots/{{id}}` returns one.\n\n{FILLER}\n\n"
        f"## Delete a robot\n\nGone for good.\n\n{FILLER}\n"
    )
    page_id: str = page["id"]
    return page_id


async def to_section(pilot: Pilot[None], screen: SearchScreen, title: str) -> Target:
    row = next(
        r
        for r in screen.browser.list.rows
        if isinstance(r.data, Target) and r.data.section is not None and r.data.section.title == title
    )
    assert screen.browser.list.move_to(row.key)
    await settle(pilot)
    assert isinstance(row.data, Target)
    return row.data


def heading(screen: SpaceScreen, text: str) -> Widget:
    markdown = screen.page_view.markdown
    return markdown.query_one(f"#{next(i for _, title, i in markdown.table_of_contents if title == text)}")


def at_top(screen: SpaceScreen, text: str) -> bool:
    """The heading ``text`` is the first line of the page view's scrolled area."""
    scroller = screen.page_view.scroller
    return heading(screen, text).region.y == scroller.content_region.y


async def test_ctrl_f_on_the_space_screen_searches_the_space(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    sid = space_id(state, "Getting Started")
    async with open_app(lambda: SpaceScreen(services, sid, trail=("Northwind Labs",))) as (app, pilot):
        space = app.screen
        assert isinstance(space, SpaceScreen) and space.page_tree.list.has_focus  # whose ctrl+f pages down
        await pilot.press("ctrl+f")
        await settle(pilot)
        search = app.screen
        assert isinstance(search, SpaceSearchScreen) and search.space_id == sid
        assert search.query_one(QueryBox).has_focus
        await pilot.press(*"apt", "enter")
        await settle(pilot)
        assert search.words == "apt" and any(
            isinstance(r.data, Target) and r.data.page is not None and r.data.page.title == "Linux"
            for r in search.browser.list.rows
        )
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is space
        await pilot.press("2", "slash")  # a filter box has the focus: ctrl+f is still the search here
        await settle(pilot)
        assert space.browser("files").has_class("-filtering")
        await pilot.press("ctrl+f")
        await settle(pilot)
        assert isinstance(app.screen, SpaceSearchScreen)


async def test_help_lists_ctrl_f_on_the_space_screen(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_id(state, "Getting Started")
    async with open_app(lambda: SpaceScreen(services, sid, trail=("Northwind Labs",))) as (app, pilot):
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpModal)
        searches = [r for r in app.screen.query_one("ResourceList").rows if "space.search" in r.search]  # type: ignore[attr-defined]
        assert len(searches) == 1
        key, what = searches[0].cells[:2]
        assert (str(key), str(what)) == ("^f", "Search")


async def test_a_space_search_hit_opens_its_page_at_the_section(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    page = long_robots_page(state)
    sid = space_id(state, "REST API Reference")
    async with open_app(lambda: SpaceScreen(services, sid, trail=("Northwind Labs",))) as (app, pilot):
        first = app.screen
        await pilot.press("ctrl+f", *"robot", "enter")
        await settle(pilot)
        search = app.screen
        assert isinstance(search, SpaceSearchScreen)
        target = await to_section(pilot, search, "Get a robot")
        assert target.section is not None and target.section.anchor == "get-a-robot"
        await pilot.press("enter")
        await settle(pilot)
        space = app.screen
        assert isinstance(space, SpaceScreen) and space is not first and space.space_id == sid
        assert space.page_view.page_id == page and space.page_tree.entry is not None
        assert space.page_tree.entry.page.id == page
        assert space.page_view.scroller.scroll_y > 0
        assert at_top(space, "Get a robot")
        # Another page, then back: the page opens at its top (the hit's section is done with).
        await pilot.press("k", "enter", "j", "enter")
        await settle(pilot)
        assert space.page_view.page_id == page and space.page_view.scroller.scroll_y == 0


async def test_an_organization_search_hit_opens_its_page_at_the_section(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    page = long_robots_page(state)
    start = lambda: routes.build(services, "search", {"org_id": state.demo_org, "words": "robot"})  # noqa: E731
    async with open_app(start) as (app, pilot):
        search = app.screen
        assert isinstance(search, SearchScreen)
        await to_section(pilot, search, "Delete a robot")
        await pilot.press("enter")
        await settle(pilot)
        space = app.screen
        assert isinstance(space, SpaceScreen) and space.space_id == space_id(state, "REST API Reference")
        assert space.page_view.page_id == page
        assert space.page_view.scroller.scroll_y > 0
        assert at_top(space, "Delete a robot")


async def test_a_hit_whose_heading_is_gone_opens_the_page_at_its_top(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    page = long_robots_page(state)
    sid = space_id(state, "REST API Reference")
    ids = {"space_id": sid, "page_id": page, "anchor": "no-such-heading"}
    async with open_app(lambda: routes.build(services, "space", ids)) as (app, _pilot):
        space = app.screen
        assert isinstance(space, SpaceScreen) and space.page_view.page_id == page
        assert space.page_view.scroller.scroll_y == 0


def test_a_section_anchor_names_its_heading() -> None:
    headings = ["Robots", "List robots", "Get a robot — GET /v2/robots/{id}", "Démarrage rapide", "List robots"]
    assert section_index(headings, "list-robots") == 1  # the first of two equal headings
    assert section_index(headings, "get-a-robot-get-v2-robots-id") == 2  # GitBook's slug
    assert section_index(headings, "get-a-robot--get-v2robotsid") == 2  # GitHub's
    assert section_index(headings, "demarrage-rapide") == 3
    assert section_index(headings, "#Démarrage-Rapide") == 3
    assert section_index(headings, "robots-list") is None
    assert section_index(headings, "") is None
    assert heading_slugs("  C++ &  Rust ") == {"c-rust", "c--rust"}
