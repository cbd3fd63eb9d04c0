"""Comment from the diff: ``c`` on the changes tab comments on the block of the change request's content that the
line under the diff's cursor belongs to (the comment's target: the page and the block's key, its ``node``).

    await comment_from_diff(pane, services, cr, page, line, markdown)

The box shows the block's text above it. A line that belongs to no block of the new revision (a deleted line, a
blank line, a page the change request deletes) is said so, and the page (or, for a deleted page, the change
request as a whole) is offered instead. A comment whose answer was lost is looked for before it can be sent again
(``find_comment``); offline, it goes to the outbox. The write ends in a message and has the comment lists reload.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Static

from folio.services.errors import ServiceError
from folio.services.review.blocks import block_at
from folio.services.review.comments import Queued, first_line
from folio.tui.errors import notify_error
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.form import Field
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.safe import safe

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from textual.widget import Widget

    from folio.models.change_request import ChangeRequest
    from folio.services import Services
    from folio.services.review.diff import DiffLine
    from folio.services.review.review import PageChange

__all__ = ["BlockCommentModal", "Target", "comment_from_diff", "target_of"]

QUOTE_LINES = 4
"""Lines of the block's text shown above the box."""


@dataclass(frozen=True)
class Target:
    """Where a comment from the diff goes: a page (None: the whole change request) and a block of it."""

    page_id: str | None
    page_title: str
    node: str | None = None
    block_text: str | None = None

    @property
    def words(self) -> str:
        """Where, in words: ``“first words” of “Page”``, ``“Page”``, ``the whole change request``."""
        if self.page_id is None:
            return "the whole change request"
        page = f"“{safe(self.page_title, limit=60).plain}”"
        if self.block_text is None:
            return page
        return f"“{safe(first_line(self.block_text, 40), limit=40).plain}” of {page}"


class BlockCommentModal(TextEntryModal):
    """The comment box with the block's text quoted above it."""

    DEFAULT_CSS = """
    BlockCommentModal .diff-comment--block { height: auto; max-height: 6; margin-top: 1; padding: 0 1;
                                             border-left: thick $accent; color: $text-muted; }
    """

    def __init__(
        self,
        target: Target,
        submit: Callable[[str], Awaitable[object]],
        *,
        find_sent: Callable[[str], Awaitable[object | None]] | None = None,
        draft: str | None = None,
    ) -> None:
        self.target = target
        super().__init__(
            f"New comment on {target.words}",
            submit,
            find_sent=find_sent,
            send_label="Post",
            draft=draft,
            where=f"a new comment on {target.words}",
        )

    def compose_intro(self) -> ComposeResult:
        text = self.target.block_text
        if text is not None:
            lines = [line for line in text.splitlines() if line.strip()] or [text]
            shown = "\n".join(lines[:QUOTE_LINES]) + ("\n\u2026" if len(lines) > QUOTE_LINES else "")
            yield Static(safe(shown, limit=400, multiline=True), classes="diff-comment--block")

    def fields(self) -> Sequence[Field]:
        height = 6 if self.app.size.height < 30 else 10  # the block, the box and the buttons fit 24 rows
        return (Field("text", "Text", kind="text", height=height),)


async def target_of(
    services: Services, cr: ChangeRequest, page: PageChange, line: DiffLine | None, markdown: str | None
) -> tuple[Target | None, str]:
    """The block ``line`` of ``page``'s diff belongs to, or (None, why there is none). ``markdown`` is the text
    the diff compares on the new side (its line numbers are the diff's)."""
    if page.after is None:
        return None, "This page is deleted by this change request: its lines belong to no block of the new revision."
    if line is None:
        return None, "No line of this page's diff is under the cursor."
    if line.new is None:
        return None, "This line is deleted: it belongs to no block of the new revision."
    blocks = await services.comments.page_blocks(cr.space, page.id, markdown or "", change_request=cr.id)
    if blocks is None:
        return None, "The page's blocks could not be read."
    block = block_at(blocks, line.new)
    if block is None:
        return None, "This line belongs to no block of the new revision (a blank line, or a block not found)."
    return Target(page.id, page.title, block.key, block.text), ""


async def comment_from_diff(
    host: Widget,
    services: Services,
    cr: ChangeRequest,
    page: PageChange,
    line: DiffLine | None,
    markdown: str | None,
) -> bool:
    """Ask for a comment on the block under the cursor (or, said why not, on the page) and post it; True once
    it is posted (or queued)."""
    app = host.app
    try:
        target, why = await target_of(services, cr, page, line, markdown)
    except ServiceError as exc:
        notify_error(host, exc, doing="Could not find the block under the cursor")
        return False
    if target is None:
        deleted = page.after is None
        offer = Target(None, "") if deleted else Target(page.id, page.title)
        question = ConfirmModal(
            Content(why),
            Content(f"Comment on {offer.words} instead?"),
            accept_key="y",
            accept_label="Comment on the change request" if deleted else "Comment on the page",
        )
        if not await app.push_screen_wait(question):
            return False
        target = offer
    return await _post(host, services, cr, target)


async def _post(host: Widget, services: Services, cr: ChangeRequest, target: Target) -> bool:
    space, queued = cr.space, []

    async def send(text: str) -> None:
        posted = await services.comments.create(
            space,
            text,
            change_request=cr.id,
            page=target.page_id,
            node=target.node,
            where=f"a comment on {target.words}",
        )
        if isinstance(posted, Queued):
            queued.append(posted)

    began = time.time()

    async def find(text: str) -> object | None:
        return await services.comments.find_comment(
            space, text, change_request=cr.id, page=target.page_id, node=target.node, since=began
        )

    modal = BlockCommentModal(
        target,
        send,
        find_sent=find,
        draft=f"comment:{space}/{cr.id}/{target.page_id or '-'}/{target.node or '-'}",
    )
    if await host.app.push_screen_wait(modal) is None:
        return False
    if queued:
        host.notify(queued[-1].message, markup=False)  # held or queued: each says which
        return True
    services.changes.bump(("comments", space))
    host.notify(f"Comment posted on {target.words}", markup=False)
    return True
