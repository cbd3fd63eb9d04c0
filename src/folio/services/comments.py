"""Comments: what the Comments tab of a space or change request and the thread screen show, and the writes.

A list is read whole (every status, markdown bodies) with the page tree of the same content, so the panel
filters open / resolved / all without asking again, and each comment is grouped under its page and, when it
targets one, its block (node). A block's text is found in the page's rich-text document: the block whose
``key`` is the node id; when no block carries that key (the sandbox's node ids are opaque), the node id is
shown instead.

Replies: the spec lists them only under the change request prefix; the space prefix is asked the same way
(the client offers it for both) and, when the service answers 404 for a comment that exists, the thread says
the replies cannot be listed instead of failing.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from folio.api.errors import ApiError, InvalidRequest, NotFound, Offline
from folio.api.limits import check_length
from folio.api.resources.comments import EMOJI_MAX
from folio.models.common import Page, document_text
from folio.services import format
from folio.services.outbox import OutboxService, Queued, outbox_of, target_key

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
    "PageChoice",
    "PageGroup",
    "Queued",
    "Thread",
    "age",
    "find_block",
    "first_line",
    "group_comments",
    "is_mine",
    "may",
    "my_reactions",
    "plain_markdown",
    "reactions_summary",
]

Status = Literal["open", "resolved", "all"]
Cr = str | int | None
"""A change request's id or number; None addresses the space's own comments."""
STATUSES: tuple[Status, ...] = ("open", "resolved", "all")
COMMON_REACTIONS: tuple[str, ...] = ("👍", "❤️", "🎉", "👀", "✅", "😄")
MAX_BLOCK_PAGES = 20
"""At most this many pages are read to find the text of commented blocks (one request each)."""

# --- what the screens show -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PageChoice:
    """A page one can comment on: id, title, depth in the tree (for indenting a picker)."""

    id: str
    title: str
    depth: int = 0


@dataclass
class BlockGroup:
    """The comments on one block of a page (``node_id`` None: on the page itself), newest first."""

    node_id: str | None
    text: str | None
    comments: list[Comment] = field(default_factory=list)

    @property
    def label(self) -> str:
        if self.node_id is None:
            return "On the page"
        if self.text:
            return f"¶ “{first_line(self.text, 60)}”"
        return f"Block {self.node_id}"


@dataclass
class PageGroup:
    """The comments on one page (``page_id`` None: on the whole space or change request)."""

    page_id: str | None
    title: str
    blocks: list[BlockGroup] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(len(b.comments) for b in self.blocks)


@dataclass
class CommentList:
    """Every comment of a space or a change request, the pages of its content, and who is asking."""

    comments: list[Comment]
    pages: list[PageChoice]
    me: User | None = None
    block_texts: dict[str, str] = field(default_factory=dict)
    change_request: Cr = None

    def count(self, status: Status) -> int:
        return sum(1 for c in self.comments if status == "all" or c.status == status)

    def groups(self, status: Status = "all") -> list[PageGroup]:
        return group_comments(
            self.comments, self.pages, self.block_texts, status=status, change_request=self.change_request
        )

    def page_title(self, page_id: str | None) -> str:
        return page_title(self.pages, page_id, self.change_request)


@dataclass
class Thread:
    """A comment, its replies oldest first, where it sits, and who is asking."""

    comment: Comment
    replies: list[CommentReply]
    where: str
    me: User | None
    replies_listed: bool = True
    """False when the service does not list replies under this prefix (the count is all there is)."""


# --- pure helpers ----------------------------------------------------------------------------------------------


def first_line(text: str, limit: int = 120) -> str:
    """The first non-empty line of ``text``, cut to ``limit`` characters."""
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MARKS = re.compile(r"(\*\*|__|~~|`|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w))")
_LEAD = re.compile(r"^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)")


def plain_markdown(text: str) -> str:
    """Markdown read as text for a one-line summary: links to their text, emphasis and heading marks gone."""
    lines = (_LEAD.sub("", line) for line in text.splitlines())
    return _MARKS.sub("", _LINK.sub(r"\1", "\n".join(lines)))


def age(at: datetime | None, now: datetime) -> str:
    """How long ago, as lists say it (``5 min ago``): :func:`folio.services.format.ago`."""
    return format.ago(at, now)


def stamp(at: datetime | None) -> str:
    """A time as ``2026-10-31 21:00 UTC``: :func:`folio.services.format.stamp`."""
    return format.stamp(at)


def reactions_summary(reactions: Iterable[Any]) -> str:
    """``👍2 👀3``: each emoji with its count (the users' number when the count is missing)."""
    return " ".join(f"{r.emoji}{r.count or len(r.users)}" for r in reactions if (r.count or r.users))


def is_mine(item: Comment | CommentReply, me: User | None) -> bool:
    return me is not None and item.posted_by is not None and item.posted_by.id == me.id


def my_reactions(item: Comment | CommentReply, me: User | None) -> list[str]:
    """The emoji ``me`` reacted with on ``item``."""
    return [r.emoji for r in item.reactions if me is not None and r.by(me.id)]


def may(item: Comment | CommentReply, flag: Literal["view", "edit", "reply", "delete"]) -> bool:
    """What the service's ``permissions`` allow; True when it sent none (the service then decides)."""
    if "permissions" not in item.model_fields_set:
        return True
    return bool(getattr(item.permissions, flag))


def find_block(document: Any, node_id: str) -> str | None:
    """The text of the block whose ``key`` is ``node_id`` in a rich-text document, or None."""
    if isinstance(document, dict):
        if document.get("key") == node_id:
            return document_text(document).strip() or None
        for child in document.get("nodes") or ():
            found = find_block(child, node_id)
            if found is not None:
                return found
    elif isinstance(document, list):
        for child in document:
            found = find_block(child, node_id)
            if found is not None:
                return found
    return None


def page_choices(pages: Sequence[Page]) -> list[PageChoice]:
    """The commentable (document) pages of a tree, depth first, with their depth in the tree."""
    out: list[PageChoice] = []

    def visit(items: Sequence[Page], depth: int) -> None:
        for page in items:
            if page.type == "document":
                out.append(PageChoice(page.id, page.title or "Untitled", depth))
            visit(page.pages, depth + 1)

    visit(pages, 0)
    return out


def page_title(pages: Sequence[PageChoice], page_id: str | None, change_request: Cr = None) -> str:
    if page_id is None:
        return "The whole change request" if change_request is not None else "The whole space"
    found = next((p for p in pages if p.id == page_id), None)
    return found.title if found else f"Page {page_id} (not in the current content)"


def group_comments(
    comments: Iterable[Comment],
    pages: Sequence[PageChoice],
    block_texts: dict[str, str] | None = None,
    *,
    status: Status = "all",
    change_request: Cr = None,
) -> list[PageGroup]:
    """Comments grouped by page (the whole space first, then the content's order, then pages no longer in it)
    and, within a page, by block (the page itself first, then blocks by their newest comment)."""
    texts = block_texts or {}
    by_page: dict[str | None, dict[str | None, BlockGroup]] = {}
    for comment in comments:
        if status != "all" and comment.status != status:
            continue
        node = comment.target.node.id if comment.target.node else None
        page = comment.page_id
        blocks = by_page.setdefault(page, {})
        if node not in blocks:
            blocks[node] = BlockGroup(node, texts.get(node) if node else None)
        blocks[node].comments.append(comment)
    order = {p.id: n for n, p in enumerate(pages)}
    keys = sorted(by_page, key=lambda k: (-1, 0) if k is None else (0, order[k]) if k in order else (1, 0))
    groups = []
    for key in keys:
        blocks = by_page[key]
        for block in blocks.values():
            block.comments.sort(key=_posted, reverse=True)
        ordered = sorted(blocks.values(), key=lambda b: (b.node_id is not None, -_posted(b.comments[0])))
        groups.append(PageGroup(key, page_title(pages, key, change_request), ordered))
    return groups


def _posted(comment: Comment) -> float:
    return comment.posted_at.timestamp() if comment.posted_at else 0.0


# --- the service -------------------------------------------------------------------------------------------------


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
        comments, pages = await asyncio.gather(comments_call, pages_call)
        return CommentList(comments, page_choices(pages.pages), await self.me(), change_request=change_request)

    async def block_texts(
        self, space_id: str, comments: Iterable[Comment], *, change_request: Cr = None
    ) -> dict[str, str]:
        """The text of each commented block that can be found in its page's document (node id -> text). Pages
        that cannot be read are skipped: the node id is shown for their blocks."""
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
        node = comment.target.node.id
        text = find_block(page.document if page else None, node)
        return f"On {f'“{first_line(text, 60)}”' if text else f'block {node}'} of {title}"

    # -- writes ------------------------------------------------------------------------------------------------
    #
    # Offline, with the account's local state, comments, replies, reactions and resolves go into the outbox
    # (``folio.services.outbox``) and the call returns a :class:`Queued` instead of what the service would have
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
        Offline: queued (``where`` says where in words, for the outbox)."""
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
        if (outbox := self._offline_outbox()) is not None:
            self._check_markdown(markdown)
            payload = {"space": space_id, "change_request": change_request, "comment": comment_id, "markdown": markdown}
            target = target_key(space_id, change_request, comment=comment_id)
            return await self._queue(outbox, "reply", payload, target, "a reply", where)
        return await self._client.comments.reply(space_id, comment_id, markdown, change_request=change_request)

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
