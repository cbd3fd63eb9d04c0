"""The structure editor's edit session, driven without Textual: the node in hand (keys and mouse), moves into and
out of groups, the send queue (order, refusal and rollback), undo, and the batch with its plan.

The service is a stand-in that records what it is asked and can refuse a move; the tree is written by hand:

    g  (group)     a (section: a1, a2), b (section: b1)
    c  (section)   c1, c2
    h  (group)     d (section)
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any

import pytest

from folio.services.errors import Refusal
from folio.services.sites.structure import GROUP, SECTION, SPACE, Layout, Move, Node, Offered, StructureTree, step
from folio.tui.widgets.structure_editor.effects import default_changes, defaults_near
from folio.tui.widgets.structure_editor.lookups import find_created, find_edit
from folio.tui.widgets.structure_editor.session import Declined, EditSession

START = "g .a ..a1 ..a2 .b ..b1 c .c1 .c2 h .d"


class Refused(Refusal):
    """What the stand-in service raises for a refused request (a service error: what the session catches)."""


class FakeService:
    """Applies moves to the layout it is given (as StructureService.apply does), in order; refuses the moves of
    the items in ``refuse``; waits for ``gate`` (when set) before each move."""

    def __init__(self) -> None:
        self.offered = Offered()
        self.calls: list[tuple[Any, ...]] = []
        self.refuse: set[str] = set()
        self.gate: asyncio.Event | None = None
        self.loaded: StructureTree | None = None
        """What a read of the structure answers (after a lost answer)."""

    async def apply(self, tree: StructureTree, layout: Layout, moves: list[Move], progress: Any = None) -> int:
        for move in moves:
            self.calls.append(("move", move.id, move.to_parent, move.to_index))
            if self.gate is not None:
                await self.gate.wait()
            if move.id in self.refuse:
                raise Refused(f"409: {move.id} cannot go there")
            layout.apply(move)
        return len(moves)

    async def edit(self, tree: StructureTree, item: str, changes: dict[str, Any]) -> None:
        self.calls.append(("edit", item, dict(changes)))
        if item in self.refuse:
            raise Refused(f"422: {item} not saved")

    async def load(self, org_id: str, site_id: str) -> StructureTree:
        self.calls.append(("load", org_id, site_id))
        assert self.loaded is not None
        return self.loaded

    async def delete(self, tree: StructureTree, item: str, kind: str | None = None) -> None:
        self.calls.append(("delete", item, kind))
        if item in self.refuse:
            raise Refused(f"403: {item} not removed")


def sample(*, named: bool = True) -> StructureTree:
    """The tree above; ``named``: its defaults (a; a1, b1, c1) are named, so a move does not change them (the
    tests of order stay about order; a default that follows the order has its own tests)."""
    tree = StructureTree("org", "site", "Docs", "https://docs.example.com/", sections=True)
    for parent, key, kind in [
        (None, "g", GROUP),
        ("g", "a", SECTION),
        ("a", "a1", SPACE),
        ("a", "a2", SPACE),
        ("g", "b", SECTION),
        ("b", "b1", SPACE),
        (None, "c", SECTION),
        ("c", "c1", SPACE),
        ("c", "c2", SPACE),
        (None, "h", GROUP),
        ("h", "d", SECTION),
    ]:
        tree.nodes[key] = Node(key, kind, key.upper(), key)
        tree.layout.add(parent, key)
    if named:
        tree.default_section, tree.default_spaces = "a", {"a": "a1", "b": "b1", "c": "c1"}
    return tree


def outline(layout: Layout) -> str:
    """The rows as ids, a dot per level: ``g .a ..a1``."""
    return " ".join("." * depth + key for key, depth in layout.rows())


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@pytest.fixture
def session(service: FakeService) -> EditSession:
    session = EditSession(service)  # type: ignore[arg-type]
    session.load(sample())
    return session


def shown(session: EditSession) -> str:
    assert session.tree is not None
    return outline(session.tree.layout)


async def send_all(session: EditSession) -> tuple[list[str], Any]:
    sent: list[str] = []
    refusal = await session.send(sent.append)
    return sent, refusal


# -- the node in hand -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "shifts", "after", "label"),
    [
        ("c", [-1], "g .a ..a1 ..a2 .b ..b1 .c ..c1 ..c2 h .d", "Move section “C” to group “G”, at the end"),
        (
            "c",
            [-1, -1],
            "g .a ..a1 ..a2 .c ..c1 ..c2 .b ..b1 h .d",
            "Move section “C” to group “G”, before section “B”",
        ),
        ("c", [1], "g .a ..a1 ..a2 .b ..b1 h .c ..c1 ..c2 .d", "Move section “C” to group “H”, before section “D”"),
        ("c", [1, 1, 1], "g .a ..a1 ..a2 .b ..b1 h .d c .c1 .c2", "Move section “C” to the end of the root"),
        ("c", [-1] * 4, "c .c1 .c2 g .a ..a1 ..a2 .b ..b1 h .d", "Move section “C” before group “G”"),
        ("a", [-1], "a .a1 .a2 g .b ..b1 c .c1 .c2 h .d", "Move section “A” to the root, before group “G”"),
        ("c2", [-1], "g .a ..a1 ..a2 .b ..b1 c .c2 .c1 h .d", "Move site space “C2” before site space “C1”"),
        ("h", [-1, -1], "g .a ..a1 ..a2 .b ..b1 .h ..d c .c1 .c2", "Move group “H” to group “G”, at the end"),
    ],
)
def test_a_node_picked_up_moves_spot_by_spot_and_its_drop_is_queued(
    session: EditSession, item: str, shifts: list[int], after: str, label: str
) -> None:
    assert session.pick_up(item)
    for delta in shifts:
        assert session.shift(delta)
    assert shown(session) == after  # shown where it would land while held
    outcome = session.drop()
    assert outcome is not None and outcome.queued and outcome.text == f"{label}…" and outcome.item == item
    assert session.grab is None
    assert shown(session) == after
    assert [job.label for job in session.queue] == [label]
    assert session.history == []  # not on the history until the service has it


def test_a_node_cannot_go_past_its_last_spot_and_a_site_space_stays_in_its_section(session: EditSession) -> None:
    assert session.pick_up("c2")
    assert not session.shift(1)  # already last among its section's site spaces
    assert session.shift(-1)
    assert not session.shift(-1)
    assert shown(session) == "g .a ..a1 ..a2 .b ..b1 c .c2 .c1 h .d"


def test_a_drop_where_it_was_and_a_cancel_send_nothing(session: EditSession) -> None:
    session.pick_up("c")
    session.shift(1)
    session.shift(-1)
    outcome = session.drop()
    assert outcome is not None and not outcome.queued and outcome.text == "section “C” is back where it was."
    session.pick_up("c")
    session.shift(1)
    assert shown(session) != START
    outcome = session.cancel()
    assert outcome is not None and outcome.text == "section “C” is back where it was."
    assert shown(session) == START and session.grab is None and not session.queue


def test_nothing_to_pick_up_when_there_is_nowhere_else_to_go(session: EditSession) -> None:
    assert not session.pick_up("nowhere")
    with pytest.raises(Declined, match="nowhere else to put site space “B1”"):
        session.pick_up("b1")  # the only site space of its section
    assert session.grab is None


@pytest.mark.parametrize(
    ("item", "way", "after"),
    [
        ("c", "into", "g .a ..a1 ..a2 .b ..b1 .c ..c1 ..c2 h .d"),  # the group above, at its end
        ("g", "into", None),  # nothing above it, and h is not next to it
        ("a", "out", "g .b ..b1 a .a1 .a2 c .c1 .c2 h .d"),  # just after its group
        ("d", "out", "g .a ..a1 ..a2 .b ..b1 c .c1 .c2 h d"),
        ("g", "out", None),
        ("c2", "out", None),
    ],
)
def test_into_and_out_of_a_group(session: EditSession, item: str, way: str, after: str | None) -> None:
    if after is None:
        with pytest.raises(Declined):
            session.nest(item, way)
        assert shown(session) == START and not session.queue
        return
    outcome = session.nest(item, way)
    assert outcome.queued
    assert shown(session) == after


@pytest.mark.parametrize(
    ("action", "why"),
    [
        (lambda s: s.nest("c2", "into"), "A site space stays in its section."),
        (lambda s: s.nest("c2", "out"), "A site space stays in its section."),
        (lambda s: s.nest("g", "out"), "Nothing to move group “G” out of: it is not in a group."),
        (lambda s: s.nest("g", "into"), "Nothing to move group “G” into: no group is next to it."),
        (lambda s: s.step("g", -1), "Nothing to move group “G” further that way."),
        (lambda s: s.pick_up("b1"), "There is nowhere else to put site space “B1”."),
        (
            lambda s: s.toggle_batch() and s.step("c", -1) and s.toggle_batch(),
            "The batch holds collected moves: send their plan or discard them first.",
        ),
    ],
)
def test_declines_say_why(session: EditSession, action: Any, why: str) -> None:
    with pytest.raises(Declined) as declined:
        action(session)
    assert str(declined.value) == why
    assert not session.queue


def test_the_node_in_hand_goes_into_and_out_of_groups(session: EditSession) -> None:
    session.pick_up("c")
    assert session.nest_held("into")
    assert shown(session) == "g .a ..a1 ..a2 .b ..b1 .c ..c1 ..c2 h .d"
    assert session.nest_held("out")
    assert shown(session) == START
    outcome = session.drop()
    assert outcome is not None and not outcome.queued  # back where it was


def test_the_mouse_drops_a_node_at_the_row_and_depth_it_is_released(session: EditSession) -> None:
    assert session.tree is not None
    rows = session.tree.layout.rows()
    session.pressed = (6, 10)  # on c's row
    assert session.pick_up("c", mouse=True)
    assert session.drag_spot(7, 10, rows) is None  # over c itself (its site spaces go with it)
    at = session.drag_spot(10, 12, rows)  # below d, two columns right: one level deeper
    assert at is not None and session.land(at)
    assert shown(session) == "g .a ..a1 ..a2 .b ..b1 h .d .c ..c1 ..c2"
    rows = session.tree.layout.rows()
    at = session.drag_spot(0, 10, rows)  # the first row, at the depth it was picked up
    assert at is not None and session.land(at)
    assert shown(session) == "c .c1 .c2 g .a ..a1 ..a2 .b ..b1 h .d"
    outcome = session.release()
    assert outcome is not None and outcome.queued and session.pressed is None and session.grab is None
    assert [job.label for job in session.queue] == ["Move section “C” before group “G”"]


# -- the send queue ---------------------------------------------------------------------------------------------


async def test_a_sent_move_is_confirmed_and_goes_on_the_history(session: EditSession, service: FakeService) -> None:
    session.step("c", -1)
    sent, refusal = await send_all(session)
    assert refusal is None and sent == ["Move section “C” to group “G”, at the end"]
    assert service.calls == [("move", "c", "g", 2)]
    assert outline(session.confirmed) == shown(session) == "g .a ..a1 ..a2 .b ..b1 .c ..c1 ..c2 h .d"
    assert [c.moves for c in session.history] == [[Move("c", None, 1, "g", 2)]]
    assert not session.queue


async def test_the_send_queue_sends_in_the_order_the_changes_were_made(
    session: EditSession, service: FakeService
) -> None:
    service.gate = asyncio.Event()
    session.step("c", -1)
    sent: list[str] = []
    running = asyncio.create_task(session.send(sent.append))
    await asyncio.sleep(0)
    assert session.queue.sending and service.calls == [("move", "c", "g", 2)]
    session.nest("a", "out")  # made while the first is on its way
    session.step("c2", -1)
    assert await session.send(sent.append) is None  # a run is going: it sends these too
    assert len(session.queue) == 3
    service.gate.set()
    assert await running is None
    assert [call[1] for call in service.calls] == ["c", "a", "c2"]
    assert sent == [
        "Move section “C” to group “G”, at the end",
        "Move section “A” to the root, before group “H”",
        "Move site space “C2” before site space “C1”",
    ]
    assert outline(session.confirmed) == shown(session) == "g .b ..b1 .c ..c2 ..c1 a .a1 .a2 h .d"
    assert len(session.history) == 3 and not session.queue.sending


async def test_a_refused_send_puts_the_tree_back_with_every_later_change(
    session: EditSession, service: FakeService
) -> None:
    service.refuse = {"a"}
    session.step("c", -1)
    session.nest("a", "out")
    session.step("c2", -1)
    assert shown(session) == "g .b ..b1 .c ..c2 ..c1 a .a1 .a2 h .d"
    sent, refusal = await send_all(session)
    assert sent == ["Move section “C” to group “G”, at the end"]
    assert refusal is not None and refusal.label == "Move section “A” to the root, before group “H”"
    assert refusal.later == 1 and isinstance(refusal.error, Refused)
    assert [call[1] for call in service.calls] == ["c", "a"]  # the later change was never sent
    assert shown(session) == outline(session.confirmed) == "g .a ..a1 ..a2 .b ..b1 .c ..c1 ..c2 h .d"
    assert not session.queue and len(session.history) == 1


async def test_a_refusal_while_a_node_is_held_puts_it_back(session: EditSession, service: FakeService) -> None:
    service.refuse = {"c"}
    session.step("c", 1)
    session.pick_up("d")
    session.shift(1)
    _, refusal = await send_all(session)
    assert refusal is not None and session.grab is None
    assert shown(session) == START


async def test_a_refused_removal_brings_the_node_back(session: EditSession, service: FakeService) -> None:
    service.refuse = {"c"}
    outcome = session.remove("c", "Remove section “C”")
    assert outcome.queued and shown(session) == "g .a ..a1 ..a2 .b ..b1 h .d"
    assert session.tree is not None and "c1" not in session.tree.nodes
    _, refusal = await send_all(session)
    assert refusal is not None and shown(session) == START
    assert {"c", "c1", "c2"} <= set(session.tree.nodes)


async def test_a_removed_group_leaves_its_children_in_its_place(session: EditSession, service: FakeService) -> None:
    session.remove("g", "Remove group “G”")
    sent, refusal = await send_all(session)
    assert refusal is None and sent == ["Remove group “G”"] and service.calls == [("delete", "g", GROUP)]
    assert shown(session) == outline(session.confirmed) == "a .a1 .a2 b .b1 c .c1 .c2 h .d"


# -- undo -------------------------------------------------------------------------------------------------------


async def test_undo_takes_back_the_last_change_on_the_service(session: EditSession, service: FakeService) -> None:
    session.step("c", -1)
    session.step("c2", -1)
    await send_all(session)
    outcome = session.undo()
    assert outcome.queued and outcome.text == "Undo: Move site space “C2” before site space “C1”…"
    sent, _ = await send_all(session)
    assert sent == ["Undo: Move site space “C2” before site space “C1”"]
    outcome = session.undo()
    await send_all(session)
    assert shown(session) == outline(session.confirmed) == START
    assert session.history == []
    assert session.undo().text == "Nothing to undo (removals cannot be undone)."


async def test_no_undo_while_changes_are_being_sent(session: EditSession) -> None:
    session.step("c", -1)
    with pytest.raises(Declined, match="still being sent"):
        session.undo()
    await send_all(session)
    assert session.undo().queued


async def test_a_refused_undo_goes_back_on_the_history(session: EditSession, service: FakeService) -> None:
    session.step("c", -1)
    await send_all(session)
    service.refuse = {"c"}
    session.undo()
    assert shown(session) == START and session.history == []
    _, refusal = await send_all(session)
    assert refusal is not None and refusal.label == "Undo: Move section “C” to group “G”, at the end"
    assert shown(session) == "g .a ..a1 ..a2 .b ..b1 .c ..c1 ..c2 h .d"
    assert [c.label for c in session.history] == ["Move section “C” to group “G”, at the end"]


async def test_an_edit_is_undone_and_a_refused_edit_is_put_back(session: EditSession, service: FakeService) -> None:
    assert session.tree is not None
    node = session.tree.nodes["c"]
    revision = session.revision
    await session.save_edit("c", {"title": "Changelog", "path": "changes"})
    assert (node.title, node.path) == ("Changelog", "changes") and session.revision > revision
    session.undo()
    assert (node.title, node.path) == ("C", "c")  # shown at once
    await send_all(session)
    assert service.calls[-1] == ("edit", "c", {"title": "C", "path": "c"})
    service.refuse = {"c"}
    with pytest.raises(Refused):
        await session.save_edit("c", {"title": "Changelog"})
    assert node.title == "C" and session.history == []


# -- a move that changes a default --------------------------------------------------------------------------------


@pytest.fixture
def by_order(service: FakeService) -> EditSession:
    """A session whose defaults follow the order: the first section (a) and each section's first site space."""
    session = EditSession(service)  # type: ignore[arg-type]
    session.load(sample(named=False))
    return session


