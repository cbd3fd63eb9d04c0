"""Spaces and collections in the sandbox: finding records, rendering them to the wire shape (spec 2.5), their
order, and the lifecycle rules other areas share.

Order: the collections and spaces under one parent share one ``order`` (moves renumber it, see
:mod:`folio.sandbox.domain.moves`); lists of an organization's spaces and collections follow the sidebar, depth
first (:func:`sidebar`).

Lifecycle (spec 3): a deleted space carries ``deletedAt``, is left out of every list and search, still reads
(with ``deletedAt``) and can be restored for 7 days of the sandbox's clock; after that it is purged with its
revisions, change requests and comments, and every request about it is a 404.

Other areas render a space with :func:`render_space` (a member's spaces, site spaces, backlinks).
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

from folio.models.common import ROLES
from folio.sandbox.clock import parse_iso
from folio.sandbox.domain.access import RANK, rank_of
from folio.sandbox.errors import bad_request, not_found
from folio.sandbox.revisions import slugify
from folio.sandbox.state import Record, SandboxState

RESTORE_WINDOW = timedelta(days=7)
TITLE_MAX = 50
DESCRIPTION_MAX = 100
EMOJI_MAX = 50


# --- lifecycle ----------------------------------------------------------------------------------------------


def expired(state: SandboxState, space: Record) -> bool:
    """A deleted space past the restore window: permanently removed."""
    deleted_at = space.get("deletedAt")
    return isinstance(deleted_at, str) and state.clock.now() - parse_iso(deleted_at) > RESTORE_WINDOW


def purge(state: SandboxState, space_id: str) -> None:
    """Remove a space whose restore window has passed, for good, with its content: revisions, change requests
    and comments."""
    space = state.spaces.pop(space_id, None)
    if space is None:
        return
    for store in (state.revisions, state.change_requests, state.comments):
        for key in [k for k, rec in store.items() if rec.get("space") == space_id]:
            del store[key]


def purge_expired(state: SandboxState) -> None:
    """Remove every deleted space past its restore window (lists call it: what is gone stays gone)."""
    for space_id in [sid for sid, s in state.spaces.items() if s.get("deletedAt") and expired(state, s)]:
        purge(state, space_id)


def find_space(state: SandboxState, space_id: str, *, deleted: bool = False) -> Record:
    """The space, or 404. A deleted space is found only with ``deleted=True`` (reading it, restoring it); one
    deleted more than 7 days ago is removed on the spot and never found again."""
    space = state.spaces.get(space_id)
    if space is not None and expired(state, space):
        purge(state, space_id)
        raise not_found(f"The space {space_id!r} was deleted more than 7 days ago and is permanently removed")
    if space is None:
        raise not_found(f"No matching space found for {space_id!r}")
    if space.get("deletedAt") and not deleted:
        raise not_found(f"The space {space_id!r} is deleted (restore it first)")
    return space


def find_collection(state: SandboxState, collection_id: str) -> Record:
    record = state.collections.get(collection_id)
    if record is None:
        raise not_found(f"No matching collection found for {collection_id!r}")
    return record


# --- counts -------------------------------------------------------------------------------------------------


class SpaceCounts:
    """Change request and open comment counts per space, computed in one pass over the stores."""

    def __init__(self, state: SandboxState) -> None:
        self.total: Counter[str] = Counter()
        self.by_status: Counter[tuple[str, str]] = Counter()
        self.comments: Counter[str] = Counter()
        for cr in state.change_requests.values():
            self.total[cr.get("space", "")] += 1
            self.by_status[(cr.get("space", ""), cr.get("status", ""))] += 1
        for comment in state.comments.values():
            if comment.get("status") != "resolved" and not comment.get("changeRequest"):
                self.comments[comment.get("space", "")] += 1


# --- rendering ----------------------------------------------------------------------------------------------


def space_urls(state: SandboxState, space: Record) -> Record:
    org = state.orgs.get(space["organization"], {})
    urls: Record = {
        "location": f"{state.api_base}/spaces/{space['id']}",
        "app": f"{state.app_base}/o/{space['organization']}/s/{space['id']}/",
    }
    if space.get("visibility") != "private":
        host = org.get("hostname") or "docs"
        urls["published"] = f"https://{host}.gitbook.io/{slugify(space.get('title', ''))}/"
    if space.get("visibility") == "public":
        urls["public"] = urls["published"]
    return urls


def space_permissions(state: SandboxState, space: Record, user: str) -> Record:
    rank = rank_of(state, space["organization"], user)
    return {
        "view": rank >= 0 or space.get("visibility") in ("public", "unlisted"),
        "access": rank >= 0,
        "admin": rank >= RANK["admin"],
        "viewInviteLinks": rank >= RANK["admin"],
        "edit": rank >= RANK["edit"] and space.get("editMode") != "locked",
        "triggerGitSync": rank >= RANK["create"] and bool(space.get("gitSync")),
        "comment": rank >= RANK["comment"],
        "merge": rank >= RANK["review"],
        "review": rank >= RANK["review"],
        "installIntegration": rank >= RANK["admin"],
    }


def render_space(state: SandboxState, space: Record, user: str, counts: SpaceCounts | None = None) -> Record:
    """The wire Space (spec 2.5): counts derived from change requests and open comments, permissions for
    ``user`` from their role in the space's organization."""
    counts = counts or SpaceCounts(state)
    sid = space["id"]
    out: Record = {
        "object": "space",
        "id": sid,
        "title": space.get("title", ""),
        "emoji": space.get("emoji") or "",
        "visibility": space.get("visibility", "private"),
        "createdAt": space["createdAt"],
        "updatedAt": space.get("updatedAt") or space["createdAt"],
        "editMode": space.get("editMode", "live"),
        "mergeRules": space.get("mergeRules") or {"type": "inherit"},
        "urls": space_urls(state, space),
        "organization": space["organization"],
        "language": space.get("language") or "en",
        "revision": space.get("revision", ""),
        "defaultLevel": space.get("defaultLevel", "read"),
        "comments": counts.comments[sid],
        "changeRequests": counts.total[sid],
        "changeRequestsOpen": counts.by_status[(sid, "open")],
        "changeRequestsDraft": counts.by_status[(sid, "draft")],
        "permissions": space_permissions(state, space, user),
    }
    for key in ("deletedAt", "parent", "gitSync", "visitorAuth", "icon"):
        if space.get(key):
            out[key] = space[key]
    if space.get("icon"):
        out["urls"]["icon"] = space["icon"]
    return out


