"""Conflict forecast: which pages each open change request of a space edits, which of them overlap, and what
merging one does to the others.

    forecast = services.forecast
    report = await forecast.forecast(space_id, cr_id)    # Forecast: the overlaps, how many become outdated
    marks = await forecast.overlapping(space_id)          # {cr id: numbers of the open ones it overlaps}

The pages a change request edits are read from its change list (``/changes``: created, edited, moved, deleted
pages), once per revision of the change request: an answer is kept until the change request moves on. Merging a
change request moves main on, so every other open change request that is up to date now becomes outdated; the
ones that edit the same pages are those whose update from main may bring the two edits together.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from folio.api.resources.change_requests import CHANGES_LIMIT_MAX

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.change_request import ChangeRequest, ChangeRequestChanges
    from folio.services import Services

__all__ = ["Forecast", "ForecastService", "Overlap", "Touch", "overlaps_of"]

PARALLEL = 4
"""Change lists read at once."""
PAGE_CHANGES = {"page_created", "page_edited", "page_moved", "page_deleted"}


@dataclass(frozen=True)
class Touch:
    """The pages one change request edits (``titles``: page id -> title); ``cut``: its change list was longer
    than the service gives, so some pages may be missing."""

    cr: ChangeRequest
    titles: dict[str, str]
    cut: bool = False

    @property
    def pages(self) -> set[str]:
        return set(self.titles)


@dataclass(frozen=True)
class Overlap:
    """Another open change request editing some of the same pages (``titles``, in this one's order).
    ``becomes_outdated``: it is up to date now, and merging this one makes it outdated."""

    cr: ChangeRequest
    page_ids: tuple[str, ...]
    titles: tuple[str, ...]
    becomes_outdated: bool

    @property
    def summary(self) -> str:
        shown = ", ".join(f"“{t}”" for t in self.titles[:3])
        more = f" and {len(self.titles) - 3} more" if len(self.titles) > 3 else ""
        return f"both edit {shown}{more}"


@dataclass
class Forecast:
    """What the open change requests of the space mean for change request ``cr_id``."""

    cr_id: str
    overlaps: list[Overlap]
    open_others: int
    """The other open change requests of the space."""
    outdated_after_merge: int
    """How many of them are up to date now (merging this one makes each outdated)."""
    cut: bool = False
    """Some change list was cut by the service: an overlap may be missing."""

    @property
    def summary(self) -> str:
        others = self.open_others
        if not others:
            return "No other change request is open on this space."
        overlap = len(self.overlaps)
        if not overlap:
            said = (
                "The other open change request edits"
                if others == 1
                else f"None of the {others} other open change requests edits"
            )
            return said + (" other pages." if others == 1 else " the same pages.") + self._cut_note
        said = (
            "The other open change request edits"
            if others == 1
            else f"{overlap} of the {others} other open change requests edit"
        )
        outdated = self.outdated_after_merge
        after = f"merging this one makes {outdated} open change {'request' if outdated == 1 else 'requests'} outdated"
        return f"{said} the same pages; {after}.{self._cut_note}"

    @property
    def _cut_note(self) -> str:
        return " Some change lists were cut: an overlap may be missing." if self.cut else ""


def overlaps_of(me: Touch, others: list[Touch]) -> list[Overlap]:
    """The change requests of ``others`` (not ``me``) that edit a page ``me`` edits, most shared pages first."""
    out = []
    for other in others:
        if other.cr.id == me.cr.id:
            continue
        shared = [pid for pid in me.titles if pid in other.titles]
        if shared:
            titles = tuple(me.titles[pid] or other.titles[pid] or "Untitled" for pid in shared)
            out.append(Overlap(other.cr, tuple(shared), titles, becomes_outdated=not other.cr.outdated))
    out.sort(key=lambda o: (-len(o.page_ids), o.cr.number))
    return out


def touch_of(cr: ChangeRequest, changes: ChangeRequestChanges) -> Touch:
    titles: dict[str, str] = {}
    for change in changes.changes:
        if change.type in PAGE_CHANGES and change.page is not None:
            titles.setdefault(change.page.id, change.page.title)
    return Touch(cr, titles, cut=bool(changes.more))


class ForecastService:
    """Reads the open change requests of a space and their change lists (kept per change request revision)."""

    def __init__(self, client: GitBookClient, services: Services | None = None) -> None:
        self._client = client
        self._services = services
        self._kept: dict[tuple[str, str], Touch] = {}

    async def open_change_requests(self, space_id: str) -> list[ChangeRequest]:
        return await self._client.change_requests.list(space_id, status="open", limit=1000).collect()

    async def touch(self, space_id: str, cr: ChangeRequest) -> Touch:
        """The pages ``cr`` edits (read once per revision of it)."""
        key = (cr.id, cr.revision or "")
        kept = self._kept.get(key)
        if kept is not None and cr.revision:
            return Touch(cr, kept.titles, kept.cut)  # the same revision: the same pages, the record as read now
        changes = await self._client.change_requests.changes(space_id, cr.id, limit=CHANGES_LIMIT_MAX)
        found = touch_of(cr, changes)
        for stale in [k for k in self._kept if k[0] == cr.id]:  # an older revision of it is not asked for again
            del self._kept[stale]
        self._kept[key] = found
        return found

    async def touches(self, space_id: str, crs: list[ChangeRequest]) -> list[Touch]:
        semaphore = asyncio.Semaphore(PARALLEL)

        async def one(cr: ChangeRequest) -> Touch:
            async with semaphore:
                return await self.touch(space_id, cr)

        return list(await asyncio.gather(*(one(cr) for cr in crs)))

    async def forecast(self, space_id: str, cr_id: str) -> Forecast:
        """The other open change requests of the space that edit the pages ``cr_id`` edits."""
        crs = await self.open_change_requests(space_id)
        mine = next((cr for cr in crs if cr.id == cr_id), None)
        if mine is None:  # a draft, merged or archived one: forecast it against the open ones all the same
            mine = await self._client.change_requests.get(space_id, cr_id)
        others = [cr for cr in crs if cr.id != mine.id]
        me, *rest = await self.touches(space_id, [mine, *others])
        return Forecast(
            mine.id,
            overlaps_of(me, rest),
            open_others=len(others),
            outdated_after_merge=sum(1 for cr in others if not cr.outdated),
            cut=me.cut or any(t.cut for t in rest),
        )

    async def overlapping(self, space_id: str, crs: list[ChangeRequest] | None = None) -> dict[str, list[int]]:
        """For each open change request that overlaps another, the numbers of the others (``crs``: the open
        ones, if already read)."""
        crs = crs if crs is not None else await self.open_change_requests(space_id)
        touches = await self.touches(space_id, [cr for cr in crs if cr.status == "open"])
        out: dict[str, list[int]] = {}
        for touch in touches:
            numbers = sorted(int(o.cr.number) for o in overlaps_of(touch, touches))
            if numbers:
                out[touch.cr.id] = numbers
        return out
