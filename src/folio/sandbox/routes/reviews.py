"""Sandbox routes: what review reads and writes on a change request — its semantic change list, reviews and
requested reviewers (operations from the public OpenAPI description). Listed in the ``routes`` of
:mod:`folio.sandbox.routes.change_requests`, where the records are described.
"""

from __future__ import annotations

import hashlib
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from folio.models.common import document_text
from folio.sandbox.errors import bad_request, forbidden, not_found
from folio.sandbox.http import (
    RouteSpec,
    current_user,
    deleted,
    field_str,
    json_body,
    ok,
    query_bool,
    route,
    state_of,
)
from folio.sandbox.paging import paginate
from folio.sandbox.revisions import diff_pages, flat
from folio.sandbox.routes.change_requests import (
    SUBJECT_MAX,
    base_revision_id,
    check_document,
    cr_from_path,
    require_rank,
    still_active,
)
from folio.sandbox.routes.space_records import RANK, rank_of
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


@route("GET", "/spaces/{spaceId}/change-requests/{changeRequestId}/changes")
async def changes(request: Request) -> Response:
    state, cr = state_of(request), cr_from_path(request)
    try:
        limit = int(float(request.query_params.get("limit", "10")))
    except ValueError:
        raise bad_request("limit must be a number") from None
    if not 1 <= limit <= 1000:
        raise bad_request("limit must be between 1 and 1000")
    base, pages = state.revisions[base_revision_id(cr)]["pages"], state.revisions[cr["revision"]]["pages"]
    items = render_changes(base, pages)
    body: Record = {"changes": items[:limit]}
    if len(items) > limit:
        body["more"] = len(items) - limit
    return ok(body)


def document(text: str) -> Record:
    """A rich-text document of one paragraph per line of ``text``."""
    leaves = [
        {"object": "text", "leaves": [{"object": "leaf", "text": line, "marks": []}]} for line in text.split("\n")
    ]
    nodes = [{"object": "block", "type": "paragraph", "data": {}, "nodes": [leaf]} for leaf in leaves]
    return {"object": "document", "data": {"schemaVersion": 1}, "nodes": nodes}


def _cr_location(state: SandboxState, cr: Record) -> str:
    return f"{state.api_base}/spaces/{cr['space']}/change-requests/{cr['id']}"


# --- reviews ------------------------------------------------------------------------------------------------


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


def _format(request: Request) -> str | None:
    fmt = request.query_params.get("format")
    if fmt not in (None, "document", "markdown"):
        raise bad_request("format must be document or markdown")
    return fmt


def _comment_text(value: Any) -> str | None:
    if value is None or value == {}:
        return None
    if isinstance(value, dict) and isinstance(value.get("markdown"), str):
        return value["markdown"] or None
    if isinstance(value, dict) and isinstance(value.get("document"), dict):
        return document_text(value["document"]) or None
    raise bad_request("comment must be {markdown}, {document} or {}")


@route("GET", "/spaces/{spaceId}/change-requests/{changeRequestId}/reviews")
async def list_reviews(request: Request) -> Response:
    state, cr, fmt, user = state_of(request), cr_from_path(request), _format(request), current_user(request)
    outdated = query_bool(request, "outdated")
    items = [r for r in reversed(cr.get("reviews") or []) if outdated in (None, bool(r.get("outdated")))]
    return ok(paginate(request, items, lambda r: render_review(state, cr, r, user, fmt)))


@route("GET", "/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}")
async def get_review(request: Request) -> Response:
    state, cr, fmt = state_of(request), cr_from_path(request), _format(request)
    review_id = request.path_params["reviewId"]
    for review in cr.get("reviews") or []:
        if review["id"] == review_id:
            return ok(render_review(state, cr, review, current_user(request), fmt))
    raise not_found(f"No matching review found for {review_id!r}")


@route("POST", "/spaces/{spaceId}/change-requests/{changeRequestId}/reviews")
async def submit_review(request: Request) -> Response:
    state, cr, user = state_of(request), cr_from_path(request), current_user(request)
    body = await json_body(request)
    status = body.get("status")
    if status not in REVIEW_STATUSES:
        raise bad_request("status must be approved or changes-requested")
    text = _comment_text(body.get("comment"))
    still_active(cr, "reviewed")
    org = state.spaces[cr["space"]]["organization"]
    if rank_of(state, org, user) < RANK["review"] and user not in cr.get("requestedReviewers", []):
        raise forbidden("Only requested reviewers and members with the review role or above can review")
    rendered = render_review(state, cr, add_review(state, cr, user, status, text), user)
    response = ok(rendered, 201)
    response.headers["Location"] = rendered["urls"]["location"]
    return response


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


@route("GET", "/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers")
async def list_requested(request: Request) -> Response:
    state, cr = state_of(request), cr_from_path(request)
    uids = list(cr.get("requestedReviewers") or [])
    return ok(paginate(request, uids, lambda uid: render_requested(state, cr, uid)))


@route("POST", "/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers")
async def request_reviewers(request: Request) -> Response:
    state, cr, user = state_of(request), cr_from_path(request), current_user(request)
    body = await json_body(request)
    users = body.get("users")
    if not isinstance(users, list) or not users or not all(isinstance(u, str) for u in users):
        raise bad_request("users must be a non-empty array of user ids")
    org = state.spaces[cr["space"]]["organization"]
    strangers = [uid for uid in users if uid not in state.members.get(org, {})]
    if strangers:
        raise bad_request(f"users: {strangers[0]!r} is not a member of the organization")
    subject = field_str(body, "subject", max=SUBJECT_MAX)
    description = check_document(body, "description")
    still_active(cr, "reviewed")
    require_rank(state, cr, user, "edit", "ask for reviews")
    cr.update({k: v for k, v in (("subject", subject), ("description", description)) if v is not None})
    for uid in dict.fromkeys(users):
        request_review(state, cr, uid, user)
    return ok({"users": [render_requested(state, cr, uid) for uid in dict.fromkeys(users)]})


@route("DELETE", "/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}")
async def remove_requested(request: Request) -> Response:
    state, cr, uid = state_of(request), cr_from_path(request), request.path_params["userId"]
    existed = uid in (cr.get("requestedReviewers") or [])
    if existed:
        require_rank(state, cr, current_user(request), "edit", "withdraw a review request")
        cr["requestedReviewers"].remove(uid)
        (cr.get("reviewRequests") or {}).pop(uid, None)
        cr["updatedAt"] = state.now()
    return deleted(existed)


routes: list[RouteSpec] = [
    changes,
    list_reviews,
    get_review,
    submit_review,
    list_requested,
    request_reviewers,
    remove_requested,
]