def render_collection(state: SandboxState, record: Record, user: str) -> Record:
    rank = rank_of(state, record["organization"], user)
    out: Record = {
        "object": "collection",
        "id": record["id"],
        "title": record.get("title", ""),
        "organization": record["organization"],
        "defaultLevel": record.get("defaultLevel", "read"),
        "urls": {
            "location": f"{state.api_base}/collections/{record['id']}",
            "app": f"{state.app_base}/o/{record['organization']}/c/{record['id']}/",
        },
        "permissions": {
            "view": rank >= 0,
            "admin": rank >= RANK["admin"],
            "viewInviteLinks": rank >= RANK["admin"],
            "create": rank >= RANK["create"],
        },
    }
    if record.get("description") is not None:
        out["description"] = record["description"]
    if record.get("parent"):
        out["parent"] = record["parent"]
    return out


# --- trees and order ----------------------------------------------------------------------------------------


Item = tuple[str, Record]
"""("space" | "collection", record): an item of the sidebar."""


def _sibling_key(item: Item) -> tuple[int, bool, str]:
    return item[1].get("order", 0), item[0] == "space", item[1]["id"]


def live_spaces(state: SandboxState, org: str, parent: Any = ...) -> list[Record]:
    """The organization's spaces that are not deleted (optionally only those under ``parent``), in sidebar
    order (see :func:`sidebar`)."""
    if parent is ...:
        return [record for kind, record in sidebar(state, org) if kind == "space"]
    out = [
        s
        for s in state.spaces.values()
        if s["organization"] == org and not s.get("deletedAt") and s.get("parent") == parent
    ]
    return sorted(out, key=lambda s: _sibling_key(("space", s)))


def org_collections(state: SandboxState, org: str, parent: Any = ...) -> list[Record]:
    """The organization's collections (optionally only those under ``parent``), in sidebar order."""
    if parent is ...:
        return [record for kind, record in sidebar(state, org) if kind == "collection"]
    out = [c for c in state.collections.values() if c["organization"] == org and c.get("parent") == parent]
    return sorted(out, key=lambda c: _sibling_key(("collection", c)))


def siblings(state: SandboxState, org: str, parent: str | None) -> list[Item]:
    """The collections and live spaces directly under ``parent`` (None: the root), in their shared order."""
    items: list[Item] = [("collection", c) for c in org_collections(state, org, parent)]
    items += [("space", s) for s in live_spaces(state, org, parent)]
    return sorted(items, key=_sibling_key)


def sidebar(state: SandboxState, org: str) -> list[Item]:
    """Every collection and live space of the organization in sidebar order: depth first, each level in its
    siblings' order (the ``order`` the moves renumber; a collection before a space on a tie). An item whose
    collection is gone sits at the root."""
    collections = {c["id"]: c for c in state.collections.values() if c["organization"] == org}
    children: dict[str | None, list[Item]] = {}
    for c in collections.values():
        children.setdefault(c.get("parent") if c.get("parent") in collections else None, []).append(("collection", c))
    for s in state.spaces.values():
        if s["organization"] == org and not s.get("deletedAt"):
            children.setdefault(s.get("parent") if s.get("parent") in collections else None, []).append(("space", s))
    out: list[Item] = []
    stack = list(reversed(sorted(children.get(None, []), key=_sibling_key)))
    while stack:
        item = stack.pop()
        out.append(item)
        if item[0] == "collection":
            stack.extend(reversed(sorted(children.get(item[1]["id"], []), key=_sibling_key)))
    return out


def descendants(state: SandboxState, collection_id: str) -> list[Record]:
    """Every collection under this one, at any depth (not the collection itself)."""
    out: list[Record] = []
    frontier = [collection_id]
    while frontier:
        cid = frontier.pop()
        children = [c for c in state.collections.values() if c.get("parent") == cid]
        out.extend(children)
        frontier.extend(c["id"] for c in children)
    return out


def next_order(state: SandboxState, org: str, parent: str | None) -> int:
    orders = [s.get("order", 0) for s in live_spaces(state, org, parent)]
    orders += [c.get("order", 0) for c in org_collections(state, org, parent)]
    return max(orders, default=-1) + 1


# --- request bodies -----------------------------------------------------------------------------------------


def check_default_level(body: dict[str, Any]) -> None:
    if "defaultLevel" in body and body["defaultLevel"] not in (*ROLES, "inherit", None):
        raise bad_request("defaultLevel must be a role (" + ", ".join(ROLES) + "), inherit or null")


def check_merge_rules(value: Any) -> None:
    if not isinstance(value, dict) or value.get("type") not in ("inherit", "rules", "none"):
        raise bad_request("mergeRules must be {type: inherit}, {type: none} or {type: rules, rules: [...]}")
    if value["type"] == "rules":
        rules = value.get("rules")
        if not isinstance(rules, list) or not all(
            isinstance(r, dict) and isinstance(r.get("rule"), str) for r in rules
        ):
            raise bad_request("mergeRules.rules must be a list of {rule, users?}")
