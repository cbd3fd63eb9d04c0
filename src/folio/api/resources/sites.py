"""Published docs sites (spec section 4.2), their section groups (4.4) and their whole structure (the public
description's getSiteStructure and sortSiteStructure).

    site = await client.sites.create(org_id, title="Docs", spaces=[space_id])
    structure = await client.sites.structure(org_id, site.id)
    await client.sites.sort_structure(org_id, site.id, ("site-section", a), before=("site-section", b))
    schema = await client.sites.update_adaptive_schema(org_id, site.id, {"type": "object", ...})
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from typing import Any

from folio.api import limits
from folio.api.errors import ApiError, InvalidRequest, NotFound, NotOffered
from folio.api.pagination import Paginator
from folio.api.resources._base import UNSET, Resource, body, path
from folio.api.resources.site_sections import check_icon, check_id
from folio.api.transport import parse
from folio.models.site import AGENTS_CONTEXTS, SITE_VISIBILITIES, AgentsContext, Site, SiteVisibility
from folio.models.site_structure import (
    STRUCTURE_ITEM_TYPES,
    PublishedSite,
    SiteAdaptiveSchema,
    SiteSectionGroup,
    SiteStructure,
    SiteStructureItem,
    SiteStructureItemPointer,
    TemplateCondition,
    TemplateConditions,
    adaptive_schema_problems,
    with_claim_descriptions,
)

__all__ = [
    "PointerLike",
    "SitesResource",
    "check_adaptive_schema",
    "check_group_title",
    "check_site_title",
    "pointer",
]

PointerLike = SiteStructureItemPointer | tuple[str, str]
"""A structure item: a pointer, or ``(type, id)`` with type site-space, site-section, site-section-group or
site-external-link."""

SORT_STRUCTURE = "sites.sort_structure"
"""The name the client remembers the structure sort under once a service is found not to offer it."""
_SCHEMA_LIMIT = "a draft-07 object schema of boolean claims, with an `unsigned` object of boolean claims"


def check_site_title(value: str | None, field: str = "title") -> None:
    limits.check_length(field, value, min=2, max=128)


def check_group_title(value: str | None, field: str = "title") -> None:
    if value is None:
        raise InvalidRequest(field, "is required", "1..100 characters")
    limits.check_length(field, value, min=1, max=100)


def check_adaptive_schema(json_schema: Any) -> None:
    """The spec's shape of a visitor schema, checked before sending (the first problem is raised)."""
    problems = adaptive_schema_problems(json_schema)
    if problems:
        where, problem = problems[0]
        raise InvalidRequest(where, problem, _SCHEMA_LIMIT)


def pointer(value: PointerLike, field: str) -> dict[str, str]:
    """The wire form ``{type, id}`` of a structure item, checked."""
    kind, item_id = (value.type, value.id) if isinstance(value, SiteStructureItemPointer) else value
    if kind not in STRUCTURE_ITEM_TYPES:
        raise InvalidRequest(
            f"{field}.type",
            f"{kind!r} is not a structure item type",
            "one of " + ", ".join(STRUCTURE_ITEM_TYPES),
        )
    check_id(f"{field}.id", item_id)
    return {"type": kind, "id": item_id}


def _same_level(item: dict[str, str], other: dict[str, str], field: str) -> None:
    if (item["type"] == "site-space") != (other["type"] == "site-space"):
        raise InvalidRequest(field, "is at another level of the structure than the item", "a sibling of the item")
    if item == other:
        raise InvalidRequest(field, "is the item itself", "a sibling of the item")