async def test_a_move_that_changes_a_default_waits_for_its_plan(by_order: EditSession, service: FakeService) -> None:
    session = by_order
    assert session.pick_up("c")
    for _ in range(4):
        session.shift(-1)
    outcome = session.drop()  # c before g: the first section, so the default
    assert outcome is not None and outcome.confirm and not outcome.queued
    assert outcome.text == "Move section “C” before group “G”: it changes a default, so its plan shows first."
    assert not session.queue and service.calls == []  # nothing sent before the plan is accepted
    assert session.confirming == "Move section “C” before group “G”"
    assert session.collected == [Move("c", None, 1, None, 0)]
    plan = session.plan()
    # a and its site spaces take a's path; c and its site spaces the site's root.
    assert plan is not None and [u.id for u in plan.urls] == ["a", "a1", "a2", "c", "c1", "c2"]
    # The plan's modal sends through the service, which follows each request in ``confirmed``.
    session.confirmed.apply(plan.moves[0])
    session.planned(1)
    assert session.collected is None and session.confirming is None
    assert [(c.label, c.moves) for c in session.history] == [("Move section “C” before group “G”", plan.moves)]
    assert session.undo().queued  # taking it back asks nothing: it goes back to what was


def test_a_move_whose_plan_is_closed_unsent_goes_back(by_order: EditSession) -> None:
    session = by_order
    outcome = session.step("c2", -1)  # c2 before c1: the default of c
    assert outcome.confirm and shown(session) == "g .a ..a1 ..a2 .b ..b1 c .c2 .c1 h .d"
    assert session.discard_batch() == 1
    assert shown(session) == START and session.confirming is None and session.collected is None
    assert session.step("c", -1).queued  # into g: no default changes, sent at once


