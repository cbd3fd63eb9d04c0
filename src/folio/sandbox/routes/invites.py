"""Sandbox routes: an organization's invite links (list, create, read, change; their delete is in
:mod:`folio.sandbox.routes.orgs`) and inviting people by email (the public description's
organization-invites). They take the ``admin`` role, like the organization's settings; a link may only be made
while the organization's ``inviteLinks`` setting is on. All are ``optional``: a sandbox built without the optional
operations answers 404 for them, as a service without invite links would.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain.access import check_role, require_member
from folio.sandbox.domain.invites import check_emails, invite_or_404, render_invite
from folio.sandbox.errors import bad_request
from folio.sandbox.http import RouteSpec, created, field_str, json_body, ok, route
from folio.sandbox.paging import paginate
from folio.sandbox.seed.people import make_user
from folio.sandbox.state import Record

BASE = "/orgs/{organizationId}/link-invites"


@route("GET", BASE, optional=True)
async def list_invites(request: Request) -> Response:
    state, org_id, uid = require_member(request, admin=True)
    invites = sorted(state.invites.get(org_id, {}).values(), key=lambda i: (i.get("createdAt", ""), i["id"]))
    return ok(paginate(request, invites, lambda i: render_invite(state, org_id, i, uid)))


@route("POST", BASE, optional=True)
async def create_invite(request: Request) -> Response:
    state, org_id, uid = require_member(request, admin=True)
    body = await json_body(request)
    if not state.orgs[org_id].get("inviteLinks", False):
        raise bad_request("Invite links are turned off for this organization (its inviteLinks setting)")
    invite: Record = {"id": state.new_id(), "createdAt": state.now()}
    if "space" in body or "collection" in body:
        kind = "space" if "space" in body else "collection"
        target = field_str(body, kind, required=True, min=1)
        store = state.spaces if kind == "space" else state.collections
        record = store.get(target)
        if record is None or record.get("organization") != org_id or record.get("deletedAt"):
            raise bad_request(f"{kind}: no matching {kind} found for {target!r}")
        if "level" not in body:
            raise bad_request("level is required")
        invite.update({kind: target, "level": check_role(body["level"], "level")})
    else:
        if "role" not in body:
            raise bad_request("role is required")
        invite["role"] = check_role(body["role"], "role")
    state.invites[org_id][invite["id"]] = invite
    return created(render_invite(state, org_id, invite, uid))


@route("GET", BASE + "/{inviteId}", optional=True)
async def get_invite(request: Request) -> Response:
    state, org_id, uid = require_member(request, admin=True)
    invite = invite_or_404(state, org_id, request.path_params["inviteId"])
    return ok(render_invite(state, org_id, invite, uid))


@route("PATCH", BASE + "/{inviteId}", optional=True)
async def update_invite(request: Request) -> Response:
    state, org_id, uid = require_member(request, admin=True)
    invite = invite_or_404(state, org_id, request.path_params["inviteId"])
    body = await json_body(request)
    name = "role" if "role" in invite else "level"
    if name not in body:
        raise bad_request(f"{name} is required for this invite")
    invite[name] = check_role(body[name], name)
    return ok(render_invite(state, org_id, invite, uid))


@route("POST", "/orgs/{organizationId}/invites", optional=True)
async def invite_users(request: Request) -> Response:
    state, org_id, _ = require_member(request, admin=True)
    body = await json_body(request)
    wanted = check_emails(body)
    if "sso" in body and not isinstance(body["sso"], bool):
        raise bad_request("sso must be a boolean")
    by_email = {str(u.get("email", "")).lower(): uid for uid, u in state.users.items()}
    members = state.members[org_id]
    added: list[str] = []
    now = state.now()
    for email, role in wanted:
        uid = by_email.get(email.lower())
        if uid is None:
            uid = by_email[email.lower()] = make_user(state, email.split("@")[0], email)
        if uid in members:
            continue
        given = state.orgs[org_id].get("defaultRole") if role == "__default__" else role
        members[uid] = {
            "role": given,
            "disabled": False,
            "joinedAt": now,
            "lastSeenAt": now,
            "sso": bool(body.get("sso")),
        }
        added.append(uid)
    return ok({"users": added, "invited": len(added), "failedSSOEmails": []})


routes: list[RouteSpec] = [list_invites, create_invite, get_invite, update_invite, invite_users]
