"""What a list of comments is, apart from reading it: the page and block groups the Comments tab shows, the
thread screen's shape, and the small pure helpers (first line, plain markdown, who may do what). No I/O here:
``folio.services.review.comments`` reads and writes."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from folio.models.common import Page, document_text
from folio.services import format

if TYPE_CHECKING:
    from folio.models.comment import Comment, CommentReply
    from folio.models.common import User

__all__ = [
    "COMMON_REACTIONS",
    "STATUSES",
    "BlockGroup",
    "CommentList",
    "Cr",
    "PageChoice",
    "PageGroup",
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
        return "¶ A block of this page"  # never the node's id: it means nothing to a reader


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
    changed: dict[str, str] = field(default_factory=dict)
    """In a change request: the pages it changes (page id -> ``edited``, ``created, moved``...)."""

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
