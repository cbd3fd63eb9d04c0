"""Sandbox routes: published docs sites (spec 4.2) — sites, their visitor (adaptive content) schema and the
conditions derived from it, and the published profile. Sections, groups and the structure are in
:mod:`folio.sandbox.routes.site_sections`, site spaces in :mod:`folio.sandbox.routes.site_spaces`.

Rules the sandbox applies: members read sites; ``admin`` and ``create`` members create sites and change
their structure; only admins change a site's settings, its visitor schema, or delete it. Sites are created
unpublished.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain.site_items import new_site_space, space_of_org
from folio.sandbox.domain.site_render import SiteRenderer, render_site
from folio.sandbox.domain.site_tree import SiteTree, delete_site, org_role, record_of, site_context
from folio.sandbox.errors import bad_request, forbidden, not_found
from folio.sandbox.http import created, deleted, field_str, json_body, ok, query_bool, route
from folio.sandbox.paging import paginate
from folio.sandbox.state import Record

SITE_TYPES = ("basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium")
VISIBILITIES = ("public", "unlisted", "share-link", "visitor-auth")
AGENTS_CONTEXTS = ("excluded", "included")
LEVELS = ("admin", "create", "review", "edit", "comment", "read", "inherit")
HOSTNAME = r"^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$"
PROXY = r"^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$"

CUSTOMIZATION: Record = {
    "styling": {
        "theme": "clean",
        "primaryColor": {"light": "#346DDB", "dark": "#346DDB"},
        "infoColor": {"light": "#787878", "dark": "#787878"},
        "successColor": {"light": "#00C950", "dark": "#00C950"},
        "warningColor": {"light": "#FE9A00", "dark": "#FE9A00"},
        "dangerColor": {"light": "#FB2C36", "dark": "#FB2C36"},
        "corners": "rounded",
        "depth": "subtle",
        "links": "default",
        "font": "Inter",
        "monospaceFont": "FiraCode",
        "codeTheme": {
            "default": {"light": "default-light", "dark": "default-dark"},
            "openapi": {"light": "default-light", "dark": "default-dark"},
        },
        "background": "plain",
        "icons": "regular",
        "sidebar": {"background": "default", "list": "default"},
        "search": "prominent",
    },
    "internationalization": {"locale": "en"},
    "favicon": {},
    "header": {"preset": "default", "links": []},
    "footer": {"groups": []},
    "themes": {"default": "light", "toggeable": True},
    "feedback": {"enabled": True},
    "ai": {"mode": "none"},
    "advancedCustomization": {"enabled": False},
    "trademark": {"enabled": True},
    "externalLinks": {"target": "self"},
    "pagination": {"enabled": True},
    "pageActions": {"items": []},
    "privacyPolicy": {},
    "socialPreview": {},
    "socialAccounts": [],
    "insights": {"trackingCookie": False},
}


def _choice(body: dict[str, Any], name: str, allowed: tuple[str, ...]) -> Any:
    value = body.get(name)
    if name in body and value not in allowed:
        raise bad_request(f"{name} must be one of {', '.join(allowed)}")
    return value


def _pattern(body: dict[str, Any], name: str, pattern: str) -> Any:
    value = field_str(body, name, max=512, nullable=True)
    if value is not None and not re.fullmatch(pattern, value):
        raise bad_request(f"{name} must match the pattern {pattern}")
    return value


def _require_admin(role: str | None) -> None:
    if role != "admin":
        raise forbidden("Only administrators of the organization can change a site's settings")


# --- sites --------------------------------------------------------------------------------------------------


@route("GET", "/orgs/{organizationId}/sites")
async def list_sites(request: Request) -> Response:
    state, org_id, _, role = org_role(request)
    space = request.query_params.get("space")
    title = (request.query_params.get("title") or "").lower()
    published = query_bool(request, "published")
    types = request.query_params.getlist("type")
    with_space = {r["site"] for r in state.site_spaces.values() if r.get("space") == space} if space else set()
    sites = [
        s
        for s in sorted(state.sites.values(), key=lambda s: (s.get("createdAt", ""), s["id"]))
        if s.get("organization") == org_id
        and (not space or s["id"] in with_space)
        and title in s["title"].lower()
        and (published is None or bool(s.get("published")) == published)
        and (not types or s.get("type") in types)
    ]
    return ok(paginate(request, sites, lambda s: render_site(state, s, role)))


@route("POST", "/orgs/{organizationId}/sites")
async def create_site(request: Request) -> Response:
    state, org_id, _, role = org_role(request, write=True)
    body = await json_body(request, required=False)
    kind = _choice(body, "type", SITE_TYPES) or "basic"
    title = field_str(body, "title", min=2, max=128) or "Untitled site"
    visibility = _choice(body, "visibility", VISIBILITIES) or "public"
    spaces = body.get("spaces") or []
    if not isinstance(spaces, list):
        raise bad_request("spaces must be an array of space ids")
    records = [space_of_org(state, org_id, s, f"spaces[{n}]") for n, s in enumerate(spaces)]
    site_id = state.new_id()
    site = state.sites[site_id] = {
        "id": site_id,
        "organization": org_id,
        "type": kind,
        "title": title,
        "visibility": visibility,
        "published": False,
        "createdAt": state.now(),
        "adaptiveContent": {"enabled": False},
        "agentsContext": "included",
        "features": [],
        "defaultLevel": "inherit",
    }
    for n, space in enumerate(records):
        new_site_space(state, site_id, space, section=None, order=n)
    response = created(render_site(state, site, role))
    response.headers["Location"] = f"{state.api_base}/orgs/{org_id}/sites/{site_id}"
    return response


@route("GET", "/orgs/{organizationId}/sites/{siteId}")
async def get_site(request: Request) -> Response:
    ctx = site_context(request)
    return ok(render_site(ctx.state, ctx.site, ctx.role))


@route("DELETE", "/orgs/{organizationId}/sites/{siteId}")
async def delete_site_route(request: Request) -> Response:
    state, org_id, _, role = org_role(request, write=True)
    _require_admin(role)
    site = state.sites.get(request.path_params["siteId"])
    if site is None or site.get("organization") != org_id:
        return deleted(False)
    delete_site(state, site["id"])
    return deleted(True)


@route("PATCH", "/orgs/{organizationId}/sites/{siteId}")
async def update_site(request: Request) -> Response:
    ctx = site_context(request, write=True)
    _require_admin(ctx.role)
    state, site = ctx.state, ctx.site
    body = await json_body(request)
    changes: Record = {}
    if "title" in body:
        changes["title"] = field_str(body, "title", min=2, max=128)
    if "visibility" in body:
        changes["visibility"] = _choice(body, "visibility", VISIBILITIES)
    if "basename" in body:
        changes["basename"] = field_str(body, "basename", min=1, max=100)
    if "agentsContext" in body:
        changes["agentsContext"] = _choice(body, "agentsContext", AGENTS_CONTEXTS)
    if "defaultLevel" in body and body["defaultLevel"] is not None:
        changes["defaultLevel"] = _choice(body, "defaultLevel", LEVELS)
    if "adaptiveContent" in body:
        value = body["adaptiveContent"]
        if not isinstance(value, dict) or not isinstance(value.get("enabled"), bool):
            raise bad_request("adaptiveContent must be an object {enabled: boolean}")
        changes["adaptiveContent"] = {"enabled": value["enabled"]}
    if "proxy" in body:
        origin = _pattern(body, "proxy", PROXY)
        changes["proxy"] = {"origin": origin} if origin is not None else None
    if "hostname" in body:
        changes["hostname"] = _pattern(body, "hostname", HOSTNAME)
    tree = SiteTree.load(state, site)
    if "defaultSiteSection" in body:
        ref = field_str(body, "defaultSiteSection", required=True)
        if record_of(state, "site-section", ref, site["id"]) is None:
            raise bad_request(f"defaultSiteSection: no section {ref!r} in this site")
        changes["defaultSiteSection"] = ref
    if "defaultSiteSpace" in body:
        ref = field_str(body, "defaultSiteSpace", required=True)
        rec = record_of(state, "site-space", ref, site["id"])
        if rec is None:
            raise bad_request(f"defaultSiteSpace: no site space {ref!r} in this site")
        section_id = changes.get("defaultSiteSection") or (tree.default_section() or {}).get("id")
        if rec.get("section") != section_id:
            where = "the site's default section" if section_id else "the root of the site"
            raise bad_request(f"defaultSiteSpace: site space {ref!r} is not in {where}")
        if section_id:
            state.site_sections[section_id]["defaultSiteSpace"] = ref
        else:
            changes["defaultSiteSpace"] = ref
    site.update(changes)
    return ok(render_site(state, site, ctx.role))


# --- visitor schema -----------------------------------------------------------------------------------------


def render_schema(record: Record) -> Record:
    """The stored schema, with the descriptions the service's shape requires filled in where left out."""
    from folio.models.site_structure import with_claim_descriptions  # the site models load when first used

    schema = with_claim_descriptions(record["jsonSchema"])
    return {"object": "site-adaptive-schema", "jsonSchema": schema, "updatedAt": record["updatedAt"]}


