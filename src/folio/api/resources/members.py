"""Members of an organization (spec section 4.6): list, read, change the role of, remove, mark as SSO members,
and list a member's spaces and teams.

    async for member in client.members.list(org_id, role="admin", search="ada"): ...
    member = await client.members.update(org_id, user_id, role="edit")
"""

from __future__ import annotations

from typing import Literal

from folio.api import limits
from folio.api.pagination import Paginator
from folio.api.resources._base import UNSET, Resource, body, path
from folio.api.resources.organizations import check_role
from folio.models.common import ROLES, Role
from folio.models.member import Member, MemberSpace, MemberTeam

__all__ = ["MEMBER_SORTS", "ORDERS", "MembersResource"]

ORDERS = ("asc", "desc")
MEMBER_SORTS = ("joinedAt", "lastSeenAt", "name")
Order = Literal["asc", "desc"]
MemberSort = Literal["joinedAt", "lastSeenAt", "name"]


class MembersResource(Resource):
    """``client.members``."""

    def list(
        self,
        organization_id: str,
        *,
        order: Order | None = None,
        role: Role | Literal["guest"] | None = None,
        search: str | None = None,
        sort: MemberSort | None = None,
        limit: int | None = None,
    ) -> Paginator[Member]:
        """Members, newest first by default. ``role="guest"`` lists the guests; ``search`` matches names and
        emails; ``sort="lastSeenAt"`` lists only active members."""
        limits.check_one_of("order", order, ORDERS)
        limits.check_one_of("sort", sort, MEMBER_SORTS)
        limits.check_one_of("role", role, (*ROLES, "guest"))
        params = {"order": order, "role": role, "search": search, "sort": sort}
        return self._list(Member, path("/orgs/{}/members", organization_id), params, limit=limit)

    async def get(self, organization_id: str, user_id: str) -> Member:
        return await self._get(Member, path("/orgs/{}/members/{}", organization_id, user_id))

    async def update(self, organization_id: str, user_id: str, *, role: Role | None = UNSET) -> Member:
        """Change a member's role; ``None`` makes them a guest."""
        if role is not UNSET:
            check_role("role", role)
        return await self._send(
            Member,
            "PATCH",
            path("/orgs/{}/members/{}", organization_id, user_id),
            body(role=role),
            idempotent=True,
        )

    async def delete(self, organization_id: str, user_id: str) -> None:
        """Remove a member from the organization (and from its teams)."""
        await self._send_empty("DELETE", path("/orgs/{}/members/{}", organization_id, user_id))

    async def set_sso(self, organization_id: str, user_id: str) -> Member:
        """Make the user an SSO member of the organization."""
        return await self._send(
            Member, "POST", path("/orgs/{}/members/{}/sso", organization_id, user_id), idempotent=True
        )

    def spaces(
        self, organization_id: str, user_id: str, *, order: Order | None = None, limit: int | None = None
    ) -> Paginator[MemberSpace]:
        """The spaces the member can reach, with their permission on each."""
        limits.check_one_of("order", order, ORDERS)
        return self._list(
            MemberSpace,
            path("/orgs/{}/members/{}/spaces", organization_id, user_id),
            {"order": order},
            limit=limit,
        )

    def teams(
        self, organization_id: str, user_id: str, *, title: str | None = None, limit: int | None = None
    ) -> Paginator[MemberTeam]:
        """The member's teams, with their role in each; ``title`` filters (case-insensitive, contains)."""
        return self._list(
            MemberTeam,
            path("/orgs/{}/members/{}/teams", organization_id, user_id),
            {"title": title},
            limit=limit,
        )
