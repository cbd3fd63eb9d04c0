"""Change requests (spec 2.6) and what review needs around them: merge and update results, the PDF link, the
semantic change list, reviews and requested reviewers (from the public OpenAPI description).

The change request ``status`` is an :data:`OpenEnum` (the spec samples it); the review status, the merge and
update results and the statuses a PATCH may set are given in full by the description, so they are ``Literal``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from folio.models._base import Count, Json, Model, Number, OpenEnum, Timestamp
from folio.models.comment import Comment
from folio.models.common import Document, Urls, User

__all__ = [
    "KNOWN_CHANGE_REQUEST_STATUSES",
    "KNOWN_CHANGE_TYPES",
    "PATCHABLE_STATUSES",
    "REVIEW_STATUSES",
    "ChangeAttribute",
    "ChangeRequest",
    "ChangeRequestChanges",
    "ChangeRequestReview",
    "ChangeRequestStatus",
    "ChangedFile",
    "ChangedPage",
    "MergeResult",
    "MovedParents",
    "PatchableStatus",
    "PdfLink",
    "RequestReviewersResult",
    "RequestedReviewer",
    "ReviewStatus",
    "ReviewerTeam",
    "SemanticChange",
    "UpdateResult",
]

ChangeRequestStatus = OpenEnum
KNOWN_CHANGE_REQUEST_STATUSES: tuple[str, ...] = ("draft", "open", "archived", "merged")

PatchableStatus = Literal["draft", "open", "archived"]
"""The statuses a PATCH may set: merging goes through the merge operation."""
PATCHABLE_STATUSES: tuple[PatchableStatus, ...] = ("draft", "open", "archived")

ReviewStatus = Literal["approved", "changes-requested"]
REVIEW_STATUSES: tuple[ReviewStatus, ...] = ("approved", "changes-requested")


class ChangeRequest(Model):
    """A change request: a working copy of a space's content, reviewed and merged into it."""

    object: str = "change-request"
    id: str
    number: Number
    status: ChangeRequestStatus = "draft"
    subject: str = ""
    description: Document | None = None
    created_by: User | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    merged_by: User | None = None
    merged_at: Timestamp | None = None
    space: str
    revision: str | None = None
    revision_initial: str | None = None
    revision_merged_ancestor: str | None = None
    revision_merged: str | None = None
    comments: Count = 0
    outdated: bool = False
    conversations_issues_cluster: str | None = None
    site_topic: dict[str, Json] | None = None
    styleguide: dict[str, Json] | None = None
    links: list[Json] = []
    imports: list[Json] = []
    urls: Urls | None = None

    @property
    def base_revision(self) -> str | None:
        """The space revision the change request's changes are counted from: the last one it was updated
        from, or the one it was created from."""
        return self.revision_merged_ancestor or self.revision_initial

    @property
    def is_active(self) -> bool:
        """Still being worked on or reviewed (draft or open)."""
        return self.status in ("draft", "open")

    @property
    def title(self) -> str:
        """What to call it in a list: ``#12 Subject`` (or ``#12 Untitled``)."""
        return f"#{self.number} {self.subject or 'Untitled'}"


class MergeResult(Model):
    """The answer of a merge: the space's resulting revision, and ``conflicts`` when it needs resolving."""

    revision: str
    result: Literal["merge", "conflicts"] = "merge"

    @property
    def conflicts(self) -> bool:
        return self.result == "conflicts"


class UpdateResult(Model):
    """The answer of an update from main content: the change request's new revision."""

    revision: str
    result: Literal["update", "conflicts"] = "update"

    @property
    def conflicts(self) -> bool:
        return self.result == "conflicts"


class PdfLink(Model):
    """A temporary (one hour) address of the change request's content as PDF."""

    url: str


# --- the semantic change list (getChangeRequestChanges) -----------------------------------------------------

KNOWN_CHANGE_TYPES: tuple[str, ...] = (
    "page_created",
    "page_edited",
    "page_deleted",
    "page_moved",
    "file_created",
    "file_edited",
    "file_deleted",
    "variables_edited",
    "reusable_content_created",
    "reusable_content_deleted",
    "reusable_content_edited",
    "tag_created",
    "tag_deleted",
    "tag_edited",
    "custom_fields_edited",
)


class ChangedPage(Model):
    """The page a change is about (as it is after the change; before it, for a deletion)."""

    id: str
    type: OpenEnum = "document"
    title: str = ""
    path: str | None = None


class ChangedFile(Model):
    id: str
    name: str = ""
    content_type: str | None = None
    download_url: str | None = Field(default=None, alias="downloadURL")


class ChangeAttribute(Model):
    """One attribute's value before and after (either may be absent: set or removed)."""

    before: Json = None
    after: Json = None


class MovedParents(Model):
    """The parent page before and after a move; absent at the top level."""

    before: ChangedPage | None = None
    after: ChangedPage | None = None


class SemanticChange(Model):
    """One logical change. A single model for every variant: ``type`` says which fields are there
    (``page`` for page changes, ``file`` for file changes, ``variables`` for variable edits...)."""

    type: OpenEnum
    page: ChangedPage | None = None
    file: ChangedFile | None = None
    attributes: dict[str, ChangeAttribute] = {}
    parent: MovedParents | None = None
    variables: dict[str, ChangeAttribute] = {}
    reusable_content: dict[str, Json] | None = None
    tag: dict[str, Json] | None = None

    @property
    def subject(self) -> str:
        """What the change is about, in a word or a path: the page's path or title, the file's name."""
        if self.page is not None:
            return self.page.path or self.page.title
        if self.file is not None:
            return self.file.name
        if self.variables:
            return ", ".join(sorted(self.variables))
        for other in (self.reusable_content, self.tag):
            if other:
                return str(other.get("title") or other.get("id") or "")
        return ""


class ChangeRequestChanges(Model):
    """The answer of the change list: the changes, how many more were left out, and for a merge revision the
    change request it came from."""

    changes: list[SemanticChange] = []
    more: Count | None = None
    merged_from: ChangeRequest | None = None


# --- reviews ------------------------------------------------------------------------------------------------


class ChangeRequestReview(Model):
    """A reviewer's verdict on a change request, against the revision it had then."""

    object: str = "change-request-review"
    id: str
    revision: str | None = None
    reviewer: User | None = None
    requested_by: User | None = None
    status: ReviewStatus
    outdated: bool = False
    comment: Comment | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    urls: Urls | None = None

    @property
    def approved(self) -> bool:
        return self.status == "approved"


class ReviewerTeam(Model):
    """A team asked to review (only ``id`` is sure to be there)."""

    object: str = "team"
    id: str
    title: str | None = None


class RequestedReviewer(Model):
    """Someone asked to review: a user (``kind`` = ``user``) or a team (``kind`` = ``team``)."""

    object: str = "change-request-requested-reviewer"
    kind: OpenEnum = "user"
    user: User | None = None
    team: ReviewerTeam | None = None
    revision: str | None = None
    requested_by: User | None = None
    created_at: Timestamp | None = None

    @property
    def reviewer_id(self) -> str | None:
        if self.user is not None:
            return self.user.id
        if self.team is not None:
            return self.team.id
        return None

    @property
    def name(self) -> str:
        if self.user is not None:
            return self.user.display_name or self.user.id
        if self.team is not None:
            return self.team.title or self.team.id
        return ""


class RequestReviewersResult(Model):
    """The answer of a review request: the requests that were sent."""

    users: list[RequestedReviewer] = []
