"""One space, as its screen shows it: the space's facts, its page tree, files, links and change requests.

The reads go through the client; what they return is shaped here for showing (flattened tree, sizes in words,
link targets named after the pages and files they point to), so the screen only draws. Nothing here imports
Textual; the pure helpers (:func:`flatten_pages`, :func:`human_size`, :func:`space_facts`...) are unit-tested.

    spaces = SpaceService(client)
    tree = await spaces.pages(space_id)
    report = await spaces.links(space_id, pages=tree)   # report.offered is False on a service without it
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from folio.api.errors import NotOffered
from folio.models.common import ContentRefFile, ContentRefPage, File, Page
from folio.models.emoji import as_character
from folio.models.space import Space, SpaceLike
from folio.services import format

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.change_request import ChangeRequest
    from folio.models.content import ContentLink

__all__ = [
    "CR_STATUSES",
    "FileEntry",
    "LinkEntry",
    "LinksReport",
    "PageEntry",
    "SpaceService",
    "change_request_cells",
    "deleted_note",
    "flatten_pages",
    "human_size",
    "next_cr_status",
    "space_facts",
    "space_label",
]

CR_STATUSES: tuple[str, ...] = ("open", "draft", "archived", "merged", "all")
"""The change request filter, in the order ``s`` cycles through it (``all`` reads the four lists)."""

_VISIBILITY_WORDS = {
    "public": "Public",
    "unlisted": "Unlisted",
    "share-link": "Shared by link",
    "visitor-auth": "Visitor authentication",
    "in-collection": "Same as its collection",
    "private": "Private",
}


def space_label(space: Space | None, fallback: str = "Space") -> str:
    """``🚀 Getting Started``: the space's emoji and title (its id when untitled)."""
    if space is None:
        return fallback
    title = space.title or space.id
    return f"{as_character(space.emoji)} {title}" if space.emoji else title


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def space_facts(space: Space) -> str:
    """The header line: visibility, edit mode, language, open change requests, open comments."""
    visibility = _VISIBILITY_WORDS.get(space.visibility, str(space.visibility).replace("-", " ").capitalize())
    mode = "Locked: no edits" if space.locked else "Live editing"
    parts = [visibility, mode, f"Language {space.language or 'not set'}"]
    parts.append(_count(space.change_requests_open, "open change request"))
    parts.append(_count(space.comments, "open comment"))
    if space.deleted:
        parts.insert(0, "Deleted (restorable)")
    return " · ".join(parts)


def deleted_note(space: SpaceLike) -> str | None:
    """``Deleted, restorable until 2026-11-08 09:00 UTC`` for a deleted space (None for a live one): what a
    screen that opens a deleted space says (the window is the trash's, ``folio.services.content.trash``)."""
    from folio.services.content.trash import restorable_until  # the lifecycle's rules live with the trash

    until = restorable_until(space)
    return None if until is None else f"Deleted, restorable until {format.stamp(until)}"


def next_cr_status(status: str) -> str:
    """The status ``s`` moves to after ``status``."""
    index = CR_STATUSES.index(status) if status in CR_STATUSES else -1
    return CR_STATUSES[(index + 1) % len(CR_STATUSES)]


def human_size(size: float | None) -> str:
    """Bytes in words a person reads: ``512 B``, ``48.2 kB``, ``1.3 MB`` (a dash when unknown)."""
    if size is None or size < 0:
        return "—"
    if size < 1000:
        return f"{size:.0f} B"
    value = float(size)
    for unit in ("kB", "MB", "GB", "TB"):
        value /= 1000
        if value < 999.95 or unit == "TB":
            return f"{value:.1f} {unit}"
    return f"{value:.1f} TB"  # pragma: no cover - the loop always returns


