"""Rendering revisions, pages and files to the wire (spec 2.1, public description's RevisionPage variants),
and turning a page's markdown into a simple rich-text document (headings, paragraphs, code, lists, quotes).

Query flags: ``metadata=false`` leaves out the mutable Git metadata (``git`` on the revision, pages and
files). Page bodies: lists carry each document page's ``markdown``; a single page read carries ``markdown``
when asked ``format=markdown`` and a ``document`` otherwise (the two are exclusive, as in the description).
"""

from __future__ import annotations

import re

from folio.sandbox.domain.block_keys import with_keys
from folio.sandbox.state import Record, SandboxState

LAYOUT = {
    "width": "default",
    "cover": False,
    "coverSize": "hero",
    "coverMask": "none",
    "title": True,
    "description": True,
    "tableOfContents": True,
    "outline": True,
    "pagination": True,
    "metadata": True,
    "tags": True,
    "actions": True,
    "anchors": True,
}
KIND = {"document": "sheet", "group": "group", "link": "link"}


class Context:
    """Where content is read: the space's main content, a change request, or one revision by id."""

    def __init__(
        self,
        state: SandboxState,
        space: Record,
        revision: Record,
        cr: Record | None = None,
        by_id: bool = False,
    ) -> None:
        self.state = state
        self.space = space
        self.revision = revision
        self.cr = cr
        self.by_id = by_id

    @property
    def app_base(self) -> str:
        base = f"{self.state.app_base}/o/{self.space['organization']}/s/{self.space['id']}"
        if self.cr is not None:
            return f"{base}/~/changes/{self.cr.get('number')}"
        if self.by_id:
            return f"{base}/~/revisions/{self.revision['id']}"
        return base


def render_page(
    ctx: Context,
    page: Record,
    path: str,
    *,
    metadata: bool = True,
    body: str | None = "markdown",
    children: bool = True,
) -> Record:
    """One page of the tree. ``body`` is ``markdown``, ``document`` or None (no body)."""
    ptype = page.get("type", "document")
    out: Record = {"id": page["id"], "title": page.get("title") or "Untitled", "type": ptype}
    if ptype in KIND:
        out["kind"] = KIND[ptype]
    for key in ("emoji", "icon", "createdAt", "updatedAt"):
        if page.get(key):
            out[key] = page[key]
    if ptype == "link":
        out["target"] = page.get("target") or {"kind": "url", "url": page.get("href", "")}
        if page.get("href"):
            out["href"] = page["href"]
        out["hidden"] = bool(page.get("hidden", False))
        return out
    if ptype == "computed":
        out["computed"] = page.get("computed") or {}
        return out
    out["slug"] = page.get("slug", "")
    out["path"] = path
    out["hidden"] = bool(page.get("hidden", False))
    out["noIndex"] = bool(page.get("noIndex", False))
    out["noRobotsIndex"] = bool(page.get("noRobotsIndex", False))
    kids = page.get("pages") or []
    # Children carry markdown (the description's page shape needs one body or the other).
    kid_body = "markdown" if body else None
    out["pages"] = (
        [render_page(ctx, kid, child_path(path, kid), metadata=metadata, body=kid_body) for kid in kids]
        if children
        else []
    )
    if ptype == "document":
        out["urls"] = {"app": f"{ctx.app_base}/{path}"}
        out["description"] = page.get("description") or ""
        out["layout"] = dict(LAYOUT)
        out["tags"] = []
        out["variables"] = dict(page.get("variables") or {})
        markdown = page.get("markdown") or ""
        if body == "markdown":
            out["markdown"] = markdown
        elif body == "document":
            out["document"] = with_keys(markdown_document(markdown), page["id"])
        if metadata and page.get("git"):
            out["git"] = page["git"]
    return out


def child_path(base: str, page: Record) -> str:
    if page.get("type") == "link":
        return base
    return f"{base}/{page.get('slug', '')}".strip("/")


def render_pages(ctx: Context, *, metadata: bool = True) -> list[Record]:
    return [render_page(ctx, p, child_path("", p), metadata=metadata) for p in ctx.revision.get("pages") or []]


def render_file(file: Record, *, metadata: bool = True) -> Record:
    out: Record = {
        "id": file["id"],
        "name": file.get("name", ""),
        "contentType": file.get("contentType", ""),
        "downloadURL": file.get("downloadURL", ""),
        "size": file.get("size", 0),
    }
    if file.get("dimensions"):
        out["dimensions"] = file["dimensions"]
    if metadata and file.get("git"):
        out["git"] = file["git"]
    return out


def change_request_stub(state: SandboxState, cr: Record) -> Record:
    """The change request a merge revision came from, in the ChangeRequest wire shape."""
    space = state.spaces.get(cr.get("space", ""), {})
    return {
        "object": "change-request",
        "id": cr["id"],
        "number": cr.get("number", 0),
        "status": cr.get("status", "merged"),
        "subject": cr.get("subject") or "",
        "createdBy": state.user_json(cr.get("createdBy", "")),
        "createdAt": cr.get("createdAt", ""),
        "updatedAt": cr.get("updatedAt", cr.get("createdAt", "")),
        "space": cr.get("space", ""),
        "revision": cr.get("revision", ""),
        "revisionInitial": cr.get("revisionInitial", ""),
        "comments": sum(
            1 for c in state.comments.values() if c.get("changeRequest") == cr["id"] and c.get("status") != "resolved"
        ),
        "outdated": False,
        "urls": {
            "location": f"{state.api_base}/spaces/{cr.get('space')}/change-requests/{cr['id']}",
            "app": f"{state.app_base}/o/{space.get('organization', '')}/s/{cr.get('space')}/~/changes/"
            f"{cr.get('number')}/",
        },
    }


