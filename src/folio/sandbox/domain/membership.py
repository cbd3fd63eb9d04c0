"""Whether a user is a member of an organization, from the state alone: no request, no roles' ranks.

:mod:`folio.sandbox.domain.access` re-exports it with the checks a route makes; this module imports neither
Starlette nor the models, so an organization can be rendered without them (``folio.sandbox.first_answer``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from folio.sandbox.state import Record, SandboxState


def member_of(state: SandboxState, org_id: str, user_id: str) -> Record | None:
    """The user's membership of the organization (role, disabled, joinedAt...), or None for a non-member."""
    return state.members.get(org_id, {}).get(user_id)
