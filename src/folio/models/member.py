"""The people of an organization (spec sections 2.3 and 2.4): members, teams and team membership, the entries
of the per-member lists, SAML providers, the SSO logins of an organization, and subdomains."""

from __future__ import annotations

import re

from pydantic import Field

from folio.models._base import Count, Model, OpenEnum, Timestamp
from folio.models.common import Role, TeamRole, Urls, User

__all__ = [
    "KNOWN_SAML_STATUSES",
    "SUBDOMAIN_PATTERN",
    "Member",
    "MemberSpace",
    "MemberTeam",
    "SamlProvider",
    "SamlService",
    "SpaceSummary",
    "SsoLogin",
    "SsoLogins",
    "Subdomain",
    "SubdomainTarget",
    "Team",
    "TeamMember",
    "TeamMemberEntry",
    "TeamMemberPermissions",
    "TeamPermissions",
    "is_valid_subdomain",
]

KNOWN_SAML_STATUSES = ("active", "pending")
SUBDOMAIN_PATTERN = r"^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$"


class Member(Model):
    """A member of an organization (``object`` = ``member``); ``id`` is the user's id, ``role`` is None for
    guests; ``spaces``, ``teams`` and ``sites`` are counts."""

    object: str = "member"
    id: str
    role: Role | None = None
    user: User
    disabled: bool = False
    joined_at: Timestamp | None = None
    last_seen_at: Timestamp | None = None
    sso: bool = False
    spaces: Count | None = None
    teams: Count | None = None
    sites: Count | None = None

    @property
    def is_guest(self) -> bool:
        return self.role is None


class TeamPermissions(Model):
    admin: bool = False
    view: bool = False


class Team(Model):
    """A team (``object`` = ``team``); ``members`` and ``spaces`` are counts."""

    object: str = "team"
    id: str
    title: str = ""
    members: int = 0
    spaces: Count = 0
    created_at: Timestamp | None = None
    permissions: TeamPermissions = Field(default_factory=TeamPermissions)


class TeamMember(Model):
    """A user's membership of a team: its role."""

    role: TeamRole


class TeamMemberPermissions(Model):
    view: bool = False


class TeamMemberEntry(Model):
    """An item of a team's member list: the organization member and their role in the team."""

    organization: Member
    team: TeamMember
    permissions: TeamMemberPermissions = Field(default_factory=TeamMemberPermissions)


class MemberTeam(Model):
    """An item of a member's team list: the team and the member's role in it."""

    team: Team
    member: TeamMember


class SpaceSummary(Model):
    """The space of a member's space list: the fields the people screens show, everything else kept as extras
    (the full space model lives with the spaces area)."""

    object: str = "space"
    id: str
    title: str = ""
    emoji: str | None = None
    visibility: OpenEnum | None = None
    organization: str | None = None
    parent: str | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    urls: Urls | None = None


class MemberSpace(Model):
    """An item of a member's space list: the space and the member's permission on it."""

    permission: Role
    space: SpaceSummary


class SamlService(Model):
    """What the identity provider needs to know about the service."""

    acs_url: str | None = Field(default=None, alias="acsURL")
    start_url: str | None = Field(default=None, alias="startURL")
    entity_id: str | None = Field(default=None, alias="entityID")


class SamlProvider(Model):
    """A SAML provider of an organization (``object`` = ``saml-provider``)."""

    object: str = "saml-provider"
    id: str
    label: str = ""
    sso_url: str | None = Field(default=None, alias="ssoURL")
    entity_id: str | None = Field(default=None, alias="entityID")
    certificate: str | None = None
    default_team: Team | None = None
    default_role: Role | None = None
    created_at: Timestamp | None = None
    status: OpenEnum = "pending"
    service: SamlService | None = None
    urls: Urls | None = None


class SsoLogin(Model):
    """One way to sign in to an organization with SSO."""

    id: str
    label: str = ""
    start_url: str | None = Field(default=None, alias="startURL")


class SsoLogins(Model):
    """The body of ``GET /orgs/{id}/sso``: ``{items: [...]}``, not paged."""

    items: list[SsoLogin] = []


class SubdomainTarget(Model):
    type: OpenEnum = "organization"
    organization: str | None = None


def is_valid_subdomain(value: str) -> bool:
    """Whether ``value`` is a subdomain the service accepts (pattern of spec section 2.4)."""
    return re.fullmatch(SUBDOMAIN_PATTERN, value) is not None


class Subdomain(Model):
    """A subdomain of the service pointing at an organization (``object`` = ``subdomain``). Parsing does not
    check the pattern (the service is the judge of what it sends); :attr:`is_valid` does."""

    object: str = "subdomain"
    subdomain: str
    target: SubdomainTarget | None = None
    is_active: bool = False

    @property
    def is_valid(self) -> bool:
        return is_valid_subdomain(self.subdomain)
