"""Seed: comment threads on the demo spaces and on the seeded change requests.

Threads sit on the whole space, on a page or on a block (node) of a page; some have replies and emoji
reactions, some are resolved. A change request's threads are about the pages it changes (created, edited or
moved in its revision; a page it deletes is discussed on the change request as a whole); this part also works
when the change requests seed made none. ``scale`` adds N short comments spread over
the spaces.
"""

from __future__ import annotations

from datetime import timedelta

from folio.models.common import document_text
from folio.sandbox.clock import parse_iso
from folio.sandbox.domain.block_keys import with_keys
from folio.sandbox.domain.content import markdown_document
from folio.sandbox.revisions import diff_pages, walk
from folio.sandbox.seed.comments_data import BLOCK_HINTS, CR_DISCUSSIONS, CR_THREADS, THREADS, Thread
from folio.sandbox.state import Record, SandboxState


def _commenters(state: SandboxState, org: str) -> list[str]:
    members = state.members.get(org, {})
    ids = [uid for uid, m in members.items() if m.get("role") != "read" and not m.get("disabled")]
    return ids[:12] or ([state.default_user] if state.default_user else [])


def _pages(state: SandboxState, revision: str) -> list[Record]:
    tree = state.revisions.get(revision, {}).get("pages") or []
    return [p for p, _, _ in walk(tree) if p.get("type", "document") == "document"]


def _changed_pages(state: SandboxState, cr: Record) -> list[Record]:
    """The pages a change request creates, edits or moves, as they are in its revision."""
    base = state.revisions.get(cr.get("revisionMergedAncestor") or cr.get("revisionInitial") or "", {})
    pages = state.revisions.get(cr["revision"], {}).get("pages") or []
    by_id = {p["id"]: p for p, _, _ in walk(pages)}
    changed = [c["page"] for c in diff_pages(base.get("pages") or [], pages) if c["type"] != "page_deleted"]
    return [by_id[pid] for pid in dict.fromkeys(changed)]


def _titled(state: SandboxState, revision: str, title: str) -> Record | None:
    return next((p for p in _pages(state, revision) if p.get("title") == title), None)


def _block_key(page: Record, text: str) -> str | None:
    """The key of the block of ``page`` a thread is about: the one holding the thread's hint (``BLOCK_HINTS``),
    else the first that is not a heading (a list's first item rather than the list), else the first."""
    document = with_keys(markdown_document(page.get("markdown") or ""), page["id"])
    blocks: list[Record] = []
    for node in document["nodes"]:
        items = [n for n in node.get("nodes") or [] if n.get("type") == "list-item"]
        blocks.extend(items or [node])
    hint = next((h for start, h in BLOCK_HINTS.items() if text.startswith(start)), None)
    chosen = next((b for b in blocks if hint and hint.lower() in document_text(b).lower()), None)
    chosen = chosen or next((b for b in blocks if not str(b.get("type", "")).startswith("heading")), None)
    chosen = chosen or (blocks[0] if blocks else None)
    return str(chosen["key"]) if chosen else None


