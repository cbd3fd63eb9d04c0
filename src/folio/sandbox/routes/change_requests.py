"""Sandbox routes: change requests (spec 2.6, 4.9 without the content reads): records, merge and update.

A record in ``state.change_requests`` holds the keys documented in :mod:`folio.sandbox.state` and these of its
own: ``contributors`` (user ids), ``reviewRequests`` (user id -> ``{requestedBy, revision, createdAt}``, the
details of ``requestedReviewers``) and ``conversationsIssuesCluster``. A review (in ``reviews``) is
``{id, reviewer, requestedBy, status, revision, outdated, comment, createdAt, updatedAt}``; its ``comment`` is
None or ``{id, body (markdown), postedAt}``.

``outdated`` is derived: the space's current revision is no longer the one the change request starts from
(``revisionMergedAncestor``, else ``revisionInitial``). A merge revision carries ``mergedFrom`` (the change
request id). The review routes live in :mod:`folio.sandbox.routes.reviews`; ``routes`` here holds both.
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.errors import bad_request, conflict, forbidden, not_found
from folio.sandbox.http import RouteSpec, current_user, empty, field_str, json_body, ok, query_bool, route, state_of
from folio.sandbox.paging import paginate
from folio.sandbox.revisions import clone_pages, find_page, keep_edits, new_revision, three_way
from folio.sandbox.routes.space_records import RANK, find_space, rank_of
from folio.sandbox.state import Record, SandboxState

KNOWN_STATUSES = ("draft", "open", "archived", "merged")
SUBJECT_MAX = 100
# The status changes a PATCH may make; merging goes through the merge operation.
TRANSITIONS: dict[str, tuple[str, ...]] = {
    "draft": ("open", "archived"),
    "open": ("draft", "archived"),
    "archived": ("open",),
    "merged": (),
}

# --- records ------------------------------------------------------------------------------------------------


def find_change_request(state: SandboxState, space_id: str, ref: str) -> Record:
    """The change request of a live space, by id or by number (404 when neither matches)."""
    find_space(state, space_id)
    record = state.change_requests.get(ref)
    if record is not None and record["space"] == space_id:
        return record
    if ref.isdigit():
        for record in state.change_requests.values():
            if record["space"] == space_id and record["number"] == int(ref):
                return record
    raise not_found(f"No matching change request found for {ref!r}")


def require_rank(state: SandboxState, cr_or_space: Record, user: str, role: str, doing: str) -> None:
    """403 unless ``user``'s role in the space's organization is at least ``role``."""
    space = state.spaces[cr_or_space.get("space") or cr_or_space["id"]]
    if rank_of(state, space["organization"], user) < RANK[role]:
        raise forbidden(f"You need the {role} role or above to {doing}")


def base_revision_id(cr: Record) -> str:
    return cr.get("revisionMergedAncestor") or cr["revisionInitial"]


def is_outdated(state: SandboxState, cr: Record) -> bool:
    return cr["status"] != "merged" and state.spaces[cr["space"]]["revision"] != base_revision_id(cr)


def open_comment_counts(state: SandboxState) -> Counter[str]:
    """Change request id -> how many of its comments are not resolved."""
    return Counter(
        c["changeRequest"] for c in state.comments.values() if c.get("changeRequest") and c.get("status") != "resolved"
    )


def render_change_request(state: SandboxState, cr: Record, counts: Counter[str] | None = None) -> Record:
    """The wire ChangeRequest of a record (``counts``: :func:`open_comment_counts`, when rendering many)."""
    org = state.spaces[cr["space"]]["organization"]
    out: Record = {
        "object": "change-request",
        "id": cr["id"],
        "number": cr["number"],
        "status": cr["status"],
        "subject": cr.get("subject") or "",
        "createdBy": state.user_json(cr["createdBy"]),
        "createdAt": cr["createdAt"],
        "updatedAt": cr["updatedAt"],
        "space": cr["space"],
        "revision": cr["revision"],
        "revisionInitial": cr["revisionInitial"],
        "comments": (counts if counts is not None else open_comment_counts(state)).get(cr["id"], 0),
        "outdated": is_outdated(state, cr),
        "urls": {
            "app": f"{state.app_base}/o/{org}/s/{cr['space']}/~/changes/{cr['number']}/",
            "location": f"{state.api_base}/spaces/{cr['space']}/change-requests/{cr['id']}",
        },
    }
    for key in ("description", "revisionMergedAncestor", "revisionMerged", "mergedAt", "conversationsIssuesCluster"):
        if cr.get(key):
            out[key] = cr[key]
    if cr.get("mergedBy"):
        out["mergedBy"] = state.user_json(cr["mergedBy"])
    return out


def check_document(body: dict[str, Any], name: str) -> Record | None:
    """A rich-text document field of a request body (400 naming the field when it is not one)."""
    value = body.get(name)
    if name in body and not (
        isinstance(value, dict) and value.get("object") == "document" and isinstance(value.get("nodes"), list)
    ):
        raise bad_request(f"{name} must be a document ({{object: document, data, nodes}})")
    return value


# --- what the operations do (the seed does them too) --------------------------------------------------------


def open_change_request(
    state: SandboxState,
    space_id: str,
    user: str,
    *,
    subject: str = "",
    number: int | None = None,
    at: str | None = None,
) -> Record:
    """A new draft on the space's current revision; its own revision is a copy of it."""
    initial = state.revisions[state.spaces[space_id]["revision"]]
    when = at or state.now()
    revision = new_revision(
        state,
        space_id,
        clone_pages(initial["pages"]),
        parents=[initial["id"]],
        at=when,
        files=[dict(f) for f in initial.get("files") or []],
        variables=dict(initial.get("variables") or {}),
    )
    if number is None:
        numbers = (c["number"] for c in state.change_requests.values() if c["space"] == space_id)
        number = 1 + max(numbers, default=0)
    record: Record = {
        "id": state.new_id(),
        "space": space_id,
        "number": number,
        "status": "draft",
        "subject": subject,
        "description": None,
        "createdBy": user,
        "createdAt": when,
        "updatedAt": when,
        "revision": revision,
        "revisionInitial": initial["id"],
        "revisionMergedAncestor": None,
        "revisionMerged": None,
        "mergedBy": None,
        "mergedAt": None,
        "requestedReviewers": [],
        "reviewRequests": {},
        "reviews": [],
        "contributors": [user],
        "conversationsIssuesCluster": None,
    }
    state.change_requests[record["id"]] = record
    return record


