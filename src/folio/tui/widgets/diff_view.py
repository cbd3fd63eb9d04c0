"""A markdown diff that draws only the lines on screen (the line API), unified or side by side.

    view.show(diff)              # a folio.services.review.diff.MarkdownDiff (its text already made safe)
    view.show(None, "Nothing")   # a message instead of a diff
    view.side_by_side = True     # two columns: before | after
    view.jump(+1)                # the next hunk (False when there is none): ]c, n
    view.wrap = True             # long lines wrap (no sideways scrolling)
    view.line_at_cursor()        # the DiffLine under the cursor (j/k move it): what `c` comments on

Changed lines have a tinted background and a sign (``+``/``-``, so the meaning survives without colour);
the words that changed inside a line are tinted stronger and bold. The line numbers stay put while the text
scrolls sideways (left/right, h/l), or the text wraps under them. With ``DiffView(cursor=True)`` a cursor (the
gutter drawn in the accent colour) marks one row: it starts on the first change, a jump to a change puts it
there, and j/k move it (without a cursor they scroll).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.strip import Strip

from folio.services.review.diff import DiffLine, MarkdownDiff, SideRow
from folio.tui.widgets.diff_drawing import DiffDrawing
from folio.tui.widgets.line_api import finished_lines, kept_vertical_scrollbar, lines_kept

__all__ = ["DiffView"]

SCREENS_DRAWN = 8
"""Screens of lines kept drawn: a diff line costs far more than a list's row, and reading goes back and forth (g,
G, a page, back): more than a list keeps (about 2 MB at 40 lines; it kept up to 4,096 lines)."""


class DiffView(ScrollView, DiffDrawing, can_focus=True):
    """The diff of one page. The text given must already be safe (the screen passes it through ``safe``)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "diff-view--add",
        "diff-view--delete",
        "diff-view--add-word",
        "diff-view--delete-word",
        "diff-view--hunk",
        "diff-view--hunk-current",
        "diff-view--gutter",
        "diff-view--note",
        "diff-view--blank",
        "diff-view--cursor",
    }
    DEFAULT_CSS = """
    DiffView { height: 1fr; background: $surface; }
    DiffView > .diff-view--add { background: $success 15%; }
    DiffView > .diff-view--delete { background: $error 15%; }
    DiffView > .diff-view--add-word { background: $success 45%; text-style: bold; }
    DiffView > .diff-view--delete-word { background: $error 45%; text-style: bold; }
    DiffView > .diff-view--hunk { color: $text-accent; background: $boost; }
    DiffView > .diff-view--hunk-current { color: $text; background: $accent 40%; text-style: bold; }
    DiffView > .diff-view--gutter { color: $text-muted; }
    DiffView > .diff-view--note { color: $text-muted; text-style: italic; }
    DiffView > .diff-view--blank { background: $panel; }
    DiffView > .diff-view--cursor { color: $text; background: $accent 60%; text-style: bold; }
    DiffView:focus > .diff-view--cursor { background: $accent; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "cursor(1)", "Down", show=False, id="diff.down", tooltip="The next line of the diff"),
        Binding("k,up", "cursor(-1)", "Up", show=False, id="diff.up", tooltip="The previous line of the diff"),
        Binding("h", "scroll_left", "Left", show=False, id="diff.left", tooltip="Scroll the diff left"),
        Binding("l", "scroll_right", "Right", show=False, id="diff.right", tooltip="Scroll the diff right"),
        Binding("g", "scroll_home", "Top", show=False, id="diff.top", tooltip="The top of the diff"),
        Binding("G", "scroll_end", "Bottom", show=False, id="diff.bottom", tooltip="The bottom of the diff"),
        Binding("space", "space_page", "Page down", show=False, id="diff.page-down", tooltip="Down one screen"),
    ]

    def __init__(
        self, *, cursor: bool = False, space: bool = True, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.has_cursor = cursor
        """Whether a cursor marks a row (j/k move it); without, j/k scroll."""
        self.pages_on_space = space
        """Whether space pages down (False: it is left to the screen, e.g. a change request's review sweep)."""
        self.diff: MarkdownDiff | None = None
        self.message = "Select a page to see its changes."
        self._side_by_side = False
        self.current_hunk: int | None = None
        self._styles: dict[str, Style] | None = None
        self._number_width = 3
        self._longest = 0
        self._wrap = False
        self.cursor = 0
        """The row of :attr:`rows` under the cursor."""
        self._starts: list[int] | None = None
        """With wrapping: the first screen line of each row (and the total at the end); None: one line a row."""
        self._breaks: dict[tuple[DiffLine, int], list[int]] = {}
        """Where each long line wraps, by line and width (computed once: drawing reuses the layout's)."""
        self._drawn: LRUCache[tuple[int, int, bool, bool, int], Strip] = LRUCache(SCREENS_DRAWN * 24)
        """Lines drawn, by (screen line, width, cursor on its row, current hunk's header, sideways scroll): paging
        back or scrolling by a line draws only what is new (#15). Emptied when the diff, its layout or the styles
        change."""
        self._paint: tuple[int, int] | None = None
        self._base: Style | None = None

    # -- what is shown ---------------------------------------------------------------------------------------

    def show(self, diff: MarkdownDiff | None, message: str = "") -> None:
        """Show a diff from its top (or ``message`` when there is none, or it changes nothing)."""
        self.diff = diff
        self.message = message
        self._breaks.clear()
        self.current_hunk = None
        lines = diff.unified if diff else []
        numbers = [n for line in lines for n in (line.old, line.new) if n is not None]
        self._number_width = max(3, len(str(max(numbers, default=0))))
        self._longest = max((len(line.text) for line in lines if line.kind != "hunk"), default=0)
        self.scroll_to(0, 0, animate=False, immediate=True)
        self._resize()
        self.cursor = self._first_change(0)
        self._follow()
        self.refresh()

    @property
    def wrap(self) -> bool:
        return self._wrap

    @wrap.setter
    def wrap(self, value: bool) -> None:
        if value == self._wrap:
            return
        self._wrap = value
        self.scroll_to(x=0, animate=False, immediate=True)
        self._resize()
        self._follow(top=True)
        self.refresh()

    @property
    def side_by_side(self) -> bool:
        return self._side_by_side

    @side_by_side.setter
    def side_by_side(self, value: bool) -> None:
        if value == self._side_by_side:
            return
        line = self.line_at_cursor()
        self._side_by_side = value
        self._resize()
        self.cursor = self._row_of(line) if line is not None else 0
        self._follow(top=True)
        self.refresh()

    @property
    def rows(self) -> list[DiffLine] | list[SideRow]:
        if self.diff is None:
            return []
        return self.diff.side_by_side if self._side_by_side else self.diff.unified

    @property
    def hunk_rows(self) -> list[int]:
        if self.diff is None:
            return []
        return self.diff.side_hunks if self._side_by_side else self.diff.unified_hunks

    # -- hunks -----------------------------------------------------------------------------------------------

    def jump(self, step: int) -> bool:
        """Put the next (``step`` > 0) or previous hunk at the top; False when there is none that way."""
        hunks = self.hunk_rows
        if not hunks:
            return False
        if self.current_hunk is None:
            top = round(self.scroll_y)
            if step > 0:
                target = next((i for i, row in enumerate(hunks) if self._line_of(row) >= top), None)
            else:
                target = next((i for i in range(len(hunks) - 1, -1, -1) if self._line_of(hunks[i]) < top), None)
        else:
            target = self.current_hunk + (1 if step > 0 else -1)
        if target is None or not 0 <= target < len(hunks):
            return False
        self.go_to_hunk(target)
        return True

    def go_to_hunk(self, index: int) -> None:
        """Select hunk ``index`` (negative counts from the end) and scroll it to the top."""
        hunks = self.hunk_rows
        if not hunks:
            return
        self.current_hunk = index % len(hunks)
        self.cursor = self._first_change(hunks[self.current_hunk])
        self._scroll_to_row(hunks[self.current_hunk])
        self.refresh()

    def _scroll_to_row(self, row: int) -> None:
        self.scroll_to(y=max(0, self._line_of(row) - 1), animate=False, immediate=True)

    # -- the cursor --------------------------------------------------------------------------------------------

    def _first_change(self, start: int) -> int:
        """The first added or deleted row from ``start`` (``start`` itself when there is none)."""
        for index in range(start, len(self.rows)):
            if any(line is not None and line.kind in ("add", "delete") for line in self._lines_of(index)):
                return index
        return start

    def _lines_of(self, index: int) -> list[DiffLine | None]:
        item = self.rows[index]
        if isinstance(item, SideRow):
            return [item.left, item.right] if item.header is None else [item.header]
        return [item]

    def line_at_cursor(self) -> DiffLine | None:
        """The line under the cursor: on a side-by-side row, the new side (the old one where it has none); on a
        hunk's header, the line after it. None when no diff is shown."""
        rows = self.rows
        for index in range(min(self.cursor, len(rows) - 1), len(rows)) if rows else ():
            item = rows[index]
            if isinstance(item, SideRow):
                if item.header is None:
                    return item.right or item.left
            elif item.kind not in ("hunk", "note"):
                return item
        return None

    def _row_of(self, line: DiffLine) -> int:
        """The row showing ``line`` (by its numbers) in the layout in use, or 0."""
        for index in range(len(self.rows)):
            for other in self._lines_of(index):
                if other is not None and (other.old, other.new, other.kind) == (line.old, line.new, line.kind):
                    return index
        return 0

    def action_cursor(self, step: int) -> None:
        rows = len(self.rows)
        if not rows or not self.has_cursor:
            self.scroll_relative(y=step, animate=False)
            return
        before, scrolled = self.cursor, round(self.scroll_y)
        self.cursor = max(0, min(rows - 1, self.cursor + step))
        self._follow()
        if round(self.scroll_y) != scrolled:
            self.refresh()
            return
        for row in {before, self.cursor}:  # in place: only the two rows the cursor left and reached
            start = self._line_of(row)
            self.refresh_lines(start, max(1, self._line_of(row + 1) - start))

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if self.has_cursor and self.rows and round(old_value) != round(new_value):
            self._cursor_in_view()

    def _cursor_in_view(self) -> None:
        """After a scroll (space, g, G, the mouse): a cursor left off screen comes to its nearest edge, so c
        never comments on a line out of sight."""
        top = round(self.scroll_y)
        height = self.scrollable_content_region.height or self.size.height
        if not height:
            return
        bottom = top + height - 1
        if self._line_of(self.cursor) < top:
            self.cursor = self._row_at(top, first=True)
        elif self._line_of(self.cursor) > bottom:
            self.cursor = self._row_at(bottom, first=False)

    def _row_at(self, line: int, *, first: bool) -> int:
        """The row on screen line ``line`` (``first``: the first row starting at or after it)."""
        if self._starts is None:
            return max(0, min(line, len(self.rows) - 1))
        row = bisect_right(self._starts, line) - 1
        if first and self._starts[row] < line:
            row += 1
        return max(0, min(row, len(self.rows) - 1))

    def _follow(self, *, top: bool = False) -> None:
        """Scroll so the cursor's row is on screen (``top``: near the top)."""
        first = self._line_of(self.cursor)
        last = self._line_of(self.cursor + 1) - 1
        height = self.scrollable_content_region.height or self.size.height or 1
        y = round(self.scroll_y)
        if top or first < y:
            self.scroll_to(y=max(0, first - 1 if top else first), animate=False, immediate=True)
        elif last >= y + height:
            self.scroll_to(y=max(0, last - height + 1), animate=False, immediate=True)

    # -- wrapping ----------------------------------------------------------------------------------------------

    def _line_of(self, row: int) -> int:
        """The first screen line of ``row``."""
        if self._starts is None:
            return row
        return self._starts[max(0, min(row, len(self._starts) - 1))]

    def _layout(self, text_width: int) -> None:
        """With wrapping on, where each row starts on screen (a row is as tall as its longer side)."""
        if not self._wrap or self.diff is None:
            self._starts = None
            return
        starts, at = [], 0
        for index in range(len(self.rows)):
            starts.append(at)
            lines = self._lines_of(index)
            if len(lines) == 1 and lines[0] is not None and lines[0].kind in ("hunk", "note"):
                at += 1
                continue
            at += max(len(self._breaks_of(line, text_width)) + 1 for line in lines if line is not None)
        starts.append(at)
        self._starts = starts

    # -- drawing ---------------------------------------------------------------------------------------------

    def _resize(self) -> None:
        self._drawn.clear()
        width = self.scrollable_content_region.width or self.size.width
        text_width = self._text_width(width)
        self._layout(text_width)
        extra = 0 if self._wrap else max(0, self._longest - text_width)
        height = len(self.rows) if self.diff else len(self.message.splitlines()) + 1
        if self._starts is not None:
            height = self._starts[-1]
        self.virtual_size = Size(width + extra, height)

    def on_resize(self, event: events.Resize) -> None:
        self._resize()
        self._drawn = lines_kept(self._drawn, self.size.height, SCREENS_DRAWN)
        if self.has_cursor and self.rows:
            self._follow()  # a line appearing above (a banner) or going: the cursor's line stays, and in view

    def notify_style_update(self) -> None:
        self._styles = None
        self._base = None
        self._drawn.clear()
        super().notify_style_update()

    def _style(self, name: str) -> Style:
        if self._styles is None:
            self._styles = {c: self.get_component_rich_style(c) for c in self.COMPONENT_CLASSES}
            for name_only in ("diff-view--gutter", "diff-view--note"):  # colour and style, not the background
                full = self._styles[name_only]
                self._styles[name_only] = Style(color=full.color, italic=full.italic, bold=full.bold)
        return self._styles[name]

    def _gutter_width(self) -> int:
        per_side = self._number_width + 2  # "123 + "
        return per_side if self._side_by_side else self._number_width * 2 + 4  # "12 13 + "

    def _text_width(self, width: int) -> int:
        if self._side_by_side:
            return max(1, (width - 1) // 2 - self._gutter_width())
        return max(1, width - self._gutter_width())

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        return kept_vertical_scrollbar(self)  # its lines drawn once: a scroll does not redraw the whole bar

    def render_lines(self, crop: Region) -> list[Strip]:
        # What every line of this paint shares, read once (the content region is worked out anew at each read).
        self._paint = (self.scrollable_content_region.width or self.size.width, round(self.scroll_y))
        try:
            return finished_lines(self, crop) or super().render_lines(crop)
        finally:
            self._paint = None

    def render_line(self, y: int) -> Strip:
        width, top = self._paint or (self.scrollable_content_region.width or self.size.width, round(self.scroll_y))
        line = top + y
        if self.diff is None:
            return self._draw(line, width)
        # A line is kept by what it shows: whether the cursor or the current hunk is on its row, not where they
        # are, so a scroll by a line draws one line and paging back draws none.
        row = line if self._starts is None else bisect_right(self._starts, line) - 1
        at = self.has_cursor and row == self.cursor
        hunk = self.current_hunk is not None and self.hunk_rows[self.current_hunk] == row
        key = (line, width, at, hunk, round(self.scroll_x))
        strip = self._drawn.get(key)
        if strip is None:
            strip = self._draw(line, width)
            self._drawn.set(key, strip)
        return strip

    def _draw(self, row: int, width: int) -> Strip:
        """Screen line ``row`` of the diff (or of the message), ``width`` cells wide."""
        if self._base is None:
            self._base = self.rich_style
        base = self._base
        if self.diff is None:
            lines = self.message.splitlines()
            text = lines[row - 1] if 1 <= row <= len(lines) else ""
            return Strip([Segment(" " + text, base + self._style("diff-view--note"))]).adjust_cell_length(width, base)
        rows = self.rows
        part = 0
        if self._starts is not None:
            line = row
            row = bisect_right(self._starts, line) - 1
            part = line - self._starts[row] if 0 <= row < len(rows) else 0
        if not 0 <= row < len(rows):
            return Strip.blank(width, base)
        item = rows[row]
        at = self.has_cursor and row == self.cursor
        if isinstance(item, SideRow):
            if item.header is not None:
                return self._header(item.header, row, width, base)
            half = (width - 1) // 2
            left = self._side(item.left, half, base, right=False, part=part, at=at)
            right = self._side(item.right, width - 1 - half, base, right=True, part=part, at=at)
            return Strip.join([left, Strip([Segment("\u2502", base + self._style("diff-view--gutter"))]), right])
        if item.kind in ("hunk", "note"):
            return self._header(item, row, width, base)
        return self._unified(item, width, base, part=part, at=at)

    # -- keys ------------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Without: space goes on to the screen's binding of it (the change request's review sweep).
        return action != "space_page" or self.pages_on_space

    # g, G, space, pageup/down go at once, as j and k do: Textual's scroll glides for up to 1 s (the diff drawn anew
    # at each frame) and starts a frame late. Where space is the screen's (a change request's sweep), pagedown pages.
    def action_scroll_down(self) -> None:
        self.scroll_relative(y=1, animate=False)

    def action_scroll_up(self) -> None:
        self.scroll_relative(y=-1, animate=False)

    def action_scroll_home(self) -> None:
        self.scroll_to(x=0 if self.scroll_y == 0 else None, y=0, animate=False)

    def action_scroll_end(self) -> None:
        self.scroll_to(y=self.max_scroll_y, animate=False)

    def action_page_down(self) -> None:
        if not self.allow_vertical_scroll:
            raise SkipAction()  # as Textual's: a diff that fits leaves the key to the screen
        self.action_space_page()

    def action_page_up(self) -> None:
        if not self.allow_vertical_scroll:
            raise SkipAction()
        self.scroll_to(y=self.scroll_y - self.scrollable_content_region.height, animate=False)

    def action_space_page(self) -> None:
        self.scroll_to(y=self.scroll_y + self.scrollable_content_region.height, animate=False)
