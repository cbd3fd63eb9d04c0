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

from folio.services.structure import SECTION, SPACE, Layout, StructureTree

__all__ = ["default_changes", "hidden_default"]


def _of_what(tree: StructureTree, key: str, layout: Layout) -> str:
    """``the default section`` or ``the default of section “A”`` (of the site, at the root)."""
    if tree.nodes[key].kind == SECTION:
        return "the default section"
    owner = layout.parent.get(key)
    return "the default of the site" if owner is None else f"the default of {tree.name(owner)}"


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