@pytest.mark.parametrize("batch", [False, True], ids=["at once", "in a batch"])
def test_a_hidden_site_space_cannot_become_a_default_by_a_move(by_order: EditSession, batch: bool) -> None:
    session = by_order
    assert session.tree is not None
    session.tree.nodes["c2"].hidden = True
    if batch:
        session.toggle_batch()
    with pytest.raises(Declined) as declined:
        session.step("c2", -1)
    assert str(declined.value) == (
        "Not moved: site space “C2” is hidden, and this move would make it the default of section “C”: visitors "
        "would land on a page the navigation does not show. Unhide it first (e), or move another site space to "
        "the top."
    )
    assert shown(session) == START and not session.queue and not session.collected
    session.tree.default_spaces["c"] = "c1"  # named: the order no longer decides, so the move may go
    assert session.step("c2", -1).text.startswith("Collected" if batch else "Move site space")


def test_a_move_that_changes_a_default_waits_for_the_changes_on_their_way(by_order: EditSession) -> None:
    session = by_order
    session.step("c", -1)  # queued
    with pytest.raises(Declined, match="still being sent: make this move when they are done"):
        session.step("c2", -1)
    assert shown(session) == "g .a ..a1 ..a2 .b ..b1 .c ..c1 ..c2 h .d"


