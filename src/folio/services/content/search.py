"""Searching content: an organization's (results by space, then page, then section) or one space's, a page of
results at a time, with the earlier searches kept per organization.

    search = SearchService(client)
    problem = check_words(words)                       # None, or why it cannot be sent (checked first)
    page = await search.organization(org_id, words)     # page.spaces, page.next (None: the last page)
    more = await search.organization(org_id, words, page=page.next)
    spans = match_spans("Install the agent", words)     # where the words are, to highlight them

The pure parts (:func:`check_words`, :func:`match_spans`, :func:`anchor_of`, :func:`section_index`,
:class:`SearchHistory`) are unit-tested; the service never imports Textual.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from folio.services.errors import Invalid

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.search import SearchPageResult, SearchSection, SearchSpaceResult

__all__ = [
    "HISTORY_MAX",
    "PAGE_SIZE",
    "QUERY_MAX",
    "PageHit",
    "SearchHistory",
    "SearchPage",
    "SearchService",
    "SectionHit",
    "SpaceHits",
    "anchor_of",
    "check_words",
    "heading_slugs",
    "match_spans",
    "section_index",
]

QUERY_MAX = 512
"""Spec sections 4.4b, 4.7 and 8: a search ``query`` is at most 512 characters."""
PAGE_SIZE = 20
"""Results per request: an organization's spaces (each with its pages), or a space's pages."""
HISTORY_MAX = 50
"""Earlier searches kept per organization (the oldest go first)."""


def check_words(words: str) -> str | None:
    """Why ``words`` cannot be sent as a search (None: they can): nothing typed, or over the spec's limit."""
    if not words.strip():
        return "Type the words to look for."
    if len(words) > QUERY_MAX:
        return f"A search is at most {QUERY_MAX} characters; this one has {len(words):,}. Nothing was sent."
    return None


def _terms(words: str) -> list[str]:
    """The phrase, then each word of it, longest first (so a long match wins where two overlap)."""
    phrase = " ".join(words.split())
    terms = {phrase, *phrase.split(" ")} if phrase else set()
    return sorted((t for t in terms if t), key=len, reverse=True)


def match_spans(text: str, words: str) -> list[tuple[int, int]]:
    """Where the searched words (or the whole phrase) occur in ``text``, any case: ``(start, end)`` offsets,
    in order, overlaps merged. Offsets are into ``text`` as given (match on the text that is shown)."""
    found: list[tuple[int, int]] = []
    for term in _terms(words):
        found.extend(m.span() for m in re.finditer(re.escape(term), text, flags=re.IGNORECASE))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(found):
        if start == end:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def heading_slugs(heading: str) -> set[str]:
    """The anchors a heading may have in a URL's fragment: GitBook's slug (lower case, every other run of
    characters a dash), with and without its accents, and GitHub's (spaces to dashes, punctuation dropped)."""
    lower = " ".join(heading.split()).casefold()
    bare = "".join(c for c in unicodedata.normalize("NFKD", lower) if not unicodedata.combining(c))
    found = {re.sub(r"[^\w]+", "-", text, flags=re.UNICODE).strip("-_") for text in (lower, bare)}
    found.add(re.sub(r"[^a-z0-9]+", "-", bare).strip("-"))
    found.add(re.sub(r"[^\w\- ]", "", lower).replace(" ", "-"))
    return {slug for slug in found if slug}


def section_index(headings: Iterable[str], anchor: str) -> int | None:
    """Which of a page's ``headings`` (in order) the section ``anchor`` is (None: none of them; the first
    of equal headings)."""
    wanted = anchor.strip().lstrip("#").casefold()
    if not wanted:
        return None
    for index, heading in enumerate(headings):
        if wanted in heading_slugs(heading):
            return index
    return None


def anchor_of(section: SearchSection) -> str | None:
    """The anchor of a matching section in its page (the heading's slug, as in the URL's fragment)."""
    for value in (section.id, section.path, section.urls.app if section.urls else None):
        if value and "#" in value:
            return value.rsplit("#", 1)[1] or None
    return section.id or None


# --- results --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SectionHit:
    """A matching section of a page: its heading, the text around the match, its anchor and web URL."""

    id: str
    title: str
    body: str
    anchor: str | None
    url: str | None


