"""Organizations (spec section 4.4b): list, read and update them, join one, their invite links (list, create,
read, change, delete) and inviting people by email, search an organization's content and tell it the member is
still here. Invite links other than delete, and inviting by email, come from the public description: a service
that does not offer them raises :class:`folio.api.errors.NotOffered` (``INVITES``).

    async for org in client.organizations.list(): ...
    org = await client.organizations.update(org_id, title="Northwind")
    async for space in client.organizations.search(org_id, "webhooks"): ...
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from folio.api import limits
from folio.api.errors import InvalidRequest
from folio.api.pagination import Paginator
from folio.api.resources._base import UNSET, Resource, body, path
from folio.models.common import ROLES, Role
from folio.models.invite import InvitedUsers, InviteLink
from folio.models.organization import Organization, PingResult
from folio.models.search import SearchSpaceResult

__all__ = ["INVITES", "INVITE_EMAILS_MAX", "SEARCH_QUERY_MAX", "OrganizationsResource", "check_role"]

SEARCH_QUERY_MAX = 512
INVITES = "organizations.invites"
"""The optional operations' name: invite links (but their delete) and inviting by email."""
INVITE_EMAILS_MAX = 100
"""At most this many emails in one invite (Folio's own cap: the description sets none)."""


def check_role(field: str, value: Role | None, *, nullable: bool = True) -> None:
    """A member role (or null where the operation allows guests)."""
    if value is None:
        if not nullable:
            raise InvalidRequest(field, "must not be null", "one of " + ", ".join(ROLES))
        return
    limits.check_one_of(field, value, ROLES)


def check_search_query(query: str) -> None:
    limits.check_length("query", query, min=1, max=SEARCH_QUERY_MAX)


def _not_null(field: str, value: Any, limit: str) -> None:
    if value is None:
        raise InvalidRequest(field, "must not be null", limit)


