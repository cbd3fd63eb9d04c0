"""Sandbox routes: the current user and organizations (spec 4.4b): list, read, settings, invite links,
joining by email domain and ping.

An organization is visible to its members, and to a non-member whose email domain may join it (with no
permissions). Its settings and invite links take the ``admin`` role.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain.access import check_role, member_of, org_or_404, require_member
from folio.sandbox.domain.orgs import check_org_merge_rules, joinable, org_list_page, render_org
from folio.sandbox.domain.plain_text import check_plain
from folio.sandbox.errors import bad_request, not_found
from folio.sandbox.http import (
    RouteSpec,
    current_user,
    deleted,
    empty,
    field_str,
    field_uri,
    json_body,
    ok,
    route,
    state_of,
)
from folio.sandbox.paging import page_params
from folio.sandbox.state import Record


@route("GET", "/user")
async def get_user(request: Request) -> Response:
    return ok(state_of(request).user_json(current_user(request)))


@route("GET", "/orgs")
async def list_orgs(request: Request) -> Response:
    offset, limit = page_params(request)
    return ok(org_list_page(state_of(request), current_user(request), offset, limit))


@route("GET", "/orgs/{organizationId}")
async def get_org(request: Request) -> Response:
    state, uid, org_id = state_of(request), current_user(request), request.path_params["organizationId"]
    org_or_404(state, org_id)
    if member_of(state, org_id, uid) is None and not joinable(state, org_id, uid):
        raise not_found(f"No matching organization found for {org_id!r}")
    return ok(render_org(state, org_id, uid))


@route("PATCH", "/orgs/{organizationId}")
async def update_org(request: Request) -> Response:
    state, org_id, uid = require_member(request, admin=True)
    body = await json_body(request)
    changes: Record = {}
    if "title" in body:
        changes["title"] = check_plain(field_str(body, "title", min=2, max=255), "title")
    if "hostname" in body:
        changes["hostname"] = check_plain(field_str(body, "hostname", min=3, max=32), "hostname")
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
        changes["logo"] = None if body["logo"] is None else field_uri(body["logo"], "logo")
    for flag in ("sso", "ai", "inviteLinks"):
        if flag in body:
            if not isinstance(body[flag], bool):
                raise bad_request(f"{flag} must be a boolean")
            changes[flag] = body[flag]
    if "mergeRules" in body:
        changes["mergeRules"] = check_org_merge_rules(body["mergeRules"])
    state.orgs[org_id].update(changes)
    return ok(render_org(state, org_id, uid))


@route("DELETE", "/orgs/{organizationId}/link-invites/{inviteId}")
async def delete_invite(request: Request) -> Response:
    state, org_id, _ = require_member(request, admin=True)
    invite_id = request.path_params["inviteId"]
    return deleted(state.invites.get(org_id, {}).pop(invite_id, None) is not None)


@route("POST", "/orgs/{organizationId}/join")
async def join_org(request: Request) -> Response:
    state, uid, org_id = state_of(request), current_user(request), request.path_params["organizationId"]
    org = org_or_404(state, org_id)
    if member_of(state, org_id, uid) is None:
        if not joinable(state, org_id, uid):
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


routes: list[RouteSpec] = [get_user, list_orgs, get_org, update_org, delete_invite, join_org, ping]
