"""Change requests (spec 2.6) and what review needs around them: merge and update results, the PDF link, the
semantic change list, reviews and requested reviewers (from the public OpenAPI description).

The change request ``status`` is an :data:`OpenEnum` (the spec samples it); the review status, the merge and
update results and the statuses a PATCH may set are given in full by the description, so they are ``Literal``.

One model here is not pydantic: :class:`ChangeRequestSummary`, the row of an organization's change request inbox,
is a ``msgspec.Struct`` (issue 15), as a spaces list's row is (``folio.models.space.SpaceSummary``). An
organization's inbox is read 1,000 change requests a page, thousands of them, and a Struct that declares only what
a row shows is decoded from the page's bytes about 7x faster than the pydantic :class:`ChangeRequest` the inbox
read before (2.3 ms a page of 1,000 against 17.5; ``json.loads`` alone takes 6) and is held in a fifth of the memory
(0.94 KB a row against 4.5: ``python -m tests.bench.decode_pages``). A page msgspec refuses (a shape or a value
only pydantic's lax reading accepts) is read by pydantic as :class:`ChangeRequestRowModel` (the same fields, as
:class:`ChangeRequest` types them) and converted: the inbox reads what it read before.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

import msgspec
from pydantic import ConfigDict, Field

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
    "ChangeRequestLike",
    "ChangeRequestReview",
    "ChangeRequestRowModel",
    "ChangeRequestStatus",
    "ChangeRequestSummary",
    "ChangeRequestUrls",
    "ChangeRequestUser",
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


class ChangeRequestUser(msgspec.Struct, frozen=True, gc=False, kw_only=True, rename="camel"):
    """The ``createdBy`` of a change request as a row reads it (the author column): a :class:`User`'s ``id`` and
    ``displayName``; its other keys are skipped."""

    id: str
    display_name: str = ""


class ChangeRequestUrls(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """The ``urls`` of a change request that a row reads (``o``, ``y``, ``Y``: ``app``, else ``location``; the
    organization screen's item also asks for ``published``); the other keys are skipped."""

    app: str | None = None
    location: str | None = None
    published: str | None = None


class ChangeRequestSummary(msgspec.Struct, frozen=True, gc=False, kw_only=True, rename="camel"):
    """A change request as the inbox shows it: the fields its rows, its filters and the go-to read, named, typed
    and defaulted as :class:`ChangeRequest`'s, and nothing else (other fields are skipped while the JSON is read,
    not kept). A ``msgspec.Struct`` (see the module's docstring): camelCase on the wire, unknown fields ignored,
    immutable (``msgspec.structs.replace`` makes a changed copy), and untracked by the garbage collector (it holds
    only strings, numbers, a time and two small Structs, so no cycle). A screen that opens one change request reads
    the full :class:`ChangeRequest` by its id."""

    object: str = "change-request"
    id: str
    number: int | float  # Number: a whole value as int (__post_init__)
    status: ChangeRequestStatus = "draft"
    subject: str = ""
    created_by: ChangeRequestUser | None = None
    updated_at: datetime | None = None
    space: str
    comments: int = 0  # Count: a fraction is read by the lenient reading, rounded
    outdated: bool = False
    urls: ChangeRequestUrls | None = None

    def __post_init__(self) -> None:
        # Number's reading: 3.0 is 3 (``#3``, not ``#3.0``); msgspec reads a JSON float as a float.
        number = self.number
        if type(number) is float and number.is_integer():
            msgspec.structs.force_setattr(self, "number", int(number))

    @property
    def is_active(self) -> bool:
        """Still being worked on or reviewed (draft or open)."""
        return self.status in ("draft", "open")

    @property
    def title(self) -> str:
        """What to call it in a list: ``#12 Subject`` (or ``#12 Untitled``)."""
        return f"#{self.number} {self.subject or 'Untitled'}"

    @classmethod
    def of(cls, cr: ChangeRequest | ChangeRequestRowModel) -> ChangeRequestSummary:
        """The summary of a change request read in full (or of a list row read by pydantic)."""
        return msgspec.convert(cr, cls, from_attributes=True)


class ChangeRequestRowModel(Model):
    """:class:`ChangeRequestSummary`'s fields as a pydantic model, typed and defaulted as :class:`ChangeRequest`
    types them: how a page of the inbox that the Struct's decoder refused is read (pydantic's lax reading: numbers
    and plain dates as times, fractions of counts rounded; other fields skipped), then made into summaries."""

    model_config = ConfigDict(extra="ignore")

    object: str = "change-request"
    id: str
    number: Number
    status: ChangeRequestStatus = "draft"
    subject: str = ""
    created_by: User | None = None
    updated_at: Timestamp | None = None
    space: str
    comments: Count = 0
    outdated: bool = False
    urls: Urls | None = None


ChangeRequestLike = ChangeRequestSummary | ChangeRequest
"""A change request as an inbox row (:class:`ChangeRequestSummary`) or read in full (:class:`ChangeRequest`):
either has ``id``, ``space``, ``title``, ``status``, ``created_by``, ``urls``... for what needs only those."""


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
