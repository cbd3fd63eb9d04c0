"""The app shell, driven by keys: breadcrumbs, esc / - / q / ctrl+c, the command palette (actions and go-to),
the `:` command line, the `?` overlay, remapping by binding id, and no key that needs a chord terminals do not
send.

The shell is tested over small FolioScreens defined here (so it does not wait on the real screens); the
cross-screen tests (test_hostile, test_faults) walk the real ones.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import sys
import types
from collections.abc import Callable
from typing import Any, ClassVar

import pytest
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.content import Content
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Static
from textual.widgets._header import HeaderTitle

from folio.services import Services
from folio.tui import routes
from folio.tui.app import CRUMB, FolioApp
from folio.tui.declare import Route
from folio.tui.modals.help import HelpModal
from folio.tui.screens.base import FolioScreen
from folio.tui.widgets.command_line import CommandLine, CommandLineScreen
from tests.tui.conftest import settle

REAL: dict[str, Route] = {}
"""The real routes the ``place_routes`` fixture replaced."""


class Place(FolioScreen):
    """A screen with a name, an optional space id and one key of its own."""

    @classmethod
    def from_route(  # type: ignore[override]
        cls, route: Route, services: Services, ids: Any, *, title: str | None, trail: tuple[str, ...]
    ) -> Any:
        """A Place for ids with a ``name``; the real screen otherwise (the :cr test puts a fake change request
        screen in its place)."""
        if cls is not Place:  # a subclass (the fake change request screen) is built as any screen is
            return super().from_route(route, services, ids, title=title, trail=trail)
        if "name" not in ids:
            real = REAL[route.kind]
            screen: Any = getattr(importlib.import_module(real.module), real.screen)
            return screen.from_route(real, services, ids, title=title, trail=trail)
        return cls(services, ids["name"], trail=trail)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "poke", "Poke", id="place.poke", tooltip="Count a poke"),
    ]

    def __init__(self, services: Services, name: str, *, trail: tuple[str, ...] = (), space_id: str = "") -> None:
        super().__init__(services, trail=trail)
        self.crumb = name
        self.place = name
        if space_id:
            self.space_id = space_id
        self.pokes = 0
        self.refreshes = 0

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static(Content(f"This is {self.place}"))
        yield Footer()

    def on_mount(self) -> None:
        self.set_crumb(self.place)

    def action_poke(self) -> None:
        self.pokes += 1

    def action_refresh(self) -> None:
        self.refreshes += 1


def crumbs(*parts: str) -> str:
    return f" {CRUMB} ".join(parts)


def header_text(app: FolioApp) -> str:
    return str(app.screen.query_one(HeaderTitle).render())


def names(app: FolioApp) -> list[str]:
    return [getattr(s, "place", type(s).__name__) for s in app.screen_stack[1:]]


@pytest.fixture
def place(services: Services) -> Callable[..., Callable[[], Place]]:
    def make(name: str, **kwargs: Any) -> Callable[[], Place]:
        return lambda: Place(services, name, **kwargs)

    return make


@pytest.fixture(autouse=True)
def place_routes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spaces, sites and change requests remembered here open as Places named by their ``name`` id."""

    for kind in ("space", "site", "change-request"):
        route = routes.ROUTES[kind]
        REAL[kind] = route
        monkeypatch.setitem(routes.ROUTES, kind, dataclasses.replace(route, module=__name__, screen="Place", ids=()))


async def open_at(app: FolioApp, pilot: Any, *screens: Place) -> None:
    for screen in screens:
        await app.push_screen(screen)
    await settle(pilot)


# -- the stack, breadcrumbs, quitting ---------------------------------------------------------------------


def drawn_header(app: FolioApp) -> str:
    """The header's line as the terminal shows it (its title cut to the width it has)."""
    return app.screen.query_one(HeaderTitle).render_line(0).text.strip()


async def test_a_long_trail_is_cut_at_its_start_and_keeps_the_screen_you_are_on(
    open_app: Any, services: Services, place: Any
) -> None:
    trail = ("Northwind Labs Incorporated", "Product Documentation Hub", "Conversations")
    async with open_app(place("Northwind Labs Incorporated")) as (app, pilot):
        await open_at(app, pilot, Place(services, "Translations of the whole guide", trail=trail))
        drawn = drawn_header(app)
        assert drawn.startswith("\u2026 \u203a ")
        assert drawn.endswith(f"Conversations {CRUMB} Translations of the whole guide")
        assert len(drawn) <= 80 and "Folio" not in drawn  # the start gave way, whole crumbs at a time
        await pilot.resize_terminal(160, 24)
        await settle(pilot)
        assert drawn_header(app) == crumbs("Folio", *trail, "Translations of the whole guide")
        await pilot.resize_terminal(30, 24)
        await settle(pilot)
        assert drawn_header(app) == "Translation\u2026"  # wider than the room: alone, cut at its end


