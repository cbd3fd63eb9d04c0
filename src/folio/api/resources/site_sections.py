"""Sections of a published site (spec section 4.3), and the limits every part of a site's structure shares.

async for section in client.site_sections.list(org_id, site_id): ...
section = await client.site_sections.create(org_id, site_id, space_id, title="API Reference")
await client.site_sections.update(org_id, site_id, section.id, condition=None)   # None removes it
await client.site_sections.move(org_id, site_id, section.id, before=other.id)   # deprecated: sort_structure
"""

from __future__ import annotations

from typing import Any

from folio.api import limits
from folio.api.errors import InvalidRequest
from folio.api.pagination import Paginator
from folio.api.resources._base import UNSET, Resource, body
from folio.api.resources._base import path as endpoint
from folio.models.common import position
from folio.models.site_structure import SiteSection

__all__ = [
    "SiteSectionsResource",
    "check_condition",
    "check_icon",
    "check_id",
    "check_section_title",
    "move_body",
]


def check_section_title(value: str | None, field: str = "title") -> None:
    limits.check_length(field, value, min=2, max=128)


def check_icon(value: str | None, field: str = "icon") -> None:
    limits.check_length(field, value, max=50)


def check_condition(value: str | None, field: str = "condition") -> None:
    limits.check_length(field, value, max=1024)


def check_id(field: str, value: Any) -> None:
    if not isinstance(value, str) or not value:
        raise InvalidRequest(field, "must be a non-empty id", "an id")


def move_body(kind: Any, before: str | None, after: str | None) -> dict[str, Any]:
    """The body of a deprecated move: ``{position: {before?, after?}}`` (empty position: to the end)."""
    for name, value in (("before", before), ("after", after)):
        if value is not None:
            check_id(f"position.{name}", value)
    return {"position": position(kind, before=before, after=after)}


class SiteSectionsResource(Resource):
    """``client.site_sections``."""

    def list(
        self, organization_id: str, site_id: str, *, share_key: str | None = None, limit: int | None = None
    ) -> Paginator[SiteSection]:
        """The site's sections in the site's order, each with its site spaces."""
        return self._list(
            SiteSection,
            endpoint("/orgs/{}/sites/{}/sections", organization_id, site_id),
            {"shareKey": share_key},
            limit=limit,
        )

    async def create(
        self,
        organization_id: str,
        site_id: str,
        space_id: str,
        *,
        title: str | None = UNSET,
        icon: str | None = UNSET,
        section_group: str | None = None,
    ) -> SiteSection:
        """Add a section showing ``space_id`` as its first site space (title 2..128, icon at most 50)."""
        check_id("spaceId", space_id)
        if title is not UNSET:
            check_section_title(title)
        if icon is not UNSET:
            check_icon(icon)
        payload = body(
            spaceId=space_id,
            title=title,
            icon=icon,
            siteSectionGroupId=section_group if section_group is not None else UNSET,
        )
        return await self._send(
            SiteSection, "POST", endpoint("/orgs/{}/sites/{}/sections", organization_id, site_id), payload
        )

    async def delete(self, organization_id: str, site_id: str, section_id: str) -> None:
        """Delete a section and its site spaces."""
        await self._send_empty(
            "DELETE", endpoint("/orgs/{}/sites/{}/sections/{}", organization_id, site_id, section_id)
        )

    async def update(
        self,
        organization_id: str,
        site_id: str,
        section_id: str,
        *,
        title: str = UNSET,
        path: str = UNSET,
        default_site_space: str = UNSET,
        condition: str | None = UNSET,
        icon: str | None = UNSET,
        description: str | None = UNSET,
        section_group: str | None = UNSET,
    ) -> SiteSection:
        """Change a section; ``None`` removes the condition, icon or description, or (``section_group``) moves
        the section to the root of the site."""
        if title is not UNSET:
            if title is None:
                raise InvalidRequest("title", "cannot be removed", "2..128 characters")
            check_section_title(title)
        if path is not UNSET:
            if path is None:
                raise InvalidRequest("path", "cannot be removed", "1..100 characters")
            limits.check_length("path", path, min=1, max=100)
        if default_site_space is not UNSET:
            check_id("defaultSiteSpace", default_site_space)
        if condition is not UNSET:
            check_condition(condition)
        if icon is not UNSET:
            check_icon(icon)
        if description is not UNSET:
            limits.check_length("description", description, max=256)
        if section_group not in (UNSET, None):
            check_id("siteSectionGroupId", section_group)
        payload = body(
            title=title,
            path=path,
            defaultSiteSpace=default_site_space,
            condition=condition,
            icon=icon,
            description=description,
            siteSectionGroupId=section_group,
        )
        return await self._send(
            SiteSection,
            "PATCH",
            endpoint("/orgs/{}/sites/{}/sections/{}", organization_id, site_id, section_id),
            payload,
            idempotent=True,
        )

    async def move(
        self,
        organization_id: str,
        site_id: str,
        section_id: str,
        *,
        before: str | None = None,
        after: str | None = None,
    ) -> SiteSection:
        """Put a section before and/or after a sibling section (neither: at the end). Deprecated by the
        service in favour of :meth:`SitesResource.sort_structure`, which also moves groups and links."""
        return await self._send(
            SiteSection,
            "POST",
            endpoint("/orgs/{}/sites/{}/sections/{}/move", organization_id, site_id, section_id),
            move_body("site-section", before, after),
        )
