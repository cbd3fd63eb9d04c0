"""The edit session of the structure editor: what the editor knows and does, without drawing anything.

It holds the tree as shown and as the service holds it (``confirmed``), the node in hand and where it may land
(the grab, by keys or by mouse), the batch of collected moves, the undo history and the :class:`SendQueue` of
changes on their way. Every change shows in the tree at once; the view draws what an action returns and calls
:meth:`EditSession.send` to send what was queued. No Textual here: tests drive a session with a stand-in service.

    session = EditSession(service)
    session.load(tree)
    session.pick_up(section_id)
    session.shift(+1)
    outcome = session.drop()          # queued: the move is shown and waits in the send queue
    refusal = await session.send(on_sent)   # None, or the refusal after the tree went back
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from folio.services.errors import ServiceError
from folio.services.sites.structure import (
    GROUP,
    NOUNS,
    SECTION,
    SPACE,
    EditFailed,
    Layout,
    Move,
    Plan,
    StructureTree,
    build_plan,
    describe_move,
    into_group,
    out_of_group,
    spot_index,
    step,
)
from folio.tui.widgets.structure_editor.effects import defaults_near, hidden_default
from folio.tui.widgets.structure_editor.grab import Declined, Grab
from folio.tui.widgets.structure_editor.send_queue import Change, Job, SendQueue

if TYPE_CHECKING:
    from folio.services.sites.structure import StructureService

__all__ = ["Declined", "EditSession", "Grab", "Outcome", "Refusal"]

_NEST: dict[str, tuple[Callable[[StructureTree, Layout, str], Move | None], str]] = {
    "out": (out_of_group, "out of: it is not in a group"),
    "into": (into_group, "into: no group is next to it"),
}


@dataclass(frozen=True)
class Outcome:
    """What an action did, for the view: the words for the status line, the row to show (``item``; ``redraw``
    False: the tree did not change) and whether a job now waits in the send queue."""

    text: str
    item: str | None = None
    queued: bool = False
    redraw: bool = True
    confirm: bool = False
    """The move changes a default (and so maybe published URLs): its plan is shown before anything is sent."""


@dataclass(frozen=True)
class Refusal:
    """The service refused ``label``; ``later`` changes queued after it were not sent. The tree is back."""

    label: str
    error: Exception
    later: int


class EditSession:
    """One site's structure being edited; see the module's docstring."""

    def __init__(self, service: StructureService) -> None:
        self.service = service
        self.tree: StructureTree | None = None
        self.confirmed = Layout()
        """The structure as the service holds it, as far as its answers tell."""
        self.grab: Grab | None = None
        self.pressed: tuple[int, int] | None = None
        """Where the mouse went down (row, column), until it goes up."""
        self.collected: list[Move] | None = None
        """The batch: moves collected for a plan (None: moves are sent as they are made)."""
        self.confirming: str | None = None
        """A move that changes a default, waiting (alone in the batch) for its plan to be accepted: its label."""
        self.history: list[Change] = []
        self.queue = SendQueue()
        self.revision = 0
        """Counts changes to nodes' fields (edits, their rollback, a load): what was drawn before is stale."""

    def load(self, tree: StructureTree) -> int:
        """Start from a structure just read; returns how many collected moves that dropped."""
        self.tree, self.confirmed = tree, tree.layout.copy()
        self.revision += 1
        dropped = len(self.collected or [])
        if self.confirming is not None:
            self.collected, self.confirming = None, None
        elif dropped:
            self.collected = []
        return dropped

    def _loaded(self) -> StructureTree:
        if self.tree is None:
            raise Declined("The structure is not loaded yet.")
        return self.tree

    # -- the node in hand ------------------------------------------------------------------------------------

    def pick_up(self, key: str, *, mouse: bool = False) -> bool:
        """Take ``key`` in hand (False: no such node). Raises :class:`Declined` when it cannot move."""
        tree = self.tree
        if tree is None or key not in tree.layout.parent:
            return False
        press = (self.pressed or (0, 0)) if mouse else (0, 0)
        self.grab = Grab.take(tree, key, mouse=mouse, press=press)
        return True

    def holds(self, key: str) -> bool:
        """Whether ``key`` is the node in hand or inside it."""
        return self.grab is not None and self.tree is not None and self.grab.holds(self.tree, key)

    def land(self, at: int) -> bool:
        """Show the node in hand at spot ``at``; False when nothing changed."""
        return self.grab is not None and self.tree is not None and self.grab.land(self.tree, at)

    def shift(self, delta: int) -> bool:
        """One spot up (-1) or down (+1), into and out of groups on the way."""
        return self.grab is not None and self.land(self.grab.at + delta)

    def nest_held(self, way: str) -> bool:
        """The node in hand ``out`` of its group or ``into`` the one next to it."""
        grab, tree = self.grab, self._loaded()
        if grab is None:
            return False
        how, why = _NEST[way]
        move = how(tree, tree.layout, grab.item)
        at = spot_index(grab.spots, move.to_parent, move.to_index) if move else None
        if at is None:
            raise Declined(f"Nothing to move {tree.name(grab.item)} {why}.")
        return self.land(at)

    def drop(self) -> Outcome | None:
        """Leave the node in hand where it is shown: the move is committed."""
        grab, tree = self.grab, self.tree
        if grab is None or tree is None:
            return None
        self.grab = None
        here = tree.layout.position(grab.item)
        if here == grab.origin:
            return Outcome(f"{tree.name(grab.item)} is back where it was.", grab.item)
        move = Move(grab.item, *grab.origin, *here)
        grab.put_back(tree)
        return self.commit([move])

    def put_back(self) -> str | None:
        """Put the node in hand back where it came from; returns it."""
        grab, tree = self.grab, self.tree
        self.grab = None
        if grab is None or tree is None:
            return None
        grab.put_back(tree)
        return grab.item

    def cancel(self) -> Outcome | None:
        grab, tree = self.grab, self.tree
        if grab is None or tree is None:
            return None
        self.put_back()
        return Outcome(f"{tree.name(grab.item)} is back where it was.", grab.item)

    # -- the mouse -------------------------------------------------------------------------------------------

    def drag_spot(self, line: int, x: int, rows: Sequence[tuple[str, int]]) -> int | None:
        """The spot nearest to the mouse at row ``line``, column ``x`` of the tree drawn as ``rows`` (the node in
        hand is shown in them); None while over the node in hand itself."""
        grab = self.grab
        if grab is None or self.tree is None or not grab.mouse:
            return None
        return grab.nearest(self.tree, line, x, rows)

    def release(self) -> Outcome | None:
        """The mouse went up: a node dragged is dropped."""
        self.pressed = None
        if self.grab is not None and self.grab.mouse:
            return self.drop()
        return None

    # -- moves without a grab ----------------------------------------------------------------------------------

    def step(self, key: str, delta: int) -> Outcome:
        """``key`` one spot up or down, committed at once."""
        tree = self._loaded()
        return self._one_move(key, step(tree, tree.layout, key, delta), "further that way")

    def nest(self, key: str, way: str) -> Outcome:
        """``key`` ``out`` of its group or ``into`` the one next to it, committed at once."""
        tree = self._loaded()
        how, why = _NEST[way]
        return self._one_move(key, how(tree, tree.layout, key), why)

    def _one_move(self, key: str, move: Move | None, why: str) -> Outcome:
        tree = self._loaded()
        if move is None:
            stays = tree.nodes[key].kind == SPACE and why[0] in "oi"
            raise Declined(
                "A site space stays in its section." if stays else f"Nothing to move {tree.name(key)} {why}."
            )
        return self.commit([move])

    def commit(self, moves: Sequence[Move], *, undoing: Change | None = None, label: str | None = None) -> Outcome:
        """Show ``moves`` now and queue them (in a batch: collect them for the plan); ``undoing``: they take back
        that entry of the history."""
        tree = self._loaded()
        moves = list(moves)
        text = label or describe_move(tree, tree.layout, moves[0])
        before = defaults_near(tree, moves)
        for move in moves:
            tree.layout.apply(move)
        after = defaults_near(tree, moves)
        if after != before and undoing is None:  # an undo goes back to what was: no question
            why = hidden_default(tree, after - before, tree.layout)
            if why is None and self.collected is None and self.queue:
                why = "Changes are still being sent: make this move when they are done (it changes a default)."
            if why is not None:
                for move in reversed(moves):
                    tree.layout.apply(move.inverse())
                raise Declined(why)
            if self.collected is None:  # alone in a batch of its own, until its plan is accepted
                self.collected, self.confirming = list(moves), text
                return Outcome(f"{text}: it changes a default, so its plan shows first.", moves[-1].id, confirm=True)
        if self.collected is not None:
            self.collected.extend(moves)
            return Outcome(f"Collected: {text}. P shows the plan.", moves[-1].id)

        async def send() -> object:
            return await self.service.apply(tree, self.confirmed, moves)

        change = Change(text, moves) if undoing is None else None
        return self._queue(Job(text, send, change=change, undoing=undoing), moves[-1].id)

    def _queue(self, job: Job, item: str | None) -> Outcome:
        self.queue.add(job)
        return Outcome(f"{job.label}…", item, queued=True)

    # -- sending ---------------------------------------------------------------------------------------------

    async def send(self, sent: Callable[[str], None]) -> Refusal | None:
        """Send what is queued, in order (``sent`` hears the label of each change that reached the service). At a
        refusal the tree goes back as the service holds it, this change and every later one taken back."""

        def done(job: Job) -> None:
            if job.change is not None:
                self.history.append(job.change)
            sent(job.label)

        failure = await self.queue.run(done)
        if failure is None:
            return None
        job, exc = failure
        jobs = self.queue.abandon()
        self.history.extend(j.undoing for j in jobs if j.undoing is not None)
        self.put_back()
        if self.tree is not None:
            self.tree.layout = self.confirmed.copy()
        self.revision += 1
        return Refusal(job.label, exc, len(jobs) - 1)

    # -- undo and batch ---------------------------------------------------------------------------------------

    def undo(self) -> Outcome:
        """Take back the last collected move (in a batch), else the last change that reached the service."""
        tree = self._loaded()
        if self.collected is not None:
            if not self.collected:
                return Outcome("No collected move to take back.", redraw=False)
            move = self.collected.pop()
            tree.layout.apply(move.inverse())
            return Outcome(f"Took back a collected move of {tree.name(move.id)}.", move.id)
        if self.queue:
            raise Declined("Changes are still being sent: undo when they are done.")
        if not self.history:
            return Outcome("Nothing to undo (removals cannot be undone).", redraw=False)
        change = self.history.pop()
        label = f"Undo: {change.label}"
        if change.moves:
            known = tree.layout.parent
            if any(
                m.id not in known or (m.from_parent is not None and m.from_parent not in known) for m in change.moves
            ):
                raise Declined(f"Cannot undo “{change.label}”: part of it is no longer in the structure.")
            return self.commit([m.inverse() for m in reversed(change.moves)], undoing=change, label=label)
        if change.created and change.created in tree.nodes:
            return self.remove(change.created, label, undoing=change)
        if change.item and change.item in tree.nodes and change.back is not None:
            return self._undo_edit(tree, change.item, change, label)
        raise Declined(f"Cannot undo “{change.label}”: it is no longer in the structure.")

    def _undo_edit(self, tree: StructureTree, key: str, change: Change, label: str) -> Outcome:
        back = change.back or {}
        fields = {k: v for k, v in back.items() if not k.startswith("_")}
        redo = tree.apply_edit(key, back)
        self.revision += 1
        before = change.default_before

        async def send() -> object:
            if fields:
                await self.service.edit(tree, key, fields)
            if "_named" in back and before in tree.nodes and before != key:
                await self.service.edit(tree, before, {"default": True})
            return None

        def rollback() -> None:
            tree.apply_edit(key, redo)
            self.revision += 1

        return self._queue(Job(label, send, rollback, undoing=change), key)

    def toggle_batch(self) -> Outcome:
        """Start collecting moves, or stop when none is collected (collected moves are discarded first)."""
        if self.collected is None:
            if self.queue:
                raise Declined("Changes are still being sent: start a batch when they are done.")
            self.collected = []
            return Outcome("Batch: moves are collected, not sent. P shows the plan; b leaves the batch.", redraw=False)
        if self.collected:
            raise Declined("The batch holds collected moves: send their plan or discard them first.")
        self.collected = None
        return Outcome("Batch ended: moves are sent as you make them again.", redraw=False)

    def discard_batch(self) -> int:
        """Take back every collected move and leave the batch; returns how many there were."""
        batch, tree = self.collected or [], self._loaded()
        for move in reversed(batch):
            tree.layout.apply(move.inverse())
        self.collected, self.confirming = None, None
        return len(batch)

    def plan(self) -> Plan | None:
        """The plan of the collected moves, from the structure as the service holds it."""
        if self.tree is None or not self.collected:
            return None
        return build_plan(self.tree, self.confirmed, list(self.collected), self.service.offered)

    def planned(self, applied: int) -> None:
        """The plan ran, its first ``applied`` moves reached the service: the batch ends, the tree is what the
        service holds (``confirmed`` followed every request), those moves are one entry of the history."""
        tree, moves = self._loaded(), list(self.collected or [])
        tree.layout = self.confirmed.copy()
        label = self.confirming or f"{applied} planned moves"
        self.collected, self.confirming = None, None
        if applied:
            self.history.append(Change(label, moves[:applied]))

    # -- edits, new items, removals -----------------------------------------------------------------------------

    async def save_edit(self, key: str, changes: dict[str, Any], shown: Callable[[], None] | None = None) -> None:
        """Show ``changes`` to ``key`` (then ``shown()``), send them; a failure puts back what was not saved and
        raises."""
        tree = self._loaded()
        before = tree.default_among(key) if changes.get("default") else None
        back = tree.apply_edit(key, changes)
        self.revision += 1
        if shown is not None:
            shown()
        try:
            await self.service.edit(tree, key, changes)
        except ServiceError as exc:
            kept = exc.applied if isinstance(exc, EditFailed) else ()
            tree.apply_edit(key, {k: v for k, v in back.items() if k not in kept})
            self.revision += 1
            if kept:
                self.history.append(Change(f"Edit {tree.name(key)}", item=key, back={k: back[k] for k in kept}))
            raise
        self.history.append(Change(f"Edit {tree.name(key)}", item=key, back=back, default_before=before))

    async def create(self, kind: str, values: dict[str, Any]) -> str:
        """Create a section (from a space), a group or a site space on the service; returns its id. (The tree shows
        it after the next read.)"""
        tree, svc, where = self._loaded(), self.service, values["where"]
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
        self.history.append(Change(f"Create a {NOUNS[kind]}", created=made))
        return made

    def remove(self, key: str, label: str, *, undoing: Change | None = None) -> Outcome:
        """Take ``key`` out of the tree now and queue its removal (a group's children stay in its place)."""
        tree = self._loaded()
        kind = tree.nodes[key].kind
        gone = {k: tree.nodes[k] for k in [key, *self.subtree(key)]}
        named = (tree.default_section, dict(tree.default_spaces))
        tree.remove(key)

        def rollback() -> None:
            tree.nodes.update(gone)
            tree.default_section, tree.default_spaces = named

        async def send() -> object:
            await self.service.delete(tree, key, kind)
            self.confirmed.remove(key, keep_children=kind == GROUP)
            return None

        return self._queue(Job(label, send, rollback, undoing=undoing), None)

    def subtree(self, key: str) -> list[str]:
        """Everything under ``key``, depth first."""
        out: list[str] = []
        for kid in self.tree.layout.kids(key) if self.tree else ():
            out += [kid, *self.subtree(kid)]
        return out
