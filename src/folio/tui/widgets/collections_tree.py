"""The organization's content as a tree: nested collections, their spaces under them, then the spaces that are in
no collection under one "Not in a collection" node; and spaces and collections moved in it by keys or the mouse.

It is a :class:`~folio.tui.widgets.resource_list.ResourceBrowser` whose rows are indented (not a Textual
``Tree``): only the rows on screen are drawn, so an organization with thousands of spaces opens at once, and the
``/`` filter and the list keys work as in every other list. Enter on a collection row folds or unfolds it
(:meth:`CollectionsTree.toggle`); the screen opens spaces.

Moving (the grab of :mod:`folio.tui.widgets.tree_grab`, as in the site structure editor): ``space`` picks the row
up, ``up``/``down`` move it through the places it may land (the tree shows it there: a space among the spaces of
any collection or of the root, a collection among collections), ``<``/``>`` take it out of / into a collection,
``enter`` or ``space`` drops it, ``esc`` puts it back. The mouse drags a row and drops it where it is released.
``<``/``>`` without a grab move the row at once. A drop posts :class:`CollectionsTree.Dropped` with the move to
send; the screen sends it and calls :meth:`CollectionsTree.settle` (a refusal puts the row back and says why).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message

from folio.services.content.collections import (
    LOOSE,
    ContentTree,
    Placement,
    content_spots,
    content_tree,
    into_collection,
    is_collection,
    out_of_collection,
    placement,
)
from folio.tui.actions import Explains
from folio.tui.safe import safe
from folio.tui.widgets.collections_rows import COLUMNS, GRAB_KEYS, Prepared, tree_rows, visibility_words
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList
from folio.tui.widgets.tree_grab import Declined, TreeGrab

if TYPE_CHECKING:
    from folio.services.browse import OrgTree

__all__ = ["LOOSE", "CollectionsTree", "Prepared", "TreeList", "tree_rows", "visibility_words"]


class TreeList(ResourceList, Explains):
    """The tree's rows: the list keys, and while a row is in hand they move it (the tree decides)."""

    ALLOW_SELECT = False
    """A press here starts a drag, never a text selection (one would run on into the status line under the
    pointer as the row is lifted)."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "grab", "Move", id="collections.grab",
                tooltip="Pick up the space or collection to move it (space again, or enter, drops it)"),
        # A key bound here replaces the list's binding of it: enter opens (or folds), or drops what is in hand.
        Binding("enter", "select", "Open", id="list.open", tooltip="Open the row under the cursor"),
        Binding("enter", "drop", "Drop", id="collections.drop", tooltip="Drop what you hold where it is shown"),
        Binding("escape", "put_back", "Put back", id="collections.put-back", tooltip="Put what you hold back"),
        Binding("less_than_sign", "nest('out')", "Out", show=False, id="collections.out",
                tooltip="Out of its collection"),
        Binding("greater_than_sign", "nest('into')", "Into", show=False, id="collections.into",
                tooltip="Into the collection next to it"),
    ]  # fmt: skip

    def __init__(self, columns: tuple[Column, ...], tree: CollectionsTree) -> None:
        super().__init__(columns)
        self.host = tree
        self._pressed: tuple[int, int] | None = None
        self._dragged = False

    def why_not(self, action: str) -> str | None:
        return self.host.why_not_move() if action in ("grab", "nest") else None

    def set_loading(self, loading: bool) -> None:
        # No loading indicator over the tree (its status line says "Loading…"): covering mounts a widget and
        # uncovering removes it, and the app waits for a removal before it reads the next key.
        return

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("put_back", "drop"):
            return self.host.grab is not None
        if action == "select":
            return self.host.grab is None
        return super().check_action(action, parameters)

    def action_cursor_down(self) -> None:
        self.host.shift(1) if self.host.grab else super().action_cursor_down()

    def action_cursor_up(self) -> None:
        self.host.shift(-1) if self.host.grab else super().action_cursor_up()

    def action_select(self) -> None:
        self.host.drop() if self.host.grab else super().action_select()

    def action_grab(self) -> None:
        self.host.drop() if self.host.grab else self.host.pick_up()

    def action_drop(self) -> None:
        self.host.drop()

    def action_put_back(self) -> None:
        self.host.put_back()

    def action_nest(self, way: str) -> None:
        self.host.nest(way)

    # -- the mouse ----------------------------------------------------------------------------------------------

    def _line(self, event: events.MouseEvent) -> int:
        return max(0, round(self.scroll_y) + event.y)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        if self.host.grab is None and event.button == 1:
            self._pressed = (self._line(event), event.x)
            self._dragged = False
            self.capture_mouse()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        pressed = self._pressed
        if pressed is None:
            return
        line = self._line(event)
        if self.host.grab is None:
            if line == pressed[0]:
                return
            self.cursor = pressed[0]
            if not self.host.pick_up(mouse=True, press=pressed):
                self._pressed = None
                return
            self._dragged = True
        self.host.drag_to(line, event.x)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        self.release_mouse()
        self._pressed = None
        if self.host.grab is not None and self.host.grab.mouse:
            self.host.drop()

    def on_click(self, event: events.Click) -> None:
        if self._dragged:  # the click that ends a drag does not move the cursor
            self._dragged = False
            return
        super().on_click(event)


class CollectionsTree(ResourceBrowser):
    """Collections and their spaces, indented; :meth:`show` draws a tree, :meth:`toggle` folds a collection, the
    grab moves a row (see the module's docstring)."""

    @dataclass
    class Dropped(Message):
        """A space or collection was dropped somewhere new: ``move`` is what the service is to be sent."""

        tree: CollectionsTree
        move: Placement
        label: str

        @property
        def control(self) -> CollectionsTree:
            return self.tree

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(COLUMNS, empty="This organization has no collections or spaces yet.", id=id, classes=classes)
        self._list = TreeList(COLUMNS, self)
        self.org_tree: OrgTree | None = None
        self.content: ContentTree | None = None
        self.collapsed: set[str] = set()
        self.grab: TreeGrab | None = None
        self.sending: tuple[str, tuple[str | None, int] | None] | None = None
        """The row whose move is on its way, and where it came from (None: nothing is being sent; no origin: the
        tree was read again since, and shows what the service holds)."""
        self._age: Callable[[datetime | None], str] = lambda when: ""

    # -- drawing ------------------------------------------------------------------------------------------------

    def show(self, tree: OrgTree, age: Callable[[datetime | None], str]) -> None:
        """Draw ``tree`` (the cursor stays on the row it was on); ``age`` says how long ago a time was. A row in
        hand is put back first."""
        if self.grab is not None:
            self.grab = None
            self.say("The tree was read again: what you held is back where it was.")
        if self.sending is not None:
            self.sending = (self.sending[0], None)
        self.org_tree = tree
        self.content = content_tree(tree)
        self._age = age
        self.redraw()

    def prepare(self, tree: OrgTree, age: Callable[[datetime | None], str]) -> Prepared:
        """What :meth:`show` works out for ``tree``, without touching the widget: it may run in a thread (a tree
        of 10,000 spaces takes a few hundred ms to lay out), then :meth:`show_prepared` shows it at once."""
        content = content_tree(tree)
        collapsed = set(self.collapsed)
        return Prepared(tree, content, age, frozenset(collapsed), tree_rows(content, collapsed, age))

    def show_prepared(self, prepared: Prepared) -> None:
        """Show what :meth:`prepare` worked out (as :meth:`show` would; laid out again if the folds changed or a
        row was taken in hand meanwhile)."""
        if self.grab is not None or prepared.collapsed != self.collapsed:
            self.show(prepared.tree, prepared.age)
            return
        if self.sending is not None:
            self.sending = (self.sending[0], None)
        self.org_tree, self.content, self._age = prepared.tree, prepared.content, prepared.age
        self.set_rows(prepared.rows)

    def redraw(self, keep: str | None = None) -> None:
        if self.content is None:
            return
        held = self.grab.item if self.grab is not None else None
        self.set_rows(tree_rows(self.content, self.collapsed, self._age, held), keep=keep or held, staged=held is None)
        if keep or held:
            self.list.move_to(keep or held or "")

    def set_loading(self, loading: bool = True) -> None:
        super().set_loading(loading)
        # The status line says "Loading…"; the list keeps the focus meanwhile (a list showing Textual's loading
        # indicator cannot be focused, and the keys typed while a large organization loads would be lost).
        self.list.loading = False
        self._tone("")

    def set_error(self, message: Content | None) -> None:
        super().set_error(message)
        self._tone("error" if message is not None else "")

    def _tone(self, tone: str) -> None:
        for line in self.query(".resource-browser--status"):
            line.set_class(tone == "error", "-error")
            line.set_class(tone == "grab", "-grab")

    def say(self, message: str | Content | None, tone: str = "") -> None:
        """Say something in the status line until the rows are next counted (``tone``: ``grab`` or ``error``)."""
        self._status = safe(message, limit=600) if isinstance(message, str) else message
        self._tone(tone)
        self._draw_status()

    def toggle(self, key: str) -> bool:
        """Fold or unfold the collection (or the "Not in a collection" node) of row ``key``; False when the row
        is a space."""
        if self.content is None or not (is_collection(key) or key == LOOSE):
            return False
        self.collapsed.symmetric_difference_update({key})
        self.redraw(keep=key)
        return True

    # -- the grab -----------------------------------------------------------------------------------------------

    def why_not_move(self) -> str | None:
        """Why the row under the cursor cannot be picked up now (None: it can)."""
        row = self.list.highlighted
        if self.grab is not None:
            return None
        if self.content is None or row is None:
            return "Nothing to move yet."
        if row.key == LOOSE:
            return "“Not in a collection” is where spaces of no collection are: move a space there instead."
        if self.sending is not None:
            return "A move is being sent: wait for its answer."
        if self.list.filter_text:
            return "Clear the filter (esc) first: a move needs every row in view."
        return None

    def _called(self, key: str) -> str:
        return self.content.name(key) if self.content is not None else key

    def pick_up(self, *, mouse: bool = False, press: tuple[int, int] = (0, 0)) -> bool:
        """Take the row under the cursor in hand; False (and why, in the status line) when it cannot move."""
        why = self.why_not_move()
        row = self.list.highlighted
        if why or row is None or self.content is None:
            self.say(why or "Nothing to move.", "error")
            return False
        try:
            found = content_spots(self.content, row.key, self.collapsed)
            name = self._called(row.key)
            self.grab = TreeGrab.over(self.content, row.key, found, name=name, mouse=mouse, press=press)
        except Declined as exc:
            self.say(str(exc), "error")
            return False
        self.redraw()
        self._describe()
        self.screen.refresh_bindings()
        return True

    def _describe(self) -> None:
        grab, tree = self.grab, self.content
        if grab is None or tree is None:
            return
        spot = grab.spot
        siblings = [k for k in tree.layout.kids(spot.parent) if k != grab.item]
        near = f"before {tree.name(siblings[spot.index])}" if spot.index < len(siblings) else "at the end"
        if spot.parent == LOOSE and spot.index >= len(siblings):
            near = "at the end"
        where = "the root (no collection)" if spot.parent in (None, LOOSE) else tree.name(spot.parent)
        folded = " (folded)" if spot.parent in self.collapsed else ""
        self.say(f"Moving {tree.name(grab.item)}: in {where}{folded}, {near}. {GRAB_KEYS}", "grab")

    def shift(self, delta: int) -> None:
        """The row in hand one spot up (-1) or down (+1)."""
        grab = self.grab
        if grab is not None and self.content is not None and grab.land(self.content, grab.at + delta):
            self.redraw()
            self._describe()

    def drag_to(self, line: int, x: int) -> None:
        grab = self.grab
        if grab is None or self.content is None:
            return
        rows = [(row.key, row.indent) for row in self.list.rows]
        at = grab.nearest(self.content, line, x, rows)
        if at is not None and grab.land(self.content, at):
            self.redraw()
            self._describe()

    def nest(self, way: str) -> None:
        """``out`` of its collection or ``into`` the one next to it: the row in hand, or the row under the cursor
        (moved at once)."""
        at_once = self.grab is None
        if at_once and not self.pick_up():
            return
        grab, tree = self.grab, self.content
        if grab is None or tree is None:
            return
        target = (out_of_collection if way == "out" else into_collection)(tree, grab.item)
        landed = grab.land_in(tree, *target) if target is not None else None
        if landed is None:
            why = "out of: it is in no collection" if way == "out" else "into: no collection is next to it"
            if target is not None:
                why = "there: that collection is folded (enter unfolds it)"
            if at_once:
                self.redraw(keep=self._cancel())
            self.say(f"Nothing to move {tree.name(grab.item)} {why}.", "error")
            return
        if at_once:
            self.drop()
        else:
            self.redraw()
            self._describe()

    def drop(self) -> None:
        """Leave the row in hand where it is shown: the tree posts the move (nothing when it did not move)."""
        grab, tree = self.grab, self.content
        if grab is None or tree is None:
            return
        self.grab = None
        self.screen.refresh_bindings()
        if not grab.moved:
            self.redraw(keep=grab.item)
            self.say(f"{tree.name(grab.item)} is back where it was.")
            return
        move = placement(tree, grab.item)
        spot = grab.spot
        where = "the root" if spot.parent in (None, LOOSE) else tree.name(spot.parent)
        label = f"Move {tree.name(grab.item)} to {where}"
        self.sending = (grab.item, grab.origin)
        self.redraw(keep=grab.item)
        self.say(f"{label}: sending…")
        self.post_message(self.Dropped(self, move, label))

    def _cancel(self) -> str | None:
        grab, tree = self.grab, self.content
        self.grab = None
        if grab is None or tree is None:
            return None
        grab.put_back(tree)
        self.screen.refresh_bindings()
        return grab.item

    def put_back(self) -> None:
        item = self._cancel()
        if item is not None:
            self.redraw(keep=item)
            self.say(f"{self._called(item)} is back where it was.")

    def settle(self, error: Content | None) -> None:
        """The move sent was answered: done (None), or refused with ``error`` (the row goes back)."""
        sending, self.sending = self.sending, None
        if sending is None or self.content is None:
            return
        item, origin = sending
        if error is None:
            return
        if origin is not None and item in self.content.layout.parent:
            self.content.layout.place(item, *origin)
            self.redraw(keep=item)
        self.say(error, "error")
