"""Changes since your last review: what changed in a change request since the revision the reviewer last saw.

The revision "last seen" is the later of two: the revision of the reviewer's own latest review (the service keeps
it on each review) and the revision whose pages they last marked viewed on this machine (the viewed marks of
:mod:`folio.services.review.viewed`, which keep when each revision was marked). The pages of that revision and of the
current one (the API's revision pages) are paired like a change request's base and head, so the same diff view
shows only what changed since.

    since = services.since_review
    result = await since.since(space_id, cr)      # None: never seen, or nothing new since
    result.summary                                # "3 pages changed since you reviewed on 2026-11-01 09:00 UTC"
    result.changes                                # a ChangeSet (the changes tab shows it)
    result.from_main                              # ids of the pages whose change came from main (update)

Pages viewed then and untouched since keep their viewed mark in the current revision; changed ones lose it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from folio.api.errors import ApiError
from folio.services import format
from folio.services.review.review import ChangeSet, PageChange, build_change_set
from folio.services.review.viewed import ViewedMarks

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.change_request import ChangeRequest
    from folio.models.common import Page
    from folio.services import Services

__all__ = ["Seen", "Since", "SinceReviewService", "since_change_set"]

_ORDER = ("created", "edited", "moved", "deleted")


@dataclass(frozen=True)
class Seen:
    """The revision of a change request the reviewer last saw, when, and how (their review, or viewed marks)."""

    revision: str
    at: datetime | None
    how: Literal["reviewed", "viewed"]


@dataclass
class Since:
    """What changed since :attr:`seen`: a change set between that revision and the current one."""

    seen: Seen
    changes: ChangeSet
    from_main: set[str] = field(default_factory=set)
    """The changed pages whose change is main's change (brought in by an update from main)."""
    kept: set[str] = field(default_factory=set)
    """The pages viewed in the seen revision and untouched since: they keep their viewed mark."""

    @property
    def changed(self) -> list[PageChange]:
        return self.changes.changed

    @property
    def summary(self) -> str:
        """``3 pages changed since you reviewed on <date>`` (and how many came from main)."""
        n = len(self.changed)
        verb = "reviewed" if self.seen.how == "reviewed" else "last viewed it"
        on = f" on {format.stamp(self.seen.at)}" if self.seen.at else ""
        if n == 0:
            return f"Nothing changed in its pages since you {verb}{on}."
        text = f"{format.count(n, 'page')} changed since you {verb}{on}"
        if self.from_main:
            text += f" ({len(self.from_main)} from main, by an update)"
        return text + "."


def _flat(pages: list[Page]) -> dict[str, tuple[Page, str | None]]:
    out: dict[str, tuple[Page, str | None]] = {}

    def visit(items: list[Page], parent: str | None) -> None:
        for page in items:
            out[page.id] = (page, parent)
            visit(page.pages, page.id)

    visit(pages, None)
    return out


def _state(page: Page | None) -> tuple[Any, ...] | None:
    """What a page is, to compare: None when absent; its body, title and place otherwise."""
    if page is None:
        return None
    return (page.markdown if page.type == "document" else None, page.title, page.path)


def since_change_set(
    cr: ChangeRequest, then: list[Page], now: list[Page], main: list[Page] | None = None
) -> tuple[ChangeSet, set[str]]:
    """The change set from the pages the reviewer saw (``then``) to the current ones (``now``): created, edited
    (body or title), moved (another parent or path), deleted; and, with ``main`` (the pages of the base revision
    after an update from main), the ids of the changed pages whose state now is main's (their change came from
    main)."""
    changes = build_change_set(cr, then, now, [])
    before, after = _flat(then), _flat(now)
    for page in changes.pages:
        old, new = before.get(page.id), after.get(page.id)
        if old is None or new is None:
            continue
        kinds = set(page.kinds)
        if (old[0].title or "") != (new[0].title or ""):
            kinds.add("edited")
            page.attributes["title"] = (old[0].title, new[0].title)
        if old[1] != new[1] or (old[0].path or "") != (new[0].path or ""):
            kinds.add("moved")
            page.attributes["path"] = (old[0].path, new[0].path)
        page.kinds = tuple(k for k in _ORDER if k in kinds)
    from_main: set[str] = set()
    if main is not None:
        base = _flat(main)
        for page in changes.changed:
            in_main, in_now = base.get(page.id), after.get(page.id)
            if _state(in_main[0] if in_main else None) == _state(in_now[0] if in_now else None):
                from_main.add(page.id)
    return changes, from_main


class SinceReviewService:
    """What changed since the reviewer last looked, over the API client (``services.since_review``)."""

    def __init__(self, client: GitBookClient, services: Services | None = None, *, viewed: ViewedMarks | None = None):
        self._client = client
        self._services = services
        if viewed is None:
            viewed = services.review.viewed if services is not None else ViewedMarks()
        self.viewed = viewed

    async def _me(self) -> str:
        if self._services is not None:
            return (await self._services.me()).id
        return (await self._client.users.me()).id

    async def last_review(self, space_id: str, cr: ChangeRequest) -> Seen | None:
        """The revision of the caller's latest review of ``cr`` (None: no review, or it cannot be read now)."""
        try:
            me = await self._me()
            reviews = await self._client.reviews.list(space_id, cr.id, format="markdown").collect()
        except ApiError:
            return None
        for review in reviews:  # newest first
            if review.reviewer is not None and review.reviewer.id == me and review.revision:
                return Seen(review.revision, review.created_at, "reviewed")
        return None

    async def last_seen(self, space_id: str, cr: ChangeRequest) -> Seen | None:
        """The later of the caller's latest review and the revision they last marked pages viewed in (other than
        the current one: marks in it say what was looked at since)."""
        reviewed = await self.last_review(space_id, cr)
        marked = self.viewed.last_marked(cr.id, other_than=cr.revision)
        viewed = (
            Seen(marked[0], datetime.fromtimestamp(marked[1], UTC) if marked[1] is not None else None, "viewed")
            if marked
            else None
        )
        if reviewed is None or viewed is None:
            return reviewed or viewed
        if reviewed.revision in (viewed.revision, cr.revision):
            # The same revision: the review says it (with the service's date). A review of the current revision
            # came after any mark of an earlier one (marks are set on the revision current then).
            return reviewed
        if viewed.at is not None and (reviewed.at is None or viewed.at > reviewed.at):
            return viewed
        return reviewed

    async def since(self, space_id: str, cr: ChangeRequest) -> Since | None:
        """What changed since the caller last saw ``cr``; None when they never did, when it is the current
        revision, or when the revision they saw cannot be read. Carries the viewed marks of untouched pages."""
        seen = await self.last_seen(space_id, cr)
        if seen is None or not cr.revision or seen.revision == cr.revision:
            return None
        updated = bool(cr.revision_merged_ancestor)
        try:
            then, now, main = await asyncio.gather(
                self._client.content.pages(space_id, revision=seen.revision),
                self._client.content.pages(space_id, change_request=cr.id),
                self._client.content.pages(space_id, revision=cr.base_revision) if updated else _none(),
            )
        except ApiError:
            return None
        changes, from_main = since_change_set(cr, then.pages, now.pages, main.pages if main is not None else None)
        changed = {p.id for p in changes.changed}
        kept = self.viewed.viewed(cr.id, seen.revision) - changed
        if kept:
            try:
                self.viewed.carry(cr.id, cr.revision, kept)
            except OSError:
                kept = set()  # the marks could not be written: the pages show unviewed, as they are stored
        return Since(seen, changes, from_main, kept)


async def _none() -> None:
    return None
