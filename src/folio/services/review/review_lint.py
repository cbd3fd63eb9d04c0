"""Review lint: what a careful reviewer checks in a change request before it merges, read from the content.

    lint = services.review_lint
    broken = await lint.introduced_broken_links(space_id, cr_id)   # BrokenLink: page_id, page_title, target
    report = await lint.lint(space_id, cr)                           # LintReport: items, each on one page

A broken link is "introduced" when the change request's content has it broken (the page's links in the change
request, counted by their ``broken.changeRequest`` stats) and main does not already have the same link broken on
the same page. Only the pages that can differ are asked: the pages the change request created or edited, and the
pages that link (on main) to a page or file the change request removed. Main's links come from the space's links
list, or page by page where the service has no such list.

The lint also lists the pages moved or deleted that other pages link to (and the files removed that pages use,
from the files' backlinks), the pages left empty, the changed pages without a description, and very large
deletions (more than :data:`LARGE_LINES` lines, or more than half of a page of :data:`SMALL_PAGE` lines or more).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, TypeVar

from folio.api.errors import NotFound, NotOffered
from folio.services.review.diff import diff_markdown
from folio.services.review.review import ChangeSet, PageChange, build_change_set

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.change_request import ChangeRequest
    from folio.models.common import Page
    from folio.models.content import ContentLink
    from folio.services import Services

__all__ = [
    "LARGE_LINES",
    "BrokenLink",
    "Kind",
    "LintItem",
    "LintReport",
    "ReviewLint",
    "is_empty",
    "lint_pages",
    "target_key",
]

PARALLEL = 4
"""Page link reads in flight at once."""
LARGE_LINES = 200
"""A deletion of more lines than this is very large, whatever the page's size."""
SMALL_PAGE = 10
"""Pages shorter than this (in lines) are not said to lose "half of the page"."""

TargetKey = tuple[str, str]
LinkUse = tuple[str, TargetKey, bool]
"""(the page a link is on, what it points at, whether it is broken) on main."""
Kind = Literal["broken-link", "linked", "large-deletion", "empty", "no-description"]
KINDS: tuple[Kind, ...] = ("broken-link", "linked", "large-deletion", "empty", "no-description")
T = TypeVar("T")


@dataclass(frozen=True)
class BrokenLink:
    """A link of page ``page_id`` (titled ``page_title`` in the change request) to ``target`` (the missing page's
    title on main, a file's name, or a url), broken by the change request."""

    page_id: str
    page_title: str
    target: str


@dataclass(frozen=True)
class LintItem:
    """One finding, on page ``page_id`` (where ``enter`` shows the diff)."""

    kind: Kind
    page_id: str
    page_title: str
    text: str


@dataclass
class LintReport:
    """Every finding, most serious kind first; ``unchecked`` says what could not be checked and why."""

    items: list[LintItem]
    unchecked: list[str] = field(default_factory=list)

    def count(self, kind: Kind) -> int:
        return sum(1 for item in self.items if item.kind == kind)


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


def _body(page: Page) -> str | None:
    return page.markdown if page.type == "document" else None


def _lines(text: str | None) -> int:
    return len((text or "").splitlines())


HEADING = re.compile(r"^\s*#{1,6}\s.*$", re.MULTILINE)


def is_empty(markdown: str | None) -> bool:
    """Nothing but headings and blank lines (a page that only repeats its title is empty)."""
    return not HEADING.sub("", markdown or "").strip()


def lint_pages(changes: ChangeSet, head: dict[str, Page]) -> list[LintItem]:
    """The content findings of the changed pages (pure): large deletions, empty pages, missing descriptions."""
    out: list[LintItem] = []
    for page in changes.changed:
        title = page.title
        if page.document and page.before is not None:
            out.extend(_deletion(page))
        if "deleted" in page.kinds or not page.document:
            continue
        if ("created" in page.kinds or "edited" in page.kinds) and is_empty(page.after):
            out.append(LintItem("empty", page.id, title, "The page is empty: no text under its title."))
        record = head.get(page.id)
        if record is not None and not (record.description or "").strip():
            out.append(
                LintItem("no-description", page.id, title, "The page has no description (search and links show it).")
            )
    return out


