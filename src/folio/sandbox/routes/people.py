"""Sandbox routes: members (with their spaces and teams) and teams of an organization (spec section 4.6), and
the access rules every organization route shares (who is a member, who administers).

Rules the sandbox applies: an organization's people are visible to its members; changing members, creating
teams, SAML and organization settings take the ``admin`` role; a team is managed by admins and its owners. An
organization keeps at least one admin (400 otherwise).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from folio.models.common import ROLES
from folio.sandbox.errors import bad_request, forbidden, not_found
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
from folio.sandbox.state import Record, SandboxState

TEAM_ROLES = ("owner", "member")


# --- access -------------------------------------------------------------------------------------------------


def org_or_404(state: SandboxState, org_id: str) -> Record:
    org = state.orgs.get(org_id)
    if org is None:
        raise not_found(f"No matching organization found for {org_id!r}")
    return org


def member_of(state: SandboxState, org_id: str, user_id: str) -> Record | None:
    return state.members.get(org_id, {}).get(user_id)


def require_member(request: Request, *, admin: bool = False) -> tuple[SandboxState, str, str]:
    """(state, organization id, caller id): 404 for a missing organization, 403 unless the caller is a member
    (an admin when ``admin``)."""
    state = state_of(request)
    org_id = request.path_params["organizationId"]
    org_or_404(state, org_id)
    uid = current_user(request)
    member = member_of(state, org_id, uid)
    if member is None:
        raise forbidden("You are not a member of this organization")
    if admin and member.get("role") != "admin":
        raise forbidden("Only administrators of the organization can do this")
    return state, org_id, uid


def check_role(value: Any, name: str = "role") -> str | None:
    if value is not None and value not in ROLES:
        raise bad_request(f"{name} must be one of {', '.join(ROLES)} or null")
    return value  # type: ignore[no-any-return]


def _keeps_an_admin(state: SandboxState, org_id: str, user_id: str) -> None:
    admins = [u for u, m in state.members.get(org_id, {}).items() if m.get("role") == "admin"]
    if admins == [user_id]:
        raise bad_request("The organization must keep at least one admin")


# --- rendering ----------------------------------------------------------------------------------------------


class Counts:
    """Counts derived from the other stores, computed once per request (lists can hold thousands of rows)."""

    def __init__(self, state: SandboxState, org_id: str) -> None:
        self.spaces = sum(
            1 for s in state.spaces.values() if s.get("organization") == org_id and not s.get("deletedAt")
        )
        self.sites = sum(1 for s in state.sites.values() if s.get("organization") == org_id)
        self.teams: dict[str, int] = {}
        for team in state.teams.values():
            if team.get("organization") == org_id:
                for uid in team.get("members", {}):
                    self.teams[uid] = self.teams.get(uid, 0) + 1


def render_member(state: SandboxState, org_id: str, user_id: str, counts: Counts | None = None) -> Record:
    """A member in the wire shape (``OrganizationMember``); other areas may use it (commenters)."""
    rec = state.members.get(org_id, {}).get(user_id) or {}
    counts = counts or Counts(state, org_id)
    guest = rec.get("role") is None
    out: Record = {
        "object": "member",
        "id": user_id,
        "role": rec.get("role"),
        "user": state.user_json(user_id),
        "disabled": bool(rec.get("disabled", False)),
        "joinedAt": rec.get("joinedAt") or state.now(),
        "sso": bool(rec.get("sso", False)),
        "spaces": 0 if guest else counts.spaces,
        "teams": counts.teams.get(user_id, 0),
        "sites": 0 if guest else counts.sites,
    }
    if rec.get("lastSeenAt"):
        out["lastSeenAt"] = rec["lastSeenAt"]
    return out


def can_manage_team(state: SandboxState, team: Record, user_id: str) -> bool:
    member = member_of(state, team["organization"], user_id) or {}
    return member.get("role") == "admin" or team.get("members", {}).get(user_id) == "owner"


def render_team(state: SandboxState, team: Record, viewer: str) -> Record:
    return {
        "object": "team",
        "id": team["id"],
        "title": team["title"],
        "members": len(team.get("members", {})),
        "spaces": len(team.get("spaces", {})),
        "createdAt": team["createdAt"],
        "permissions": {"admin": can_manage_team(state, team, viewer), "view": True},
    }


def _target_member(state: SandboxState, org_id: str, user_id: str) -> Record:
    member = member_of(state, org_id, user_id)
    if member is None:
        raise not_found(f"No matching member found for {user_id!r}")
    return member


def team_or_404(state: SandboxState, org_id: str, team_id: str) -> Record:
    team = state.teams.get(team_id)
    if team is None or team.get("organization") != org_id:
        raise not_found(f"No matching team found for {team_id!r}")
    return team


def _choice(request: Request, name: str, allowed: tuple[str, ...], default: str | None) -> str | None:
    value = request.query_params.get(name, default)
    if value is not None and value not in allowed:
        raise bad_request(f"{name} must be one of {', '.join(allowed)}")
    return value


# --- members ------------------------------------------------------------------------------------------------


@route("GET", "/orgs/{organizationId}/members")
async def list_members(request: Request) -> Response:
    state, org_id, _ = require_member(request)
    order = _choice(request, "order", ("asc", "desc"), "desc")
    sort = _choice(request, "sort", ("joinedAt", "lastSeenAt", "name"), "joinedAt")
    role = _choice(request, "role", (*ROLES, "guest"), None)
    search = (request.query_params.get("search") or "").strip().lower()
    rows = list(state.members.get(org_id, {}).items())
    if role is not None:
        rows = [(u, m) for u, m in rows if (m.get("role") or "guest") == role]
    if search:
        users = state.users
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
        rows.sort(
            key=lambda r: str(state.users.get(r[0], {}).get("displayName", "")).lower(),
            reverse=order == "desc",
        )
    else:
        rows.sort(key=lambda r: r[1].get("joinedAt", ""), reverse=order == "desc")
    counts = Counts(state, org_id)
    return ok(paginate(request, rows, lambda r: render_member(state, org_id, r[0], counts)))


@route("GET", "/orgs/{organizationId}/members/{userId}")
async def get_member(request: Request) -> Response:
    state, org_id, _ = require_member(request)
    user_id = request.path_params["userId"]
    _target_member(state, org_id, user_id)
    return ok(render_member(state, org_id, user_id))


@route("PATCH", "/orgs/{organizationId}/members/{userId}")
async def update_member(request: Request) -> Response:
    state, org_id, _ = require_member(request, admin=True)
    user_id = request.path_params["userId"]
    member = _target_member(state, org_id, user_id)
    body = await json_body(request, required=False)
    if "role" in body:
        role = check_role(body["role"])
        if role != "admin" and member.get("role") == "admin":
            _keeps_an_admin(state, org_id, user_id)
        member["role"] = role
    return ok(render_member(state, org_id, user_id))


@route("DELETE", "/orgs/{organizationId}/members/{userId}")
async def delete_member(request: Request) -> Response:
    state, org_id, _ = require_member(request, admin=True)
    user_id = request.path_params["userId"]
    member = member_of(state, org_id, user_id)
    if member is None:
        return deleted(False)
    if member.get("role") == "admin":
        _keeps_an_admin(state, org_id, user_id)
    del state.members[org_id][user_id]
    for team in state.teams.values():
        if team.get("organization") == org_id:
            team.get("members", {}).pop(user_id, None)
    return deleted(True)


@route("POST", "/orgs/{organizationId}/members/{userId}/sso")
async def set_sso_member(request: Request) -> Response:
    state, org_id, _ = require_member(request, admin=True)
    user_id = request.path_params["userId"]
    _target_member(state, org_id, user_id)["sso"] = True
    return ok(render_member(state, org_id, user_id))


@route("GET", "/orgs/{organizationId}/members/{userId}/teams")
async def list_member_teams(request: Request) -> Response:
    state, org_id, viewer = require_member(request)
    user_id = request.path_params["userId"]
    _target_member(state, org_id, user_id)
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


# --- teams --------------------------------------------------------------------------------------------------


@route("GET", "/orgs/{organizationId}/teams")
async def list_teams(request: Request) -> Response:
    state, org_id, viewer = require_member(request)
    title = (request.query_params.get("title") or "").lower()
    owner = request.query_params.get("owner")
    teams = [t for t in state.teams.values() if t.get("organization") == org_id and title in t["title"].lower()]
    if owner is not None:
        teams = [t for t in teams if can_manage_team(state, t, owner)]
    teams.sort(key=lambda t: t["title"].lower())
    return ok(paginate(request, teams, lambda t: render_team(state, t, viewer)))


def _user_ref(state: SandboxState, org_id: str, ref: Any, field: str) -> str:
    """A member's user id from a user id or an email (400 when it names no member)."""
    if not isinstance(ref, str) or not ref:
        raise bad_request(f"{field} must be a list of user ids or emails")
    members = state.members.get(org_id, {})
    if ref in members:
        return ref
    for uid in members:
        if str(state.users.get(uid, {}).get("email", "")).lower() == ref.lower():
            return uid
    raise bad_request(f"{field}: {ref[:80]!r} is not a member of the organization")