def test_the_defaults_a_move_changes_in_words(by_order: EditSession) -> None:
    tree = by_order.tree
    assert tree is not None
    before = tree.layout.copy()
    after = before.copy()
    after.apply(Move("c", None, 1, None, 0))
    after.apply(Move("a2", "a", 1, "a", 0))
    assert default_changes(tree, before, after) == [
        "section “C” becomes the default section",
        "site space “A2” becomes the default of section “A”",
        "section “A” is no longer the default section",
        "site space “A1” is no longer the default of section “A”",
    ]
    assert default_changes(tree, before, before) == []


@pytest.mark.parametrize("named", [False, True], ids=["by order", "named"])
def test_the_defaults_near_a_move_say_what_the_whole_tree_says(named: bool) -> None:
    """What the session asks before and after each move (cheap) agrees with the defaults of the whole tree, for
    every one-step move and every move into or out of a group of the sample."""
    tree = sample(named=named)
    for key in list(tree.layout.parent):
        for move in (step(tree, tree.layout, key, -1), step(tree, tree.layout, key, 1)):
            if move is None:
                continue
            whole, near = tree.defaults(), defaults_near(tree, [move])
            tree.layout.apply(move)
            whole_after, near_after = tree.defaults(), defaults_near(tree, [move])
            tree.layout.apply(move.inverse())
            assert whole_after - whole == near_after - near, move
            assert whole - whole_after == near - near_after, move


