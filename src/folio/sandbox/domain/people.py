"""Members and teams of an organization (spec 2.3, 4.6): rendering them, and the rules of membership.

Rules the sandbox applies, as the service does:

- an organization's members and teams are listed to its members with a role (not to guests: the
  organization's ``permissions.listMembers`` and ``listTeams``);
- changing members, creating, renaming and deleting teams, SAML providers and the organization's settings
  take the ``admin`` role; a team's members are also managed by the team's owners (spec 2.1: an owner "can
  manage team members"); anyone else gets 403;
- an organization keeps at least one admin: demoting or removing the last one is a 409;
- removing a member takes them out of every team of the organization; deleting a team leaves its members in
  the organization (and clears it as a SAML provider's default team);
- a team title is 1..64 characters.
"""

from __future__ import annotations

from typing import Any

from folio.sandbox.domain.access import member_of
from folio.sandbox.errors import bad_request, conflict, not_found
from folio.sandbox.state import Record, SandboxState

TEAM_ROLES = ("owner", "member")
TEAM_TITLE_MAX = 64
LAST_ADMIN = "An organization needs at least one admin: make another member an admin first"


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
    """A member in the wire shape (``OrganizationMember``); other areas use it too (commenters)."""
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


# --- lookups and request fields -----------------------------------------------------------------------------


def target_member(state: SandboxState, org_id: str, user_id: str) -> Record:
    """The membership a path names (404 when the user is not a member)."""
    member = member_of(state, org_id, user_id)
    if member is None:
        raise not_found(f"No matching member found for {user_id!r}")
    return member


def team_or_404(state: SandboxState, org_id: str, team_id: str) -> Record:
    team = state.teams.get(team_id)
    if team is None or team.get("organization") != org_id:
        raise not_found(f"No matching team found for {team_id!r}")
    return team


def user_ref(state: SandboxState, org_id: str, ref: Any, field: str) -> str:
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


def team_role(value: Any, field: str) -> str:
    if value not in TEAM_ROLES:
        raise bad_request(f"{field} must be one of {', '.join(TEAM_ROLES)}")
    return value  # type: ignore[no-any-return]


# --- rules --------------------------------------------------------------------------------------------------


def keep_an_admin(state: SandboxState, org_id: str, user_id: str) -> None:
    """409 when ``user_id`` is the organization's only admin (demoting or removing them would leave none)."""
    admins = [u for u, m in state.members.get(org_id, {}).items() if m.get("role") == "admin"]
    if admins == [user_id]:
        raise conflict(LAST_ADMIN)


def set_role(state: SandboxState, org_id: str, user_id: str, role: str | None) -> None:
    member = target_member(state, org_id, user_id)
    if role != "admin" and member.get("role") == "admin":
        keep_an_admin(state, org_id, user_id)
    member["role"] = role


def remove_member(state: SandboxState, org_id: str, user_id: str) -> bool:
    """Remove a member and their team memberships; False when they were not a member."""
    member = member_of(state, org_id, user_id)
    if member is None:
        return False
    if member.get("role") == "admin":
        keep_an_admin(state, org_id, user_id)
    del state.members[org_id][user_id]
    for team in state.teams.values():
        if team.get("organization") == org_id:
            team.get("members", {}).pop(user_id, None)
    return True


def delete_team(state: SandboxState, team: Record) -> None:
    """Delete a team: its members stay in the organization; SAML providers lose it as their default team."""
    del state.teams[team["id"]]
    for provider in state.saml.values():
        if provider.get("defaultTeam") == team["id"]:
            provider["defaultTeam"] = None
