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
    changes: list[Record] = []
    for pid, (page, parent, path, index) in after.items():
        if pid not in before:
            changes.append({"type": "page_created", "page": pid, "title": page.get("title", ""), "path": path})
            continue
        prev, prev_parent, prev_path, prev_index = before[pid]
        edited = [f for f in CONTENT_FIELDS if prev.get(f) != page.get(f)]
        if edited and edited != ["slug"]:
            changes.append(
                {"type": "page_edited", "page": pid, "title": page.get("title", ""), "path": path, "fields": edited}
            )
        if prev_parent != parent or prev_index != index or prev_path != path:
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
    return result
