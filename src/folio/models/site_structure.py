"""A site's structure (spec section 2.8 and the public description's ``getSiteStructure``): sections, section
groups (nesting, ``children`` in order), site spaces (the variants of a section, or the site's root content),
external links; the structure's two variants; the pointer and position the structure sort takes; the published
profile. The visitor (adaptive content) schema's names, defined in :mod:`folio.models.site`, are re-exported.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Tag

from folio.models._base import Json, Model
from folio.models.common import Urls
from folio.models.site import (
    UNSIGNED_DESCRIPTION,
    Site,
    SiteAdaptiveSchema,
    TemplateCondition,
    TemplateConditions,
    adaptive_schema_problems,
    with_claim_descriptions,
)
from folio.models.space import Space

__all__ = [
    "STRUCTURE_ITEM_TYPES",
    "UNSIGNED_DESCRIPTION",
    "PublishedSite",
    "SiteAdaptiveSchema",
    "SiteExternalLink",
    "SiteSection",
    "SiteSectionGroup",
    "SiteSectionsStructure",
    "SiteSpace",
    "SiteSpacesStructure",
    "SiteStructure",
    "SiteStructureItem",
    "SiteStructureItemMovePosition",
    "SiteStructureItemPointer",
    "StructureItemType",
    "TemplateCondition",
    "TemplateConditions",
    "UnknownStructureItem",
    "adaptive_schema_problems",
    "with_claim_descriptions",
]

StructureItemType = Literal["site-space", "site-section", "site-section-group", "site-external-link"]
STRUCTURE_ITEM_TYPES: tuple[StructureItemType, ...] = (
    "site-space",
    "site-section",
    "site-section-group",
    "site-external-link",
)


class SiteSpace(Model):
    """A space published on a site: a variant of a section, or at the root of a site without sections."""

    object: str = "site-space"
    id: str
    path: str = ""
    section: str | None = None
    space: Space | None = None
    title: str = ""
    default: bool = False
    condition: str | None = None
    page_id: str | None = None
    draft: bool = False
    has_advanced_customization_feature: bool | None = None
    urls: Urls | None = None
    hidden: bool = False


class SiteSection(Model):
    """A section of a site (``object`` = ``site-section``) with its site spaces in order."""

    object: str = "site-section"
    id: str
    title: str = ""
    description: str | None = None
    default: bool = False
    draft: bool = False
    path: str = ""
    condition: str | None = None
    section_group: str | None = None
    icon: str | None = None
    site_spaces: list[SiteSpace] = []
    urls: Urls | None = None


class SiteExternalLink(Model):
    """A link to an outside URL placed in the structure beside sections."""

    object: str = "site-external-link"
    id: str
    title: str = ""
    description: str | None = None
    icon: str | None = None
    url: str = ""
    section_group: str | None = None
    draft: bool = False
    condition: str | None = None


class UnknownStructureItem(Model):
    """A structure item of a kind this version of Folio does not know: kept, shown by title."""

    object: str = ""
    id: str
    title: str = ""


def _item_kind(value: Any) -> str:
    kind = value.get("object") if isinstance(value, dict) else getattr(value, "object", None)
    return kind if kind in ("site-section", "site-section-group", "site-external-link", "site-space") else "other"


_Child = Annotated[
    Annotated[SiteSection, Tag("site-section")]
    | Annotated["SiteSectionGroup", Tag("site-section-group")]
    | Annotated[SiteExternalLink, Tag("site-external-link")]
    | Annotated[SiteSpace, Tag("site-space")]
    | Annotated[UnknownStructureItem, Tag("other")],
    Discriminator(_item_kind),
]


class SiteSectionGroup(Model):
    """A group of sections (``object`` = ``site-section-group``); groups nest, ``children`` are in order."""

    object: str = "site-section-group"
    id: str
    title: str = ""
    section_group: str | None = None
    icon: str | None = None
    draft: bool = False
    children: list[_Child] = []
    sections: list[SiteSection | str] = []

    def walk(self) -> Iterator[Any]:
        """Every item under this group, depth first (not the group itself)."""
        for child in self.children:
            yield child
            if isinstance(child, SiteSectionGroup):
                yield from child.walk()


# The same union as ``_Child``, with the group class itself (not its name): usable from any module.
SiteStructureItem = Annotated[
    Annotated[SiteSection, Tag("site-section")]
    | Annotated[SiteSectionGroup, Tag("site-section-group")]
    | Annotated[SiteExternalLink, Tag("site-external-link")]
    | Annotated[SiteSpace, Tag("site-space")]
    | Annotated[UnknownStructureItem, Tag("other")],
    Discriminator(_item_kind),
]
"""One item of a structure (and the structure sort's answer): section, group, external link or site space."""


def _walk(items: list[Any]) -> Iterator[Any]:
    for item in items:
        yield item
        if isinstance(item, SiteSectionGroup):
            yield from item.walk()


class SiteSectionsStructure(Model):
    """The structure of a site with sections: sections, groups and links at the root, groups nesting."""

    type: Literal["sections"] = "sections"
    structure: list[SiteStructureItem] = []

    def walk(self) -> Iterator[Any]:
        """Every item, depth first, in the site's order."""
        return _walk(self.structure)

    def sections(self) -> list[SiteSection]:
        return [item for item in self.walk() if isinstance(item, SiteSection)]

    def site_spaces(self) -> list[SiteSpace]:
        return [ss for section in self.sections() for ss in section.site_spaces]

    def find(self, item_id: str) -> Any | None:
        for item in self.walk():
            if item.id == item_id:
                return item
        for ss in self.site_spaces():
            if ss.id == item_id:
                return ss
        return None


class SiteSpacesStructure(Model):
    """The structure of a site without sections: its site spaces, in order."""

    type: Literal["siteSpaces"] = "siteSpaces"
    structure: list[SiteSpace] = []

    def walk(self) -> Iterator[Any]:
        return iter(self.structure)

    def sections(self) -> list[SiteSection]:
        return []

    def site_spaces(self) -> list[SiteSpace]:
        return list(self.structure)

    def find(self, item_id: str) -> Any | None:
        return next((ss for ss in self.structure if ss.id == item_id), None)


def _structure_kind(value: Any) -> str:
    kind = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    return "siteSpaces" if kind == "siteSpaces" else "sections"


SiteStructure = Annotated[
    Annotated[SiteSectionsStructure, Tag("sections")] | Annotated[SiteSpacesStructure, Tag("siteSpaces")],
    Discriminator(_structure_kind),
]
"""A site's structure: ``{type: sections, structure: [...]}`` or ``{type: siteSpaces, structure: [...]}``."""


class SiteStructureItemPointer(Model):
    """Which item a structure sort moves, or which sibling it is placed against: ``{type, id}``."""

    type: StructureItemType
    id: str


class SiteStructureItemMovePosition(Model):
    """Where a structure sort puts an item: before and/or after a sibling of the same level."""

    before: SiteStructureItemPointer | None = None
    after: SiteStructureItemPointer | None = None


class PublishedSite(Model):
    """The published profile of a site (``object`` = ``published-content-site``)."""

    object: str = "published-content-site"
    site: Site
    structure: SiteStructure
    customizations: dict[str, Json] | None = None
    scripts: list[Json] = []
