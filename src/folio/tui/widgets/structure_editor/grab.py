"""The node in hand in a site's structure: the generic grab (:mod:`folio.tui.widgets.tree_grab`) with the
structure's own landing spots (sections and groups at the root or in any group but their own; site spaces and
links among their siblings) and its words for where a node would land. The tree shows it where it would land;
the move is made only when it is dropped (by the edit session).

No Textual here: rows and columns are plain numbers.
"""

from __future__ import annotations

from folio.services.sites.structure import GROUP, LINK, SECTION, SPACE, StructureTree, spots
from folio.tui.widgets.tree_grab import Declined, TreeGrab

__all__ = ["Declined", "Grab"]


class Grab(TreeGrab):
    """A node of a site's structure in hand."""

    @classmethod
    def take(cls, tree: StructureTree, key: str, *, mouse: bool = False, press: tuple[int, int] = (0, 0)) -> Grab:
        """Pick ``key`` up; raises :class:`Declined` when it cannot move."""
        if tree.nodes[key].kind not in (GROUP, SECTION, SPACE, LINK):
            raise Declined(f"The service offers no way to move {tree.name(key)}.")
        return cls.over(tree, key, spots(tree, key), name=tree.name(key), mouse=mouse, press=press)

    def describe(self, tree: StructureTree) -> str:
        """Where the node would land, in words: ``Moving section “A”: in group “G”, before section “B”.``"""
        spot = self.spots[self.at]
        siblings = [k for k in tree.layout.kids(spot.parent) if k != self.item]
        near = f"before {tree.name(siblings[spot.index])}" if spot.index < len(siblings) else "at the end"
        return f"Moving {tree.name(self.item)}: in {tree.name(spot.parent)}, {near}."
