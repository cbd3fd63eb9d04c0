"""Spaces and collections (spec 2.5): the containers of documentation content, their visibility, edit mode,
merge rules and the caller's permissions; and the pointers that place them in a move.

One model here is not pydantic: :class:`SpaceSummary`, the row of a spaces list, is a ``msgspec.Struct``
(issue 15). An organization's list is read 1,000 spaces a page, up to tens of thousands, and a Struct that declares
only what a row shows is decoded from the page's bytes about 5x faster than the pydantic row was (3 ms a page of
1,000 against 16; ``json.loads`` alone takes 15) and is held in about a third of the memory (0.75 KB a row against
2.1: ``python -m tests.bench.bench_paging``). A page msgspec refuses (a shape or a value only pydantic's lax
reading accepts) is read as :class:`SpaceBase`, pydantic, and converted: the list reads what it read before.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec
from pydantic import BeforeValidator, ConfigDict

from folio.models._base import Count, Model, OpenEnum, Timestamp
from folio.models.common import Urls
from folio.models.organization import MergeRule, MergeRules

__all__ = [
    "EDIT_MODES",
    "KNOWN_LANGUAGES",
    "VISIBILITIES",
    "Collection",
    "CollectionPermissions",
    "ContentPointer",
    "EditMode",
    "GitSync",
    "MergeRule",
    "OrgSpaceItem",
    "OrgSpaceSummary",
    "PointerLike",
    "Space",
    "SpaceBase",
    "SpaceLike",
    "SpaceMergeRules",
    "SpacePermissions",
    "SpaceSummary",
    "SpaceUrls",
    "Visibility",
    "VisitorAuth",
    "content_position",
]

Visibility = Literal["public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"]
VISIBILITIES: tuple[Visibility, ...] = (
    "public",
    "unlisted",
    "share-link",
    "visitor-auth",
    "in-collection",
    "private",
)
EditMode = Literal["live", "locked"]
EDIT_MODES: tuple[EditMode, ...] = ("live", "locked")
KNOWN_LANGUAGES = (
    "en",
    "fr",
    "de",
    "es",
    "it",
    "pt",
    "pt-br",
    "ru",
    "ja",
    "zh",
    "zh-tw",
    "yue",
    "ko",
    "ar",
    "hi",
    "nl",
    "pl",
    "tr",
    "sv",
    "no",
    "da",
    "fi",
    "el",
    "cs",
    "hu",
    "ro",
    "th",
    "vi",
    "id",
    "ms",
    "he",
    "uk",
    "sk",
    "bg",
    "hr",
    "lt",
    "lv",
    "et",
    "sl",
)

SpaceMergeRules = MergeRules
"""A space's merge rules: ``{type: inherit}`` (the organization's), ``{type: none}`` or
``{type: rules, rules: [...]}``."""


class SpacePermissions(Model):
    """What the caller may do with a space."""

    view: bool = False
    access: bool = False
    admin: bool = False
    view_invite_links: bool = False
    edit: bool = False
    trigger_git_sync: bool = False
    comment: bool = False
    merge: bool = False
    review: bool = False
    install_integration: bool = False


class GitSync(Model):
    """The Git repository a space is synced with."""

    repo_name: str | None = None
    installation_provider: OpenEnum | None = None
    installation_status: OpenEnum | None = None
    installation_id: str | None = None
    integration: str | None = None
    url: str | None = None
    updated_at: Timestamp | None = None


class VisitorAuth(Model):
    """How visitors of a ``visitor-auth`` space are authenticated."""

    backend: OpenEnum | None = None  # known: custom, integration
    integration: str | None = None


class SpaceBase(Model):
    """The fields of a space that a list row shows, as a pydantic model: the base of :class:`Space`, and how a
    page of a spaces list that :class:`SpaceSummary`'s decoder refused is read (pydantic's lax reading: numbers
    and plain dates as times, fractions of counts rounded; other fields skipped), then made into summaries."""

    model_config = ConfigDict(extra="ignore")

    object: str = "space"
    id: str
    title: str = ""
    emoji: str | None = None
    visibility: OpenEnum = "private"  # known: VISIBILITIES; a list reads one the service adds (Space: strict)
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    deleted_at: Timestamp | None = None
    urls: Urls | None = None
    organization: str | None = None
    parent: str | None = None
    change_requests_open: Count = 0

    @property
    def deleted(self) -> bool:
        return self.deleted_at is not None


class SpaceUrls(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """The ``urls`` of a space that a row reads (``o``, ``y``, ``Y``); the other keys are skipped."""

    app: str | None = None
    published: str | None = None


class SpaceSummary(msgspec.Struct, frozen=True, gc=False, kw_only=True, rename="camel"):
    """A space as a list row shows it: the fields the spaces tab, the collections tree and the go-to read, and
    nothing else (other fields are skipped while the JSON is read, not kept). A ``msgspec.Struct`` (see the
    module's docstring): camelCase on the wire, unknown fields ignored, immutable (``msgspec.structs.replace``
    makes a changed copy), and untracked by the garbage collector (it holds only strings, times and
    :class:`SpaceUrls`, so no cycle). A screen that opens one space reads the full :class:`Space` by its id."""

    object: str = "space"
    id: str
    title: str = ""
    emoji: str | None = None
    visibility: OpenEnum = "private"  # known: VISIBILITIES
    created_at: datetime | None = None
    updated_at: datetime | None = None
    deleted_at: datetime | None = None
    urls: SpaceUrls | None = None
    organization: str | None = None
    parent: str | None = None
    change_requests_open: int = 0

    @property
    def deleted(self) -> bool:
        return self.deleted_at is not None

    @classmethod
    def of(cls, space: SpaceBase) -> SpaceSummary:
        """The summary of a space read in full (or of a list row read by pydantic)."""
        return msgspec.convert(space, cls, from_attributes=True)


SpaceLike = SpaceSummary | SpaceBase
"""A space as a list row (:class:`SpaceSummary`) or read in full (:class:`Space`): either has ``id``, ``title``,
``organization``, ``deleted_at``... for what needs only those."""


class Space(SpaceBase):
    """A space (``object`` = ``space``). ``deleted_at`` is set while a deleted space can still be restored."""

    model_config = ConfigDict(extra="allow")

    visibility: Visibility = "private"  # the description gives every value: a space read in full is strict
    edit_mode: EditMode = "live"
    merge_rules: SpaceMergeRules | None = None
    language: OpenEnum | None = None
    git_sync: GitSync | None = None
    visitor_auth: VisitorAuth | None = None
    revision: str | None = None
    default_level: str | None = None
    comments: Count = 0
    change_requests: Count = 0
    change_requests_draft: Count = 0
    permissions: SpacePermissions | None = None

    @property
    def locked(self) -> bool:
        return self.edit_mode == "locked"


class CollectionPermissions(Model):
    """What the caller may do with a collection."""

    view: bool = False
    admin: bool = False
    view_invite_links: bool = False
    create: bool = False


class Collection(Model):
    """A collection (``object`` = ``collection``): a folder of spaces and collections."""

    object: str = "collection"
    id: str
    title: str = ""
    description: str | None = None
    organization: str | None = None
    parent: str | None = None
    default_level: str | None = None
    urls: Urls | None = None
    permissions: CollectionPermissions | None = None


def _unwrap_space(value: Any) -> Any:
    """An organization's space list item: a Space, or a wrapper holding one as ``space``."""
    if isinstance(value, dict) and "id" not in value and isinstance(value.get("space"), dict):
        return value["space"]
    return value


