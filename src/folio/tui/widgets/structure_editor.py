"""The structure editor of a published site: one tree of section groups, sections and site spaces (or a site's
root site spaces), reordered as if by drag and drop, by keyboard or mouse. Other screens embed it:

    yield StructureEditor(services, org_id, site_id)

``space`` picks the node under the cursor up, ``up``/``down`` move it through the places it may land (the tree
shows it there), ``<``/``>`` take it out of / into a group, ``space`` or ``enter`` drops it, ``esc`` puts it
back. ``alt+up``/``alt+down`` (or ``K``/``J``, which every terminal sends) move it one step at once. The mouse
drags a node and drops it where it is released. Every change shows at once and is sent in order in the
background; a refusal puts the tree back and says why. ``b`` collects moves instead, ``P`` shows their plan
(each request, each published URL that moves) and applies it; ``z`` undoes the last change; ``n``/``e``/``D``
create, edit and remove (the condition field offers the site's template conditions). ``Changed`` tells the
host each change that reached the service (the site screen reads the published view again). The tree draws
only the rows on screen (the line API), so a move redraws at once in a site of 2,500 nodes.
"""

from __future__ import annotations

import asyncio
import gc
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from rich.segment import Segment
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from folio.services.structure import (
    EDITABLE,
    GROUP,
    LINK,
    NOUNS,
    SECTION,
    SPACE,
    EditFailed,
    Layout,
    Move,
    Spot,
    StructureTree,
    build_plan,
    describe_move,
    field_problems,
    into_group,
    out_of_group,
    spot_index,
    spots,
    step,
)
from folio.tui import styles_dir
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.structure_forms import EditNodeModal, NewNodeModal
from folio.tui.modals.structure_plan import StructurePlanModal
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.widgets.resource_list import Column, render_cells

if TYPE_CHECKING:
    from folio.services import Services
    from folio.services.sites import ConditionChoices

__all__ = ["COLUMNS", "StructureEditor"]

COLUMNS = (
    Column("title", "Title"),
    Column("path", "Path", 16),
    Column("icon", "Icon", 10),
    Column("marks", "Marks", 5),
    Column("condition", "Condition"),
)
GLYPHS = {GROUP: "▣", SECTION: "§", SPACE: "·"}


@dataclass
class _Grab:
    item: str
    origin: tuple[str | None, int]
    spots: list[Spot]
    at: int
    mouse: bool = False
    press: tuple[int, int] = (0, 0)
    depth: int = 0


@dataclass
class _Change:
    """One change sent (or to take back): moves, or an edit's way back, or what was created."""

    label: str
    moves: list[Move] = field(default_factory=list)
    item: str | None = None
    back: dict[str, Any] | None = None
    default_before: str | None = None
    created: str | None = None


@dataclass
class _Job:
    """A change on its way: ``change`` goes on the undo history once sent; ``undoing`` (the history entry an
    undo took) goes back on it if the undo is refused."""

    label: str
    send: Callable[[], Awaitable[object]]
    rollback: Callable[[], None] | None = None
    change: _Change | None = None
    undoing: _Change | None = None


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

    COMPONENT_CLASSES: ClassVar[set[str]] = {"structure--cursor", "structure--grabbed", "structure--muted"}

    def __init__(self, editor: StructureEditor) -> None:
        super().__init__(id="structure-tree")
        self.editor = editor

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


