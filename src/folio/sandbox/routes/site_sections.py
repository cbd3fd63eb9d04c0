"""Sandbox routes: a site's sections (spec 4.3), section groups (4.4) and its whole structure (the public
description's getSiteStructure and sortSiteStructure). Site spaces (4.5) are in
:mod:`folio.sandbox.routes.site_spaces`.

Sections, groups and external links are siblings at the root of the site or in one group; a section
changes group through its update (``siteSectionGroupId``), a group through ``parentSectionGroupId``, or a
section through the optional add-to-group route. Deleting a section deletes its site spaces; deleting a group
puts its children in its place. Sorts and moves reorder siblings only: a position naming an item of another
level is a 400, an unknown item a 404.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain.site_items import ensure_sections, new_section, new_site_space, space_of_org
from folio.sandbox.domain.site_render import SiteRenderer
from folio.sandbox.domain.site_tree import (
    SECTION_LEVEL,
    STRUCTURE_KINDS,
    Item,
    SiteContext,
    SiteTree,
    apply_order,
    delete_group,
    delete_section,
    move_to_group,
    parse_pointer,
    place,
    prefers_minimal,
    record_of,
    site_context,
)
from folio.sandbox.errors import bad_request, not_found
from folio.sandbox.http import deleted, empty, field_str, json_body, ok, route
from folio.sandbox.paging import paginate
from folio.sandbox.state import Record


def _answer(
    request: Request, ctx: SiteContext, kind: str, rec: Record, status: int = 200, *, preference: bool = True
) -> Response:
    """The item rendered, or 204 when the caller asked for ``Prefer: return=minimal`` of an operation that
    honours it (``preference``: the updates and the sort)."""
    if preference and prefers_minimal(request):
        response = empty(204)
        response.headers["Preference-Applied"] = "return=minimal"
        return response
    data = SiteRenderer(ctx).item(kind, rec)
    return ok(data, status)


def _require(ctx: SiteContext, kind: str, item_id: str, what: str) -> Record:
    rec = record_of(ctx.state, kind, item_id, ctx.site["id"])
    if rec is None:
        raise not_found(f"No matching {what} found for {item_id!r}")
    return rec


def _icon(body: dict[str, Any]) -> Any:
    return field_str(body, "icon", max=50, nullable=True)


# --- sections -----------------------------------------------------------------------------------------------


@route("GET", "/orgs/{organizationId}/sites/{siteId}/sections")
async def list_sections(request: Request) -> Response:
    ctx = site_context(request)
    renderer = SiteRenderer(ctx, share_key=request.query_params.get("shareKey"))
    return ok(paginate(request, renderer.tree.sections(), renderer.section))


@route("POST", "/orgs/{organizationId}/sites/{siteId}/sections")
async def create_section(request: Request) -> Response:
    ctx = site_context(request, write=True)
    body = await json_body(request)
    if "spaceId" not in body:
        raise bad_request("spaceId is required")
    space = space_of_org(ctx.state, ctx.org_id, body["spaceId"], "spaceId")
    title = field_str(body, "title", min=2, max=128, nullable=True)
    icon = _icon(body)
    group = body.get("siteSectionGroupId")
    if group is not None:
        _require(ctx, "site-section-group", field_str(body, "siteSectionGroupId"), "section group")
    ensure_sections(ctx.state, ctx.site)
    section = new_section(ctx.state, ctx.site["id"], title or _title_of(space), group=group, icon=icon)
    new_site_space(ctx.state, ctx.site["id"], space, section=section["id"])
    return _answer(request, ctx, "site-section", section, 201, preference=False)


def _title_of(space: Record) -> str:
    title = str(space.get("title") or "")[:128]
    return title if len(title) >= 2 else "Untitled section"


@route("DELETE", "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}")
async def delete_section_route(request: Request) -> Response:
    ctx = site_context(request, write=True)
    rec = record_of(ctx.state, "site-section", request.path_params["siteSectionId"], ctx.site["id"])
    if rec is None:
        return deleted(False)
    delete_section(ctx.state, rec["id"])
    if ctx.site.get("defaultSiteSection") == rec["id"]:
        ctx.site["defaultSiteSection"] = None
    return deleted(True)


@route("PATCH", "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}")
async def update_section(request: Request) -> Response:
    ctx = site_context(request, write=True)
    state = ctx.state
    rec = _require(ctx, "site-section", request.path_params["siteSectionId"], "site section")
    body = await json_body(request)
    changes: Record = {}
    if "title" in body:
        changes["title"] = field_str(body, "title", min=2, max=128)
    if "path" in body:
        path = field_str(body, "path", min=1, max=100)
        taken = {
            r["path"] for r in state.site_sections.values() if r.get("site") == ctx.site["id"] and r["id"] != rec["id"]
        }
        if path in taken:
            raise bad_request(f"path {path!r} is already used by another section of this site")
        changes["path"] = path
    for name, most in (("condition", 1024), ("description", 256), ("icon", 50)):
        if name in body:
            changes[name] = field_str(body, name, max=most, nullable=True)
    if "defaultSiteSpace" in body:
        ref = field_str(body, "defaultSiteSpace", required=True)
        ss = record_of(state, "site-space", ref, ctx.site["id"])
        if ss is None or ss.get("section") != rec["id"]:
            raise bad_request(f"defaultSiteSpace: site space {ref!r} is not in this section")
        changes["defaultSiteSpace"] = ref
    if "siteSectionGroupId" in body:
        group = field_str(body, "siteSectionGroupId", nullable=True)
        move_to_group(state, SiteTree.load(state, ctx.site), "site-section", rec, group)
    rec.update(changes)
    return _answer(request, ctx, "site-section", rec)


def _move_position(ctx: SiteContext, body: dict[str, Any], kind: str, id_field: str) -> tuple[Any, Any]:
    """(before, after) of a deprecated move's ``position``; 404 for an id no item of that kind has."""
    raw = body.get("position")
    if raw is not None and not isinstance(raw, dict):
        raise bad_request("position must be an object")
    out = []
    for name in ("before", "after"):
        ptr = parse_pointer((raw or {}).get(name), f"position.{name}", kinds=(kind,), id_field=id_field)
        if ptr is not None:
            ptr = (kind, _require(ctx, kind, ptr[1]["id"], kind.replace("-", " ")))
        out.append(ptr)
    return out[0], out[1]


