"""Sandbox routes: collections (spec 4.7); their records are in :mod:`folio.sandbox.domain.spaces`.

Deleting a collection removes it and its nested collections; their spaces are deleted as a space is
(restorable for 7 days, back at the root of the organization).
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from folio.sandbox.domain.access import RANK, rank_of
from folio.sandbox.domain.moves import move, transfer_collection
from folio.sandbox.domain.spaces import (
    DESCRIPTION_MAX,
    TITLE_MAX,
    SpaceCounts,
    check_default_level,
    descendants,
    find_collection,
    live_spaces,
    next_order,
    org_collections,
    render_collection,
    render_space,
)
from folio.sandbox.errors import bad_request, forbidden, not_found
from folio.sandbox.http import (
    Handler,
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

routes: list[RouteSpec] = []


def _add(method: str, path: str) -> Callable[[Handler], Handler]:
    def wrap(handler: Handler) -> Handler:
        routes.append(route(method, path)(handler))
        return handler

    return wrap


@_add("GET", "/orgs/{organizationId}/collections")
async def list_collections(request: Request) -> Response:
    state = state_of(request)
    org = request.path_params["organizationId"]
    if org not in state.orgs:
        raise not_found(f"No matching organization found for {org!r}")
    nested = query_bool(request, "nested", True)
    items = org_collections(state, org) if nested else org_collections(state, org, None)
    user = current_user(request)
    return ok(paginate(request, items, lambda c: render_collection(state, c, user)))


@_add("POST", "/orgs/{organizationId}/collections")
async def create_collection(request: Request) -> Response:
    state = state_of(request)
    org = request.path_params["organizationId"]
    if org not in state.orgs:
        raise not_found(f"No matching organization found for {org!r}")
    user = current_user(request)
    body = await json_body(request, required=False)
    title = field_str(body, "title", max=TITLE_MAX) or "Untitled"
    parent = field_str(body, "parent", nullable=True)
    if parent is not None:
        holder = state.collections.get(parent)
        if holder is None or holder["organization"] != org:
            raise bad_request(f"parent: no collection {parent!r} in this organization")
    if rank_of(state, org, user) < RANK["create"]:
        raise forbidden("You cannot create collections in this organization")
    cid = state.new_id()
    state.collections[cid] = {
        "id": cid,
        "organization": org,
        "title": title,
        "description": None,
        "parent": parent,
        "defaultLevel": "inherit",
        "order": next_order(state, org, parent),
    }
    data = render_collection(state, state.collections[cid], user)
    return JSONResponse(data, status_code=201, headers={"Location": data["urls"]["location"]})


@_add("GET", "/collections/{collectionId}")
async def get_collection(request: Request) -> Response:
    state = state_of(request)
    record = find_collection(state, request.path_params["collectionId"])
    return ok(render_collection(state, record, current_user(request)))


@_add("PATCH", "/collections/{collectionId}")
async def update_collection(request: Request) -> Response:
    state = state_of(request)
    record = find_collection(state, request.path_params["collectionId"])
    body = await json_body(request)
    title = field_str(body, "title", max=TITLE_MAX)
    description = field_str(body, "description", max=DESCRIPTION_MAX, nullable=True)
    check_default_level(body)
    if title is not None:
        record["title"] = title
    if "description" in body:
        record["description"] = description
    if "defaultLevel" in body:
        record["defaultLevel"] = body["defaultLevel"]
    return ok(render_collection(state, record, current_user(request)))


@_add("DELETE", "/collections/{collectionId}")
async def delete_collection(request: Request) -> Response:
    state = state_of(request)
    record = state.collections.get(request.path_params["collectionId"])
    if record is None:
        return deleted(False)
    if rank_of(state, record["organization"], current_user(request)) < RANK["admin"]:
        raise forbidden("Only an admin can delete a collection")
    tree = {record["id"], *(c["id"] for c in descendants(state, record["id"]))}
    now = state.now()
    for space in state.spaces.values():
        if space.get("parent") in tree:
            space["parent"] = None
            if not space.get("deletedAt"):
                space["deletedAt"] = now
            if space.get("visibility") == "in-collection":
                space["visibility"] = "private"
    for cid in tree:
        del state.collections[cid]
    return deleted(True)


@_add("GET", "/collections/{collectionId}/spaces")
async def list_collection_spaces(request: Request) -> Response:
    state = state_of(request)
    record = find_collection(state, request.path_params["collectionId"])
    user = current_user(request)
    counts = SpaceCounts(state)
    items = live_spaces(state, record["organization"], record["id"])
    return ok(paginate(request, items, lambda s: render_space(state, s, user, counts)))


@_add("POST", "/collections/{collectionId}/move")
async def move_collection(request: Request) -> Response:
    state = state_of(request)
    record = find_collection(state, request.path_params["collectionId"])
    body = await json_body(request)
    move(state, "collection", record, body)
    return ok(render_collection(state, record, current_user(request)))


@_add("POST", "/collections/{collectionId}/transfer")
async def transfer(request: Request) -> Response:
    state = state_of(request)
    record = find_collection(state, request.path_params["collectionId"])
    body = await json_body(request)
    transfer_collection(state, record, body, current_user(request))
    return ok(render_collection(state, record, current_user(request)))
