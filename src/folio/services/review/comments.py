"""Comments: what the Comments tab of a space or change request and the thread screen show, and the writes.

A list is read whole (every status, markdown bodies) with the page tree of the same content, so the panel
filters open / resolved / all without asking again, and each comment is grouped under its page and, when it
targets one, its block (node). A block's text is found in the page's rich-text document: the block whose
``key`` is the node id. A block is never named by its id: without its text it is "a block of this page", and a
page read without it says the block is no longer in the page. In a change request, the pages it changes are
read with the list (the page picker offers them first). ``page_blocks`` places a page's blocks on the lines of
its markdown: what a line of a diff comments on (``folio.services.review.blocks``).

Replies: the spec lists them only under the change request prefix; the space prefix is asked the same way
(the client offers it for both) and, when the service answers 404 for a comment that exists, the thread says
the replies cannot be listed instead of failing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from folio.api.errors import ApiError, InvalidRequest, NotFound, Offline
from folio.api.limits import check_length
from folio.api.resources.comments import EMOJI_MAX
from folio.models.common import Page
from folio.services.review.blocks import Block, locate_blocks
from folio.services.review.comment_listing import (
    COMMON_REACTIONS,
    MAX_BLOCK_PAGES,
    STATUSES,
    BlockGroup,
    CommentList,
    Cr,
    PageChoice,
    PageGroup,
    Status,
    Thread,
    age,
    find_block,
    first_line,
    group_comments,
    is_mine,
    may,
    my_reactions,
    page_choices,
    page_title,
    plain_markdown,
    reactions_summary,
    stamp,
)
from folio.services.review.outbox import CLOCK_SKEW, OutboxService, Queued, outbox_of, target_key
from folio.services.review.review import CHANGE_WORDS

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.comment import Comment, CommentReply
    from folio.models.common import User
    from folio.services import Services

__all__ = [
    "COMMON_REACTIONS",
    "STATUSES",
    "BlockGroup",
    "CommentList",
    "CommentService",
    "Cr",
    "PageChoice",
    "PageGroup",
    "Queued",
    "Status",
    "Thread",
    "age",
    "find_block",
    "first_line",
    "group_comments",
    "is_mine",
    "may",
    "my_reactions",
    "page_choices",
    "page_title",
    "plain_markdown",
    "reactions_summary",
    "stamp",
]


class CommentService:
    """Reads and writes comments of a space (``change_request=None``) or of a change request (its id or
    number). ``clock`` gives "now" for ages (tests pin it to the sandbox's frozen clock)."""

    def __init__(self, client: GitBookClient, services: Services) -> None:
        self._client = client
        self._services = services
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)

    async def me(self) -> User | None:
        """The signed-in user, or None when it cannot be read (nothing is then "yours")."""
        try:
            return await self._services.me()
        except ApiError:
            return None

    async def is_mine(self, item: Comment | CommentReply) -> bool:
        return is_mine(item, await self.me())

    # -- reads ---------------------------------------------------------------------------------------------------

    async def load(self, space_id: str, *, change_request: Cr = None) -> CommentList:
        """Every comment (all statuses, newest first) and the pages of the same content."""
        comments_call = self._client.comments.list(
            space_id, change_request=change_request, format="markdown", status="all", limit=1000
        ).collect()
        pages_call = self._client.content.pages(space_id, change_request=change_request)
        changed_call = self._changed_pages(space_id, change_request)
        comments, pages, changed = await asyncio.gather(comments_call, pages_call, changed_call)
        listing = CommentList(comments, page_choices(pages.pages), await self.me(), change_request=change_request)
        listing.changed = changed
        return listing

    async def _changed_pages(self, space_id: str, change_request: Cr) -> dict[str, str]:
        """The pages a change request changes (page id -> what happened, in words); empty for a space, or when the
        change list cannot be read (the picker then lists the pages in their order, unmarked)."""
        if change_request is None:
            return {}
        try:
            listed = await self._client.change_requests.changes(space_id, change_request, limit=1000)
        except ApiError:
            return {}
        out: dict[str, list[str]] = {}
        for change in listed.changes:
            word = CHANGE_WORDS.get(change.type)
            if word is not None and change.page is not None:
                out.setdefault(change.page.id, []).append(word)
        return {page: ", ".join(dict.fromkeys(words)) for page, words in out.items()}

    async def block_texts(
        self, space_id: str, comments: Iterable[Comment], *, change_request: Cr = None
    ) -> dict[str, str]:
        """The text of each commented block that can be found in its page's document (node id -> text). Pages
        that cannot be read are skipped: their blocks are named in general words."""
        wanted: dict[str, set[str]] = {}
        for comment in comments:
            if comment.page_id and comment.target.node:
                wanted.setdefault(comment.page_id, set()).add(comment.target.node.id)
        found: dict[str, str] = {}

        async def read(page_id: str, nodes: set[str]) -> None:
            page = await self._page(space_id, page_id, change_request)
            for node in nodes:
                text = find_block(page.document if page else None, node)
                if text:
                    found[node] = text

        await asyncio.gather(*(read(p, n) for p, n in list(wanted.items())[:MAX_BLOCK_PAGES]))
        return found

    async def _page(self, space_id: str, page_id: str, change_request: Cr) -> Page | None:
        """The page with its rich-text document, or None when it cannot be read (gone from the content)."""
        try:
            return await self._client.content.page(space_id, page_id, change_request=change_request, format="document")
        except ApiError:
            return None

    async def page_blocks(
        self, space_id: str, page_id: str, markdown: str, *, change_request: Cr = None
    ) -> list[Block] | None:
        """The blocks of a page of the content (with the keys a comment targets) placed on the lines of its
        ``markdown``: what a line of a diff comments on. None when the page cannot be read."""
        page = await self._page(space_id, page_id, change_request)
        return None if page is None else locate_blocks(markdown, page.document)

    async def thread(self, space_id: str, comment_id: str, *, change_request: Cr = None) -> Thread:
        """The comment, its replies (oldest first) and where it sits (page title, block text or id)."""
        comment = await self._client.comments.get(
            space_id, comment_id, change_request=change_request, format="markdown"
        )
        replies_call = self._replies(space_id, comment, change_request)
        where_call = self._where(space_id, comment, change_request)
        (replies, listed), where = await asyncio.gather(replies_call, where_call)
        return Thread(comment, replies, where, await self.me(), listed)

    async def _replies(self, space_id: str, comment: Comment, change_request: Cr) -> tuple[list[CommentReply], bool]:
        paginator = self._client.comments.replies(
            space_id, comment.id, change_request=change_request, format="markdown", limit=1000
        )
        try:
            return await paginator.collect(), True
        except NotFound:
            # The comment was just read, so a 404 here means the service lists no replies under this prefix.
            if change_request is None:
                return [], False
            raise

    async def _where(self, space_id: str, comment: Comment, change_request: Cr) -> str:
        if comment.page_id is None:
            return "On the whole change request" if change_request is not None else "On the whole space"
        page = await self._page(space_id, comment.page_id, change_request)
        title = f"“{page.title or 'Untitled'}”" if page else f"page {comment.page_id} (not in the current content)"
        if comment.target.node is None:
            return f"On {title}"
        text = find_block(page.document if page else None, comment.target.node.id)
        if text:
            return f"On “{first_line(text, 60)}” of {title}"
        # Never the node's id: a page read without the block has lost it; an unread page may still hold it.
        return f"On a block no longer in the page {title}" if page else f"On a block of {title}"

    # -- writes ------------------------------------------------------------------------------------------------
    #
    # Offline, with the account's local state, comments, replies, reactions and resolves go into the outbox
    # (``folio.services.review.outbox``) and the call returns a :class:`Queued` instead of what the service would have
    # answered; edits and deletes need the service and fail with :class:`Offline`.

    def _offline_outbox(self) -> OutboxService | None:
        if not self._client.offline_reason:
            return None
        outbox = outbox_of(self._services)
        return outbox if outbox is not None and outbox.available else None

    async def _queue(
        self, outbox: OutboxService, kind: str, payload: dict[str, Any], target: str, what: str, where: str | None
    ) -> Queued:
        place = await self._place(payload["space"], payload["change_request"], payload.get("comment"))
        words = " ".join(filter(None, (where or what, place)))
        return Queued(outbox.queue(kind, target, payload, words), words)

    async def _place(self, space_id: str, change_request: Cr, comment_id: str | None) -> str:
        """Where a queued write goes, in words, from what the cache holds (offline: nothing is asked)."""
        bits: list[str] = []
        with contextlib.suppress(ApiError):
            if comment_id is not None:
                comment = await self._client.comments.get(
                    space_id, comment_id, change_request=change_request, format="markdown"
                )
                bits.append(f"on “{first_line(plain_markdown(comment.text), 50)}”")
        with contextlib.suppress(ApiError):
            bits.append(f"in “{(await self._client.spaces.get(space_id)).title}”")
        if change_request is not None:
            try:
                bits.append(f"({(await self._client.change_requests.get(space_id, change_request)).title})")
            except ApiError:
                bits.append(f"(change request {change_request})")
        return " ".join(bits)

    @staticmethod
    def _check_markdown(markdown: str) -> None:
        if not markdown.strip():
            raise InvalidRequest("body.markdown", "is empty", "a non-empty markdown text")

    def _online_only(self, what: str) -> None:
        if self._client.offline_reason:
            raise Offline(f"Folio is offline: edits and deletes need the service, so the {what} was not sent.")

    async def create(
        self,
        space_id: str,
        markdown: str,
        *,
        change_request: Cr = None,
        page: str | None = None,
        node: str | None = None,
        where: str | None = None,
    ) -> Comment | Queued:
        """Comment on a page or one of its blocks (``node``), or without ``page`` on the whole content.
        Offline: queued (``where`` says where in words, for the outbox). During a pending review: held."""
        pending = self._services.pending_review
        if change_request is not None and pending.holding(space_id, change_request):
            return pending.hold(
                space_id, change_request, "comment", markdown, where=where or "a comment", page=page, node=node
            )
        if (outbox := self._offline_outbox()) is not None:
            self._check_markdown(markdown)
            payload = {"space": space_id, "change_request": change_request, "page": page, "node": node}
            target = target_key(space_id, change_request, page=page, node=node)
            return await self._queue(outbox, "comment", {**payload, "markdown": markdown}, target, "a comment", where)
        return await self._client.comments.create(
            space_id, markdown, change_request=change_request, page=page, node=node
        )

    async def reply(
        self, space_id: str, comment_id: str, markdown: str, *, change_request: Cr = None, where: str | None = None
    ) -> CommentReply | Queued:
        pending = self._services.pending_review
        if change_request is not None and pending.holding(space_id, change_request):
            return pending.hold(
                space_id, change_request, "reply", markdown, where=where or "a reply", comment=comment_id
            )
        if (outbox := self._offline_outbox()) is not None:
            self._check_markdown(markdown)
            payload = {"space": space_id, "change_request": change_request, "comment": comment_id, "markdown": markdown}
            target = target_key(space_id, change_request, comment=comment_id)
            return await self._queue(outbox, "reply", payload, target, "a reply", where)
        return await self._client.comments.reply(space_id, comment_id, markdown, change_request=change_request)

    # -- a write whose answer was lost: is it there? -------------------------------------------------------------

    async def find_comment(
        self,
        space_id: str,
        markdown: str,
        *,
        change_request: Cr = None,
        page: str | None = None,
        node: str | None = None,
        since: float,
    ) -> Comment | None:
        """The caller's comment with this text on this page and block, posted after ``since`` (a timestamp, less
        the clock skew between this machine and the service), if the service has it."""
        me = (await self._services.me()).id
        listing = self._client.comments.list(
            space_id,
            change_request=change_request,
            format="markdown",
            status="all",
            target_page=page,
            authors=[me],
            limit=1000,
        )
        posts = [
            c
            for c in await listing.collect()
            if c.page_id == page and (c.target.node.id if c.target.node else None) == node
        ]
        return next((c for c in posts if _same_post(c, me, markdown, since)), None)

    async def find_reply(
        self, space_id: str, comment_id: str, markdown: str, *, change_request: Cr = None, since: float
    ) -> CommentReply | None:
        """The caller's reply with this text to ``comment_id``, posted after ``since``, if the service has it.
        Raises ``NotFound`` when the service cannot list the replies (it cannot be checked)."""
        me = (await self._services.me()).id
        replies = await self._client.comments.replies(
            space_id, comment_id, change_request=change_request, format="markdown", limit=1000
        ).collect()
        return next((r for r in replies if _same_post(r, me, markdown, since)), None)

    async def _update(
        self, space_id: str, comment_id: str, reply_id: str | None, change_request: Cr, **fields: Any
    ) -> Comment | CommentReply:
        comments = self._client.comments
        if reply_id is None:
            return await comments.update(space_id, comment_id, change_request=change_request, **fields)
        return await comments.update_reply(space_id, comment_id, reply_id, change_request=change_request, **fields)

    async def edit(
        self, space_id: str, comment_id: str, markdown: str, *, reply_id: str | None = None, change_request: Cr = None
    ) -> Comment | CommentReply:
        """Change the body of a comment or (``reply_id``) of one of its replies (the author only)."""
        self._online_only("edit")
        return await self._update(space_id, comment_id, reply_id, change_request, markdown=markdown)

    async def delete(
        self, space_id: str, comment_id: str, *, reply_id: str | None = None, change_request: Cr = None
    ) -> None:
        """Delete a comment (with its replies) or one reply."""
        self._online_only("deletion")
        if reply_id is None:
            await self._client.comments.delete(space_id, comment_id, change_request=change_request)
        else:
            await self._client.comments.delete_reply(space_id, comment_id, reply_id, change_request=change_request)

    async def react(
        self,
        space_id: str,
        comment_id: str,
        emoji: str,
        *,
        remove: bool = False,
        reply_id: str | None = None,
        change_request: Cr = None,
        where: str | None = None,
    ) -> Comment | CommentReply | Queued:
        """Add (or, with ``remove``, take back) the caller's reaction on a comment or a reply."""
        if (outbox := self._offline_outbox()) is not None:
            check_length("addedReactions", emoji, min=1, max=EMOJI_MAX)
            payload = {"space": space_id, "change_request": change_request, "comment": comment_id}
            payload.update(reply=reply_id, emoji=emoji, remove=remove)
            target = target_key(space_id, change_request, comment=comment_id, reply=reply_id)
            what = f"{'taking back ' if remove else ''}your reaction {emoji}"
            return await self._queue(outbox, "reaction", payload, target, what, where)
        change = {"removed_reactions" if remove else "added_reactions": [emoji]}
        return await self._update(space_id, comment_id, reply_id, change_request, **change)

    async def set_resolved(
        self, space_id: str, comment_id: str, resolved: bool, *, change_request: Cr = None, where: str | None = None
    ) -> Comment | Queued:
        """Resolve (or reopen) a comment."""
        if (outbox := self._offline_outbox()) is not None:
            payload = {"space": space_id, "change_request": change_request, "comment": comment_id, "resolved": resolved}
            target = target_key(space_id, change_request, comment=comment_id)
            what = "resolving the thread" if resolved else "reopening the thread"
            return await self._queue(outbox, "resolve", payload, target, what, where)
        return await self._client.comments.update(
            space_id, comment_id, change_request=change_request, resolved=resolved
        )


def _same_post(post: Comment | CommentReply, me: str, markdown: str, since: float) -> bool:
    return (
        post.posted_by is not None
        and post.posted_by.id == me
        and post.text.strip() == markdown.strip()
        and (post.posted_at is None or post.posted_at.timestamp() >= since - CLOCK_SKEW)
    )
