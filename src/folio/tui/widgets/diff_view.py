"""A markdown diff that draws only the lines on screen (the line API), unified or side by side.

    view.show(diff)              # a folio.services.diff.MarkdownDiff (its text already made safe)
    view.show(None, "Nothing")   # a message instead of a diff
    view.side_by_side = True     # two columns: before | after
    view.jump(+1)                # the next hunk (False when there is none): ]c, n

Changed lines have a tinted background and a sign (``+``/``-``, so the meaning survives without colour);
the words that changed inside a line are tinted stronger and bold. The line numbers stay put while the text
scrolls sideways (left/right, h/l).
"""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from folio.services.diff import DiffLine, MarkdownDiff, SideRow

__all__ = ["DiffView"]

_SIGN = {"add": "+", "delete": "-", "context": " "}


class DiffView(ScrollView, can_focus=True):
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
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "scroll_down", "Down", show=False, id="diff.down", tooltip="Scroll the diff down a line"),
        Binding("k", "scroll_up", "Up", show=False, id="diff.up", tooltip="Scroll the diff up a line"),
        Binding("h", "scroll_left", "Left", show=False, id="diff.left", tooltip="Scroll the diff left"),
        Binding("l", "scroll_right", "Right", show=False, id="diff.right", tooltip="Scroll the diff right"),
        Binding("g", "scroll_home", "Top", show=False, id="diff.top", tooltip="The top of the diff"),
        Binding("G", "scroll_end", "Bottom", show=False, id="diff.bottom", tooltip="The bottom of the diff"),
        Binding("space", "page_down", "Page down", show=False, id="diff.page-down", tooltip="Down one screen"),
    ]

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.diff: MarkdownDiff | None = None
        self.message = "Select a page to see its changes."
        self._side_by_side = False
        self.current_hunk: int | None = None
        self._styles: dict[str, Style] | None = None
        self._number_width = 3
        self._longest = 0

    # -- what is shown ---------------------------------------------------------------------------------------

    def show(self, diff: MarkdownDiff | None, message: str = "") -> None:
        """Show a diff from its top (or ``message`` when there is none, or it changes nothing)."""
        self.diff = diff
        self.message = message
        self.current_hunk = None
        lines = diff.unified if diff else []
        numbers = [n for line in lines for n in (line.old, line.new) if n is not None]
        self._number_width = max(3, len(str(max(numbers, default=0))))
        self._longest = max((len(line.text) for line in lines if line.kind != "hunk"), default=0)
        self.scroll_to(0, 0, animate=False, immediate=True)
        self._resize()
        self.refresh()

    @property
    def side_by_side(self) -> bool:
        return self._side_by_side

    @side_by_side.setter
    def side_by_side(self, value: bool) -> None:
        if value == self._side_by_side:
            return
        self._side_by_side = value
        self._resize()
        if self.current_hunk is not None and self.current_hunk < len(self.hunk_rows):
            self._scroll_to_row(self.hunk_rows[self.current_hunk])
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
                target = next((i for i, row in enumerate(hunks) if row >= top), None)
            else:
                target = next((i for i in range(len(hunks) - 1, -1, -1) if hunks[i] < top), None)
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
        self._scroll_to_row(hunks[self.current_hunk])
        self.refresh()

    def _scroll_to_row(self, row: int) -> None:
        self.scroll_to(y=max(0, row - 1), animate=False, immediate=True)

    # -- drawing ---------------------------------------------------------------------------------------------

    def _resize(self) -> None:
        width = self.scrollable_content_region.width or self.size.width
        text_width = self._text_width(width)
        extra = max(0, self._longest - text_width)
        height = len(self.rows) if self.diff else len(self.message.splitlines()) + 1
        self.virtual_size = Size(width + extra, height)

    def on_resize(self, event: events.Resize) -> None:
        self._resize()

    def notify_style_update(self) -> None:
        self._styles = None
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
        return per_side if self._side_by_side else self._number_width * 2 + 3  # "12 13 + "

    def _text_width(self, width: int) -> int:
        if self._side_by_side:
            return max(1, (width - 1) // 2 - self._gutter_width())
        return max(1, width - self._gutter_width())

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width or self.size.width
        base = self.rich_style
        row = round(self.scroll_y) + y
        if self.diff is None:
            lines = self.message.splitlines()
            text = lines[row - 1] if 1 <= row <= len(lines) else ""
            return Strip([Segment(" " + text, base + self._style("diff-view--note"))]).adjust_cell_length(width, base)
        rows = self.rows
        if row >= len(rows):
            return Strip.blank(width, base)
        item = rows[row]
        if isinstance(item, SideRow):
            if item.header is not None:
                return self._header(item.header, row, width, base)
            half = (width - 1) // 2
            left = self._side(item.left, half, base, right=False)
            right = self._side(item.right, width - 1 - half, base, right=True)
            return Strip.join([left, Strip([Segment("\u2502", base + self._style("diff-view--gutter"))]), right])
        if item.kind in ("hunk", "note"):
            return self._header(item, row, width, base)
        return self._unified(item, width, base)

    def _header(self, line: DiffLine, row: int, width: int, base: Style) -> Strip:
        if line.kind == "note":
            style = base + self._style("diff-view--note")
            return Strip([Segment(" " + line.text, style)]).adjust_cell_length(width, style)
        current = self.current_hunk is not None and self.hunk_rows[self.current_hunk] == row
        style = base + self._style("diff-view--hunk-current" if current else "diff-view--hunk")
        marker = "\u25b6 " if current else "  "
        return Strip([Segment(marker + line.text, style)]).crop(0, width).adjust_cell_length(width, style)

    def _line_style(self, line: DiffLine | None, base: Style) -> Style:
        if line is None:
            return base + self._style("diff-view--blank")
        if line.kind == "add":
            return base + self._style("diff-view--add")
        if line.kind == "delete":
            return base + self._style("diff-view--delete")
        return base

    def _text(self, line: DiffLine, width: int, style: Style) -> Strip:
        """The line's text, scrolled sideways, cut or padded to ``width`` cells, changed words stressed."""
        text = Text(line.text, no_wrap=True, end="")
        text.stylize(style)  # Text.render ignores Text.style: the base goes in as a span
        if line.spans:
            word = self._style("diff-view--add-word" if line.kind == "add" else "diff-view--delete-word")
            for start, end in line.spans:
                text.stylize(word, start, end)
        offset = round(self.scroll_x)
        strip = Strip(list(text.render(self.app.console)))
        return strip.crop(offset, offset + width).adjust_cell_length(width, style)

    def _unified(self, line: DiffLine, width: int, base: Style) -> Strip:
        style = self._line_style(line, base)
        gutter_style = style + self._style("diff-view--gutter")
        w = self._number_width
        old = str(line.old) if line.old is not None else ""
        new = str(line.new) if line.new is not None else ""
        gutter = Segment(f"{old:>{w}} {new:>{w}} {_SIGN.get(line.kind, ' ')} ", gutter_style)
        body = self._text(line, max(0, width - self._gutter_width()), style)
        return Strip.join([Strip([gutter]), body]).crop(0, width)

    def _side(self, line: DiffLine | None, width: int, base: Style, *, right: bool) -> Strip:
        style = self._line_style(line, base)
        if line is None:
            return Strip.blank(width, style)
        number = line.new if right else line.old
        gutter = Segment(
            f"{number if number is not None else '':>{self._number_width}} {_SIGN.get(line.kind, ' ')}",
            style + self._style("diff-view--gutter"),
        )
        body = self._text(line, max(0, width - self._gutter_width()), style)
        return Strip.join([Strip([gutter]), body]).crop(0, width).adjust_cell_length(width, style)

    # -- keys ------------------------------------------------------------------------------------------------

    def action_scroll_down(self) -> None:
        self.scroll_relative(y=1, animate=False)

    def action_scroll_up(self) -> None:
        self.scroll_relative(y=-1, animate=False)
