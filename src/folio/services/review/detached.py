"""Detached comments: a comment on a block (its ``node``) that its page no longer holds, after an edit or an update.

Such a comment is never hidden and never put on another block: it is shown as detached, with the block's text as
it was and the block of the current page most like it (``difflib``) as a suggestion. The text as it was comes from
this machine (the text of each commented block is kept, per account, when its comment is first shown) or, when it
was never kept here, from the revision the comment was made on (the API's revision pages).

    detached = await services.detached.check(space_id, comments, change_request=cr_id)
    found = detached.get(comment.id)     # None: its block is there (or the comment is not on a block)
    found.text, found.suggestion, found.line()
"""

from __future__ import annotations

import asyncio
import difflib
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from folio.api.errors import ApiError, NotFound
from folio.config.paths import paths
from folio.models.common import document_text

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.comment import Comment
    from folio.services import Services

__all__ = ["SIMILAR", "BlockMemory", "Detached", "DetachedComments", "blocks_of", "most_similar"]

SIMILAR = 0.5
"""A block of the page now is suggested when its text is at least this similar to the one the comment was on."""
MAX_PAGES = 20
"""At most this many pages are read to check a list's comments (the rest are not called detached)."""
KEEP = 2000
"""Blocks kept per space or change request (the oldest are forgotten first)."""
_SAFE = re.compile(r"[A-Za-z0-9_-]{1,100}")


@dataclass(frozen=True)
class Detached:
    """A comment whose block is gone from its page."""

    comment_id: str
    page_id: str
    node_id: str
    text: str | None
    """The block's text as it was (None: never seen, and the revision it was made on cannot be read)."""
    page_gone: bool = False
    suggestion: str | None = None
    """The text of the block of the page now most like it (None: none is like it, or the page is gone)."""
    suggestion_key: str | None = None
    similarity: float = 0.0

    def line(self) -> str:
        """One sentence for a list: ``Detached: its block is no longer in the page.``"""
        where = "its page is no longer in the content" if self.page_gone else "its block is no longer in the page"
        return f"Detached: {where}."

    def label(self, words: int = 60) -> str:
        """A block's heading in a list of comments, the text it was on first (a narrow column shows the start):
        ``⚠ Detached “…” · now most like “…”`` (the texts cut to about ``words`` characters)."""
        was = f"\u201c{_cut(self.text, words)}\u201d" if self.text else "(its text is not known)"
        out = f"\u26a0 Detached {was}"
        if self.page_gone:
            out += " \u00b7 the page is gone"
        elif self.suggestion:
            out += f" \u00b7 now most like \u201c{_cut(self.suggestion, words)}\u201d"
        else:
            out += " \u00b7 no block of the page is like it now"
        return out


def _cut(text: str, most: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= most else flat[: most - 1].rstrip() + "\u2026"


def blocks_of(document: Any) -> list[tuple[str, str]]:
    """(key, text) of every keyed block of a document with text, outer blocks first, in order."""
    out: list[tuple[str, str]] = []

    def visit(nodes: Iterable[Any]) -> None:
        for node in nodes:
            if not isinstance(node, dict) or node.get("object") not in ("block", None):
                continue
            key = node.get("key")
            text = document_text(node).strip()
            if isinstance(key, str) and key and text:
                out.append((key, text))
            visit(node.get("nodes") or ())

    if isinstance(document, dict):
        visit(document.get("nodes") or ())
    return out


def _keys(document: Any) -> set[str]:
    found: set[str] = set()

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("key"), str):
                found.add(node["key"])
            for child in node.get("nodes") or ():
                visit(child)

    visit(document)
    return found


def most_similar(text: str, blocks: list[tuple[str, str]], cutoff: float = SIMILAR) -> tuple[str, str, float] | None:
    """The block whose text is most like ``text`` (key, text, ratio), if one is at least ``cutoff`` alike."""
    best: tuple[str, str, float] | None = None
    for key, candidate in blocks:
        matcher = difflib.SequenceMatcher(None, text, candidate, autojunk=False)
        if matcher.real_quick_ratio() < cutoff or matcher.quick_ratio() < cutoff:
            continue
        ratio = matcher.ratio()
        if ratio >= cutoff and (best is None or ratio > best[2]):
            best = (key, candidate, ratio)
    return best