def _string_list(body: dict[str, Any], field: str) -> list[Any]:
    value = body.get(field, [])
    if not isinstance(value, list):
        raise bad_request(f"{field} must be an array")
    return value


@route("PUT", "/orgs/{organizationId}/teams")
async def create_team(request: Request) -> Response:
    state, org_id, viewer = require_member(request, admin=True)
    body = await json_body(request)
    title = field_str(body, "title", required=True, min=1, max=64)
    members = [_user_ref(state, org_id, ref, "members") for ref in _string_list(body, "members")]
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


def _managed_team(request: Request) -> tuple[SandboxState, Record, str]:
    state, org_id, viewer = require_member(request)
    team = team_or_404(state, org_id, request.path_params["teamId"])
    if not can_manage_team(state, team, viewer):
        raise forbidden("Only administrators and team owners can manage this team")
    return state, team, viewer


@route("PATCH", "/orgs/{organizationId}/teams/{teamId}")
async def update_team(request: Request) -> Response:
    state, team, viewer = _managed_team(request)
    body = await json_body(request)
    team["title"] = field_str(body, "title", required=True, min=1, max=64)
    return ok(render_team(state, team, viewer))


@route("DELETE", "/orgs/{organizationId}/teams/{teamId}")
async def delete_team(request: Request) -> Response:
    state, org_id, _ = require_member(request)
    team = state.teams.get(request.path_params["teamId"])
    if team is None or team.get("organization") != org_id:
        return deleted(False)
    state, team, _ = _managed_team(request)
    del state.teams[team["id"]]
    for provider in state.saml.values():
        if provider.get("defaultTeam") == team["id"]:
            provider["defaultTeam"] = None
    return deleted(True)


