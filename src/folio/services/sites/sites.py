"""Published docs sites, as the sites panel and the site screen use them: listing and filtering, creating and
deleting, the settings with the spec's limits checked before sending, the published view (with a share key),
the visitor (adaptive content) schema and the template conditions derived from it.

The pure parts live in :mod:`folio.services.sites.site_rules` (settings, published filter, outlines) and
:mod:`folio.services.sites.site_schema` (the visitor schema's problems in words); their names are re-exported here.
"""

from __future__ import annotations

import asyncio
import builtins
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from folio.api import limits
from folio.api.errors import InvalidRequest, NotFound
from folio.models.site import KNOWN_SITE_TYPES, SITE_VISIBILITIES, Site
from folio.models.site_structure import PublishedSite, SiteAdaptiveSchema, SiteStructure, TemplateCondition
from folio.services.sites.site_rules import (
    SETTING_KEYS,
    Choice,
    OutlineNode,
    Setting,
    check_setting,
    next_published_filter,
    outline,
    proxy_value,
    published_filter_label,
    settings,
    structure_summary,
)
from folio.services.sites.site_schema import (
    STARTER_SCHEMA,
    ConditionChoices,
    SchemaRefused,
    claim_counts,
    matching_conditions,
    parse_schema,
    schema_problems,
    schema_text,
)

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.space import SpaceSummary
    from folio.services import Services

__all__ = [
    "KNOWN_SITE_TYPES",
    "SETTING_KEYS",
    "SITE_VISIBILITIES",
    "STARTER_SCHEMA",
    "Choice",
    "ConditionChoices",
    "OutlineNode",
    "PublishedView",
    "SchemaRefused",
    "Setting",
    "SiteService",
    "check_setting",
    "claim_counts",
    "matching_conditions",
    "next_published_filter",
    "outline",
    "parse_schema",
    "proxy_value",
    "published_filter_label",
    "schema_problems",
    "schema_text",
    "settings",
    "structure_summary",
]


@dataclass
class PublishedView:
    """What visitors see (the published profile) beside the editable structure."""

    published: PublishedSite
    editable: SiteStructure | None


