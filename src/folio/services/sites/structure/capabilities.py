"""What this service offers (:class:`Offered`, learned as it answers) and the requests a move takes on it.

Sibling order changes through the structure sort (the deprecated section move where the sort is not offered, the
site space move for site spaces); a section changes group through its update (``siteSectionGroupId``; the
add-to-group operation where the update is not offered), a group through ``parentSectionGroupId``. A site space
never leaves its section.
"""

from __future__ import annotations

from dataclasses import dataclass

from folio.services.errors import Refusal
from folio.services.sites.structure.tree import GROUP, SECTION, SPACE, Layout, Move, StructureTree

__all__ = ["Offered", "Operation", "Unsupported", "operations", "simulate"]


@dataclass
class Offered:
    """What this service offers, learned as it answers (NotOffered turns a flag off for the client's life)."""

    sort: bool = True
    section_group_update: bool = True
    add_to_group: bool = True
    site_space_move: bool = True


@dataclass(frozen=True)
class Operation:
    """One request: ``verb`` is sort, update-section, update-group, add-to-group, move-site-space or
    move-section; ``parent`` for the first three updates, ``before``/``after`` (kind, id) for the reorders."""

    verb: str
    item: str
    kind: str
    parent: str | None = None
    before: tuple[str, str] | None = None
    after: tuple[str, str] | None = None

    def describe(self, tree: StructureTree) -> str:
        what = tree.name(self.item)
        where = (
            f"before {tree.name(self.before[1])}"
            if self.before
            else f"after {tree.name(self.after[1])}"
            if self.after
            else "to the end"
        )
        return {
            "sort": f"Sort {what} {where} (structure sort)",
            "move-section": f"Move {what} {where} (section move, deprecated)",
            "move-site-space": f"Move {what} {where} (site space move)",
            "update-section": f"Put {what} in {tree.name(self.parent)} (section update)",
            "update-group": f"Put {what} in {tree.name(self.parent)} (group update)",
            "add-to-group": f"Add {what} to {tree.name(self.parent)} (add a section to a group)",
        }[self.verb]


class Unsupported(Refusal):
    """A move this service has no operation for."""

    def describe(self) -> str:
        return str(self)


def operations(tree: StructureTree, layout: Layout, move: Move, offered: Offered) -> list[Operation]:
    """The requests that make ``move`` on this service, from ``layout`` (where the item is now)."""
    item, node = move.id, tree.nodes[move.id]
    kind = node.kind
    ops: list[Operation] = []
    siblings = layout.kids(move.to_parent)
    if layout.parent[item] != move.to_parent:
        if kind == SECTION and offered.section_group_update:
            ops.append(Operation("update-section", item, kind, parent=move.to_parent))
        elif kind == SECTION and move.to_parent is not None and offered.add_to_group:
            ops.append(Operation("add-to-group", item, kind, parent=move.to_parent))
        elif kind == GROUP:
            ops.append(Operation("update-group", item, kind, parent=move.to_parent))
        elif kind == SPACE:
            raise Unsupported("A site space stays in its section: the service has no operation to move it out.")
        else:
            raise Unsupported(f"This service offers no operation to put a {node.noun} in {tree.name(move.to_parent)}.")
        siblings = [*siblings, item]
    rest = [k for k in siblings if k != item]
    target = [*rest[: move.to_index], item, *rest[move.to_index :]]
    if target == siblings:
        return ops
    after = target[move.to_index - 1] if move.to_index > 0 else None
    before = target[move.to_index + 1] if move.to_index + 1 < len(target) else None
    ptr = (tree.nodes[before].kind, before) if before else None
    aptr = (tree.nodes[after].kind, after) if after and not before else None
    if kind == SPACE and offered.site_space_move:
        ops.append(Operation("move-site-space", item, kind, before=ptr, after=aptr))
    elif offered.sort:
        ops.append(Operation("sort", item, kind, before=ptr, after=aptr))
    elif kind == SECTION and (before is None or tree.nodes[before].kind == SECTION):
        ops.append(Operation("move-section", item, kind, before=ptr, after=None if ptr else aptr))
    elif kind == SECTION and after and tree.nodes[after].kind == SECTION:
        ops.append(Operation("move-section", item, kind, after=(SECTION, after)))
    elif kind == SPACE:
        raise Unsupported(
            f"This service offers neither the site space move nor the structure sort: {tree.name(item)} keeps "
            "its place among its section's site spaces."
        )
    elif kind != SECTION:
        raise Unsupported(
            f"This service offers no structure sort, the only operation that reorders a {node.noun}: "
            f"{tree.name(item)} keeps its place."
        )
    else:
        raise Unsupported(
            f"This service offers no structure sort, and the deprecated section move cannot place "
            f"{tree.name(item)} next to a {tree.nodes[before or item].noun}."
        )
    return ops


def simulate(layout: Layout, op: Operation) -> None:
    """What a successful ``op`` did to the service's structure."""
    item = op.item
    if op.verb in ("update-section", "update-group", "add-to-group"):
        layout.place(item, op.parent, len([k for k in layout.kids(op.parent) if k != item]))
        return
    parent = layout.parent[item]
    rest = [k for k in layout.kids(parent) if k != item]
    index = len(rest)
    if op.before:
        index = rest.index(op.before[1])
    elif op.after:
        index = rest.index(op.after[1]) + 1
    layout.place(item, parent, index)
