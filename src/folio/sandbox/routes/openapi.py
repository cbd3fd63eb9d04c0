"""Sandbox routes: imported OpenAPI specs of an organization (spec section 4.1) and their versions. Members
read them; ``admin`` and ``create`` members add, replace, delete and publish them. Records and processing are
in :mod:`folio.sandbox.domain.openapi`.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain.access import can_edit, org_access
from folio.sandbox.domain.openapi import (
    SLUG_RE,
    add_version,
    find_spec,
    find_version,
    new_spec,
    parse_source,
    render_content,
    render_spec,
    render_version,
    settle,
)
from folio.sandbox.errors import bad_request, conflict, forbidden
from folio.sandbox.http import RouteSpec, created, deleted, json_body, ok, route
from folio.sandbox.limits import MAX_SPEC_BODY_BYTES
from folio.sandbox.paging import paginate
from folio.sandbox.state import Record

BASE = "/orgs/{organizationId}/openapi"


def _require_edit(member: Record) -> None:
    if not can_edit(member):
        raise forbidden("You cannot edit the OpenAPI specifications of this organization")


# --- routes -----------------------------------------------------------------------------------------------


@route("GET", BASE)
async def list_specs(request: Request) -> Response:
    state, org_id, member = org_access(request)
    specs = sorted(state.openapi_specs.get(org_id, {}).values(), key=lambda r: r["slug"])
    return ok(paginate(request, specs, lambda r: render_spec(state, org_id, settle(state, r), member)))


@route("POST", BASE)
async def create_spec(request: Request) -> Response:
    state, org_id, member = org_access(request)
    _require_edit(member)
    body = await json_body(request, max_bytes=MAX_SPEC_BODY_BYTES)
    slug = body.get("slug")
    if "slug" not in body:
        raise bad_request("slug is required")
    if not isinstance(slug, str) or not 1 <= len(slug) <= 100:
        raise bad_request("slug must be a string of 1 to 100 characters")
    if not SLUG_RE.fullmatch(slug):
        raise bad_request(f"slug must match {SLUG_RE.pattern}")
    source = parse_source(body)
    if slug in state.openapi_specs.get(org_id, {}):
        raise conflict(f"An OpenAPI specification with the slug {slug!r} already exists")
    rec = new_spec(state, org_id, slug, source)
    add_version(state, org_id, rec)
    return created(render_spec(state, org_id, rec, member))


@route("GET", BASE + "/{specSlug}")
async def get_spec(request: Request) -> Response:
    state, org_id, member = org_access(request)
    rec = find_spec(state, org_id, request.path_params["specSlug"])
    return ok(render_spec(state, org_id, rec, member))


@route("PUT", BASE + "/{specSlug}")
async def put_spec(request: Request) -> Response:
    state, org_id, member = org_access(request)
    _require_edit(member)
    slug = request.path_params["specSlug"]
    body = await json_body(request, max_bytes=MAX_SPEC_BODY_BYTES)
    source = parse_source(body)
    rec = state.openapi_specs.get(org_id, {}).get(slug)
    if rec is None:
        if len(slug) > 100 or not SLUG_RE.fullmatch(slug):
            raise bad_request(f"specSlug must be 1 to 100 characters matching {SLUG_RE.pattern}")
        rec = new_spec(state, org_id, slug, source)
        add_version(state, org_id, rec)
        return created(render_spec(state, org_id, rec, member))
    rec["source"] = source
    rec["updatedAt"] = state.now()
    add_version(state, org_id, rec)
    return ok(render_spec(state, org_id, rec, member))


@route("DELETE", BASE + "/{specSlug}")
async def delete_spec(request: Request) -> Response:
    state, org_id, member = org_access(request)
    _require_edit(member)
    existed = state.openapi_specs.get(org_id, {}).pop(request.path_params["specSlug"], None) is not None
    return deleted(existed)


@route("PATCH", BASE + "/{specSlug}")
async def update_spec(request: Request) -> Response:
    state, org_id, member = org_access(request)
    body = await json_body(request)
    rec = find_spec(state, org_id, request.path_params["specSlug"])
    _require_edit(member)
    if "visibility" not in body:
        raise bad_request("visibility is required")
    if body["visibility"] not in ("private", "public"):
        raise bad_request("visibility must be one of private, public")
    if rec.get("visibility") != body["visibility"]:
        rec["visibility"] = body["visibility"]
        rec["updatedAt"] = state.now()
    return ok(render_spec(state, org_id, rec, member))


@route("GET", BASE + "/{specSlug}/versions")
async def list_versions(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    rec = find_spec(state, org_id, request.path_params["specSlug"])
    newest_first = list(reversed(rec.get("versions") or []))
    return ok(paginate(request, newest_first, lambda v: render_version(state, org_id, rec, v)))


@route("GET", BASE + "/{specSlug}/versions/latest")
async def latest_version(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    rec = find_spec(state, org_id, request.path_params["specSlug"])
    return ok(render_version(state, org_id, rec, find_version(rec, None)))


@route("GET", BASE + "/{specSlug}/versions/latest/content")
async def latest_version_content(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    rec = find_spec(state, org_id, request.path_params["specSlug"])
    return ok(render_content(state, org_id, rec, find_version(rec, None)))


@route("GET", BASE + "/{specSlug}/versions/{versionId}")
async def get_version(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    rec = find_spec(state, org_id, request.path_params["specSlug"])
    return ok(render_version(state, org_id, rec, find_version(rec, request.path_params["versionId"])))


@route("GET", BASE + "/{specSlug}/versions/{versionId}/content")
async def get_version_content(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    rec = find_spec(state, org_id, request.path_params["specSlug"])
    return ok(render_content(state, org_id, rec, find_version(rec, request.path_params["versionId"])))


routes: list[RouteSpec] = [
    list_specs,
    create_spec,
    get_spec,
    put_spec,
    delete_spec,
    update_spec,
    list_versions,
    latest_version,
    latest_version_content,
    get_version,
    get_version_content,
]
