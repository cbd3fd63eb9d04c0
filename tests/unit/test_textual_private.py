"""The private parts of Textual and Rich that Folio uses, all behind ``folio.tui.textual_private`` (#25).

Each is checked on the installed Textual and Rich: it exists, with the kind and signature the module relies on, and
the module's function does what its docstring says on live objects. An upgrade that renames, removes or reshapes one
fails here, by name, instead of somewhere in a screen. And no other module of src/folio reaches a private part of
Textual or Rich: not by attribute, import, ``getattr`` or a subclass defining one of its bases' private names."""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import rich
import rich._wrap
import textual
from rich.style import Style
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.geometry import Region
from textual.message_pump import MessagePump
from textual.reactive import Reactive
from textual.screen import Screen
from textual.scrollbar import ScrollBar
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Input, Static

import folio
import folio.tui
from folio.tui import textual_private as tp

SRC = Path(folio.__file__).parent
MODULE = Path(tp.__file__)
THEIRS = (Path(textual.__file__).parent, Path(rich.__file__).parent)

NAMEDTUPLE_API = {"_replace", "_asdict", "_fields", "_make", "_field_defaults"}
"""Public API of a NamedTuple despite the underscore."""


def _params(function: Any) -> list[str]:
    return list(inspect.signature(function).parameters)


# -- each part, on the installed Textual and Rich ---------------------------------------------------------------


def test_the_binding_chains_are_properties_of_a_screen() -> None:
    for name in ("_binding_chain", "_modal_binding_chain"):
        assert isinstance(inspect.getattr_static(Screen, name), property), name


def test_check_action_state_takes_an_action_and_a_default_namespace() -> None:
    assert _params(App._check_action_state) == ["self", "action", "default_namespace"]


def test_the_app_keeps_a_screen_stack_per_mode_and_counts_its_css_changes() -> None:
    source = inspect.getsource(App.__init__)
    assert "self._screen_stacks: dict[str, list[Screen[Any]]]" in source
    assert "self._css_update_count: int = 0" in source


def test_the_app_writes_to_the_terminal_through_its_driver() -> None:
    assert "self._driver: Driver | None = None" in inspect.getsource(App.__init__)
    assert "self._driver.write(" in inspect.getsource(App.copy_to_clipboard)


def test_a_screen_updates_its_auto_focus_and_the_app_starts_a_widget() -> None:
    assert _params(Screen._update_auto_focus) == ["self"]
    assert _params(App._start_widget) == ["self", "parent", "widget"]


def test_a_widget_keeps_its_bindings_its_vertical_scrollbar_and_its_styles_cache() -> None:
    assert "self._bindings" in inspect.getsource(DOMNode.__init__)
    init = inspect.getsource(Widget.__init__)
    assert "self._vertical_scrollbar: ScrollBar | None = None" in init
    assert "self._styles_cache = StylesCache()" in init


def test_the_styles_cache_keeps_its_lines_by_width_and_its_dirty_lines() -> None:
    book = StylesCache()
    assert isinstance(book._width, int)
    assert book._cache == {}
    assert book._dirty_lines == set()
    assert _params(StylesCache.is_dirty) == ["self", "y"]
    book._dirty_lines.add(3)
    assert book.is_dirty(3) and not book.is_dirty(4)


def test_a_rich_style_keeps_its_link_id_and_its_meta() -> None:
    assert {"_link_id", "_meta"} <= set(Style.__slots__)
    assert not tp.style_has_meta(Style(link="https://example.com"))  # a link id, no meta
    assert tp.style_has_meta(Style.from_meta({"@click": "app.bell()"}))
    assert not tp.style_has_meta(Style(bold=True))
    assert not tp.style_has_meta(Style())


def test_rich_divides_a_line_at_spaces_and_folds_long_words() -> None:
    assert _params(rich._wrap.divide_line) == ["text", "width", "fold"]
    assert tp.divide_line("hello world", 5) == [6]
    assert tp.divide_line("abcdefgh", 3) == [3, 6]
    assert tp.divide_line("abcdefgh", 3, fold=False) == []


