"""Collections (spec 4.7): list, create, read, update, delete, their spaces, move and transfer.

async for c in client.collections.list(org_id, nested=False): ...
guides = await client.collections.create(org_id, title="Guides", parent=product_id)
await client.collections.move(guides.id, after=ContentPointer.to_collection(other_id))
"""

from __future__ import annotations

from typing import Any

from folio.api import limits
from folio.api.errors import InvalidRequest
from folio.api.pagination import Paginator
from folio.api.resources._base import UNSET, Resource, body, path
from folio.models.common import ROLES
from folio.models.space import Collection, PointerLike, Space, content_position

__all__ = ["COLLECTION_DESCRIPTION_MAX", "COLLECTION_TITLE_MAX", "CollectionsResource", "move_body"]

COLLECTION_TITLE_MAX = 50
COLLECTION_DESCRIPTION_MAX = 100
DEFAULT_LEVELS = (*ROLES, "inherit")


def check_default_level(value: Any) -> None:
    if value is not UNSET and value is not None:
        limits.check_one_of("defaultLevel", value, DEFAULT_LEVELS)


def move_body(
    item_id: str, parent: str | Any | None, before: PointerLike | None, after: PointerLike | None
) -> dict[str, Any]:
    """The body of a space or collection move, checked: something to do, and not relative to itself."""
    out = body(parent=parent)
    position = content_position(before, after)
    for side in position.values():
        if item_id in (side.get("space"), side.get("collection")):
            raise InvalidRequest("position", "places the item relative to itself", "a sibling's id")
    if position:
        out["position"] = position
    if not out:
        raise InvalidRequest("position", "nothing to do", "a parent, a position or both")
    return out


class CollectionsResource(Resource):
    """``client.collections``."""

    def list(
        self, organization_id: str, *, nested: bool | None = None, limit: int | None = None
    ) -> Paginator[Collection]:
        """The organization's collections; ``nested=False`` lists only the top-level ones (the service's
        default is true: every collection at any depth)."""
        return self._list(Collection, path("/orgs/{}/collections", organization_id), {"nested": nested}, limit=limit)

    async def create(self, organization_id: str, *, title: str | None = None, parent: str | None = None) -> Collection:
        limits.check_length("title", title, max=COLLECTION_TITLE_MAX)
        data: dict[str, Any] = {}
        if title is not None:
            data["title"] = title
        if parent is not None:
            data["parent"] = parent
        return await self._send(Collection, "POST", path("/orgs/{}/collections", organization_id), data)

    async def get(self, collection_id: str) -> Collection:
        return await self._get(Collection, path("/collections/{}", collection_id))

    async def update(
        self,
        collection_id: str,
        *,
        title: str = UNSET,
        description: str = UNSET,
        default_level: str | None = UNSET,
    ) -> Collection:
        """Change the title, the description (an empty one clears it) or the default role of members."""
        limits.check_length("title", title or None, max=COLLECTION_TITLE_MAX)
        limits.check_length("description", description or None, max=COLLECTION_DESCRIPTION_MAX)
        check_default_level(default_level)
        data = body(title=title, description=description, defaultLevel=default_level)
        if not data:
            raise InvalidRequest("collection", "nothing to update", "title, description or defaultLevel")
        return await self._send(Collection, "PATCH", path("/collections/{}", collection_id), data, idempotent=True)

    async def delete(self, collection_id: str) -> bool:
        """Delete the collection (its spaces become deleted spaces). False when it did not exist."""
        response = await self._client.request("DELETE", path("/collections/{}", collection_id))
        return response.status_code != 204

    def spaces(self, collection_id: str, *, limit: int | None = None) -> Paginator[Space]:
        return self._list(Space, path("/collections/{}/spaces", collection_id), limit=limit)

    async def move(
        self,
        collection_id: str,
        *,
        parent: str | None = UNSET,
        before: PointerLike | None = None,
        after: PointerLike | None = None,
    ) -> Collection:
        """Move under ``parent`` (None: the root) and/or next to a sibling (a bare id is a space; use
        ``ContentPointer.to_collection(id)`` for a collection). Without a position it goes to the end."""
        data = move_body(collection_id, parent, before, after)
        return await self._send(Collection, "POST", path("/collections/{}/move", collection_id), data)

    async def transfer(self, collection_id: str, *, organization: str) -> Collection:
        """Move the collection, with its content, to another organization."""
        if not organization:
            raise InvalidRequest("organization", "is empty", "the target organization's id")
        return await self._send(
            Collection,
            "POST",
            path("/collections/{}/transfer", collection_id),
            {"organization": organization},
        )
