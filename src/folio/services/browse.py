"""Browsing: the lists the screens show, read through the API client.

Lists that can be long come page by page (``async for page in browse.spaces_pages(org_id)``) so a screen shows
the first rows while the rest load. The pure pieces (the collection tree, the inbox filter, how old a thing
is) are plain functions and dataclasses a unit test can call.

Ages are computed against :func:`now`, a module-level function a test may monkeypatch to freeze the clock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from folio.services import format

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.change_request import ChangeRequestSummary
    from folio.models.organization import Organization
    from folio.models.site import Site
    from folio.models.space import Collection, SpaceSummary

__all__ = [
    "STATUS_CYCLE",
    "BrowseService",
    "CollectionNode",
    "InboxFilter",
    "OrgTree",
    "Verdicts",
    "build_tree",
    "now",
    "relative_age",
]

PAGE_SIZE = 100
"""Rows per request for the lists shown page by page: the first rows show quickly, a big list takes few trips."""

STATUS_CYCLE: tuple[str, ...] = ("draft", "open", "archived", "merged", "all")
"""The inbox's status filter, in the order ``s`` steps through it (``all`` asks for every status)."""


def now() -> datetime:
    """The current time (UTC); tests monkeypatch ``folio.services.browse.now`` to freeze it."""
    return format.now()


def relative_age(when: datetime | None, at: datetime) -> str:
    """``when`` seen from ``at`` as a list shows it (``5 min ago``; empty when unknown): :func:`format.ago`."""
    return format.ago(when, at, unknown="")


# --- the collection tree -------------------------------------------------------------------------------------


@dataclass
class CollectionNode:
    """A collection with its nested collections and its spaces, each in the service's order."""

    collection: Collection
    children: list[CollectionNode] = field(default_factory=list)
    spaces: list[SpaceSummary] = field(default_factory=list)

    def space_count(self) -> int:
        """Spaces in this collection and every collection under it."""
        return len(self.spaces) + sum(child.space_count() for child in self.children)


@dataclass
class OrgTree:
    """An organization's content as the collections tab shows it: the top-level collections, and the spaces
    that are in no collection (or in one the caller cannot see)."""

    roots: list[CollectionNode] = field(default_factory=list)
    loose: list[SpaceSummary] = field(default_factory=list)


def build_tree(collections: Iterable[Collection], spaces: Iterable[SpaceSummary]) -> OrgTree:
    """Nest ``collections`` by parent and place ``spaces`` under theirs. A collection whose parent is unknown
    (or that would make a cycle) is shown at the top level; a space whose collection is unknown is loose."""
    nodes: dict[str, CollectionNode] = {}
    for collection in collections:
        nodes.setdefault(collection.id, CollectionNode(collection))
    tree = OrgTree()
    accepted: dict[str, str] = {}  # child -> parent, the links kept so far

    def makes_cycle(node_id: str, parent_id: str) -> bool:
        current: str | None = parent_id
        while current is not None:
            if current == node_id:
                return True
            current = accepted.get(current)
        return False

    for node in nodes.values():
        parent = node.collection.parent
        if parent and parent in nodes and not makes_cycle(node.collection.id, parent):
            accepted[node.collection.id] = parent
    for node in nodes.values():
        parent = accepted.get(node.collection.id)
        (nodes[parent].children if parent else tree.roots).append(node)
    for space in spaces:
        holder = nodes.get(space.parent) if space.parent else None
        (holder.spaces if holder is not None else tree.loose).append(space)
    return tree


# --- the change request inbox --------------------------------------------------------------------------------


@dataclass(frozen=True)
class InboxFilter:
    """What the organization's change request inbox shows: a status (or ``all``), and three narrowing
    switches. ``awaiting_me`` and ``mine`` are asked of the service; ``outdated`` is applied to what it sends
    (the list has no such parameter)."""

    status: str = "open"
    awaiting_me: bool = False
    mine: bool = False
    outdated: bool = False

    def next_status(self) -> InboxFilter:
        index = STATUS_CYCLE.index(self.status) if self.status in STATUS_CYCLE else 0
        return replace(self, status=STATUS_CYCLE[(index + 1) % len(STATUS_CYCLE)])

    def toggled(self, name: str) -> InboxFilter:
        """The same filter with one switch (``awaiting_me``, ``mine``, ``outdated``) flipped."""
        if name == "awaiting_me":
            return replace(self, awaiting_me=not self.awaiting_me)
        if name == "mine":
            return replace(self, mine=not self.mine)
        if name == "outdated":
            return replace(self, outdated=not self.outdated)
        raise ValueError(f"no such switch: {name}")

    @property
    def needs_me(self) -> bool:
        return self.awaiting_me or self.mine

    @property
    def statuses(self) -> tuple[str, ...]:
        return STATUS_CYCLE[:-1] if self.status == "all" else (self.status,)

    def describe(self) -> str:
        """The filter in words: ``open · awaiting my review · outdated``."""
        parts = ["every status" if self.status == "all" else self.status]
        if self.awaiting_me:
            parts.append("awaiting my review")
        if self.mine:
            parts.append("mine")
        if self.outdated:
            parts.append("outdated")
        return " · ".join(parts)