def render_revision(ctx: Context, *, metadata: bool = True) -> Record:
    rev = ctx.revision
    state = ctx.state
    out: Record = {
        "object": "revision",
        "id": rev["id"],
        "type": rev.get("type", "edits"),
        "parents": list(rev.get("parents") or []),
        "pages": render_pages(ctx, metadata=metadata),
        "files": [render_file(f, metadata=metadata) for f in rev.get("files") or []],
        "reusableContents": list(rev.get("reusableContents") or []),
        "tags": [],
        "variables": dict(rev.get("variables") or {}),
        "createdAt": rev["createdAt"],
        "urls": {"app": f"{state.app_base}/o/{ctx.space['organization']}/s/{ctx.space['id']}/~/revisions/{rev['id']}/"},
    }
    if ctx.space.get("visibility") != "private":
        out["urls"]["published"] = out["urls"]["app"].replace(state.app_base, "https://published.gitbook.io")
    if metadata and rev.get("git"):
        out["git"] = rev["git"]
    if out["type"] in ("merge", "computed"):
        merged = rev.get("mergedFrom")
        cr = state.change_requests.get(merged) if isinstance(merged, str) else None
        cr = cr or next((c for c in state.change_requests.values() if c.get("revisionMerged") == rev["id"]), None)
        if cr is not None:
            out["mergedFrom"] = change_request_stub(state, cr)
        if out["type"] == "computed":
            out["sourceRevision"] = rev.get("sourceRevision") or (out["parents"] or [rev["id"]])[0]
    return out


# --- markdown -> document -----------------------------------------------------------------------------------

_FENCE = re.compile(r"^```\s*([\w+-]*)\s*$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
_NUMBER = re.compile(r"^\s*\d+[.)]\s+(.*)$")


def _text(text: str) -> Record:
    return {"object": "text", "leaves": [{"object": "leaf", "text": text, "marks": []}]}


def _paragraph(text: str) -> Record:
    return {"object": "block", "type": "paragraph", "data": {}, "nodes": [_text(text)]}


def _list(kind: str, items: list[str]) -> Record:
    block: Record = {
        "object": "block",
        "type": kind,
        "data": {},
        "nodes": [{"object": "block", "type": "list-item", "data": {}, "nodes": [_paragraph(item)]} for item in items],
    }
    if kind == "list-ordered":
        block["data"] = {"start": 1}
    return block


def markdown_blocks(markdown: str) -> list[Record]:
    """Blocks for a markdown text: headings (levels past 3 become heading-3), fenced code, bullet and numbered
    lists, quotes, and paragraphs of consecutive lines."""
    blocks: list[Record] = []
    lines = markdown.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:
            code: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                code.append(lines[i])
                i += 1
            data = {"syntax": fence.group(1)} if fence.group(1) else {}
            blocks.append(
                {
                    "object": "block",
                    "type": "code",
                    "data": data,
                    "nodes": [{"object": "block", "type": "code-line", "data": {}, "nodes": [_text(c)]} for c in code],
                }
            )
            i += 1
            continue
        heading = _HEADING.match(line)
        if heading:
            level = min(len(heading.group(1)), 3)
            blocks.append(
                {
                    "object": "block",
                    "type": f"heading-{level}",
                    "data": {},
                    "nodes": [_text(heading.group(2).strip())],
                }
            )
            i += 1
            continue
        for pattern, kind in ((_BULLET, "list-unordered"), (_NUMBER, "list-ordered")):
            if pattern.match(line):
                items = []
                while i < len(lines) and (m := pattern.match(lines[i])):
                    items.append(m.group(1))
                    i += 1
                blocks.append(_list(kind, items))
                break
        else:
            if line.startswith(">"):
                quoted = []
                while i < len(lines) and lines[i].startswith(">"):
                    quoted.append(lines[i].lstrip(">").strip())
                    i += 1
                blocks.append(
                    {
                        "object": "block",
                        "type": "blockquote",
                        "data": {},
                        "nodes": [_paragraph(" ".join(quoted))],
                    }
                )
            elif line.strip():
                para = []
                while i < len(lines) and lines[i].strip() and not _starts_block(lines[i]):
                    para.append(lines[i].strip())
                    i += 1
                blocks.append(_paragraph(" ".join(para)))
            else:
                i += 1
    return blocks


def _starts_block(line: str) -> bool:
    return bool(
        _FENCE.match(line) or _HEADING.match(line) or _BULLET.match(line) or _NUMBER.match(line) or line.startswith(">")
    )


def markdown_document(markdown: str) -> Record:
    return {"object": "document", "data": {"schemaVersion": 1}, "nodes": markdown_blocks(markdown)}
