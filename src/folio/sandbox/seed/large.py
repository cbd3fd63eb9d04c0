"""Seed at ``--scale``: a space of 220 pages and one large change request on it, to measure opening a diff and
scrolling it (issue 15).

The space "Large handbook" holds 11 parts of 19 pages each (about 60 lines a page: headings, paragraphs, a table, a
code block, a list) and three pages of 5,000 lines. Its change request "Large change: 200 pages" edits 160 pages
(the first long one every 6 lines: a diff of about 6,000 lines; the two others every 25 lines; lines added and
removed, never past 5,000), creates 20, deletes 12 and moves 12 to
another part: 204 changed pages. Deterministic: the text depends only on the page's number.
"""

from __future__ import annotations

from datetime import timedelta

from folio.sandbox.domain.change_requests import open_change_request
from folio.sandbox.domain.reviews import document, request_review
from folio.sandbox.revisions import clone_pages, make_page, new_revision
from folio.sandbox.seed.content import make_space
from folio.sandbox.state import Record, SandboxState

__all__ = ["LARGE_CR_SUBJECT", "LARGE_SPACE_TITLE", "LONG_LINES", "seed_large"]

LARGE_SPACE_TITLE = "Large handbook"
LARGE_CR_SUBJECT = "Large change: 200 pages"
PARTS, PER_PART = 11, 19
LONG_LINES = 5_000
"""Lines of each of the three long pages."""
LONG_PAGES = 3
EDITED, CREATED, DELETED, MOVED = 160, 20, 12, 12
WORDS = [
    "robot",
    "fleet",
    "rollout",
    "wave",
    "channel",
    "canary",
    "update",
    "health",
    "check",
    "battery",
    "sensor",
    "firmware",
    "pairing",
    "route",
    "depot",
    "schedule",
    "incident",
    "paging",
    "runbook",
    "failover",
    "replica",
    "backup",
    "restore",
    "metric",
    "alert",
]


def _words(n: int, count: int) -> str:
    return " ".join(WORDS[(n * 7 + i * 3) % len(WORDS)] for i in range(count))


def _block(n: int) -> list[str]:
    """About 30 lines: a heading, two paragraphs, a table, a code block and a list."""
    lines = [f"## Section {n}", "", f"{_words(n, 14).capitalize()}.", f"{_words(n + 1, 11).capitalize()}.", ""]
    lines += ["| setting | value | note |", "| --- | --- | --- |"]
    lines += [f"| {WORDS[(n + r) % len(WORDS)]} | {n * 10 + r} | {_words(n + r, 4)} |" for r in range(6)]
    lines += ["", "```python", f"def step_{n}(fleet):"]
    lines += [f"    fleet.{WORDS[(n + r) % len(WORDS)]}({r}, wait={n % 7})" for r in range(6)]
    lines += ["    return fleet", "```", ""]
    lines += [f"- {_words(n + r, 6)}" for r in range(4)]
    return [*lines, ""]


def markdown(n: int, lines: int) -> str:
    """A page of about ``lines`` lines (at least one block), made of :func:`_block` blocks."""
    out = [f"# Page {n}", ""]
    block = n * 1000
    while len(out) < lines:
        out += _block(block)
        block += 1
    return "\n".join(out[: max(lines, 2)]) + "\n"


def _edited(text: str, n: int, every: int) -> str:
    """Every ``every``-th line changed; now and then a line added after it or the next one removed."""
    lines = text.split("\n")
    out: list[str] = []
    skip = False
    removed = 0  # a line is added only after one was removed: the page is never longer than it was
    for i, line in enumerate(lines):
        if skip:
            skip, removed = False, removed + 1
            continue
        if i and i % every == 0 and line:
            out.append(line.replace(WORDS[(n + i) % len(WORDS)], "reviewed") + f" (rev {n})")
            if (i // every) % 3 == 1:
                skip = True
            elif (i // every) % 3 == 2 and removed:
                removed -= 1
                out.append(f"Added in the large change: {_words(n + i, 8)}.")
        else:
            out.append(line)
    return "\n".join(out)


def _pages(state: SandboxState, at: str) -> list[Record]:
    parts: list[Record] = []
    number = 0
    for p in range(PARTS):
        children = []
        for _ in range(PER_PART):
            long = p == 0 and number < LONG_PAGES
            text = markdown(number, LONG_LINES if long else 60)
            children.append(make_page(state, f"Topic {number:03d}", text, at=at))
            number += 1
        parts.append(make_page(state, f"Part {p + 1:02d}", markdown(10_000 + p, 12), children=children, at=at))
    return parts


def _change(state: SandboxState, pages: list[Record], at: str) -> None:
    """The change request's edits, on its copy of the pages."""
    topics = [child for part in pages for child in part["pages"]]
    for n, page in enumerate(topics[:EDITED]):
        # The first long page changes every 6 lines: one diff of about 6,000 lines to scroll; the two others every
        # 25 lines: about 200 hunks each.
        every = (6 if n == 0 else 25) if n < LONG_PAGES else 9
        page["markdown"] = _edited(page["markdown"], n, every)
        page["updatedAt"] = at
    rest = topics[EDITED:]
    moving = rest[DELETED : DELETED + MOVED]
    gone = {page["id"] for page in rest[: DELETED + MOVED]}
    for part in pages:
        part["pages"] = [child for child in part["pages"] if child["id"] not in gone]
    for n, page in enumerate(moving):  # to the first parts, at the top
        pages[n % 3]["pages"].insert(0, page)
    for n in range(CREATED):
        text = markdown(20_000 + n, 60)
        pages[(n * 5) % PARTS]["pages"].append(make_page(state, f"New topic {n:02d}", text, at=at))


def seed_large(state: SandboxState) -> str:
    """Add the large space and its change request to the demo organization; returns the change request's id."""
    org, now = state.demo_org, state.clock.now()
    members = list(state.members[org])
    created = state.clock.iso(now - timedelta(days=20))
    space_id = make_space(
        state, org, LARGE_SPACE_TITLE, emoji="📚", days_ago=20, pages=_pages(state, created), order=10_000_000
    )
    author = members[1 % len(members)]
    at = state.clock.iso(now - timedelta(days=1))
    record = open_change_request(state, space_id, author, subject=LARGE_CR_SUBJECT, at=at)
    record["description"] = document("Edits 160 pages (three of 5,000 lines), adds 20, deletes 12 and moves 12.")
    current = state.revisions[record["revision"]]
    pages = clone_pages(current["pages"])
    _change(state, pages, at)
    record["revision"] = new_revision(state, space_id, pages, parents=[current["id"]], at=at, files=[])
    record["updatedAt"] = at
    request_review(state, record, state.default_user, author, at=at)
    return str(record["id"])