@route("GET", "/orgs/{organizationId}/teams/{teamId}/members")
async def list_team_members(request: Request) -> Response:
    state, org_id, _ = require_member(request)
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


def _team_role(value: Any, field: str) -> str:
    if value not in TEAM_ROLES:
        raise bad_request(f"{field} must be one of {', '.join(TEAM_ROLES)}")
    return value  # type: ignore[no-any-return]


@route("PUT", "/orgs/{organizationId}/teams/{teamId}/members")
async def update_team_members(request: Request) -> Response:
    state, team, _ = _managed_team(request)
    org_id = team["organization"]
    body = await json_body(request)
    add = [_user_ref(state, org_id, ref, "add") for ref in _string_list(body, "add")]
    remove = [_user_ref(state, org_id, ref, "remove") for ref in _string_list(body, "remove")]
    memberships = body.get("memberships", {})
    if not isinstance(memberships, dict):
        raise bad_request("memberships must be an object")
    roles: dict[str, str] = {}
    for ref, entry in memberships.items():
        if not isinstance(entry, dict):
            raise bad_request("memberships values must be objects with a role")
        roles[_user_ref(state, org_id, ref, "memberships")] = _team_role(entry.get("role"), "memberships.role")
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
    _target_member(state, team["organization"], user_id)
    body = await json_body(request, required=False)
    current = team.setdefault("members", {})
    role = _team_role(body["role"], "role") if "role" in body else current.get(user_id, "member")
    current[user_id] = role
    return empty(204)