@route("POST", "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move")
async def move_section(request: Request) -> Response:
    ctx = site_context(request, write=True)
    rec = _require(ctx, "site-section", request.path_params["siteSectionId"], "site section")
    body = await json_body(request, required=False)
    before, after = _move_position(ctx, body, "site-section", "siteSection")
    tree = SiteTree.load(ctx.state, ctx.site)
    apply_order(place(tree.children(rec.get("sectionGroup")), ("site-section", rec), before, after))
    return _answer(request, ctx, "site-section", rec, preference=False)


# --- section groups -----------------------------------------------------------------------------------------


@route("GET", "/orgs/{organizationId}/sites/{siteId}/section-groups")
async def list_groups(request: Request) -> Response:
    ctx = site_context(request)
    renderer = SiteRenderer(ctx)
    return ok(paginate(request, renderer.tree.groups(), renderer.group))


@route("POST", "/orgs/{organizationId}/sites/{siteId}/section-groups")
async def create_group(request: Request) -> Response:
    ctx = site_context(request, write=True)
    state = ctx.state
    body = await json_body(request)
    title = field_str(body, "title", required=True, min=1, max=100)
    icon = _icon(body)
    parent = field_str(body, "parent")
    if parent is not None:
        _require(ctx, "site-section-group", parent, "section group")
    sections = body.get("sections") or []
    if not isinstance(sections, list) or not all(isinstance(s, str) for s in sections):
        raise bad_request("sections must be an array of section ids")
    members = [_require(ctx, "site-section", s, "site section") for s in sections]
    ensure_sections(state, ctx.site)
    tree = SiteTree.load(state, ctx.site)
    gid = state.new_id()
    group = state.section_groups[gid] = {
        "id": gid,
        "site": ctx.site["id"],
        "title": title,
        "icon": icon,
        "sectionGroup": parent,
        "order": len(tree.children(parent)),
        "createdAt": state.now(),
    }
    tree.levels.setdefault(parent, []).append(("site-section-group", group))
    for section in members:
        move_to_group(state, tree, "site-section", section, gid)
    return _answer(request, ctx, "site-section-group", group, 201, preference=False)