def _thread(
    state: SandboxState, space: Record, cr: Record | None, spec: Thread, people: list[str], page: Record | None
) -> None:
    """One thread on ``page`` of the space or the change request (on the whole of it when ``page`` is None or
    the thread's kind is ``space``)."""
    kind, text, author, hours_ago, resolved, replies, reactions = spec
    now = state.clock.now()
    revision = (cr or space)["revision"]
    target: Record = {"revision": revision}
    title = space["title"]
    if kind in ("page", "node") and page is not None:
        target["page"] = {"id": page["id"]}
        title = page.get("title") or title
        if kind == "node":
            state.new_id(12)  # drawn as before, so every id drawn after it stays what it was
            if (key := _block_key(page, text)) is not None:  # a page without blocks: the thread is on the page
                target["node"] = {"id": key}
    posted = now - timedelta(hours=hours_ago)
    if cr and cr.get("createdAt"):  # never before the change request was opened
        posted = min(max(posted, parse_iso(cr["createdAt"]) + timedelta(minutes=10)), now)
    comment: Record = {
        "id": state.new_id(),
        "space": space["id"],
        "changeRequest": cr["id"] if cr else None,
        "postedBy": people[author % len(people)],
        "postedAt": state.clock.iso(posted),
        "editedAt": None,
        "body": text.format(title=title, space=space["title"]),
        "target": target,
        "status": "open",
        "resolvedAt": None,
        "resolvedBy": None,
        "reactions": [
            {
                "emoji": emoji,
                "users": [
                    {"user": uid, "reactedAt": state.clock.iso(posted + timedelta(minutes=5 + i))}
                    for i, uid in enumerate(dict.fromkeys(people[w % len(people)] for w in who))
                ],
            }
            for emoji, who in reactions
        ],
        "replies": [],
    }
    last = posted
    for who, body, later in replies:
        at = min(posted + timedelta(hours=later), now)
        last = max(last, at)
        comment["replies"].append(
            {
                "id": state.new_id(),
                "postedBy": people[who % len(people)],
                "postedAt": state.clock.iso(at),
                "editedAt": None,
                "body": body,
                "reactions": [],
            }
        )
    if resolved:
        comment.update(
            status="resolved",
            resolvedAt=state.clock.iso(min(last + timedelta(minutes=30), now)),
            resolvedBy=people[0],
        )
    state.comments[comment["id"]] = comment


def seed(state: SandboxState, *, scale: int = 0) -> None:
    spaces = [s for s in state.spaces.values() if not s.get("deletedAt")]
    seeded = [s for s in spaces if s.get("organization") == state.demo_org][:8]
    for n, space in enumerate(seeded):
        people = _commenters(state, space["organization"])
        if not people:
            continue
        pages = _pages(state, space["revision"])
        for k in range(2 + n % 3):
            page = pages[(n + 2 * k) % len(pages)] if pages else None
            _thread(state, space, None, THREADS[(n + k) % len(THREADS)], people, page)
    by_id = {s["id"]: s for s in spaces}
    for n, cr in enumerate(list(state.change_requests.values())[:40]):
        home = by_id.get(cr.get("space", ""))
        if home is None or not cr.get("revision"):
            continue
        people = _commenters(state, home["organization"])
        if not people:
            continue
        discussion = CR_DISCUSSIONS.get(cr.get("subject") or "") if home["organization"] == state.demo_org else None
        if discussion is not None:
            for title, spec in discussion:
                _thread(state, home, cr, spec, people, _titled(state, cr["revision"], title) if title else None)
            continue
        changed = _changed_pages(state, cr)
        for k in range(1 + n % 2):
            page = changed[(n + k) % len(changed)] if changed else None
            _thread(state, home, cr, CR_THREADS[(n + k) % len(CR_THREADS)], people, page)
    if scale > 0 and spaces:
        _generated(state, spaces, scale)


def _generated(state: SandboxState, spaces: list[Record], scale: int) -> None:
    now = state.clock.now()
    people_by_org: dict[str, list[str]] = {}
    first_page: dict[str, str | None] = {}
    for n in range(scale):
        space = spaces[n % len(spaces)]
        org = space["organization"]
        if org not in people_by_org:
            people_by_org[org] = _commenters(state, org)
        people = people_by_org[org]
        if not people:
            continue
        if space["id"] not in first_page:
            pages = state.revisions.get(space["revision"], {}).get("pages") or []
            first_page[space["id"]] = pages[0]["id"] if pages else None
        target: Record = {"revision": space["revision"]}
        if first_page[space["id"]] and n % 2 == 0:
            target["page"] = {"id": first_page[space["id"]]}
        cid = state.new_id()
        state.comments[cid] = {
            "id": cid,
            "space": space["id"],
            "changeRequest": None,
            "postedBy": people[n % len(people)],
            "postedAt": state.clock.iso(now - timedelta(minutes=7 * n + 1)),
            "editedAt": None,
            "body": f"Generated comment {n:05d}.",
            "target": target,
            "status": "resolved" if n % 5 == 0 else "open",
            "resolvedAt": state.clock.iso(now - timedelta(minutes=7 * n)) if n % 5 == 0 else None,
            "resolvedBy": people[0] if n % 5 == 0 else None,
            "reactions": [],
            "replies": [],
        }
