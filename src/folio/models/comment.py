"""Comments and their replies (spec 2.7), posted on a space's content or inside a change request, and the
commenters of a space (organization members).

The body is the spec's ``{markdown}`` or the service's ``{document}`` variant (or the empty object): see
:class:`folio.models.common.Body`. A comment is ``open`` or ``resolved``; a resolved one carries
``resolvedAt`` and ``resolvedBy``.
"""

from __future__ import annotations

from pydantic import Field

from folio.models._base import Count, Model, OpenEnum, Timestamp
from folio.models.common import Body, Urls, User
from folio.models.member import Member

__all__ = [
    "KNOWN_COMMENT_STATUSES",
    "Comment",
    "CommentPermissions",
    "CommentReply",
    "CommentStatus",
    "CommentTarget",
    "Commenter",
    "EmojiReaction",
    "ReactionUser",
    "TableCellTarget",
    "TargetRef",
    "UserContributor",
]

CommentStatus = OpenEnum
KNOWN_COMMENT_STATUSES: tuple[str, ...] = ("open", "resolved")

Commenter = Member
"""An item of the commenters list: an organization member."""


class ReactionUser(Model):
    """One user's reaction with an emoji, and when."""

    user: User
    reacted_at: Timestamp | None = None


class EmojiReaction(Model):
    """An emoji and the users who reacted with it."""

    emoji: str
    count: Count = 0
    users: list[ReactionUser] = []

    def by(self, user_id: str) -> bool:
        """Whether that user is among those who reacted."""
        return any(r.user.id == user_id for r in self.users)


class UserContributor(Model):
    """A user who replied to a comment: how many replies, and the latest one's time."""

    user: User
    count: int = 0
    updated_at: Timestamp | None = None


class TargetRef(Model):
    """``{id}`` of the page or the block (node) a comment is attached to."""

    id: str


class TableCellTarget(Model):
    """The table cell a comment is attached to."""

    record: str
    definition: str


class CommentTarget(Model):
    """Where a comment sits: its space and revision, and optionally a page, a block, a table cell, the change
    request and the review holding it."""

    space: str | None = None
    revision: str | None = None
    page: TargetRef | None = None
    node: TargetRef | None = None
    table_cell: TableCellTarget | None = None
    change_request: str | None = None
    review: str | None = None


class CommentPermissions(Model):
    """What the caller may do with a comment or a reply."""

    view: bool = False
    edit: bool = False
    reply: bool = False
    delete: bool = False


class _Posted(Model):
    id: str
    posted_by: User | None = None
    posted_at: Timestamp | None = None
    edited_at: Timestamp | None = None
    reactions: list[EmojiReaction] = []
    body: Body = Field(default_factory=Body)
    urls: Urls | None = None
    permissions: CommentPermissions = Field(default_factory=CommentPermissions)

    @property
    def text(self) -> str:
        """The body as text (markdown, or the document flattened)."""
        return self.body.text()

    def reaction(self, emoji: str) -> EmojiReaction | None:
        return next((r for r in self.reactions if r.emoji == emoji), None)


class CommentReply(_Posted):
    """A reply to a comment (``object`` = ``comment-reply``)."""

    object: str = "comment-reply"


class Comment(_Posted):
    """A comment (``object`` = ``comment``): body, target, reactions, replies count and repliers, status."""

    object: str = "comment"
    replies: Count = 0
    repliers: list[UserContributor] = []
    target: CommentTarget = Field(default_factory=CommentTarget)
    status: CommentStatus = "open"
    resolved_at: Timestamp | None = None
    resolved_by: User | None = None

    @property
    def resolved(self) -> bool:
        return self.status == "resolved"

    @property
    def page_id(self) -> str | None:
        return self.target.page.id if self.target.page else None

    @property
    def change_request(self) -> str | None:
        return self.target.change_request
