"""Site spaces of a published site (spec section 4.5): the spaces a site shows, as the variants of a section
or at the root of a site without sections.

    async for ss in client.site_spaces.list(org_id, site_id, default=True): ...
    ss = await client.site_spaces.create(org_id, site_id, space_id, section_id=section.id)
    await client.site_spaces.update(org_id, site_id, ss.id, hidden=True, condition=None)
"""

from __future__ import annotations

from folio.api import limits
from folio.api.errors import InvalidRequest
from folio.api.pagination import Paginator
from folio.api.resources._base import UNSET, Resource, body
from folio.api.resources._base import path as endpoint
from folio.api.resources.site_sections import check_condition, check_id, move_body
from folio.models.site_structure import SiteSpace

__all__ = ["SiteSpacesResource"]


class SiteSpacesResource(Resource):
    """``client.site_spaces``."""

    def list(
        self,
        organization_id: str,
        site_id: str,
        *,
        default: bool | None = None,
        share_key: str | None = None,
        limit: int | None = None,
    ) -> Paginator[SiteSpace]:
        """The site's site spaces in order; ``default`` True keeps only the default one, False the others."""
        return self._list(
            SiteSpace,
            endpoint("/orgs/{}/sites/{}/site-spaces", organization_id, site_id),
            {"default": default, "shareKey": share_key},
            limit=limit,
        )

    async def create(
        self, organization_id: str, site_id: str, space_id: str, *, section_id: str | None = None
    ) -> SiteSpace:
        """Publish ``space_id`` on the site: in ``section_id``, else the default section, else at the root."""
        check_id("spaceId", space_id)
        if section_id is not None:
            check_id("sectionId", section_id)
        payload = body(spaceId=space_id, sectionId=section_id if section_id is not None else UNSET)
        return await self._send(
            SiteSpace, "POST", endpoint("/orgs/{}/sites/{}/site-spaces", organization_id, site_id), payload
        )

    async def delete(self, organization_id: str, site_id: str, site_space_id: str) -> None:
        await self._send_empty(
            "DELETE", endpoint("/orgs/{}/sites/{}/site-spaces/{}", organization_id, site_id, site_space_id)
        )

    async def update(
        self,
        organization_id: str,
        site_id: str,
        site_space_id: str,
        *,
        path: str = UNSET,
        condition: str | None = UNSET,
        space_id: str = UNSET,
        hidden: bool = UNSET,
    ) -> SiteSpace:
        """Change a site space: its path (1..100), its condition (None removes it), the space it shows, or
        whether it is hidden from the site's navigation."""
        if path is not UNSET:
            if path is None:
                raise InvalidRequest("path", "cannot be removed", "1..100 characters")
            limits.check_length("path", path, min=1, max=100)
        if condition is not UNSET:
            check_condition(condition)
        if space_id is not UNSET:
            check_id("spaceId", space_id)
        if hidden is not UNSET and not isinstance(hidden, bool):
            raise InvalidRequest("hidden", "must be true or false", "boolean")
        payload = body(path=path, condition=condition, spaceId=space_id, hidden=hidden)
        return await self._send(
            SiteSpace,
            "PATCH",
            endpoint("/orgs/{}/sites/{}/site-spaces/{}", organization_id, site_id, site_space_id),
            payload,
            idempotent=True,
        )

    async def move(
        self,
        organization_id: str,
        site_id: str,
        site_space_id: str,
        *,
        before: str | None = None,
        after: str | None = None,
    ) -> SiteSpace:
        """Put a site space before and/or after a sibling of its section (neither: at the end). Deprecated by
        the service in favour of :meth:`SitesResource.sort_structure`."""
        return await self._send(
            SiteSpace,
            "POST",
            endpoint("/orgs/{}/sites/{}/site-spaces/{}/move", organization_id, site_id, site_space_id),
            move_body("site-space", before, after),
        )
