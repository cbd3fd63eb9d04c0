"""Which block of a page a line of its markdown belongs to: the comment target of a line of a diff. Pure.

A page comes as markdown (what the diff compares) and as a rich-text document whose blocks carry the ``key`` a
comment targets (its ``node``). The markdown is cut into blocks the way markdown reads (headings, paragraphs,
lists and their items, quotes, fenced code, tables, ``{% %}`` blocks), and those are paired in order with the
document's top-level blocks by their text (the same text first, then the blocks left between two pairs, by
similarity or one for one). A list's items are paired with the list's item blocks when both have as many.

    located = locate_blocks(markdown, document)
    block = block_at(located, 12)        # the Block holding line 12 (1-based), or None
    block.key, block.text, block.first, block.last
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from folio.models.common import document_text

__all__ = ["Block", "block_at", "locate_blocks", "markdown_blocks", "words"]

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_TAG = re.compile(r"^\s*\{%\s*(\w+)")
_MARKS = re.compile(r"[*_`~#>\[\]()!|]|^\s*([-*+]|\d+[.)])\s+")
_SPACE = re.compile(r"\s+")
SIMILAR = 0.6
"""Two blocks left between paired ones are paired when their texts are at least this similar."""


@dataclass(frozen=True)
class Block:
    """A block of the page: its key (the comment's ``node``), its text, and its lines in the markdown."""

    key: str
    text: str
    first: int
    last: int
    """1-based, inclusive."""


@dataclass(frozen=True)
class _Span:
    first: int  # 0-based, inclusive
    last: int
    kind: str
    items: tuple[tuple[int, int], ...] = ()


def words(text: str) -> str:
    """A text as it compares: markdown marks and runs of spaces gone, lower case."""
    return _SPACE.sub(" ", _MARKS.sub(" ", text)).strip().lower()


def _starts(line: str) -> bool:
    return bool(_FENCE.match(line) or _HEADING.match(line) or _ITEM.match(line) or _TAG.match(line)) or (
        line.lstrip().startswith((">", "|"))
    )


def markdown_blocks(lines: list[str]) -> list[_Span]:
    """The blocks of a markdown text (0-based line ranges)."""
    out: list[_Span] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        start = i
        if not line.strip():
            i += 1
            continue
        if fence := _FENCE.match(line):
            mark = fence.group(1)
            i += 1
            while i < n and not lines[i].lstrip().startswith(mark):
                i += 1
            out.append(_Span(start, min(i, n - 1), "code"))
            i += 1
        elif _HEADING.match(line):
            out.append(_Span(i, i, "heading"))
            i += 1
        elif (tag := _TAG.match(line)) and not tag.group(1).startswith("end"):
            name, depth = tag.group(1), 0
            while i < n:
                inner = _TAG.match(lines[i])
                if inner and inner.group(1) == name:
                    depth += 1
                elif inner and inner.group(1) == "end" + name:
                    depth -= 1
                    if depth == 0:
                        break
                i += 1
            out.append(_Span(start, min(i, n - 1), "tag"))
            i += 1
        elif _ITEM.match(line):
            items: list[tuple[int, int]] = []
            indent = len(_ITEM.match(line).group(1))  # type: ignore[union-attr]
            while i < n and lines[i].strip():
                item = _ITEM.match(lines[i])
                if item and len(item.group(1)) <= indent:
                    items.append((i, i))
                elif items:
                    items[-1] = (items[-1][0], i)
                i += 1
            out.append(_Span(start, i - 1, "list", tuple(items)))
        else:
            quote, table = line.lstrip().startswith(">"), line.lstrip().startswith("|")
            i += 1
            while i < n and lines[i].strip():
                if quote or table:
                    if not lines[i].lstrip().startswith(">" if quote else "|"):
                        break
                elif _starts(lines[i]):
                    break
                i += 1
            out.append(_Span(start, i - 1, "quote" if quote else "table" if table else "paragraph"))
    return out


def _text(lines: list[str], first: int, last: int) -> str:
    return words(" ".join(lines[first : last + 1]))


def locate_blocks(markdown: str, document: Any) -> list[Block]:
    """The blocks of ``document`` (with keys) placed on the lines of ``markdown``, in order."""
    nodes = [n for n in (document or {}).get("nodes") or [] if isinstance(n, dict) and n.get("key")]
    lines = markdown.splitlines()
    spans = markdown_blocks(lines)
    ours = [_text(lines, s.first, s.last) for s in spans]
    theirs = [words(document_text(n)) for n in nodes]
    pairs: list[tuple[int, int]] = []
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    for tag, a1, a2, b1, b2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and a2 - a1 == b2 - b1):
            pairs.extend(zip(range(a1, a2), range(b1, b2), strict=True))
        elif tag == "replace":
            pairs.extend(_similar(ours, theirs, range(a1, a2), range(b1, b2)))
    out: list[Block] = []
    for a, b in pairs:
        span, node = spans[a], nodes[b]
        text = document_text(node).strip()
        kids = [k for k in node.get("nodes") or [] if isinstance(k, dict) and k.get("object") == "block"]
        if span.kind == "list" and len(span.items) == len(kids) and all(k.get("key") for k in kids):
            for (first, last), kid in zip(span.items, kids, strict=True):
                out.append(Block(str(kid["key"]), document_text(kid).strip(), first + 1, last + 1))
            continue
        out.append(Block(str(node["key"]), text, span.first + 1, span.last + 1))
    return out


def _similar(ours: list[str], theirs: list[str], left: range, right: range) -> list[tuple[int, int]]:
    """Pairs of the blocks between two matched ones, each paired with its most similar, in order."""
    out: list[tuple[int, int]] = []
    start = right.start
    for a in left:
        best, at = SIMILAR, -1
        for b in range(start, right.stop):
            ratio = difflib.SequenceMatcher(None, ours[a], theirs[b], autojunk=False).ratio()
            if ratio >= best:
                best, at = ratio, b
        if at >= 0:
            out.append((a, at))
            start = at + 1
    return out


def block_at(blocks: list[Block], line: int) -> Block | None:
    """The block holding 1-based ``line`` (None: a blank line, or a block the document lacks)."""
    return next((b for b in blocks if b.first <= line <= b.last), None)
