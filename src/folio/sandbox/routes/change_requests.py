"""Sandbox routes: change requests (spec 4.9 without the content reads): list, create, read, update, merge,
update from main content and the PDF export. Records and operations are in
:mod:`folio.sandbox.domain.change_requests`."""

from __future__ import annotations

from datetime import timedelta

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain.change_requests import (
    KNOWN_STATUSES,
    SUBJECT_MAX,
    TRANSITIONS,
    check_document,
    cr_from_path,
    merge_blockers,
    merge_change_request,
    open_change_request,
    open_comment_counts,
    render_change_request,
    require_rank,
    still_active,
    update_change_request,
)
from folio.sandbox.domain.spaces import find_space
from folio.sandbox.errors import bad_request, conflict, not_found
from folio.sandbox.http import RouteSpec, current_user, empty, field_str, json_body, ok, query_bool, route, state_of
from folio.sandbox.paging import paginate
from folio.sandbox.revisions import find_page
from folio.sandbox.state import Record, SandboxState


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
    if blockers := merge_blockers(state, cr, user):
        # 409, as for a change request that is merged or archived: the request is sound, the change request's state
        # (its reviews, its subject...) is what stands in the way, and it can change.
        raise conflict("The merge rules are not met: " + "; ".join(blockers) + ".")
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


routes: list[RouteSpec] = [
    list_change_requests,
    list_org_change_requests,
    create_change_request,
    get_change_request,
    patch_change_request,
    merge,
    update,
    pdf,
]
