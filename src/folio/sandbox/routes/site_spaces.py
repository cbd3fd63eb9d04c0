"""Sandbox routes: a site's site spaces (spec 4.5) — the spaces it publishes, as the variants of a section or,
in a site without sections, at its root.

A new site space goes to the section the body names, else to the default section, else to the root. Its
path is unique among its siblings. The move (deprecated in favour of the structure sort) reorders the site
spaces of one section: 400 for an invalid position, 404 when no site space matches.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain.site_items import new_site_space, space_of_org
from folio.sandbox.domain.site_render import SiteRenderer
from folio.sandbox.domain.site_tree import (
    SiteContext,
    SiteTree,
    apply_order,
    parse_pointer,
    place,
    prefers_minimal,
    record_of,
    site_context,
)
from folio.sandbox.errors import bad_request, not_found
from folio.sandbox.http import deleted, empty, field_str, json_body, ok, query_bool, route
from folio.sandbox.paging import paginate
from folio.sandbox.state import Record


def _answer(request: Request, ctx: SiteContext, rec: Record, status: int = 200, *, preference: bool = True) -> Response:
    """The site space rendered, or 204 for ``Prefer: return=minimal`` where the operation honours it."""
    if preference and prefers_minimal(request):
        response = empty(204)
        response.headers["Preference-Applied"] = "return=minimal"
        return response
    return ok(SiteRenderer(ctx).site_space(rec), status)


def _site_space(ctx: SiteContext, site_space_id: str) -> Record:
    rec = record_of(ctx.state, "site-space", site_space_id, ctx.site["id"])
    if rec is None:
        raise not_found(f"No matching site space found for {site_space_id!r}")
    return rec


@route("GET", "/orgs/{organizationId}/sites/{siteId}/site-spaces")
async def list_site_spaces(request: Request) -> Response:
    ctx = site_context(request)
    renderer = SiteRenderer(ctx, share_key=request.query_params.get("shareKey"))
    items = renderer.tree.all_site_spaces()
    only_default = query_bool(request, "default")
    if only_default is not None:
        default = renderer.tree.site_default_space()
        default_id = default["id"] if default else None
        items = [r for r in items if (r["id"] == default_id) == only_default]
    return ok(paginate(request, items, renderer.site_space))


@route("POST", "/orgs/{organizationId}/sites/{siteId}/site-spaces")
async def create_site_space(request: Request) -> Response:
    ctx = site_context(request, write=True)
    body = await json_body(request)
    if "spaceId" not in body:
        raise bad_request("spaceId is required")
    space = space_of_org(ctx.state, ctx.org_id, body["spaceId"], "spaceId")
    section_id = field_str(body, "sectionId")
    if section_id is not None:
        if record_of(ctx.state, "site-section", section_id, ctx.site["id"]) is None:
            raise not_found(f"No matching site section found for {section_id!r}")
    else:
        default = SiteTree.load(ctx.state, ctx.site).default_section()
        section_id = default["id"] if default else None
    rec = new_site_space(ctx.state, ctx.site["id"], space, section=section_id)
    response = _answer(request, ctx, rec, 201)
    response.headers["Location"] = (
        f"{ctx.state.api_base}/orgs/{ctx.org_id}/sites/{ctx.site['id']}/site-spaces/{rec['id']}"
    )
    return response


@route("DELETE", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}")
async def delete_site_space(request: Request) -> Response:
    ctx = site_context(request, write=True)
    rec = record_of(ctx.state, "site-space", request.path_params["siteSpaceId"], ctx.site["id"])
    if rec is None:
        return deleted(False)
    del ctx.state.site_spaces[rec["id"]]
    owner = ctx.state.site_sections.get(rec.get("section") or "") or ctx.site
    if owner.get("defaultSiteSpace") == rec["id"]:
        owner["defaultSiteSpace"] = None
    return deleted(True)


@route("PATCH", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}")
async def update_site_space(request: Request) -> Response:
    ctx = site_context(request, write=True)
    rec = _site_space(ctx, request.path_params["siteSpaceId"])
    body = await json_body(request)
    changes: Record = {}
    if "path" in body:
        path = field_str(body, "path", min=1, max=100)
        siblings = SiteTree.load(ctx.state, ctx.site).site_spaces_of(rec.get("section"))
        if any(r["path"] == path and r["id"] != rec["id"] for r in siblings):
            raise bad_request(f"path {path!r} is already used by another site space here")
        changes["path"] = path
    if "condition" in body:
        changes["condition"] = field_str(body, "condition", max=1024, nullable=True)
    if "spaceId" in body:
        changes["space"] = space_of_org(ctx.state, ctx.org_id, body["spaceId"], "spaceId")["id"]
    if "hidden" in body:
        if not isinstance(body["hidden"], bool):
            raise bad_request("hidden must be a boolean")
        changes["hidden"] = body["hidden"]
    rec.update(changes)
    return _answer(request, ctx, rec)


@route("POST", "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move")
async def move_site_space(request: Request) -> Response:
    ctx = site_context(request, write=True)
    rec = _site_space(ctx, request.path_params["siteSpaceId"])
    body = await json_body(request, required=False)
    raw = body.get("position")
    if raw is not None and not isinstance(raw, dict):
        raise bad_request("position must be an object")
    refs = []
    for name in ("before", "after"):
        ptr = parse_pointer((raw or {}).get(name), f"position.{name}", kinds=("site-space",), id_field="siteSpace")
        refs.append(("site-space", _site_space(ctx, ptr[1]["id"])) if ptr else None)
    siblings = [("site-space", r) for r in SiteTree.load(ctx.state, ctx.site).site_spaces_of(rec.get("section"))]
    apply_order(place(siblings, ("site-space", rec), refs[0], refs[1]))
    return _answer(request, ctx, rec, preference=False)


routes = [list_site_spaces, create_site_space, delete_site_space, update_site_space, move_site_space]
