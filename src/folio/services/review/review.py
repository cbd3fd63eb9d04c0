"""Review of a change request: what the change request screen shows and the decisions it sends.

    review = services.review
    overview = await review.overview(space_id, 12)          # the CR, its reviewers and verdicts, its changes
    changes = await review.changes(space_id, overview.cr)   # every page before and after, changed ones flagged
    await review.submit(space_id, cr.id, "approved", "Looks right")
    await review.merge(space_id, cr.id)
    await review.withdraw_request(space_id, cr.id, user_id)  # a review request taken back (find_withdrawn: lost)

The diffs themselves are :mod:`folio.services.review.diff` (pure); the "viewed" marks are
:mod:`folio.services.review.viewed`.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from folio.api.errors import NotFound, NotOffered
from folio.api.resources.change_requests import SUBJECT_MAX
from folio.models.change_request import PatchableStatus, ReviewStatus
from folio.services.review.outbox import CLOCK_SKEW
from folio.services.review.viewed import ViewedMarks

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.change_request import (
        ChangeRequest,
        ChangeRequestReview,
        MergeResult,
        RequestedReviewer,
        SemanticChange,
        UpdateResult,
    )
    from folio.models.common import Page
    from folio.services import Services

__all__ = [
    "CHANGE_WORDS",
    "SUBJECT_MAX",
    "ChangeSet",
    "Overview",
    "PageChange",
    "ReviewService",
    "Reviewer",
    "next_status",
    "subject_problem",
]

CHANGE_WORDS = {"page_created": "created", "page_edited": "edited", "page_moved": "moved", "page_deleted": "deleted"}
"""The page change types, as the screens say them."""
_ORDER = ("created", "edited", "moved", "deleted")
_NEXT_STATUS: dict[str, PatchableStatus] = {"draft": "open", "open": "archived", "archived": "open"}


def subject_problem(subject: str) -> str | None:
    """What is wrong with a subject before sending (spec section 8: at most 100 characters)."""
    if not subject.strip():
        return "The subject cannot be empty."
    if len(subject) > SUBJECT_MAX:
        return f"The subject is {len(subject)} characters long; at most {SUBJECT_MAX} are allowed."
    return None


def next_status(status: str) -> PatchableStatus | None:
    """Where ``S`` takes a change request: draft -> open -> archived -> open (a merged one goes nowhere)."""
    return _NEXT_STATUS.get(status)


@dataclass
class Reviewer:
    """Someone's say on the change request: a verdict (``approved``, ``changes-requested``) or ``requested``
    (asked, not reviewed since: ``previous`` is their earlier verdict, if any)."""

    name: str
    user_id: str | None
    verdict: Literal["approved", "changes-requested", "requested"]
    at: datetime | None = None
    comment: str = ""
    outdated: bool = False
    previous: ReviewStatus | None = None


@dataclass
class Overview:
    """The change request with its reviewers and the counts of its changes."""

    cr: ChangeRequest
    reviewers: list[Reviewer]
    changes: list[SemanticChange]
    more: int = 0
    requests_offered: bool = True
    """False: the service does not offer asking for reviewers (nobody is listed as asked)."""

    @property
    def counts(self) -> dict[str, int]:
        """Pages created, edited, moved, deleted (in that order, only those that happened) and ``other``."""
        counted = Counter(CHANGE_WORDS.get(c.type, "other") for c in self.changes)
        return {word: counted[word] for word in (*_ORDER, "other") if counted[word]}

    @property
    def approvals(self) -> int:
        return sum(1 for r in self.reviewers if r.verdict == "approved" and not r.outdated)


@dataclass
class PageChange:
    """One page of the change request (or of its base, when deleted): its markdown before and after, and what
    happened to it (``kinds`` empty: unchanged)."""

    id: str
    title: str
    path: str
    depth: int
    before: str | None
    after: str | None
    kinds: tuple[str, ...] = ()
    attributes: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    url: str | None = None
    document: bool = True

    @property
    def changed(self) -> bool:
        return bool(self.kinds)

    @property
    def label(self) -> str:
        return ", ".join(self.kinds) if self.kinds else "unchanged"


@dataclass
class ChangeSet:
    """Every page of the change request in its tree order, deleted pages where they were, and the changes
    that are not about a page (files, variables...)."""

    cr: ChangeRequest
    pages: list[PageChange]
    other: list[SemanticChange] = field(default_factory=list)
    more: int = 0

    @property
    def changed(self) -> list[PageChange]:
        return [p for p in self.pages if p.changed]

    def find(self, page_id: str) -> PageChange | None:
        return next((p for p in self.pages if p.id == page_id), None)


def _flatten(pages: list[Page], depth: int = 0) -> list[tuple[Page, int, str | None]]:
    """(page, depth, parent id) depth first."""
    out: list[tuple[Page, int, str | None]] = []

    def visit(items: list[Page], level: int, parent: str | None) -> None:
        for page in items:
            out.append((page, level, parent))
            visit(page.pages, level + 1, page.id)

    visit(pages, depth, None)
    return out


def _body(page: Page) -> str | None:
    return page.markdown if page.type == "document" else None


def build_change_set(cr: ChangeRequest, base: list[Page], head: list[Page], changes: list[SemanticChange]) -> ChangeSet:
    """Pair the pages of the base revision and of the change request, and say what changed on each (the
    service's change list first; a body that differs counts as edited even past the list's limit)."""
    kinds: dict[str, list[str]] = {}
    attributes: dict[str, dict[str, tuple[Any, Any]]] = {}
    other: list[SemanticChange] = []
    for change in changes:
        word = CHANGE_WORDS.get(change.type)
        if word is None or change.page is None:
            other.append(change)
            continue
        kinds.setdefault(change.page.id, []).append(word)
        for name, value in change.attributes.items():
            attributes.setdefault(change.page.id, {})[name] = (value.before, value.after)
    before = {page.id: (page, depth) for page, depth, _ in _flatten(base)}
    after_ids = set()
    out: list[PageChange] = []
    for page, depth, _ in _flatten(head):
        after_ids.add(page.id)
        old = before.get(page.id)
        found = kinds.setdefault(page.id, [])
        if old is None and "created" not in found:
            found.append("created")
        elif old is not None and _body(old[0]) != _body(page) and "edited" not in found:
            found.append("edited")
        out.append(_page_change(page, depth, old[0] if old else None, page, found, attributes.get(page.id, {})))
    # Deleted pages go back where they were: after the page that preceded them in the base tree.
    previous: str | None = None
    for page, depth, _ in _flatten(base):
        if page.id not in after_ids:
            found = kinds.setdefault(page.id, [])
            if "deleted" not in found:
                found.append("deleted")
            gone = _page_change(page, depth, page, None, found, attributes.get(page.id, {}))
            index = next((i + 1 for i, p in enumerate(out) if p.id == previous), 0 if previous is None else len(out))
            out.insert(index, gone)
        previous = page.id
    return ChangeSet(cr, out, other)


def _page_change(
    page: Page,
    depth: int,
    old: Page | None,
    new: Page | None,
    kinds: list[str],
    attributes: dict[str, tuple[Any, Any]],
) -> PageChange:
    ordered = tuple(k for k in _ORDER if k in kinds)
    return PageChange(
        id=page.id,
        title=page.title or "Untitled",
        path=page.path or "",
        depth=depth,
        before=_body(old) if old is not None else None,
        after=_body(new) if new is not None else None,
        kinds=ordered,
        attributes={k: v for k, v in attributes.items() if k != "document"},
        url=page.urls.app if page.urls else None,
        document=page.type == "document",
    )


def reviewers_of(reviews: list[ChangeRequestReview], requested: list[RequestedReviewer]) -> list[Reviewer]:
    """Each person's say: the requested ones first (with their earlier verdict), then the latest verdict of
    everyone else who reviewed. ``reviews`` come newest first, as the service lists them."""
    latest: dict[str, ChangeRequestReview] = {}
    for review in reviews:  # newest first: the first one seen of each reviewer is their latest
        latest.setdefault(review.reviewer.id if review.reviewer else review.id, review)
    out: list[Reviewer] = []
    asked: set[str] = set()
    for request in requested:
        rid = request.reviewer_id
        asked.add(rid or "")
        earlier = latest.get(rid or "")
        out.append(
            Reviewer(
                request.name or (rid or "someone"),
                rid,
                "requested",
                at=request.created_at,
                previous=earlier.status if earlier else None,
            )
        )
    for key, review in latest.items():
        if key in asked:
            continue
        user = review.reviewer
        out.append(
            Reviewer(
                (user.display_name or user.id) if user else "someone",
                user.id if user else None,
                review.status,
                at=review.created_at,
                comment=review.comment.text if review.comment else "",
                outdated=review.outdated,
            )
        )
    return out


class ReviewService:
    """Reads and decisions of review, over the API client. ``viewed`` keeps the local "viewed" marks."""

    def __init__(self, client: GitBookClient, services: Services | None = None, *, viewed: ViewedMarks | None = None):
        self._client = client
        self._services = services
        self.viewed = viewed or ViewedMarks(account=self._account)

    def _account(self) -> str | None:
        """The account whose viewed marks these are (None: not known yet, or nothing is kept per account)."""
        local = self._services.local if self._services is not None else None
        return local.account if local is not None else None

    # -- reads ------------------------------------------------------------------------------------------------

    async def exists(self, space_id: str, cr: str | int) -> bool:
        """Whether the space has change request ``cr`` (an id or a number); other failures raise."""
        try:
            await self.change_request(space_id, cr)
        except NotFound:
            return False
        return True

    async def change_request(self, space_id: str, cr: str | int) -> ChangeRequest:
        return await self._client.change_requests.get(space_id, cr)

    async def overview(self, space_id: str, cr: str | int) -> Overview:
        """The change request (by id or number), its reviews, requested reviewers and change list, read at once."""
        record = await self.change_request(space_id, cr)
        reviews, requested, changes = await asyncio.gather(
            self._client.reviews.list(space_id, record.id, format="markdown").collect(),
            self._requested(space_id, record.id),
            self._client.change_requests.changes(space_id, record.id, limit=1000),
        )
        asked = reviewers_of(reviews, requested or [])
        return Overview(record, asked, changes.changes, changes.more or 0, requests_offered=requested is not None)

    async def _requested(self, space_id: str, cr_id: str) -> list[RequestedReviewer] | None:
        """Who was asked to review (None: the service does not offer review requests)."""
        try:
            return await self._client.reviews.requested_reviewers(space_id, cr_id, limit=1000).collect()
        except NotOffered:
            return None

    async def withdraw_request(self, space_id: str, cr_id: str, user_id: str) -> bool:
        """Take back the request that ``user_id`` review the change request: True when it was there, False when
        there was none. Not sent again after a lost answer (``find_withdrawn`` looks); a service without review
        requests raises ``ReviewRequestsNotOffered``."""
        from folio.services.review.authoring import ReviewRequestsNotOffered

        try:
            existed = await self._client.reviews.remove_requested_reviewer(space_id, cr_id, user_id, idempotent=False)
        except NotOffered:
            raise ReviewRequestsNotOffered() from None
        self._changed(space_id)
        return existed

    async def find_withdrawn(self, space_id: str, cr_id: str, user_id: str) -> bool | None:
        """After a lost answer: True when ``user_id`` is no longer asked (the request was withdrawn), None when
        the request is still there (it did not arrive: send it again)."""
        asked = await self._requested(space_id, cr_id) or []
        if any(r.reviewer_id == user_id for r in asked):
            return None
        self._changed(space_id)
        return True

    async def changes(self, space_id: str, cr: ChangeRequest) -> ChangeSet:
        """Every page before (the base revision: the last update from main, or where it began) and after (the
        change request's content), with their markdown."""
        base_id = cr.base_revision
        head, base, listed = await asyncio.gather(
            self._client.content.pages(space_id, change_request=cr.id),
            self._client.content.pages(space_id, revision=base_id) if base_id else _no_pages(),
            self._client.change_requests.changes(space_id, cr.id, limit=1000),
        )
        result = build_change_set(cr, base.pages, head.pages, listed.changes)
        result.more = listed.more or 0
        return result

    # -- decisions ----------------------------------------------------------------------------------------------

    def _changed(self, space_id: str, *, pages: bool = False) -> None:
        """A write changed the change requests of ``space_id`` (and, with ``pages``, its content): the lists that
        show them load again when they are back in view (``services.changes``)."""
        if self._services is not None:
            topics: list[tuple[str, ...]] = [("change-requests",), ("change-requests", space_id)]
            if pages:
                topics.append(("pages", space_id))
            self._services.changes.bump(*topics)

    async def submit(
        self, space_id: str, cr_id: str, status: ReviewStatus, comment: str | None = None
    ) -> ChangeRequestReview:
        """Approve or request changes, with an optional comment (markdown; blank means none)."""
        text = comment.strip() if comment else ""
        review = await self._client.reviews.submit(space_id, cr_id, status, text or None)
        self._changed(space_id)
        return review

    async def find_review(
        self, space_id: str, cr_id: str, status: ReviewStatus, since: datetime
    ) -> ChangeRequestReview | None:
        """After a lost answer: the caller's review of ``cr_id`` with this verdict made since ``since`` (less the
        clock skew between this machine and the service), the newest; None when there is none (sending the review
        again is safe)."""
        services = self._services
        me = (await services.me()).id if services is not None else (await self._client.users.me()).id
        earliest = since.timestamp() - CLOCK_SKEW
        for review in await self._client.reviews.list(space_id, cr_id, format="markdown").collect():  # newest first
            mine = review.reviewer is not None and review.reviewer.id == me
            if (
                mine
                and review.status == status
                and (review.created_at is None or review.created_at.timestamp() >= earliest)
            ):
                self._changed(space_id)
                return review
        return None

    async def merge(self, space_id: str, cr_id: str) -> MergeResult:
        result = await self._client.change_requests.merge(space_id, cr_id)
        self._changed(space_id, pages=True)
        return result

    async def update_from_main(self, space_id: str, cr_id: str) -> UpdateResult:
        result = await self._client.change_requests.update_from_main(space_id, cr_id)
        self._changed(space_id)
        return result

    async def pdf_url(self, space_id: str, cr_id: str) -> str:
        """A temporary (one hour) link to the change request's content as PDF."""
        return (await self._client.change_requests.pdf(space_id, cr_id)).url

    async def rename(self, space_id: str, cr_id: str, subject: str) -> ChangeRequest:
        cr = await self._client.change_requests.update(space_id, cr_id, subject=subject)
        self._changed(space_id)
        return cr

    async def describe(self, space_id: str, cr_id: str, text: str) -> ChangeRequest:
        """Replace the description with ``text`` (one paragraph a line)."""
        cr = await self._client.change_requests.update(space_id, cr_id, description=text)
        self._changed(space_id)
        return cr

    async def set_status(self, space_id: str, cr_id: str, status: PatchableStatus) -> ChangeRequest:
        cr = await self._client.change_requests.update(space_id, cr_id, status=status)
        self._changed(space_id)
        return cr


async def _no_pages() -> Any:
    from folio.models.common import PagesList

    return PagesList()
