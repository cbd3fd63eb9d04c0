"""What a move does besides reordering: the default section (the named one, else the first) and each section's
default site space (likewise) follow the order, so a move can make another one the default, and with it move
published URLs (the default's URL is its owner's). The editor says so before such a move is sent, and refuses a
move that would make a hidden site space a default (visitors would land on a page the navigation hides).

    changes = default_changes(tree, before, after)   # ["section “B” becomes the default section", ...]
    refusal = hidden_default(tree, made, after)      # None, or why the move is refused

No Textual here.
"""

from __future__ import annotations

from collections.abc import Iterable

from folio.services.sites.structure import SECTION, SPACE, Layout, Move, StructureTree

__all__ = ["default_changes", "defaults_near", "hidden_default"]


def _of_what(tree: StructureTree, key: str, layout: Layout) -> str:
    """``the default section`` or ``the default of section “A”`` (of the site, at the root)."""
    if tree.nodes[key].kind == SECTION:
        return "the default section"
    owner = layout.parent.get(key)
    return "the default of the site" if owner is None else f"the default of {tree.name(owner)}"


def _space_default(tree: StructureTree, owner: str | None, layout: Layout) -> str | None:
    """The default site space of ``owner`` (a section, or None: the root): the named one, else the first."""
    named = tree.default_spaces.get(owner)
    if named is not None and layout.parent.get(named) == owner:
        return named
    return next((k for k in layout.kids(owner) if tree.nodes[k].kind == SPACE), None)


def _section_default(tree: StructureTree, layout: Layout) -> str | None:
    """The default section: the named one, else the first in order (groups looked into)."""
    if not tree.sections:
        return None
    if tree.default_section in layout.parent:
        return tree.default_section
    stack = list(reversed(layout.kids(None)))
    while stack:
        key = stack.pop()
        if tree.nodes[key].kind == SECTION:
            return key
        stack.extend(reversed(layout.kids(key)))
    return None


def defaults_near(tree: StructureTree, moves: Iterable[Move]) -> set[str]:
    """The defaults ``moves`` may change, as the tree is laid out now: the default of each owner a site space
    moves in, and the default section when anything else moves. (What ``StructureTree.defaults`` would say of
    them, without walking the whole tree: it is asked before and after every move.)"""
    layout, out = tree.layout, set()
    for move in moves:
        if tree.nodes[move.id].kind == SPACE:
            found = {_space_default(tree, owner, layout) for owner in (move.from_parent, move.to_parent)}
        else:
            found = {_section_default(tree, layout)}
        out |= {k for k in found if k is not None}
    return out


def default_changes(tree: StructureTree, before: Layout, after: Layout) -> list[str]:
    """The defaults a change from ``before`` to ``after`` makes and unmakes, in words, the new one first."""
    old, new = tree.defaults(before), tree.defaults(after)
    made = [k for k in after.walk() if k in new - old]
    unmade = [k for k in before.walk() if k in old - new]
    out: list[str] = []
    for key in made:
        out.append(f"{tree.name(key)} becomes {_of_what(tree, key, after)}")
    for key in unmade:
        out.append(f"{tree.name(key)} is no longer {_of_what(tree, key, before)}")
    return out


def hidden_default(tree: StructureTree, made: Iterable[str], layout: Layout) -> str | None:
    """Why a change that ``made`` these defaults (laid out as ``layout``) is refused: one of them is a hidden site
    space (None: none is)."""
    hidden = [k for k in made if tree.nodes[k].kind == SPACE and tree.nodes[k].hidden]
    if not hidden:
        return None
    key = min(hidden)
    return (
        f"Not moved: {tree.name(key)} is hidden, and this move would make it {_of_what(tree, key, layout)}: "
        "visitors would land on a page the navigation does not show. Unhide it first (e), or move another site "
        "space to the top."
    )