async def test_breadcrumbs_and_esc_walk_the_stack(open_app: Any, services: Services, place: Any) -> None:
    async with open_app(place("Northwind Labs")) as (app, pilot):
        await open_at(app, pilot, Place(services, "User Guide", trail=("Northwind Labs",)))
        assert crumbs("Folio", "Northwind Labs", "User Guide") in header_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert names(app) == ["Northwind Labs"]
        assert crumbs("Folio", "Northwind Labs") in header_text(app)
        await pilot.press("escape")  # the first screen stays
        await settle(pilot)
        assert names(app) == ["Northwind Labs"]


@pytest.mark.parametrize("key", ["q", "ctrl+c"])
async def test_q_and_ctrl_c_quit_without_a_question(open_app: Any, place: Any, key: str) -> None:
    async with open_app(place("Home")) as (app, pilot):
        await pilot.press(key)
        await pilot.pause()
        assert app._exit  # on its way out, no dialog asked
        assert len(app.screen_stack) == 2


async def test_minus_without_a_jump_says_so(open_app: Any, place: Any) -> None:
    async with open_app(place("Home")) as (app, pilot):
        await pilot.press("minus")
        await settle(pilot)
        assert any("Nothing to return to" in str(n.message) for n in app._notifications)
        assert names(app) == ["Home"]


# -- the command palette -------------------------------------------------------------------------------------


async def type_text(pilot: Any, text: str) -> None:
    await pilot.press(*[{" ": "space", ":": "colon", "#": "number_sign"}.get(c, c) for c in text])


async def test_palette_lists_and_runs_the_screens_actions(open_app: Any, place: Any) -> None:
    async with open_app(place("Home")) as (app, pilot):
        home = app.screen
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert CommandPalette.is_open(app)
        await type_text(pilot, "poke")
        await settle(pilot)
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert not CommandPalette.is_open(app)
        assert isinstance(home, Place) and home.pokes == 1


async def test_palette_go_to_jumps_and_minus_returns(open_app: Any, services: Services, place: Any) -> None:
    async with open_app(place("Northwind Labs")) as (app, pilot):
        root = app.screen
        guide = Place(services, "User Guide", trail=("Northwind Labs",), space_id="space-guide")
        await open_at(app, pilot, guide)
        shown = guide.query_one(Static)
        app.remember("space", {"key": "space-api", "name": "REST API Reference"}, "REST API Reference", ("Northwind",))
        await pilot.press("ctrl+p")
        await type_text(pilot, "rest api")
        await settle(pilot)
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert names(app) == ["Northwind Labs", "REST API Reference"]
        assert app.screen_stack[1] is root
        assert crumbs("Folio", "Northwind", "REST API Reference") in header_text(app)
        jumped = app.screen
        await pilot.press("minus")  # back to before the jump: the very same screens, never rebuilt
        await settle(pilot)
        assert app.screen_stack[1:] == [root, guide]
        assert guide.query_one(Static) is shown
        assert "User Guide" in header_text(app)
        await pilot.press("minus")  # and again: where the jump led
        await settle(pilot)
        assert app.screen_stack[1:] == [root, jumped]
        shown_there = jumped.query_one(Static)
        await pilot.press("minus", "minus")
        await settle(pilot)
        assert app.screen_stack[1:] == [root, jumped]
        assert jumped.query_one(Static) is shown_there and guide.is_attached


async def test_palette_shows_hostile_titles_as_text(open_app: Any, place: Any) -> None:
    hostile = "[@click=app.quit]x \x1b]52;c;ZXZpbA==\x07[b]bold[/b]"
    async with open_app(place("Home")) as (app, pilot):
        app.remember("space", {"key": "evil", "name": "Evil"}, hostile, ())
        await pilot.press("ctrl+p")
        await type_text(pilot, "click")
        await settle(pilot)
        await pilot.pause(0.3)
        palette = app.screen
        shown = " ".join(str(o.prompt) for o in palette.query_one("CommandList").options)  # type: ignore[attr-defined]
        assert "[@click=app.quit]x" in shown and "[b]bold[/b]" in shown
        assert "\x1b" not in shown
        await pilot.press("escape")
        await settle(pilot)
        assert app.is_running


# -- the command line --------------------------------------------------------------------------------------


async def command(pilot: Any, line: str) -> None:
    await pilot.press("colon")
    await settle(pilot)
    await type_text(pilot, line)
    await pilot.press("enter")
    await settle(pilot)


