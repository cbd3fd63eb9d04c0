"""Who gets in, and how: an organization's single sign-on (SAML providers and the SSO sign-in options they
offer), its settings, invite links, joining it by email domain, and the instructions its agents follow.

    access = services.access
    async for page in access.providers_pages(org_id): ...
    provider = await access.create_provider(org_id, {"label": "Okta", "sso_url": "https://…", ...})
    org = await access.update_setting(org_id, "title", "Northwind")
    impact = await access.sso_impact(org_id)          # before turning SSO enforcement on
    await access.join(org_id)
    view = await access.instructions(org_id); await access.save_instructions(org_id, "Be brief.")

The pure rules are in :mod:`folio.services.people.access_saml` (certificates, provider checks) and
:mod:`folio.services.people.access_rules` (settings rows and limits, joining, SSO enforcement); their names are
re-exported here.
"""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from folio.api import errors, limits
from folio.api.errors import InvalidRequest
from folio.models.agent import AgentInstructions
from folio.models.common import Document, User
from folio.models.invite import InvitedUsers, InviteLink
from folio.models.member import SamlProvider, SsoLogin, Team
from folio.models.organization import Organization
from folio.models.site import Site
from folio.services.errors import Refusal
from folio.services.people.access_rules import (
    INVITE_EMAILS_MAX,
    OrgSetting,
    SsoImpact,
    check_invite_emails,
    check_org_setting,
    invite_emails,
    invite_id_of,
    merge_rules_text,
    org_settings,
    setting_change,
    why_not_admin,
    why_not_join,
)
from folio.services.people.access_saml import (
    EXPIRY_WARNING_DAYS,
    NO_ROLE,
    NONE,
    CertificateInfo,
    CertificateProblem,
    certificate_note,
    check_provider,
    check_sso_url,
    provider_fields,
    provider_kwargs,
    read_certificate,
)
from folio.services.writes import may_have_reached

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.services import Services

__all__ = [
    "EXPIRY_WARNING_DAYS",
    "INVITES_NOT_OFFERED",
    "INVITE_EMAILS_MAX",
    "NONE",
    "NO_ROLE",
    "AccessError",
    "AccessService",
    "AgentView",
    "CertificateInfo",
    "CertificateProblem",
    "InviteDeletion",
    "InvitesNotOffered",
    "OrgSetting",
    "SsoImpact",
    "certificate_note",
    "check_invite_emails",
    "check_org_setting",
    "check_provider",
    "check_sso_url",
    "instructions_markdown",
    "instructions_text",
    "invite_emails",
    "invite_id_of",
    "is_plain_text",
    "merge_rules_text",
    "org_settings",
    "provider_fields",
    "read_certificate",
    "role_value",
    "setting_change",
    "why_not_admin",
    "why_not_join",
]