@route("DELETE", "/orgs/{organizationId}/teams/{teamId}/members/{userId}")
async def delete_team_member(request: Request) -> Response:
    _, team, _ = _managed_team(request)
    existed = team.get("members", {}).pop(request.path_params["userId"], None) is not None
    return deleted(existed)


# --- a member's spaces --------------------------------------------------------------------------------------

_RANK: dict[str, int] = {role: n for n, role in enumerate(reversed(ROLES))}


def _space_permissions(role: str) -> dict[str, bool]:
    def at(least: str) -> bool:
        return _RANK[role] >= _RANK[least]

    return {
        "view": True,
        "access": True,
        "admin": at("admin"),
        "viewInviteLinks": at("admin"),
        "edit": at("edit"),
        "triggerGitSync": at("edit"),
        "comment": at("comment"),
        "merge": at("review"),
        "review": at("review"),
        "installIntegration": at("admin"),
    }


def render_space_summary(state: SandboxState, space: Record, role: str, stats: dict[str, dict[str, int]]) -> Record:
    """A space in the wire shape of ``Space``, from its record alone (the spaces area renders it fully)."""
    sid, org_id = space["id"], space.get("organization", "")
    counts = stats.get(sid, {})
    out: Record = {
        "object": "space",
        "id": sid,
        "title": space.get("title", ""),
        "emoji": space.get("emoji") or "",
        "organization": org_id,
        "visibility": space.get("visibility", "private"),
        "revision": space.get("revision") or "",
        "createdAt": space["createdAt"],
        "updatedAt": space.get("updatedAt") or space["createdAt"],
        "comments": counts.get("comments", 0),
        "changeRequests": counts.get("all", 0),
        "changeRequestsOpen": counts.get("open", 0),
        "changeRequestsDraft": counts.get("draft", 0),
        "mergeRules": space.get("mergeRules") or {"type": "inherit"},
        "urls": {
            "location": f"{state.api_base}/spaces/{sid}",
            "app": f"{state.app_base}/o/{org_id}/s/{sid}/",
        },
        "defaultLevel": space.get("defaultLevel", "inherit"),
        "permissions": _space_permissions(role),
    }
    out.update({k: space[k] for k in ("parent", "language", "editMode", "deletedAt") if space.get(k)})
    return out


def space_stats(state: SandboxState) -> dict[str, dict[str, int]]:
    """Per space: open comments, and change requests (all, open, draft)."""
    stats: dict[str, dict[str, int]] = {}
    for cr in state.change_requests.values():
        row = stats.setdefault(cr.get("space", ""), {})
        row["all"] = row.get("all", 0) + 1
        status = cr.get("status", "")
        row[status] = row.get(status, 0) + 1
    for comment in state.comments.values():
        if comment.get("status") != "resolved" and not comment.get("changeRequest"):
            row = stats.setdefault(comment.get("space", ""), {})
            row["comments"] = row.get("comments", 0) + 1
    return stats


@route("GET", "/orgs/{organizationId}/members/{userId}/spaces")
async def list_member_spaces(request: Request) -> Response:
    state, org_id, _ = require_member(request)
    user_id = request.path_params["userId"]
    role = _target_member(state, org_id, user_id).get("role")
    order = _choice(request, "order", ("asc", "desc"), "desc")
    spaces = (
        []
        if role is None
        else [s for s in state.spaces.values() if s.get("organization") == org_id and not s.get("deletedAt")]
    )
    spaces.sort(key=lambda s: s.get("createdAt", ""), reverse=order == "desc")
    stats = space_stats(state)
    return ok(
        paginate(
            request,
            spaces,
            lambda s: {"permission": role, "space": render_space_summary(state, s, str(role), stats)},
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
    list_teams,
    create_team,
    get_team,
    update_team,
    delete_team,
    list_team_members,
    update_team_members,
    put_team_member,
    delete_team_member,
]