OrgSpaceItem = Annotated[Space, BeforeValidator(_unwrap_space)]
"""An item of ``GET /orgs/{id}/spaces``: the description gives Space; a ``{space: Space, ...}`` wrapper also
parses."""

OrgSpaceSummary = Annotated[SpaceBase, BeforeValidator(_unwrap_space)]
""":data:`OrgSpaceItem` read as a :class:`SpaceBase`: the lenient reading of a page of :class:`SpaceSummary`
(the list converts what it reads)."""


class ContentPointer(Model):
    """One side of a space or collection position: ``{type: space, space: id}`` or
    ``{type: collection, collection: id}``."""

    type: Literal["space", "collection"] = "space"
    space: str | None = None
    collection: str | None = None

    @classmethod
    def to_space(cls, space_id: str) -> ContentPointer:
        return cls(type="space", space=space_id)

    @classmethod
    def to_collection(cls, collection_id: str) -> ContentPointer:
        return cls(type="collection", collection=collection_id)

    @property
    def ref_id(self) -> str:
        return (self.space if self.type == "space" else self.collection) or ""


PointerLike = str | ContentPointer
"""A space id (a pointer to a space) or an explicit :class:`ContentPointer`."""


def content_position(before: PointerLike | None = None, after: PointerLike | None = None) -> dict[str, Any]:
    """The wire ``position`` of a space or collection move: a bare id points at a space."""
    out: dict[str, Any] = {}
    for side, value in (("before", before), ("after", after)):
        if value is None:
            continue
        pointer = ContentPointer.to_space(value) if isinstance(value, str) else value
        out[side] = pointer.model_dump(mode="json", exclude_none=True)
    return out
