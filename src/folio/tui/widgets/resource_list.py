"""A list of resources that draws only the rows on screen (the line API), so 100,000 rows mount as fast as 10.

    ResourceList            the rows, the cursor, j/k g/G and friends; posts Highlighted and Selected
    ResourceBrowser         a ResourceList with its column header, a `/` filter and a status line that says
                            what is loading, what failed, or that the list is empty

Rows hold text already made safe (``folio.tui.safe``): the list never parses markup and never sees raw server
strings. A row's ``search`` is what the filter matches (lower case); every word typed must appear in it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from operator import itemgetter
from typing import ClassVar, Literal, Self

from rich.cells import cell_len, set_cell_size
from rich.control import strip_control_codes
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Input, Static

from folio.tui import fresh

__all__ = ["Column", "ResourceBrowser", "ResourceList", "Row"]


@dataclass(frozen=True)
class Column:
    """One column: a fixed ``width`` or, when None, a share of what the fixed ones leave."""

    key: str
    label: str
    width: int | None = None
    align: Literal["left", "right"] = "left"
    style: str = ""


@dataclass
class Row:
    key: str
    cells: Sequence[Content | str]
    search: str = ""
    style: str = ""
    indent: int = 0
    data: object = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.search:
            self.search = " ".join(c.plain if isinstance(c, Content) else c for c in self.cells).lower()


def _plain(cell: Content | str) -> str:
    return cell.plain if isinstance(cell, Content) else cell


def layout(columns: Sequence[Column], width: int) -> list[int]:
    """Cell widths for a line ``width`` wide: fixed columns as given, flexible ones share the rest (1 space
    between columns)."""
    gaps = max(0, len(columns) - 1)
    fixed = sum(c.width or 0 for c in columns)
    flexible = [c for c in columns if c.width is None]
    left = max(0, width - fixed - gaps)
    share = left // len(flexible) if flexible else 0
    widths = [c.width if c.width is not None else share for c in columns]
    if flexible:  # the first flexible column takes the remainder
        first = next(i for i, c in enumerate(columns) if c.width is None)
        widths[first] += left - share * len(flexible)
    return widths


def render_cells(columns: Sequence[Column], cells: Sequence[Content | str], width: int, indent: int = 0) -> Text:
    line = Text(no_wrap=True, end="")
    for index, (column, cell_width) in enumerate(zip(columns, layout(columns, width), strict=False)):
        if index:
            line.append(" ")
        text = _plain(cells[index]) if index < len(cells) else ""
        if index == 0 and indent:
            text = "  " * indent + text
        cell = Text(text, style=column.style, no_wrap=True, end="")
        cell.truncate(cell_width, overflow="ellipsis")
        pad = max(0, cell_width - cell.cell_len)
        if column.align == "right":
            cell = Text(" " * pad, end="") + cell
        else:
            cell.pad_right(pad)
        line.append_text(cell)
    return line


Span = tuple[int, int, str]
"""A style over ``[start, end)`` of a line, as a style string (``"bold"``, ``"dim"``)."""


def line_of(
    columns: Sequence[Column], widths: Sequence[int], cells: Sequence[Content | str], indent: int, style: str
) -> tuple[str, list[Span], int]:
    """A row's line as plain text, its style spans and its width in cells: what :func:`render_cells` builds (then
    ``stylize(style)``) with a Rich ``Text``, made without one (a list draws a screenful of these per key)."""
    parts: list[str] = []
    spans: list[Span] = []
    offset = 0
    cells_wide = 0
    count = len(cells)
    for index, (column, cell_width) in enumerate(zip(columns, widths, strict=False)):
        if index:
            parts.append(" ")
            offset += 1
            cells_wide += 1
        text = (cell.plain if isinstance(cell := cells[index], Content) else cell) if index < count else ""
        if index == 0 and indent:
            text = "  " * indent + text
        # Printable ASCII has no control codes and is one cell a character: nothing to strip or measure.
        if text.isascii() and text.isprintable():
            length = len(text)
        else:
            text = strip_control_codes(text)
            length = cell_len(text)
        if length > cell_width:
            text = set_cell_size(text, cell_width - 1) + "…"
            length = cell_len(text)
        pad = cell_width - length
        if pad > 0:
            cells_wide += cell_width
        else:
            cells_wide += length
        if column.align == "right":
            if pad > 0:
                parts.append(" " * pad)
                offset += pad
            if column.style and text:
                spans.append((offset, offset + len(text), column.style))
        else:
            if pad > 0:
                text += " " * pad
            if column.style:
                spans.append((offset, offset + len(text), column.style))
        parts.append(text)
        offset += len(text)
    if style and offset:
        spans.append((0, offset, style))
    return "".join(parts), spans, cells_wide


def line_segments(text: str, spans: Sequence[Span], base: Style, get_style: Callable[[str], Style]) -> list[Segment]:
    """Segments of a line over the ``base`` style, split where Rich's ``Text.render`` splits the same spans."""
    if not spans:
        return [Segment(text, base)]
    styles = [NULL_STYLE, *(get_style(span[2]) for span in spans)]
    events = [
        (0, False, 0),
        *((start, False, index) for index, (start, _, _) in enumerate(spans, 1)),
        *((end, True, index) for index, (_, end, _) in enumerate(spans, 1)),
        (len(text), True, 0),
    ]
    events.sort(key=itemgetter(0, 1))
    stack: list[int] = []
    segments: list[Segment] = []
    for (offset, leaving, index), (following, _, _) in pairwise(events):
        if leaving:
            stack.remove(index)
        else:
            stack.append(index)
        if following > offset:
            combined = Style.combine(styles[i] for i in sorted(stack))
            segments.append(Segment(text[offset:following], base + combined if combined else base))
    return segments


