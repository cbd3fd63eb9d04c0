"""Markdown diffs for review, pure and unit-tested (difflib; nothing here draws).

    diff = diff_markdown(before, after)       # either side may be None: a page created or deleted
    diff.unified                              # DiffLine rows: hunk headers, context, deletions, additions
    diff.side_by_side                         # SideRow rows: a hunk header, or a left and a right line
    diff.unified_hunks, diff.side_hunks       # the row index of each hunk header, for ]c / [c
    page_moves(overview.changes)[page_id]     # a moved page's parent before and after (PageMove.words())

Changed lines carry ``spans``: the character ranges that differ from the line they replace (word level), so a
one-word edit in a long paragraph shows as one word. Pages are capped (:data:`MAX_LINES` lines a side,
:data:`MAX_LINE_CHARS` characters a line) so no page can make a screen slow; ``truncated`` says when.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any, Literal

__all__ = [
    "CONTEXT",
    "MAX_LINES",
    "MAX_LINE_CHARS",
    "DiffLine",
    "Hunk",
    "MarkdownDiff",
    "PageMove",
    "SideRow",
    "diff_markdown",
    "page_moves",
    "word_spans",
]

CONTEXT = 3
"""Unchanged lines shown around each change."""
MAX_LINES = 5_000
"""Lines compared per side; a longer page is compared up to here and says so."""
MAX_LINE_CHARS = 2_000
"""Characters kept per line (a longer line is cut with an ellipsis)."""
MAX_WORD_DIFF_CHARS = 1_000
"""Lines longer than this are highlighted whole rather than word by word."""
MAX_PAIRED_LINES = 60
"""A replaced block bigger than this (lines on both sides) is not paired line by line (it costs their product)."""
PAIR_CUTOFF = 0.5
"""Two lines of a replaced block are paired (shown on one row, words highlighted) when this similar or more."""
MIN_SIMILARITY = 0.35
"""Below this, two paired lines share too little for word highlights to help: the whole line is new."""

Kind = Literal["context", "add", "delete", "hunk", "note"]
Span = tuple[int, int]
"""``[start, end)`` character offsets in a line's text."""

_TOKENS = re.compile(r"\w+|\s+|[^\w\s]", re.UNICODE)
_HEADING = re.compile(r"^#{1,6}\s+\S")


@dataclass(frozen=True, slots=True)
class DiffLine:
    """One line of a diff: its kind, its text, its 1-based number on each side, the spans that changed."""

    kind: Kind
    text: str
    old: int | None = None
    new: int | None = None
    spans: tuple[Span, ...] = ()


@dataclass(frozen=True, slots=True)
class SideRow:
    """One row of the side-by-side view: a hunk header (``header``), or the line before (left) and after
    (right); a side is None where the other side has a line the first lacks."""

    left: DiffLine | None = None
    right: DiffLine | None = None
    header: DiffLine | None = None


@dataclass
class Hunk:
    """A run of changes with their context: where it starts on each side and its lines."""

    old_start: int
    old_count: int
    new_start: int
    new_count: int
    heading: str = ""
    lines: list[DiffLine] = field(default_factory=list)

    @property
    def header(self) -> str:
        text = f"@@ -{self.old_start},{self.old_count} +{self.new_start},{self.new_count} @@"
        return f"{text} {self.heading}" if self.heading else text


@dataclass
class MarkdownDiff:
    """The difference between two versions of a page's markdown."""

    status: Literal["identical", "added", "deleted", "changed"]
    hunks: list[Hunk] = field(default_factory=list)
    unified: list[DiffLine] = field(default_factory=list)
    side_by_side: list[SideRow] = field(default_factory=list)
    unified_hunks: list[int] = field(default_factory=list)
    side_hunks: list[int] = field(default_factory=list)
    added: int = 0
    removed: int = 0
    truncated: bool = False

    @property
    def changed(self) -> bool:
        return self.status != "identical"

    @property
    def summary(self) -> str:
        """``+3 -1`` lines (or ``no change to the text``)."""
        if not self.changed:
            return "no change to the text"
        return f"+{self.added} -{self.removed}"


def _lines(text: str | None) -> tuple[list[str], bool]:
    if not text:
        return [], False
    lines = text.splitlines()
    cut = len(lines) > MAX_LINES
    if cut:
        lines = lines[:MAX_LINES]
    return [line if len(line) <= MAX_LINE_CHARS else line[: MAX_LINE_CHARS - 1] + "\u2026" for line in lines], cut


def _merge(spans: list[Span]) -> tuple[Span, ...]:
    out: list[Span] = []
    for start, end in spans:
        if end <= start:
            continue
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return tuple(out)


def word_spans(old: str, new: str) -> tuple[tuple[Span, ...], tuple[Span, ...]]:
    """The character ranges of ``old`` and of ``new`` that differ, by words (punctuation and runs of spaces
    are words of their own). Lines too long or too different give the whole line."""
    whole_old, whole_new = ((0, len(old)),) if old else (), ((0, len(new)),) if new else ()
    if len(old) > MAX_WORD_DIFF_CHARS or len(new) > MAX_WORD_DIFF_CHARS:
        return whole_old, whole_new
    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.ratio() < MIN_SIMILARITY:
        return whole_old, whole_new
    a_at, b_at = _offsets(a), _offsets(b)
    left: list[Span] = []
    right: list[Span] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        left.append((a_at[i1], a_at[i2]))
        right.append((b_at[j1], b_at[j2]))
    return _merge(left), _merge(right)


def _offsets(tokens: list[str]) -> list[int]:
    at = [0]
    for token in tokens:
        at.append(at[-1] + len(token))
    return at


