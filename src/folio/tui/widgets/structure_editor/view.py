"""The structure editor widget: draws the tree, the summary and the status line, and turns keys and the mouse into
calls on its :class:`EditSession`, which holds the state (see the package's docstring for the keys)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.strip import Strip

from folio.services.errors import ServiceError
from folio.services.format import count
from folio.services.sites.structure import EDITABLE, GROUP, SECTION, SPACE, Move, StructureTree
from folio.tui import styles_dir
from folio.tui.collector import BULK, bulk_loaded, bulk_released
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first
from folio.tui.screens.base import Item
from folio.tui.widgets.resource_list import render_cells
from folio.tui.widgets.structure_editor import dialogs, lookups
from folio.tui.widgets.structure_editor.keys import KEYS, applies
from folio.tui.widgets.structure_editor.rows import COLUMNS, RowPainter, _Line, _TreeView, fit, hint, summary
from folio.tui.widgets.structure_editor.session import Declined, EditSession, Grab, Outcome, Refusal

if TYPE_CHECKING:
    from folio.services import Services

__all__ = ["StructureEditor"]


class StructureEditor(Vertical):
    """Edit a site's structure; see the package's docstring for the keys. ``reload()`` reads it again."""

    DEFAULT_CSS = (styles_dir() / "structure.tcss").read_text(encoding="utf-8")
    SCOPED_CSS = False  # the file names its own selectors (the tree inside is styled there too)
    BINDINGS = KEYS

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
        self.session = EditSession(self.service)
        self.org_id, self.site_id = org_id, site_id
        self.rows: list[tuple[str, int]] = []
        self.defaults: set[str] = set()
        self.cursor = 0
        self.message: tuple[str, str] | None = None
        self.painter = RowPainter()
        self._revision = -1  # the session's revision the kept cells and strips show
        self._mode = (False, False, False)  # loaded, holding a node, in a batch: what the footer shows
        self._counts: dict[str, int] = {}
        self._view: _TreeView | None = None
        self._bulk = False
        """A large structure was read (the collector froze it): unfreeze when the editor goes away."""

    def compose(self) -> ComposeResult:
        yield _Line("structure--summary")
        yield _Line("structure--header")
        yield _TreeView(self)
        yield _Line("structure--status")

    @property
    def structure(self) -> StructureTree | None:
        return self.session.tree

    @property
    def grab(self) -> Grab | None:
        return self.session.grab

    @property
    def collected(self) -> list[Move] | None:
        return self.session.collected

    @property
    def view(self) -> _TreeView:
        if self._view is None:
            self._view = self.query_one(_TreeView)
        return self._view

    def on_mount(self) -> None:
        if self.screen.focused is None:
            self.view.focus()
        self.reload()

    def on_unmount(self) -> None:
        if self._bulk:
            bulk_released(self)

    def focus_tree(self) -> None:
        self.view.focus()

    def on_resize(self) -> None:
        self._draw_texts()  # the summary keeps the parts that fit the new width

    # -- loading ---------------------------------------------------------------------------------------------

    @work(exclusive=True, group="structure-load", exit_on_error=False)
    @cache_first
    async def reload(self) -> None:
        """Read the structure (and the site) again; what is shown stays while it loads or if it fails."""
        if self.grab:
            self.refresh_rows(self.session.put_back())
        while self.session.queue:  # what is being sent lands first: the read then includes it
            await asyncio.sleep(0.05)
        self.say("Loading the structure…")
        try:
            tree = await self.service.load(self.org_id, self.site_id)
        except ServiceError as exc:
            self.say(error_message(exc, doing="Could not load the structure", hint="Press r to try again."), "error")
            return
        keep = self.current
        dropped = self.session.load(tree)
        self._counts = tree.counts()
        self.say(f"Read again: the {count(dropped, 'collected move')} dropped." if dropped else None)
        self.refresh_rows(keep)
        if len(tree.nodes) >= BULK:
            # A large read: what it left is collected after the frame that shows it, and the tree kept out of
            # later collections, so no collector pause lands in the middle of a move (``folio.tui.collector``).
            self._bulk = True
            bulk_loaded(self, len(tree.nodes))

    # -- drawing ---------------------------------------------------------------------------------------------

    def refresh_rows(self, keep: str | None = None) -> None:
        """Lay the rows out again (after any change) and put the cursor on ``keep``."""
        tree = self.structure
        if tree is None:
            return
        if self.session.revision != self._revision:  # nodes' fields changed: what was drawn of them is stale
            self._revision = self.session.revision
            self.painter.forget()
        self.rows = tree.layout.rows()
        self.defaults = tree.defaults()
        if len(self.rows) != sum(self._counts.values()):
            self._counts = tree.counts()
        if keep is not None:
            self.cursor = next((n for n, (key, _) in enumerate(self.rows) if key == keep), self.cursor)
        self.cursor = max(0, min(self.cursor, len(self.rows) - 1))
        self.resize_view()
        self.view.show_line(self.cursor)
        self.view.refresh()
        self._draw_texts()

    def resize_view(self) -> None:
        self.view.fit(len(self.rows))
        width = max(1, self.view.size.width - 1)
        header = self.query_one(".structure--header", _Line)
        if header.raw != str(width):
            header.raw = str(width)
            header.show(Content(render_cells(COLUMNS, [c.label for c in COLUMNS], width).plain))

    def render_row(self, line: int, width: int) -> Strip:
        """One row as a strip (kept by the painter, so a move redraws only new rows)."""
        view = self.view
        if line >= len(self.rows) or self.structure is None:
            return Strip.blank(width, view.rich_style)
        key, depth = self.rows[line]
        node = self.structure.nodes[key]
        grab = self.grab
        look = "grabbed" if self.session.holds(key) else "cursor" if line == self.cursor else ""
        look = look or ("muted" if node.hidden else "")
        if look == "cursor" and view.has_focus:
            look = "focused"
        held = grab is not None and key == grab.item
        return self.painter.paint(view, node, depth, width, look, default=key in self.defaults, held=held)

    def say(self, message: Content | str | None, tone: str = "") -> None:
        """Show a message in the status line until the next one (``tone``: error, grab or nothing)."""
        self.message = (message.plain if isinstance(message, Content) else message, tone) if message else None
        self._draw_texts()

    def _draw_texts(self) -> None:
        if not self.is_mounted:
            return
        session, tree = self.session, self.structure
        mode = (tree is not None, session.grab is not None, session.collected is not None)
        if mode != self._mode:  # what the keys do changed: the footer shows it
            self._mode = mode
            self.screen.refresh_bindings()
        summary_line = self.query_one(".structure--summary", _Line)
        batch = session.collected is not None and session.confirming is None
        width = summary_line.size.width or self.size.width or 1000
        summary_line.say(fit(summary(session, self._counts), width), "batch" if batch else "")
        text, tone = self.message or (hint(tree, self.current, self.defaults), "")
        if self.grab and not self.message:
            text, tone = self._grab_hint(), "grab"
        self.query_one(".structure--status", _Line).say(text, tone)

    def _grab_hint(self) -> str:
        grab, tree = self.grab, self.structure
        if grab is None or tree is None:
            return ""
        return grab.describe(tree) + " ↑/↓ choose · < > out/in · space or enter drops · esc puts it back"

    def show(self, outcome: Outcome | None) -> None:
        """Draw what a session action did; a job it queued is sent once the change is drawn."""
        if outcome is None:
            return
        if outcome.redraw:
            self.refresh_rows(outcome.item)
        self.say(outcome.text)
        if outcome.queued:
            self.call_after_refresh(self._send)  # the change is drawn before its request takes the loop
        if outcome.confirm:
            self._ask(dialogs.show_plan)  # a default changes: the plan says so before anything is sent

    def attempt(self, action: Callable[[], Outcome | None]) -> None:
        """Run a session action and show what it did, or why it was declined."""
        try:
            outcome = action()
        except Declined as why:
            self.say(str(why), "error")
            return
        self.show(outcome)

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
        return applies(action, self.session)

    # -- cursor and grab -------------------------------------------------------------------------------------

    def _move_cursor(self, to: int) -> None:
        self.cursor = max(0, min(to, len(self.rows) - 1))
        self.message = None
        self.view.show_line(self.cursor)
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

    def _pick_up(self, key: str, *, mouse: bool = False) -> bool:
        try:
            picked = self.session.pick_up(key, mouse=mouse)
        except Declined as why:
            self.say(str(why), "error")
            return False
        if picked:
            self.message = None
            self.refresh_rows(key)
        return picked

    def _shift(self, delta: int) -> None:
        self._in_hand(lambda: self.session.shift(delta))

    def _in_hand(self, action: Callable[[], bool]) -> None:
        """Move the node in hand: redrawn where it lands, or why it cannot go there said."""
        try:
            landed = action()
        except Declined as why:
            self.say(str(why), "error")
            return
        if landed and self.grab:
            self.refresh_rows(self.grab.item)

    def action_drop(self) -> None:
        self.attempt(self.session.drop)

    def action_cancel(self) -> None:
        self.attempt(self.session.cancel)

    def action_step(self, delta: int) -> None:
        key = self.current
        if self.grab:
            self._shift(delta)
        elif self.structure and key:
            self.attempt(lambda: self.session.step(key, delta))

    def action_out(self) -> None:
        self._nest("out")

    def action_into(self) -> None:
        self._nest("into")

    def _nest(self, way: str) -> None:
        key = self.current
        if self.structure is None:
            return
        if self.grab is not None:
            self._in_hand(lambda: self.session.nest_held(way))
        elif key:
            self.attempt(lambda: self.session.nest(key, way))

    # -- mouse -----------------------------------------------------------------------------------------------

    def mouse_down(self, line: int, x: int) -> bool:
        if self.grab is not None or not 0 <= line < len(self.rows):
            return False
        self._move_cursor(line)
        self.session.pressed = (line, x)
        return True

    def mouse_drag(self, line: int, x: int) -> None:
        session = self.session
        if session.pressed is None:
            return
        if session.grab is None:
            if line == session.pressed[0] or self.current is None:
                return
            if not self._pick_up(self.current, mouse=True):
                session.pressed = None
                return
        at = session.drag_spot(line, x, self.rows)
        if at is not None:
            self._in_hand(lambda: session.land(at))

    def mouse_up(self) -> None:
        self.attempt(self.session.release)

    # -- sending ---------------------------------------------------------------------------------------------

    @work(group="structure-send", exit_on_error=False)
    async def _send(self) -> None:
        try:
            refusal = await self.session.send(self._sent)
        finally:
            self._draw_texts()
        if refusal is not None and lookups.answer_lost(refusal.error):
            await self._look_again(refusal)
        elif refusal is not None:
            self._refused(refusal)

    def _sent(self, label: str) -> None:
        self.say(f"Done: {label}.")
        self.notify(f"Done: {label}.", markup=False)
        self.post_message(self.Changed(self, label))

    async def _look_again(self, refusal: Refusal) -> None:
        """The answer to a change was lost: it may have been made all the same, so the tree is not simply put
        back: what the service holds is read again, and shown."""
        label = refusal.label
        self.say(f"{label}: the answer was lost, it may have been done all the same. Reading the structure…", "error")
        await self.reload().wait()
        later = f" ({count(refusal.later, 'later change')} not sent)" if refusal.later else ""
        text = f"{label}: the answer was lost, so the structure was read again: it shows what the service holds{later}."
        self.say(text)
        self.notify(text, severity="warning", markup=False)
        self.post_message(self.Changed(self, label))

    def _refused(self, refusal: Refusal) -> None:
        """The tree is back as the service holds it (this change and every later one): say why."""
        later = refusal.later
        back = "The tree is back as the service holds it" + (f" ({later} later changes not sent)." if later else ".")
        message = error_message(refusal.error, doing=f"Refused: {refusal.label}", hint=back)
        self.refresh_rows(self.current)
        self.say(message, "error")
        self.notify(message.plain, title="Refused", severity="error", markup=False)

    # -- undo, batch and the dialogs -------------------------------------------------------------------------

    def action_undo(self) -> None:
        if self.structure is not None:
            self.attempt(self.session.undo)

    def action_batch(self) -> None:
        if self.collected:
            self._ask(dialogs.leave_batch)
        else:
            self.attempt(self.session.toggle_batch)

    def action_plan(self) -> None:
        if self.collected:
            self._ask(dialogs.show_plan)

    def action_new(self) -> None:
        self._ask(dialogs.new_node)

    def action_edit(self) -> None:
        tree, key = self.structure, self.current
        if tree is None or key is None:
            return
        if tree.nodes[key].kind not in EDITABLE:
            self.say(f"The service offers no update of {tree.name(key)}.", "error")
            return
        self._ask(dialogs.edit_node, key)

    def action_remove(self) -> None:
        key, tree = self.current, self.structure
        if key is None or tree is None:
            return
        if tree.nodes[key].kind not in (GROUP, SECTION, SPACE):
            self.say(f"The service offers no removal of {tree.name(key)}.", "error")
            return
        self._ask(dialogs.remove_node, key)

    @work(group="structure-ask", exit_on_error=False)
    async def _ask(self, dialog: Callable[..., Awaitable[None]], *args: Any) -> None:
        await dialog(self, *args)
