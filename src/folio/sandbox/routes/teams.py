"""Sandbox routes: the teams of an organization and their members (spec 4.6).

Members read teams. Creating, renaming and deleting a team takes the ``admin`` role; a team's members are
managed by admins and by the team's owners (spec 2.1: an owner "can manage team members"). Titles are 1..64
characters. Deleting a team leaves its members in the organization.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain.access import require_member
from folio.sandbox.domain.people import (
    TEAM_TITLE_MAX,
    Counts,
    can_manage_team,
    delete_team,
    render_member,
    render_team,
    target_member,
    team_or_404,
    team_role,
    user_ref,
)
from folio.sandbox.errors import bad_request, forbidden
from folio.sandbox.http import RouteSpec, created, deleted, empty, field_str, json_body, ok, route
from folio.sandbox.paging import paginate
from folio.sandbox.state import Record, SandboxState


def _title(body: dict[str, Any]) -> str:
    title: str = field_str(body, "title", required=True, min=1, max=TEAM_TITLE_MAX)
    return title


def _string_list(body: dict[str, Any], field: str) -> list[Any]:
    value = body.get(field, [])
    if not isinstance(value, list):
        raise bad_request(f"{field} must be an array")
    return value


def _managed_team(request: Request) -> tuple[SandboxState, Record, str]:
    """(state, team, caller) for a change to the team's members: admins and the team's owners only."""
    state, org_id, viewer = require_member(request)
    team = team_or_404(state, org_id, request.path_params["teamId"])
    if not can_manage_team(state, team, viewer):
        raise forbidden("Only administrators and team owners can manage this team")
    return state, team, viewer


@route("GET", "/orgs/{organizationId}/teams")
async def list_teams(request: Request) -> Response:
    state, org_id, viewer = require_member(request, staff=True)
    title = (request.query_params.get("title") or "").lower()
    owner = request.query_params.get("owner")
    teams = [t for t in state.teams.values() if t.get("organization") == org_id and title in t["title"].lower()]
    if owner is not None:
        teams = [t for t in teams if can_manage_team(state, t, owner)]
    teams.sort(key=lambda t: t["title"].lower())
    return ok(paginate(request, teams, lambda t: render_team(state, t, viewer)))


@route("PUT", "/orgs/{organizationId}/teams")
async def create_team(request: Request) -> Response:
    state, org_id, viewer = require_member(request, admin=True)
    body = await json_body(request)
    title = _title(body)
    members = [user_ref(state, org_id, ref, "members") for ref in _string_list(body, "members")]
    tid = state.new_id()
    state.teams[tid] = {
        "id": tid,
        "organization": org_id,
        "title": title,
        "createdAt": state.now(),
        "members": dict.fromkeys(members, "member"),
    }
    return created(render_team(state, state.teams[tid], viewer))


@route("GET", "/orgs/{organizationId}/teams/{teamId}")
async def get_team(request: Request) -> Response:
    state, org_id, viewer = require_member(request)
    return ok(render_team(state, team_or_404(state, org_id, request.path_params["teamId"]), viewer))


@route("PATCH", "/orgs/{organizationId}/teams/{teamId}")
async def update_team(request: Request) -> Response:
    state, org_id, viewer = require_member(request, admin=True)
    team = team_or_404(state, org_id, request.path_params["teamId"])
    team["title"] = _title(await json_body(request))
    return ok(render_team(state, team, viewer))


@route("DELETE", "/orgs/{organizationId}/teams/{teamId}")
async def delete_team_route(request: Request) -> Response:
    state, org_id, _ = require_member(request, admin=True)
    team = state.teams.get(request.path_params["teamId"])
    if team is None or team.get("organization") != org_id:
        return deleted(False)
    delete_team(state, team)
    return deleted(True)


@route("GET", "/orgs/{organizationId}/teams/{teamId}/members")
async def list_team_members(request: Request) -> Response:
    state, org_id, _ = require_member(request, staff=True)
    team = team_or_404(state, org_id, request.path_params["teamId"])
    rows = sorted(
        team.get("members", {}).items(),
        key=lambda r: (r[1] != "owner", str(state.users.get(r[0], {}).get("displayName", "")).lower()),
    )
    counts = Counts(state, org_id)
    return ok(
        paginate(
            request,
            rows,
            lambda r: {
                "organization": render_member(state, org_id, r[0], counts),
                "team": {"role": r[1]},
                "permissions": {"view": True},
            },
        )
    )


@route("PUT", "/orgs/{organizationId}/teams/{teamId}/members")
async def update_team_members(request: Request) -> Response:
    state, team, _ = _managed_team(request)
    org_id = team["organization"]
    body = await json_body(request)
    add = [user_ref(state, org_id, ref, "add") for ref in _string_list(body, "add")]
    remove = [user_ref(state, org_id, ref, "remove") for ref in _string_list(body, "remove")]
    memberships = body.get("memberships", {})
    if not isinstance(memberships, dict):
        raise bad_request("memberships must be an object")
    roles: dict[str, str] = {}
    for ref, entry in memberships.items():
        if not isinstance(entry, dict):
            raise bad_request("memberships values must be objects with a role")
        roles[user_ref(state, org_id, ref, "memberships")] = team_role(entry.get("role"), "memberships.role")
    current = team.setdefault("members", {})
    for uid in add:
        current.setdefault(uid, "member")
    current.update(roles)
    for uid in remove:  # last: a user both added and removed ends up removed
        current.pop(uid, None)
    return empty(204)


@route("PUT", "/orgs/{organizationId}/teams/{teamId}/members/{userId}")
async def put_team_member(request: Request) -> Response:
    state, team, _ = _managed_team(request)
    user_id = request.path_params["userId"]
    target_member(state, team["organization"], user_id)
    body = await json_body(request, required=False)
    current = team.setdefault("members", {})
    current[user_id] = team_role(body["role"], "role") if "role" in body else current.get(user_id, "member")
    return empty(204)


@route("DELETE", "/orgs/{organizationId}/teams/{teamId}/members/{userId}")
async def delete_team_member(request: Request) -> Response:
    _, team, _ = _managed_team(request)
    existed = team.get("members", {}).pop(request.path_params["userId"], None) is not None
    return deleted(existed)


routes: list[RouteSpec] = [
    list_teams,
    create_team,
    get_team,
    update_team,
    delete_team_route,
    list_team_members,
    update_team_members,
    put_team_member,
    delete_team_member,
]
