"""A node in hand over any tree of nodes with parents (a :class:`~folio.services.sites.structure.Layout`): picked up by
a key or the mouse, shown at one landing spot after another, then dropped or put back. The tree shows it where it
would land; what a drop does (a request, a queued change) is up to the one holding the grab.

Two trees use it: a site's structure (``structure_editor.grab``, whose spots are sections, groups and site
spaces) and an organization's collections and spaces (``collections_tree``). Each computes its own landing spots
(:class:`~folio.services.sites.structure.Spot`, in the order of the tree's rows) and names its nodes; the grab only
moves the node through them.

No Textual here: rows and columns are plain numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, Self

from folio.services.sites.structure import Layout, Spot, spot_index

__all__ = ["Declined", "Laid", "TreeGrab"]


class Declined(Exception):
    """An action that cannot be done now; the message says why, for the status line."""


class Laid(Protocol):
    """Anything with a layout: who is where (``layout.parent``, ``layout.children``)."""

    layout: Layout


@dataclass
class TreeGrab:
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
    def over(
        cls,
        tree: Laid,
        key: str,
        found: list[Spot],
        *,
        name: str,
        mouse: bool = False,
        press: tuple[int, int] = (0, 0),
    ) -> Self:
        """Pick ``key`` up with the spots ``found`` for it; raises :class:`Declined` (naming it ``name``) when
        there is nowhere else to put it."""
        origin = tree.layout.position(key)
        at = spot_index(found, *origin)
        if at is None or len(found) < 2:
            raise Declined(f"There is nowhere else to put {name}.")
        parents, depth, up = tree.layout.parent, 0, tree.layout.parent[key]
        while up is not None:
            depth, up = depth + 1, parents[up]
        return cls(key, origin, found, at, mouse, press, depth)

    @property
    def spot(self) -> Spot:
        """Where the node is shown now."""
        return self.spots[self.at]

    @property
    def moved(self) -> bool:
        """Whether it is shown anywhere but where it came from."""
        return (self.spot.parent, self.spot.index) != self.origin

    def holds(self, tree: Laid, key: str) -> bool:
        """Whether ``key`` is the node in hand or inside it."""
        parents = tree.layout.parent
        node: str | None = key
        while node is not None:
            if node == self.item:
                return True
            node = parents.get(node)
        return False

    def land(self, tree: Laid, at: int) -> bool:
        """Show the node at spot ``at``; False when nothing changed."""
        if at == self.at or not 0 <= at < len(self.spots):
            return False
        self.at = at
        spot = self.spots[at]
        tree.layout.place(self.item, spot.parent, spot.index)
        return True

    def land_in(self, tree: Laid, parent: str | None, index: int) -> bool | None:
        """Show the node at ``index`` in ``parent``; None when that is not one of its spots."""
        at = spot_index(self.spots, parent, index)
        return None if at is None else self.land(tree, at)

    def put_back(self, tree: Laid) -> None:
        tree.layout.place(self.item, *self.origin)

    def nearest(self, tree: Laid, line: int, x: int, rows: Sequence[tuple[str, int]]) -> int | None:
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
