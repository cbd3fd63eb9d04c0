"""Reviews of change requests (operations from the public OpenAPI description): the semantic change list of a
change request, reviews and requested reviewers, rendered to the wire; and what submitting a review and asking
for one do (the routes and the seed share them).

A review (in a change request's ``reviews``) is ``{id, reviewer, requestedBy, status, revision, outdated,
comment, createdAt, updatedAt}``; its ``comment`` is None or ``{id, body (markdown), postedAt}``. A new review
outdates the reviewer's earlier ones and fulfils their review request; asking for a review outdates the
reviewer's earlier reviews and opens a draft.
"""

from __future__ import annotations

import hashlib
from typing import Any

from folio.sandbox.revisions import diff_pages, flat
from folio.sandbox.state import Record, SandboxState

REVIEW_STATUSES = ("approved", "changes-requested")

# --- the change list ----------------------------------------------------------------------------------------


def _page(entry: tuple[Record, str | None, str, int]) -> Record:
    page, _, path, _ = entry
    return {
        "id": page["id"],
        "type": page.get("type") or "document",
        "title": page.get("title") or "",
        "path": path,
    }


def _value(page: Record, field: str) -> Any:
    value = page.get(field)
    if field == "markdown" and value is not None:
        # The service names a page's document by id, not by content: a digest of the markdown stands in.
        return "doc-" + hashlib.sha1(value.encode()).hexdigest()[:16]
    return value


def _attribute(old: Any, new: Any) -> Record:
    return {side: v for side, v in (("before", old), ("after", new)) if v is not None}


def render_changes(base: list[Record], pages: list[Record]) -> list[Record]:
    """The semantic changes from one page tree to another, in the service's change item shapes."""
    before, after = flat(base), flat(pages)
    edited: set[str] = set()
    out: list[Record] = []
    for change in diff_pages(base, pages):
        pid, kind = change["page"], change["type"]
        if kind == "page_created":
            out.append({"type": kind, "page": _page(after[pid])})
        elif kind == "page_deleted":
            out.append({"type": kind, "page": _page(before[pid])})
        elif kind == "page_edited":
            edited.add(pid)
            attributes = {
                ("document" if f == "markdown" else f): _attribute(_value(before[pid][0], f), _value(after[pid][0], f))
                for f in change.get("fields") or []
                if f != "type"
            }
            if attributes:
                out.append({"type": kind, "page": _page(after[pid]), "attributes": attributes})
        elif kind == "page_moved":
            parents = {}
            for side, tree in (("before", before), ("after", after)):
                holder = tree.get(tree[pid][1] or "")
                if holder is not None:
                    parents[side] = _page(holder)
            out.append({"type": kind, "page": _page(after[pid]), "parent": parents})
    return out


# --- reviews ------------------------------------------------------------------------------------------------


def document(text: str) -> Record:
    """A rich-text document of one paragraph per line of ``text``."""
    leaves = [
        {"object": "text", "leaves": [{"object": "leaf", "text": line, "marks": []}]} for line in text.split("\n")
    ]
    nodes = [{"object": "block", "type": "paragraph", "data": {}, "nodes": [leaf]} for leaf in leaves]
    return {"object": "document", "data": {"schemaVersion": 1}, "nodes": nodes}


def _cr_location(state: SandboxState, cr: Record) -> str:
    return f"{state.api_base}/spaces/{cr['space']}/change-requests/{cr['id']}"


def _render_comment(state: SandboxState, cr: Record, review: Record, user: str, fmt: str | None) -> Record:
    comment, mine = review["comment"], review["reviewer"] == user
    text = comment["body"]
    return {
        "object": "comment",
        "id": comment["id"],
        "postedBy": state.user_json(review["reviewer"]),
        "postedAt": comment["postedAt"],
        "reactions": [],
        "replies": 0,
        "repliers": [],
        "body": {"document": document(text)} if fmt == "document" else {"markdown": text},
        "target": {
            "space": cr["space"],
            "revision": review["revision"],
            "changeRequest": cr["id"],
            "review": review["id"],
        },
        "urls": {"location": f"{_cr_location(state, cr)}/comments/{comment['id']}"},
        "permissions": {"view": True, "edit": mine, "reply": True, "delete": mine},
        "status": "open",
    }


def render_review(state: SandboxState, cr: Record, review: Record, user: str, fmt: str | None = None) -> Record:
    """The wire ChangeRequestReview (its comment as a Comment, in markdown or as a ``document``)."""
    out: Record = {
        "object": "change-request-review",
        "id": review["id"],
        "revision": review["revision"],
        "reviewer": state.user_json(review["reviewer"]),
        "status": review["status"],
        "outdated": bool(review.get("outdated")),
        "createdAt": review["createdAt"],
        "updatedAt": review.get("updatedAt") or review["createdAt"],
        "urls": {"location": f"{_cr_location(state, cr)}/reviews/{review['id']}"},
    }
    if review.get("requestedBy"):
        out["requestedBy"] = state.user_json(review["requestedBy"])
    if review.get("comment"):
        out["comment"] = _render_comment(state, cr, review, user, fmt)
    return out


def add_review(
    state: SandboxState, cr: Record, user: str, status: str, text: str | None, *, at: str | None = None
) -> Record:
    """A review against the change request's current revision: the reviewer's earlier reviews become outdated
    and their review request is fulfilled (the seed reviews this way too)."""
    when = at or state.now()
    for earlier in cr.setdefault("reviews", []):
        if earlier["reviewer"] == user:
            earlier["outdated"] = True
    asked = (cr.get("reviewRequests") or {}).pop(user, None) or {}
    if user in cr.get("requestedReviewers", []):
        cr["requestedReviewers"].remove(user)
    review: Record = {
        "id": state.new_id(),
        "reviewer": user,
        "requestedBy": asked.get("requestedBy"),
        "status": status,
        "revision": cr["revision"],
        "outdated": False,
        "createdAt": when,
        "updatedAt": when,
        "comment": {"id": state.new_id(), "body": text, "postedAt": when} if text else None,
    }
    cr["reviews"].append(review)
    cr["updatedAt"] = when
    return review


# --- requested reviewers ------------------------------------------------------------------------------------


def render_requested(state: SandboxState, cr: Record, uid: str) -> Record:
    asked = (cr.get("reviewRequests") or {}).get(uid) or {}
    return {
        "object": "change-request-requested-reviewer",
        "kind": "user",
        "user": state.user_json(uid),
        "revision": asked.get("revision") or cr["revision"],
        "requestedBy": state.user_json(asked.get("requestedBy") or cr["createdBy"]),
        "createdAt": asked.get("createdAt") or cr["updatedAt"],
    }


def request_review(state: SandboxState, cr: Record, uid: str, by: str, *, at: str | None = None) -> None:
    """Ask ``uid`` to review: their earlier reviews become outdated and a draft is opened for review (the
    seed asks this way too)."""
    when = at or state.now()
    if uid not in cr.setdefault("requestedReviewers", []):
        cr["requestedReviewers"].append(uid)
    cr.setdefault("reviewRequests", {})[uid] = {
        "requestedBy": by,
        "revision": cr["revision"],
        "createdAt": when,
    }
    for review in cr.get("reviews") or []:
        if review["reviewer"] == uid:
            review["outdated"] = True
    if cr["status"] == "draft":
        cr["status"] = "open"
    cr["updatedAt"] = when