def _heading(lines: list[str], before: int) -> str:
    """The nearest markdown heading above line index ``before`` (git's "function context", for markdown)."""
    for index in range(min(before, len(lines)) - 1, -1, -1):
        if _HEADING.match(lines[index]):
            return lines[index].strip()[:80]
    return ""


def diff_markdown(before: str | None, after: str | None, *, context: int = CONTEXT) -> MarkdownDiff:
    """Compare two versions of a page's markdown (None: the page is not there on that side)."""
    if (before or "") == (after or ""):
        return MarkdownDiff("identical")
    status: Literal["added", "deleted", "changed"] = (
        "added" if before is None else "deleted" if after is None else "changed"
    )
    old, old_cut = _lines(before)
    new, new_cut = _lines(after)
    result = MarkdownDiff(status, truncated=old_cut or new_cut)
    matcher = difflib.SequenceMatcher(None, old, new)
    for group in matcher.get_grouped_opcodes(context):
        _add_hunk(result, group, old, new)
    if result.truncated:
        note = DiffLine("note", f"The page is longer than {MAX_LINES:,} lines: the rest is not compared.")
        result.unified.append(note)
        result.side_by_side.append(SideRow(header=note))
    if not result.hunks:  # differs only past the cap, or in line endings
        result.status = "identical"
    return result


def _add_hunk(
    result: MarkdownDiff, group: list[tuple[str, int, int, int, int]], old: list[str], new: list[str]
) -> None:
    i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
    hunk = Hunk(
        old_start=i1 + 1 if i2 > i1 else i1,
        old_count=i2 - i1,
        new_start=j1 + 1 if j2 > j1 else j1,
        new_count=j2 - j1,
        heading=_heading(new, j1) or _heading(old, i1),
    )
    header = DiffLine("hunk", hunk.header)
    result.unified_hunks.append(len(result.unified))
    result.side_hunks.append(len(result.side_by_side))
    result.unified.append(header)
    result.side_by_side.append(SideRow(header=header))
    for tag, a1, a2, b1, b2 in group:
        if tag == "equal":
            for offset in range(a2 - a1):
                line_old, line_new = a1 + offset, b1 + offset
                line = DiffLine("context", new[line_new], line_old + 1, line_new + 1)
                hunk.lines.append(line)
                result.side_by_side.append(
                    SideRow(DiffLine("context", old[line_old], line_old + 1, line_new + 1), line)
                )
            continue
        deleted = [DiffLine("delete", old[i], old=i + 1) for i in range(a1, a2)]
        added = [DiffLine("add", new[j], new=j + 1) for j in range(b1, b2)]
        rows: list[tuple[DiffLine | None, DiffLine | None]] = list(zip_longest(deleted, added))
        if tag == "replace" and len(deleted) + len(added) <= MAX_PAIRED_LINES:
            rows = _align(deleted, added)
            deleted = [left for left, _ in rows if left is not None]
            added = [right for _, right in rows if right is not None]
        result.removed += len(deleted)
        result.added += len(added)
        hunk.lines.extend(deleted)
        hunk.lines.extend(added)
        result.side_by_side.extend(SideRow(left, right) for left, right in rows)
    result.unified.extend(hunk.lines)
    result.hunks.append(hunk)


def _align(deleted: list[DiffLine], added: list[DiffLine]) -> list[tuple[DiffLine | None, DiffLine | None]]:
    """Rows for a replaced block: the most similar deleted and added lines paired on one row (with word spans),
    recursively before and after that pair, as difflib's Differ pairs them; lines without a similar partner
    share rows in order, highlighted whole."""
    if not deleted or not added:
        return list(zip_longest(deleted, added))
    best, best_i, best_j = PAIR_CUTOFF, -1, -1
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    for j, right in enumerate(added):
        matcher.set_seq2(right.text)
        for i, left in enumerate(deleted):
            matcher.set_seq1(left.text)
            if matcher.real_quick_ratio() > best and matcher.quick_ratio() > best and matcher.ratio() > best:
                best, best_i, best_j = matcher.ratio(), i, j
    if best_i < 0:
        return list(zip_longest(deleted, added))
    old, new = deleted[best_i], added[best_j]
    left_spans, right_spans = word_spans(old.text, new.text)
    pair = (
        DiffLine("delete", old.text, old.old, None, left_spans),
        DiffLine("add", new.text, None, new.new, right_spans),
    )
    return [
        *_align(deleted[:best_i], added[:best_j]),
        pair,
        *_align(deleted[best_i + 1 :], added[best_j + 1 :]),
    ]


@dataclass(frozen=True)
class PageMove:
    """Where a moved page was and is: its parent's path (or title) on each side, "" at the top level."""

    before: str
    after: str

    def words(self) -> str:
        """``moved from “Guides” to the top level``."""
        return f"moved from {_place(self.before)} to {_place(self.after)}"


def _place(parent: str) -> str:
    return f"under “{parent}”" if parent else "the top level"


def page_moves(changes: Iterable[Any]) -> dict[str, PageMove]:
    """The pages moved by a change list (the service's ``page_moved`` changes with their ``parent`` before and
    after), by page id."""
    out: dict[str, PageMove] = {}
    for change in changes:
        if getattr(change, "type", None) != "page_moved" or change.page is None:
            continue
        parent = change.parent
        before = parent.before if parent is not None else None
        after = parent.after if parent is not None else None
        out[change.page.id] = PageMove(
            (before.path or before.title) if before else "", (after.path or after.title) if after else ""
        )
    return out
