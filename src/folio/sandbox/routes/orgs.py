"""Sandbox routes: organizations (spec section 4.4b), the current user, agent instructions, SAML and SSO
(section 4.6) and the organization's search. The routes of members (with their spaces and teams) and of teams
live in :mod:`.people` and are re-exported here (``routes``).

An organization is visible to its members, and to a non-member whose email domain may join it (with no
permissions). Search scans the pages of the current revision of every live space of the organization.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.errors import bad_request, not_found
from folio.sandbox.http import (
    RouteSpec,
    created,
    current_user,
    deleted,
    empty,
    field_str,
    json_body,
    ok,
    route,
    state_of,
)
from folio.sandbox.paging import paginate
from folio.sandbox.routes import people
from folio.sandbox.routes.people import check_role, member_of, org_or_404, render_team, require_member
from folio.sandbox.state import Record, SandboxState

_PRICES = {
    "members": {"plus_2024": {"monthly": 8, "yearly": 80}, "pro_2024": {"monthly": 12, "yearly": 120}},
    "sites": {"premium": {"monthly": 65, "yearly": 650}, "ultimate": {"monthly": 249, "yearly": 2490}},
}
_BILLING = {
    "interval": "monthly",
    "endDate": None,
    "hasPaymentFailed": False,
    "canCheckout": True,
    "isScheduledToCancel": False,
    "pricing": _PRICES,
    "usageAddons": {},
    "canChangeInterval": True,
    "canUseSAML": True,
    "creditsBundle": None,
    "aiCreditAlertThreshold": None,
}
_OPTIONAL = (
    "hostname",
    "useCase",
    "communityType",
    "sso",
    "ai",
    "customHostname",
    "blocked",
    "auditLogs",
    "internal_billingMigration",
)


def _permissions(state: SandboxState, org_id: str, user_id: str) -> dict[str, bool]:
    role = (member_of(state, org_id, user_id) or {}).get("role", "none")
    member, admin, creator = role != "none", role == "admin", role in ("admin", "create")
    staff = member and role is not None
    owns = any(
        t.get("organization") == org_id and t.get("members", {}).get(user_id) == "owner" for t in state.teams.values()
    )
    return {
        "view": True,
        "access": member,
        "admin": admin,
        "ownTeam": owns,
        "createContent": creator,
        "createOpenAPISpec": creator,
        "ingestConversations": creator,
        "viewBilling": admin,
        "listMembers": staff,
        "listTeams": staff,
        "listIntegrations": staff,
        "listInstallations": admin,
        "installIntegration": admin,
    }


def render_org(state: SandboxState, org_id: str, user_id: str) -> Record:
    rec = state.orgs[org_id]
    urls = {"location": f"{state.api_base}/orgs/{org_id}", "app": f"{state.app_base}/o/{org_id}/"}
    if rec.get("logo"):
        urls["logo"] = rec["logo"]
    out: Record = {
        "object": "organization",
        "id": org_id,
        "title": rec["title"],
        "createdAt": rec["createdAt"],
        "emailDomains": list(rec.get("emailDomains", [])),
        "type": rec.get("type", "business"),
        "defaultRole": rec.get("defaultRole"),
        "inviteLinks": bool(rec.get("inviteLinks", False)),
        "plan": rec.get("plan", "free_2024"),
        "mergeRules": rec.get("mergeRules") or {"type": "none"},
        "urls": urls,
        "trial": {"status": "notapplicable", "count": 0, **(rec.get("trial") or {})},
        "permissions": _permissions(state, org_id, user_id),
    }
    out.update({k: rec[k] for k in _OPTIONAL if rec.get(k) is not None})
    if rec.get("defaultContent"):
        out["defaultContent"] = rec["defaultContent"]
    if member_of(state, org_id, user_id) is not None:
        out["billing"] = {**_BILLING, **(rec.get("billing") or {})}
    return out


def _joinable(state: SandboxState, org_id: str, user_id: str) -> bool:
    email = str(state.users.get(user_id, {}).get("email", ""))
    domain = email.rpartition("@")[2].lower()
    return bool(domain) and domain in {d.lower() for d in state.orgs[org_id].get("emailDomains", [])}


@route("GET", "/user")
async def get_user(request: Request) -> Response:
    return ok(state_of(request).user_json(current_user(request)))


@route("GET", "/orgs")
async def list_orgs(request: Request) -> Response:
    state, uid = state_of(request), current_user(request)
    ids = [oid for oid in state.orgs if member_of(state, oid, uid) is not None]
    return ok(paginate(request, ids, lambda oid: render_org(state, oid, uid)))


@route("GET", "/orgs/{organizationId}")
async def get_org(request: Request) -> Response:
    state, uid, org_id = state_of(request), current_user(request), request.path_params["organizationId"]
    org_or_404(state, org_id)
    if member_of(state, org_id, uid) is None and not _joinable(state, org_id, uid):
        raise not_found(f"No matching organization found for {org_id!r}")
    return ok(render_org(state, org_id, uid))


def _uri(value: Any, name: str) -> str:
    if not isinstance(value, str) or len(value) > 2048:
        raise bad_request(f"{name} must be a uri of at most 2048 characters")
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise bad_request(f"{name} must be an absolute http(s) uri")
    return value


def _merge_rules(value: Any) -> Record:
    if not isinstance(value, dict) or value.get("type") not in ("rules", "none"):
        raise bad_request("mergeRules must be {type: rules, rules: [...]} or {type: none}")
    rules = value.get("rules", [])
    if value["type"] == "rules" and (
        not isinstance(rules, list) or not all(isinstance(r, dict) and isinstance(r.get("rule"), str) for r in rules)
    ):
        raise bad_request("mergeRules.rules must be an array of {rule, users}")
    return value


@route("PATCH", "/orgs/{organizationId}")
async def update_org(request: Request) -> Response:
    state, org_id, uid = require_member(request, admin=True)
    body = await json_body(request)
    changes: Record = {}
    if "title" in body:
        changes["title"] = field_str(body, "title", min=2, max=255)
    if "hostname" in body:
        changes["hostname"] = field_str(body, "hostname", min=3, max=32)
    if "emailDomains" in body:
        domains = body["emailDomains"]
        if not isinstance(domains, list) or not all(isinstance(d, str) and d for d in domains):
            raise bad_request("emailDomains must be an array of domain names")
        changes["emailDomains"] = domains
    if "defaultRole" in body:
        changes["defaultRole"] = check_role(body["defaultRole"], "defaultRole")
    if "defaultContent" in body:
        content = body["defaultContent"]
        if content is not None and not (
            isinstance(content, dict) and content.get("type") == "site" and isinstance(content.get("site"), str)
        ):
            raise bad_request("defaultContent must be {type: site, site: <site id>} or null")
        if content is not None and content["site"] not in state.sites:
            raise bad_request(f"defaultContent: no matching site found for {content['site']!r}")
        changes["defaultContent"] = content
    if "logo" in body:
        changes["logo"] = None if body["logo"] is None else _uri(body["logo"], "logo")
    for flag in ("sso", "ai", "inviteLinks"):
        if flag in body:
            if not isinstance(body[flag], bool):
                raise bad_request(f"{flag} must be a boolean")
            changes[flag] = body[flag]
    if "mergeRules" in body:
        changes["mergeRules"] = _merge_rules(body["mergeRules"])
    state.orgs[org_id].update(changes)
    return ok(render_org(state, org_id, uid))


@route("DELETE", "/orgs/{organizationId}/link-invites/{inviteId}")
async def delete_invite(request: Request) -> Response:
    state, org_id, _ = require_member(request, admin=True)
    invites = state.invites.get(org_id, set())
    invite_id = request.path_params["inviteId"]
    existed = invite_id in invites
    invites.discard(invite_id)
    return deleted(existed)


@route("POST", "/orgs/{organizationId}/join")
async def join_org(request: Request) -> Response:
    state, uid, org_id = state_of(request), current_user(request), request.path_params["organizationId"]
    org = org_or_404(state, org_id)
    if member_of(state, org_id, uid) is None:
        if not _joinable(state, org_id, uid):
            raise bad_request("Your verified email domain is not one of the organization's email domains")
        now = state.now()
        state.members[org_id][uid] = {
            "role": org.get("defaultRole"),
            "disabled": False,
            "joinedAt": now,
            "lastSeenAt": now,
            "sso": False,
        }
    return empty(204)


@route("POST", "/orgs/{organizationId}/ping")
async def ping(request: Request) -> Response:
    state, org_id, uid = require_member(request)
    now = state.now()
    state.members[org_id][uid]["lastSeenAt"] = now

    def part(data: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data, separators=(",", ":")).encode()).decode().rstrip("=")

    unsigned = (
        part({"alg": "HS256", "typ": "JWT"})
        + "."
        + part({"sub": uid, "org": org_id, "iat": int(state.clock.now().timestamp())})
    )
    signature = hashlib.sha256(unsigned.encode()).hexdigest()[:43]
    return ok({"serviceVisitorClaims": unsigned + "." + signature})


# --- agent instructions -------------------------------------------------------------------------------------


def _render_instructions(state: SandboxState, org_id: str) -> Record:
    rec = state.agent_instructions.get(org_id) or {
        "instructions": {"object": "document", "data": {"schemaVersion": 1}, "nodes": []},
        "updatedAt": state.orgs[org_id]["createdAt"],
        "updatedBy": "",
    }
    return {
        "object": "agent-instructions",
        "instructions": rec["instructions"],
        "updatedAt": rec["updatedAt"],
        "updatedBy": rec.get("updatedBy") or "",
        "urls": {"location": f"{state.api_base}/orgs/{org_id}/agent-instructions"},
    }


@route("GET", "/orgs/{organizationId}/agent-instructions")
async def get_agent_instructions(request: Request) -> Response:
    state, org_id, _ = require_member(request)
    return ok(_render_instructions(state, org_id))


@route("PUT", "/orgs/{organizationId}/agent-instructions")
async def put_agent_instructions(request: Request) -> Response:
    state, org_id, uid = require_member(request, admin=True)
    doc = (await json_body(request)).get("instructions")
    if not isinstance(doc, dict) or doc.get("object") != "document" or not isinstance(doc.get("nodes"), list):
        raise bad_request("instructions must be a document: {object: document, data, nodes: [...]}")
    doc = {**doc, "data": doc.get("data") if isinstance(doc.get("data"), dict) else {}}
    state.agent_instructions[org_id] = {"instructions": doc, "updatedAt": state.now(), "updatedBy": uid}
    return ok(_render_instructions(state, org_id))


# --- SAML and SSO -------------------------------------------------------------------------------------------


def _provider_or_404(state: SandboxState, org_id: str, provider_id: str) -> Record:
    provider = state.saml.get(provider_id)
    if provider is None or provider.get("organization") != org_id:
        raise not_found(f"No matching SAML provider found for {provider_id!r}")
    return provider


def _saml_fields(state: SandboxState, org_id: str, body: dict[str, Any], *, create: bool) -> Record:
    """The provider fields of a create or update body, checked against the public description's limits."""
    out: Record = {}
    if create or "label" in body:
        out["label"] = field_str(body, "label", required=True, min=1, max=30)
    if "entityID" in body:
        out["entityID"] = field_str(body, "entityID", max=1024)
    if "certificate" in body:
        out["certificate"] = field_str(body, "certificate", max=10_000)
    if "ssoURL" in body:
        out["ssoURL"] = _uri(body["ssoURL"], "ssoURL")
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