class BlockMemory:
    """The text of commented blocks, kept on this machine: one JSON file per account and space or change request
    (``<state>/blocks/<account>/<scope>.json``: comment id -> ``{page, node, text}``). A file that cannot be read
    counts as empty; one that cannot be written is skipped (the revision the comment was made on is asked then)."""

    def __init__(self, directory: Path | None = None, account: str | None = None) -> None:
        self._directory = directory
        self.account = account

    @property
    def directory(self) -> Path:
        base = self._directory if self._directory is not None else paths().state_dir / "blocks"
        return base / _name(self.account or "any")

    def path_for(self, scope: str) -> Path:
        return self.directory / f"{_name(scope)}.json"

    def recall(self, scope: str) -> dict[str, dict[str, str]]:
        try:
            data = json.loads(self.path_for(scope).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {
            str(cid): {k: str(v) for k, v in entry.items() if k in ("page", "node", "text") and isinstance(v, str)}
            for cid, entry in data.items()
            if isinstance(entry, dict) and isinstance(entry.get("text"), str)
        }

    def remember(self, scope: str, entries: dict[str, dict[str, str]]) -> None:
        """Keep (or refresh) these comments' blocks; nothing happens when they are all known as they are."""
        known = self.recall(scope)
        if all(known.get(cid) == entry for cid, entry in entries.items()):
            return
        for cid, entry in entries.items():
            known.pop(cid, None)
            known[cid] = entry  # last: the most recently seen is kept longest
        kept = dict(list(known.items())[-KEEP:])
        target = self.path_for(scope)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(prefix=".blocks-", suffix=".json", dir=target.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    json.dump(kept, handle, ensure_ascii=False)
                os.replace(temp, target)
            except BaseException:
                Path(temp).unlink(missing_ok=True)
                raise
        except OSError:
            return


def _name(text: str) -> str:
    return text if _SAFE.fullmatch(text) else hashlib.sha256(text.encode()).hexdigest()[:32]


class DetachedComments:
    """Finds the detached comments of a list (``services.detached``)."""

    def __init__(self, client: GitBookClient, services: Services | None = None, *, memory: BlockMemory | None = None):
        self._client = client
        self._services = services
        self._memory = memory

    @property
    def memory(self) -> BlockMemory:
        """The account's kept blocks (the account is known once the service has said who the caller is)."""
        if self._memory is not None:
            return self._memory
        local = self._services.local if self._services is not None else None
        return BlockMemory(account=local.account if local is not None else None)

    async def _document(
        self, space_id: str, page_id: str, change_request: str | None, revision: str | None = None
    ) -> Any:
        """The page's document (None: the page is not in that content; a failure other than 404 raises)."""
        try:
            if revision is not None:
                page = await self._client.content.page(space_id, page_id, revision=revision, format="document")
            else:
                page = await self._client.content.page(
                    space_id, page_id, change_request=change_request, format="document"
                )
        except NotFound:
            return None
        return page.document if page.document is not None else {}

    async def check(
        self, space_id: str, comments: Iterable[Comment], *, change_request: str | None = None
    ) -> dict[str, Detached]:
        """The comments on blocks (of at most :data:`MAX_PAGES` pages) whose block is gone: comment id ->
        :class:`Detached`. A page that cannot be read, or whose document carries no block keys, says nothing (its
        comments are not called detached). Remembers the text of the blocks found."""
        by_page: dict[str, list[Comment]] = {}
        for comment in comments:
            if comment.page_id and comment.target.node:
                by_page.setdefault(comment.page_id, []).append(comment)
        scope = f"{space_id}-{change_request}" if change_request else space_id
        memory = self.memory
        kept = memory.recall(scope)
        seen: dict[str, dict[str, str]] = {}
        out: dict[str, Detached] = {}

        async def check_page(page_id: str, listed: list[Comment]) -> None:
            try:
                document = await self._document(space_id, page_id, change_request)
            except ApiError:
                return
            keys = _keys(document) if document is not None else set()
            if document is not None and not keys:
                return  # a document without keys: which block a comment is on cannot be told
            blocks = blocks_of(document) if document is not None else []
            texts = dict(blocks)
            for comment in listed:
                node = comment.target.node.id if comment.target.node else ""
                if node in keys:
                    if node in texts:
                        seen[comment.id] = {"page": page_id, "node": node, "text": texts[node]}
                    continue
                before = kept.get(comment.id, {}).get("text") or await self._text_then(space_id, comment, page_id)
                if before is not None:
                    seen[comment.id] = {"page": page_id, "node": node, "text": before}
                like = most_similar(before, blocks) if before else None
                out[comment.id] = Detached(
                    comment.id,
                    page_id,
                    node,
                    before,
                    page_gone=document is None,
                    suggestion=like[1] if like else None,
                    suggestion_key=like[0] if like else None,
                    similarity=like[2] if like else 0.0,
                )

        await asyncio.gather(*(check_page(p, c) for p, c in list(by_page.items())[:MAX_PAGES]))
        if seen:
            memory.remember(scope, seen)
        return out

    async def _text_then(self, space_id: str, comment: Comment, page_id: str) -> str | None:
        """The block's text in the revision the comment was made on (None: that cannot be read)."""
        revision, node = comment.target.revision, comment.target.node
        if not revision or node is None:
            return None
        try:
            document = await self._document(space_id, page_id, None, revision)
        except ApiError:
            return None
        return dict(blocks_of(document)).get(node.id)
