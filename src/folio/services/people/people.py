"""The people of an organization, as the members and teams screens use them: members (paged, filtered by role,
searched by name or email, sorted by joined or last seen), a member's spaces and teams, role changes one at a time
or as a plan (:mod:`folio.services.people.people_plan`), SSO, removal; teams and their members, with the bulk change
of ``PUT .../members`` in one request; what the caller may do (:class:`Access`); and the once-an-hour ping.

    people = services.people
    async for page in people.member_pages(org_id, role="admin", search="ada"): ...
    outcome = await people.apply_role_plan(org_id, plan, progress=lambda n, change: ...)
    await people.ping_if_due(org_id)
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from folio.api import errors, limits
from folio.models.common import Role, TeamRole
from folio.services.errors import Refusal
from folio.services.people.people_plan import (
    SELF_DEMOTION,
    SELF_REMOVAL,
    PlanOutcome,
    RoleChange,
    RolePlan,
    member_name,
    plan_roles,
    takes_my_admin,
)
from folio.services.writes import may_have_reached

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.member import Member, MemberSpace, MemberTeam, Team, TeamMemberEntry
    from folio.services import Services

__all__ = [
    "MEMBER_SORTS",
    "PAGE_SIZE",
    "PING_EVERY",
    "Access",
    "MemberSort",
    "PeopleService",
    "Refused",
    "Removal",
]

log = logging.getLogger(__name__)

PAGE_SIZE = 100
"""Members and teams per request: the first rows show quickly, a big organization takes few trips."""
PING_EVERY = 60 * 60
"""Seconds between two pings of one organization."""
MemberSort = Literal["joinedAt", "lastSeenAt"]
Removal = Literal["removed", "already gone"]
"""What :meth:`PeopleService.remove_member` found: the member was removed now, or was gone before it sent."""
MEMBER_SORTS: tuple[MemberSort, ...] = ("joinedAt", "lastSeenAt")


class Refused(Refusal):
    """A change refused before sending, with the reason in words (``describe()``, as the API's errors do)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def describe(self) -> str:
        return self.reason


@dataclass(frozen=True)
class Access:
    """What the signed-in user may do in an organization (from its ``permissions``)."""

    user_id: str
    admin: bool
    """Only admins change roles, remove members and create teams."""
    own_team: bool
    """The user owns at least one team (so may manage that team's members)."""

    def why_not_admin(self, doing: str) -> str | None:
        """``"Only admins can <doing>."`` when the user is not an admin; None when they are."""
        return None if self.admin else f"Only admins of the organization can {doing}."


class PeopleService:
    """Members, teams and team membership of organizations; never imports Textual."""

    def __init__(
        self, client: GitBookClient, services: Services, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._client = client
        self._services = services
        self._clock = clock
        self._access: dict[str, Access] = {}
        self._pinged: dict[str, float] = {}

    # -- who the caller is -----------------------------------------------------------------------------------

    async def access(self, org_id: str, *, fresh: bool = False) -> Access:
        """What the signed-in user may do in ``org_id`` (asked once; ``fresh`` asks again)."""
        known = self._access.get(org_id)
        if known is not None and not fresh:
            return known
        me = await self._services.me()
        org = await self._client.organizations.get(org_id)
        found = Access(me.id, org.permissions.admin, org.permissions.own_team)
        self._access[org_id] = found
        return found

    def known_access(self, org_id: str) -> Access | None:
        """What :meth:`access` learned, without asking (None: not asked yet)."""
        return self._access.get(org_id)

    # -- members -------------------------------------------------------------------------------------------

    async def member_pages(
        self,
        org_id: str,
        *,
        role: str | None = None,
        search: str | None = None,
        sort: MemberSort = "joinedAt",
        limit: int = PAGE_SIZE,
    ) -> AsyncIterator[list[Member]]:
        """The members, newest first by ``sort``, one page at a time. ``role`` is a role or ``guest``;
        ``search`` matches names and emails (on the service); ``lastSeenAt`` lists only active members."""
        paginator = self._client.members.list(
            org_id,
            role=role,  # type: ignore[arg-type]  # checked by the client
            search=search or None,
            sort=sort,
            limit=limit,
        )
        async for envelope in paginator.pages():
            yield list(envelope.items)

    async def members(self, org_id: str, *, role: str | None = None) -> list[Member]:
        """Every member (of ``role``), for a picker or a count."""
        return await self._client.members.list(
            org_id,
            role=role,  # type: ignore[arg-type]  # checked by the client
            limit=limits.LIST_LIMIT_MAX,
        ).collect()

    async def member(self, org_id: str, user_id: str) -> Member:
        return await self._client.members.get(org_id, user_id)

    async def member_space_pages(self, org_id: str, user_id: str) -> AsyncIterator[list[MemberSpace]]:
        """The spaces the member can reach, with their permission on each, a page at a time."""
        async for envelope in self._client.members.spaces(org_id, user_id, limit=PAGE_SIZE).pages():
            yield list(envelope.items)

    async def member_team_pages(self, org_id: str, user_id: str) -> AsyncIterator[list[MemberTeam]]:
        """The member's teams, with their role in each, a page at a time."""
        async for envelope in self._client.members.teams(org_id, user_id, limit=PAGE_SIZE).pages():
            yield list(envelope.items)

    async def admin_count(self, org_id: str) -> int:
        """How many admins the organization has now."""
        return len(await self.members(org_id, role="admin"))

    async def _me(self, org_id: str) -> str:
        """The signed-in user's id (what :meth:`access` learned, else asked)."""
        return (await self.access(org_id)).user_id

    async def check_role(self, org_id: str, member: Member, role: Role | None) -> None:
        """Raise :class:`Refused` when giving ``member`` ``role`` would leave the organization with no admin."""
        if member.role == "admin" and role != "admin" and await self.admin_count(org_id) <= 1:
            raise Refused(
                f"{member_name(member)} is the only admin: make another member an admin first "
                "(an organization needs at least one)."
            )

    async def set_role(self, org_id: str, member: Member, role: Role | None, *, confirmed_self: bool = False) -> Member:
        """Give ``member`` ``role`` (None: guest). Demoting the last admin is refused before sending; so is taking
        away the caller's own admin role unless ``confirmed_self`` (they typed it)."""
        await self.check_role(org_id, member, role)
        if not confirmed_self and takes_my_admin(member.id, member.role, role, await self._me(org_id)):
            raise Refused(f"{SELF_DEMOTION} Nothing was sent: it needs your email typed to confirm.")
        updated = await self._client.members.update(org_id, member.id, role=role)
        self._changed(org_id)
        return updated

    async def plan(self, org_id: str, members: Iterable[Member], role: Role | None) -> RolePlan:
        """The plan of giving ``role`` to ``members``, with the organization's admins counted now."""
        me = await self._me(org_id)
        return plan_roles(list(members), role, admins_now=await self.admin_count(org_id), me=me)

    async def apply_role_plan(
        self,
        org_id: str,
        plan: RolePlan,
        *,
        progress: Callable[[int, RoleChange], None] | None = None,
        confirmed_self: bool = False,
    ) -> PlanOutcome:
        """Send the plan's changes in order, one request each; stop at the first refusal. ``progress(n, change)``
        is called before the n-th (from 0) is sent. A plan with a :attr:`RolePlan.problem` is refused whole, and
        so is one that takes away the caller's own admin role unless ``confirmed_self`` (they typed it)."""
        if plan.problem is not None:
            raise Refused(plan.problem)
        me = await self._me(org_id)
        if not confirmed_self and any(takes_my_admin(c.user_id, c.before, c.after, me) for c in plan.changes):
            raise Refused(f"{SELF_DEMOTION} Nothing was sent: it needs your email typed to confirm.")
        outcome = PlanOutcome(plan)
        for index, change in enumerate(plan.changes):
            if progress is not None:
                progress(index, change)
            try:
                await self._client.members.update(org_id, change.user_id, role=change.after)
            except Exception as exc:
                outcome.refused, outcome.error = change, exc
                outcome.not_tried = list(plan.changes[index + 1 :])
                break
            outcome.done.append(change)
        if outcome.done:
            self._changed(org_id)
        return outcome

    async def set_sso(self, org_id: str, user_id: str) -> Member:
        """Make the member an SSO member."""
        member = await self._client.members.set_sso(org_id, user_id)
        self._changed(org_id)
        return member

    async def remove_member(self, org_id: str, member: Member, *, confirmed_self: bool = False) -> Removal:
        """Remove ``member`` from the organization (and its teams). What is true is read first: a member gone
        already (a send whose answer was lost, someone else) is ``"already gone"`` and nothing is sent; the last
        admin is refused before sending, and so is the caller themself unless ``confirmed_self`` (they typed it).
        When the answer is lost, the member is looked for: gone is ``"removed"``; still there raises
        :class:`Refused` saying so (nothing was removed)."""
        name = member_name(member)
        now = await self._still_member(org_id, member.id)
        if now is None:
            self._changed(org_id)
            return "already gone"
        if now.role == "admin" and await self.admin_count(org_id) <= 1:
            raise Refused(f"{name} is the only admin: an organization needs at least one.")
        if not confirmed_self and member.id == await self._me(org_id):
            raise Refused(f"{SELF_REMOVAL} Nothing was sent: it needs your email typed to confirm.")
        try:
            await self._client.members.delete(org_id, member.id)
        except errors.ApiError as exc:
            if not may_have_reached(exc):
                raise
            if await self._still_member(org_id, member.id) is not None:
                raise Refused(
                    f"The answer was lost; Folio checked: {name} is still a member, nothing was removed."
                ) from exc
        self._changed(org_id)
        return "removed"

    async def _still_member(self, org_id: str, user_id: str) -> Member | None:
        """The member as the service has them now, or None when they are no longer in the organization."""
        try:
            return await self._client.members.get(org_id, user_id)
        except errors.NotFound:
            return None

    # -- teams ---------------------------------------------------------------------------------------------

    async def team_pages(
        self, org_id: str, *, title: str | None = None, owner: str | None = None, limit: int = PAGE_SIZE
    ) -> AsyncIterator[list[Team]]:
        """The teams (``title``: containing these words, any case; ``owner``: those that member can manage)."""
        paginator = self._client.teams.list(org_id, title=title or None, owner=owner, limit=limit)
        async for envelope in paginator.pages():
            yield list(envelope.items)

    async def team(self, org_id: str, team_id: str) -> Team:
        return await self._client.teams.get(org_id, team_id)

    async def create_team(self, org_id: str, title: str, members: Iterable[str] = ()) -> Team:
        """A new team (title 1..64 characters) with ``members`` (user ids) in it."""
        chosen = list(members)
        team = await self._client.teams.create(org_id, title=title, members=chosen or None)
        self._changed(org_id)
        return team

    async def teams_titled(self, org_id: str, title: str) -> set[str]:
        """The ids of the teams titled exactly ``title`` now: what a create remembers before it sends, so that a
        lost answer is not "found" in a team that was there already."""
        found = [t async for t in self._client.teams.list(org_id, title=title, limit=limits.LIST_LIMIT_MAX)]
        return {t.id for t in found if t.title == title}

    async def find_team(
        self, org_id: str, title: str, *, before: Collection[str] = (), members: Collection[str] = ()
    ) -> Team | None:
        """The team titled exactly ``title`` that a create whose answer was lost made (newest first): not one of
        ``before`` (the same-titled teams there before it was sent), and holding every one of ``members`` (the
        user ids it was sent with)."""
        found = [t async for t in self._client.teams.list(org_id, title=title, limit=limits.LIST_LIMIT_MAX)]
        new = [t for t in found if t.title == title and t.id not in before]
        new.sort(key=lambda t: t.created_at.timestamp() if t.created_at else 0.0, reverse=True)
        wanted = set(members)
        for team in new:
            if not wanted:
                return team
            held = {e.organization.id async for e in self._client.teams.list_members(org_id, team.id)}
            if wanted <= held:
                return team
        return None

    async def rename_team(self, org_id: str, team_id: str, title: str) -> Team:
        team = await self._client.teams.update(org_id, team_id, title=title)
        self._changed(org_id, team_id)
        return team

    async def delete_team(self, org_id: str, team_id: str) -> None:
        await self._client.teams.delete(org_id, team_id)
        self._changed(org_id, team_id)

    async def team_member_pages(self, org_id: str, team_id: str) -> AsyncIterator[list[TeamMemberEntry]]:
        """The team's members with their team role, a page at a time."""
        async for envelope in self._client.teams.list_members(org_id, team_id, limit=PAGE_SIZE).pages():
            yield list(envelope.items)

    async def find_team_member(self, org_id: str, team_id: str, who: str) -> TeamMemberEntry | None:
        """The team's member whose user id or email is ``who`` (any case), or None."""
        wanted = who.strip().lower()
        async for entry in self._client.teams.list_members(org_id, team_id, limit=limits.LIST_LIMIT_MAX):
            member = entry.organization
            if member.id.lower() == wanted or (member.user.email or "").lower() == wanted:
                return entry
        return None

    async def add_team_member(self, org_id: str, team_id: str, who: str, role: TeamRole = "member") -> None:
        """Add the member ``who`` (a user id or an email) to the team with ``role``, in one request."""
        who = who.strip()
        await self._client.teams.update_members(org_id, team_id, add=[who], memberships={who: role})
        self._changed(org_id, team_id)

    async def set_team_role(self, org_id: str, team_id: str, user_id: str, role: TeamRole) -> None:
        await self._client.teams.set_member(org_id, team_id, user_id, role=role)
        self._changed(org_id, team_id)

    async def remove_team_member(self, org_id: str, team_id: str, user_id: str) -> None:
        await self._client.teams.remove_member(org_id, team_id, user_id)
        self._changed(org_id, team_id)

    async def change_team_members(
        self,
        org_id: str,
        team_id: str,
        *,
        add: Iterable[str] = (),
        remove: Iterable[str] = (),
        roles: Mapping[str, TeamRole] | None = None,
    ) -> None:
        """Add, remove and set team roles in one request (``PUT .../members``): a user both added and removed
        ends up removed."""
        added, removed = list(add), list(remove)
        if not added and not removed and not roles:
            raise Refused("Nothing to change: mark members first.")
        await self._client.teams.update_members(
            org_id,
            team_id,
            add=added or None,
            remove=removed or None,
            memberships=dict(roles) if roles else None,
        )
        self._changed(org_id, team_id)

    # -- ping ----------------------------------------------------------------------------------------------

    async def ping_if_due(self, org_id: str) -> bool:
        """Tell the organization the user is here (``POST /orgs/{id}/ping``, which moves their "last seen"), at
        most once an hour per organization. True when a ping was sent and answered; a failure is logged, not
        raised (nothing on screen depends on it), and the next call may try again.

        The hour is kept in memory: the local state has no small key/value store to keep it across runs."""
        at = self._clock()
        last = self._pinged.get(org_id)
        if last is not None and at - last < PING_EVERY:
            return False
        self._pinged[org_id] = at  # before sending: two screens opening at once send one ping
        try:
            await self._client.organizations.ping(org_id)
        except Exception as exc:
            log.info("ping of an organization failed: %s", type(exc).__name__)
            if last is None:
                self._pinged.pop(org_id, None)
            else:
                self._pinged[org_id] = last
            return False
        return True

    # -- what was written ----------------------------------------------------------------------------------

    def _changed(self, org_id: str, team_id: str | None = None) -> None:
        """Lists of these people load again when shown (``services.changes``)."""
        topics: list[tuple[str, str]] = [("members", org_id), ("teams", org_id)]
        if team_id is not None:
            topics.append(("team", team_id))
        self._services.changes.bump(*topics)