# --- pages --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PageEntry:
    """A page of the tree, flattened: the page, how deep it sits (0 at the root) and the tree guide drawn
    before its title (``├ ``, ``│ └ ``...), so the nesting shows even where leading spaces do not."""

    page: Page
    depth: int = 0
    guide: str = ""

    @property
    def kind(self) -> str:
        return str(self.page.type or "document")

    @property
    def url(self) -> str | None:
        """Where the page lives in the app; a link page's target."""
        if self.kind == "link":
            return self.page.href
        return self.page.urls.app if self.page.urls else None


def flatten_pages(pages: Iterable[Page], depth: int = 0, prefix: str = "") -> list[PageEntry]:
    """The tree in reading order (depth first), each page with its depth and guide."""
    out: list[PageEntry] = []
    siblings = list(pages)
    for index, page in enumerate(siblings):
        last = index == len(siblings) - 1
        guide = f"{prefix}{'└' if last else '├'} " if depth else ""
        out.append(PageEntry(page, depth, guide))
        below = f"{prefix}{'  ' if last else '│ '}" if depth else ""
        out.extend(flatten_pages(page.pages, depth + 1, below))
    return out


# --- files --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FileEntry:
    """A file of the space with its size and dimensions in words."""

    id: str
    name: str
    type: str
    size: str
    dimensions: str
    url: str | None

    @classmethod
    def of(cls, file: File) -> FileEntry:
        dims = file.dimensions
        return cls(
            id=file.id,
            name=file.name or file.id,
            type=file.content_type or "—",
            size=human_size(file.size),
            dimensions=f"{dims.width:.0f} x {dims.height:.0f}" if dims else "—",
            url=file.download_url,
        )

    @property
    def cells(self) -> tuple[str, ...]:
        """Name, type, size, dimensions."""
        return (self.name, self.type, self.size, self.dimensions)


# --- links --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LinkEntry:
    """One link target of the space: its status, what it points to (named), and the pages that use it."""

    status: str
    kind: str
    target: str
    label: str
    url: str | None = None
    used_on: tuple[str, ...] = ()

    @property
    def broken(self) -> bool:
        return self.status == "broken"

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.target or self.label}"

    @property
    def cells(self) -> tuple[str, ...]:
        """Status (broken ones marked), target, kind, the pages that use it."""
        return ("✗ broken" if self.broken else self.status, self.label, self.kind, ", ".join(self.used_on))


@dataclass(frozen=True)
class LinksReport:
    """The links list: ``offered`` is False when the service does not have the operation."""

    offered: bool = True
    links: list[LinkEntry] = field(default_factory=list)
    total: int = 0
    broken: int = 0

    @property
    def summary(self) -> str:
        """``3 broken of 12``."""
        return f"{self.broken} broken of {self.total}"


Named = dict[str, tuple[str, str | None]]
"""id -> (name, url): how a link's page and file targets are named."""


def _describe_link(link: ContentLink, pages: Named, files: Named) -> LinkEntry:
    ref = link.target_reference
    used_on = tuple(
        pages[loc.page][0] if loc.page in pages else loc.page
        for loc in link.location_references
        if isinstance(loc, ContentRefPage)
    )
    status = str(link.status)
    if isinstance(ref, ContentRefPage | ContentRefFile):
        if isinstance(ref, ContentRefPage):
            kind, target, known = "page", ref.page, pages
        else:
            kind, target, known = "file", ref.file, files
        if target not in known:
            return LinkEntry(status, kind, target, f"Missing {kind} {target}", None, used_on)
        name, url = known[target]
        return LinkEntry(status, kind, target, name or target, url, used_on)
    if ref is None:
        return LinkEntry(status, "unknown", "", "(no target)", None, used_on)
    extra = ref.model_extra or {}
    url = extra["url"] if isinstance(extra.get("url"), str) else None
    kind = str(getattr(ref, "kind", "other"))
    target = url or next((v for v in extra.values() if isinstance(v, str)), "")
    return LinkEntry(status, kind, target, url or f"{kind} {target}".strip(), url, used_on)


