"""Spaces (spec 4.7 and the space lifecycle of section 3): list, read, update, delete and restore, duplicate,
move, transfer, links and search.

    space = await client.spaces.get(space_id)
    await client.spaces.update(space_id, edit_mode="locked")
    await client.spaces.delete(space_id)          # restorable for 7 days
    await client.spaces.restore(space_id)
    async for hit in client.spaces.search(space_id, "rollout"): ...
"""

from __future__ import annotations

from typing import Any

from folio.api import limits
from folio.api.errors import InvalidRequest
from folio.api.pagination import Paginator
from folio.api.resources._base import UNSET, Resource, body, path
from folio.api.resources.collections import check_default_level, move_body
from folio.models.content import LINK_STATUSES, ContentLink, LinksList, LinkStats
from folio.models.search import SearchPageResult
from folio.models.space import (
    EDIT_MODES,
    KNOWN_LANGUAGES,
    OrgSpaceItem,
    OrgSpaceSummary,
    PointerLike,
    Space,
    SpaceMergeRules,
    SpaceSummary,
)

__all__ = ["SEARCH_QUERY_MAX", "SPACE_TITLE_MAX", "LinksPaginator", "SpacesResource"]

SPACE_TITLE_MAX = 50
EMOJI_MAX = 50
SEARCH_QUERY_MAX = 512


class LinksPaginator(Paginator[ContentLink]):
    """A links list: iterate the links, or :meth:`fetch` a page that also carries the list's ``stats``."""

    async def fetch(self, page: str | None = None, *, limit: int | None = None) -> LinksList:
        envelope = await super().fetch(page, limit=limit)
        stats = (envelope.model_extra or {}).get("stats")
        return LinksList(
            next=envelope.next,
            count=envelope.count,
            items=envelope.items,
            stats=LinkStats.model_validate(stats) if isinstance(stats, dict) else None,
        )


def check_link_status(status: str | None) -> None:
    limits.check_one_of("status", status, LINK_STATUSES)


class SpacesResource(Resource):
    """``client.spaces``."""

    def list(self, organization_id: str, *, limit: int | None = None) -> Paginator[Space]:
        """The organization's spaces (deleted ones left out)."""
        return self._list(Space, path("/orgs/{}/spaces", organization_id), limit=limit, lenient=OrgSpaceItem)

    def summaries(self, organization_id: str, *, limit: int | None = None) -> Paginator[SpaceSummary]:
        """The organization's spaces as a list shows them (:class:`SpaceSummary`, a msgspec Struct: what a row
        reads, the rest of each space skipped while reading; a page msgspec refuses is read by pydantic as
        :data:`OrgSpaceSummary`): the way to page through thousands. :meth:`get` reads one in full."""
        return self._list(SpaceSummary, path("/orgs/{}/spaces", organization_id), limit=limit, lenient=OrgSpaceSummary)

    async def get(self, space_id: str, *, share_key: str | None = None) -> Space:
        """The space; a deleted space that can still be restored comes back with ``deleted_at`` set."""
        return await self._get(Space, path("/spaces/{}", space_id), {"shareKey": share_key})

    async def update(
        self,
        space_id: str,
        *,
        title: str = UNSET,
        emoji: str | None = UNSET,
        icon: str | None = UNSET,
        edit_mode: str = UNSET,
        default_level: str | None = UNSET,
        language: str = UNSET,
        merge_rules: SpaceMergeRules | dict[str, Any] = UNSET,
    ) -> Space:
        """Change the space; ``emoji=None`` (or ``icon=None``) removes it. ``edit_mode`` is live or locked."""
        limits.check_length("title", title or None, max=SPACE_TITLE_MAX)
        limits.check_length("emoji", emoji or None, max=EMOJI_MAX)
        if icon:
            limits.check_uri("icon", icon)
        if emoji and icon:
            raise InvalidRequest("emoji", "given with an icon", "an emoji or an icon, not both")
        if edit_mode is not UNSET:
            limits.check_one_of("editMode", edit_mode, EDIT_MODES)
        if language is not UNSET:
            limits.check_one_of("language", language, KNOWN_LANGUAGES)
        check_default_level(default_level)
        if isinstance(merge_rules, SpaceMergeRules):
            merge_rules = merge_rules.model_dump(mode="json", by_alias=True, exclude_none=True)
        data = body(
            title=title,
            emoji=emoji,
            icon=icon,
            editMode=edit_mode,
            defaultLevel=default_level,
            language=language,
            mergeRules=merge_rules,
        )
        if not data:
            raise InvalidRequest("space", "nothing to update", "at least one field")
        return await self._send(Space, "PATCH", path("/spaces/{}", space_id), data, idempotent=True)

    async def delete(self, space_id: str) -> bool:
        """Delete the space (restorable for 7 days). False when there was no such space."""
        response = await self._client.request("DELETE", path("/spaces/{}", space_id))
        return response.status_code != 204

    async def restore(self, space_id: str) -> Space:
        """Bring back a space deleted less than 7 days ago."""
        return await self._send(Space, "POST", path("/spaces/{}/restore", space_id))

    async def duplicate(self, space_id: str) -> Space:
        """A copy of the space and its current content (new page ids)."""
        return await self._send(Space, "POST", path("/spaces/{}/duplicate", space_id))

    async def move(
        self,
        space_id: str,
        *,
        parent: str | None = UNSET,
        before: PointerLike | None = None,
        after: PointerLike | None = None,
    ) -> Space:
        """Move into collection ``parent`` (None: the root) and/or next to a sibling space or collection."""
        data = move_body(space_id, parent, before, after)
        return await self._send(Space, "POST", path("/spaces/{}/move", space_id), data)

    async def transfer(self, space_id: str, *, organization: str, collection: str | None = None) -> Space:
        """Move the space to another organization (optionally into one of its collections)."""
        if not organization:
            raise InvalidRequest("organization", "is empty", "the target organization's id")
        data: dict[str, Any] = {"organization": organization}
        if collection is not None:
            data["collection"] = collection
        return await self._send(
            Space,
            "POST",
            path("/spaces/{}/transfer", space_id),
            data,
            optional="spaces.transfer",
            probe=path("/spaces/{}", space_id),
        )

    def links(self, space_id: str, *, status: str | None = None, limit: int | None = None) -> LinksPaginator:
        """The links of the space's content, optionally only ``ok``, ``broken`` or ``in-app`` ones."""
        check_link_status(status)
        return LinksPaginator(
            self._client,
            path("/spaces/{}/links", space_id),
            ContentLink,
            {"status": status},
            limit=limit,
            optional="spaces.links",
            probe=path("/spaces/{}", space_id),
        )

    def search(self, space_id: str, query: str, *, limit: int | None = None) -> Paginator[SearchPageResult]:
        """Pages of the space whose title or text matches ``query``, best first, with matching sections."""
        if not query or not query.strip():
            raise InvalidRequest("query", "is empty", f"1..{SEARCH_QUERY_MAX} characters")
        limits.check_length("query", query, max=SEARCH_QUERY_MAX)
        return self._list(SearchPageResult, path("/spaces/{}/search", space_id), {"query": query}, limit=limit)