def merge_change_request(state: SandboxState, cr: Record, user: str, *, at: str | None = None) -> str:
    """The change request's changes since its base, applied onto the space's current content as a new space
    revision of type ``merge``; the change request becomes ``merged``. Returns the new revision's id."""
    space = state.spaces[cr["space"]]
    base, main = state.revisions[base_revision_id(cr)], state.revisions[space["revision"]]
    theirs = state.revisions[cr["revision"]]
    pages = three_way(base["pages"], main["pages"], theirs["pages"])
    when = at or state.now()
    rid = new_revision(  # change requests cannot change files or variables here: main's stay
        state,
        cr["space"],
        pages,
        parents=[main["id"], theirs["id"]],
        rev_type="merge",
        at=when,
        message=f"Merge change request #{cr['number']}: {cr.get('subject') or 'Untitled'}",
        files=[dict(f) for f in main.get("files") or []],
        variables=dict(main.get("variables") or {}),
        extra={"mergedFrom": cr["id"]},
    )
    space.update(revision=rid, updatedAt=when)
    cr.update(status="merged", revisionMerged=rid, mergedBy=user, mergedAt=when, updatedAt=when)
    return rid


def update_change_request(state: SandboxState, cr: Record, *, at: str | None = None) -> str:
    """Main's changes since the change request's base brought into it (its own edits and moves win), as a new
    revision of type ``update``. Returns the change request's revision (the same when it was up to date)."""
    main_id = state.spaces[cr["space"]]["revision"]
    if main_id == base_revision_id(cr):
        return str(cr["revision"])
    base, main = state.revisions[base_revision_id(cr)], state.revisions[main_id]
    ours = state.revisions[cr["revision"]]
    pages = three_way(base["pages"], ours["pages"], main["pages"])
    keep_edits(base["pages"], ours["pages"], pages)
    when = at or state.now()
    rid = new_revision(
        state,
        cr["space"],
        pages,
        parents=[ours["id"], main_id],
        rev_type="update",
        at=when,
        message="Update from main content",
        files=[dict(f) for f in main.get("files") or []],
        variables=dict(main.get("variables") or {}),
    )
    cr.update(revision=rid, revisionMergedAncestor=main_id, updatedAt=when)
    return rid


# --- routes -------------------------------------------------------------------------------------------------


def _listed(request: Request, state: SandboxState, spaces: set[str]) -> Record:
    q = request.query_params
    statuses = {part for raw in q.getlist("status") for part in raw.split(",") if part} or {"open"}
    if statuses - set(KNOWN_STATUSES):
        raise bad_request("status must be one of " + ", ".join(KNOWN_STATUSES))
    order_by = q.get("orderBy", "updatedAt")
    if order_by not in ("updatedAt", "createdAt"):
        raise bad_request("orderBy must be updatedAt or createdAt")
    items = [c for c in state.change_requests.values() if c["space"] in spaces and c["status"] in statuses]
    if creator := q.get("creator"):
        items = [c for c in items if c["createdBy"] == creator]
    if contributor := q.get("contributor"):
        items = [c for c in items if contributor in (c.get("contributors") or [c["createdBy"]])]
    if reviewer := q.get("requestedReviewer"):
        items = [c for c in items if reviewer in (c.get("requestedReviewers") or [])]
    if cluster := q.get("conversationsIssuesCluster"):
        items = [c for c in items if c.get("conversationsIssuesCluster") == cluster]
    items.sort(key=lambda c: (c[order_by], c["number"]), reverse=True)
    counts = open_comment_counts(state)
    return paginate(request, items, lambda c: render_change_request(state, c, counts))


def cr_from_path(request: Request) -> Record:
    """The change request the path names."""
    params = request.path_params
    return find_change_request(state_of(request), params["spaceId"], params["changeRequestId"])


