"""A list of resources that draws only the rows on screen (the line API), so 100,000 rows mount as fast as 10.

    ResourceList            the rows, the cursor, j/k g/G and friends; posts Highlighted and Selected
    (``resource_browser.ResourceBrowser`` adds the column header, the `/` filter and the status line; how a row is
    drawn is in ``rows``)

Rows hold text already made safe (``folio.tui.safe``): the list never parses markup and never sees raw server
strings. A row's ``search`` is what the filter matches (lower case); every word typed must appear in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar, Self

from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.strip import Strip

from folio.tui.collector import BULK, bulk_loaded, bulk_released
from folio.tui.textual_private import update_auto_focus
from folio.tui.widgets.line_api import finished_lines, kept_vertical_scrollbar, lines_kept
from folio.tui.widgets.rows import NULL_STYLE, Column, Row, layout, line_of, line_segments, render_cells

if TYPE_CHECKING:
    from textual.widget import Widget

__all__ = ["Column", "ResourceList", "Row", "layout", "line_of", "line_segments", "render_cells"]


LINE_CACHE_SIZE = 80
"""Drawn lines kept until the list knows its height (then ``line_api.SCREENS_KEPT`` screens): moving the cursor or
paging back redraws from here."""


class ResourceList(ScrollView, can_focus=True):
    """The rows. Only what is visible is drawn; filtering and the cursor work on indices.

    Drawn lines are kept per (row, width, look) until the rows are replaced or the list is refreshed as a whole
    (``refresh()`` with no region: a screen that changes a row in place calls it), so a cursor move draws two
    lines and a scroll by one draws one.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"resource-list--cursor", "resource-list--dim"}
    DEFAULT_CSS = """
    ResourceList { height: 1fr; overflow-x: hidden; }
    ResourceList > .resource-list--cursor { background: $accent 40%; text-style: bold; }
    ResourceList:focus > .resource-list--cursor { background: $accent; color: $text; }
    ResourceList > .resource-list--dim { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "cursor_down", "Down", show=False, id="list.down", tooltip="Next row"),
        Binding("up,k", "cursor_up", "Up", show=False, id="list.up", tooltip="Previous row"),
        Binding("home,g", "first", "First", show=False, id="list.first", tooltip="First row"),
        Binding("end,G", "last", "Last", show=False, id="list.last", tooltip="Last row"),
        Binding(
            "pagedown,ctrl+f", "page_down", "Page down", show=False, id="list.page-down", tooltip="Down one screen"
        ),
        Binding("pageup,ctrl+b", "page_up", "Page up", show=False, id="list.page-up", tooltip="Up one screen"),
        Binding("enter", "select", "Open", id="list.open", tooltip="Open the row under the cursor"),
    ]

    # The cursor repaints only the two rows it leaves and reaches (watch_cursor), not the whole list.
    cursor: reactive[int] = reactive(0, always_update=True, init=False, repaint=False)

    class Highlighted(Message):
        """The cursor moved to ``row`` (None: the list is empty)."""

        def __init__(self, resource_list: ResourceList, row: Row | None) -> None:
            # (an __init__ of its own, as Textual's messages have: a dataclass costs ~0.4 ms before the first frame)
            super().__init__()
            self.resource_list = resource_list
            self.row = row

        @property
        def control(self) -> ResourceList:
            return self.resource_list

    class Narrowed(Message):
        """The list's vertical scrollbar came or went: the width its rows are drawn in changed (its size did not)."""

    class Selected(Message):
        """``enter`` on ``row``."""

        def __init__(self, resource_list: ResourceList, row: Row) -> None:
            super().__init__()
            self.resource_list = resource_list
            self.row = row

        @property
        def control(self) -> ResourceList:
            return self.resource_list

    def __init__(
        self, columns: Sequence[Column], *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.columns = list(columns)
        self._rows: list[Row] = []
        # Positions on screen -> indices in _rows: a range while no filter is typed (no copy of a 100,000-row list).
        self._visible: Sequence[int] = range(0)
        self._focus_wanted = False
        """The focus was asked for while the loading indicator covered the list (:meth:`want_focus`)."""
        self._focus_wanted_from: Widget | None = None
        self._query = ""
        self._lines: LRUCache[tuple[int, int, int], Strip] = LRUCache(LINE_CACHE_SIZE)
        self._looks: tuple[Style, Style, Style] | None = None
        self._frame: tuple[int, int, int, tuple[Style, Style, Style]] | None = None
        self._widths: tuple[int, list[int]] = (-1, [])
        self._styles: dict[str, Style] = {}
        self._bulk = False
        """A bulk of rows was put in place (the collector froze them): unfreeze when the list goes away."""

    # -- data ----------------------------------------------------------------------------------------------

    @property
    def rows(self) -> list[Row]:
        return self._rows

    @property
    def visible_rows(self) -> list[Row]:
        if isinstance(self._visible, range) and len(self._visible) == len(self._rows):
            return list(self._rows)
        return [self._rows[i] for i in self._visible]

    @property
    def filter_text(self) -> str:
        """The filter in force (lower case, trimmed; empty: every row shows)."""
        return self._query

    @property
    def visible_count(self) -> int:
        """How many rows the filter lets through (``len(visible_rows)`` without building the list)."""
        return len(self._visible)

    @property
    def highlighted(self) -> Row | None:
        if 0 <= self.cursor < len(self._visible):
            return self._rows[self._visible[self.cursor]]
        return None

    def set_rows(self, rows: Iterable[Row], *, keep: str | None = None) -> None:
        """Replace the rows; the cursor stays on the row with key ``keep`` (default: the current one)."""
        current = keep if keep is not None else (self.highlighted.key if self.highlighted else None)
        self._rows = list(rows)
        self._lines.clear()
        self._apply_filter(current)
        self._loaded(len(self._rows))

    def append_rows(self, rows: Iterable[Row]) -> None:
        """Add rows at the end (the next page of a list) without moving the cursor."""
        start = len(self._rows)
        added = list(rows)
        self._rows.extend(added)
        words = self._query.split()
        if not words:
            self._visible = range(len(self._rows))
        else:
            visible = self._visible if isinstance(self._visible, list) else list(self._visible)
            visible.extend(i for i, r in enumerate(added, start) if all(w in r.search for w in words))
            self._visible = visible
        self._resize()
        self.refresh()
        if self.highlighted is None and self._visible:
            self.cursor = 0
        self._loaded(len(added))

    def _loaded(self, count: int) -> None:
        """Rows just put in place: a bulk of them is the collector's to settle (``folio.tui.collector``)."""
        if count >= BULK:
            self._bulk = True
            bulk_loaded(self, count)

    def on_unmount(self) -> None:
        if self._bulk:
            bulk_released(self)

    def filter(self, query: str) -> None:
        self._query = query.lower().strip()
        self._apply_filter(self.highlighted.key if self.highlighted else None)

    def move_to(self, key: str) -> bool:
        position = self._position_of(key)
        if position is None:
            return False
        self.cursor = position
        return True

    def _position_of(self, key: str) -> int | None:
        rows = self._rows
        if isinstance(self._visible, range):
            start = self._visible.start
            for index in self._visible:
                if rows[index].key == key:
                    return index - start
            return None
        for position, index in enumerate(self._visible):
            if rows[index].key == key:
                return position
        return None

    def _apply_filter(self, keep: str | None) -> None:
        words = self._query.split()
        if words:
            self._visible = [i for i, r in enumerate(self._rows) if all(w in r.search for w in words)]
        else:
            self._visible = range(len(self._rows))
        self._resize()
        position = (self._position_of(keep) if keep is not None else None) or 0
        self.cursor = min(position, max(0, len(self._visible) - 1))
        self.refresh()

    def _resize(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self._visible))

    # -- drawing -------------------------------------------------------------------------------------------

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        return kept_vertical_scrollbar(self)  # its lines drawn once: a page down does not redraw the whole bar

    def on_resize(self, event: events.Resize) -> None:
        self._resize()
        self._lines = lines_kept(self._lines, self.size.height)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        if repaint and not regions:
            self._lines.clear()  # a row may have changed in place: draw every line again
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def notify_style_update(self) -> None:
        self._looks = None
        self._lines.clear()
        super().notify_style_update()

    def render_lines(self, crop: Region) -> list[Strip]:
        # What every line of this paint shares, worked out once (not once per line). New looks (a theme, focus)
        # draw every line anew.
        looks = self._current_looks()
        if looks is None:  # not styled (yet, or any more): draw plainly and keep nothing
            self._looks = None
            self._lines.clear()
            base = self.rich_style
            frame_looks = (base, base, base)
        else:
            if looks != self._looks:
                self._looks = looks
                self._lines.clear()
            frame_looks = self._looks  # the kept object: lines are kept only when drawn with it (render_line)
        self._frame = (round(self.scroll_y), self.scrollable_content_region.width, self.cursor, frame_looks)
        try:
            return finished_lines(self, crop) or super().render_lines(crop)
        finally:
            self._frame = None

    def _current_looks(self) -> tuple[Style, Style, Style] | None:
        """The plain, cursor and dim looks of a line; None while the list has no component styles (a paint can
        come before the stylesheet reaches a list being mounted, or after it left one being removed)."""
        base = self.rich_style
        try:
            cursor = self.get_component_rich_style("resource-list--cursor")
            dim = self.get_component_rich_style("resource-list--dim")
        except KeyError:
            return None
        return (base, base + cursor, base + dim)

    def render_line(self, y: int) -> Strip:
        top, width, cursor, looks = self._frame or (
            round(self.scroll_y),
            self.scrollable_content_region.width,
            self.cursor,
            self._current_looks() or (self.rich_style,) * 3,
        )
        position = top + y
        if position >= len(self._visible):
            return Strip.blank(width, looks[0])
        index = self._visible[position]
        row = self._rows[index]
        look = 1 if position == cursor else 2 if row.style == "dim" else 0
        key = (index, width, look)
        strip = self._lines.get(key)
        if strip is None or looks is not self._looks:
            if self._widths[0] != width:
                self._widths = (width, layout(self.columns, width))
            text, spans, cells_wide = line_of(self.columns, self._widths[1], row.cells, row.indent, row.style)
            segments = line_segments(text, spans, looks[look], self._style)
            strip = Strip(segments, cells_wide).adjust_cell_length(width, looks[look])
            if looks is self._looks:
                self._lines.set(key, strip)
        return strip

    def _style(self, name: str) -> Style:
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.app.console.get_style(name, default=NULL_STYLE)
        return style

    def watch_show_vertical_scrollbar(self, show: bool) -> None:
        self.post_message(self.Narrowed())

    def watch_loading(self, loading: bool) -> None:
        """Textual's loading indicator takes the focus from the list it covers and gives it to nobody: once it is
        gone, a screen left with no focus gives it back as it would at its start (its AUTO_FOCUS), so keys typed
        after a first load over the network reach the list (they went nowhere until tab was pressed)."""
        if not loading:
            self.call_after_refresh(self._focus_if_lost)

    def want_focus(self) -> None:
        """Focus the list; if its loading indicator covers it now (Textual's loading widgets cannot have the
        focus: the ask would be lost), once the indicator goes, unless the focus was moved meanwhile."""
        if self.loading and self.is_attached:
            self._focus_wanted = True
            self._focus_wanted_from = self.screen.focused
        self.focus()

    def forget_focus(self) -> None:
        """A focus asked for while loading is no longer wanted (the user went on typing elsewhere)."""
        self._focus_wanted, self._focus_wanted_from = False, None

    def on_focus(self) -> None:
        self.forget_focus()

    def _focus_if_lost(self) -> None:
        screen = self.screen if self.is_attached else None
        wanted, was = self._focus_wanted, self._focus_wanted_from
        self.forget_focus()
        if screen is None or not screen.is_current:
            return
        if wanted and screen.focused in (None, was):
            self.focus()
        elif screen.focused is None:
            update_auto_focus(screen)

    # -- cursor ----------------------------------------------------------------------------------------------

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, len(self._visible) - 1)) if self._visible else 0

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh_line(old)
        self.refresh_line(new)
        self.scroll_to_region_of(new)
        self.post_message(self.Highlighted(self, self.highlighted))

    def scroll_to_region_of(self, position: int) -> None:
        height = self.scrollable_content_region.height or 1
        top = round(self.scroll_y)
        if position < top:
            self.scroll_to(y=position, animate=False, immediate=True)
        elif position >= top + height:
            self.scroll_to(y=position - height + 1, animate=False, immediate=True)

    def action_cursor_down(self) -> None:
        self.cursor += 1

    def action_cursor_up(self) -> None:
        self.cursor -= 1

    def action_first(self) -> None:
        self.cursor = 0

    def action_last(self) -> None:
        self.cursor = len(self._visible) - 1

    def action_page_down(self) -> None:
        self.cursor += max(1, self.scrollable_content_region.height - 1)

    def action_page_up(self) -> None:
        self.cursor -= max(1, self.scrollable_content_region.height - 1)

    def action_select(self) -> None:
        row = self.highlighted
        if row is not None:
            self.post_message(self.Selected(self, row))

    def on_click(self, event: events.Click) -> None:
        position = round(self.scroll_y) + event.y
        if 0 <= position < len(self._visible):
            if position == self.cursor and event.chain >= 2:
                self.action_select()
            self.cursor = position