# -- after a lost answer ---------------------------------------------------------------------------------------


async def test_a_creation_whose_answer_was_lost_is_found_in_the_structure_read_again(
    session: EditSession, service: FakeService
) -> None:
    fresh = sample()
    fresh.nodes["n"] = Node("n", GROUP, "Guides")
    fresh.layout.add(None, "n")
    fresh.nodes["c3"] = Node("c3", SPACE, "C3", "c3", space="space-9")
    fresh.layout.add("c", "c3")
    service.loaded = fresh
    assert await find_created(session, GROUP, {"title": "Guides", "where": None}) == "n"
    assert await find_created(session, GROUP, {"title": "Guides", "where": "g"}) is None  # not where it was asked
    assert await find_created(session, GROUP, {"title": "Other", "where": None}) is None
    assert await find_created(session, SPACE, {"space": "space-9", "section": "c"}) == "c3"
    assert await find_created(session, SPACE, {"space": "space-9", "section": "a"}) is None
    assert [c.created for c in session.history] == ["n", "c3"]  # undo removes them, as after a create
    assert shown(session) == START  # shown after the next read, as a create


async def test_an_edit_whose_answer_was_lost_is_shown_when_the_service_holds_it(
    session: EditSession, service: FakeService
) -> None:
    fresh = sample()
    fresh.nodes["c"].title = "Changelog"
    service.loaded = fresh
    assert await find_edit(session, "c", {"title": "Changes"}) is None  # not what the service holds
    assert session.tree is not None and session.tree.nodes["c"].title == "C"
    assert await find_edit(session, "c", {"title": "Changelog"}) is True
    assert session.tree.nodes["c"].title == "Changelog" and [c.item for c in session.history] == ["c"]
    assert not [call for call in service.calls if call[0] == "edit"]  # found, not sent again