def test_an_input_keeps_its_suggestion_in_a_reactive() -> None:
    assert isinstance(Input.__dict__["_suggestion"], Reactive)


class Probe(Widget, can_focus=True):
    BINDINGS = [Binding("x", "probe", "Probe"), Binding("y", "app.bell", "Bell")]
    DEFAULT_CSS = "Probe { height: 10; overflow-y: scroll; }"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.allowed = True

    def render_line(self, y: int) -> Any:
        from textual.strip import Strip

        return Strip.blank(self.size.width)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "probe" and not self.allowed else True


class ProbeApp(App[None]):
    AUTO_FOCUS = "#probe"

    def compose(self) -> ComposeResult:
        yield Probe(id="probe")
        yield Input(suggester=SuggestFromList(["hello there"]), id="field")
        yield Static("a line")


async def test_the_accessors_on_a_live_app() -> None:
    app = ProbeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        probe = app.query_one(Probe)
        assert screen.focused is probe

        # bindings: the node's own, and the chains a key goes down
        own = tp.dom_bindings(probe)
        assert isinstance(own, BindingsMap) and set(own.key_to_bindings) == {"x", "y"}
        chain = tp.binding_chain(screen)
        assert [node for node, _ in chain][:2] == [probe, screen]
        assert all(isinstance(bindings, BindingsMap) for _, bindings in chain)
        assert [node for node, _ in tp.modal_binding_chain(screen)] == [node for node, _ in chain]
        assert tp.check_action_state(app, "probe", probe) is True
        probe.allowed = False
        assert tp.check_action_state(app, "probe", probe) is None
        assert tp.check_action_state(app, "app.bell", probe) is True
        assert tp.write_to_terminal(app, "\a") is False  # headless: no terminal to write to

        # the screen stacks, and the auto focus given back
        assert screen in tp.screen_stacks(app)[app.current_mode]
        screen.set_focus(None)
        assert screen.focused is None
        tp.update_auto_focus(screen)
        assert screen.focused is probe

        # the CSS changes counted: a theme is one
        before = tp.css_update_count(app)
        assert isinstance(before, int)
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        assert tp.css_update_count(app) > before

        # the styles cache's book of lines
        probe.refresh()
        await pilot.pause()
        width = probe.size.width
        lines, is_dirty = tp.kept_lines(probe, width)
        assert lines, "Textual drew the probe's lines through its styles cache"
        probe.refresh(Region(0, 2, width, 1))
        assert is_dirty(2) and not is_dirty(5)
        tp.lines_drawn(probe, range(0, 4))
        assert not is_dirty(2)
        lines_at_other_width, _ = tp.kept_lines(probe, width + 1)
        assert lines_at_other_width == {} and probe._styles_cache._width == width + 1

        # the vertical scrollbar: made once, started, kept
        field = app.query_one(Input)
        assert tp.vertical_scrollbar(field) is None
        bar = ScrollBar(vertical=True, name="vertical")
        tp.set_vertical_scrollbar(field, bar)
        await pilot.pause()
        assert tp.vertical_scrollbar(field) is bar and field.vertical_scrollbar is bar
        assert bar.display is False and bar.parent is field and bar.is_running

        # the input's suggestion
        field.focus()
        await pilot.press("h", "e")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert tp.input_suggestion(field) == "hello there"


# -- nowhere else in src/folio -------------------------------------------------------------------------------------


def _defined_names(roots: tuple[Path, ...], *, slots: bool = False) -> set[str]:
    """The private names the sources under ``roots`` define: methods, class attributes, ``self._x`` attributes, and
    with ``slots`` any quoted private name (``__slots__`` entries)."""
    names: set[str] = set()
    for root in roots:
        for path in root.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            names.update(re.findall(r"\bdef (_[a-z]\w*)", text))
            names.update(re.findall(r"\bself\.(_[a-z]\w*)\s*(?::[^=\n]+)?=(?!=)", text))
            names.update(re.findall(r"^\s+(_[a-z]\w*)\s*(?::[^=\n]+)?=(?!=)", text, flags=re.MULTILINE))
            names.update(re.findall(r"^\s+(_[a-z]\w*)\s*:", text, flags=re.MULTILINE))
            if slots:
                names.update(re.findall(r"[\"'](_[a-z]\w*)[\"']", text))
    return names


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _private_module(module: str) -> bool:
    parts = module.split(".")
    return parts[0] in ("textual", "rich") and any(_is_private(part) for part in parts[1:])


