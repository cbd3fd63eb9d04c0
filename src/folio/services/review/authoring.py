"""Starting work on a space: a new change request (subject, optional description), and asking members to review
one. Each write has its lookup, so a write whose answer was lost is found rather than sent twice.

    authoring = AuthoringService(client, services)
    made = await authoring.create_change_request(space_id, "Fix the install guide", "Steps for Linux")
    found = await authoring.find_change_request(space_id, "Fix the install guide", since=began)
    await authoring.request_reviewers(space_id, made.change_request.id, [user_id])

Templates: the API can apply a template to a change request (``template`` on create, spec 4.8 and 4.9), but it
has no way to list a space's templates, so there is nothing to offer the user to pick: not offered here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from folio.api.errors import NotOffered
from folio.services.errors import Invalid, Refusal
from folio.services.review.outbox import CLOCK_SKEW

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.change_request import ChangeRequest, RequestedReviewer
    from folio.services import Services

__all__ = [
    "FOUND_STATUSES",
    "REVIEW_REQUESTS_NOT_OFFERED",
    "AuthoringService",
    "NewChangeRequest",
    "ReviewRequestsNotOffered",
    "check_subject",
]

SUBJECT_MAX = 100
"""Spec sections 2.6 and 8: a change request's subject is at most 100 characters."""
FOUND_STATUSES = ("draft", "open")
"""Where a change request just made can be: it starts as a draft (a service may open it at once)."""
REVIEW_REQUESTS_NOT_OFFERED = "This service does not offer asking for reviewers."


def check_subject(subject: str) -> str | None:
    """Why ``subject`` cannot be sent (None: it can): empty (it is how a lost answer is found again), or over 100."""
    if not subject.strip():
        return "A subject says what the change is (1 to 100 characters)."
    if len(subject) > SUBJECT_MAX:
        return f"At most {SUBJECT_MAX} characters; this has {len(subject)}."
    return None


class ReviewRequestsNotOffered(Refusal):
    """The service answered that asking for reviewers does not exist here."""

    def __init__(self) -> None:
        super().__init__(REVIEW_REQUESTS_NOT_OFFERED)

    def describe(self) -> str:
        return REVIEW_REQUESTS_NOT_OFFERED


@dataclass(frozen=True)
class NewChangeRequest:
    """A change request made (or found after a lost answer); ``description_error`` says why its description
    could not be set (the change request exists all the same)."""

    change_request: ChangeRequest
    description_error: Exception | None = None


class AuthoringService:
    """New change requests and review requests, over the client. ``clock`` gives "now" for the lookups (tests
    pin it to the sandbox's frozen clock)."""

    def __init__(self, client: GitBookClient, services: Services | None = None) -> None:
        self._client = client
        self._services = services
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)

    def _changed(self, space_id: str) -> None:
        if self._services is not None:
            self._services.changes.bump(("change-requests",), ("change-requests", space_id))

    async def _me(self) -> str:
        if self._services is not None:
            return (await self._services.me()).id
        return (await self._client.users.me()).id

    # -- change requests ---------------------------------------------------------------------------------------

    async def create_change_request(self, space_id: str, subject: str, description: str = "") -> NewChangeRequest:
        """A new change request on the space's current content; the description, when given, is set after it
        is made (the create takes only a subject)."""
        problem = check_subject(subject)
        if problem is not None:
            raise Invalid(problem)
        cr = await self._client.change_requests.create(space_id, subject=subject)
        self._changed(space_id)
        return await self._described(space_id, cr, description)

    async def find_change_request(
        self, space_id: str, subject: str, *, since: datetime, description: str = ""
    ) -> NewChangeRequest | None:
        """The caller's change request titled ``subject`` made since ``since`` (less the clock skew between this
        machine and the service), newest first; None when there is none (sending again is safe)."""
        me = await self._me()
        lists = await asyncio.gather(
            *(
                self._client.change_requests.list(space_id, status=status, creator=me, limit=100).collect()
                for status in FOUND_STATUSES
            )
        )
        earliest = since.timestamp() - CLOCK_SKEW
        found = [
            cr
            for group in lists
            for cr in group
            if cr.subject == subject
            and (cr.created_by is None or cr.created_by.id == me)
            and (cr.created_at is None or cr.created_at.timestamp() >= earliest)
        ]
        if not found:
            return None
        found.sort(key=lambda cr: (cr.created_at.timestamp() if cr.created_at else 0.0, cr.number), reverse=True)
        self._changed(space_id)
        return await self._described(space_id, found[0], description)

    async def _described(self, space_id: str, cr: ChangeRequest, description: str) -> NewChangeRequest:
        if not description.strip() or (cr.description is not None and cr.description.plain_text().strip()):
            return NewChangeRequest(cr)
        try:
            cr = await self._client.change_requests.update(space_id, cr.id, description=description)
        except Exception as exc:  # the change request exists: say the description is missing, do not fail it
            return NewChangeRequest(cr, exc)
        return NewChangeRequest(cr)

    # -- reviewers ---------------------------------------------------------------------------------------------

    async def requested_reviewers(self, space_id: str, cr_id: str) -> list[RequestedReviewer]:
        """Who was asked to review and has not reviewed since."""
        try:
            return await self._client.reviews.requested_reviewers(space_id, cr_id, limit=1000).collect()
        except NotOffered:
            raise ReviewRequestsNotOffered() from None

    async def request_reviewers(self, space_id: str, cr_id: str, user_ids: Sequence[str]) -> list[RequestedReviewer]:
        """Ask the members ``user_ids`` to review the change request (asking again is harmless)."""
        if not user_ids:
            raise Invalid("Pick at least one member.")
        try:
            asked = await self._client.reviews.request_reviewers(space_id, cr_id, list(user_ids))
        except NotOffered:
            raise ReviewRequestsNotOffered() from None
        self._changed(space_id)
        return asked

    async def find_requested(
        self, space_id: str, cr_id: str, user_ids: Sequence[str]
    ) -> list[RequestedReviewer] | None:
        """After a lost answer: the requests for ``user_ids`` if every one of them is there (None: send again)."""
        current = await self.requested_reviewers(space_id, cr_id)
        by_id = {r.reviewer_id: r for r in current}
        if all(uid in by_id for uid in user_ids):
            self._changed(space_id)
            return [by_id[uid] for uid in user_ids]
        return None