async def test_command_line_jumps_to_a_loaded_space(open_app: Any, place: Any) -> None:
    async with open_app(place("Northwind Labs")) as (app, pilot):
        app.remember("space", {"key": "s1", "name": "User Guide"}, "User Guide", ())
        app.remember("space", {"key": "s2", "name": "REST API Reference"}, "REST API Reference", ())
        await command(pilot, "space guide")
        assert names(app) == ["Northwind Labs", "User Guide"]
        await pilot.press("minus")
        await settle(pilot)
        assert names(app) == ["Northwind Labs"]


async def test_command_line_tab_accepts_the_suggested_title(open_app: Any, place: Any) -> None:
    async with open_app(place("Northwind Labs")) as (app, pilot):
        app.remember("space", {"key": "s1", "name": "User Guide"}, "User Guide", ())
        await pilot.press("colon")
        await settle(pilot)
        await type_text(pilot, "space Us")
        await app.workers.wait_for_complete()  # (the suggester answers in a worker)
        await settle(pilot)
        line = app.screen.query_one(CommandLine)
        await pilot.press("tab")
        await settle(pilot)
        assert line.value == "space User Guide" and line.cursor_position == len(line.value)
        await pilot.press("enter")
        await settle(pilot)
        assert names(app) == ["Northwind Labs", "User Guide"]


async def test_command_line_says_what_matched_nothing_and_keeps_the_text(open_app: Any, place: Any) -> None:
    async with open_app(place("Home")) as (app, pilot):
        app.remember("site", {"key": "docs", "name": "Public docs"}, "Public docs", ())
        await command(pilot, "site zzz")
        assert isinstance(app.screen, CommandLineScreen)
        message = str(app.screen.query_one(".command-line--message", Static).render())
        assert "No loaded site matches “zzz”" in message
        assert app.screen.query_one(CommandLine).value == "site zzz"
        await pilot.press("escape")
        await settle(pilot)
        assert names(app) == ["Home"]
        await command(pilot, "space x")
        assert "No spaces loaded yet" in str(app.screen.query_one(".command-line--message", Static).render())
        await pilot.press("escape")
        await command(pilot, "frobnicate")
        assert "Unknown command" in str(app.screen.query_one(".command-line--message", Static).render())


async def test_command_line_cr_opens_the_change_request_of_the_space_under_you(
    open_app: Any, services: Services, place: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[tuple[str, str]] = []

    class FakeChangeRequestScreen(Place):
        def __init__(self, services: Services, space_id: str, cr: int, *, trail: tuple[str, ...] = ()) -> None:
            super().__init__(services, f"#{cr}", trail=trail)
            opened.append((space_id, cr))

    async def exists(space_id: str, cr: str | int) -> bool:
        return True  # the fake space has every number

    monkeypatch.setattr(services.review, "exists", exists)
    module = types.ModuleType("folio.tui.screens.review.change_request")
    module.ChangeRequestScreen = FakeChangeRequestScreen  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "folio.tui.screens.review.change_request", module)
    async with open_app(place("Northwind Labs")) as (app, pilot):
        space = Place(services, "User Guide", trail=("Northwind Labs",), space_id="space-1")
        await open_at(app, pilot, space, Place(services, "Pages", trail=(*space.trail,)))
        await command(pilot, "cr 42")
        assert opened == [("space-1", 42)]
        assert names(app) == ["Northwind Labs", "User Guide", "#42"]
        assert crumbs("Folio", "Northwind Labs", "User Guide", "#42") in header_text(app)


async def test_command_line_cr_with_only_loaded_change_requests(open_app: Any, place: Any) -> None:
    async with open_app(place("Northwind Labs")) as (app, pilot):
        app.remember("change-request", {"key": "sp/7", "name": "#7 Fix typos"}, "#7 Fix typos", ())
        await command(pilot, "cr #7")
        assert names(app) == ["Northwind Labs", "#7 Fix typos"]
        await command(pilot, "cr 8")
        assert "No loaded change request is #8" in str(app.screen.query_one(".command-line--message").render())


async def test_command_line_q_quits(open_app: Any, place: Any) -> None:
    async with open_app(place("Home")) as (app, pilot):
        await command(pilot, "q")
        assert app._exit


# -- help, keymap ---------------------------------------------------------------------------------------------


