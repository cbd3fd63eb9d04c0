"""How :class:`folio.tui.widgets.diff_view.DiffView` draws one row of a diff: a hunk header, a unified line, or one
side of a side-by-side row, with its gutter (line numbers and sign, or the cursor) and its text, cut (a ``…`` where
it goes on past an edge) or wrapped to the width, the changed words stressed. A mixin: the view holds the diff, the
layout and the styles."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from folio.services.review.diff import DiffLine, SideRow
from folio.tui.textual_private import divide_line

__all__ = ["WORD_WRAP_MAX", "DiffDrawing"]

WORD_WRAP_MAX = 1_000_000
"""Past about this many characters (longest line times rows) long lines wrap at the width, not between words:
finding word breaks in every line would hold the screen for seconds."""

_SIGN = {"add": "+", "delete": "-", "context": " "}


class DiffDrawing:
    """The drawing of rows; the view provides what is declared here."""

    current_hunk: int | None
    scroll_x: float
    app: Any
    _number_width: int
    _wrap: bool
    _longest: int
    _breaks: dict[tuple[DiffLine, int], list[int]]

    if TYPE_CHECKING:

        @property
        def hunk_rows(self) -> list[int]: ...

        def _style(self, name: str) -> Style: ...

        def _gutter_width(self) -> int: ...

        @property
        def rows(self) -> list[DiffLine] | list[SideRow]: ...

    def _breaks_of(self, line: DiffLine, width: int) -> list[int]:
        """Where ``line`` wraps at ``width`` cells (worked out once: the layout's, reused when drawing)."""
        if len(line.text) <= width:
            return []
        key = (line, width)
        if key not in self._breaks:
            text = line.text
            if self._longest * len(self.rows) > WORD_WRAP_MAX and text.isascii():  # a huge page: cut, fast
                self._breaks[key] = list(range(width, len(text), width))
            else:
                self._breaks[key] = divide_line(text, width, fold=True)
        return self._breaks[key]

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

    def _text(self, line: DiffLine, width: int, style: Style, part: int = 0) -> Strip:
        """The line's text, scrolled sideways (or, wrapped, its ``part``-th piece), cut or padded to ``width``
        cells, changed words stressed."""
        text = Text(line.text, no_wrap=True, end="")
        text.stylize(style)  # Text.render ignores Text.style: the base goes in as a span
        if line.spans:
            word = self._style("diff-view--add-word" if line.kind == "add" else "diff-view--delete-word")
            for start, end in line.spans:
                text.stylize(word, start, end)
        offset = round(self.scroll_x)
        if self._wrap:
            pieces = text.divide(self._breaks_of(line, width))
            if part >= len(pieces):
                return Strip.blank(width, style)
            text, offset = pieces[part], 0
            text.rstrip()
        strip = Strip(list(text.render(self.app.console)))
        cut = strip.crop(offset, offset + width).adjust_cell_length(width, style)
        return self._cut_marks(cut, strip.cell_length, offset, width, style)

    def _cut_marks(self, cut: Strip, length: int, offset: int, width: int, style: Style) -> Strip:
        """A line cut at an edge (not wrapping) says so: ``…`` in its last cell when it goes on past the right
        edge, in its first when scrolled sideways past its start."""
        if self._wrap or width < 2:
            return cut
        mark = Strip([Segment("\u2026", style + self._style("diff-view--gutter"))])
        if length > offset + width:
            cut = Strip.join([cut.crop(0, width - 1), mark])
        if offset > 0 and length > 0:
            cut = Strip.join([mark, cut.crop(1, width)])
        return cut

    def _gutter(self, text: str, style: Style, *, at: bool, part: int) -> Segment:
        if part:  # a wrapped line's continuation: the numbers are on its first line
            text = " " * (len(text) - 2) + "\u21aa "
        return Segment(text, style + self._style("diff-view--cursor" if at else "diff-view--gutter"))

    def _unified(self, line: DiffLine, width: int, base: Style, *, part: int = 0, at: bool = False) -> Strip:
        style = self._line_style(line, base)
        w = self._number_width
        old = str(line.old) if line.old is not None else ""
        new = str(line.new) if line.new is not None else ""
        gutter = self._gutter(f"{old:>{w}} {new:>{w}} {_SIGN.get(line.kind, ' ')} ", style, at=at, part=part)
        body = self._text(line, max(0, width - self._gutter_width()), style, part)
        return Strip.join([Strip([gutter]), body]).crop(0, width).adjust_cell_length(width, style)

    def _side(
        self, line: DiffLine | None, width: int, base: Style, *, right: bool, part: int = 0, at: bool = False
    ) -> Strip:
        style = self._line_style(line, base)
        if line is None:
            return Strip.blank(width, style)
        number = line.new if right else line.old
        text = f"{number if number is not None else '':>{self._number_width}} {_SIGN.get(line.kind, ' ')}"
        gutter = self._gutter(text, style, at=at, part=part)
        body = self._text(line, max(0, width - self._gutter_width()), style, part)
        return Strip.join([Strip([gutter]), body]).crop(0, width).adjust_cell_length(width, style)
