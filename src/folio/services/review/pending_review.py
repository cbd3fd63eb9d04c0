"""A pending review: the comments and replies a reviewer writes on a change request while holding them, kept on this
machine and sent together with the verdict, in the order they were written.

    pending = services.pending_review
    pending.toggle(space_id, cr_id)                      # P: hold from now on (or stop holding)
    await services.comments.create(...)                  # held: returns a Held, nothing is sent
    report = await pending.send(space_id, cr_id)         # with the verdict: every held comment, in order

What is held lives in the account's local state, next to the drafts (one entry per change request, written as it
changes), so it survives Folio going offline, a crash and a dropped SSH session; without local state it lasts until
Folio quits. Sending uses the outbox's rule for a write whose answer was lost: before an item is sent it is marked
attempted (written first); an item found marked is looked for on the service (the signed-in user's comment or reply
with the same text on the same target, posted after it was held, give or take the clock skew) before it goes again.
Found, it counts as sent. A failure stops the send: what is left stays held, in order.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from folio.api.errors import InvalidRequest
from folio.services.review.outbox import Queued

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.cache import LocalState
    from folio.services import Services

__all__ = ["Held", "HeldComment", "PendingReview", "PendingReviewService", "SendReport"]

HeldKind = Literal["comment", "reply"]
KEY = "pending-review:{space}/{cr}"
"""The local-state entry of one change request's pending review (kept with the drafts)."""


@dataclass(frozen=True)
class HeldComment:
    """One comment (on the change request, a page or a block) or reply (to thread ``comment``) held for the
    verdict. ``where`` says where it goes, in words; ``attempted``: a send was started (it may have arrived)."""

    kind: HeldKind
    markdown: str
    where: str
    created_at: float
    page: str | None = None
    node: str | None = None
    comment: str | None = None
    attempted: bool = False

    @classmethod
    def read(cls, data: Any) -> HeldComment | None:
        if not isinstance(data, dict) or data.get("kind") not in ("comment", "reply"):
            return None
        markdown, at = data.get("markdown"), data.get("created_at")
        if not isinstance(markdown, str) or not isinstance(at, int | float):
            return None
        ids = {k: data.get(k) if isinstance(data.get(k), str) else None for k in ("page", "node", "comment")}
        if data["kind"] == "reply" and ids["comment"] is None:
            return None
        where = data.get("where")
        return cls(
            data["kind"],
            markdown,
            where if isinstance(where, str) else "",
            float(at),
            **ids,
            attempted=bool(data.get("attempted")),
        )


@dataclass(frozen=True)
class Held(Queued):
    """What ``CommentService.create``/``reply`` return when the comment was held for the verdict (``id``: its
    place in the pending review, from 1)."""

    message: ClassVar[str] = "Held in your pending review: it is sent with your verdict (R)."


@dataclass
class PendingReview:
    """One change request's pending review: whether new comments are held, and those held, oldest first."""

    holding: bool = False
    items: list[HeldComment] = field(default_factory=list)

    @property
    def summary(self) -> str:
        """``pending review: 3 comments`` (empty when nothing is held and nothing would be)."""
        if not self.items and not self.holding:
            return ""
        n = len(self.items)
        return f"pending review: {n} comment{'s' if n != 1 else ''}"


@dataclass
class SendReport:
    """What :meth:`PendingReviewService.send` did: items ``sent``, and ``found`` already on the service."""

    sent: list[HeldComment] = field(default_factory=list)
    found: list[HeldComment] = field(default_factory=list)

    @property
    def done(self) -> int:
        return len(self.sent) + len(self.found)


