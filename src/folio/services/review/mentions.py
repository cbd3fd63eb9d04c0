"""Who can be mentioned with ``@`` in a comment, a reply or a description, and how a mention is written.

    people = await services.mentions.people(space_id)      # the space's commenters first, then the members
    pick(people, "ad")                                      # those whose name or email matches, best first
    markdown_of(person)                                     # "[@Ada Lovelace](user:u-ada)"

How a mention is written: the public description has a mention only in the rich-text document (an inline
``mention`` whose ``data.ref`` is a content reference, of kind ``user`` with the user's id: ``ContentRefUser``),
and says nothing of its markdown form; comments are sent as markdown. Folio writes a mention as a markdown link
whose text is ``@`` and the person's name and whose target is ``user:<id>``: it names the same reference the
document's mention holds (kind and id), so a service that reads references out of links can make it a mention,
and any markdown reader still shows ``@Ada Lovelace`` (never a bare id). Brackets in a name are escaped.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from folio.api.errors import ApiError

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.member import Member
    from folio.services import Services

__all__ = ["LIMIT", "MentionService", "Person", "markdown_of", "pick"]

LIMIT = 8
"""How many people the completer offers at once."""


@dataclass(frozen=True)
class Person:
    """Someone who can be mentioned: ``commenter`` when they commented in the space."""

    id: str
    name: str
    email: str = ""
    commenter: bool = False

    @property
    def label(self) -> str:
        return self.name or self.email or self.id


def _escape(text: str) -> str:
    return "".join("\\" + c if c in "[]\\" else c for c in text).replace("\n", " ")


def markdown_of(person: Person) -> str:
    """The mention as it is written in a comment's markdown (see the module docstring)."""
    return f"[@{_escape(person.label)}](user:{person.id})"


def _rank(person: Person, typed: str) -> int | None:
    """0: the name or email begins with what was typed, 1: a word of the name does, 2: it is inside; None: no."""
    if not typed:
        return 0
    name, email = person.name.casefold(), person.email.casefold()
    if name.startswith(typed) or email.startswith(typed):
        return 0
    if any(word.startswith(typed) for word in name.split()):
        return 1
    if typed in name or typed in email:
        return 2
    return None


def pick(people: list[Person], typed: str, *, limit: int = LIMIT) -> list[Person]:
    """The people whose name or email matches ``typed`` (case-insensitive), best matches first, commenters of
    the space before the other members, each group in the order given."""
    wanted = typed.casefold().strip()
    ranked = [(rank, not p.commenter, n, p) for n, p in enumerate(people) if (rank := _rank(p, wanted)) is not None]
    return [p for *_, p in sorted(ranked, key=lambda r: r[:3])][:limit]


def _person(member: Member, *, commenter: bool) -> Person:
    user = member.user
    return Person(user.id or member.id, user.display_name or "", user.email or "", commenter)


class MentionService:
    """The people of a space that can be mentioned (asked once per space for the run)."""

    def __init__(self, client: GitBookClient, services: Services) -> None:
        self._client = client
        self._services = services
        self._known: dict[str, list[Person]] = {}

    async def people(self, space_id: str, *, again: bool = False) -> list[Person]:
        """The space's commenters, then the other members of its organization (each person once). Either list
        that cannot be read is left out; when neither can, the error is raised."""
        if not again and space_id in self._known:
            return self._known[space_id]
        commenters_call = self._client.comments.commenters(space_id, limit=1000).collect()
        members_call = self._members(space_id)
        commenters, members = await asyncio.gather(commenters_call, members_call, return_exceptions=True)
        if isinstance(commenters, BaseException) and isinstance(members, BaseException):
            raise commenters
        found: dict[str, Person] = {}
        for group, commenter in ((commenters, True), (members, False)):
            if isinstance(group, BaseException):
                continue
            for member in group:
                person = _person(member, commenter=commenter)
                if person.id not in found and not member.disabled:
                    found[person.id] = person
        people = list(found.values())
        self._known[space_id] = people
        return people

    async def _members(self, space_id: str) -> list[Member]:
        space = await self._client.spaces.get(space_id)
        org_id = getattr(space, "organization", None)
        if not org_id:
            return []
        with contextlib.suppress(ApiError):
            return await self._services.people.members(str(org_id))
        return []