def _saml_status(provider: Record) -> str:
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
        "status": _saml_status(provider),
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
        if provider.get("organization") == org_id and _saml_status(provider) == "active":
            saml = render_saml(state, provider, current_user(request))
            items.append({"id": saml["id"], "label": saml["label"], "startURL": saml["service"]["startURL"]})
    return ok({"items": items})


# --- search -------------------------------------------------------------------------------------------------

_HEADING = re.compile(r"^#{1,6}\s+(.*)$")


def _anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _sections(page: Record, page_path: str, app_url: str, needle: str) -> list[Record]:
    """The parts of the page's markdown (split at headings) that contain ``needle``."""
    chunks: list[tuple[str, list[str]]] = [("", [])]
    for line in str(page.get("markdown") or "").splitlines():
        heading = _HEADING.match(line)
        if heading:
            chunks.append((heading.group(1).strip(), []))
        else:
            chunks[-1][1].append(line)
    out = []
    for n, (title, lines) in enumerate(chunks):
        text = " ".join(x.strip() for x in lines if x.strip())
        at = (title + " " + text).lower().find(needle)
        if at < 0:
            continue
        start = max(0, at - len(title) - 80)
        anchor = _anchor(title)
        path = f"{page_path}#{anchor}" if anchor else page_path
        out.append(
            {
                "id": f"{page['id']}-{n}",
                "title": title or page.get("title", ""),
                "path": path,
                "score": 1 + text.lower().count(needle),
                "body": text[start : start + 240],
                "urls": {"app": f"{app_url}#{anchor}" if anchor else app_url},
            }
        )
    return out


