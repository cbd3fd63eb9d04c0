"""Invites of an organization (the public description's organization-invites): invite links, and what inviting
people by email answers.

An invite link is to the organization (``role``), or to one space or collection of it (``level`` and the
``space`` or ``collection``); ``redundant`` says the caller already has what it gives. The description gives a
link no URL, no use count and no expiry: Folio shows what it gives.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from folio.models._base import Count, Json, Model
from folio.models.common import Role

__all__ = ["InviteKind", "InviteLink", "InvitedUsers"]

InviteKind = Literal["organization", "space", "collection"]


class InviteLink(Model):
    """An invite link (``object`` = ``invite``): ``role`` for the organization (None: guests), ``level`` for a
    space or collection (kept as the service sent them)."""

    object: str = "invite"
    id: str
    role: Role | None = None
    level: Role | None = None
    redundant: bool = False
    space: dict[str, Json] | None = None
    collection: dict[str, Json] | None = None

    @property
    def kind(self) -> InviteKind:
        if self.space is not None:
            return "space"
        if self.collection is not None:
            return "collection"
        return "organization"

    @property
    def access(self) -> Role | None:
        """The role (organization) or level (space, collection) it gives; None: a guest."""
        return self.role if self.kind == "organization" else self.level

    @property
    def target_title(self) -> str:
        """The space's or collection's title (or id); empty for the organization."""
        target = self.space if self.space is not None else self.collection
        if target is None:
            return ""
        return str(target.get("title") or target.get("id") or "")


class InvitedUsers(Model):
    """What inviting people by email answers: the ids of the users added, how many, and the emails that could
    not be made SSO members (they belong to another organization)."""

    users: list[str] = Field(default_factory=list)
    invited: Count = 0
    failed_sso_emails: list[str] = Field(default_factory=list)