def _comparable(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """A provider's non-empty fields, its certificate without line breaks (a service may wrap it otherwise)."""
    out = dict(kwargs)
    if isinstance(out.get("certificate"), str):
        out["certificate"] = "".join(out["certificate"].split())
    return out


# --- invites -----------------------------------------------------------------------------------------------------

AccessError = errors.ApiError
"""What a call of this service raises when the service refused it or could not be reached (the TUI catches it
by this name: it never imports the API layer)."""

INVITES_NOT_OFFERED = "This service does not offer invite links (nor inviting people by email)."


class InvitesNotOffered(Refusal):
    """The service answered that it has no invite links (404/405 on their routes)."""

    def __init__(self) -> None:
        super().__init__(INVITES_NOT_OFFERED)

    def describe(self) -> str:
        return INVITES_NOT_OFFERED


@contextmanager
def _invites_offered() -> Iterator[None]:
    try:
        yield
    except errors.NotOffered as exc:
        raise InvitesNotOffered() from exc


def role_value(value: Any) -> Any:
    """A role choice of a form as the service takes it (:data:`NO_ROLE` -> None: guests)."""
    return None if value in (NO_ROLE, None, "") else value


@dataclass(frozen=True)
class InviteDeletion:
    """What deleting an invite link did: ``existed`` False when no invite link had that id (nothing deleted)."""

    invite_id: str
    existed: bool


# --- agent instructions ----------------------------------------------------------------------------------------


def instructions_text(instructions: AgentInstructions | None) -> str:
    """The instructions as the editor holds them: one paragraph a line."""
    return instructions.text() if instructions is not None else ""


def instructions_markdown(instructions: AgentInstructions | None) -> str:
    """The instructions for the Markdown view: each non-empty paragraph a Markdown paragraph."""
    return "\n\n".join(line for line in instructions_text(instructions).split("\n") if line.strip())


def is_plain_text(instructions: AgentInstructions | None) -> bool:
    """Whether the document is only paragraphs of text (so editing it as text loses nothing)."""
    doc = instructions.instructions if instructions is not None else None
    if doc is None:
        return True
    return all(isinstance(n, dict) and n.get("type", "paragraph") == "paragraph" for n in doc.nodes)


@dataclass(frozen=True)
class AgentView:
    """The instructions and who changed them last, in words (their name when the member list knows them)."""

    instructions: AgentInstructions
    updated_by: str | None

    @property
    def text(self) -> str:
        return instructions_text(self.instructions)


class AccessService:
    """SSO, settings, invite links, joining and agent instructions of an organization."""

    def __init__(self, client: GitBookClient, services: Services) -> None:
        self._client = client
        self._services = services
        self._invites_before: dict[str, set[str]] = {}
        """Per organization: the ids of its invite links just before the last create was sent."""
        self._providers_before: dict[str, set[str]] = {}
        """Per organization: the ids of its providers just before the last create was sent (a provider the
        finder may take for that create is none of these)."""

    # -- the organization and its settings ------------------------------------------------------------------------

    async def organization(self, org_id: str) -> Organization:
        return await self._client.organizations.get(org_id)

    async def sites(self, org_id: str) -> builtins.list[Site]:
        """The sites default content may point at (empty when the caller may not list them)."""
        try:
            return await self._client.sites.list(org_id, limit=limits.LIST_LIMIT_MAX).collect()
        except Exception:  # the settings still show without them; the choice then offers only "none"
            return []

    async def update_setting(self, org_id: str, key: str, value: Any) -> Organization:
        """Set one setting (``key`` as :func:`org_settings` names it) to the value typed; the spec's limits are
        checked before anything is sent (InvalidRequest names the field)."""
        problem = check_org_setting(key, value)
        if problem:
            raise InvalidRequest(key, problem.rstrip("."), "see the spec's limits")
        try:
            change = setting_change(key, value)
        except ValueError as exc:
            raise InvalidRequest(key, str(exc), "a setting of the organization") from None
        org = await self._client.organizations.update(org_id, **change)
        self._services.changes.bump(("organization", org_id))
        return org

    async def sso_impact(self, org_id: str) -> SsoImpact:
        """Who turning SSO enforcement on affects: the members (not disabled) who are not SSO members, and
        whether you yourself are one of them (you would be locked out)."""
        members: int | None = None
        without: int | None = None
        you: bool | None = None
        try:
            me: User | None = await self._services.me()
        except errors.ApiError:  # who you are is unknown: the confirmation says it cannot tell
            me = None
        try:
            listed = await self._client.members.list(org_id, limit=limits.LIST_LIMIT_MAX).collect()
        except errors.ApiError:  # no right to list members: the confirmation says so in words
            try:
                you = None if me is None else not (await self._client.members.get(org_id, me.id)).sso
            except errors.ApiError:
                you = None
        else:
            active = [m for m in listed if not m.disabled]
            members, without = len(active), sum(1 for m in active if not m.sso)
            mine = next((m for m in listed if me is not None and m.id == me.id), None)
            you = None if mine is None else not mine.sso
        try:
            providers = await self._client.saml.list(org_id, limit=limits.LIST_LIMIT_MAX).collect()
            active_providers: int | None = sum(1 for p in providers if p.status == "active")
        except errors.ApiError:
            active_providers = None
        return SsoImpact(
            members, without, active_providers, you_without_sso=you, your_email=(me.email or None) if me else None
        )

    # -- invite links and invites by email ----------------------------------------------------------------------

    async def invite_link_pages(self, org_id: str) -> AsyncIterator[builtins.list[InviteLink]]:
        """The organization's invite links a page at a time (:class:`InvitesNotOffered` when the service has
        none)."""
        with _invites_offered():
            async for page in self._client.organizations.invite_links(org_id, limit=limits.LIST_LIMIT_MAX).pages():
                yield page.items

    async def _invite_ids(self, org_id: str) -> set[str]:
        return {link.id async for page in self.invite_link_pages(org_id) for link in page}

    async def create_invite_link(self, org_id: str, role: Any) -> InviteLink:
        """A new invite link to the organization giving ``role`` (a form's choice: :data:`NO_ROLE` for guests).
        The links that exist before it is sent are noted for :meth:`find_invite_link`."""
        self._invites_before[org_id] = await self._invite_ids(org_id)
        with _invites_offered():
            link = await self._client.organizations.create_invite_link(org_id, role=role_value(role))
        self._services.changes.bump(("invites", org_id))
        return link

    async def find_invite_link(self, org_id: str, role: Any) -> InviteLink | None:
        """After a lost answer: a link to the organization with that role that did not exist before the send
        (the last listed), or None (not made: sending again is safe)."""
        before = self._invites_before.get(org_id, set())
        found = [
            link
            async for page in self.invite_link_pages(org_id)
            for link in page
            if link.id not in before and link.kind == "organization" and link.role == role_value(role)
        ]
        return found[-1] if found else None

    async def update_invite_link(self, org_id: str, link: InviteLink, role: Any) -> InviteLink:
        """Change the role (organization) or level (space, collection) an invite link gives."""
        given = {"role" if link.kind == "organization" else "level": role_value(role)}
        updated = await self._client.organizations.update_invite_link(org_id, link.id, **given)
        self._services.changes.bump(("invites", org_id))
        return updated

    async def find_invite_update(self, org_id: str, invite_id: str, role: Any) -> InviteLink | None:
        """After a lost answer: the link when it gives ``role`` now, else None."""
        link = await self._client.organizations.get_invite_link(org_id, invite_id)
        return link if link.access == role_value(role) else None

    async def delete_invite(self, org_id: str, invite: str) -> InviteDeletion:
        """Delete an invite link by its id (or its URL). Where the service lists invite links, an id that is not
        one of them is said (``existed`` False) and nothing is sent; elsewhere the delete's answer tells (205:
        deleted, 204: there was none). A re-send after a lost answer is not taken for "there was none": the list
        said it existed."""
        invite_id = invite_id_of(invite)
        if not invite_id:
            raise InvalidRequest("invite", "is empty", "an invite link's id or URL")
        try:
            known: set[str] | None = await self._invite_ids(org_id)
        except InvitesNotOffered:
            known = None
        if known is not None and invite_id not in known:
            return InviteDeletion(invite_id, existed=False)
        try:
            existed = await self._client.organizations.delete_invite(org_id, invite_id)
        except errors.NotFound:
            existed = False
        except errors.ApiError as exc:
            # No answer came back: where the list is offered, read it; gone means the delete was done.
            if known is None or not may_have_reached(exc) or invite_id in await self._invite_ids(org_id):
                raise
            existed = True
        self._services.changes.bump(("invites", org_id))
        return InviteDeletion(invite_id, existed=True if known is not None else existed)

    async def invite_people(self, org_id: str, emails: str, role: Any, *, sso: bool = False) -> InvitedUsers:
        """Invite the people whose emails were typed (checked first: 1..100 emails) with ``role``."""
        problem = check_invite_emails(emails)
        if problem:
            raise InvalidRequest("emails", problem.rstrip("."), f"1..{INVITE_EMAILS_MAX} emails")
        with _invites_offered():
            invited = await self._client.organizations.invite_users(
                org_id, invite_emails(emails), role=role_value(role), sso=sso
            )
        self._services.changes.bump(("members", org_id))
        return invited

    async def find_invited(self, org_id: str, emails: str) -> InvitedUsers | None:
        """After a lost answer: when every email typed is now a member, what the invite did; else None (the
        invite was not done: sending it again is safe)."""
        wanted = {e.lower() for e in invite_emails(emails)}
        members = await self._client.members.list(org_id, limit=limits.LIST_LIMIT_MAX).collect()
        found = [m.id for m in members if (m.user.email or "").lower() in wanted]
        return InvitedUsers(users=found, invited=len(found)) if len(found) == len(wanted) else None

    async def join(self, org_id: str) -> Organization:
        """Join the organization (the caller's verified email domain must be one of its email domains); the
        organization as the new member now sees it."""
        await self._client.organizations.join(org_id)
        self._services.changes.bump(("organizations",))
        return await self._client.organizations.get(org_id)

    # -- SAML providers and SSO logins ------------------------------------------------------------------------------

    async def providers_pages(self, org_id: str) -> AsyncIterator[builtins.list[SamlProvider]]:
        async for page in self._client.saml.list(org_id, limit=limits.LIST_LIMIT_MAX).pages():
            yield page.items

    async def logins(self, org_id: str) -> builtins.list[SsoLogin]:
        return await self._client.saml.logins(org_id)

    async def teams(self, org_id: str) -> builtins.list[Team]:
        """The teams a provider may put new members in (empty when they cannot be listed)."""
        try:
            return await self._client.teams.list(org_id, limit=limits.LIST_LIMIT_MAX).collect()
        except Exception:
            return []

    def _checked(self, values: Mapping[str, Any], only: set[str] | None = None) -> None:
        problems = check_provider(values, only=only)
        if problems:
            field, problem = next(iter(problems.items()))
            raise InvalidRequest(field, problem.rstrip("."), "see the form")

    async def create_provider(self, org_id: str, values: Mapping[str, Any]) -> SamlProvider:
        """Add a provider from its form's values (checked first: nothing is sent when one breaks a rule). The
        providers that exist before it is sent are noted, so that :meth:`find_provider` never takes one of them
        for it after a lost answer."""
        self._checked(values)
        kwargs = provider_kwargs(values, create=True)
        self._providers_before[org_id] = {p.id async for page in self.providers_pages(org_id) for p in page}
        provider = await self._client.saml.create(org_id, **kwargs)
        self._services.changes.bump(("saml", org_id))
        return provider

    async def update_provider(self, org_id: str, provider_id: str, changed: Mapping[str, Any]) -> SamlProvider:
        """Send the fields that changed (each checked first)."""
        self._checked(changed, only=set(changed))
        kwargs = provider_kwargs(changed, create=False)
        provider = await self._client.saml.update(org_id, provider_id, **kwargs)
        self._services.changes.bump(("saml", org_id))
        return provider

    async def delete_provider(self, org_id: str, provider_id: str) -> None:
        """Delete a provider. When the answer was lost (the client's own re-send then meets a 404, or no answer
        came back at all), the provider is read: gone means it was deleted; still there raises the error."""
        try:
            await self._client.saml.delete(org_id, provider_id)
        except errors.ApiError as exc:
            if not (isinstance(exc, errors.NotFound) or may_have_reached(exc)):
                raise
            if await self._provider_exists(org_id, provider_id):
                raise
        self._services.changes.bump(("saml", org_id))

    async def _provider_exists(self, org_id: str, provider_id: str) -> bool:
        try:
            await self._client.saml.get(org_id, provider_id)
        except errors.NotFound:
            return False
        return True

    async def find_provider(self, org_id: str, values: Mapping[str, Any]) -> SamlProvider | None:
        """After a lost answer: the newest provider that holds every field that was sent (label, SSO URL, entity
        ID, certificate, default team and role) and that did not exist before the send; None when there is none
        (the create was not done, so sending it again is safe)."""
        sent = _comparable(provider_kwargs(values, create=True))
        before = self._providers_before.get(org_id, set())
        found = [
            p
            async for page in self.providers_pages(org_id)
            for p in page
            if p.id not in before and _comparable(provider_kwargs(provider_fields(p), create=True)) == sent
        ]
        return max(found, key=lambda p: p.created_at.timestamp() if p.created_at else 0.0) if found else None

    async def find_update(self, org_id: str, provider_id: str, changed: Mapping[str, Any]) -> SamlProvider | None:
        """After a lost answer: the provider when it holds every changed value, else None (not done)."""
        provider = await self._client.saml.get(org_id, provider_id)
        now = provider_kwargs(provider_fields(provider), create=False)
        sent = provider_kwargs(changed, create=False)
        return provider if all(now.get(k) == v for k, v in sent.items()) else None

    # -- agent instructions -----------------------------------------------------------------------------------------

    async def instructions(self, org_id: str) -> AgentView:
        """The instructions, and who changed them last (their display name when they can be looked up)."""
        current = await self._client.agent_instructions.get(org_id)
        who = current.updated_by or None
        if who:
            try:
                member = await self._client.members.get(org_id, who)
            except Exception:  # a former member, or no right to read members: the id says who
                pass
            else:
                who = member.user.display_name or member.user.email or who
        return AgentView(current, who)

    async def save_instructions(self, org_id: str, text: str) -> AgentInstructions:
        """Replace the instructions with ``text`` (one paragraph a line), sent as a document."""
        saved = await self._client.agent_instructions.update(org_id, Document.from_text(text.rstrip("\n")))
        self._services.changes.bump(("agent-instructions", org_id))
        return saved

    async def find_instructions(self, org_id: str, text: str) -> AgentInstructions | None:
        """After a lost answer: the instructions when they are the text that was sent, else None."""
        current = await self._client.agent_instructions.get(org_id)
        return current if current.text() == text.rstrip("\n") else None
