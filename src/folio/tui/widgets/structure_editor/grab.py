"""The node in hand: picked up by a key or the mouse, shown at one landing spot after another, then dropped or put
back. The tree shows it where it would land; the move is made only when it is dropped (by the edit session).

No Textual here: rows and columns are plain numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from folio.services.structure import GROUP, LINK, SECTION, SPACE, Spot, StructureTree, spot_index, spots

__all__ = ["Declined", "Grab"]


class Declined(Exception):
    """An action that cannot be done now; the message says why, for the status line."""


@dataclass
class Grab:
    """The node in hand: where it came from, the spots it may land on and the one it is shown at. ``press`` is
    where the mouse went down (row, column) when the mouse holds it; ``depth`` the depth it had there."""

    item: str
    origin: tuple[str | None, int]
    spots: list[Spot]
    at: int
    mouse: bool = False
    press: tuple[int, int] = (0, 0)
    depth: int = 0

    @classmethod
    def take(cls, tree: StructureTree, key: str, *, mouse: bool = False, press: tuple[int, int] = (0, 0)) -> Grab:
        """Pick ``key`` up; raises :class:`Declined` when it cannot move."""
        if tree.nodes[key].kind not in (GROUP, SECTION, SPACE, LINK):
            raise Declined(f"The service offers no way to move {tree.name(key)}.")
        found = spots(tree, key)
        origin = tree.layout.position(key)
        at = spot_index(found, *origin)
        if at is None or len(found) < 2:
            raise Declined(f"There is nowhere else to put {tree.name(key)}.")
        parents, depth, up = tree.layout.parent, 0, tree.layout.parent[key]
        while up is not None:
            depth, up = depth + 1, parents[up]
        return cls(key, origin, found, at, mouse, press, depth)

    def holds(self, tree: StructureTree, key: str) -> bool:
        """Whether ``key`` is the node in hand or inside it."""
        parents = tree.layout.parent
        node: str | None = key
        while node is not None:
            if node == self.item:
                return True
            node = parents.get(node)
        return False

    def land(self, tree: StructureTree, at: int) -> bool:
        """Show the node at spot ``at``; False when nothing changed."""
        if at == self.at or not 0 <= at < len(self.spots):
            return False
        self.at = at
        spot = self.spots[at]
        tree.layout.place(self.item, spot.parent, spot.index)
        return True

    def put_back(self, tree: StructureTree) -> None:
        tree.layout.place(self.item, *self.origin)

    def nearest(self, tree: StructureTree, line: int, x: int, rows: Sequence[tuple[str, int]]) -> int | None:
        """The spot nearest to the mouse at row ``line``, column ``x`` of the tree drawn as ``rows`` (the node
        shown in them where it is now); None while over the node itself (or what it holds)."""
        start = next(n for n, (k, _) in enumerate(rows) if k == self.item)
        size = 1
        while start + size < len(rows) and self.holds(tree, rows[start + size][0]):
            size += 1
        if start <= line < start + size:
            return None
        bare = line if line < start else line - size
        gap = bare if bare < self.spots[self.at].line else bare + 1
        depth = self.depth + (x - self.press[1]) // 2
        found = self.spots
        return min(range(len(found)), key=lambda n: (abs(found[n].line - gap), abs(found[n].depth - depth)))

    def describe(self, tree: StructureTree) -> str:
        """Where the node would land, in words: ``Moving section “A”: in group “G”, before section “B”.``"""
        spot = self.spots[self.at]
        siblings = [k for k in tree.layout.kids(spot.parent) if k != self.item]
        near = f"before {tree.name(siblings[spot.index])}" if spot.index < len(siblings) else "at the end"
        return f"Moving {tree.name(self.item)}: in {tree.name(spot.parent)}, {near}."
