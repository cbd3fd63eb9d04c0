"""Links between content and the records of link lookups (spec 2.1, 4.7-4.9): a space's or a page's links with
their stats, the backlinks of a file, and the body of the template request. Revisions, pages and files are in
:mod:`folio.models.common`."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from folio.models._base import Json, Model, OpenEnum
from folio.models.common import ContentRef, ContentRefFile, File, ListEnvelope, Page
from folio.models.space import Space

__all__ = [
    "LINK_STATUSES",
    "BacklinkRecord",
    "BrokenLinkStats",
    "ContentLink",
    "LinkStats",
    "LinkStatus",
    "LinksList",
    "PageLinksList",
    "TemplateParams",
    "TemplateRequest",
    "VersionContext",
]

LinkStatus = Literal["ok", "broken", "in-app"]
LINK_STATUSES: tuple[LinkStatus, ...] = ("ok", "broken", "in-app")


class BrokenLinkStats(Model):
    """Broken links: all of them, and those in change requests."""

    total: int = 0
    change_request: int = 0


class LinkStats(Model):
    """``{total, broken: {total, changeRequest}}``: all links, and the broken ones (also those in change
    requests)."""

    total: int = 0
    broken: BrokenLinkStats = Field(default_factory=BrokenLinkStats)


class ContentLink(Model):
    """One link target and where it is used: ``status`` says whether the target exists (``broken`` when it is
    missing from the revision, ``in-app`` for a url into the app)."""

    status: OpenEnum = "ok"  # known: LINK_STATUSES
    relation: OpenEnum | None = None  # known: reference
    target_reference: ContentRef | None = None
    location_references: list[ContentRef] = []

    @property
    def broken(self) -> bool:
        return self.status == "broken"


class LinksList(ListEnvelope[ContentLink]):
    """One page of a links list, with the stats of the whole list."""

    stats: LinkStats | None = None


class PageLinksList(LinksList):
    """One page of a page's links (the items carry no ``locationReferences``: the location is the page)."""


class VersionContext(Model):
    """Which version of the content a reference was found in: ``{type: revision, revision}`` (the revision as
    an id or as a Revision object) or ``{type: changeRequest, changeRequest}``."""

    type: OpenEnum = "revision"
    revision: Json | None = None
    change_request: Json | None = None

    @property
    def revision_id(self) -> str | None:
        if isinstance(self.revision, str):
            return self.revision
        if isinstance(self.revision, dict) and isinstance(self.revision.get("id"), str):
            return str(self.revision["id"])
        return None


class BacklinkRecord(Model):
    """A place that references a file: its organization, space, version and the file; ``page`` is the page
    that holds the reference when the service says."""

    kind: OpenEnum = "file"
    organization: Json | None = None
    space: Space | None = None
    version_context: VersionContext | None = None
    file: File | None = None
    page: Page | None = None


class TemplateParams(Model):
    """A template's parameters: files the template uses, by key."""

    content_refs: dict[str, ContentRefFile] = {}


class TemplateRequest(Model):
    """The body of ``POST /spaces/{id}/content/template``."""

    id: str
    params: TemplateParams | None = None
    change_request_id: str | None = None
