"""Teams of an organization and their members (spec section 4.6).

team = await client.teams.create(org_id, title="Docs Core", members=[user_id])
await client.teams.update_members(org_id, team.id, add=["a@x.dev"], remove=[other_id])
async for entry in client.teams.list_members(org_id, team.id): ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from folio.api import limits
from folio.api.errors import InvalidRequest
from folio.api.pagination import Paginator
from folio.api.resources._base import UNSET, Resource, body, path
from folio.models.common import TeamRole
from folio.models.member import Team, TeamMemberEntry

__all__ = ["TEAM_ROLES", "TeamsResource", "check_team_title"]

TEAM_ROLES: tuple[TeamRole, ...] = ("owner", "member")


def check_team_title(title: str) -> None:
    if title is None:
        raise InvalidRequest("title", "is required", "1..64 characters")
    limits.check_length("title", title, min=1, max=64)


def _check_users(field: str, users: Sequence[str] | None) -> list[str] | None:
    if users is None:
        return None
    if isinstance(users, str) or not all(isinstance(u, str) and u for u in users):
        raise InvalidRequest(field, "must be a list of user ids or emails", "string[]")
    return list(users)


class TeamsResource(Resource):
    """``client.teams``."""

    def list(
        self,
        organization_id: str,
        *,
        owner: str | None = None,
        title: str | None = None,
        limit: int | None = None,
    ) -> Paginator[Team]:
        """Teams; ``owner`` keeps those that member can manage; ``title`` filters (case-insensitive)."""
        return self._list(Team, path("/orgs/{}/teams", organization_id), {"owner": owner, "title": title}, limit=limit)

    async def create(self, organization_id: str, *, title: str, members: Sequence[str] | None = None) -> Team:
        """Create a team (title 1..64 characters), optionally with members (user ids)."""
        check_team_title(title)
        payload = body(title=title, members=_check_users("members", members) if members is not None else UNSET)
        # A PUT that creates: sending it twice makes two teams.
        return await self._send(Team, "PUT", path("/orgs/{}/teams", organization_id), payload, idempotent=False)

    async def get(self, organization_id: str, team_id: str) -> Team:
        return await self._get(Team, path("/orgs/{}/teams/{}", organization_id, team_id))

    async def update(self, organization_id: str, team_id: str, *, title: str) -> Team:
        check_team_title(title)
        return await self._send(
            Team,
            "PATCH",
            path("/orgs/{}/teams/{}", organization_id, team_id),
            {"title": title},
            idempotent=True,
        )

    async def delete(self, organization_id: str, team_id: str) -> None:
        await self._send_empty("DELETE", path("/orgs/{}/teams/{}", organization_id, team_id))

    def list_members(
        self, organization_id: str, team_id: str, *, limit: int | None = None
    ) -> Paginator[TeamMemberEntry]:
        return self._list(TeamMemberEntry, path("/orgs/{}/teams/{}/members", organization_id, team_id), limit=limit)

    async def update_members(
        self,
        organization_id: str,
        team_id: str,
        *,
        add: Sequence[str] | None = None,
        remove: Sequence[str] | None = None,
        memberships: Mapping[str, TeamRole] | None = None,
    ) -> None:
        """Add and remove members (user ids or emails) and set roles, in one request. A user both added and
        removed ends up removed."""
        if memberships is not None:
            for user, role in memberships.items():
                limits.check_one_of(f"memberships.{user}.role", role, TEAM_ROLES)
        payload = body(
            add=_check_users("add", add) if add is not None else UNSET,
            remove=_check_users("remove", remove) if remove is not None else UNSET,
            memberships={u: {"role": r} for u, r in memberships.items()} if memberships is not None else UNSET,
        )
        await self._send_empty(
            "PUT", path("/orgs/{}/teams/{}/members", organization_id, team_id), payload, idempotent=True
        )

    async def set_member(self, organization_id: str, team_id: str, user_id: str, *, role: TeamRole = UNSET) -> None:
        """Add a member to the team, or change their role in it."""
        if role is not UNSET:
            limits.check_one_of("role", role, TEAM_ROLES)
        await self._send_empty(
            "PUT",
            path("/orgs/{}/teams/{}/members/{}", organization_id, team_id, user_id),
            body(role=role),
            idempotent=True,
        )

    async def remove_member(self, organization_id: str, team_id: str, user_id: str) -> None:
        await self._send_empty("DELETE", path("/orgs/{}/teams/{}/members/{}", organization_id, team_id, user_id))
