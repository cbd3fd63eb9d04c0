"""Searching content (spec 4.4b and 4.7): case-insensitive matches of the query in page titles, descriptions
and the text of their sections (a page's markdown split at its headings), over the current revision of live
spaces. Link pages are skipped.

A page matching on its title or description is a ``page`` result (score 3, plus its sections'); a page
matching only in sections is a ``section`` result. A section scores 2 when its heading matches, 1 when only its
text does; its ``body`` is a snippet around the first match. A space's search answers pages best first,
ranked from 1 (``SearchPageResult``); an organization's answers spaces (``SearchSpaceResult``: the space's
score is its pages' sum), best first, with every page ranked across the whole organization.
"""

from __future__ import annotations

import re

from folio.sandbox.revisions import slugify, walk
from folio.sandbox.state import Record, SandboxState

SNIPPET = 160
_HEADING = re.compile(r"^#{1,6}\s+(.*)$")


def sections(markdown: str, title: str) -> list[tuple[str, str]]:
    """(heading, body text) of each section; the text before the first subheading belongs to the title."""
    out: list[tuple[str, list[str]]] = [(title, [])]
    for line in markdown.split("\n"):
        heading = _HEADING.match(line)
        if heading:
            if not out[-1][1] and out[-1][0] == title and len(out) == 1:
                out[-1] = (heading.group(1).strip(), [])
            else:
                out.append((heading.group(1).strip(), []))
            continue
        out[-1][1].append(line)
    return [(h, " ".join(" ".join(body).split())) for h, body in out]


def snippet(text: str, query: str) -> str:
    index = text.lower().find(query.lower())
    if index < 0 or len(text) <= SNIPPET:
        return text[:SNIPPET] + ("…" if len(text) > SNIPPET else "")
    start = max(0, index - SNIPPET // 3)
    end = min(len(text), start + SNIPPET)
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


def search(state: SandboxState, space: Record, query: str) -> list[Record]:
    """Every page of the space's current revision that matches, best first, ranked from 1."""
    return _rank(_matches(state, space, query))


def _rank(results: list[tuple[float, int, Record]]) -> list[Record]:
    """The results best first (in tree order on a tie), each with its one-based ``rank``."""
    results.sort(key=lambda r: (-r[0], r[1]))
    ranked = []
    for rank, (_, _, item) in enumerate(results, start=1):
        item["rank"] = rank
        ranked.append(item)
    return ranked


def search_organization(state: SandboxState, org: str, query: str) -> list[Record]:
    """Every live space of the organization with matching pages, best first (title on a tie); pages are
    ranked across the organization."""
    spaces = [s for s in state.spaces.values() if s.get("organization") == org and not s.get("deletedAt")]
    found: list[tuple[float, int, Record]] = []
    space_of: dict[int, str] = {}
    for space in spaces:
        if space.get("revision") not in state.revisions:
            continue
        for score, _, item in _matches(state, space, query):
            space_of[id(item)] = space["id"]
            found.append((score, len(found), item))
    pages: dict[str, list[Record]] = {}
    for item in _rank(found):
        pages.setdefault(space_of[id(item)], []).append(item)
    out = [
        {
            "type": "space",
            "id": space["id"],
            "title": space.get("title", ""),
            "score": sum(float(p["score"]) for p in pages[space["id"]]),
            "pages": pages[space["id"]],
        }
        for space in spaces
        if space["id"] in pages
    ]
    out.sort(key=lambda r: (-r["score"], r["title"].lower(), r["id"]))
    return out


def _matches(state: SandboxState, space: Record, query: str) -> list[tuple[float, int, Record]]:
    """(score, order in the page tree, SearchPageResult without its rank) of every matching page."""
    needle = query.lower()
    revision = state.revisions[space["revision"]]
    app = f"{state.app_base}/o/{space['organization']}/s/{space['id']}"
    parents: dict[str, tuple[str | None, str]] = {}
    results: list[tuple[float, int, Record]] = []
    for order, (page, parent, path) in enumerate(walk(revision.get("pages") or [])):
        parents[page["id"]] = (parent["id"] if parent else None, page.get("title", ""))
        if page.get("type") == "link":
            continue
        title = page.get("title", "")
        page_hit = needle in title.lower() or needle in (page.get("description") or "").lower()
        found: list[Record] = []
        for heading, body in sections(page.get("markdown") or "", title):
            if needle in heading.lower() or needle in body.lower():
                anchor = slugify(heading)
                score = 2.0 if needle in heading.lower() else 1.0
                found.append(
                    {
                        "id": f"{page['id']}#{anchor}",
                        "title": heading,
                        "path": f"{path}#{anchor}",
                        "score": score,
                        "resultType": "section",
                        "body": snippet(body, query),
                        "urls": {"app": f"{app}/{path}#{anchor}"},
                    }
                )
        if not page_hit and not found:
            continue
        ancestors: list[Record] = []
        up = parent["id"] if parent else None
        while up is not None:
            ancestors.insert(0, {"title": parents[up][1]})
            up = parents[up][0]
        score = (3.0 if page_hit else 0.0) + sum(float(s["score"]) for s in found)
        results.append(
            (
                score,
                order,
                {
                    "id": page["id"],
                    "title": title,
                    "description": page.get("description") or "",
                    "path": path,
                    "score": score,
                    "resultType": "page" if page_hit else "section",
                    "sections": found,
                    "ancestors": ancestors,
                    "urls": {"app": f"{app}/{path}"},
                },
            )
        )
    return results
