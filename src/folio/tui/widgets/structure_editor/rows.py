"""The parts the structure editor is drawn with: the tree view, drawn one row at a time (the line API, so a move
redraws at once in a site of 2,500 nodes), the lines of text above and below it, and a row's cells.

The class names ``_Line`` and ``_TreeView`` are what ``styles/structure.tcss`` selects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from textual import events
from textual.content import Content
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from folio.services.format import count
from folio.services.sites.structure import GROUP, SECTION, SPACE, Node, StructureTree
from folio.tui.safe import safe
from folio.tui.widgets.resource_list import Column, render_cells

if TYPE_CHECKING:
    from folio.tui.widgets.structure_editor.session import EditSession
    from folio.tui.widgets.structure_editor.view import StructureEditor

__all__ = ["COLUMNS", "RowPainter", "cells_of", "fit", "hint", "summary"]

COLUMNS = (
    Column("title", "Title"),
    Column("path", "Path", 16),
    Column("icon", "Icon", 10),
    Column("marks", "Marks", 5),
    Column("condition", "Condition"),
)
GLYPHS = {GROUP: "▣", SECTION: "§", SPACE: "·"}


def cells_of(node: Node) -> tuple[str, ...]:
    """A node's cells, made safe (the marks cell is left empty: it depends on where the node is)."""
    path = ("/" + node.path if node.kind == SECTION else node.path) if node.path else ""
    condition = f"if {node.condition}" if node.condition else ""
    glyph = GLYPHS.get(node.kind, "↗")
    texts = (f"{glyph} {node.title}", path, node.icon or "", "", condition)
    return tuple(safe(text, limit=300).plain for text in texts)


def summary(session: EditSession, counts: dict[str, int]) -> list[str]:
    """The parts of the line above the tree, most wanted first: the batch, what is being sent, the site, what it
    holds, the marks (:func:`fit` keeps the parts that fit its width)."""
    tree, parts = session.tree, []
    if session.collected is not None and session.confirming is None:
        parts += [f"BATCH: {count(len(session.collected), 'move')} collected", "P shows the plan", "b leaves"]
    if session.queue:
        parts.append(f"sending {len(session.queue)}…")
    if tree is not None:
        n = counts
        parts.append(tree.title)
        parts.append(f"{count(n[GROUP], 'group')}, {count(n[SECTION], 'section')}, {count(n[SPACE], 'site space')}")
        parts.append("★ default  ⊘ hidden")
    return parts


def fit(parts: list[str], width: int) -> str:
    """``parts`` joined by `` · ``, as many as fit in ``width`` whole (the first one cut with … if it alone does
    not fit): a line never ends in the middle of a word."""
    line = ""
    for part in parts:
        part = safe(part, limit=300).plain
        joined = f"{line} · {part}" if line else part
        if len(joined) > width:
            break
        line = joined
    if not line and parts:
        line = safe(parts[0], limit=max(1, width)).plain
    return line


def hint(tree: StructureTree | None, key: str | None, defaults: set[str]) -> str:
    """The status line when there is nothing to say: where the row under the cursor is published, the keys."""
    if tree is None:
        return ""
    if key is None:
        return "This site has no sections or site spaces yet: press n to add one."
    url = tree.url(key, defaults)
    where = f"Published at {url}" if url else "No URL of its own" if tree.base_url else "Not published"
    node = tree.nodes[key]
    if node.hidden and key in defaults:  # said, since a move cannot make one (the edit form can)
        where = f"Hidden and the default: visitors land on it though the navigation does not list it · {where}"
    return f"{where} · space picks up, K/J or alt+↑/↓ move one step, < > out of / into a group"


class RowPainter:
    """Rows as strips, kept by everything that shapes them (a move redraws only the rows it changed), and each
    node's cells, kept until ``forget`` (a node's fields changed)."""

    def __init__(self) -> None:
        self.cells: dict[str, tuple[str, ...]] = {}
        self.strips: dict[tuple[object, ...], Strip] = {}

    def forget(self) -> None:
        self.cells.clear()
        self.strips.clear()

    def paint(
        self, view: _TreeView, node: Node, depth: int, width: int, look: str, *, default: bool, held: bool
    ) -> Strip:
        """``node``'s row at ``depth``; ``look``: cursor, focused (the cursor in the focused tree), grabbed, muted
        or nothing; ``held``: the node in hand itself."""
        shape = (node.id, depth, width, look, default, held)
        strip = self.strips.get(shape)
        if strip is not None:
            return strip
        if node.id not in self.cells:
            self.cells[node.id] = cells_of(node)
        cells = list(self.cells[node.id])
        cells[3] = ("★" if default else " ") + (" ⊘" if node.hidden else "")
        if held:
            cells[0] = "➜ " + cells[0]
        text = render_cells(COLUMNS, cells, width, depth)
        base = view.rich_style
        if look:
            base = base + view.get_component_rich_style(f"structure--{'cursor' if look == 'focused' else look}")
        if node.kind == GROUP:
            text.stylize("bold")
        segments = [Segment(s.text, base + s.style if s.style else base) for s in text.render(view.app.console)]
        strip = Strip(segments).adjust_cell_length(width, base)
        if len(self.strips) > 5000:
            self.strips.clear()
        self.strips[shape] = strip
        return strip


class _Line(Widget):
    """A fixed line of text that redraws without a new layout (Static.update asks for one every time)."""

    def __init__(self, classes: str) -> None:
        super().__init__(classes=classes)
        self.content = Content("")
        self.raw = ""

    def say(self, text: str, tone: str = "") -> None:
        """Show ``text`` (made safe here; skipped when it is what is shown already)."""
        if text != self.raw:
            self.raw = text
            self.show(safe(text, limit=600), tone)
        else:
            self._tone(tone)

    def show(self, content: Content, tone: str = "") -> None:
        if content != self.content:
            self.content = content
            self.refresh()
        self._tone(tone)

    def _tone(self, tone: str) -> None:
        for name in ("error", "grab", "batch"):
            if self.has_class(f"-{name}") != (tone == name):
                self.set_class(tone == name, f"-{name}")

    def render(self) -> Content:
        return self.content


class _TreeView(ScrollView, can_focus=True, inherit_bindings=False):
    """The rows, drawn one line at a time; the editor owns the keys and the data."""

    ALLOW_SELECT = False
    """A press here starts a drag, never a text selection."""
    COMPONENT_CLASSES: ClassVar[set[str]] = {"structure--cursor", "structure--grabbed", "structure--muted"}

    def __init__(self, editor: StructureEditor) -> None:
        super().__init__(id="structure-tree")
        self.editor = editor

    def fit(self, rows: int) -> None:
        size = Size(self.size.width, rows)
        if self.virtual_size != size:
            self.virtual_size = size

    def show_line(self, line: int) -> None:
        """Scroll just enough to show ``line``."""
        height = self.scrollable_content_region.height or 1
        top = round(self.scroll_y)
        if line < top:
            self.scroll_to(y=line, animate=False, immediate=True)
        elif line >= top + height:
            self.scroll_to(y=line - height + 1, animate=False, immediate=True)

    def render_line(self, y: int) -> Strip:
        return self.editor.render_row(round(self.scroll_y) + y, self.size.width)

    def on_resize(self, event: events.Resize) -> None:
        self.editor.resize_view()

    def _line(self, event: events.MouseEvent) -> int:
        return max(0, round(self.scroll_y) + event.y)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self.focus()
        if self.editor.mouse_down(self._line(event), event.x):
            self.capture_mouse()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.editor.mouse_drag(self._line(event), event.x)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        self.release_mouse()
        self.editor.mouse_up()