class StructureEditor(Vertical):
    """Edit a site's structure; see the module's docstring for the keys. ``reload()`` reads it again."""

    DEFAULT_CSS = (styles_dir() / "structure.tcss").read_text(encoding="utf-8")
    SCOPED_CSS = False  # the file names its own selectors (the tree inside is styled there too)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "up", "Up", show=False, id="structure.up", tooltip="Previous row, or move what you hold up"),
        Binding("down,j", "down", "Down", show=False, id="structure.down", tooltip="Next row, or move it down"),
        Binding("home,g", "first", "First", show=False, id="structure.first", tooltip="First row"),
        Binding("end,G", "last", "Last", show=False, id="structure.last", tooltip="Last row"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="structure.page-up", tooltip="Up one screen"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="structure.page-down", tooltip="Down one screen"),
        Binding("space", "grab", "Pick up/drop", id="structure.grab", tooltip="Pick up the node to move it; drop it"),
        Binding("enter", "drop", "Drop", id="structure.drop", tooltip="Drop what you hold where it is shown"),
        Binding("escape", "cancel", "Cancel", id="structure.cancel", tooltip="Put what you hold back"),
        Binding("alt+up,K", "step(-1)", "Move up", show=False, id="structure.step-up", tooltip="Move one step up"),
        Binding("alt+down,J", "step(1)", "Move down", show=False, id="structure.step-down", tooltip="One step down"),
        Binding("less_than_sign", "out", "Out", show=False, id="structure.out", tooltip="Out of its group"),
        Binding("greater_than_sign", "into", "Into", show=False, id="structure.into", tooltip="Into the next group"),
        Binding("n", "new", "New", id="structure.new", tooltip="New section (from a space), group or site space"),
        Binding("e", "edit", "Edit", id="structure.edit", tooltip="Edit the node's fields"),
        Binding("D", "remove", "Remove", id="structure.remove", tooltip="Remove the node (asks first)"),
        Binding("b", "batch", "Batch", id="structure.batch", tooltip="Collect moves and send them as one plan"),
        Binding("P", "plan", "Plan", id="structure.plan", tooltip="Show the plan of the collected moves"),
        Binding("z", "undo", "Undo", id="structure.undo", tooltip="Undo the last applied change"),
    ]

    @dataclass
    class Changed(Message):
        """A change reached the service (``what`` in words)."""

        editor: StructureEditor
        what: str

        @property
        def control(self) -> StructureEditor:
            return self.editor

    def __init__(self, services: Services, org_id: str, site_id: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.services = services
        self.service = services.structure
        self.org_id, self.site_id = org_id, site_id
        self.structure: StructureTree | None = None
        self.confirmed = Layout()
        """The structure as the service holds it, as far as its answers tell."""
        self.rows: list[tuple[str, int]] = []
        self.defaults: set[str] = set()
        self.cursor = 0
        self.grab: _Grab | None = None
        self.collected: list[Move] | None = None
        self.history: list[_Change] = []
        self.outbox: deque[_Job] = deque()
        self.sending = False
        self.message: tuple[str, str] | None = None
        self._press: tuple[int, int] | None = None
        self._cells: dict[str, tuple[str, ...]] = {}
        self._strips: dict[tuple[object, ...], Strip] = {}
        self._counts: dict[str, int] = {}
        self._view: _TreeView | None = None

    def compose(self) -> ComposeResult:
        yield _Line("structure--summary")
        yield _Line("structure--header")
        yield _TreeView(self)
        yield _Line("structure--status")

    @property
    def view(self) -> _TreeView:
        if self._view is None:
            self._view = self.query_one(_TreeView)
        return self._view

    def on_mount(self) -> None:
        if self.screen.focused is None:
            self.view.focus()
        self.reload()

    def focus_tree(self) -> None:
        self.view.focus()

    # -- loading ---------------------------------------------------------------------------------------------

    @work(exclusive=True, group="structure-load", exit_on_error=False)
    @cache_first
    async def reload(self) -> None:
        """Read the structure (and the site) again; what is shown stays while it loads or if it fails."""
        if self.grab:
            self._put_back()
        while self.outbox:  # what is being sent lands first: the read then includes it
            await asyncio.sleep(0.05)
        self.say("Loading the structure…")
        try:
            tree = await self.service.load(self.org_id, self.site_id)
        except Exception as exc:
            self.say(error_message(exc, doing="Could not load the structure", hint="Press r to try again."), "error")
            return
        keep = self.current
        self.structure, self.confirmed, self._counts = tree, tree.layout.copy(), tree.counts()
        self._modes_changed()
        self._forget()
        dropped = len(self.collected or [])
        if dropped:
            self.collected = []
        self.say(f"Read again: the {dropped} collected moves were dropped." if dropped else None)
        self.refresh_rows(keep)
        if len(tree.nodes) >= 1000:
            # A large read leaves thousands of objects behind: collect them now, and keep the tree out of later
            # collections, so no collector pause lands in the middle of a move (PERFORMANCE.md).
            gc.collect()
            gc.freeze()

    # -- drawing ---------------------------------------------------------------------------------------------

    def refresh_rows(self, keep: str | None = None) -> None:
        """Lay the rows out again (after any change) and put the cursor on ``keep``."""
        tree = self.structure
        if tree is None:
            return
        self.rows = tree.layout.rows()
        self.defaults = tree.defaults()
        if len(self.rows) != sum(self._counts.values()):
            self._counts = tree.counts()
        if keep is not None:
            self.cursor = next((n for n, (key, _) in enumerate(self.rows) if key == keep), self.cursor)
        self.cursor = max(0, min(self.cursor, len(self.rows) - 1))
        self.resize_view()
        self._scroll_to_cursor()
        self.view.refresh()
        self._draw_texts()

    def resize_view(self) -> None:
        view = self.view
        size = Size(view.size.width, len(self.rows))
        if view.virtual_size != size:
            view.virtual_size = size
        width = max(1, view.size.width - 1)
        header = self.query_one(".structure--header", _Line)
        if header.raw != str(width):
            header.raw = str(width)
            header.show(Content(render_cells(COLUMNS, [c.label for c in COLUMNS], width).plain))

    def _scroll_to_cursor(self) -> None:
        view = self.view
        height = view.scrollable_content_region.height or 1
        top = round(view.scroll_y)
        if self.cursor < top:
            view.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + height:
            view.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def _modes_changed(self) -> None:
        """What the keys do changed (holding a node, a batch, loaded): the footer shows it."""
        if self.is_mounted:
            self.screen.refresh_bindings()

    def _forget(self, key: str | None = None) -> None:
        """Drop what was drawn of ``key`` (None: of everything) after its fields changed."""
        if key is None:
            self._cells.clear()
        else:
            self._cells.pop(key, None)
        self._strips.clear()

    def cells(self, key: str) -> tuple[str, ...]:
        if key not in self._cells:
            node = self.structure.nodes[key] if self.structure else None
            if node is None:
                return ("",) * 5
            path = ("/" + node.path if node.kind == SECTION else node.path) if node.path else ""
            condition = f"if {node.condition}" if node.condition else ""
            glyph = GLYPHS.get(node.kind, "↗")
            self._cells[key] = tuple(
                safe(text, limit=300).plain for text in (f"{glyph} {node.title}", path, node.icon or "", "", condition)
            )
        return self._cells[key]

    def render_row(self, line: int, width: int) -> Strip:
        """One row as a strip; strips are kept by everything that shapes them, so a move redraws only new rows."""
        view = self.view
        if line >= len(self.rows) or self.structure is None:
            return Strip.blank(width, view.rich_style)
        key, depth = self.rows[line]
        node = self.structure.nodes[key]
        grabbed = self.grab is not None and self._in_grab(key)
        look = "grabbed" if grabbed else "cursor" if line == self.cursor else "muted" if node.hidden else ""
        if look == "cursor" and view.has_focus:
            look = "focused"
        shape = (key, depth, width, look, key in self.defaults, grabbed and key == self.grab.item)  # type: ignore[union-attr]
        strip = self._strips.get(shape)
        if strip is not None:
            return strip
        cells = list(self.cells(key))
        cells[3] = ("★" if shape[4] else " ") + (" ⊘" if node.hidden else "")
        if shape[5]:
            cells[0] = "➜ " + cells[0]
        text = render_cells(COLUMNS, cells, width, depth)
        base = view.rich_style
        if look:
            base = base + view.get_component_rich_style(f"structure--{'cursor' if look == 'focused' else look}")
        if node.kind == GROUP:
            text.stylize("bold")
        segments = [Segment(s.text, base + s.style if s.style else base) for s in text.render(self.app.console)]
        strip = Strip(segments).adjust_cell_length(width, base)
        if len(self._strips) > 5000:
            self._strips.clear()
        self._strips[shape] = strip
        return strip

    def _in_grab(self, key: str) -> bool:
        grab, tree = self.grab, self.structure
        if grab is None or tree is None:
            return False
        parents = tree.layout.parent
        node: str | None = key
        while node is not None:
            if node == grab.item:
                return True
            node = parents.get(node)
        return False

    def say(self, message: Content | str | None, tone: str = "") -> None:
        """Show a message in the status line until the next one (``tone``: error, grab or nothing)."""
        self.message = (message.plain if isinstance(message, Content) else message, tone) if message else None
        self._draw_texts()

    def _draw_texts(self) -> None:
        if not self.is_mounted:
            return
        tree = self.structure
        parts: list[str] = []
        if tree is not None:
            n = self._counts
            parts = [tree.title, f"{n[GROUP]} groups, {n[SECTION]} sections, {n[SPACE]} site spaces"]
            parts.append("★ default  ⊘ hidden")
        if self.collected is not None:
            parts.insert(0, f"BATCH: {len(self.collected)} moves collected, P shows the plan")
        if self.outbox:
            parts.append(f"sending {len(self.outbox)}…")
        summary, status = self._lines
        summary.say(" · ".join(parts), "batch" if self.collected is not None else "")
        text, tone = self.message or (self._hint(), "")
        if self.grab and not self.message:
            text, tone = self._grab_hint(), "grab"
        status.say(text, tone)

    @property
    def _lines(self) -> tuple[_Line, _Line]:
        return self.query_one(".structure--summary", _Line), self.query_one(".structure--status", _Line)

    def _hint(self) -> str:
        key = self.current
        if self.structure is None:
            return ""
        if key is None:
            return "This site has no sections or site spaces yet: press n to add one."
        url = self.structure.url(key, self.defaults)
        where = f"Published at {url}" if url else "No URL of its own" if self.structure.base_url else "Not published"
        return f"{where} · space picks up, K/J or alt+↑/↓ move one step, < > out of / into a group"

    def _grab_hint(self) -> str:
        grab, tree = self.grab, self.structure
        if grab is None or tree is None:
            return ""
        spot = grab.spots[grab.at]
        siblings = [k for k in tree.layout.kids(spot.parent) if k != grab.item]
        near = f"before {tree.name(siblings[spot.index])}" if spot.index < len(siblings) else "at the end"
        return (
            f"Moving {tree.name(grab.item)}: in {tree.name(spot.parent)}, {near}. "
            "↑/↓ choose · < > out/in · space or enter drops · esc puts it back"
        )

    # -- what is selected ------------------------------------------------------------------------------------

    @property
    def current(self) -> str | None:
        return self.rows[self.cursor][0] if 0 <= self.cursor < len(self.rows) else None

    def current_item(self) -> Item | None:
        """The node under the cursor, for the host screen's o / y / Y."""
        key = self.current
        if key is None or self.structure is None:
            return None
        return Item(key, self.structure.url(key, self.defaults), self.structure.nodes[key].noun)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("drop", "cancel"):
            return self.grab is not None
        if self.structure is None:
            return action in ("up", "down") or None
        if action in ("new", "edit", "remove"):
            return None if self.grab or self.collected is not None else True
        if action == "plan":
            return bool(self.collected) or None
        if action in ("batch", "undo", "first", "last", "page"):
            return None if self.grab else True
        return True

    # -- cursor and grab -------------------------------------------------------------------------------------

    def _move_cursor(self, to: int) -> None:
        self.cursor = max(0, min(to, len(self.rows) - 1))
        self.message = None
        self._scroll_to_cursor()
        self.view.refresh()
        self._draw_texts()

    def action_up(self) -> None:
        self._shift(-1) if self.grab else self._move_cursor(self.cursor - 1)

    def action_down(self) -> None:
        self._shift(1) if self.grab else self._move_cursor(self.cursor + 1)

    def action_first(self) -> None:
        self._move_cursor(0)

    def action_last(self) -> None:
        self._move_cursor(len(self.rows) - 1)

    def action_page(self, direction: int) -> None:
        self._move_cursor(self.cursor + direction * max(1, self.view.scrollable_content_region.height - 1))

    def action_grab(self) -> None:
        if self.grab:
            self.action_drop()
        elif self.current is not None:
            self._pick_up(self.current)

    def _pick_up(self, key: str, *, mouse: bool = False, press: tuple[int, int] = (0, 0)) -> bool:
        tree = self.structure
        if tree is None or key not in tree.layout.parent:
            return False
        if tree.nodes[key].kind not in (GROUP, SECTION, SPACE, LINK):
            self.say(f"The service offers no way to move {tree.name(key)}.", "error")
            return False
        found = spots(tree, key)
        origin = tree.layout.position(key)
        at = spot_index(found, *origin)
        if at is None or len(found) < 2:
            self.say(f"There is nowhere else to put {tree.name(key)}.", "error")
            return False
        depth = next((d for k, d in self.rows if k == key), 0)
        self.grab = _Grab(key, origin, found, at, mouse, press, depth)
        self._modes_changed()
        self.message = None
        self.refresh_rows(key)
        return True

    def _shift(self, delta: int) -> None:
        grab = self.grab
        if grab is not None and 0 <= grab.at + delta < len(grab.spots):
            self._land(grab.at + delta)

    def _land(self, at: int) -> None:
        grab, tree = self.grab, self.structure
        if grab is None or tree is None or at == grab.at:
            return
        grab.at = at
        spot = grab.spots[at]
        tree.layout.place(grab.item, spot.parent, spot.index)
        self.refresh_rows(grab.item)

    def action_drop(self) -> None:
        grab, tree = self.grab, self.structure
        if grab is None or tree is None:
            return
        self.grab = None
        self._modes_changed()
        here = tree.layout.position(grab.item)
        if here == grab.origin:
            self.say(f"{tree.name(grab.item)} is back where it was.")
            self.refresh_rows(grab.item)
            return
        move = Move(grab.item, *grab.origin, *here)
        tree.layout.place(grab.item, *grab.origin)
        self.commit([move])

    def action_cancel(self) -> None:
        if self.grab and self.structure:
            name = self.structure.name(self.grab.item)
            self._put_back()
            self.say(f"{name} is back where it was.")

    def _put_back(self) -> None:
        grab, tree = self.grab, self.structure
        self.grab = None
        self._modes_changed()
        if grab and tree:
            tree.layout.place(grab.item, *grab.origin)
            self.refresh_rows(grab.item)

    def action_step(self, delta: int) -> None:
        if self.grab:
            self._shift(delta)
        elif self.structure and self.current:
            self._one_move(step(self.structure, self.structure.layout, self.current, delta), "further that way")

    def action_out(self) -> None:
        self._nest(out_of_group, "out of: it is not in a group")

    def action_into(self) -> None:
        self._nest(into_group, "into: no group is next to it")

    def _nest(self, how: Callable[[StructureTree, Layout, str], Move | None], why: str) -> None:
        tree, grab = self.structure, self.grab
        if tree is None:
            return
        if grab is not None:
            move = how(tree, tree.layout, grab.item)
            at = spot_index(grab.spots, move.to_parent, move.to_index) if move else None
            if at is None:
                self.say(f"Nothing to move {tree.name(grab.item)} {why}.", "error")
            else:
                self._land(at)
        elif self.current:
            self._one_move(how(tree, tree.layout, self.current), why)

    def _one_move(self, move: Move | None, why: str) -> None:
        tree = self.structure
        if tree is None or self.current is None:
            return
        if move is None:
            kind = tree.nodes[self.current].kind
            sent = "A site space stays in its section." if kind == SPACE and why[0] in "oi" else ""
            self.say(sent or f"Nothing to move {tree.name(self.current)} {why}.", "error")
            return
        self.commit([move])

    # -- mouse -----------------------------------------------------------------------------------------------

    def mouse_down(self, line: int, x: int) -> bool:
        if self.grab is not None or not 0 <= line < len(self.rows):
            return False
        self._move_cursor(line)
        self._press = (line, x)
        return True

    def mouse_drag(self, line: int, x: int) -> None:
        if self._press is None:
            return
        if self.grab is None:
            if line == self._press[0] or self.current is None:
                return
            if not self._pick_up(self.current, mouse=True, press=self._press):
                self._press = None
                return
        grab, tree = self.grab, self.structure
        if grab is None or tree is None or not grab.mouse:
            return
        start = next(n for n, (k, _) in enumerate(self.rows) if k == grab.item)
        size = 1
        while start + size < len(self.rows) and self._in_grab(self.rows[start + size][0]):
            size += 1
        if start <= line < start + size:
            return
        bare = line if line < start else line - size
        gap = bare if bare < grab.spots[grab.at].line else bare + 1
        depth = grab.depth + (x - grab.press[1]) // 2
        best = min(
            range(len(grab.spots)),
            key=lambda n: (abs(grab.spots[n].line - gap), abs(grab.spots[n].depth - depth)),
        )
        self._land(best)

    def mouse_up(self) -> None:
        self._press = None
        if self.grab is not None and self.grab.mouse:
            self.action_drop()

    # -- sending ---------------------------------------------------------------------------------------------

    def commit(self, moves: list[Move], *, undoing: _Change | None = None, label: str | None = None) -> None:
        """Show ``moves`` now and send them (in batch mode: collect them for the plan); ``undoing``: they take
        back that change of the history."""
        tree = self.structure
        if tree is None or not moves:
            return
        text = label or describe_move(tree, tree.layout, moves[0])
        for move in moves:
            tree.layout.apply(move)
        self.refresh_rows(moves[-1].id)
        if self.collected is not None:
            self.collected.extend(moves)
            self.say(f"Collected: {text}. P shows the plan.")
            return

        async def send() -> object:
            return await self.service.apply(tree, self.confirmed, moves)

        change = _Change(text, list(moves)) if undoing is None else None
        self.queue(_Job(text, send, change=change, undoing=undoing))

    def queue(self, job: _Job) -> None:
        self.outbox.append(job)
        self.say(f"{job.label}…")
        self.call_after_refresh(self._drain)  # the change is drawn before its request takes the loop

    @work(group="structure-send", exit_on_error=False)
    async def _drain(self) -> None:
        if self.sending:
            return
        self.sending = True
        try:
            while self.outbox:
                job = self.outbox[0]
                try:
                    await job.send()
                except Exception as exc:
                    self._refused(exc)
                    return
                self.outbox.popleft()
                if job.change is not None:
                    self.history.append(job.change)
                self.say(f"Done: {job.label}.")
                self.notify(f"Done: {job.label}.", markup=False)
                self.post_message(self.Changed(self, job.label))
        finally:
            self.sending = False
            self._draw_texts()

    def _refused(self, exc: Exception) -> None:
        """Put the tree back as the service holds it (this change and every later one) and say why."""
        failed = self.outbox[0]
        later = len(self.outbox) - 1
        for job in reversed(self.outbox):
            if job.rollback:
                job.rollback()
        self.history.extend(job.undoing for job in self.outbox if job.undoing is not None)
        self.outbox.clear()
        if self.grab:
            self._put_back()
        if self.structure is not None:
            self.structure.layout = self.confirmed.copy()
            self._forget()
        hint = "The tree is back as the service holds it" + (f" ({later} later changes not sent)." if later else ".")
        message = error_message(exc, doing=f"Refused: {failed.label}", hint=hint)
        self.refresh_rows(self.current)
        self.say(message, "error")
        self.notify(message.plain, title="Refused", severity="error", markup=False)

    # -- undo and batch ---------------------------------------------------------------------------------------

    def action_undo(self) -> None:
        tree = self.structure
        if tree is None:
            return
        if self.collected is not None:
            if not self.collected:
                self.say("No collected move to take back.")
                return
            move = self.collected.pop()
            tree.layout.apply(move.inverse())
            self.refresh_rows(move.id)
            self.say(f"Took back a collected move of {tree.name(move.id)}.")
            return
        if self.outbox:
            self.say("Changes are still being sent: undo when they are done.", "error")
            return
        if not self.history:
            self.say("Nothing to undo (removals cannot be undone).")
            return
        change = self.history.pop()
        label = f"Undo: {change.label}"
        if change.moves:
            known = tree.layout.parent
            if any(
                m.id not in known or (m.from_parent is not None and m.from_parent not in known) for m in change.moves
            ):
                self.say(f"Cannot undo “{change.label}”: part of it is no longer in the structure.", "error")
                return
            inverse = [m.inverse() for m in reversed(change.moves)]
            self.commit(inverse, undoing=change, label=label)
        elif change.created and change.created in tree.nodes:
            self._remove_now(change.created, label, undoing=change)
        elif change.item in tree.nodes and change.back is not None and change.item:
            self._undo_edit(change.item, change, label)
        else:
            self.say(f"Cannot undo “{change.label}”: it is no longer in the structure.", "error")

    def _undo_edit(self, key: str, change: _Change, label: str) -> None:
        tree, back = self.structure, change.back or {}
        if tree is None:
            return
        fields = {k: v for k, v in back.items() if not k.startswith("_")}
        redo = tree.apply_edit(key, back)
        self._forget(key)
        self.refresh_rows(key)
        before = change.default_before

        async def send() -> object:
            if fields:
                await self.service.edit(tree, key, fields)
            if "_named" in back and before in tree.nodes and before != key:
                await self.service.edit(tree, before, {"default": True})
            return None

        def rollback() -> None:
            tree.apply_edit(key, redo)
            self._forget(key)

        self.queue(_Job(label, send, rollback, undoing=change))

    def action_batch(self) -> None:
        if self.collected is None:
            if self.outbox:
                self.say("Changes are still being sent: start a batch when they are done.", "error")
                return
            self.collected = []
            self._modes_changed()
            self.say("Batch: moves are collected, not sent. P shows the plan; b leaves the batch.")
        elif not self.collected:
            self.collected = None
            self._modes_changed()
            self.say("Batch ended: moves are sent as you make them again.")
        else:
            self._leave_batch()

    @work(group="structure-ask", exit_on_error=False)
    async def _leave_batch(self) -> None:
        batch, tree = self.collected or [], self.structure
        question = ConfirmModal(
            Content(f"Discard the {len(batch)} collected moves?"),
            Content("Nothing was sent; the tree goes back as it was."),
            accept_label="Discard",
        )
        if tree is None or not await self.app.push_screen_wait(question):
            return
        for move in reversed(batch):
            tree.layout.apply(move.inverse())
        self.collected = None
        self._modes_changed()
        self.refresh_rows(self.current)
        self.say(f"Discarded {len(batch)} collected moves.")

    def action_plan(self) -> None:
        if self.collected:
            self._plan()

    @work(group="structure-ask", exit_on_error=False)
    async def _plan(self) -> None:
        tree, moves = self.structure, list(self.collected or [])
        if tree is None or not moves:
            return
        plan = build_plan(tree, self.confirmed, moves, self.service.offered)
        result = await self.app.push_screen_wait(StructurePlanModal(self.service, tree, self.confirmed, plan))
        if not result.started:
            self.say("The plan was not sent: the moves are still collected.")
            return
        tree.layout = self.confirmed.copy()
        self.collected = None
        self._modes_changed()
        if result.applied:
            self.history.append(_Change(f"{result.applied} planned moves", moves[: result.applied]))
        if result.applied == result.total:
            text, tone = f"Applied the plan: {result.total} moves.", ""
        elif result.undone:
            text, tone = "The plan failed and its applied steps were undone: nothing changed.", "error"
        else:
            text, tone = f"The plan stopped: {result.applied} of {result.total} moves applied.", "error"
        self.refresh_rows(self.current)
        self.say(text, tone)
        self.notify(text, severity="error" if tone else "information", markup=False)
        if result.applied:
            self.post_message(self.Changed(self, text))

    # -- new, edit, remove -----------------------------------------------------------------------------------

    def _where_new(self) -> tuple[str | None, str | None]:
        """(group, section) around the cursor: where a new item goes."""
        tree, key = self.structure, self.current
        if tree is None or key is None:
            return None, None
        parents, section = tree.layout.parent, None
        if tree.nodes[key].kind == SPACE:
            key = parents.get(key) or key
        if tree.nodes[key].kind == SECTION:
            section, key = key, parents.get(key)  # type: ignore[assignment]
        return (key if key and tree.nodes[key].kind == GROUP else None), section

    def action_new(self) -> None:
        self._new()

    @work(group="structure-ask", exit_on_error=False)
    async def _new(self) -> None:
        tree = self.structure
        if tree is None:
            return
        try:
            spaces = await self.service.spaces(self.org_id)
        except Exception as exc:
            self.say(error_message(exc, doing="Could not list the organization's spaces"), "error")
            return
        kinds = {k: [(i, n.title) for i in tree.layout.walk() if (n := tree.nodes[i]).kind == k] for k in NOUNS}
        group, section = self._where_new()

        async def submit(kind: str, values: dict[str, Any]) -> str:
            svc, where = self.service, values["where"]
            if kind == SECTION:
                made = await svc.create_section(
                    tree, values["space"], title=values["title"], icon=values["icon"], group=where
                )
            elif kind == GROUP:
                made = await svc.create_group(
                    tree, values["title"], icon=values["icon"], sections=values["sections"], parent=where
                )
            else:
                made = await svc.create_site_space(tree, values["space"], section=values["section"])
            self.history.append(_Change(f"Create a {NOUNS[kind]}", created=made))
            return made

        modal = NewNodeModal(
            spaces=spaces,
            groups=kinds[GROUP],
            sections=kinds[SECTION],
            group=group,
            section=section,
            with_sections=tree.sections,
            check=field_problems,
            submit=submit,
        )
        made = await self.app.push_screen_wait(modal)
        if made is None:
            self.say("Nothing created.")
            return
        self.notify("Created: it is in the structure now.", markup=False)
        self.post_message(self.Changed(self, "created"))
        await self.reload().wait()
        self.refresh_rows(made)
        self.say("Created. z removes it again.")

    def action_edit(self) -> None:
        tree, key = self.structure, self.current
        if tree is None or key is None:
            return
        if tree.nodes[key].kind not in EDITABLE:
            self.say(f"The service offers no update of {tree.name(key)}.", "error")
            return
        self._edit(key)

    @work(group="structure-ask", exit_on_error=False)
    async def _edit(self, key: str) -> None:
        tree = self.structure
        if tree is None:
            return
        node = tree.nodes[key]
        fields = EDITABLE[node.kind]
        values = {f: getattr(node, f) for f in fields if f != "default"}
        values["default"] = key in self.defaults

        async def submit(changes: dict[str, Any]) -> None:
            before = tree.default_among(key) if changes.get("default") else None
            back = tree.apply_edit(key, changes)
            self._forget(key)
            self.refresh_rows(key)
            try:
                await self.service.edit(tree, key, changes)
            except Exception as exc:
                kept = exc.applied if isinstance(exc, EditFailed) else ()
                tree.apply_edit(key, {k: v for k, v in back.items() if k not in kept})
                if kept:
                    self.history.append(_Change(f"Edit {tree.name(key)}", item=key, back={k: back[k] for k in kept}))
                self._forget(key)
                self.refresh_rows(key)
                self.say(error_message(exc, doing=f"Not saved: {tree.name(key)}", hint="The tree is back."), "error")
                raise
            self.history.append(_Change(f"Edit {tree.name(key)}", item=key, back=back, default_before=before))

        def conditions() -> Awaitable[ConditionChoices]:
            return self.services.sites.condition_choices(self.org_id, self.site_id)

        modal = EditNodeModal(
            f"Edit {tree.name(key)}",
            node.kind,
            fields,
            values,
            check=field_problems,
            submit=submit,
            conditions=conditions if "condition" in fields else None,
        )
        changes = await self.app.push_screen_wait(modal)
        if not changes:
            self.say("Nothing changed." if changes is not None else "Edit closed: nothing sent.")
            return
        text = f"Saved {tree.name(key)}: {', '.join(changes)}."
        self.say(text)
        self.notify(text, markup=False)
        self.post_message(self.Changed(self, text))

    def action_remove(self) -> None:
        key, tree = self.current, self.structure
        if key is None or tree is None:
            return
        if tree.nodes[key].kind not in (GROUP, SECTION, SPACE):
            self.say(f"The service offers no removal of {tree.name(key)}.", "error")
            return
        self._remove(key)

    @work(group="structure-ask", exit_on_error=False)
    async def _remove(self, key: str) -> None:
        tree = self.structure
        if tree is None:
            return
        node = tree.nodes[key]
        extra = {
            SECTION: f" Its {len(tree.layout.kids(key))} site spaces go with it.",
            GROUP: " Its sections stay, in its place.",
        }.get(node.kind, "")
        question = ConfirmModal(
            Content(f"Remove {tree.name(key)}?"), Content(f"This cannot be undone.{extra}"), accept_label="Remove"
        )
        if not await self.app.push_screen_wait(question):
            self.say("Nothing removed.")
            return
        self._remove_now(key, f"Remove {tree.name(key)}")

    def _remove_now(self, key: str, label: str, *, undoing: _Change | None = None) -> None:
        tree = self.structure
        if tree is None:
            return
        kind = tree.nodes[key].kind
        gone = {k: tree.nodes[k] for k in [key, *self._subtree(key)]}
        named = (tree.default_section, dict(tree.default_spaces))
        tree.remove(key)
        self.refresh_rows()

        def rollback() -> None:
            tree.nodes.update(gone)
            tree.default_section, tree.default_spaces = named

        async def send() -> object:
            await self.service.delete(tree, key, kind)
            self.confirmed.remove(key, keep_children=kind == GROUP)
            return None

        self.queue(_Job(label, send, rollback, undoing=undoing))

    def _subtree(self, key: str) -> list[str]:
        tree = self.structure
        if tree is None:
            return []
        out: list[str] = []
        for kid in tree.layout.kids(key):
            out += [kid, *self._subtree(kid)]
        return out