@dataclass(frozen=True)
class Verdicts:
    """The current reviews of a change request: how many reviewers approve and how many ask for changes
    (each reviewer's latest review that is not outdated)."""

    approved: int = 0
    changes_requested: int = 0

    def __str__(self) -> str:
        if not self.approved and not self.changes_requested:
            return "none"
        parts = []
        if self.approved:
            parts.append(f"✓{self.approved}")
        if self.changes_requested:
            parts.append(f"✗{self.changes_requested}")
        return " ".join(parts)


# --- the service ---------------------------------------------------------------------------------------------


class BrowseService:
    """What the browsing screens read: the user's organizations, and an organization's collections, spaces,
    change requests and sites."""

    def __init__(self, client: GitBookClient, *, where: str | None = None) -> None:
        self._client = client
        self.where = where or client.host
        """Where the data comes from, in words for the header (``api.gitbook.com``, ``demo sandbox``)."""

    async def organizations(self) -> list[Organization]:
        """Every organization the signed-in user belongs to, in the service's order (all pages)."""
        return await self._client.organizations.list().collect()

    async def organization(self, org_id: str) -> Organization:
        return await self._client.organizations.get(org_id)

    def age(self, when: datetime | None) -> str:
        """How long ago ``when`` was, from :func:`now` (``3d ago``)."""
        return relative_age(when, now())

    async def collections(self, org_id: str) -> list[Collection]:
        """Every collection of the organization, at any depth (all pages)."""
        return await self._client.collections.list(org_id, limit=PAGE_SIZE * 10).collect()

    async def spaces_pages(self, org_id: str, *, limit: int = PAGE_SIZE) -> AsyncIterator[list[SpaceSummary]]:
        """The organization's spaces (deleted ones left out), one page at a time, as a list shows them
        (:class:`SpaceSummary`: reading 10,000 costs a fraction of the full spaces)."""
        async for envelope in self._client.spaces.summaries(org_id, limit=limit).pages():
            yield list(envelope.items)

    async def change_request_pages(
        self, org_id: str, inbox: InboxFilter, *, me: str | None = None, limit: int = PAGE_SIZE
    ) -> AsyncIterator[list[ChangeRequestSummary]]:
        """The change requests of every space of the organization that ``inbox`` lets through, most recently
        updated first, one page at a time (a page may come back empty when ``outdated`` filters it all), as the
        inbox shows them (:class:`ChangeRequestSummary`: reading thousands costs a fraction of the full change
        requests). ``me`` (the signed-in user's id) is needed by the ``awaiting_me`` and ``mine`` switches."""
        if inbox.needs_me and not me:
            raise ValueError("the signed-in user's id is needed for this filter")
        paginator = self._client.change_requests.summaries_for_organization(
            org_id,
            status=list(inbox.statuses),
            creator=me if inbox.mine else None,
            requested_reviewer=me if inbox.awaiting_me else None,
            limit=limit,
        )
        async for envelope in paginator.pages():
            yield [cr for cr in envelope.items if cr.outdated or not inbox.outdated]

    async def verdicts(self, space_id: str, change_request_id: str) -> Verdicts:
        """What the reviewers of one change request say now (one request per change request: call it for the
        rows on screen, not for the whole list)."""
        latest: dict[str, tuple[datetime, str]] = {}
        epoch = datetime.min.replace(tzinfo=UTC)
        async for review in self._client.reviews.list(space_id, change_request_id, outdated=False):
            if review.outdated:
                continue
            who = review.reviewer.id if review.reviewer else review.id
            when = review.updated_at or review.created_at or epoch
            if who not in latest or when >= latest[who][0]:
                latest[who] = (when, review.status)
        statuses = [status for _, status in latest.values()]
        return Verdicts(statuses.count("approved"), statuses.count("changes-requested"))

    async def sites_pages(self, org_id: str, *, limit: int = PAGE_SIZE) -> AsyncIterator[list[Site]]:
        """The organization's sites, one page at a time."""
        async for envelope in self._client.sites.list(org_id, limit=limit).pages():
            yield list(envelope.items)

    async def aclose(self) -> None:
        await self._client.aclose()
