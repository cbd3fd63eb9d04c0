"""A list of resources that draws only the rows on screen (the line API), so 100,000 rows mount as fast as 10.

    ResourceList            the rows, the cursor, j/k g/G and friends; posts Highlighted and Selected
    ResourceBrowser         a ResourceList with its column header, a `/` filter and a status line that says
                            what is loading, what failed, or that the list is empty

Rows hold text already made safe (``folio.tui.safe``): the list never parses markup and never sees raw server
strings. A row's ``search`` is what the filter matches (lower case); every word typed must appear in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Size
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


class ResourceList(ScrollView, can_focus=True):
    """The rows. Only what is visible is drawn; filtering and the cursor work on indices."""

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
        self._visible: list[int] = []
        self._query = ""

    # -- data ----------------------------------------------------------------------------------------------

    @property
    def rows(self) -> list[Row]:
        return self._rows

    @property
    def visible_rows(self) -> list[Row]:
        return [self._rows[i] for i in self._visible]

    @property
    def highlighted(self) -> Row | None:
        if 0 <= self.cursor < len(self._visible):
            return self._rows[self._visible[self.cursor]]
        return None

    def set_rows(self, rows: Iterable[Row], *, keep: str | None = None) -> None:
        """Replace the rows; the cursor stays on the row with key ``keep`` (default: the current one)."""
        current = keep if keep is not None else (self.highlighted.key if self.highlighted else None)
        self._rows = list(rows)
        self._apply_filter(current)

    def append_rows(self, rows: Iterable[Row]) -> None:
        """Add rows at the end (the next page of a list) without moving the cursor."""
        start = len(self._rows)
        added = list(rows)
        self._rows.extend(added)
        words = self._query.split()
        self._visible.extend(i for i, r in enumerate(added, start) if all(w in r.search for w in words))
        self._resize()
        self.refresh()
        if self.highlighted is None and self._visible:
            self.cursor = 0

    def filter(self, query: str) -> None:
        self._query = query.lower().strip()
        self._apply_filter(self.highlighted.key if self.highlighted else None)

    def move_to(self, key: str) -> bool:
        for position, index in enumerate(self._visible):
            if self._rows[index].key == key:
                self.cursor = position
                return True
        return False

    def _apply_filter(self, keep: str | None) -> None:
        words = self._query.split()
        self._visible = [i for i, r in enumerate(self._rows) if all(w in r.search for w in words)]
        self._resize()
        position = 0
        if keep is not None:
            for pos, index in enumerate(self._visible):
                if self._rows[index].key == keep:
                    position = pos
                    break
        self.cursor = min(position, max(0, len(self._visible) - 1))
        self.refresh()

    def _resize(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self._visible))

    # -- drawing -------------------------------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self._resize()

    def render_line(self, y: int) -> Strip:
        position = round(self.scroll_y) + y
        width = self.scrollable_content_region.width
        if position >= len(self._visible):
            return Strip.blank(width, self.rich_style)
        row = self._rows[self._visible[position]]
        text = render_cells(self.columns, row.cells, width, row.indent)
        base = self.rich_style
        if row.style:
            text.stylize(row.style)
        if position == self.cursor:
            base = base + self.get_component_rich_style("resource-list--cursor")
        elif row.style == "dim":
            base = base + self.get_component_rich_style("resource-list--dim")
        segments = [Segment(s.text, base + s.style if s.style else base) for s in text.render(self.app.console)]
        return Strip(segments).adjust_cell_length(width, base)

    # -- cursor ----------------------------------------------------------------------------------------------

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, len(self._visible) - 1)) if self._visible else 0

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh_line(old - round(self.scroll_y))
        self.refresh_line(new - round(self.scroll_y))
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

    def compose(self) -> ComposeResult:
        yield Input(placeholder="Filter: type to narrow, esc to clear", classes="resource-browser--filter")
        yield Static(classes="resource-browser--header")
        yield ResourceList(self.columns)
        yield Static(classes="resource-browser--status")

    @property
    def list(self) -> ResourceList:
        return self.query_one(ResourceList)

    @property
    def filter_input(self) -> Input:
        return self.query_one(Input)

    def on_mount(self) -> None:
        # The filter box takes focus only while filtering: hidden, it must not catch the screen's first focus.
        self.filter_input.can_focus = False
        self._draw_header()
        self._draw_status()

    def on_resize(self, event: events.Resize) -> None:
        # After the refresh: a browser in a tab hidden at mount learns the list's width only then.
        self.call_after_refresh(self._draw_header)

    def _draw_header(self) -> None:
        header = self.query_one(".resource-browser--header", Static)
        width = max(1, self.list.scrollable_content_region.width or self.size.width)
        header.update(render_cells(self.columns, [c.label for c in self.columns], width))

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
        self.query_one(".resource-browser--status", Static).remove_class("-error")
        self._draw_status()

    def set_error(self, message: Content | None) -> None:
        """Say what failed (None clears it); rows already shown stay."""
        if not self.alive:
            return  # the screen was left while this list loaded
        self.list.loading = False
        self._status = message
        status = self.query_one(".resource-browser--status", Static)
        status.set_class(message is not None, "-error")
        self._draw_status()

    def _draw_status(self) -> None:
        status = self.query_one(".resource-browser--status", Static)
        lst = self.list
        if self._status is not None:
            status.update(self._status)
            return
        shown, total = len(lst.visible_rows), len(lst.rows)
        if total == 0:
            status.update(Content(self.empty))
        elif shown == 0:
            status.update(Content(f"No row matches “{self.filter_input.value}” (esc clears the filter)."))
        elif shown < total:
            status.update(Content(f"{shown} of {total} shown"))
        else:
            status.update(Content(f"{total} {'row' if total == 1 else 'rows'}"))

    # -- filter -----------------------------------------------------------------------------------------------

    def action_start_filter(self) -> None:
        self.add_class("-filtering")
        self.filter_input.can_focus = True
        self.filter_input.focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.list.filter(event.value)
        self._draw_status()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.list.focus()

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape" and self.filter_input.has_focus:
            event.stop()
            event.prevent_default()
            self.filter_input.value = ""
            self.list.filter("")
            self.remove_class("-filtering")
            self.list.focus()
            self.filter_input.can_focus = False
            self._draw_status()
        elif event.key in ("down", "up") and self.filter_input.has_focus:
            event.stop()
            self.list.focus()
            self.list.cursor += 1 if event.key == "down" else -1

    def focus_list(self) -> None:
        self.list.focus()
