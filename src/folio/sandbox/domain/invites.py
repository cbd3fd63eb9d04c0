"""Invites of an organization: invite links (to the organization with a ``role``, or to one of its spaces or
collections with a ``level``), rendered as the public description's ``InviteLinkToOrganization`` /
``...ToSpace`` / ``...ToCollection``, and inviting people by email.
"""

from __future__ import annotations

import re
from typing import Any

from folio.sandbox.domain.access import check_role
from folio.sandbox.domain.spaces import render_collection, render_space
from folio.sandbox.errors import bad_request, not_found
from folio.sandbox.state import Record, SandboxState

__all__ = ["EMAIL", "check_emails", "invite_or_404", "redundant", "render_invite"]

EMAIL = re.compile(r"^[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f]+$")
_RANK = ("admin", "create", "review", "edit", "comment", "read", None)


def invite_or_404(state: SandboxState, org_id: str, invite_id: str) -> Record:
    invite = state.invites.get(org_id, {}).get(invite_id)
    if invite is None:
        raise not_found(f"No matching invite found for {invite_id!r}")
    return invite


def redundant(state: SandboxState, org_id: str, invite: Record, viewer: str) -> bool:
    """The viewer already has what the invite gives: a member whose role is at least the invite's."""
    member = state.members.get(org_id, {}).get(viewer)
    if member is None:
        return False
    given = invite.get("role") if "role" in invite else invite.get("level")
    return _RANK.index(member.get("role")) <= _RANK.index(given)


def render_invite(state: SandboxState, org_id: str, invite: Record, viewer: str) -> Record:
    """The wire invite link: its role (to the organization), or its level and the whole space or collection."""
    out: Record = {"object": "invite", "id": invite["id"], "redundant": redundant(state, org_id, invite, viewer)}
    if "space" in invite:
        out.update(level=invite.get("level"), space=render_space(state, state.spaces[invite["space"]], viewer))
    elif "collection" in invite:
        collection = state.collections[invite["collection"]]
        out.update(level=invite.get("level"), collection=render_collection(state, collection, viewer))
    else:
        out["role"] = invite.get("role")
    return out


def check_emails(body: dict[str, Any]) -> list[tuple[str, Any]]:
    """The ``emails`` of an invite body as (email, role or the body's role); 400 naming what is wrong."""
    emails = body.get("emails")
    if not isinstance(emails, list) or not emails:
        raise bad_request("emails must be a non-empty array of emails")
    default = check_role(body["role"], "role") if "role" in body else "__default__"
    out: list[tuple[str, Any]] = []
    for n, entry in enumerate(emails):
        if isinstance(entry, dict):
            email, role = entry.get("email"), entry.get("role", "__missing__")
            if role == "__missing__":
                raise bad_request(f"emails[{n}].role is required")
            role = check_role(role, f"emails[{n}].role")
        else:
            email, role = entry, default
        if not isinstance(email, str) or not EMAIL.match(email):
            raise bad_request(f"emails[{n}] must be an email address")
        out.append((email, role))
    return out
