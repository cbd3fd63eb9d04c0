"""Review lint: what a careful reviewer checks in a change request before it merges, read from the content.

    lint = services.review_lint
    broken = await lint.introduced_broken_links(space_id, cr_id)   # BrokenLink: page_id, page_title, target

A broken link is "introduced" when the change request's content has it broken (the page's links in the change
request, counted by their ``broken.changeRequest`` stats) and main does not already have the same link broken on
the same page. Only the pages that can differ are asked: the pages the change request created or edited, and the
pages that link (on main) to a page or file the change request removed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from folio.api.errors import NotFound, NotOffered

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.common import Page
    from folio.models.content import ContentLink
    from folio.services import Services

__all__ = ["BrokenLink", "ReviewLint", "target_key"]

PARALLEL = 4
"""Page link reads in flight at once."""

TargetKey = tuple[str, str]


@dataclass(frozen=True)
class BrokenLink:
    """A link of page ``page_id`` (titled ``page_title`` in the change request) to ``target`` (the missing page's
    title on main, a file's name, or a url), broken by the change request."""

    page_id: str
    page_title: str
    target: str


def target_key(link: ContentLink) -> TargetKey | None:
    """What a link points at, comparable across revisions: (``page``, id), (``file``, id) or (kind, url)."""
    ref = link.target_reference
    if ref is None:
        return None
    if ref.kind == "page":
        return "page", str(getattr(ref, "page", ""))
    if ref.kind == "file":
        return "file", str(getattr(ref, "file", ""))
    extra = ref.model_extra or {}
    return ref.kind, str(extra.get("url") or extra.get(ref.kind) or "")


def _locations(link: ContentLink) -> list[str]:
    return [str(getattr(ref, "page", "")) for ref in link.location_references if ref.kind == "page"]


def _body(page: Page) -> str | None:
    return page.markdown if page.type == "document" else None


class ReviewLint:
    """The checks of the review lint pane, over the API client (reads only)."""

    def __init__(self, client: GitBookClient, services: Services | None = None) -> None:
        self._client = client
        self._services = services

    # -- broken links -------------------------------------------------------------------------------------------

    async def introduced_broken_links(self, space_id: str, cr_id: str) -> list[BrokenLink]:
        """The links the change request breaks (see the module), in the change request's page order.

        Raises ``NotOffered`` when the service has no page links read."""
        content = self._client.content
        head, main = await asyncio.gather(content.pages(space_id, change_request=cr_id), content.pages(space_id))
        head_pages = {p.id: p for p in head.walk()}
        main_pages = {p.id: p for p in main.walk()}
        main_links = await self._main_links(space_id)
        if main_links is None:
            candidates = [p for p in head_pages.values() if p.type == "document"]
            already = await self._broken_on_main(space_id, [p.id for p in candidates if p.id in main_pages])
        else:
            gone = await self._gone_targets(space_id, cr_id, head_pages, main_links)
            linking = {loc for link in main_links if target_key(link) in gone for loc in _locations(link)}
            candidates = [
                p
                for p in head_pages.values()
                if p.type == "document"
                and (p.id in linking or p.id not in main_pages or _body(main_pages[p.id]) != _body(p))
            ]
            already = {
                (loc, key)
                for link in main_links
                if link.broken and (key := target_key(link)) is not None
                for loc in _locations(link)
            }
        semaphore = asyncio.Semaphore(PARALLEL)

        async def one(page: Page) -> list[tuple[Page, TargetKey]]:
            async with semaphore:
                links = await self._broken_in_change_request(space_id, cr_id, page.id)
            keys = [key for link in links if (key := target_key(link)) is not None]
            return [(page, key) for key in dict.fromkeys(keys) if (page.id, key) not in already]

        found = [item for items in await asyncio.gather(*(one(p) for p in candidates)) for item in items]
        files = await self._file_names(space_id) if any(key[0] == "file" for _, key in found) else {}
        return [BrokenLink(p.id, p.title or "Untitled", _describe(key, main_pages, files)) for p, key in found]

    async def _main_links(self, space_id: str) -> list[ContentLink] | None:
        """Every link of main with where it is used (None: the service has no space links read)."""
        try:
            return await self._client.spaces.links(space_id).collect()
        except NotOffered:
            return None

    async def _gone_targets(
        self, space_id: str, cr_id: str, head: dict[str, Page], main_links: Iterable[ContentLink]
    ) -> set[TargetKey]:
        """The pages and files main links to that the change request no longer has."""
        keys = {key for link in main_links if (key := target_key(link)) is not None}
        gone: set[TargetKey] = {key for key in keys if key[0] == "page" and key[1] not in head}
        if any(kind == "file" for kind, _ in keys):
            kept = {f.id for f in await self._client.content.files(space_id, change_request=cr_id).collect()}
            gone |= {key for key in keys if key[0] == "file" and key[1] not in kept}
        return gone

    async def _file_names(self, space_id: str) -> dict[str, str]:
        """Main's files by id, to name a removed file a link still points at."""
        try:
            return {f.id: f.name or f.id for f in await self._client.content.files(space_id).collect()}
        except NotFound:
            return {}

    async def _broken_on_main(self, space_id: str, page_ids: list[str]) -> set[tuple[str, TargetKey]]:
        """(page, target) of the links already broken on main, page by page (when there is no space links read)."""
        semaphore = asyncio.Semaphore(PARALLEL)

        async def one(page_id: str) -> set[tuple[str, TargetKey]]:
            async with semaphore:
                items = await self._client.content.page_links(space_id, page_id, status="broken").collect()
            return {(page_id, key) for link in items if (key := target_key(link)) is not None}

        found = await asyncio.gather(*(one(pid) for pid in page_ids))
        return set().union(*found) if found else set()

    async def _broken_in_change_request(self, space_id: str, cr_id: str, page_id: str) -> list[ContentLink]:
        """The broken links of one page of the change request, when its stats count any in the change request."""
        links = self._client.content.page_links(space_id, page_id, change_request=cr_id, status="broken")
        try:
            first = await links.fetch()
        except NotOffered:
            raise
        except NotFound:  # the page is gone from the change request since its page list was read
            return []
        if first.stats is not None and first.stats.broken.change_request == 0:
            return []
        items = [link for link in first.items if link.broken]
        cursor, seen = first.next_page, set[str]()
        while cursor and cursor not in seen:
            seen.add(cursor)
            more = await links.fetch(cursor)
            items.extend(link for link in more.items if link.broken)
            cursor = more.next_page
        return items


def _describe(key: TargetKey, main_pages: dict[str, Page], files: dict[str, str]) -> str:
    kind, value = key
    if kind == "page":
        page = main_pages.get(value)
        return f"page “{page.title or 'Untitled'}” (removed)" if page is not None else f"a missing page ({value})"
    if kind == "file":
        return f"file “{files[value]}” (removed)" if value in files else f"a missing file ({value})"
    return value or kind
