"""Spaces and collections (spec 2.5): the containers of documentation content, their visibility, edit mode,
merge rules and the caller's permissions; and the pointers that place them in a move."""

from __future__ import annotations

from typing import Annotated, Any, Literal

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
    "SpaceMergeRules",
    "SpacePermissions",
    "SpaceSummary",
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


class SpaceSummary(Model):
    """A space as a list row shows it: the fields the spaces tab, the collections tree and the go-to read, and
    nothing else (other fields are skipped while the JSON is read, not kept). Reading 10,000 of these costs a
    fraction of reading 10,000 :class:`Space`; a screen that opens one space reads the full space by its id."""

    model_config = ConfigDict(extra="ignore")

    object: str = "space"
    id: str
    title: str = ""
    emoji: str | None = None
    visibility: Visibility = "private"
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


class Space(SpaceSummary):
    """A space (``object`` = ``space``). ``deleted_at`` is set while a deleted space can still be restored."""

    model_config = ConfigDict(extra="allow")

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

OrgSpaceSummary = Annotated[SpaceSummary, BeforeValidator(_unwrap_space)]
""":data:`OrgSpaceItem` read as a :class:`SpaceSummary`."""


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