class PendingReviewService:
    """Hold, list, drop and send the comments of pending reviews (see the module docstring)."""

    def __init__(self, client: GitBookClient, services: Services, *, clock: Callable[[], float] = time.time) -> None:
        self._client = client
        self._services = services
        self._clock = clock
        self._memory: dict[str, str] = {}
        """Used when there is no local state: kept until Folio quits."""

    # -- storage ---------------------------------------------------------------------------------------------

    @property
    def _state(self) -> LocalState | None:
        local = self._services.local
        return local.state if local is not None else None

    @property
    def kept(self) -> bool:
        """Whether what is held is written to this machine (else it lasts until Folio quits)."""
        return self._state is not None

    @staticmethod
    def _key(space_id: str, cr: str | int) -> str:
        return KEY.format(space=space_id, cr=cr)

    def get(self, space_id: str, cr: str | int) -> PendingReview:
        key, state = self._key(space_id, cr), self._state
        if state is not None:
            draft = state.draft(key)
            text = draft.text if draft is not None else None
        else:
            text = self._memory.get(key)
        try:
            data = json.loads(text) if text else {}
        except ValueError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        raw = data.get("items")
        items = [item for item in map(HeldComment.read, raw if isinstance(raw, list) else []) if item is not None]
        return PendingReview(bool(data.get("holding")), items)

    def _put(self, space_id: str, cr: str | int, review: PendingReview) -> None:
        key, state = self._key(space_id, cr), self._state
        empty = not review.holding and not review.items
        text = "" if empty else json.dumps({"holding": review.holding, "items": [asdict(i) for i in review.items]})
        if state is None:
            if empty:
                self._memory.pop(key, None)
            else:
                self._memory[key] = text
            return
        where = f"your pending review ({len(review.items)} held) of change request {cr}"
        state.save_draft(key, text, where=where)  # an empty text removes the entry

    # -- holding ---------------------------------------------------------------------------------------------

    def holding(self, space_id: str, cr: str | int | None) -> bool:
        """Whether comments written now on this change request are held (never on a space's own comments)."""
        return cr is not None and self.get(space_id, cr).holding

    def toggle(self, space_id: str, cr: str | int) -> PendingReview:
        """Start holding, or stop (what is held stays held, for the verdict)."""
        review = self.get(space_id, cr)
        review.holding = not review.holding
        self._put(space_id, cr, review)
        return review

    def hold(
        self,
        space_id: str,
        cr: str | int,
        kind: HeldKind,
        markdown: str,
        *,
        where: str,
        page: str | None = None,
        node: str | None = None,
        comment: str | None = None,
    ) -> Held:
        """Keep a comment (``page``/``node``: where; neither: the whole change request) or a reply (``comment``:
        its thread) for the verdict. Raises InvalidRequest for an empty text, as the service would."""
        if not markdown.strip():
            raise InvalidRequest("body.markdown", "is empty", "a non-empty markdown text")
        if kind == "reply" and not comment:
            raise ValueError("a held reply needs the id of its thread")
        review = self.get(space_id, cr)
        review.items.append(HeldComment(kind, markdown, where, self._clock(), page, node, comment))
        self._put(space_id, cr, review)
        return Held(len(review.items), where)

    def remove(self, space_id: str, cr: str | int, index: int) -> HeldComment | None:
        """Drop the held item at ``index`` (0-based); returns it (None: there is no such item)."""
        review = self.get(space_id, cr)
        if not 0 <= index < len(review.items):
            return None
        item = review.items.pop(index)
        self._put(space_id, cr, review)
        return item

    def edit(self, space_id: str, cr: str | int, index: int, markdown: str) -> None:
        """Change the text of a held item (not yet sent: nothing can have reached the service)."""
        if not markdown.strip():
            raise InvalidRequest("body.markdown", "is empty", "a non-empty markdown text")
        review = self.get(space_id, cr)
        if 0 <= index < len(review.items):
            review.items[index] = replace(review.items[index], markdown=markdown, attempted=False)
            self._put(space_id, cr, review)

    def discard(self, space_id: str, cr: str | int) -> int:
        """Forget every held item and stop holding; returns how many were dropped."""
        count = len(self.get(space_id, cr).items)
        self._put(space_id, cr, PendingReview())
        return count

    # -- sending ---------------------------------------------------------------------------------------------

    async def send(self, space_id: str, cr: str | int) -> SendReport:
        """Send every held item, in order (the verdict goes after them). Each is marked attempted before it goes;
        one found marked is looked for first. Raises the first failure: what is left stays held. Holding stops
        once everything is sent."""
        report = SendReport()
        while True:
            review = self.get(space_id, cr)
            if not review.items:
                break
            item = review.items[0]
            if item.attempted and await self._already_there(space_id, cr, item):
                report.found.append(item)
            else:
                review.items[0] = replace(item, attempted=True)
                self._put(space_id, cr, review)  # written before the request: a lost answer is looked for next time
                await self._send(space_id, cr, item)
                report.sent.append(item)
            review = self.get(space_id, cr)
            review.items = review.items[1:]
            self._put(space_id, cr, review)
        self._put(space_id, cr, PendingReview())
        if report.done:
            self._services.changes.bump(("comments", space_id))
        return report

    async def _send(self, space_id: str, cr: str | int, item: HeldComment) -> None:
        comments = self._client.comments
        if item.kind == "reply":
            await comments.reply(space_id, str(item.comment), item.markdown, change_request=cr)
        else:
            await comments.create(space_id, item.markdown, change_request=cr, page=item.page, node=item.node)

    async def _already_there(self, space_id: str, cr: str | int, item: HeldComment) -> bool:
        """The outbox's lost-answer check: the caller's post with this text on this target since it was held."""
        found: object | None
        if item.kind == "reply":
            found = await self._services.comments.find_reply(
                space_id, str(item.comment), item.markdown, change_request=cr, since=item.created_at
            )
        else:
            found = await self._services.comments.find_comment(
                space_id, item.markdown, change_request=cr, page=item.page, node=item.node, since=item.created_at
            )
        return found is not None
