"""Links between content in the sandbox: the links and backlinks reads (optional operations of spec 4.7-4.9).

Links are read from page markdown: ``[text](/pages/<id>)`` is a page reference, ``[text](/files/<id>)`` a file
reference, an absolute url a url reference. A link is ``broken`` when its page or file is missing from the
revision, ``in-app`` when its url points into the app, ``ok`` otherwise. The links list groups occurrences by
target: ``{status, relation, targetReference, locationReferences}``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from folio.sandbox.revisions import walk
from folio.sandbox.state import Record, SandboxState

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
STATUSES = ("ok", "broken", "in-app")


def reference(url: str) -> Record:
    if url.startswith("/pages/"):
        return {"kind": "page", "page": url.removeprefix("/pages/").split("#")[0]}
    if url.startswith("/files/"):
        return {"kind": "file", "file": url.removeprefix("/files/")}
    return {"kind": "url", "url": url}


def page_links(page: Record) -> Iterator[Record]:
    """The references a page's markdown makes, in order, repeats included."""
    for match in LINK.finditer(page.get("markdown") or ""):
        yield reference(match.group(1))


def status_of(state: SandboxState, revision: Record, ref: Record, page_ids: set[str]) -> str:
    if ref["kind"] == "page":
        return "ok" if ref["page"] in page_ids else "broken"
    if ref["kind"] == "file":
        return "ok" if any(f["id"] == ref["file"] for f in revision.get("files") or []) else "broken"
    return "in-app" if ref.get("url", "").startswith(state.app_base) else "ok"


def _key(ref: Record) -> tuple[str, str]:
    return ref["kind"], ref.get("page") or ref.get("file") or ref.get("url") or ""


def links(state: SandboxState, revision: Record, only_page: str | None = None) -> list[Record]:
    """Every link of a revision (or of one page), one entry per target, in order of first appearance."""
    page_ids = {p["id"] for p, _, _ in walk(revision.get("pages") or [])}
    entries: dict[tuple[str, str], Record] = {}
    for page, _, _ in walk(revision.get("pages") or []):
        if only_page is not None and page["id"] != only_page:
            continue
        for ref in page_links(page):
            entry = entries.get(_key(ref))
            if entry is None:
                entry = entries[_key(ref)] = {
                    "status": status_of(state, revision, ref, page_ids),
                    "relation": "reference",
                    "targetReference": ref,
                    "locationReferences": [],
                }
            location = {"kind": "page", "page": page["id"]}
            if location not in entry["locationReferences"]:
                entry["locationReferences"].append(location)
    return list(entries.values())


def broken_in_change_requests(state: SandboxState, space_id: str) -> int:
    """Broken links in the open and draft change requests of a space."""
    total = 0
    for cr in state.change_requests.values():
        if cr.get("space") == space_id and cr.get("status") in ("open", "draft"):
            revision = state.revisions.get(cr.get("revision", ""))
            if revision is not None:
                total += sum(1 for e in links(state, revision) if e["status"] == "broken")
    return total


def stats(entries: list[Record], change_request_broken: int) -> Record:
    return {
        "total": len(entries),
        "broken": {
            "total": sum(1 for e in entries if e["status"] == "broken"),
            "changeRequest": change_request_broken,
        },
    }


def backlinks(revision: Record, file_id: str) -> list[Record]:
    """The pages of a revision that reference a file (by link or as a cover)."""
    out = []
    for page, _, path in walk(revision.get("pages") or []):
        covers = [(page.get("cover") or {}).get(k) or {} for k in ("ref", "refDark")]
        refs = [*page_links(page), *covers]
        if any(r.get("kind") == "file" and r.get("file") == file_id for r in refs):
            out.append(
                {
                    "id": page["id"],
                    "title": page.get("title", ""),
                    "type": page.get("type", "document"),
                    "path": path,
                }
            )
    return out