def _ours() -> Iterator[Path]:
    for path in sorted(SRC.rglob("*.py")):
        if path != MODULE:
            yield path


def _private_accesses(theirs: set[str], ours: set[str]) -> list[str]:
    """Imports of Textual's or Rich's private modules or names, and uses of a private attribute that Textual or Rich
    defines and Folio does not, outside the module (a name both define is :func:`_overridden`'s to catch)."""
    found: list[str] = []
    for path in _ours():
        where = path.relative_to(SRC.parent)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found += [f"{where}:{node.lineno} import {a.name}" for a in node.names if _private_module(a.name)]
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ("textual", "rich"):
                if _private_module(node.module) or any(_is_private(a.name) for a in node.names):
                    found.append(f"{where}:{node.lineno} from {node.module} import ...")
            elif (name := _attribute_used(node)) and name in theirs and name not in ours:
                found.append(f"{where}:{node.lineno} {name}")
    return found


def _attribute_used(node: ast.AST) -> str | None:
    """The private attribute ``node`` reads or writes: ``x._name``, or ``getattr(x, "_name")`` and its kin."""
    if isinstance(node, ast.Attribute):
        name: object = node.attr
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) > 1:
        if node.func.id not in ("getattr", "setattr", "hasattr", "delattr"):
            return None
        name = node.args[1].value if isinstance(node.args[1], ast.Constant) else None
    else:
        return None
    return name if isinstance(name, str) and _is_private(name) and name not in NAMEDTUPLE_API else None


def _folio_classes() -> Iterator[type]:
    for info in pkgutil.walk_packages(folio.tui.__path__, "folio.tui."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == info.name:
                yield value


@functools.cache
def _names_in(cls: type) -> frozenset[str]:
    """The private names the source of ``cls`` defines, or reaches on ``self`` or ``super()``."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return frozenset()
    names = set(re.findall(r"\b(?:self|super\(\))\.(_[a-z]\w*)", source))
    names.update(re.findall(r"\bdef (_[a-z]\w*)", source))
    return frozenset(names | set(re.findall(r"^\s+(_[a-z]\w*)\s*[:=]", source, flags=re.MULTILINE)))


def _overridden() -> list[str]:
    """Private names of a Textual or Rich base that a class of folio.tui defines, assigns or reads on itself."""
    found: list[str] = []
    for cls in _folio_classes():
        if not issubclass(cls, MessagePump):
            continue
        own = _names_in(cls)
        for base in cls.__mro__:
            if base.__module__.split(".")[0] not in ("textual", "rich"):
                continue
            hit = own & (_names_in(base) | {name for name in vars(base) if _is_private(name)})
            found += [f"{cls.__module__}.{cls.__qualname__}: {base.__name__}.{name}" for name in sorted(hit)]
    return found


def test_the_app_keeps_its_workers_in_a_manager_that_removes_each_one_as_it_ends() -> None:
    from textual.worker_manager import WorkerManager

    assert list(inspect.signature(WorkerManager._remove_worker).parameters) == ["self", "worker"]
    assert "self._workers = WorkerManager(self)" in inspect.getsource(App.__init__)
    assert "worker._start(self._app, self._remove_worker)" in inspect.getsource(WorkerManager)  # called as it ends


def test_no_private_textual_or_rich_part_is_reached_outside_the_module() -> None:
    theirs, ours = _defined_names(THEIRS, slots=True), _defined_names((SRC,))
    assert {"_bindings", "_styles_cache", "_link_id", "_css_update_count", "_suggestion"} <= theirs  # (found)
    assert not {"_bindings", "_styles_cache", "_link_id", "_css_update_count", "_suggestion"} & ours
    assert _private_accesses(theirs, ours) == []
    assert _overridden() == []