def change_request_cells(cr: ChangeRequest) -> tuple[str, ...]:
    """Number, subject, status, author, last update (relative, as every list says it), open comments."""
    author = cr.created_by.display_name if cr.created_by else ""
    updated = format.ago(cr.updated_at)
    return (f"#{cr.number}", cr.subject or "Untitled", str(cr.status), author or "—", updated, str(cr.comments))


# --- the service ---------------------------------------------------------------------------------------------


class SpaceService:
    """What the space screen reads, over one client."""

    def __init__(self, client: GitBookClient) -> None:
        self._client = client

    async def space(self, space_id: str) -> Space:
        return await self._client.spaces.get(space_id)

    async def pages(self, space_id: str) -> list[PageEntry]:
        """The space's page tree, flattened in reading order."""
        listing = await self._client.content.pages(space_id)
        return flatten_pages(listing.pages)

    async def page_markdown(self, space_id: str, page: Page) -> str:
        """The page's markdown: from the tree when it came with it, read on its own otherwise."""
        if page.markdown is not None:
            return page.markdown
        full = await self._client.content.page(space_id, page.id, format="markdown")
        return full.markdown or ""

    async def files(self, space_id: str) -> list[FileEntry]:
        files = await self._client.content.files(space_id, limit=1000).collect()
        return [FileEntry.of(f) for f in files]

    async def links(
        self,
        space_id: str,
        *,
        pages: Sequence[PageEntry] | None = None,
        files: Sequence[FileEntry] | None = None,
    ) -> LinksReport:
        """The space's links with their targets named; ``offered=False`` when the service lacks the list.
        ``pages`` and ``files`` (when the caller has them) save reading them again to name the targets."""
        raw: list[ContentLink] = []
        total = broken = None
        try:
            async for envelope in self._client.spaces.links(space_id, limit=1000).pages():
                raw.extend(envelope.items)
                stats = getattr(envelope, "stats", None)
                if stats is not None and total is None:
                    total, broken = stats.total, stats.broken.total
        except NotOffered:
            return LinksReport(offered=False)
        page_list, file_list = await asyncio.gather(
            self._pages_for(space_id, pages, raw), self._files_for(space_id, files, raw)
        )
        by_page = {e.page.id: (e.page.title, e.url) for e in page_list}
        by_file = {f.id: (f.name, f.url) for f in file_list}
        entries = [_describe_link(link, by_page, by_file) for link in raw]
        return LinksReport(
            offered=True,
            links=entries,
            total=total if total is not None else len(entries),
            broken=broken if broken is not None else sum(1 for e in entries if e.broken),
        )

    async def _pages_for(
        self, space_id: str, pages: Sequence[PageEntry] | None, raw: list[ContentLink]
    ) -> Sequence[PageEntry]:
        if pages is not None or not raw:
            return pages or []
        return await self.pages(space_id)

    async def _files_for(
        self, space_id: str, files: Sequence[FileEntry] | None, raw: list[ContentLink]
    ) -> Sequence[FileEntry]:
        if files is not None:
            return files
        if not any(isinstance(link.target_reference, ContentRefFile) for link in raw):
            return []
        return await self.files(space_id)

    async def change_requests(self, space_id: str, status: str = "open") -> list[ChangeRequest]:
        """The space's change requests with ``status`` (``all``: every status), most recently updated first."""
        if status != "all":
            return await self._client.change_requests.list(space_id, status=status, limit=1000).collect()
        lists = await asyncio.gather(
            *(
                self._client.change_requests.list(space_id, status=s, limit=1000).collect()
                for s in CR_STATUSES
                if s != "all"
            )
        )
        seen: dict[str, ChangeRequest] = {}
        for cr in (cr for group in lists for cr in group):
            seen.setdefault(cr.id, cr)
        return sorted(
            seen.values(),
            key=lambda cr: (cr.updated_at.timestamp() if cr.updated_at else float("-inf"), cr.number),
            reverse=True,
        )
