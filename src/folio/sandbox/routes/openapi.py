"""Sandbox routes: imported OpenAPI specs of an organization (spec section 4.1) and their versions.

Records live in ``state.openapi_specs[org][slug]``: ``{id, slug, createdAt, updatedAt, source ({url} or
{text}), visibility, processingState, lastProcessedAt, lastProcessErrorCode, lastProcessedErrors,
versions: [...]}``; a version is ``{id, createdAt, url, document}``.

Processing, deterministically: every write of a source (POST, PUT) adds a version, points ``lastVersion`` at
it and leaves the spec ``pending`` (that is what the write answers). The next request that reads or patches
the spec settles it to ``complete``, with or without a processing error (the outcome follows the source: see
:mod:`folio.sandbox.seed.openapi`).

Also the helpers the area's other route modules share: :func:`org_access` and :func:`can_edit`.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.errors import bad_request, conflict, forbidden, not_found
from folio.sandbox.http import RouteSpec, created, current_user, deleted, json_body, ok, route, state_of
from folio.sandbox.paging import paginate
from folio.sandbox.seed.openapi import add_version, new_spec, settle
from folio.sandbox.state import Record, SandboxState

SLUG_RE = re.compile(r"^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$")
URL_MAX = 2048
EDIT_ROLES = ("admin", "create")
BASE = "/orgs/{organizationId}/openapi"


# --- shared by the area's routes --------------------------------------------------------------------------


def org_access(request: Request) -> tuple[SandboxState, str, Record]:
    """(state, organization id, the caller's membership): 404 for an unknown organization, 403 outsiders."""
    state = state_of(request)
    org_id = request.path_params["organizationId"]
    if org_id not in state.orgs:
        raise not_found(f"No matching organization found for {org_id!r}")
    member = state.members.get(org_id, {}).get(current_user(request))
    if member is None:
        raise forbidden("You are not a member of this organization")
    return state, org_id, member


def can_edit(member: Record) -> bool:
    return member.get("role") in EDIT_ROLES


def check_uri(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise bad_request(f"{name} must be a string")
    if len(value) > URL_MAX:
        raise bad_request(f"{name} must be at most {URL_MAX} characters")
    parts = urlsplit(value)
    if not parts.scheme or not parts.netloc:
        raise bad_request(f"{name} must be an absolute URI")
    return value


def parse_source(body: dict[str, Any]) -> Record:
    """The ``source`` one-of: ``{url}`` or ``{text}``."""
    if "source" not in body:
        raise bad_request("source is required")
    source = body["source"]
    if not isinstance(source, dict):
        raise bad_request("source must be an object: {url} or {text}")
    if "url" in source:
        return {"url": check_uri("source.url", source["url"])}
    if "text" in source:
        text = source["text"]
        if not isinstance(text, str) or not text:
            raise bad_request("source.text must be a non-empty string")
        return {"text": text}
    raise bad_request("source must be one of {url} or {text}")


# --- rendering --------------------------------------------------------------------------------------------


def spec_urls(state: SandboxState, org_id: str, rec: Record) -> Record:
    urls = {
        "location": f"{state.api_base}/orgs/{org_id}/openapi/{rec['slug']}",
        "app": f"{state.app_base}/o/{org_id}/openapi/{rec['slug']}",
    }
    if rec.get("visibility") == "public":
        urls["published"] = f"{state.app_base}/public/openapi/{org_id}/{rec['slug']}"
    return urls


def render_spec(state: SandboxState, org_id: str, rec: Record, member: Record) -> Record:
    problems = list(rec.get("lastProcessedErrors") or [])
    out: Record = {
        "object": "openapi-spec",
        "id": rec["id"],
        "createdAt": rec["createdAt"],
        "updatedAt": rec["updatedAt"],
        "slug": rec["slug"],
        "processingState": rec["processingState"],
        "visibility": rec.get("visibility", "private"),
        "lastProcessedErrors": problems,
        "lastProcessedErrorCount": len(problems),
        "permissions": {"view": True, "edit": can_edit(member)},
        "urls": spec_urls(state, org_id, rec),
    }
    if "url" in rec["source"]:
        out["sourceURL"] = rec["source"]["url"]
    for key in ("lastVersion", "lastProcessedAt", "lastProcessErrorCode"):
        if rec.get(key) is not None:
            out[key] = rec[key]
    return out


def render_version(state: SandboxState, org_id: str, rec: Record, version: Record) -> Record:
    return {
        "object": "openapi-spec-version",
        "id": version["id"],
        "createdAt": version["createdAt"],
        "url": version["url"],
        "urls": {"location": f"{state.api_base}/orgs/{org_id}/openapi/{rec['slug']}/versions/{version['id']}"},
    }


def render_content(state: SandboxState, org_id: str, rec: Record, version: Record) -> Record:
    name = "openapi.json" if isinstance(version["document"], dict) else "openapi.yaml"
    public = spec_urls(state, org_id, rec).get("published")
    return {
        "filesystem": {"entrypoint": name, "files": {name: version["document"]}},
        "url": version["url"],
        "urls": {"source": version["url"], "public": public},
    }


# --- lookups ----------------------------------------------------------------------------------------------


def _spec(state: SandboxState, org_id: str, slug: str) -> Record:
    rec = state.openapi_specs.get(org_id, {}).get(slug)
    if rec is None:
        raise not_found(f"No matching OpenAPI specification found for {slug!r}")
    return settle(state, rec)


def _version(rec: Record, version_id: str | None) -> Record:
    versions = rec.get("versions") or []
    if version_id is None:
        match = next((v for v in versions if v["id"] == rec.get("lastVersion")), None)
        match = match or (versions[-1] if versions else None)
    else:
        match = next((v for v in versions if v["id"] == version_id), None)
    if match is None:
        raise not_found(f"No matching OpenAPI specification version found for {version_id or 'latest'!r}")
    return match


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
    body = await json_body(request)
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
    rec = _spec(state, org_id, request.path_params["specSlug"])
    return ok(render_spec(state, org_id, rec, member))


@route("PUT", BASE + "/{specSlug}")
async def put_spec(request: Request) -> Response:
    state, org_id, member = org_access(request)
    _require_edit(member)
    slug = request.path_params["specSlug"]
    body = await json_body(request)
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
    rec = _spec(state, org_id, request.path_params["specSlug"])
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
    rec = _spec(state, org_id, request.path_params["specSlug"])
    newest_first = list(reversed(rec.get("versions") or []))
    return ok(paginate(request, newest_first, lambda v: render_version(state, org_id, rec, v)))


@route("GET", BASE + "/{specSlug}/versions/latest")
async def latest_version(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    rec = _spec(state, org_id, request.path_params["specSlug"])
    return ok(render_version(state, org_id, rec, _version(rec, None)))


@route("GET", BASE + "/{specSlug}/versions/latest/content")
async def latest_version_content(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    rec = _spec(state, org_id, request.path_params["specSlug"])
    return ok(render_content(state, org_id, rec, _version(rec, None)))


@route("GET", BASE + "/{specSlug}/versions/{versionId}")
async def get_version(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    rec = _spec(state, org_id, request.path_params["specSlug"])
    return ok(render_version(state, org_id, rec, _version(rec, request.path_params["versionId"])))


@route("GET", BASE + "/{specSlug}/versions/{versionId}/content")
async def get_version_content(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    rec = _spec(state, org_id, request.path_params["specSlug"])
    return ok(render_content(state, org_id, rec, _version(rec, request.path_params["versionId"])))


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
