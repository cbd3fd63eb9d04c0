"""Sandbox routes: the members of an organization, with their spaces and teams (spec 4.6).

Members with a role list them (guests do not); only admins change a role, remove a member or mark one as
an SSO member. The rules
(an organization keeps an admin, a removed member leaves their teams) are in :mod:`folio.sandbox.domain.people`.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from folio.models.common import ROLES
from folio.sandbox.domain.access import check_role, require_member
from folio.sandbox.domain.people import (
    Counts,
    remove_member,
    render_member,
    render_team,
    set_role,
    target_member,
)
from folio.sandbox.domain.spaces import SpaceCounts, render_space
from folio.sandbox.http import RouteSpec, deleted, json_body, ok, query_choice, route
from folio.sandbox.paging import paginate


@route("GET", "/orgs/{organizationId}/members/{userId}/spaces")
async def list_member_spaces(request: Request) -> Response:
    """The spaces a member can reach, with their permission there (their role; a guest reaches none here)."""
    state, org_id, _ = require_member(request, staff=True)
    user_id = request.path_params["userId"]
    role = target_member(state, org_id, user_id).get("role")
    order = query_choice(request, "order", ("asc", "desc"), "desc")
    spaces = (
        []
        if role is None
        else [s for s in state.spaces.values() if s.get("organization") == org_id and not s.get("deletedAt")]
    )
    spaces.sort(key=lambda s: s.get("createdAt", ""), reverse=order == "desc")
    counts = SpaceCounts(state)
    return ok(
        paginate(
            request,
            spaces,
            lambda s: {"permission": role, "space": render_space(state, s, user_id, counts)},
        )
    )


@route("GET", "/orgs/{organizationId}/members")
async def list_members(request: Request) -> Response:
    state, org_id, _ = require_member(request, staff=True)
    order = query_choice(request, "order", ("asc", "desc"), "desc")
    sort = query_choice(request, "sort", ("joinedAt", "lastSeenAt", "name"), "joinedAt")
    role = query_choice(request, "role", (*ROLES, "guest"))
    search = (request.query_params.get("search") or "").strip().lower()
    rows = list(state.members.get(org_id, {}).items())
    if role is not None:
        rows = [(u, m) for u, m in rows if (m.get("role") or "guest") == role]
    users = state.users
    if search:
        rows = [
            (u, m)
            for u, m in rows
            if search in str(users.get(u, {}).get("displayName", "")).lower()
            or search in str(users.get(u, {}).get("email", "")).lower()
        ]
    if sort == "lastSeenAt":
        rows = [(u, m) for u, m in rows if m.get("lastSeenAt") and not m.get("disabled")]
        rows.sort(key=lambda r: r[1]["lastSeenAt"], reverse=order == "desc")
    elif sort == "name":
        rows.sort(key=lambda r: str(users.get(r[0], {}).get("displayName", "")).lower(), reverse=order == "desc")
    else:
        rows.sort(key=lambda r: r[1].get("joinedAt", ""), reverse=order == "desc")
    counts = Counts(state, org_id)
    return ok(paginate(request, rows, lambda r: render_member(state, org_id, r[0], counts)))


@route("GET", "/orgs/{organizationId}/members/{userId}")
async def get_member(request: Request) -> Response:
    state, org_id, _ = require_member(request)
    user_id = request.path_params["userId"]
    target_member(state, org_id, user_id)
    return ok(render_member(state, org_id, user_id))


@route("PATCH", "/orgs/{organizationId}/members/{userId}")
async def update_member(request: Request) -> Response:
    state, org_id, _ = require_member(request, admin=True)
    user_id = request.path_params["userId"]
    target_member(state, org_id, user_id)
    body = await json_body(request, required=False)
    if "role" in body:
        set_role(state, org_id, user_id, check_role(body["role"]))
    return ok(render_member(state, org_id, user_id))


@route("DELETE", "/orgs/{organizationId}/members/{userId}")
async def delete_member(request: Request) -> Response:
    state, org_id, _ = require_member(request, admin=True)
    return deleted(remove_member(state, org_id, request.path_params["userId"]))


@route("POST", "/orgs/{organizationId}/members/{userId}/sso")
async def set_sso_member(request: Request) -> Response:
    state, org_id, _ = require_member(request, admin=True)
    user_id = request.path_params["userId"]
    target_member(state, org_id, user_id)["sso"] = True
    return ok(render_member(state, org_id, user_id))


@route("GET", "/orgs/{organizationId}/members/{userId}/teams")
async def list_member_teams(request: Request) -> Response:
    state, org_id, viewer = require_member(request, staff=True)
    user_id = request.path_params["userId"]
    target_member(state, org_id, user_id)
    title = (request.query_params.get("title") or "").lower()
    teams = [
        t
        for t in state.teams.values()
        if t.get("organization") == org_id and user_id in t.get("members", {}) and title in t["title"].lower()
    ]
    teams.sort(key=lambda t: t["title"].lower())
    return ok(
        paginate(
            request,
            teams,
            lambda t: {"team": render_team(state, t, viewer), "member": {"role": t["members"][user_id]}},
        )
    )


routes: list[RouteSpec] = [
    list_member_spaces,
    list_members,
    get_member,
    update_member,
    delete_member,
    set_sso_member,
    list_member_teams,
]