@route("DELETE", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}")
async def delete_group_route(request: Request) -> Response:
    ctx = site_context(request, write=True)
    rec = record_of(ctx.state, "site-section-group", request.path_params["siteSectionGroupId"], ctx.site["id"])
    if rec is None:
        return deleted(False)
    delete_group(ctx.state, SiteTree.load(ctx.state, ctx.site), rec)
    return deleted(True)


@route("PATCH", "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}")
async def update_group(request: Request) -> Response:
    ctx = site_context(request, write=True)
    rec = _require(ctx, "site-section-group", request.path_params["siteSectionGroupId"], "section group")
    body = await json_body(request)
    changes: Record = {}
    if "title" in body:
        changes["title"] = field_str(body, "title", min=1, max=100)
    if "icon" in body:
        changes["icon"] = _icon(body)
    if "parentSectionGroupId" in body:
        parent = field_str(body, "parentSectionGroupId", nullable=True)
        move_to_group(ctx.state, SiteTree.load(ctx.state, ctx.site), "site-section-group", rec, parent)
    rec.update(changes)
    return _answer(request, ctx, "site-section-group", rec)


@route(
    "POST",
    "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections",
    optional=True,
)
async def add_section_to_group(request: Request) -> Response:
    ctx = site_context(request, write=True)
    group = _require(ctx, "site-section-group", request.path_params["siteSectionGroupId"], "section group")
    body = await json_body(request)
    section = _require(ctx, "site-section", field_str(body, "sectionId", required=True), "site section")
    move_to_group(ctx.state, SiteTree.load(ctx.state, ctx.site), "site-section", section, group["id"])
    return _answer(request, ctx, "site-section-group", group, 201, preference=False)


# --- the whole structure ------------------------------------------------------------------------------------


@route("GET", "/orgs/{organizationId}/sites/{siteId}/structure")
async def get_structure(request: Request) -> Response:
    ctx = site_context(request)
    renderer = SiteRenderer(ctx, share_key=request.query_params.get("shareKey"))
    return ok(renderer.structure())


def _siblings(tree: SiteTree, kind: str, rec: Record) -> list[Item]:
    if kind == "site-space":
        return [("site-space", r) for r in tree.site_spaces_of(rec.get("section"))]
    return tree.children(rec.get("sectionGroup"))


# Optional although the current public description has it: older services lack it (they reorder sections with
# the deprecated section move), and a sandbox built with offer_optional=False answers 404 for it as they do.
@route("PATCH", "/orgs/{organizationId}/sites/{siteId}/structure/sort", optional=True)
async def sort_structure(request: Request) -> Response:
    ctx = site_context(request, write=True)
    body = await json_body(request)
    pointer = parse_pointer(body.get("item"), "item", kinds=STRUCTURE_KINDS)
    if pointer is None:
        raise bad_request("item is required")
    kind, ref = pointer
    rec = _require(ctx, kind, ref["id"], kind.replace("-", " "))
    raw = body.get("position")
    if raw is not None and not isinstance(raw, dict):
        raise bad_request("position must be an object")
    pointers: list[Any] = []
    for name in ("before", "after"):
        ptr = parse_pointer((raw or {}).get(name), f"position.{name}", kinds=STRUCTURE_KINDS)
        if ptr is not None:
            if (ptr[0] in SECTION_LEVEL) != (kind in SECTION_LEVEL):
                raise bad_request(f"Invalid move position: position.{name} is an item of another level")
            ptr = (ptr[0], _require(ctx, ptr[0], ptr[1]["id"], ptr[0].replace("-", " ")))
        pointers.append(ptr)
    tree = SiteTree.load(ctx.state, ctx.site)
    apply_order(place(_siblings(tree, kind, rec), (kind, rec), pointers[0], pointers[1]))
    return _answer(request, ctx, kind, rec)


routes = [
    list_sections,
    create_section,
    delete_section_route,
    update_section,
    move_section,
    list_groups,
    create_group,
    delete_group_route,
    update_group,
    add_section_to_group,
    get_structure,
    sort_structure,
]
