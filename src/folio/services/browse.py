"""Browsing: the lists the screens show, read through the API client."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.organization import Organization

__all__ = ["BrowseService"]


class BrowseService:
    """What the browsing screens read: the user's organizations (and, in later releases, their spaces...)."""

    def __init__(self, client: GitBookClient, *, where: str | None = None) -> None:
        self._client = client
        self.where = where or client.host
        """Where the data comes from, in words for the header (``api.gitbook.com``, ``demo sandbox``)."""

    async def organizations(self) -> list[Organization]:
        """Every organization the signed-in user belongs to, in the service's order (all pages)."""
        return await self._client.organizations.list().collect()

    async def aclose(self) -> None:
        await self._client.aclose()