# -- the batch --------------------------------------------------------------------------------------------------


async def test_a_batch_collects_moves_and_its_plan_replays_them(session: EditSession, service: FakeService) -> None:
    assert session.toggle_batch().text.startswith("Batch: moves are collected")
    first = session.step("c", -1)
    second = session.nest("a", "out")
    assert not first.queued and first.text == "Collected: Move section “C” to group “G”, at the end. P shows the plan."
    assert not second.queued and not session.queue and service.calls == []
    assert session.collected == [Move("c", None, 1, "g", 2), Move("a", "g", 0, None, 1)]
    assert shown(session) == "g .b ..b1 .c ..c1 ..c2 a .a1 .a2 h .d"
    plan = session.plan()
    assert plan is not None and plan.moves == session.collected and plan.sendable
    assert [[op.verb for op in step.operations] for step in plan.steps] == [
        ["update-section"],
        ["update-section", "sort"],
    ]
    assert [s.label for s in plan.steps] == [
        "Move section “C” to group “G”, at the end",
        "Move section “A” to the root, before group “H”",
    ]
    with pytest.raises(Declined, match="The batch holds collected moves"):
        session.toggle_batch()
    # The plan's modal sends through the service, which follows each request in ``confirmed``: the first only.
    session.confirmed.apply(plan.moves[0])
    session.planned(1)
    assert session.collected is None
    assert shown(session) == "g .a ..a1 ..a2 .b ..b1 .c ..c1 ..c2 h .d"
    assert [(c.label, c.moves) for c in session.history] == [("1 planned moves", [Move("c", None, 1, "g", 2)])]


def test_undo_in_a_batch_takes_back_a_collected_move_and_a_discard_all(session: EditSession) -> None:
    session.toggle_batch()
    session.step("c", -1)
    session.step("c2", -1)
    outcome = session.undo()
    assert outcome.text == "Took back a collected move of site space “C2”." and len(session.collected or []) == 1
    assert shown(session) == "g .a ..a1 ..a2 .b ..b1 .c ..c1 ..c2 h .d"
    session.step("d", -1)
    assert session.discard_batch() == 2
    assert session.collected is None and shown(session) == START and not session.queue
    assert session.toggle_batch().text.startswith("Batch:") and session.toggle_batch().text.startswith("Batch ended")


def test_no_batch_while_changes_are_being_sent(session: EditSession) -> None:
    session.step("c", -1)
    with pytest.raises(Declined, match="start a batch when they are done"):
        session.toggle_batch()
    assert session.collected is None


def test_a_new_read_drops_the_collected_moves(session: EditSession) -> None:
    session.toggle_batch()
    session.step("c", -1)
    assert session.load(sample()) == 1
    assert session.collected == [] and shown(session) == START


def test_the_session_loads_without_textual() -> None:
    probe = (
        "import json, sys\n"
        "from folio.tui.widgets.structure_editor.session import EditSession\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    loaded = set(json.loads(result.stdout.strip().splitlines()[-1]))
    assert "folio.tui.widgets.structure_editor.session" in loaded
    assert not {m for m in loaded if m == "textual" or m.startswith("textual.")}
