"""The demo organization: deterministic for a seed, realistic enough to demo and test every screen.

Each area seeds its own part, in order, reading what earlier parts made from the state:
people (users, organizations, members, teams, SAML) -> content (collections, spaces, revisions and pages) ->
change requests -> comments -> sites -> OpenAPI specs -> conversations -> translations.
``scale`` adds a large generated organization part by part (N spaces, members, change requests, comments).

The parts are imported when first needed (``populate``, or ``PARTS`` when first read), so importing one part
(``folio.sandbox.seed.people``, all that the demo's first answer seeds) does not import the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from folio.sandbox.state import SandboxState

__all__ = ["PARTS", "Part", "populate"]


class Part(Protocol):
    """A part of the seed: a module with ``seed(state, *, scale=0)``."""

    def seed(self, state: SandboxState, *, scale: int = 0) -> None: ...


def _parts() -> tuple[Part, ...]:
    """The parts in the order they seed (each reads what the earlier ones made)."""
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

    return (people, content, change_requests, comments, sites, openapi, conversations, translations)


if TYPE_CHECKING:
    PARTS: tuple[Part, ...]


def __getattr__(name: str) -> Any:
    if name == "PARTS":
        value = globals()["PARTS"] = _parts()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def populate(state: SandboxState, *, scale: int = 0) -> SandboxState:
    for part in _parts():
        part.seed(state, scale=scale)
    return state
