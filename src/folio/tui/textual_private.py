"""The one place Folio touches private parts of Textual and Rich (names that start with ``_``: no promise they stay).

Every use of one goes through a small function here, each saying what it is for and the version it was checked
against (Textual 8.2.8, Rich 15.0.0), so an upgrade has one module to read. ``tests/unit/test_textual_private.py``
fails when the installed Textual or Rich no longer has one of them as used here, and when src/folio reaches a
private part of Textual or Rich anywhere but here.

Imports nothing heavy: the first frame imports it (``rich._wrap`` is already loaded by Rich's ``Text``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from rich._wrap import divide_line as _divide_line

if TYPE_CHECKING:
    from rich.style import Style
    from textual.app import App
    from textual.binding import BindingsMap
    from textual.dom import DOMNode
    from textual.screen import Screen
    from textual.scrollbar import ScrollBar
    from textual.strip import Strip
    from textual.widget import Widget
    from textual.widgets import Input
    from textual.worker import Worker

__all__ = [
    "binding_chain",
    "check_action_state",
    "css_update_count",
    "divide_line",
    "dom_bindings",
    "input_suggestion",
    "kept_lines",
    "lines_drawn",
    "modal_binding_chain",
    "screen_stacks",
    "set_vertical_scrollbar",
    "start_widget",
    "style_has_meta",
    "update_auto_focus",
    "vertical_scrollbar",
    "watch_workers",
    "write_to_terminal",
]

# -- bindings --------------------------------------------------------------------------------------------------


def dom_bindings(node: DOMNode) -> BindingsMap:
    """The bindings ``node`` itself declares (its class's ``BINDINGS``, the keymap applied), not its ancestors':
    ``DOMNode._bindings``, read as is (no copy), for the checks that run at every key. Textual 8.2.8."""
    return node._bindings


def binding_chain(screen: Screen[Any]) -> list[tuple[DOMNode, BindingsMap]]:
    """The (node, bindings) pairs a key goes down on ``screen``: the focused widget, its ancestors, the screen and
    the app (``Screen._binding_chain``, a property that copies every map). Textual 8.2.8."""
    return screen._binding_chain


def modal_binding_chain(screen: Screen[Any]) -> list[tuple[DOMNode, BindingsMap]]:
    """:func:`binding_chain` cut after the last modal screen, as ``active_bindings`` and the footer see it
    (``Screen._modal_binding_chain``, a property). Textual 8.2.8."""
    return screen._modal_binding_chain


def check_action_state(app: App[Any], action: str, node: DOMNode) -> bool | None:
    """What ``check_action`` says of ``action`` (a binding's action string, maybe namespaced like ``app.quit``)
    with ``node`` as the default namespace: True shown, None greyed out, False hidden
    (``App._check_action_state(action, default_namespace)``). Textual 8.2.8."""
    return app._check_action_state(action, node)


# -- the app and its screens -----------------------------------------------------------------------------------


def screen_stacks(app: App[Any]) -> Mapping[str, list[Screen[Any]]]:
    """The app's screen stack of each mode (``App._screen_stacks``; ``screen_stack`` is the current mode's only).
    Read only. Textual 8.2.8."""
    return app._screen_stacks


def css_update_count(app: App[Any]) -> int:
    """How many times the app's CSS changed (a theme, a CSS reload): equal counts mean every node is still styled
    by the same stylesheet (``App._css_update_count``). Textual 8.2.8."""
    return app._css_update_count


def update_auto_focus(screen: Screen[Any]) -> None:
    """Give the focus to the screen's ``AUTO_FOCUS`` widget (or its first focusable) when nothing has it, as a
    screen does when it resumes (``Screen._update_auto_focus``). Textual 8.2.8."""
    screen._update_auto_focus()


def start_widget(app: App[Any], parent: Widget, widget: Widget) -> None:
    """Start ``widget`` as a child of ``parent`` without mounting it in the DOM, as Textual starts a widget's
    scrollbars (``App._start_widget(parent, widget)``). Textual 8.2.8."""
    app._start_widget(parent, widget)


# -- what a widget draws ---------------------------------------------------------------------------------------


def vertical_scrollbar(widget: Widget) -> ScrollBar | None:
    """The vertical scrollbar ``widget`` made already, None before its first (``Widget._vertical_scrollbar``,
    which the ``vertical_scrollbar`` property fills on first use). Textual 8.2.8."""
    return widget._vertical_scrollbar


def set_vertical_scrollbar(widget: Widget, bar: ScrollBar) -> None:
    """Make ``bar`` the vertical scrollbar of ``widget`` (hidden until the widget's layout shows it) and start it,
    as the ``vertical_scrollbar`` property does with Textual's own (``Widget._vertical_scrollbar``). Textual 8.2.8."""
    widget._vertical_scrollbar = bar
    bar.display = False
    start_widget(widget.app, widget, bar)


def kept_lines(widget: Widget, width: int) -> tuple[dict[int, Strip], Callable[[int], bool]]:
    """The lines of ``widget`` its styles cache keeps (finished, by line number), emptied when they were drawn at
    another width, and the test of a line a refresh made dirty: the book ``Widget.render_lines`` keeps
    (``Widget._styles_cache``, a ``StylesCache``: its ``_width``, ``_cache`` and ``is_dirty``). Textual 8.2.8."""
    book = widget._styles_cache
    if book._width != width:
        book.clear()
        book._width = width
    return book._cache, book.is_dirty


def lines_drawn(widget: Widget, lines: range) -> None:
    """``lines`` of ``widget`` were drawn again into :func:`kept_lines`: they are no longer dirty (what
    ``StylesCache.render_widget`` does after drawing, its ``_dirty_lines``). Textual 8.2.8."""
    widget._styles_cache._dirty_lines.difference_update(lines)


def style_has_meta(style: Style) -> bool:
    """Whether ``style`` carries meta (where Textual puts a link's ``@click`` action): Rich's ``Style._link_id`` and
    ``Style._meta``, read without decoding the meta as ``Style.meta`` does (a plain ``link=`` has none). Rich
    15.0.0."""
    return bool(style._link_id and style._meta)


def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """The offsets at which ``text`` breaks to fit ``width`` cells, at spaces, words longer than the width folded
    when ``fold`` (``rich._wrap.divide_line``, what ``Text.wrap`` uses). Rich 15.0.0."""
    return _divide_line(text, width, fold)


# -- widgets ---------------------------------------------------------------------------------------------------


def input_suggestion(field: Input) -> str:
    """The completion ``field``'s suggester offers for its value now, "" when none (``Input._suggestion``, the
    reactive drawn after the cursor). Textual 8.2.8."""
    return field._suggestion


# -- the terminal ----------------------------------------------------------------------------------------------


def write_to_terminal(app: App[Any], text: str) -> bool:
    """Write ``text`` (an escape sequence: a terminal notification) to the terminal through the app's driver
    (``App._driver``, as Textual's own ``copy_to_clipboard`` does: in order with the frames, from their writer).
    False when there is no terminal to write to (headless: tests)."""
    driver = app._driver
    if driver is None or app.is_headless:
        return False
    driver.write(text)
    return True


# -- workers ---------------------------------------------------------------------------------------------------


def watch_workers(app: App[Any], ended: Callable[[Worker[Any]], None]) -> None:
    """Call ``ended(worker)`` as each worker of ``app`` is let go, whatever its end: the app's worker manager
    (``App._workers``) replaced by one whose ``_remove_worker`` (called once per worker, as it finishes) says so.
    Textual has no public hook for a worker that fails with ``exit_on_error=False``."""
    from textual.worker_manager import WorkerManager

    class Watched(WorkerManager):
        def _remove_worker(self, worker: Worker[Any]) -> None:
            super()._remove_worker(worker)
            ended(worker)

    app._workers = Watched(app)
