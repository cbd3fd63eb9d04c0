"""What a line-API widget (a ``ScrollView`` with ``render_line``) needs for a key to cost little more than its own
lines (#15): the lines finished without Textual's per-line styling pass, and a scrollbar whose lines are kept.

    class MyList(ScrollView):
        def render_lines(self, crop: Region) -> list[Strip]:
            return finished_lines(self, crop) or super().render_lines(crop)

        @property
        def vertical_scrollbar(self) -> ScrollBar:
            return kept_vertical_scrollbar(self)

Textual passes every line a widget draws through its styles cache: padding, borders, outline, tint, opacity, then
the app's line filters, reading a dozen style rules and making three or four ``Strip`` objects a line. For a widget
with none of these (the lists and the diff), all that comes to padding the line to the widget's width and applying
the filters, both cached on the line's ``Strip``: :func:`finished_lines` does just that, so a line kept by the
widget comes back as the very same ``Strip`` and the compositor's own cuts of it are reused too.

A scrollbar redraws every line at each scroll through the same pass, from a Rich renderable: for a list of 40
lines that was 2-5 ms of a page down, as much as the list's own rows. Yet a vertical bar has a handful of different
lines (the track above the thumb, the thumb, its two ends, the track below), each the same wherever it falls.
:class:`KeptScrollBar` draws a line the Textual way the first time it is seen and keeps it by its content (the text
and style Textual's renderer gives that line). What is drawn is Textual's, to the cell, and the mouse (click above
or below the thumb, drag it) works as before.
"""

from __future__ import annotations

from typing import Any, TypeVar

from rich.color import Color
from rich.style import Style
from textual.cache import LRUCache
from textual.geometry import Region
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.widget import Widget

from folio.tui.textual_private import (
    kept_lines,
    lines_drawn,
    set_vertical_scrollbar,
    style_has_meta,
    vertical_scrollbar,
)

K = TypeVar("K")

__all__ = ["KeptScrollBar", "finished_lines", "kept_vertical_scrollbar", "lines_kept"]

KEPT_LINES = 64
"""Scrollbar lines kept at most (one width and one look make about ten kinds: more means the looks changed)."""

SCREENS_KEPT = 2
"""Lines a widget keeps drawn, in screens, by default: a scroll by a line draws one line, paging back one screen
draws none. No more: a kept line holds what Textual derives from it (padded, filtered, cut by the compositor),
about 7 KB a line of a list 120 cells wide."""


def lines_kept(cache: LRUCache[K, Strip], height: int, screens: int = SCREENS_KEPT) -> LRUCache[K, Strip]:
    """``cache`` if it holds ``screens`` screens of ``height`` lines, else a new one that does (call it when the
    widget is resized)."""
    size = screens * max(16, height)
    return cache if cache.maxsize == size else LRUCache(size)


def _plain_box(widget: Widget) -> bool:
    """True when Textual's styling pass would leave the widget's lines as they are but for the padding to its width
    and the line filters: no padding, border, outline, hatch, tint or opacity, no link under the mouse."""
    styles = widget.styles
    if any(styles.gutter) or any(edge for edge, _ in styles.outline) or styles.has_rule("hatch"):
        return False
    if styles.tint.a or styles.text_opacity != 1.0 or widget.opacity != 1.0:
        return False
    hover = widget.hover_style
    return not (widget.auto_links and style_has_meta(hover) and "@click" in hover.meta)


def finished_lines(widget: Widget, crop: Region) -> list[Strip] | None:
    """The lines ``crop`` of ``widget`` as Textual's styles cache would finish them from ``widget.render_line``,
    without its per-line pass; None when the widget's styles need that pass (draw with ``super().render_lines``).

    The styles cache's own book of lines is kept as Textual keeps it (a line is drawn again when a refresh marked it
    dirty, or when it was never drawn at this width), so a key that repaints two lines draws two lines."""
    if not _plain_box(widget):
        return None
    width = widget.size.width
    base_background, background = widget.background_colors
    pad = Style(bgcolor=(base_background + background).rich_color)  # what the styles cache pads a short line with
    filters = widget.get_line_filters()
    render_line = widget.render_line
    lines, is_dirty = kept_lines(widget, width)  # Textual's record of the lines drawn, and of those made dirty
    strips: list[Strip] = []
    for y in crop.line_range:
        strip = lines.get(y)
        if strip is None or is_dirty(y):
            strip = lines[y] = render_line(y).adjust_cell_length(width, pad)
        for line_filter in filters:
            strip = strip.apply_filter(line_filter, background)
        strips.append(strip)
    lines_drawn(widget, crop.line_range)
    if crop.column_span != (0, width):
        x1, x2 = crop.column_span
        strips = [strip.crop(x1, x2) for strip in strips]
    return strips


class KeptScrollBar(ScrollBar):
    """A vertical :class:`ScrollBar` that draws each kind of line once, and then reuses it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept: dict[tuple[str, Style | None], Strip] = {}
        self._kept_for: tuple[object, ...] | None = None
        self._reliable = True
        """False once two lines with the same content came out differently (a border, padding): then every frame
        is drawn the Textual way."""

    def _line_keys(self) -> list[tuple[str, Style | None]] | None:
        """What each line shows, from Textual's own renderer (None: not a plain vertical bar, draw it as usual)."""
        if self.parent is None:  # being taken down: Textual draws what it kept
            return None
        renderable = self.render()
        width, height = self.size
        if not isinstance(renderable, ScrollBarRender) or not renderable.vertical or not width or not height:
            return None
        style = renderable.style if isinstance(renderable.style, Style) else Style.parse(str(renderable.style))
        bar = renderable.render_bar(
            size=height,
            virtual_size=renderable.virtual_size,
            window_size=renderable.window_size,
            position=renderable.position,
            thickness=width,
            vertical=True,
            back_color=style.bgcolor or Color.parse("#555555"),
            bar_color=style.color or Color.parse("bright_magenta"),
        )
        segments = bar.segments
        if len(segments) != height:
            return None
        return [(segment.text, segment.style) for segment in segments]

    def render_lines(self, crop: Region) -> list[Strip]:
        keys = self._line_keys() if self._reliable else None
        if keys is None:
            return super().render_lines(crop)
        # What a line's look depends on besides its content: the kept lines are dropped when it changes.
        context = (self.size, self.background_colors, tuple(self.get_line_filters()), self.opacity)
        if context != self._kept_for or len(self._kept) > KEPT_LINES:
            self._kept_for = context
            self._kept.clear()
        kept = self._kept
        if any(key not in kept for key in keys):
            lines = super().render_lines(self.size.region)
            drawn: dict[tuple[str, Style | None], Strip] = {}
            for key, line in zip(keys, lines, strict=False):
                if drawn.setdefault(key, line) != line:
                    self._reliable = False  # the same content drew differently: this bar's lines are not alike
                    self._kept.clear()
                    return [line.crop(*crop.column_span) for line in lines[crop.y : crop.bottom]]
            kept.update(drawn)
        strips = [kept[keys[y]] for y in crop.line_range]
        if crop.column_span != (0, self.size.width):
            strips = [strip.crop(*crop.column_span) for strip in strips]
        return strips


def kept_vertical_scrollbar(widget: ScrollView) -> ScrollBar:
    """``widget``'s vertical scrollbar, made a :class:`KeptScrollBar` (what ``Widget.vertical_scrollbar`` does
    with Textual's)."""
    bar = vertical_scrollbar(widget)
    if bar is None:
        bar = KeptScrollBar(vertical=True, name="vertical", thickness=widget.scrollbar_size_vertical)
        set_vertical_scrollbar(widget, bar)
    return bar