def _search_space(state: SandboxState, space: Record, needle: str) -> Record | None:
    revision = state.revisions.get(space.get("revision") or "") or {}
    base = f"{state.app_base}/o/{space.get('organization')}/s/{space['id']}/"
    pages: list[Record] = []

    def walk(nodes: list[Record], ancestors: list[Record], prefix: str) -> None:
        for page in nodes:
            page_path = page.get("path") or (prefix + (page.get("slug") or page["id"]))
            title, description = str(page.get("title", "")), str(page.get("description") or "")
            sections = _sections(page, page_path, base + page_path, needle)
            score = 3 * (needle in title.lower()) + (needle in description.lower()) + len(sections)
            if score:
                pages.append(
                    {
                        "id": page["id"],
                        "title": title,
                        "description": description,
                        "path": page_path,
                        "score": score,
                        "resultType": "page",
                        "sections": sections,
                        "ancestors": [{"title": a.get("title", "")} for a in ancestors],
                        "urls": {"app": base + page_path},
                    }
                )
            walk(page.get("pages") or [], [*ancestors, page], page_path + "/")

    walk(revision.get("pages") or [], [], "")
    if not pages:
        return None
    pages.sort(key=lambda p: -p["score"])
    for rank, page in enumerate(pages, 1):
        page["rank"] = rank
    return {
        "type": "space",
        "id": space["id"],
        "title": space.get("title", ""),
        "score": sum(p["score"] for p in pages),
        "pages": pages,
    }


@route("GET", "/orgs/{organizationId}/search")
async def search_org(request: Request) -> Response:
    state, org_id, _ = require_member(request)
    query = request.query_params.get("query")
    if query is None or not query.strip():
        raise bad_request("query is required")
    if len(query) > 512:
        raise bad_request("query must be at most 512 characters")
    needle = query.strip().lower()
    results = [
        r
        for s in state.spaces.values()
        if s.get("organization") == org_id and not s.get("deletedAt")
        for r in [_search_space(state, s, needle)]
        if r is not None
    ]
    results.sort(key=lambda r: (-r["score"], r["title"].lower()))
    return ok(paginate(request, results))


routes: list[RouteSpec] = [
    get_user,
    list_orgs,
    get_org,
    update_org,
    delete_invite,
    join_org,
    ping,
    get_agent_instructions,
    put_agent_instructions,
    list_saml,
    create_saml,
    get_saml,
    update_saml,
    delete_saml,
    list_sso_logins,
    search_org,
    *people.routes,
]
