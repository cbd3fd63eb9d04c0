"""Sandbox routes: what review reads and writes on a change request — its semantic change list, reviews and
requested reviewers (operations from the public OpenAPI description). Records and rules are in
:mod:`folio.sandbox.domain.reviews`.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from folio.models.common import document_text
from folio.sandbox.domain.access import RANK, rank_of
from folio.sandbox.domain.change_requests import (
    SUBJECT_MAX,
    base_revision_id,
    check_document,
    cr_from_path,
    require_rank,
    still_active,
)
from folio.sandbox.domain.reviews import (
    REVIEW_STATUSES,
    add_review,
    render_changes,
    render_requested,
    render_review,
    request_review,
)
from folio.sandbox.errors import bad_request, forbidden, not_found
from folio.sandbox.http import (
    RouteSpec,
    current_user,
    deleted,
    field_str,
    json_body,
    ok,
    query_bool,
    query_int,
    route,
    state_of,
)
from folio.sandbox.paging import MAX_LIMIT, paginate
from folio.sandbox.state import Record

# --- the change list ----------------------------------------------------------------------------------------


@route("GET", "/spaces/{spaceId}/change-requests/{changeRequestId}/changes")
async def changes(request: Request) -> Response:
    state, cr = state_of(request), cr_from_path(request)
    limit = query_int(request, "limit", 10, min=1, max=MAX_LIMIT)
    base, pages = state.revisions[base_revision_id(cr)]["pages"], state.revisions[cr["revision"]]["pages"]
    items = render_changes(base, pages)
    body: Record = {"changes": items[:limit]}
    if len(items) > limit:
        body["more"] = len(items) - limit
    return ok(body)


# --- reviews ------------------------------------------------------------------------------------------------


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