async def test_help_lists_the_screens_keys_with_ids_and_filters(open_app: Any, place: Any) -> None:
    async with open_app(place("Home")) as (app, pilot):
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpModal)
        ids = {e.id for e in app.screen.shown}
        assert {"place.poke", "screen.back", "screen.refresh", "app.quit", "app.palette", "app.help"} <= ids
        poke = next(e for e in app.screen.shown if e.id == "place.poke")
        assert (poke.keys, poke.description, poke.tooltip, poke.everywhere) == (["x"], "Poke", "Count a poke", False)
        await type_text(pilot, "poke")
        await settle(pilot)
        assert [e.id for e in app.screen.shown] == ["place.poke"]
        await pilot.press("enter")  # runs it, on the screen under the overlay
        await settle(pilot)
        assert isinstance(app.screen, Place) and app.screen.pokes == 1
        await pilot.press("question_mark", "z", "z", "z")
        await settle(pilot)
        assert isinstance(app.screen, HelpModal) and app.screen.shown == []
        assert "No key matches" in str(app.screen.query_one(".help--detail", Static).render())
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, Place)


async def test_help_lists_the_commands_that_are_no_routes(open_app: Any, place: Any) -> None:
    from folio.tui.app.accounts import THEMES

    async with open_app(place("Home")) as (app, pilot):
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpModal)
        listed = {row.cells[0] for row in app.screen.keys_list.visible_rows if row.key.startswith("command")}
        assert {":theme", ":profile", ":q", ":sweep", ":members"} <= {str(cell) for cell in listed}
        await type_text(pilot, "theme")
        await settle(pilot)
        (theme,) = [row for row in app.screen.keys_list.visible_rows if row.key.startswith("command")]
        assert all(name in str(theme.cells[2]) for name in THEMES)  # every theme it takes, by name
        await pilot.press("escape")


async def test_keymap_remaps_a_screen_binding_by_id(open_app: Any, place: Any) -> None:
    async with open_app(place("Home"), keymap={"screen.refresh": "f5"}) as (app, pilot):
        home = app.screen
        assert isinstance(home, Place)
        await pilot.press("f5")
        await pilot.press("r")
        await settle(pilot)
        assert home.refreshes == 1
        await pilot.press("question_mark")
        await settle(pilot)
        assert next(e for e in app.screen.shown if e.id == "screen.refresh").keys == ["f5"]


# -- no chord terminals do not send ---------------------------------------------------------------------------


def _classes_with_bindings() -> list[type[DOMNode]]:
    import folio.tui
    import folio.tui.modals
    import folio.tui.screens
    import folio.tui.widgets

    found: list[type[DOMNode]] = [FolioApp]
    for package in (folio.tui, folio.tui.screens, folio.tui.widgets, folio.tui.modals):
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            try:
                module = importlib.import_module(info.name)
            except Exception:  # a module still being written elsewhere (its own tests catch it)
                continue
            for _, cls in inspect.getmembers(module, inspect.isclass):
                if issubclass(cls, DOMNode) and cls.__module__ == module.__name__:
                    found.append(cls)
    return found


def test_no_binding_needs_a_chord_terminals_do_not_send() -> None:
    classes = _classes_with_bindings()
    assert any(issubclass(c, Screen) and c is not FolioScreen for c in classes)
    problems = []
    for cls in classes:
        by_action: dict[str, list[str]] = {}
        for binding in cls._merge_bindings().key_to_bindings.values():
            for b in binding:
                by_action.setdefault(b.action, []).append(b.key)
        for action, keys in by_action.items():
            if any("ctrl+enter" in k for k in keys):
                problems.append(f"{cls.__qualname__}: {action} uses ctrl+enter")
            if keys and all(k.startswith("alt+") for k in keys):
                problems.append(f"{cls.__qualname__}: {action} has only alt+ keys {keys}")
    assert problems == []


def test_every_binding_has_an_id_and_a_tooltip() -> None:
    missing = []
    for cls in _classes_with_bindings():
        for b in cls.__dict__.get("BINDINGS", []):
            if not isinstance(b, Binding):
                missing.append(f"{cls.__qualname__}: {b!r} is not a Binding (no id, no tooltip)")
            elif not b.system and (not b.id or not b.tooltip):
                missing.append(f"{cls.__qualname__}: {b.key} -> {b.action}")
    assert missing == []


async def test_screens_kept_for_minus_are_let_go_after_the_next_jump(
    open_app: Any, services: Services, place: Any
) -> None:
    async with open_app(place("Home")) as (app, pilot):
        first = Place(services, "First")
        await open_at(app, pilot, first)
        app.jump(place("Second"))
        await settle(pilot)
        assert app.is_screen_installed(first) and first not in app.screen_stack
        app.jump(place("Third"))  # `-` now returns to Second: First is no longer needed
        await settle(pilot)
        assert not app.is_screen_installed(first)
        assert not first.is_attached
        assert names(app) == ["Home", "Third"]
        await pilot.press("minus")
        await settle(pilot)
        assert names(app) == ["Home", "Second"]


