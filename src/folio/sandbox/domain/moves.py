"""Moving and transferring spaces and collections (spec 4.7 and the errors of section 7).

Spaces and collections under one parent share one sidebar order (the ``order`` field). A position names a
sibling with ``{type: space, space: id}`` or ``{type: collection, collection: id}``; ``before`` puts the item
just before it, ``after`` just after it, both together must name two neighbours, neither moves it to the end.
Errors, as the public description gives them: 400 for an invalid position or parent, 404 for no matching item,
409 when nothing would change; transfers answer 404, 409, and 412 when the item cannot be moved.
"""

from __future__ import annotations

from typing import Any

from folio.sandbox.domain.access import RANK, rank_of
from folio.sandbox.domain.spaces import (
    Item,
    descendants,
    next_order,
    siblings,
)
from folio.sandbox.errors import SandboxError, bad_request, conflict
from folio.sandbox.state import Record, SandboxState


def precondition_failed(message: str) -> SandboxError:
    return SandboxError(412, message)


def _pointer(state: SandboxState, org: str, value: Any, side: str) -> Item:
    if not isinstance(value, dict) or value.get("type") not in ("space", "collection"):
        raise bad_request(f"Invalid position: position.{side} must be {{type: space|collection, <id>}}")
    kind = value["type"]
    ref = value.get(kind)
    if not isinstance(ref, str) or not ref:
        raise bad_request(f"Invalid position: position.{side}.{kind} must be an id")
    store = state.spaces if kind == "space" else state.collections
    record = store.get(ref)
    if record is None or record["organization"] != org or record.get("deletedAt"):
        raise bad_request(f"Invalid position space or collection provided: no {kind} {ref!r} here")
    return kind, record


def _key(item: Item) -> tuple[str, str]:
    return item[0], item[1]["id"]


def move(state: SandboxState, kind: str, record: Record, body: dict[str, Any]) -> None:
    """Move a space or collection to a parent and a position among its siblings; renumbers their order."""
    if "parent" not in body and "position" not in body:
        raise bad_request("Give a parent, a position or both")
    org = record["organization"]
    me = (kind, record["id"])
    current_parent = record.get("parent")
    parent = current_parent
    if "parent" in body:
        parent = body["parent"]
        if parent is not None and not isinstance(parent, str):
            raise bad_request("parent must be a collection id or null")
        if parent is not None:
            holder = state.collections.get(parent)
            if holder is None or holder["organization"] != org:
                raise bad_request(f"Invalid position space or collection provided: no collection {parent!r}")
            if kind == "collection" and (
                parent == record["id"] or parent in {c["id"] for c in descendants(state, record["id"])}
            ):
                raise bad_request("A collection cannot move into itself or one of its collections")
    position = body.get("position")
    before = after = None
    if position is not None:
        if not isinstance(position, dict):
            raise bad_request("Invalid position: position must be an object")
        if position.get("before") is not None:
            before = _pointer(state, org, position["before"], "before")
        if position.get("after") is not None:
            after = _pointer(state, org, position["after"], "after")
        for ref in (before, after):
            if ref is not None and _key(ref) == me:
                raise bad_request("Invalid position: an item cannot be placed relative to itself")
        anchors = [ref for ref in (before, after) if ref is not None]
        anchor_parents = {ref[1].get("parent") for ref in anchors}
        if len(anchor_parents) > 1:
            raise bad_request("Invalid position: before and after are not in the same collection")
        if anchors and "parent" not in body:
            parent = anchor_parents.pop()
        elif anchors and anchor_parents != {parent}:
            raise bad_request("Invalid position: the position is not inside the given parent")
    old = [_key(it) for it in siblings(state, org, current_parent)]
    others = [it for it in siblings(state, org, parent) if _key(it) != me]
    keys = [_key(it) for it in others]
    if before is not None and after is not None:
        index = keys.index(_key(before))
        if index == 0 or keys[index - 1] != _key(after):
            raise bad_request("Invalid position: before and after are not neighbours")
    elif before is not None:
        index = keys.index(_key(before))
    elif after is not None:
        index = keys.index(_key(after)) + 1
    else:
        index = len(others)
    new = [*others[:index], (kind, record), *others[index:]]
    if parent == current_parent and [_key(it) for it in new] == old:
        raise conflict("Operation would not result in any update")
    record["parent"] = parent
    for order, (_, item) in enumerate(new):
        item["order"] = order
    if kind == "space":
        if parent is None and record.get("visibility") == "in-collection":
            record["visibility"] = "private"
        record["updatedAt"] = state.now()


def _target_org(state: SandboxState, body: dict[str, Any], user: str) -> str:
    target = body.get("organization")
    if not isinstance(target, str) or not target:
        raise bad_request("organization is required: the id of the target organization")
    if target not in state.orgs:
        # 400, not 404: a 404 from a transfer means the space or collection itself is missing.
        raise bad_request(f"organization: no organization {target!r} to transfer to")
    if rank_of(state, target, user) < RANK["edit"]:
        raise precondition_failed("You cannot add content to the target organization")
    return target


def _published(state: SandboxState, space_ids: set[str]) -> bool:
    return any(ss.get("space") in space_ids for ss in state.site_spaces.values())


def transfer_space(state: SandboxState, space: Record, body: dict[str, Any], user: str) -> None:
    """Move a space to another organization (and optionally into one of its collections)."""
    collection = body.get("collection")
    if collection is not None and not isinstance(collection, str):
        raise bad_request("collection must be a collection id")
    target = body.get("organization")
    if target == space["organization"] and collection in (None, space.get("parent")):
        raise conflict("Transfer would not result in any update")
    target = _target_org(state, body, user)
    if collection is not None:
        holder = state.collections.get(collection)
        if holder is None or holder["organization"] != target:
            raise bad_request(f"collection: no collection {collection!r} in the target organization")
    if rank_of(state, space["organization"], user) < RANK["admin"]:
        raise precondition_failed("Only an admin of the space's organization can transfer it")
    if target != space["organization"] and _published(state, {space["id"]}):
        raise precondition_failed("The space is published on a site of its organization and cannot be moved")
    space["organization"] = target
    space["parent"] = collection
    space["order"] = next_order(state, target, collection)
    if collection is None and space.get("visibility") == "in-collection":
        space["visibility"] = "private"
    space["updatedAt"] = state.now()


def transfer_collection(state: SandboxState, record: Record, body: dict[str, Any], user: str) -> None:
    """Move a collection, with its collections and spaces, to the root of another organization."""
    if body.get("organization") == record["organization"]:
        raise conflict("Transfer would not result in any update")
    target = _target_org(state, body, user)
    if rank_of(state, record["organization"], user) < RANK["admin"]:
        raise precondition_failed("Only an admin of the collection's organization can transfer it")
    tree = [record, *descendants(state, record["id"])]
    tree_ids = {c["id"] for c in tree}
    spaces = [s for s in state.spaces.values() if s.get("parent") in tree_ids]
    if _published(state, {s["id"] for s in spaces}):
        raise precondition_failed("A space of this collection is published on a site and cannot be moved")
    record["parent"] = None
    record["order"] = next_order(state, target, None)
    for item in (*tree, *spaces):
        item["organization"] = target
