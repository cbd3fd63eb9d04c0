"""The trash: an organization's spaces deleted in the last 7 days (spec section 3: a deleted space can be restored
for 7 days, then it is removed for good), with the time each has left, and restoring one.

The API has no list of deleted spaces: the organization's list leaves them out (spec 4.7), and only reading a
space by its id says it is deleted (``deletedAt``). So the trash is made of the spaces Folio knows of in the
organization (seen in a list this run or an earlier one, in the list kept in the local cache, or deleted through
Folio) that are no longer listed: each is read by its id, and those the service says are deleted and still
restorable are shown. The ids seen are kept in the local cache (:meth:`TrashService.keep`, one entry per
organization), so a space deleted by someone else after any earlier visit is found. A space deleted elsewhere
that Folio never saw cannot be found.

    trash = TrashService(client, services)
    spaces = await trash.deleted_spaces(org_id)       # soonest to go first
    time_left(restorable_until(spaces[0]), now())     # "4 days left"
    await trash.restore(spaces[0])
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from folio.api.errors import BadRequest, NotFound
from folio.services import format
from folio.services.connection import Connection
from folio.services.reconcile import send_or_read

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.space import Space, SpaceLike, SpaceSummary
    from folio.services import Services

__all__ = ["LIST_PAGE", "RESTORE_WINDOW", "SEEN_KEY", "TrashService", "restorable_until", "time_left"]

RESTORE_WINDOW = timedelta(days=7)
"""Spec sections 3 and 8: a deleted space is restorable, and retained, for 7 days."""
LIST_PAGE = 100
"""The page size the organization's spaces list is read with (the same as the browse service's, so the list kept
in the local cache is the one the organization screen read)."""
READS_AT_ONCE = 8
"""Spaces read by id at the same time while the trash is gathered."""
SEEN_KEY = "folio seen-spaces {}"
"""The local cache's entry of the ids of an organization's spaces Folio has seen (not a GET: no write to the
service ever invalidates it)."""


def restorable_until(space: SpaceLike) -> datetime | None:
    """When a deleted space is removed for good (None: it is not deleted)."""
    if space.deleted_at is None:
        return None
    return space.deleted_at + RESTORE_WINDOW


def time_left(until: datetime | None, at: datetime) -> str:
    """``6 days left``, ``5 h left``, ``less than an hour left``; ``removed for good`` once ``until`` is past."""
    if until is None:
        return format.DASH
    seconds = (until - at).total_seconds()
    if seconds <= 0:
        return "removed for good"
    return f"{format.span(seconds)} left"


class TrashService:
    """Deleted spaces of an organization (from the spaces Folio knows of), restoring them, and deleting one so
    that the trash knows it. One per app (``services.trash``): what it learned lasts the run."""

    def __init__(self, client: GitBookClient, services: Services | None = None) -> None:
        self._client = client
        self._services = services
        self._known: dict[str, dict[str, str]] = {}
        """organization id -> space id -> title: every space Folio saw in the organization this run."""
        self._kept: dict[str, set[str]] = {}
        """organization id -> the ids the local cache holds for it (read once a run, then kept up to date)."""

    def saw(self, org_id: str, spaces: Iterable[SpaceLike]) -> None:
        """Spaces of ``org_id`` seen by any screen: if one is deleted later, the trash will find it."""
        known = self._known.setdefault(org_id, {})
        for space in spaces:
            known[space.id] = space.title

    def keep(self, org_id: str, also: Iterable[str] = ()) -> None:
        """Keep the ids of the spaces seen in ``org_id`` (and ``also`` these) in the local cache, for the trash of
        a later run (written only when one is new)."""
        kept = self._stored(org_id)
        seen = set(self._known.get(org_id, ())).union(also)
        if not seen <= kept:
            self._store(org_id, kept | seen)

    def _stored(self, org_id: str) -> set[str]:
        """The ids the local cache holds for ``org_id`` (none without a cache, or from an entry it cannot read)."""
        kept = self._kept.get(org_id)
        if kept is not None:
            return kept
        store, kept = self._client.store, set()
        hit = store.get(SEEN_KEY.format(org_id)) if store is not None else None
        if hit is not None:
            with contextlib.suppress(ValueError):
                ids = json.loads(hit.body)
                kept = {i for i in ids if isinstance(i, str)} if isinstance(ids, list) else set()
        self._kept[org_id] = kept
        return kept

    def _store(self, org_id: str, ids: set[str]) -> None:
        self._kept[org_id] = ids
        if self._client.store is not None:
            self._client.store.put(SEEN_KEY.format(org_id), json.dumps(sorted(ids)).encode())

    def _forget(self, org_id: str, space_id: str) -> None:
        """``space_id`` is no longer of ``org_id`` (removed for good, or moved to another organization)."""
        self._known.get(org_id, {}).pop(space_id, None)
        kept = self._stored(org_id)
        if space_id in kept:
            self._store(org_id, kept - {space_id})

    async def deleted_spaces(self, org_id: str) -> list[Space]:
        """The organization's known spaces that are deleted and still restorable, soonest to go first."""
        before = await self._cached_ids(org_id) | self._stored(org_id)
        live: list[SpaceSummary] = []
        async for envelope in self._client.spaces.summaries(org_id, limit=LIST_PAGE).pages():
            live.extend(envelope.items)
        listed = {s.id for s in live}
        known = self._known.setdefault(org_id, {})
        missing = sorted((set(known) | before) - listed)
        self.saw(org_id, live)
        self.keep(org_id, also=before)
        gate = asyncio.Semaphore(READS_AT_ONCE)
        found = await asyncio.gather(*(self._read(org_id, space_id, gate) for space_id in missing))
        at = format.now()
        out = [s for s in found if s is not None and (restorable_until(s) or at) > at]
        out.sort(key=lambda s: (restorable_until(s) or at, s.title.lower(), s.id))
        return out

    async def _cached_ids(self, org_id: str) -> set[str]:
        """The ids of the organization's spaces list kept in the local cache (from before it is read again)."""
        if self._client.store is None:
            return set()
        ids: set[str] = set()
        try:
            with Connection.cache_only():
                async for envelope in self._client.spaces.summaries(org_id, limit=LIST_PAGE).pages():
                    ids.update(s.id for s in envelope.items)
        except Exception:  # not cached (or a page of it is not): the cache only adds to what is known
            return ids
        return ids

    async def _read(self, org_id: str, space_id: str, gate: asyncio.Semaphore) -> Space | None:
        """The space if the service says it is deleted (None: gone for good, or live elsewhere)."""
        async with gate:
            try:
                space = await self._client.spaces.get(space_id)
            except NotFound:  # removed for good (or never ours to see): forget it
                self._forget(org_id, space_id)
                return None
        if space.organization not in (None, org_id):  # moved to another organization
            self._forget(org_id, space_id)
            return None
        return space if space.deleted else None

    def _changed(self, org_id: str | None) -> None:
        if self._services is not None:
            self._services.changes.bump(("spaces",), ("spaces", org_id), ("trash", org_id))

    async def restore(self, space: SpaceLike) -> Space:
        """Bring the deleted space back (it is listed in its organization again); after a lost answer (or a 400:
        it is not deleted) the space is read, and found live it is what is returned."""

        async def read() -> Space | None:
            now = await self._client.spaces.get(space.id)
            return now if not now.deleted else None

        restored = await send_or_read(
            lambda: self._client.spaces.restore(space.id), read, refused=(BadRequest,), what="the space"
        )
        org_id = restored.organization or space.organization
        if org_id:
            self.saw(org_id, [restored])
        self._changed(org_id)
        return restored

    async def delete(self, space: SpaceLike) -> bool:
        """Delete the space (restorable for 7 days: the trash of its organization shows it). False when there
        was no such space."""
        if space.organization:
            self.saw(space.organization, [space])
        existed = await self._client.spaces.delete(space.id)
        self._changed(space.organization)
        return existed