def still_active(cr: Record, doing: str) -> None:
    if cr["status"] in ("merged", "archived"):
        raise conflict(f"The change request is {cr['status']}: it cannot be {doing}")


@route("GET", "/spaces/{spaceId}/change-requests")
async def list_change_requests(request: Request) -> Response:
    state = state_of(request)
    space = find_space(state, request.path_params["spaceId"])
    return ok(_listed(request, state, {space["id"]}))


@route("GET", "/orgs/{organizationId}/change-requests")
async def list_org_change_requests(request: Request) -> Response:
    state = state_of(request)
    org = request.path_params["organizationId"]
    if org not in state.orgs:
        raise not_found(f"No matching organization found for {org!r}")
    spaces = {sid for sid, s in state.spaces.items() if s["organization"] == org and not s.get("deletedAt")}
    if only := request.query_params.get("space"):
        spaces &= {only}
    return ok(_listed(request, state, spaces))


@route("POST", "/spaces/{spaceId}/change-requests")
async def create_change_request(request: Request) -> Response:
    state, user = state_of(request), current_user(request)
    space = find_space(state, request.path_params["spaceId"])
    body = await json_body(request, required=False)
    subject = field_str(body, "subject", max=SUBJECT_MAX) or ""
    template = body.get("template")
    if template is not None and not (isinstance(template, dict) and isinstance(template.get("id"), str)):
        raise bad_request("template must be an object with a string id")
    require_rank(state, space, user, "edit", "create a change request")
    rendered = render_change_request(state, open_change_request(state, space["id"], user, subject=subject))
    response = ok(rendered, 201)
    response.headers["Location"] = rendered["urls"]["location"]
    return response


@route("GET", "/spaces/{spaceId}/change-requests/{changeRequestId}")
async def get_change_request(request: Request) -> Response:
    return ok(render_change_request(state_of(request), cr_from_path(request)))


@route("PATCH", "/spaces/{spaceId}/change-requests/{changeRequestId}")
async def patch_change_request(request: Request) -> Response:
    state, cr, user = state_of(request), cr_from_path(request), current_user(request)
    body = await json_body(request)
    subject = field_str(body, "subject", max=SUBJECT_MAX)
    description = check_document(body, "description")
    status = body.get("status")
    if "status" in body and (not isinstance(status, str) or status not in ("draft", "open", "archived")):
        raise bad_request("status must be one of draft, open, archived (merging is the merge operation)")
    require_rank(state, cr, user, "edit", "change a change request")
    if status is not None and status != cr["status"] and status not in TRANSITIONS[cr["status"]]:
        raise conflict(f"A change request cannot go from {cr['status']} to {status}")
    changes = {
        k: v for k, v in (("subject", subject), ("description", description), ("status", status)) if v is not None
    }
    if any(cr.get(k) != v for k, v in changes.items()):
        cr.update(changes, updatedAt=state.now())
    if request.headers.get("prefer", "").replace(" ", "") == "return=minimal":
        response = empty(204)
        response.headers["Preference-Applied"] = "return=minimal"
        return response
    return ok(render_change_request(state, cr))


@route("POST", "/spaces/{spaceId}/change-requests/{changeRequestId}/merge")
async def merge(request: Request) -> Response:
    state, cr, user = state_of(request), cr_from_path(request), current_user(request)
    still_active(cr, "merged")
    require_rank(state, cr, user, "review", "merge a change request")
    return ok({"revision": merge_change_request(state, cr, user), "result": "merge"})


@route("POST", "/spaces/{spaceId}/change-requests/{changeRequestId}/update")
async def update(request: Request) -> Response:
    state, cr = state_of(request), cr_from_path(request)
    still_active(cr, "updated")
    require_rank(state, cr, current_user(request), "edit", "update a change request")
    return ok({"revision": update_change_request(state, cr), "result": "update"})


@route("GET", "/spaces/{spaceId}/change-requests/{changeRequestId}/pdf")
async def pdf(request: Request) -> Response:
    state, cr = state_of(request), cr_from_path(request)
    only, page = query_bool(request, "only", False), request.query_params.get("page")
    if only and not page:
        raise bad_request("page is required when only is true")
    if page and find_page(state.revisions[cr["revision"]]["pages"], page) is None:
        raise not_found(f"No matching page found for {page!r}")
    expires = state.clock.iso(state.clock.now() + timedelta(hours=1))
    query = f"token={state.new_id(32)}&expires={expires}" + (f"&page={page}&only={str(only).lower()}" * bool(page))
    return ok({"url": f"{state.app_base}/__pdf/spaces/{cr['space']}/change-requests/{cr['id']}.pdf?{query}"})


_routes: list[RouteSpec] = [
    list_change_requests,
    list_org_change_requests,
    create_change_request,
    get_change_request,
    patch_change_request,
    merge,
    update,
    pdf,
]


def __getattr__(name: str) -> Any:
    # ``routes`` adds the review routes, read lazily: routes.reviews builds on this module.
    if name == "routes":
        from folio.sandbox.routes.reviews import routes as review_routes

        return [*_routes, *review_routes]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