class OrganizationsResource(Resource):
    """``client.organizations``."""

    def list(self, *, limit: int | None = None) -> Paginator[Organization]:
        """The organizations the authenticated user is a member of."""
        return self._list(Organization, "/orgs", limit=limit)

    async def get(self, organization_id: str) -> Organization:
        return await self._get(Organization, path("/orgs/{}", organization_id))

    async def update(
        self,
        organization_id: str,
        *,
        title: str = UNSET,
        email_domains: Sequence[str] = UNSET,
        hostname: str = UNSET,
        default_role: Role | None = UNSET,
        default_content: dict[str, Any] | None = UNSET,
        logo: str | None = UNSET,
        sso: bool = UNSET,
        ai: bool = UNSET,
        invite_links: bool = UNSET,
        merge_rules: dict[str, Any] = UNSET,
    ) -> Organization:
        """Change the given settings; ``None`` clears ``default_role``, ``default_content`` and ``logo``."""
        if title is not UNSET:
            _not_null("title", title, "2..255 characters")
            limits.check_length("title", title, min=2, max=255)
        if hostname is not UNSET:
            _not_null("hostname", hostname, "3..32 characters")
            limits.check_length("hostname", hostname, min=3, max=32)
        if logo is not UNSET:
            limits.check_uri("logo", logo, max=2048)
        if default_role is not UNSET:
            check_role("defaultRole", default_role)
        if email_domains is not UNSET and (
            email_domains is None or not all(isinstance(d, str) and d for d in email_domains)
        ):
            raise InvalidRequest("emailDomains", "must be a list of domain names", "string[]")
        if email_domains is not UNSET:
            email_domains = list(email_domains)
        payload = body(
            title=title,
            emailDomains=email_domains,
            hostname=hostname,
            defaultRole=default_role,
            defaultContent=default_content,
            logo=logo,
            sso=sso,
            ai=ai,
            inviteLinks=invite_links,
            mergeRules=merge_rules,
        )
        return await self._send(Organization, "PATCH", path("/orgs/{}", organization_id), payload, idempotent=True)

    async def delete_invite(self, organization_id: str, invite_id: str) -> bool:
        """Delete an invite link of the organization: True when it was deleted (205), False when it did not
        exist (204). No error either way."""
        url = path("/orgs/{}/link-invites/{}", organization_id, invite_id)
        response = await self._client.request("DELETE", url)
        return response.status_code != 204

    def invite_links(self, organization_id: str, *, limit: int | None = None) -> Paginator[InviteLink]:
        """The organization's invite links (to it, or to one of its spaces or collections)."""
        return self._list(
            InviteLink,
            path("/orgs/{}/link-invites", organization_id),
            limit=limit,
            optional=INVITES,
            probe=path("/orgs/{}", organization_id),
        )

    # Reading or changing one link is not marked optional: its 404 says that link does not exist (the list and
    # the create tell whether the service offers invite links at all).
    async def get_invite_link(self, organization_id: str, invite_id: str) -> InviteLink:
        return await self._get(InviteLink, path("/orgs/{}/link-invites/{}", organization_id, invite_id))

    async def create_invite_link(self, organization_id: str, *, role: Role | None) -> InviteLink:
        """A new invite link to the organization for ``role`` (None: guests)."""
        check_role("role", role)
        return await self._send(
            InviteLink,
            "POST",
            path("/orgs/{}/link-invites", organization_id),
            {"role": role},
            optional=INVITES,
            probe=path("/orgs/{}", organization_id),
        )

    async def update_invite_link(
        self, organization_id: str, invite_id: str, *, role: Role | None = UNSET, level: Role | None = UNSET
    ) -> InviteLink:
        """Change what an invite link gives: ``role`` for a link to the organization, ``level`` for one to a
        space or collection (None: guests). One of the two."""
        if (role is UNSET) == (level is UNSET):
            raise InvalidRequest("role", "give either role or level", "one of the two")
        check_role("role" if level is UNSET else "level", role if level is UNSET else level)
        return await self._send(
            InviteLink,
            "PATCH",
            path("/orgs/{}/link-invites/{}", organization_id, invite_id),
            body(role=role, level=level),
            idempotent=True,
        )

    async def invite_users(
        self, organization_id: str, emails: Sequence[str], *, role: Role | None = UNSET, sso: bool = UNSET
    ) -> InvitedUsers:
        """Invite people by email (1..100 of them) with ``role`` (None: guests; UNSET: the default role); ``sso``
        invites them as SSO members."""
        if not emails:
            raise InvalidRequest("emails", "is empty", "at least one email")
        if len(emails) > INVITE_EMAILS_MAX:
            raise InvalidRequest("emails", f"holds {len(emails)}", f"at most {INVITE_EMAILS_MAX} emails")
        if role is not UNSET:
            check_role("role", role)
        return await self._send(
            InvitedUsers,
            "POST",
            path("/orgs/{}/invites", organization_id),
            body(emails=list(emails), role=role, sso=sso),
            optional=INVITES,
            probe=path("/orgs/{}", organization_id),
        )

    async def join(self, organization_id: str) -> None:
        """Join the organization; the service allows it when the caller's verified email domain is one of the
        organization's email domains."""
        # Joining twice leaves one membership: safe to send again.
        await self._send_empty("POST", path("/orgs/{}/join", organization_id), idempotent=True)

    def search(self, organization_id: str, query: str, *, limit: int | None = None) -> Paginator[SearchSpaceResult]:
        """The organization's spaces whose pages match ``query`` (at most 512 characters)."""
        check_search_query(query)
        return self._list(SearchSpaceResult, path("/orgs/{}/search", organization_id), {"query": query}, limit=limit)

    async def ping(self, organization_id: str) -> PingResult:
        """Record that the member is active now; the answer may carry claims for a site visitor."""
        # Only moves the member's last-seen time: safe to send again.
        return await self._send(
            PingResult, "POST", path("/orgs/{}/ping", organization_id), idempotent=True, changes=False
        )