def _deletion(page: PageChange) -> list[LintItem]:
    before = _lines(page.before)
    if page.after is None:
        if before > LARGE_LINES:
            return [LintItem("large-deletion", page.id, page.title, f"Deletes the page and its {before} lines.")]
        return []
    removed = diff_markdown(page.before, page.after).removed
    share = removed / before if before else 0.0
    if removed > LARGE_LINES or (before >= SMALL_PAGE and share > 0.5):
        return [
            LintItem("large-deletion", page.id, page.title, f"Removes {removed} of its {before} lines ({share:.0%}).")
        ]
    return []


async def _bounded(items: Iterable[T], one: Callable[[T], Awaitable[list[LinkUse]]]) -> list[LinkUse]:
    semaphore = asyncio.Semaphore(PARALLEL)

    async def run(item: T) -> list[LinkUse]:
        async with semaphore:
            return await one(item)

    found = await asyncio.gather(*(run(item) for item in items))
    return [use for uses in found for use in uses]


class ReviewLint:
    """The checks of the review lint pane, over the API client (reads only)."""

    def __init__(self, client: GitBookClient, services: Services | None = None) -> None:
        self._client = client
        self._services = services

    # -- the whole lint -----------------------------------------------------------------------------------------

    async def lint(self, space_id: str, cr: ChangeRequest) -> LintReport:
        """Every finding on ``cr``; the link checks are left out (and said so) where the service has no links."""
        content = self._client.content
        base_id = cr.base_revision
        head, base, main, listed = await asyncio.gather(
            content.pages(space_id, change_request=cr.id),
            content.pages(space_id, revision=base_id) if base_id else content.pages(space_id),
            content.pages(space_id),
            self._client.change_requests.changes(space_id, cr.id, limit=1000),
        )
        changes = build_change_set(cr, base.pages, head.pages, listed.changes)
        head_pages = {p.id: p for p in head.walk()}
        main_pages = {p.id: p for p in main.walk()}
        items = lint_pages(changes, head_pages)
        unchecked: list[str] = []
        try:
            uses = await self._main_links(space_id, main_pages)
            broken = await self._introduced(space_id, cr.id, head_pages, main_pages, uses)
            items += [LintItem("broken-link", b.page_id, b.page_title, f"Links to {b.target}.") for b in broken]
            items += self._linked(changes, uses, main_pages)
            items += await self._files_in_use(space_id, cr.id)
        except NotOffered:
            unchecked.append("Links: this service does not offer the links of pages.")
        order = {kind: n for n, kind in enumerate(KINDS)}
        index = {p.id: n for n, p in enumerate(changes.pages)}
        items.sort(key=lambda i: (order[i.kind], index.get(i.page_id, len(index))))
        return LintReport(items, unchecked)

    def _linked(self, changes: ChangeSet, uses: list[LinkUse], main: dict[str, Page]) -> list[LintItem]:
        """The pages deleted or moved that other pages (of main, not deleted themselves) link to."""
        deleted = {p.id for p in changes.changed if "deleted" in p.kinds}
        out = []
        for page in changes.changed:
            what = (
                "Deleted"
                if "deleted" in page.kinds
                else "Moved (its address changes)"
                if "moved" in page.kinds
                else None
            )
            if what is None:
                continue
            sources = sorted(
                {loc for loc, key, _ in uses if key == ("page", page.id) and loc not in deleted | {page.id}}
            )
            if sources:
                names = ", ".join(f"“{main[s].title}”" if s in main else s for s in sources[:3])
                more = f" and {len(sources) - 3} more" if len(sources) > 3 else ""
                out.append(LintItem("linked", page.id, page.title, f"{what}; linked from {names}{more}."))
        return out

    async def _files_in_use(self, space_id: str, cr_id: str) -> list[LintItem]:
        """The files the change request removed that pages of main still use (their backlinks)."""
        content = self._client.content
        main_files, kept = await asyncio.gather(
            content.files(space_id).collect(), content.files(space_id, change_request=cr_id).collect()
        )
        ids = {f.id for f in kept}
        out = []
        for file in (f for f in main_files if f.id not in ids):
            try:
                records = await content.file_backlinks(space_id, file.id).collect()
            except NotOffered:
                continue
            pages = [r.page for r in records if r.page is not None]
            if pages:
                names = ", ".join(f"“{p.title}”" for p in pages[:3])
                text = f"Removes the file “{file.name or file.id}”, used on {names}."
                out.append(LintItem("linked", pages[0].id, pages[0].title, text))
        return out

    # -- broken links -------------------------------------------------------------------------------------------

    async def introduced_broken_links(self, space_id: str, cr_id: str) -> list[BrokenLink]:
        """The links the change request breaks (see the module), in the change request's page order.

        Raises ``NotOffered`` when the service has no page links read."""
        content = self._client.content
        head, main = await asyncio.gather(content.pages(space_id, change_request=cr_id), content.pages(space_id))
        head_pages = {p.id: p for p in head.walk()}
        main_pages = {p.id: p for p in main.walk()}
        uses = await self._main_links(space_id, main_pages)
        return await self._introduced(space_id, cr_id, head_pages, main_pages, uses)

    async def _introduced(
        self, space_id: str, cr_id: str, head: dict[str, Page], main: dict[str, Page], uses: list[LinkUse]
    ) -> list[BrokenLink]:
        gone = await self._gone_targets(space_id, cr_id, head, uses)
        linking = {loc for loc, key, _ in uses if key in gone}
        candidates = [
            p
            for p in head.values()
            if p.type == "document" and (p.id in linking or p.id not in main or _body(main[p.id]) != _body(p))
        ]
        already = {(loc, key) for loc, key, broken in uses if broken}
        semaphore = asyncio.Semaphore(PARALLEL)

        async def one(page: Page) -> list[tuple[Page, TargetKey]]:
            async with semaphore:
                links = await self._broken_in_change_request(space_id, cr_id, page.id)
            keys = [key for link in links if (key := target_key(link)) is not None]
            return [(page, key) for key in dict.fromkeys(keys) if (page.id, key) not in already]

        found = [item for items in await asyncio.gather(*(one(p) for p in candidates)) for item in items]
        files = await self._file_names(space_id) if any(key[0] == "file" for _, key in found) else {}
        return [BrokenLink(p.id, p.title or "Untitled", _describe(key, main, files)) for p, key in found]

    async def _main_links(self, space_id: str, main: dict[str, Page]) -> list[LinkUse]:
        """Every link of main: from the space's links list, or page by page when the service has none."""
        try:
            links = await self._client.spaces.links(space_id).collect()
        except NotOffered:
            pass
        else:
            return [
                (str(getattr(ref, "page", "")), key, link.broken)
                for link in links
                if (key := target_key(link)) is not None
                for ref in link.location_references
                if ref.kind == "page"
            ]

        async def one(page_id: str) -> list[LinkUse]:
            items = await self._client.content.page_links(space_id, page_id).collect()
            return [(page_id, key, link.broken) for link in items if (key := target_key(link)) is not None]

        return await _bounded([pid for pid, p in main.items() if p.type == "document"], one)

    async def _gone_targets(
        self, space_id: str, cr_id: str, head: dict[str, Page], uses: list[LinkUse]
    ) -> set[TargetKey]:
        """The pages and files main links to that the change request no longer has."""
        keys = {key for _, key, _ in uses}
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