class SitesResource(Resource):
    """``client.sites``."""

    # -- sites -----------------------------------------------------------------------------------------------

    def list(
        self,
        organization_id: str,
        *,
        space: str | None = None,
        title: str | None = None,
        published: bool | None = None,
        limit: int | None = None,
    ) -> Paginator[Site]:
        """The organization's sites; ``space`` keeps those publishing it, ``title`` filters by title."""
        params = {"space": space, "title": title, "published": published}
        return self._list(Site, path("/orgs/{}/sites", organization_id), params, limit=limit)

    async def create(
        self,
        organization_id: str,
        *,
        type: str | None = None,
        title: str | None = None,
        visibility: SiteVisibility | None = None,
        spaces: Sequence[str] | None = None,
    ) -> Site:
        """Create an unpublished site (title 2..128), optionally publishing ``spaces`` at its root."""
        check_site_title(title)
        limits.check_one_of("visibility", visibility, SITE_VISIBILITIES)
        if spaces is not None:
            if isinstance(spaces, str):
                raise InvalidRequest("spaces", "must be a list of space ids", "string[]")
            for n, space_id in enumerate(spaces):
                check_id(f"spaces[{n}]", space_id)
        payload = {
            k: v
            for k, v in {
                "type": type,
                "title": title,
                "visibility": visibility,
                "spaces": list(spaces) if spaces is not None else None,
            }.items()
            if v is not None
        }
        return await self._send(Site, "POST", path("/orgs/{}/sites", organization_id), payload)

    async def get(self, organization_id: str, site_id: str) -> Site:
        return await self._get(Site, path("/orgs/{}/sites/{}", organization_id, site_id))

    async def delete(self, organization_id: str, site_id: str) -> None:
        await self._send_empty("DELETE", path("/orgs/{}/sites/{}", organization_id, site_id))

    async def update(
        self,
        organization_id: str,
        site_id: str,
        *,
        title: str = UNSET,
        visibility: SiteVisibility = UNSET,
        basename: str = UNSET,
        adaptive_content: bool = UNSET,
        agents_context: AgentsContext = UNSET,
        default_site_space: str = UNSET,
        default_site_section: str = UNSET,
        proxy: str | None = UNSET,
    ) -> Site:
        """Change a site's settings. ``proxy`` (e.g. ``company.com/docs``) None removes the proxy."""
        for field, value in (
            ("title", title),
            ("visibility", visibility),
            ("basename", basename),
            ("adaptiveContent", adaptive_content),
            ("agentsContext", agents_context),
        ):
            if value is None:
                raise InvalidRequest(field, "cannot be removed", "a value")
        if title is not UNSET:
            check_site_title(title)
        if visibility is not UNSET:
            limits.check_one_of("visibility", visibility, SITE_VISIBILITIES)
        if basename is not UNSET:
            limits.check_length("basename", basename, min=1, max=100)
        if agents_context is not UNSET:
            limits.check_one_of("agentsContext", agents_context, AGENTS_CONTEXTS)
        if default_site_space is not UNSET:
            check_id("defaultSiteSpace", default_site_space)
        if default_site_section is not UNSET:
            check_id("defaultSiteSection", default_site_section)
        if proxy is not UNSET:
            limits.check_pattern("proxy", proxy, "site.proxy", max=512)
        payload = body(
            title=title,
            visibility=visibility,
            basename=basename,
            adaptiveContent={"enabled": bool(adaptive_content)} if adaptive_content is not UNSET else UNSET,
            agentsContext=agents_context,
            defaultSiteSpace=default_site_space,
            defaultSiteSection=default_site_section,
            proxy=proxy,
        )
        return await self._send(
            Site, "PATCH", path("/orgs/{}/sites/{}", organization_id, site_id), payload, idempotent=True
        )

    # -- visitor schema and published profile ----------------------------------------------------------------

    async def adaptive_schema(self, organization_id: str, site_id: str) -> SiteAdaptiveSchema:
        """The site's visitor schema (NotFound when the site has none)."""
        return await self._get(SiteAdaptiveSchema, path("/orgs/{}/sites/{}/adaptive-schema", organization_id, site_id))

    async def update_adaptive_schema(
        self, organization_id: str, site_id: str, json_schema: Mapping[str, Any]
    ) -> SiteAdaptiveSchema:
        """Replace the visitor schema; its shape is checked first (see :func:`check_adaptive_schema`), and
        claims without a description are sent with their name as one, as the service requires."""
        check_adaptive_schema(json_schema)
        return await self._send(
            SiteAdaptiveSchema,
            "PUT",
            path("/orgs/{}/sites/{}/adaptive-schema", organization_id, site_id),
            {"jsonSchema": with_claim_descriptions(dict(json_schema))},
            idempotent=True,
        )

    async def template_conditions(self, organization_id: str, site_id: str) -> builtins.list[TemplateCondition]:
        """Conditions generated from the visitor schema, ready for a section's or site space's condition."""
        result: TemplateConditions = await self._get(
            TemplateConditions,
            path("/orgs/{}/sites/{}/adaptive-schema/template-conditions", organization_id, site_id),
        )
        return result.items

    async def published(self, organization_id: str, site_id: str, *, share_key: str | None = None) -> PublishedSite:
        """The site and its structure as published, with published URLs (``share_key``: share-link sites)."""
        return await self._get(
            PublishedSite,
            path("/orgs/{}/sites/{}/published", organization_id, site_id),
            {"shareKey": share_key},
        )

    # -- structure -------------------------------------------------------------------------------------------

    async def structure(self, organization_id: str, site_id: str, *, share_key: str | None = None) -> SiteStructure:
        """The whole navigation: sections, groups (nested) and links, or the root site spaces."""
        return await self._get(
            SiteStructure,
            path("/orgs/{}/sites/{}/structure", organization_id, site_id),
            {"shareKey": share_key},
        )

    async def sort_structure(
        self,
        organization_id: str,
        site_id: str,
        item: PointerLike,
        *,
        before: PointerLike | None = None,
        after: PointerLike | None = None,
    ) -> SiteStructureItem | None:
        """Put an item before and/or after a sibling of its level (neither: at the end). Changes sibling order
        only: to move a section into a group, update the section. Returns the item, or None when the service
        answers without it (204).

        Older services lack this operation (NotOffered: reorder sections with the section move then). They
        answer 404, as they do for an unknown item, so a 404 is told apart by reading the structure: when every
        item the request names is in it, the operation is what is missing."""
        moved = pointer(item, "item")
        position: dict[str, Any] = {}
        for name, value in (("before", before), ("after", after)):
            if value is not None:
                position[name] = pointer(value, f"position.{name}")
                _same_level(moved, position[name], f"position.{name}")
        url = path("/orgs/{}/sites/{}/structure/sort", organization_id, site_id)
        payload = {"item": moved, "position": position}
        try:
            # Without a probe: the structure reads fine whether the item is unknown or the operation missing.
            data = await self._client.request_json("PATCH", url, json=payload, idempotent=True, optional=SORT_STRUCTURE)
        except NotOffered:  # 405, 501, or already learned
            raise
        except NotFound:
            if not await self._all_in_structure(
                organization_id, site_id, [moved["id"], *(p["id"] for p in position.values())]
            ):
                raise
            # Every item is there: the operation is what is missing. Asked again with the probe, the client says
            # so (NotOffered) and remembers it; a service that answers this time has done the sort (idempotent).
            data = await self._client.request_json(
                "PATCH",
                url,
                json=payload,
                idempotent=True,
                optional=SORT_STRUCTURE,
                probe=path("/orgs/{}/sites/{}/structure", organization_id, site_id),
            )
        if data is None:
            return None
        return parse(SiteStructureItem, data, method="PATCH", path=url)  # type: ignore[no-any-return]

    async def _all_in_structure(self, organization_id: str, site_id: str, item_ids: Sequence[str]) -> bool:
        """Whether every one of ``item_ids`` is in the site's structure (False when it cannot be read)."""
        try:
            structure = await self.structure(organization_id, site_id)
        except ApiError:
            return False
        return all(structure.find(item_id) is not None for item_id in item_ids)

    # -- section groups --------------------------------------------------------------------------------------

    def section_groups(
        self, organization_id: str, site_id: str, *, limit: int | None = None
    ) -> Paginator[SiteSectionGroup]:
        """Every section group of the site (nested ones too), in the site's order."""
        return self._list(
            SiteSectionGroup, path("/orgs/{}/sites/{}/section-groups", organization_id, site_id), limit=limit
        )

    async def create_section_group(
        self,
        organization_id: str,
        site_id: str,
        title: str,
        *,
        icon: str | None = UNSET,
        sections: Sequence[str] | None = None,
        parent: str | None = None,
    ) -> SiteSectionGroup:
        """Create a group (title 1..100) at the root or in ``parent``, moving ``sections`` into it."""
        check_group_title(title)
        if icon is not UNSET:
            check_icon(icon)
        if sections is not None:
            for n, section_id in enumerate(sections):
                check_id(f"sections[{n}]", section_id)
        if parent is not None:
            check_id("parent", parent)
        payload = body(
            title=title,
            icon=icon,
            sections=list(sections) if sections is not None else UNSET,
            parent=parent if parent is not None else UNSET,
        )
        return await self._send(
            SiteSectionGroup,
            "POST",
            path("/orgs/{}/sites/{}/section-groups", organization_id, site_id),
            payload,
        )

    async def delete_section_group(self, organization_id: str, site_id: str, group_id: str) -> None:
        """Delete a group; its children take its place in its parent."""
        await self._send_empty(
            "DELETE", path("/orgs/{}/sites/{}/section-groups/{}", organization_id, site_id, group_id)
        )

    async def update_section_group(
        self,
        organization_id: str,
        site_id: str,
        group_id: str,
        *,
        title: str = UNSET,
        icon: str | None = UNSET,
        parent: str | None = UNSET,
    ) -> SiteSectionGroup:
        """Rename a group, change (None: remove) its icon, or move it into ``parent`` (None: the root)."""
        if title is not UNSET:
            check_group_title(title)
        if icon is not UNSET:
            check_icon(icon)
        if parent not in (UNSET, None):
            check_id("parentSectionGroupId", parent)
        payload = body(title=title, icon=icon, parentSectionGroupId=parent)
        return await self._send(
            SiteSectionGroup,
            "PATCH",
            path("/orgs/{}/sites/{}/section-groups/{}", organization_id, site_id, group_id),
            payload,
            idempotent=True,
        )

    async def add_section_to_group(
        self, organization_id: str, site_id: str, group_id: str, section_id: str
    ) -> SiteSectionGroup:
        """Move a section into a group. Not every service offers it (NotOffered): update the section then."""
        check_id("sectionId", section_id)
        return await self._send(
            SiteSectionGroup,
            "POST",
            path("/orgs/{}/sites/{}/section-groups/{}/sections", organization_id, site_id, group_id),
            {"sectionId": section_id},
            optional="sites.add_section_to_group",
            probe=path("/orgs/{}/sites/{}", organization_id, site_id),
        )
