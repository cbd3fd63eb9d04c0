"""What may go where: the spots a moving item may land on, and the one-step moves (up, down, into and out of a
group) the editor offers. Sections and groups go at the root or in any group but their own; site spaces and links
stay among their siblings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from folio.services.sites.structure.tree import GROUP, SECTION, Layout, Move, StructureTree

__all__ = ["Spot", "into_group", "out_of_group", "spot_index", "spots", "step"]


@dataclass(slots=True)
class Spot:
    """Where a moving item may land: ``index`` in ``parent``; ``line`` is the row of the gap in the tree drawn
    without the item, ``depth`` the depth the item would have. (Not frozen: hundreds are made per move.)"""

    parent: str | None
    index: int
    depth: int
    line: int


def spots(tree: StructureTree, item: str, layout: Layout | None = None) -> list[Spot]:
    """Every place ``item`` may land, in the order of the tree's rows (deeper first where gaps coincide):
    sections and groups at the root or in any group but their own; site spaces and links among their
    siblings."""
    layout = layout or tree.layout
    nodes, home, children = tree.nodes, layout.parent[item], layout.children
    free = nodes[item].kind in (SECTION, GROUP)
    out: list[Spot] = []
    line = 0

    def size(key: str) -> int:
        kids = children.get(key, ())
        total = len(kids)
        for kid in kids:
            if kid in children:
                total += size(kid)
        return total

    def visit(parent: str | None, depth: int) -> None:
        # Only groups (and the home of a site space) hold spots: a section's site spaces are counted, not walked.
        nonlocal line
        kids = [k for k in children.get(parent, ()) if k != item]
        allowed = (parent is None or nodes[parent].kind == GROUP) if free else parent == home
        for n, kid in enumerate(kids):
            if allowed:
                out.append(Spot(parent, n, depth, line))
            line += 1
            if kid in children:
                if nodes[kid].kind == GROUP or kid == home:
                    visit(kid, depth + 1)
                else:
                    line += size(kid)
        if allowed:
            out.append(Spot(parent, len(kids), depth, line))

    visit(None, 0)
    return out


def spot_index(found: Sequence[Spot], parent: str | None, index: int) -> int | None:
    return next((n for n, s in enumerate(found) if s.parent == parent and s.index == index), None)


def _to(layout: Layout, item: str, spot: Spot | None) -> Move | None:
    if spot is None:
        return None
    parent, index = layout.position(item)
    if (spot.parent, spot.index) == (parent, index):
        return None
    return Move(item, parent, index, spot.parent, spot.index)


def step(tree: StructureTree, layout: Layout, item: str, delta: int) -> Move | None:
    """One landing spot up (-1) or down (+1), into and out of groups on the way; None at either end."""
    found = spots(tree, item, layout)
    at = spot_index(found, *layout.position(item))
    if at is None or not 0 <= at + delta < len(found):
        return None
    return _to(layout, item, found[at + delta])


def out_of_group(tree: StructureTree, layout: Layout, item: str) -> Move | None:
    """Out of the group holding ``item``, just after it."""
    parent = layout.parent[item]
    if parent is None or tree.nodes[parent].kind != GROUP or tree.nodes[item].kind not in (SECTION, GROUP):
        return None
    outer, index = layout.position(parent)
    found = spots(tree, item, layout)
    at = spot_index(found, outer, index + 1)
    return _to(layout, item, found[at] if at is not None else None)


def into_group(tree: StructureTree, layout: Layout, item: str) -> Move | None:
    """Into the group just above ``item`` (at its end), else the one just below (at its start)."""
    if tree.nodes[item].kind not in (SECTION, GROUP):
        return None
    parent, index = layout.position(item)
    kids = [k for k in layout.kids(parent) if k != item]
    found = spots(tree, item, layout)
    for neighbour, end in ((index - 1, True), (index, False)):
        if 0 <= neighbour < len(kids) and tree.nodes[kids[neighbour]].kind == GROUP:
            group = kids[neighbour]
            at = spot_index(found, group, len(layout.kids(group)) if end else 0)
            return _to(layout, item, found[at] if at is not None else None)
    return None
