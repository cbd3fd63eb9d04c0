"""Revisions and page trees in the sandbox: shared by the content reads, change requests and comments.

A revision record is ``{id, space, type, parents, createdAt, message, pages, files, variables}``; ``pages`` is a
tree of page records ``{id, title, type, slug, description, emoji, markdown, pages, createdAt, updatedAt}``.
Revisions are immutable once made: every edit, merge or update makes a new one with ``new_revision``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

from folio.sandbox.state import Record, SandboxState


def slugify(title: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return slug or "page"


def make_page(
    state: SandboxState,
    title: str,
    markdown: str = "",
    *,
    children: list[Record] | None = None,
    slug: str | None = None,
    emoji: str | None = None,
    description: str | None = None,
    page_type: str = "document",
    at: str | None = None,
) -> Record:
    when = at or state.now()
    page: Record = {
        "id": state.new_id(),
        "title": title,
        "type": page_type,
        "slug": slug or slugify(title),
        "description": description or "",
        "markdown": markdown,
        "pages": children or [],
        "createdAt": when,
        "updatedAt": when,
    }
    if emoji:
        page["emoji"] = emoji
    return page


def walk(pages: list[Record], prefix: str = "") -> Iterator[tuple[Record, Record | None, str]]:
    """(page, parent page or None, path) for every page of a tree, depth first, in order."""

    def visit(items: list[Record], parent: Record | None, base: str) -> Iterator[tuple[Record, Record | None, str]]:
        for page in items:
            path = f"{base}/{page.get('slug', '')}".lstrip("/") if page.get("type") != "link" else base
            yield page, parent, path
            yield from visit(page.get("pages") or [], page, path)

    yield from visit(pages, None, prefix)


def find_page(pages: list[Record], page_id: str) -> tuple[Record, list[Record], str] | None:
    """The page with that id, the sibling list holding it, and its path."""

    def visit(items: list[Record], base: str) -> tuple[Record, list[Record], str] | None:
        for page in items:
            path = f"{base}/{page.get('slug', '')}".lstrip("/")
            if page["id"] == page_id:
                return page, items, path
            found = visit(page.get("pages") or [], path)
            if found:
                return found
        return None

    return visit(pages, "")


def find_by_path(pages: list[Record], path: str) -> Record | None:
    wanted = path.strip("/")
    for page, _, p in walk(pages):
        if p == wanted:
            return page
    return None


def clone_pages(pages: list[Record]) -> list[Record]:
    return copy.deepcopy(pages)


def new_revision(
    state: SandboxState,
    space_id: str,
    pages: list[Record],
    *,
    parents: list[str],
    rev_type: str = "edits",
    message: str | None = None,
    files: list[Record] | None = None,
    variables: dict[str, str] | None = None,
    at: str | None = None,
    extra: dict[str, Any] | None = None,
) -> str:
    rid = state.new_id()
    record: Record = {
        "id": rid,
        "space": space_id,
        "type": rev_type,
        "parents": parents,
        "createdAt": at or state.now(),
        "message": message,
        "pages": pages,
        "files": files if files is not None else [],
        "variables": variables or {},
    }
    if extra:
        record.update(extra)
    state.revisions[rid] = record
    return rid


def space_revision(state: SandboxState, space_id: str) -> Record:
    return state.revisions[state.spaces[space_id]["revision"]]


def flat(pages: list[Record]) -> dict[str, tuple[Record, str | None, str, int]]:
    """page id -> (page, parent id, path, index among siblings)."""
    out: dict[str, tuple[Record, str | None, str, int]] = {}

    def visit(items: list[Record], parent: str | None, base: str) -> None:
        for index, page in enumerate(items):
            path = f"{base}/{page.get('slug', '')}".lstrip("/")
            out[page["id"]] = (page, parent, path, index)
            visit(page.get("pages") or [], page["id"], path)

    visit(pages, None, "")
    return out


CONTENT_FIELDS = ("title", "markdown", "description", "emoji", "slug", "type")


def diff_pages(old: list[Record], new: list[Record]) -> list[Record]:
    """What changed from one page tree to another, page by page:
    ``{type: page_created|page_edited|page_deleted|page_moved, page: id, title, path, previousPath?, fields?}``."""
    before, after = flat(old), flat(new)
    moved = moved_pages(old, new)
    changes: list[Record] = []
    for pid, (page, _parent, path, _index) in after.items():
        if pid not in before:
            changes.append({"type": "page_created", "page": pid, "title": page.get("title", ""), "path": path})
            continue
        prev, _prev_parent, prev_path, _prev_index = before[pid]
        edited = [f for f in CONTENT_FIELDS if prev.get(f) != page.get(f)]
        if edited:
            changes.append(
                {"type": "page_edited", "page": pid, "title": page.get("title", ""), "path": path, "fields": edited}
            )
        if pid in moved:
            changes.append(
                {
                    "type": "page_moved",
                    "page": pid,
                    "title": page.get("title", ""),
                    "path": path,
                    "previousPath": prev_path,
                }
            )
    for pid, (page, _, path, _) in before.items():
        if pid not in after:
            changes.append({"type": "page_deleted", "page": pid, "title": page.get("title", ""), "path": path})
    return changes


def three_way(base: list[Record], ours: list[Record], theirs: list[Record]) -> list[Record]:
    """Apply the changes ``theirs`` made since ``base`` on top of ``ours`` (page by page; theirs wins on a page
    both changed). Used to merge a change request into the space and to update one from the space."""
    result = clone_pages(ours)
    base_flat, theirs_flat = flat(base), flat(theirs)
    result_flat = flat(result)
    for pid in base_flat:
        if pid not in theirs_flat and pid in result_flat:
            found = find_page(result, pid)
            if found:
                found[1].remove(found[0])
    result_flat = flat(result)
    for pid, (page, parent, _path, index) in theirs_flat.items():
        if pid in base_flat:
            bpage = base_flat[pid][0]
            if all(bpage.get(f) == page.get(f) for f in CONTENT_FIELDS):
                continue
            found = find_page(result, pid)
            if found:
                for f in CONTENT_FIELDS:
                    if f in page:
                        found[0][f] = page[f]
                found[0]["updatedAt"] = page.get("updatedAt", found[0].get("updatedAt"))
            continue
        if pid in result_flat:
            continue
        node = copy.deepcopy({k: v for k, v in page.items() if k != "pages"})
        node["pages"] = []
        siblings = result
        if parent is not None:
            holder = find_page(result, parent)
            if holder is not None:
                siblings = holder[0].setdefault("pages", [])
        siblings.insert(min(index, len(siblings)), node)
        result_flat = flat(result)
    apply_moves(base, theirs, result, skip=moved_pages(base, ours))
    return result


# --- moves, and edits kept on update ---------------------------------------------------------------------


def _increasing(values: list[int]) -> set[int]:
    """The positions of one longest increasing subsequence of ``values``."""
    tails: list[int] = []
    prev = [-1] * len(values)
    for i, v in enumerate(values):
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            lo, hi = (mid + 1, hi) if values[tails[mid]] < v else (lo, mid)
        prev[i] = tails[lo - 1] if lo else -1
        tails[lo : lo + 1] = [i]
    keep, i = set(), tails[-1] if tails else -1
    while i >= 0:
        keep.add(i)
        i = prev[i]
    return keep


def moved_pages(old: list[Record], new: list[Record]) -> set[str]:
    """The pages someone moved: to another parent, or out of order among the siblings that stayed (not the
    ones that only shifted because pages came, went or moved around them)."""
    before, after = flat(old), flat(new)
    moved = {pid for pid, entry in after.items() if pid in before and before[pid][1] != entry[1]}
    groups: dict[str | None, list[str]] = {}
    for pid, entry in after.items():
        if pid in before and pid not in moved:
            groups.setdefault(entry[1], []).append(pid)
    for kids in groups.values():
        keep = _increasing([before[pid][3] for pid in kids])
        moved.update(pid for i, pid in enumerate(kids) if i not in keep)
    return moved


def apply_moves(base: list[Record], theirs: list[Record], result: list[Record], skip: set[str] | None = None) -> None:
    """Move the pages ``theirs`` moved since ``base`` to the same place in ``result`` (in place)."""
    placed, moved = flat(theirs), moved_pages(base, theirs) - (skip or set())
    for pid in [p for p in placed if p in moved]:
        found, there = find_page(result, pid), find_page(theirs, pid)
        if found is None or there is None:
            continue
        found[1].remove(found[0])
        parent = placed[pid][1]
        holder = find_page(result, parent) if parent else None
        target = holder[0].setdefault("pages", []) if holder else result
        siblings = [p["id"] for p in there[1]]
        ids = [p["id"] for p in target]
        earlier = [ids.index(s) + 1 for s in siblings[: siblings.index(pid)] if s in ids]
        target.insert(max(earlier, default=0), found[0])


def keep_edits(base: list[Record], ours: list[Record], result: list[Record]) -> None:
    """Put back on ``result`` the content of the pages ``ours`` edited since ``base`` (in place)."""
    before, merged = flat(base), flat(result)
    for pid, (page, _, _, _) in flat(ours).items():
        if pid in merged and pid in before and any(before[pid][0].get(f) != page.get(f) for f in CONTENT_FIELDS):
            merged[pid][0].update({f: page[f] for f in CONTENT_FIELDS if f in page})