@dataclass(frozen=True)
class PageHit:
    """A matching page: its title, where it sits (the titles above it) and its matching sections."""

    id: str
    title: str
    path: str | None
    ancestors: tuple[str, ...]
    url: str | None
    sections: tuple[SectionHit, ...]


@dataclass
class SpaceHits:
    """A space's matching pages (``title`` empty when the service did not name the space)."""

    id: str
    title: str
    pages: list[PageHit] = field(default_factory=list)


@dataclass
class SearchPage:
    """One page of results, by space; ``next`` is where the next page starts (None: this was the last)."""

    spaces: list[SpaceHits]
    next: str | None = None

    @property
    def page_count(self) -> int:
        return sum(len(s.pages) for s in self.spaces)

    @property
    def section_count(self) -> int:
        return sum(len(p.sections) for s in self.spaces for p in s.pages)


def _section(section: SearchSection) -> SectionHit:
    url = section.urls.app if section.urls else None
    return SectionHit(section.id, section.title, section.body, anchor_of(section), url)


def _page(page: SearchPageResult) -> PageHit:
    return PageHit(
        id=page.id,
        title=page.title,
        path=page.path,
        ancestors=tuple(a.title for a in page.ancestors if a.title),
        url=page.urls.app if page.urls else None,
        sections=tuple(_section(s) for s in page.sections),
    )


def space_hits(results: Iterable[SearchSpaceResult]) -> list[SpaceHits]:
    """An organization's results as the screen groups them."""
    return [SpaceHits(r.id, r.title, [_page(p) for p in r.pages]) for r in results]


def merge_pages(shown: list[SpaceHits], more: list[SpaceHits]) -> list[SpaceHits]:
    """``shown`` followed by the next page ``more``; a space on both keeps one group (its pages once)."""
    by_id = {s.id: s for s in shown}
    out = list(shown)
    for group in more:
        kept = by_id.get(group.id)
        if kept is None:
            out.append(group)
            by_id[group.id] = group
            continue
        seen = {p.id for p in kept.pages}
        kept.pages.extend(p for p in group.pages if p.id not in seen)
    return out


# --- history --------------------------------------------------------------------------------------------------


class SearchHistory:
    """Earlier searches per organization, oldest first, for ``up`` in the query box. Kept in memory for the
    run: the local state has no store for it (drafts, the outbox and the session only)."""

    def __init__(self, most: int = HISTORY_MAX) -> None:
        self.most = most
        self._lines: dict[str, list[str]] = {}

    def lines(self, scope: str) -> list[str]:
        """The list itself (a query box reads it as it grows)."""
        return self._lines.setdefault(scope, [])

    def add(self, scope: str, words: str) -> None:
        """Keep ``words`` as the newest search of ``scope`` (moved to the end if it was there)."""
        words = words.strip()
        if not words or len(words) > QUERY_MAX:
            return
        lines = self.lines(scope)
        if words in lines:
            lines.remove(words)
        lines.append(words)
        del lines[: max(0, len(lines) - self.most)]


# --- the service ----------------------------------------------------------------------------------------------


class SearchService:
    """Search over the client: an organization's content, or one space's; one page of results per call."""

    def __init__(self, client: GitBookClient) -> None:
        self._client = client
        self.history = SearchHistory()

    async def organization(
        self, org_id: str, words: str, *, page: str | None = None, limit: int = PAGE_SIZE
    ) -> SearchPage:
        """The organization's spaces whose pages match ``words``, best first (checked first: see
        :func:`check_words`; a refused search raises ValueError and sends nothing)."""
        _refuse(words)
        envelope = await self._client.organizations.search(org_id, words, limit=limit).fetch(page, limit=limit)
        return SearchPage(space_hits(envelope.items), envelope.next_page)

    async def space(
        self, space_id: str, words: str, *, title: str = "", page: str | None = None, limit: int = PAGE_SIZE
    ) -> SearchPage:
        """The space's pages that match ``words``, best first, as one group (named ``title``)."""
        _refuse(words)
        envelope = await self._client.spaces.search(space_id, words, limit=limit).fetch(page, limit=limit)
        return SearchPage([SpaceHits(space_id, title, [_page(p) for p in envelope.items])], envelope.next_page)


def _refuse(words: str) -> None:
    problem = check_words(words)
    if problem is not None:
        raise Invalid(problem)
