"""Sandbox routes: SAML providers of an organization and the sign-in options they offer (spec 2.4, 4.6).

Providers are an admin's business: listing, reading and changing them take the ``admin`` role. A provider is
``active`` once it has an entity id, a certificate and an SSO URL (``pending`` before); the SSO list, which
anyone may read, offers the active ones.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain.access import check_role, org_or_404, require_member
from folio.sandbox.domain.people import render_team
from folio.sandbox.domain.plain_text import check_plain
from folio.sandbox.errors import bad_request, not_found
from folio.sandbox.http import (
    RouteSpec,
    created,
    current_user,
    deleted,
    field_str,
    field_uri,
    json_body,
    ok,
    route,
    state_of,
)
from folio.sandbox.paging import paginate
from folio.sandbox.state import Record, SandboxState


def _provider_or_404(state: SandboxState, org_id: str, provider_id: str) -> Record:
    provider = state.saml.get(provider_id)
    if provider is None or provider.get("organization") != org_id:
        raise not_found(f"No matching SAML provider found for {provider_id!r}")
    return provider


def _saml_fields(state: SandboxState, org_id: str, body: dict[str, Any], *, create: bool) -> Record:
    """The provider fields of a create or update body, checked against the public description's limits."""
    out: Record = {}
    if create or "label" in body:
        out["label"] = check_plain(field_str(body, "label", required=True, min=1, max=30), "label")
    if "entityID" in body:
        out["entityID"] = check_plain(field_str(body, "entityID", max=1024), "entityID")
    if "certificate" in body:
        out["certificate"] = field_str(body, "certificate", max=10_000)
    if "ssoURL" in body:
        out["ssoURL"] = check_plain(field_uri(body["ssoURL"], "ssoURL"), "ssoURL")
    if "defaultTeam" in body:
        team = body["defaultTeam"]
        if team is not None:
            team = state.teams.get(team) if isinstance(team, str) else None
            if team is None or team.get("organization") != org_id:
                raise bad_request(f"defaultTeam: no matching team found for {body['defaultTeam']!r}")
            team = team["id"]
        out["defaultTeam"] = team
    if "defaultRole" in body:
        out["defaultRole"] = check_role(body["defaultRole"], "defaultRole")
    return out


def saml_status(provider: Record) -> str:
    complete = all(provider.get(k) for k in ("entityID", "certificate", "ssoURL"))
    return "active" if complete else "pending"


def render_saml(state: SandboxState, provider: Record, viewer: str) -> Record:
    pid, org_id = provider["id"], provider["organization"]
    base = f"{state.app_base}/__/auth/saml/{org_id}/{pid}"
    out: Record = {
        "object": "saml-provider",
        "id": pid,
        "label": provider["label"],
        "ssoURL": provider.get("ssoURL") or "",
        "entityID": provider.get("entityID") or "",
        "certificate": provider.get("certificate") or "",
        "defaultRole": provider.get("defaultRole"),
        "createdAt": provider["createdAt"],
        "status": saml_status(provider),
        "service": {"acsURL": base + "/acs", "startURL": base + "/start", "entityID": base},
        "urls": {"location": f"{state.api_base}/orgs/{org_id}/saml/{pid}"},
    }
    team = state.teams.get(provider.get("defaultTeam") or "")
    if team is not None:
        out["defaultTeam"] = render_team(state, team, viewer)
    return out


@route("GET", "/orgs/{organizationId}/saml")
async def list_saml(request: Request) -> Response:
    state, org_id, uid = require_member(request, admin=True)
    providers = [p for p in state.saml.values() if p.get("organization") == org_id]
    return ok(paginate(request, providers, lambda p: render_saml(state, p, uid)))


@route("POST", "/orgs/{organizationId}/saml")
async def create_saml(request: Request) -> Response:
    state, org_id, uid = require_member(request, admin=True)
    fields = _saml_fields(state, org_id, await json_body(request), create=True)
    pid = state.new_id()
    state.saml[pid] = {
        "id": pid,
        "organization": org_id,
        "createdAt": state.now(),
        "entityID": "",
        "certificate": "",
        "ssoURL": "",
        "defaultTeam": None,
        "defaultRole": None,
        **fields,
    }
    return created(render_saml(state, state.saml[pid], uid))


@route("GET", "/orgs/{organizationId}/saml/{samlProviderId}")
async def get_saml(request: Request) -> Response:
    state, org_id, uid = require_member(request, admin=True)
    return ok(render_saml(state, _provider_or_404(state, org_id, request.path_params["samlProviderId"]), uid))


@route("PATCH", "/orgs/{organizationId}/saml/{samlProviderId}")
async def update_saml(request: Request) -> Response:
    state, org_id, uid = require_member(request, admin=True)
    provider = _provider_or_404(state, org_id, request.path_params["samlProviderId"])
    provider.update(_saml_fields(state, org_id, await json_body(request), create=False))
    return ok(render_saml(state, provider, uid))


@route("DELETE", "/orgs/{organizationId}/saml/{samlProviderId}")
async def delete_saml(request: Request) -> Response:
    # Spec section 7 names a missing provider as an error of this operation: 404, not the usual 204.
    state, org_id, _ = require_member(request, admin=True)
    provider = _provider_or_404(state, org_id, request.path_params["samlProviderId"])
    del state.saml[provider["id"]]
    return deleted(True)


@route("GET", "/orgs/{organizationId}/sso")
async def list_sso_logins(request: Request) -> Response:
    # Anyone may ask how to sign in to an organization: no membership needed.
    state, org_id = state_of(request), request.path_params["organizationId"]
    org_or_404(state, org_id)
    items = []
    for provider in state.saml.values():
        if provider.get("organization") == org_id and saml_status(provider) == "active":
            saml = render_saml(state, provider, current_user(request))
            items.append({"id": saml["id"], "label": saml["label"], "startURL": saml["service"]["startURL"]})
    return ok({"items": items})


routes: list[RouteSpec] = [list_saml, create_saml, get_saml, update_saml, delete_saml, list_sso_logins]
