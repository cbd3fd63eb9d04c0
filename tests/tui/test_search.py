"""The search screens, driven by keys over the seeded sandbox: ``:search <words>`` from an organization shows the
hits by space, page and section, and ``enter`` opens the page (and section) in its space; an empty result says
so; a 513-character search is refused before anything is sent; typing searches once after a pause; ``up``
recalls earlier searches of the organization; the next page comes when the last row is reached; the words are
highlighted in the section shown, whose text from the server stays text; a space's own search."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui import routes
from folio.tui.app import FolioApp
from folio.tui.screens.content.search import SearchScreen, SpaceSearchScreen
from folio.tui.screens.content.space import SpaceScreen
from folio.tui.screens.content.trash import TrashScreen
from folio.tui.widgets.search_results import HIGHLIGHT, MORE, QueryBox, Target
from tests.conftest import EXCHANGES
from tests.tui.conftest import settle


def space_id(state: SandboxState, title: str) -> str:
    return next(sid for sid, s in state.spaces.items() if s["title"] == title)


@pytest.fixture(autouse=True)
def sent() -> list[dict[str, object]]:
    """The requests this test sends (the client fixture records every exchange)."""
    del EXCHANGES[:]
    return EXCHANGES


def search_hits(state: SandboxState) -> int:
    """How many searches reached the sandbox in this test."""
    return sum(1 for e in EXCHANGES if e["method"] == "GET" and str(e["path"]).endswith("/search"))


def opened(app: FolioApp) -> list[tuple[str, dict[str, Any]]]:
    """Record every screen the app is asked to open (then open it as usual)."""
    calls: list[tuple[str, dict[str, Any]]] = []
    original = app.open_route

    def record(kind: str, ids: Any, **kwargs: Any) -> None:
        calls.append((kind, dict(ids)))
        original(kind, ids, **kwargs)

    app.open_route = record  # type: ignore[method-assign]
    return calls


def search_screen(services: Services, state: SandboxState, words: str = "") -> Callable[[], Any]:
    ids = {"org_id": state.demo_org, "words": words} if words else {"org_id": state.demo_org}
    return lambda: routes.build(services, "search", ids, trail=("Northwind Labs",))


def screen_of(app: FolioApp) -> SearchScreen:
    screen = app.screen
    assert isinstance(screen, SearchScreen)
    return screen


def rows(screen: SearchScreen) -> list[tuple[str, str]]:
    """(kind, first cell) of each result row."""
    out: list[tuple[str, str]] = []
    for row in screen.browser.list.rows:
        target = row.data
        assert isinstance(target, Target)
        cell = row.cells[0]
        out.append((target.kind, cell if isinstance(cell, str) else cell.plain))
    return out


def hint(screen: SearchScreen) -> str:
    return str(screen.query_one("#search-hint", Static).render())


def preview(screen: SearchScreen) -> Any:
    return screen.query_one("#search-preview", Static).content


async def to_row(pilot: Pilot[None], screen: SearchScreen, kind: str, title: str) -> None:
    key = next(
        r.key
        for r in screen.browser.list.rows
        if isinstance(r.data, Target)
        and r.data.kind == kind
        and (r.cells[0] if isinstance(r.cells[0], str) else r.cells[0].plain).startswith(title)
    )
    assert screen.browser.list.move_to(key)
    await settle(pilot)


async def test_search_from_the_command_line_opens_the_page_hit(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    # Any screen of the organization will do: :search finds the organization in view.
    start = lambda: TrashScreen(services, state.demo_org, trail=("Northwind Labs",))  # noqa: E731
    async with open_app(start) as (app, pilot):
        await pilot.press(":", *"search install", "enter")
        await settle(pilot)
        screen = screen_of(app)
        assert screen.words == "install" and screen.org_id == state.demo_org
        assert rows(screen)[:2] == [("space", "Getting Started"), ("page", "Installation")]
        assert rows(screen)[2][0] == "section" and rows(screen)[2][1].startswith("Installation — Install the CLI")
        assert ("space", "Centre d'aide") in rows(screen)
        assert "2 spaces, 5 pages, 5 sections for “install”" in hint(screen)
        assert screen.browser.list.highlighted is not None
        assert screen.browser.list.highlighted.key.startswith("page:")  # the first hit, not the space's row
        assert screen.browser.list.has_focus
        calls = opened(app)
        await pilot.press("enter")
        await settle(pilot)
        installation = next(
            p["id"]
            for p in state.revisions[state.spaces[space_id(state, "Getting Started")]["revision"]]["pages"]
            if p["title"] == "Installation"
        )
        assert calls == [("space", {"space_id": space_id(state, "Getting Started"), "page_id": installation})]
        assert isinstance(app.screen, SpaceScreen) and app.screen.space_id == space_id(state, "Getting Started")


async def test_enter_on_a_section_opens_its_page_at_the_section(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(search_screen(services, state, "apt")) as (app, pilot):
        screen = screen_of(app)
        await to_row(pilot, screen, "section", "Linux")
        target = screen.current_target()
        assert target is not None and target.page is not None and target.section is not None
        calls = opened(app)
        await pilot.press("enter")
        await settle(pilot)
        assert calls == [
            ("space", {"space_id": target.space_id, "page_id": target.page.id, "anchor": target.section.anchor})
        ]
        assert target.section.anchor == "linux"


async def test_an_empty_result_says_so(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(search_screen(services, state, "zebracorn")) as (app, _pilot):
        screen = screen_of(app)
        assert rows(screen) == []
        assert "Nothing matches “zebracorn” in this organization" in hint(screen)
        status = str(screen.browser.query_one(".resource-browser--status", Static).render())
        assert status == "Nothing matches “zebracorn” in this organization."
        assert search_hits(state) == 1


async def test_a_513_character_search_is_refused_before_sending(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(search_screen(services, state, "x" * 513)) as (app, pilot):
        screen = screen_of(app)
        assert "A search is at most 512 characters; this one has 513. Nothing was sent." in hint(screen)
        assert search_hits(state) == 0 and rows(screen) == []
        box = screen.query_one(QueryBox)
        box.focus()
        box.value = "y" * 513
        await pilot.press("enter")
        await pilot.pause(0.5)  # past the pause after typing: still nothing is sent
        await settle(pilot)
        assert search_hits(state) == 0
        assert "this one has 513" in hint(screen) and box.value == "y" * 513  # what was typed stays
        await pilot.press("end", "backspace", "enter")  # 512 characters: sent
        await settle(pilot)
        assert search_hits(state) == 1


async def test_typing_searches_once_after_a_pause(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(search_screen(services, state)) as (app, pilot):
        screen = screen_of(app)
        assert screen.query_one(QueryBox).has_focus
        await pilot.press(*"rollouts")
        assert screen.query_one(QueryBox).value == "rollouts"  # every key reached the box (s too)
        assert search_hits(state) == 0  # nothing sent while typing
        await pilot.pause(0.5)
        await settle(pilot)
        assert search_hits(state) == 1 and screen.words == "rollouts"
        assert [t for k, t in rows(screen) if k == "space"] == ["REST API Reference", "User Guide", "Release Notes"]
        assert screen.query_one(QueryBox).has_focus  # typing: the focus stays in the box


async def test_up_recalls_earlier_searches_of_the_organization(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(search_screen(services, state)) as (app, pilot):
        screen = screen_of(app)
        box = screen.query_one(QueryBox)
        for words in ("install", "fleet"):
            box.focus()
            box.value = words
            await pilot.press("enter")
            await settle(pilot)
        box.focus()
        box.value = ""
        await pilot.press("up")
        assert box.value == "fleet"
        await pilot.press("up")
        assert box.value == "install"
        await pilot.press("down", "down")
        assert box.value == ""
    async with open_app(search_screen(services, state)) as (app, pilot):  # the same app's services: kept
        box = screen_of(app).query_one(QueryBox)
        await pilot.press("up")
        assert box.value == "fleet"


async def test_reaching_the_last_row_loads_the_next_page(
    services: Services, state: SandboxState, open_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    search = services.search
    original = search.organization

    async def two_at_a_time(*args: Any, **kwargs: Any) -> Any:
        return await original(*args, **{**kwargs, "limit": 2})

    monkeypatch.setattr(search, "organization", two_at_a_time)
    async with open_app(search_screen(services, state, "robot")) as (app, pilot):
        screen = screen_of(app)
        assert [t for k, t in rows(screen) if k == "space"] == ["REST API Reference", "Getting Started"]
        assert rows(screen)[-1][0] == MORE and "so far" in hint(screen)
        await pilot.press("G")
        await settle(pilot)
        spaces = [t for k, t in rows(screen) if k == "space"]
        assert spaces == ["REST API Reference", "Getting Started", "User Guide", "Centre d'aide"]
        assert rows(screen)[-1][0] != MORE and "so far" not in hint(screen)
        assert search_hits(state) == 2


async def test_the_words_are_highlighted_and_server_text_stays_text(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    guide = state.spaces[space_id(state, "User Guide")]
    page = state.revisions[guide["revision"]]["pages"][0]
    page["markdown"] = "# Fleets\n\n[bold red]Fleets[/] group robots; [@click=app.quit]robot[/] text.\n"
    async with open_app(search_screen(services, state, "robot")) as (app, pilot):
        screen = screen_of(app)
        await to_row(pilot, screen, "section", "Fleets")
        shown = preview(screen)
        assert "[bold red]Fleets[/] group robots; [@click=app.quit]robot[/] text." in shown.plain
        marked = [shown.plain[s.start : s.end] for s in shown.spans if s.style == HIGHLIGHT]
        assert marked and all(word.lower() == "robot" for word in marked)
        assert app.is_running


async def test_a_space_search_lists_pages_and_sections(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_id(state, "REST API Reference")
    start = lambda: routes.build(services, "space-search", {"space_id": sid, "words": "robot"})  # noqa: E731
    async with open_app(start) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, SpaceSearchScreen)
        assert screen.crumb == "Search in REST API Reference"
        assert rows(screen)[:4] == [
            ("page", "Robots"),
            ("section", "Robots"),
            ("section", "List robots — `GET /v2/robots` returns a paged list."),
            ("section", "Get a robot — `GET /v2/robots/{id}`"),
        ]
        assert hint(screen).startswith("2 pages, 4 sections for “robot”")  # no space rows: one space
        await to_row(pilot, screen, "section", "List robots")
        calls = opened(app)
        await pilot.press("enter")
        await settle(pilot)
        page = next(p["id"] for p in state.revisions[state.spaces[sid]["revision"]]["pages"] if p["title"] == "Robots")
        assert calls == [("space", {"space_id": sid, "page_id": page, "anchor": "list-robots"})]


async def test_the_session_keeps_the_words_of_both_searches(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """The session saves each search's ``words`` (the route's optional id) and rebuilds it searching them again;
    a space's search keeps its space."""
    from folio.tui import session

    async with open_app(search_screen(services, state, "robot")) as (app, pilot):
        org_search = screen_of(app)
        app.open_route("space-search", {"space_id": space_id(state, "Getting Started"), "words": "install"})
        await settle(pilot)
        space_search = app.screen
        assert isinstance(space_search, SpaceSearchScreen)
        saved = session.snapshot([org_search, space_search])
        assert [(e["screen"], e["args"]) for e in saved["screens"]] == [
            ("search", {"org_id": state.demo_org, "words": "robot"}),
            ("space-search", {"space_id": space_id(state, "Getting Started"), "words": "install"}),
        ]
        rebuilt = session.rebuild(services, saved)
        assert [(type(s).__name__, s.words) for s in rebuilt] == [  # type: ignore[attr-defined]
            ("SearchScreen", "robot"),
            ("SpaceSearchScreen", "install"),
        ]
