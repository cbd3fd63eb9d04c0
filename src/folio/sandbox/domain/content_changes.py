"""A batch of content changes applied to a change request (the public description's ``updateChangeRequestContent``:
``POST /spaces/{spaceId}/change-requests/{changeRequestId}/content``), as the sandbox does it.

The batch (1 to 50 changes) is applied in order to a copy of the change request's pages; any invalid change
refuses the whole batch with 400 and nothing is kept. A valid batch makes one new revision of the change request
(its parent: the revision it had). The sandbox applies ``insert_page``, ``update_page`` (markdown document, title,
slug, description, emoji, hidden; ``into``/``at`` to move) and ``delete_page``; ``revert_page`` and
``insert_files`` are refused with a sentence saying so. Markdown frontmatter is not read.
"""

from __future__ import annotations

from typing import Any

from folio.sandbox.errors import bad_request
from folio.sandbox.revisions import clone_pages, find_page, make_page, new_revision, slugify, walk
from folio.sandbox.state import Record, SandboxState

__all__ = ["MAX_CHANGES", "apply_content_changes"]

MAX_CHANGES = 50
_META = ("title", "slug", "description", "emoji", "hidden")


def _markdown(change: Record, where: str) -> str | None:
    document = change.get("document")
    if document is None:
        return None
    if not isinstance(document, dict):
        raise bad_request(f"{where}.document must be an object")
    if not document:
        return ""
    markdown = document.get("markdown")
    if not isinstance(markdown, str):
        raise bad_request(f"{where}.document: the sandbox takes markdown documents ({{markdown: string}})")
    return markdown


def _meta(page: Record, change: Record, where: str) -> None:
    for name in _META:
        if name not in change:
            continue
        value = change[name]
        if name == "hidden":
            if not isinstance(value, bool):
                raise bad_request(f"{where}.hidden must be a boolean")
        elif not isinstance(value, str) or (name == "title" and not value):
            raise bad_request(f"{where}.{name} must be a{' non-empty' * (name == 'title')} string")
        page[name] = value
    if "title" in change and "slug" not in change:
        page["slug"] = slugify(change["title"])


def _siblings(pages: list[Record], into: Any, where: str, moving: Record | None = None) -> list[Record]:
    if into is None:
        return pages
    if not isinstance(into, str):
        raise bad_request(f"{where}.into must be a page id or null")
    found = find_page(pages, into)
    if found is None:
        raise bad_request(f"{where}.into: no page {into!r} in the change request")
    if moving is not None and find_page([moving], into) is not None:
        raise bad_request(f"{where}.into: a page cannot move under itself or one of its own pages")
    children: list[Record] = found[0].setdefault("pages", [])
    return children


def _place(siblings: list[Record], page: Record, at: Any, where: str) -> None:
    if at is None:
        siblings.append(page)
        return
    if not isinstance(at, int) or isinstance(at, bool) or at < 0:
        raise bad_request(f"{where}.at must be a whole number, 0 or more")
    siblings.insert(min(at, len(siblings)), page)


def _apply(state: SandboxState, pages: list[Record], change: Any, where: str, when: str) -> Record:
    if not isinstance(change, dict):
        raise bad_request(f"{where} must be an object")
    operation = change.get("operation")
    if operation == "insert_page":
        markdown = _markdown(change, where)
        if markdown is None:
            raise bad_request(f"{where}.document is required to insert a page")
        title = change.get("title") if isinstance(change.get("title"), str) and change.get("title") else None
        page = make_page(state, title or "Untitled", markdown, at=when)
        _meta(page, {k: v for k, v in change.items() if k != "title"}, where)
        _place(_siblings(pages, change.get("into"), where), page, change.get("at"), where)
        return page
    if operation in ("update_page", "delete_page"):
        page_id = change.get("page")
        found = find_page(pages, page_id) if isinstance(page_id, str) else None
        if found is None:
            raise bad_request(f"{where}.page: no page {page_id!r} in the change request")
        page, holder, _ = found
        if operation == "delete_page":
            holder.remove(page)
            return page
        markdown = _markdown(change, where)
        if markdown is not None:
            page["markdown"] = markdown
        _meta(page, change, where)
        if "into" in change or "at" in change:
            target = _siblings(pages, change["into"], where, page) if "into" in change else holder
            index = holder.index(page)
            holder.remove(page)
            at = change.get("at")
            if at is None and target is holder:
                at = index
            _place(target, page, at, where)
        page["updatedAt"] = when
        return page
    if operation in ("revert_page", "insert_files"):
        raise bad_request(f"{where}.operation: the sandbox does not apply {operation}")
    raise bad_request(f"{where}.operation must be insert_page, update_page or delete_page")


def apply_content_changes(state: SandboxState, cr: Record, changes: Any, user: str) -> list[Record]:
    """Apply the batch to ``cr`` as one new revision; returns the pages touched (first touch order, once each).
    400 (nothing kept) when the batch or any change in it is invalid."""
    if not isinstance(changes, list) or not 1 <= len(changes) <= MAX_CHANGES:
        raise bad_request(f"changes must be an array of 1 to {MAX_CHANGES} changes")
    base = state.revisions[cr["revision"]]
    pages = clone_pages(base["pages"])
    when = state.now()
    touched: dict[str, Record] = {}
    for n, change in enumerate(changes):
        page = _apply(state, pages, change, f"changes[{n}]", when)
        touched.setdefault(page["id"], page)
    slugs: dict[tuple[str, ...], str] = {}
    for page, parent, path in walk(pages):
        key = (parent["id"] if parent else "", page.get("slug", ""))
        if key in slugs and page.get("type") != "link":
            raise bad_request(f"changes: two pages would have the path {path!r}")
        slugs[key] = page["id"]
    rid = new_revision(
        state,
        cr["space"],
        pages,
        parents=[base["id"]],
        at=when,
        message="Update content",
        files=[dict(f) for f in base.get("files") or []],
        variables=dict(base.get("variables") or {}),
    )
    contributors = cr.setdefault("contributors", [])
    if user not in contributors:
        contributors.append(user)
    cr.update(revision=rid, updatedAt=when)
    return list(touched.values())
