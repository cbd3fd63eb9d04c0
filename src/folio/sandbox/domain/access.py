"""Who the caller is in an organization and what their role lets them do (spec 2.1 roles, 2.2 permissions).

Roles rank ``read`` < ``comment`` < ``edit`` < ``review`` < ``create`` < ``admin``; a guest (role null) and a
stranger rank below them all. Organization routes take the caller from the bearer token (see
:mod:`folio.sandbox.app`) and ask :func:`require_member` or :func:`org_access`: 404 for an unknown
organization, 403 for a caller who is not a member (or not an admin where that is required).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from folio.models.common import ROLES
from folio.sandbox.domain.membership import member_of as member_of  # re-exported: where routes look for it
from folio.sandbox.errors import bad_request, forbidden, not_found
from folio.sandbox.http import current_user, state_of
from folio.sandbox.state import Record, SandboxState

RANK: dict[str, int] = {role: n for n, role in enumerate(reversed(ROLES))}
"""read 0, comment 1, edit 2, review 3, create 4, admin 5."""
EDIT_ROLES = ("admin", "create")
"""The roles that manage an organization's OpenAPI specs, translations and issues clusters."""


def org_or_404(state: SandboxState, org_id: str) -> Record:
    org = state.orgs.get(org_id)
    if org is None:
        raise not_found(f"No matching organization found for {org_id!r}")
    return org


def role_of(state: SandboxState, org: str, user: str) -> str | None:
    member = member_of(state, org, user)
    return member.get("role") if member else None


def rank_of(state: SandboxState, org: str, user: str) -> int:
    """The caller's power in the organization: -1 for a guest or a stranger, 0 (read) .. 5 (admin)."""
    role = role_of(state, org, user)
    return RANK.get(role, -1) if role else -1


def check_role(value: Any, name: str = "role") -> str | None:
    """A role of a request body (null allowed: a guest); 400 naming the field otherwise."""
    if value is not None and value not in ROLES:
        raise bad_request(f"{name} must be one of {', '.join(ROLES)} or null")
    return value  # type: ignore[no-any-return]


def require_member(request: Request, *, admin: bool = False, staff: bool = False) -> tuple[SandboxState, str, str]:
    """(state, organization id, caller id): 404 for a missing organization, 403 unless the caller is a member
    (an admin when ``admin``; not a guest when ``staff``)."""
    state, org_id, member = org_access(request)
    if admin and member.get("role") != "admin":
        raise forbidden("Only administrators of the organization can do this")
    if staff and member.get("role") is None:
        raise forbidden("Guests of the organization cannot list its members and teams")
    return state, org_id, current_user(request)


def org_access(request: Request) -> tuple[SandboxState, str, Record]:
    """(state, organization id, the caller's membership): 404 for an unknown organization, 403 outsiders."""
    state = state_of(request)
    org_id = request.path_params["organizationId"]
    org_or_404(state, org_id)
    member = member_of(state, org_id, current_user(request))
    if member is None:
        raise forbidden("You are not a member of this organization")
    return state, org_id, member


def can_edit(member: Record) -> bool:
    """Whether a membership may manage the organization's specs, translations and clusters."""
    return member.get("role") in EDIT_ROLES