@route("GET", "/orgs/{organizationId}/sites/{siteId}/adaptive-schema")
async def get_adaptive_schema(request: Request) -> Response:
    ctx = site_context(request)
    record = ctx.state.adaptive_schemas.get(ctx.site["id"])
    if record is None:
        raise not_found("No visitor attributes schema found for the site")
    return ok(render_schema(record))


@route("PUT", "/orgs/{organizationId}/sites/{siteId}/adaptive-schema")
async def put_adaptive_schema(request: Request) -> Response:
    ctx = site_context(request, write=True)
    _require_admin(ctx.role)
    body = await json_body(request)
    if "jsonSchema" not in body:
        raise bad_request("jsonSchema is required")
    from folio.models.site_structure import adaptive_schema_problems

    problems = adaptive_schema_problems(body["jsonSchema"])
    if problems:
        raise bad_request("; ".join(f"{where} {problem}" for where, problem in problems))
    record = {"jsonSchema": body["jsonSchema"], "updatedAt": ctx.state.now()}
    ctx.state.adaptive_schemas[ctx.site["id"]] = record
    return ok(render_schema(record))


def _claim_ref(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if re.fullmatch(r"[A-Za-z_$][\w$]*", name) else f'{prefix}["{name}"]'


def template_conditions(json_schema: Record) -> list[Record]:
    """One condition per boolean claim: ``visitor.claims.<name> == true`` (``.unsigned.<name>``)."""
    props = json_schema.get("properties") or {}
    out: list[Record] = []
    for prefix, claims, kind in (
        ("visitor.claims", {k: v for k, v in props.items() if k != "unsigned"}, "claim"),
        ("visitor.claims.unsigned", (props.get("unsigned") or {}).get("properties") or {}, "unsigned claim"),
    ):
        for name, claim in claims.items():
            text = (claim or {}).get("description") or name
            out.append(
                {
                    "description": f"Visitors whose {kind} {name!r} is true ({text})",
                    "condition": f"{_claim_ref(prefix, name)} == true",
                }
            )
    return out


@route("GET", "/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions")
async def list_template_conditions(request: Request) -> Response:
    ctx = site_context(request)
    record = ctx.state.adaptive_schemas.get(ctx.site["id"])
    return ok({"items": template_conditions(record["jsonSchema"]) if record else []})


# --- published profile --------------------------------------------------------------------------------------


@route("GET", "/orgs/{organizationId}/sites/{siteId}/published")
async def get_published(request: Request) -> Response:
    ctx = site_context(request)
    renderer = SiteRenderer(ctx, share_key=request.query_params.get("shareKey"), published_view=True)
    customization = {**CUSTOMIZATION, "title": ctx.site["title"]}
    return ok(
        {
            "object": "published-content-site",
            "site": renderer.site_json(),
            "structure": renderer.structure(),
            "customizations": {"site": customization, "siteSpaces": {}},
            "scripts": [],
        }
    )


routes = [
    list_sites,
    create_site,
    get_site,
    delete_site_route,
    update_site,
    get_adaptive_schema,
    put_adaptive_schema,
    list_template_conditions,
    get_published,
]
