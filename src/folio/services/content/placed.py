"""Whether a move of a space or a collection is done: the organization's tree, read now, has the item where the
move puts it (asked after a move whose answer was lost, or refused with 409 "would not result in any update").

    done = await placed_now(client, move, org_id)

No Textual here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from folio.services.browse import build_tree
from folio.services.content.collections import LOOSE, ContentTree, Placement, content_tree, is_space

if TYPE_CHECKING:
    from folio.api.client import GitBookClient

__all__ = ["is_placed", "placed_now"]


def is_placed(tree: ContentTree, move: Placement) -> bool:
    """Whether ``tree`` has the item of ``move`` in its parent, next to the neighbour it names (a neighbour of
    the other kind, "after the collections" or "before the spaces", holds wherever it is among its kind)."""
    key = f"s:{move.id}" if move.kind == "space" else f"c:{move.id}"
    if key not in tree.layout.parent:
        return False
    parent = tree.layout.parent[key]
    if tree.collection_id(parent) != move.parent:
        return False
    same = [k for k in tree.layout.kids(parent) if is_space(k) == is_space(key) and k != LOOSE]
    index = same.index(key)
    for pointer, step in ((move.before, 1), (move.after, -1)):
        if pointer is None:
            continue
        other = f"s:{pointer.space}" if pointer.space else f"c:{pointer.collection}"
        if is_space(other) != is_space(key):
            continue
        if not 0 <= index + step < len(same) or same[index + step] != other:
            return False
    return True


async def placed_now(client: GitBookClient, move: Placement, org_id: str | None) -> bool:
    """Read the organization's collections and spaces (``org_id``: None, the item's own) and say whether the item
    is where ``move`` puts it."""
    if org_id is None:
        item = await (client.spaces.get(move.id) if move.kind == "space" else client.collections.get(move.id))
        org_id = item.organization
        if org_id is None:
            return False
    collections = await client.collections.list(org_id, limit=1000).collect()
    spaces = await client.spaces.summaries(org_id, limit=1000).collect()
    return is_placed(content_tree(build_tree(collections, spaces)), move)
