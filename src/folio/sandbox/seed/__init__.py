"""The demo organization: deterministic for a seed, realistic enough to demo and test every screen.

Each area seeds its own part, in order, reading what earlier parts made from the state:
people (users, organizations, members, teams, SAML) -> content (collections, spaces, revisions and pages) ->
change requests -> comments -> sites -> OpenAPI specs -> conversations -> translations.
``scale`` adds a large generated organization part by part (N spaces, members, change requests, comments).
"""

from __future__ import annotations

from folio.sandbox.seed import (
    change_requests,
    comments,
    content,
    conversations,
    openapi,
    people,
    sites,
    translations,
)
from folio.sandbox.state import SandboxState

PARTS = (people, content, change_requests, comments, sites, openapi, conversations, translations)


def populate(state: SandboxState, *, scale: int = 0) -> SandboxState:
    for part in PARTS:
        part.seed(state, scale=scale)
    return state