async def test_q_and_colon_do_nothing_in_a_dialog(open_app: Any, place: Any) -> None:
    from folio.tui.modals.confirm import ConfirmModal

    async with open_app(place("Home")) as (app, pilot):
        app.push_screen(ConfirmModal("Merge?", accept_key="m"))
        await settle(pilot)
        await pilot.press("q", "colon")
        await settle(pilot)
        assert app.is_running and not app._exit
        assert isinstance(app.screen, ConfirmModal)


# -- with the real screens -----------------------------------------------------------------------------------


async def test_palette_goes_to_an_organization_the_first_screen_loaded(open_app: Any, state: Any) -> None:
    organization = pytest.importorskip("folio.tui.screens.content.organization")
    other = next(o for o in state.orgs.values() if o["id"] != state.demo_org)
    async with open_app() as (app, pilot):
        assert ("organization", other["id"]) in app.loaded
        await pilot.press("ctrl+p")
        await type_text(pilot, other["title"].lower())
        await settle(pilot)
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, organization.OrganizationScreen)
        assert app.screen.org_id == other["id"]
        await pilot.press("minus")
        await settle(pilot)
        assert len(app.screen_stack) == 2  # back on the organizations


async def test_command_line_cr_in_a_real_space(open_app: Any, services: Services, state: Any) -> None:
    space = pytest.importorskip("folio.tui.screens.content.space")
    change_request = pytest.importorskip("folio.tui.screens.review.change_request")
    cr = next(c for c in state.change_requests.values() if state.spaces[c["space"]]["organization"] == state.demo_org)
    async with open_app(lambda: space.SpaceScreen(services, cr["space"])) as (app, pilot):
        await command(pilot, f"cr {cr['number']}")
        assert isinstance(app.screen, change_request.ChangeRequestScreen)
        assert app.screen.space_id == cr["space"]
        assert cr["subject"] in frame_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, space.SpaceScreen)
        await command(pilot, "cr 99")  # #14.11: no such change request: said in the command line
        assert isinstance(app.screen, CommandLineScreen)
        said = str(app.screen.query_one(".command-line--message", Static).render())
        assert said == "This space has no change request #99."
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, space.SpaceScreen)


def frame_text(app: FolioApp) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


async def test_a_command_typed_in_one_burst_with_its_colon_reaches_the_line(
    open_app: Any, services: Services, state: Any
) -> None:
    """`:cr 99` and enter typed at once (a paste, a fast typist over SSH): the keys after `:` arrived before the
    line was there and were lost, and the enter with them."""
    from textual import events

    space = pytest.importorskip("folio.tui.screens.content.space")
    cr = next(c for c in state.change_requests.values() if state.spaces[c["space"]]["organization"] == state.demo_org)
    async with open_app(lambda: space.SpaceScreen(services, cr["space"])) as (app, pilot):
        driver = app._driver
        assert driver is not None
        for key, char in [("colon", ":"), *((c if c != " " else "space", c) for c in "cr 99"), ("enter", "\r")]:
            event = events.Key(key, char)
            event.set_sender(app)
            driver.send_message(event)  # as the terminal's keys come: no wait between them
        await settle(pilot)
        assert isinstance(app.screen, CommandLineScreen)
        said = str(app.screen.query_one(".command-line--message", Static).render())
        assert said == "This space has no change request #99."


async def test_a_colon_typed_into_a_filter_or_a_search_box_stays_text(
    open_app: Any, services: Services, state: Any
) -> None:
    """`:` opens the command line before the focused widget sees it, except where text is being typed."""
    from folio.tui.screens.content.search import SearchScreen
    from folio.tui.widgets.resource_browser import ResourceBrowser

    space = pytest.importorskip("folio.tui.screens.content.space")
    cr = next(c for c in state.change_requests.values() if state.spaces[c["space"]]["organization"] == state.demo_org)
    async with open_app(lambda: space.SpaceScreen(services, cr["space"])) as (app, pilot):
        await pilot.press("slash", "a", "colon", "b")
        await settle(pilot)
        assert not isinstance(app.screen, CommandLineScreen)
        box = app.screen.query(ResourceBrowser).first().query_one(Input)
        assert box.value == "a:b"
    async with open_app(lambda: SearchScreen(services, state.demo_org)) as (app, pilot):
        await pilot.press("a", "colon", "b")
        await settle(pilot)
        assert not isinstance(app.screen, CommandLineScreen)
        assert app.screen.query_one(Input).value == "a:b"
