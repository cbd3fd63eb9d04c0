"""How a row of a list is drawn: columns, cell widths, and a row's line as plain text with style spans (the
resource list draws a screenful of these per key, so a line is built without a Rich ``Text``).

    Column, Row         what a list shows
    layout()            cell widths for a line width (the title column keeps its room; 0: left out)
    column_span()       where a column's cells are on a line of those widths
    render_cells()      a row's line as Rich ``Text`` (headers, dialogs)
    line_of()           the same line as text and spans, cheaply
    line_segments()     spans to segments over a base style
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from operator import itemgetter
from typing import Literal, NamedTuple

from rich.cells import cell_len, set_cell_size
from rich.control import strip_control_codes
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.content import Content

__all__ = [
    "NULL_STYLE",
    "SHARE_FLOOR",
    "TITLE_ROOM",
    "Column",
    "Row",
    "Span",
    "column_span",
    "layout",
    "line_of",
    "line_segments",
    "render_cells",
]

NULL_STYLE = Style.null()

TITLE_ROOM = 20
"""The cells a list's title column keeps on a narrow line: the columns after it give way first."""

SHARE_FLOOR = 8
"""The cells another flexible column keeps when it gives the title room (below that it is left out)."""


class Column(NamedTuple):  # (defined before the first frame: see folio.cache.records)
    """One column: a fixed ``width`` or, when None, a share of what the fixed ones leave. ``title`` marks the
    column that names the row (without one, the first flexible column is the title): on a narrow line it keeps
    :data:`TITLE_ROOM` cells, the columns after it giving way first (see :func:`layout`)."""

    key: str
    label: str
    width: int | None = None
    align: Literal["left", "right"] = "left"
    style: str = ""
    title: bool = False


class Row:
    """One row of a list: its ``key``, the ``cells`` it shows, the text the filter matches (``search``), a style,
    an indent and the thing it stands for (``data``).

    A list may hold tens of thousands of these, so a row is small: slots, and ``search`` made when it is first
    asked for (by the filter), not up front. Unless one is given, ``search`` is the cells' text joined by spaces in
    lower case; a row given new ``cells`` works it out again from them (a ``search`` given is kept as given).
    """

    __slots__ = ("_given", "_joined", "_shown", "data", "indent", "key", "style")

    def __init__(
        self,
        key: str,
        cells: Sequence[Content | str],
        search: str = "",
        style: str = "",
        indent: int = 0,
        data: object = None,
    ) -> None:
        self.key = key
        self._shown = cells
        self._given = search or None
        self._joined: str | None = None
        self.style = style
        self.indent = indent
        self.data = data

    @property
    def cells(self) -> Sequence[Content | str]:
        return self._shown

    @cells.setter
    def cells(self, cells: Sequence[Content | str]) -> None:
        self._shown = cells
        self._joined = None

    @property
    def search(self) -> str:
        """What the filter matches (lower case)."""
        if self._given is not None:
            return self._given
        joined = self._joined
        if joined is None:
            joined = self._joined = " ".join(_plain(cell) for cell in self._shown).lower()
        return joined

    def _compared(self) -> tuple[object, ...]:
        """What equality compares (not ``data``, the thing the row stands for)."""
        return (self.key, self.cells, self.search, self.style, self.indent)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Row) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()

    __hash__ = None  # type: ignore[assignment]  # (equal rows may change: a row is not a dict key)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(key={self.key!r}, cells={self.cells!r}, search={self.search!r}, "
            f"style={self.style!r}, indent={self.indent!r})"
        )


def _plain(cell: Content | str) -> str:
    return cell.plain if isinstance(cell, Content) else cell


def layout(columns: Sequence[Column], width: int) -> list[int]:
    """Cell widths for a line ``width`` wide: fixed columns as given, flexible ones share the rest (1 space
    between columns); 0 for a column left out (no space for it either).

    The title column (:attr:`Column.title`, else the first flexible one) is what a row is read by, so on a narrow
    line it gets :data:`TITLE_ROOM` cells before the others get theirs: the other flexible columns give it room
    down to :data:`SHARE_FLOOR` cells each, then the columns after it are left out, the last first (fixed ones
    before flexible ones), until it has the room or none is left. The columns before it (a mark, a number) stay.
    """
    title = _title_of(columns)
    shown = list(range(len(columns)))
    widths = _spread(columns, width, shown, title)
    if title is None or columns[title].width is not None:
        return widths
    after = list(range(title + 1, len(columns)))
    leaving = [i for i in reversed(after) if columns[i].width is not None]
    leaving += [i for i in reversed(after) if columns[i].width is None]
    for index in leaving:
        if widths[title] >= TITLE_ROOM:
            break
        shown.remove(index)
        widths = _spread(columns, width, shown, title)
    return widths


def _title_of(columns: Sequence[Column]) -> int | None:
    marked = next((i for i, c in enumerate(columns) if c.title), None)
    return marked if marked is not None else next((i for i, c in enumerate(columns) if c.width is None), None)


def _spread(columns: Sequence[Column], width: int, shown: Sequence[int], title: int | None) -> list[int]:
    """The widths of the ``shown`` columns (the others 0): fixed ones as given, flexible ones share what is left
    (the first takes the remainder), then the title takes from the other flexible ones what it lacks of
    :data:`TITLE_ROOM` (down to :data:`SHARE_FLOOR` each)."""
    gaps = max(0, len(shown) - 1)
    fixed = sum(columns[i].width or 0 for i in shown)
    flexible = [i for i in shown if columns[i].width is None]
    left = max(0, width - fixed - gaps)
    share = left // len(flexible) if flexible else 0
    widths = [0] * len(columns)
    for i in shown:
        widths[i] = share if columns[i].width is None else columns[i].width or 0
    if flexible:  # the first flexible column takes the remainder
        widths[flexible[0]] += left - share * len(flexible)
    if title is not None and title in flexible:
        for i in flexible:
            lacking = TITLE_ROOM - widths[title]
            if lacking <= 0:
                break
            if i != title and widths[i] > SHARE_FLOOR:
                given = min(lacking, widths[i] - SHARE_FLOOR)
                widths[i] -= given
                widths[title] += given
    return widths


def column_span(widths: Sequence[int], index: int) -> tuple[int, int]:
    """Cells ``[start, end)`` of column ``index`` on a line drawn with ``widths`` (columns left out take no
    room, nor a space)."""
    start = sum(cell_width + 1 for cell_width in widths[:index] if cell_width)
    return start, start + widths[index]


def render_cells(columns: Sequence[Column], cells: Sequence[Content | str], width: int, indent: int = 0) -> Text:
    line = Text(no_wrap=True, end="")
    drawn = False
    for index, (column, cell_width) in enumerate(zip(columns, layout(columns, width), strict=False)):
        if not cell_width:
            continue  # left out (no room)
        if drawn:
            line.append(" ")
        drawn = True
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
    drawn = False
    for index, (column, cell_width) in enumerate(zip(columns, widths, strict=False)):
        if not cell_width:
            continue  # left out (no room)
        if drawn:
            parts.append(" ")
            offset += 1
            cells_wide += 1
        drawn = True
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