class SiteService:
    """The sites of an organization: the panel's list and the site screen's settings, published view and
    visitor schema."""

    def __init__(self, client: GitBookClient, services: Services) -> None:
        self._client = client
        self._services = services

    # -- sites ---------------------------------------------------------------------------------------------------

    async def list(
        self, org_id: str, *, published: bool | None = None, title: str | None = None
    ) -> builtins.list[Site]:
        """Every site of the organization, in the service's order; ``published`` keeps one state."""
        paginator = self._client.sites.list(
            org_id, published=published, title=title or None, limit=limits.LIST_LIMIT_MAX
        )
        return await paginator.collect()

    async def spaces(self, org_id: str) -> builtins.list[SpaceSummary]:
        """The organization's spaces a new site may publish (deleted ones left out)."""
        spaces = await self._client.spaces.summaries(org_id, limit=limits.LIST_LIMIT_MAX).collect()
        return [s for s in spaces if not s.deleted]

    async def create(
        self,
        org_id: str,
        *,
        title: str,
        visibility: str = "public",
        type: str | None = None,
        spaces: Iterable[str] = (),
    ) -> Site:
        """Create an unpublished site; the limits are checked first (title 2..128, a known visibility)."""
        chosen = builtins.list(spaces)
        return await self._client.sites.create(
            org_id,
            type=type or None,
            title=title,
            visibility=visibility,  # type: ignore[arg-type]  # checked by the client
            spaces=chosen or None,
        )

    async def find_site(self, org_id: str, title: str) -> Site | None:
        """The site titled exactly ``title`` (the newest of them), for a creation whose answer was lost."""
        found = [s for s in await self.list(org_id, title=title) if s.title == title]
        found.sort(key=lambda s: s.created_at.timestamp() if s.created_at else 0.0, reverse=True)
        return found[0] if found else None

    async def delete(self, org_id: str, site_id: str) -> None:
        await self._client.sites.delete(org_id, site_id)

    async def get(self, org_id: str, site_id: str) -> Site:
        return await self._client.sites.get(org_id, site_id)

    async def overview(self, org_id: str, site_id: str) -> tuple[Site, SiteStructure | None]:
        """The site and its (editable) structure, read together; a structure that cannot be read is None."""
        site_call = self._client.sites.get(org_id, site_id)
        structure_call = self._client.sites.structure(org_id, site_id)
        site, structure = await asyncio.gather(site_call, structure_call, return_exceptions=True)
        if isinstance(site, BaseException):
            raise site
        return site, None if isinstance(structure, BaseException) else structure

    async def structure(self, org_id: str, site_id: str) -> SiteStructure:
        return await self._client.sites.structure(org_id, site_id)

    # -- settings ------------------------------------------------------------------------------------------------

    async def update_setting(self, org_id: str, site_id: str, key: str, value: str) -> Site:
        """Change one setting (``key`` from :data:`SETTING_KEYS`; ``proxy`` empty or ``null`` removes it). The
        client checks the spec's limits before sending (InvalidRequest names the limit)."""
        sites = self._client.sites
        match key:
            case "title":
                return await sites.update(org_id, site_id, title=value)
            case "visibility":
                return await sites.update(org_id, site_id, visibility=value)  # type: ignore[arg-type]
            case "basename":
                return await sites.update(org_id, site_id, basename=value)
            case "proxy":
                return await sites.update(org_id, site_id, proxy=proxy_value(value))
            case "agentsContext":
                return await sites.update(org_id, site_id, agents_context=value)  # type: ignore[arg-type]
            case "adaptiveContent":
                return await sites.update(org_id, site_id, adaptive_content=value == "on")
            case "defaultSiteSection":
                return await sites.update(org_id, site_id, default_site_section=value)
            case "defaultSiteSpace":
                return await sites.update(org_id, site_id, default_site_space=value)
        raise InvalidRequest(key, "is not a setting of a site", "one of " + ", ".join(SETTING_KEYS))

    async def find_setting(self, org_id: str, site_id: str, key: str, value: str) -> Site | None:
        """The site, read again, if its setting ``key`` now holds ``value`` (a change whose answer was lost was
        made after all); None when it does not."""
        site, structure = await self.overview(org_id, site_id)
        wanted = (proxy_value(value) or "") if key == "proxy" else value
        current = next((s.current for s in settings(site, structure) if s.key == key), None)
        return site if (current or "") == wanted else None

    # -- published view ------------------------------------------------------------------------------------------

    async def published(self, org_id: str, site_id: str, *, share_key: str | None = None) -> PublishedView:
        """The published profile (``share_key`` for share-link sites) and the editable structure beside it."""
        published, editable = await asyncio.gather(
            self._client.sites.published(org_id, site_id, share_key=share_key or None),
            self._client.sites.structure(org_id, site_id),
            return_exceptions=True,
        )
        if isinstance(published, BaseException):
            raise published
        return PublishedView(published, None if isinstance(editable, BaseException) else editable)

    # -- visitor schema ------------------------------------------------------------------------------------------

    async def adaptive_schema(self, org_id: str, site_id: str) -> SiteAdaptiveSchema | None:
        """The site's visitor schema, or None when it has none yet."""
        try:
            return await self._client.sites.adaptive_schema(org_id, site_id)
        except NotFound:
            return None

    async def save_adaptive_schema(self, org_id: str, site_id: str, text: str) -> SiteAdaptiveSchema:
        """Check the typed schema and send it; :class:`SchemaRefused` (nothing sent) says what is wrong."""
        value, problems = parse_schema(text)
        if problems:
            raise SchemaRefused(problems)
        return await self._client.sites.update_adaptive_schema(org_id, site_id, value)

    async def template_conditions(self, org_id: str, site_id: str) -> builtins.list[TemplateCondition]:
        return await self._client.sites.template_conditions(org_id, site_id)

    async def condition_choices(self, org_id: str, site_id: str) -> ConditionChoices:
        """The template conditions a section's or site space's condition field offers (none, with ``schema``
        False, when the site has no visitor schema)."""
        schema, conditions = await asyncio.gather(
            self.adaptive_schema(org_id, site_id),
            self._client.sites.template_conditions(org_id, site_id),
            return_exceptions=True,
        )
        if isinstance(schema, BaseException):
            raise schema
        if schema is None:
            return ConditionChoices(schema=False)
        if isinstance(conditions, BaseException):
            raise conditions
        return ConditionChoices(schema=True, conditions=conditions)
