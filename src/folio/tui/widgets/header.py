"""The header's breadcrumb trail, fitted to the width it is drawn in: cut from the START, so the screen you are on
(the last crumb) stays whole however narrow the terminal (``… > Northwind Labs > Translations`` at 80 columns,
not ``Folio > Northwind Labs > Conversations…``).

    Crumbs("Folio", [Content("Northwind Labs"), Content("Translations")])    # what App.format_title returns

Every screen's Textual ``Header`` shows it: the header asks the app for its title (``format_title``) and draws
the :class:`Crumbs` it gets at its own width, each time it is drawn (a resize draws it again).
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions

__all__ = ["ELLIPSIS", "Crumbs"]

ELLIPSIS = "\u2026"
"""Stands for the crumbs left out at the start."""

SEPARATOR = " \u203a "
"""Between two crumbs (the app's ``CRUMB`` with a space either side)."""


class Crumbs(Content):
    """``Folio > Northwind Labs > Translations``: reads (``str``, ``plain``) as the whole trail, draws as much of it
    as the width holds, whole crumbs kept from the END (the first ones give way to ``…``). A last crumb wider
    than the room is drawn alone, cut at its own end (the header's ``text-overflow: ellipsis``)."""

    def __init__(self, title: str, segments: Sequence[Content]) -> None:
        self._parts: tuple[Content, ...] = (Content.styled(title, "bold"), *segments)
        whole = self._joined(self._parts)
        super().__init__(whole.plain, list(whole.spans), whole.cell_length, strip_control_codes=False)

    @staticmethod
    def _joined(parts: Sequence[Content], cut: bool = False) -> Content:
        joined: list[Content] = [Content.styled(ELLIPSIS, "dim")] if cut else []
        for part in parts:
            if joined:
                joined.append(Content.styled(SEPARATOR, "dim"))
            joined.append(part)
        return Content.assemble(*joined)

    def fit(self, width: int) -> Content:
        """The trail as drawn in ``width`` cells: all of it when it fits, else ``…`` and the most crumbs from the
        end that fit after it (at least the last one)."""
        if self.cell_length <= width:
            return self
        for start in range(1, len(self._parts)):
            cut = self._joined(self._parts[start:], cut=True)
            if cut.cell_length <= width:
                return cut
        return self._parts[-1]  # (wider than the room even alone: all the room goes to it)

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        fitted = self.fit(width)
        if fitted is self:
            return super().render_strips(width, height, style, options)
        return fitted.render_strips(width, height, style, options)