NULL_STYLE = Style.null()
LINE_CACHE_SIZE = 512
"""Drawn lines kept (about five screens): moving the cursor or paging back redraws from here."""


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

    @dataclass
    class Highlighted(Message):
        """The cursor moved to ``row`` (None: the list is empty)."""

        resource_list: ResourceList
        row: Row | None

        @property
        def control(self) -> ResourceList:
            return self.resource_list

    @dataclass
    class Selected(Message):
        resource_list: ResourceList
        row: Row

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
        self._query = ""
        self._lines: LRUCache[tuple[int, int, int], Strip] = LRUCache(LINE_CACHE_SIZE)
        self._looks: tuple[Style, Style, Style] | None = None
        self._frame: tuple[int, int, int, tuple[Style, Style, Style]] | None = None
        self._widths: tuple[int, list[int]] = (-1, [])
        self._styles: dict[str, Style] = {}

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

    def on_resize(self, event: events.Resize) -> None:
        self._resize()

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
            frame_looks = looks
        self._frame = (round(self.scroll_y), self.scrollable_content_region.width, self.cursor, frame_looks)
        try:
            return super().render_lines(crop)
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


class ResourceBrowser(Vertical):
    """A ResourceList with its header, a `/` filter (esc clears it) and a status line in words."""

    DEFAULT_CSS = """
    ResourceBrowser { height: 1fr; }
    ResourceBrowser > .resource-browser--header { height: 1; color: $text-muted; text-style: bold; }
    ResourceBrowser > Input { display: none; height: 3; }
    ResourceBrowser.-filtering > Input { display: block; }
    ResourceBrowser > .resource-browser--status { height: auto; max-height: 3; color: $text-muted; }
    ResourceBrowser > .resource-browser--status.-error { color: $error; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "start_filter", "Filter", id="list.filter", tooltip="Filter the rows as you type"),
    ]

    def __init__(
        self,
        columns: Sequence[Column],
        *,
        empty: str = "Nothing here yet.",
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.columns = list(columns)
        self.empty = empty
        self._status: Content | None = None
        self._list = ResourceList(self.columns)
        self._header = Static(classes="resource-browser--header")
        self._status_line = Static(classes="resource-browser--status")
        self._filter: Input | None = None
        self._header_width = -1
        self._status_shown: tuple[str, tuple[object, ...]] | None = None

    def compose(self) -> ComposeResult:
        # The status is in words from the start; the header, which needs the list's width, is drawn on resize.
        # (No on_mount work: the browser is mounted, and filled, before the screen's next frame.)
        self._draw_status()
        if self._filter is not None:
            yield self._filter
        yield self._header
        yield self._list
        yield self._status_line

    @property
    def list(self) -> ResourceList:
        return self._list

    @property
    def filter_box(self) -> Input | None:
        """The `/` filter box if it was made (reading it does not make it, unlike :attr:`filter_input`)."""
        return self._filter

    @property
    def typed_filter(self) -> str:
        """The text typed in the filter box, as typed ("" when the box was never made)."""
        return self._filter.value if self._filter is not None else ""

    @property
    def filter_input(self) -> Input:
        """The `/` filter box. It is made the first time it is needed (`/`, a restored filter), not with the list:
        most lists are never filtered, and the box is a good part of what mounting a list costs."""
        if self._filter is None:
            box = Input(placeholder="Filter: type to narrow, esc to clear", classes="resource-browser--filter")
            # The filter box takes focus only while filtering: hidden, it must not catch the screen's first focus.
            box.can_focus = False
            self._filter = box
            if self.is_mounted and self.is_attached:
                self.mount(box, before=0)
        return self._filter

    def _filter_focused(self) -> bool:
        return self._filter is not None and self._filter.has_focus

    def on_resize(self, event: events.Resize) -> None:
        # After the refresh: a browser in a tab hidden at mount learns the list's width only then.
        self.call_after_refresh(self._draw_header)

    def _draw_header(self) -> None:
        width = max(1, self._list.scrollable_content_region.width or self.size.width)
        if width == self._header_width:
            return  # the same header: nothing to repaint
        self._header_width = width
        # One line high (the CSS above): a new header needs no layout.
        self._header.update(render_cells(self.columns, [c.label for c in self.columns], width), layout=False)

    # -- data ---------------------------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        """False once the browser is being taken down (a load that ends after its screen closed has nowhere to
        put its rows)."""
        return self.is_attached and bool(self.query(ResourceList))

    def restore(self, cursor: str | None, query: str) -> None:
        """Put back a saved filter now and the cursor on row ``cursor`` as soon as that row is loaded."""
        self._pending_cursor = cursor
        if query:
            self.filter_input.value = query
            self.list.filter(query)
        self._apply_pending()

    def _apply_pending(self) -> None:
        key = getattr(self, "_pending_cursor", None)
        if key is not None and self.list.move_to(key):
            self._pending_cursor = None

    def set_rows(self, rows: Iterable[Row], *, keep: str | None = None, staged: bool = True) -> None:
        """Replace the rows. While fresh data replaces a paint from cache (``folio.tui.fresh``), the rows are
        kept until the whole list is in, then swapped at once: the cursor and the filter stay."""
        if not self.alive:
            return  # the screen was left while this list loaded
        revalidation = fresh.staged() if staged else None
        if revalidation is not None:
            revalidation.stage(self, list(rows), replace=True)
            return
        self.list.set_rows(rows, keep=keep)
        self.list.loading = False
        self._apply_pending()
        self._draw_status()

    def append_rows(self, rows: Iterable[Row]) -> None:
        if not self.alive:
            return  # the screen was left while this list loaded
        revalidation = fresh.staged()
        if revalidation is not None:
            revalidation.stage(self, list(rows), replace=False)
            return
        self.list.append_rows(rows)
        self._apply_pending()
        self.list.loading = False
        self._draw_status()

    def set_loading(self, loading: bool = True) -> None:
        """Show the loading indicator while the first page loads (rows already shown stay)."""
        if not self.alive:
            return  # the screen was left while this list loaded
        self.list.loading = loading and not self.list.rows
        self._status = Content("Loading…") if loading else None
        self._status_line.remove_class("-error")
        self._draw_status()

    def set_error(self, message: Content | None) -> None:
        """Say what failed (None clears it); rows already shown stay."""
        if not self.alive:
            return  # the screen was left while this list loaded
        self.list.loading = False
        self._status = message
        self._status_line.set_class(message is not None, "-error")
        self._draw_status()

    def _draw_status(self) -> None:
        lst = self._list
        if self._status is not None:
            self._show_status(self._status)
            return
        shown, total = lst.visible_count, len(lst.rows)
        if total == 0:
            self._show_status(Content(self.empty))
        elif shown == 0:
            query = self._filter.value if self._filter is not None else lst.filter_text
            self._show_status(Content(f"No row matches “{query}” (esc clears the filter)."))
        elif shown < total:
            self._show_status(Content(f"{shown} of {total} shown"))
        else:
            self._show_status(Content(f"{total} {'row' if total == 1 else 'rows'}"))

    def _show_status(self, content: Content) -> None:
        status = self._status_line
        shown = (content.plain, tuple(content.spans))
        if shown == self._status_shown:
            return  # the same words: nothing to repaint
        self._status_shown = shown
        # Words that fit on the one line the status already has change no size: no layout, so no extra frame.
        fits = (
            status.size.height == 1 and "\n" not in content.plain and content.cell_length <= status.content_region.width
        )
        status.update(content, layout=not fits)

    # -- filter -----------------------------------------------------------------------------------------------

    def action_start_filter(self) -> None:
        self.add_class("-filtering")
        box = self.filter_input
        box.can_focus = True
        box.focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.list.filter(event.value)
        self._draw_status()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.list.focus()

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape" and self._filter_focused():
            event.stop()
            event.prevent_default()
            self.filter_input.value = ""
            self.list.filter("")
            self.remove_class("-filtering")
            self.list.focus()
            self.filter_input.can_focus = False
            self._draw_status()
        elif event.key in ("down", "up") and self._filter_focused():
            event.stop()
            self.list.focus()
            self.list.cursor += 1 if event.key == "down" else -1

    def focus_list(self) -> None:
        self.list.focus()
