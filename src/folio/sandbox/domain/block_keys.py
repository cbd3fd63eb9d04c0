"""The keys of a page's blocks (the comment target's ``node``), as the sandbox gives them.

The service gives every block of a document a ``key`` that stays with the block while it is edited elsewhere. The
sandbox keeps a page as markdown, so a block's key is derived from what it is: the page's id, the block's type and
text, and how many blocks of the same type and text come before it in the page. A block keeps its key while other
blocks of the page change (a comment on it stays on it); a block whose text changes gets a new key (a comment on
its old text no longer finds it, as when the service's block is replaced).

    document = with_keys(markdown_document(markdown), page_id)
    block_keys(document)        # [(key, text)] of its top-level blocks
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

from folio.models.common import document_text

__all__ = ["KEY_LENGTH", "block_keys", "with_keys"]

KEY_LENGTH = 12
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _key(page_id: str, kind: str, text: str, nth: int) -> str:
    digest = int.from_bytes(hashlib.sha1(f"{page_id}\0{kind}\0{text}\0{nth}".encode()).digest()[:9], "big")
    out = []
    for _ in range(KEY_LENGTH):
        digest, rest = divmod(digest, len(_ALPHABET))
        out.append(_ALPHABET[rest])
    return "".join(out)


def with_keys(document: dict[str, Any], page_id: str) -> dict[str, Any]:
    """``document`` with a ``key`` on each of its blocks (nested ones too), in place; returns it."""
    seen: Counter[tuple[str, str]] = Counter()

    def visit(nodes: list[Any]) -> None:
        for node in nodes:
            if not isinstance(node, dict) or node.get("object") != "block":
                continue
            kind, text = str(node.get("type", "")), document_text(node)
            node["key"] = _key(page_id, kind, text, seen[(kind, text)])
            seen[(kind, text)] += 1
            visit(node.get("nodes") or [])

    visit(document.get("nodes") or [])
    return document


def block_keys(document: dict[str, Any]) -> list[tuple[str, str]]:
    """The top-level blocks of a keyed document: (key, text) in order."""
    return [
        (str(node["key"]), document_text(node))
        for node in document.get("nodes") or []
        if isinstance(node, dict) and node.get("key")
    ]
