"""Reviews of change requests and the reviewers asked for them (from the public OpenAPI description).

await client.reviews.request_reviewers("space-id", 12, users=["user-id"])
review = await client.reviews.submit("space-id", 12, status="changes-requested", comment="Split it")
async for review in client.reviews.list("space-id", 12): ...
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from typing import Any

from folio.api.errors import InvalidRequest
from folio.api.limits import check_length, check_one_of
from folio.api.pagination import Paginator
from folio.api.resources._base import UNSET, Resource, body, path
from folio.api.resources.change_requests import SUBJECT_MAX, document_body
from folio.models.change_request import (
    REVIEW_STATUSES,
    ChangeRequestReview,
    RequestedReviewer,
    RequestReviewersResult,
    ReviewStatus,
)
from folio.models.common import Document

__all__ = ["ReviewsResource"]


def _cr_path(space_id: str, cr: str | int, suffix: str, *ids: str) -> str:
    return path("/spaces/{}/change-requests/{}" + suffix, space_id, cr, *ids)


REQUESTS = "reviews.requested_reviewers"
"""Asking for reviewers: in the public description, not in every service (a 404 while the change request is
there raises NotOffered, and later calls fail at once)."""


def _comment_body(comment: Document | Mapping[str, Any] | str) -> dict[str, Any]:
    """A review comment as the service takes it: ``{markdown}`` for text, ``{document}`` for a document."""
    if isinstance(comment, str):
        return {"markdown": comment}
    if isinstance(comment, Document):
        return {"document": document_body(comment)}
    return dict(comment)


class ReviewsResource(Resource):
    """``client.reviews``: read and submit reviews of a change request; ask for and withdraw reviewers."""

    def list(
        self,
        space_id: str,
        cr: str | int,
        *,
        outdated: bool | None = None,
        format: str | None = None,
        limit: int | None = None,
    ) -> Paginator[ChangeRequestReview]:
        """The reviews of a change request; ``outdated`` keeps only the superseded (True) or current (False)
        ones; ``format`` (``markdown`` or ``document``) is how review comments come."""
        params = {"outdated": outdated, "format": format}
        return self._list(ChangeRequestReview, _cr_path(space_id, cr, "/reviews"), params, limit=limit)

    async def get(
        self, space_id: str, cr: str | int, review_id: str, *, format: str | None = None
    ) -> ChangeRequestReview:
        return await self._get(
            ChangeRequestReview, _cr_path(space_id, cr, "/reviews/{}", review_id), {"format": format}
        )

    async def submit(
        self,
        space_id: str,
        cr: str | int,
        status: ReviewStatus = "approved",
        comment: Document | Mapping[str, Any] | str | None = None,
    ) -> ChangeRequestReview:
        """Approve the change request or ask for changes, with an optional comment (markdown text or a
        document). Earlier reviews by the same reviewer become outdated."""
        check_one_of("status", status, REVIEW_STATUSES)
        payload: dict[str, Any] = {"status": status}
        if comment is not None:
            payload["comment"] = _comment_body(comment)
        return await self._send(ChangeRequestReview, "POST", _cr_path(space_id, cr, "/reviews"), payload)

    def requested_reviewers(
        self, space_id: str, cr: str | int, *, limit: int | None = None
    ) -> Paginator[RequestedReviewer]:
        """The users (or teams) asked to review, who have not reviewed since."""
        url, probe = _cr_path(space_id, cr, "/requested-reviewers"), _cr_path(space_id, cr, "")
        return self._list(RequestedReviewer, url, limit=limit, optional=REQUESTS, probe=probe)

    async def request_reviewers(
        self,
        space_id: str,
        cr: str | int,
        users: Sequence[str],
        *,
        subject: str = UNSET,
        description: Document | Mapping[str, Any] | str = UNSET,
    ) -> builtins.list[RequestedReviewer]:
        """Ask users (ids) to review; optionally set the subject and description at the same time."""
        ids = [users] if isinstance(users, str) else builtins.list(users)
        if not ids:
            raise InvalidRequest("users", "is empty", "at least one user id")
        for user in ids:
            check_length("users", user, min=1)
        if subject is not UNSET:
            check_length("subject", subject, max=SUBJECT_MAX)
        payload = body(
            users=ids,
            subject=subject,
            description=document_body(description) if description is not UNSET else UNSET,
        )
        result: RequestReviewersResult = await self._send(
            RequestReviewersResult,
            "POST",
            _cr_path(space_id, cr, "/requested-reviewers"),
            payload,
            optional=REQUESTS,
            probe=_cr_path(space_id, cr, ""),
        )
        return result.users

    async def remove_requested_reviewer(
        self, space_id: str, cr: str | int, user_id: str, *, idempotent: bool = True
    ) -> bool:
        """Withdraw a review request. True when there was one to withdraw (205), False when not (204).
        ``idempotent=False``: not sent again by the client after a lost answer (a second answer would be 204,
        "there was none", for a request the first one withdrew: the caller looks instead)."""
        check_length("userId", user_id, min=1)
        url = _cr_path(space_id, cr, "/requested-reviewers/{}", user_id)
        response = await self._client.request(
            "DELETE", url, idempotent=idempotent, optional=REQUESTS, probe=_cr_path(space_id, cr, "")
        )
        return response.status_code != 204
