"""Your edit of a page carried onto a colleague's newer text of it (a three-way merge by lines). Pure.

    merged = rebase(base, mine, theirs)     # base: the text both edits started from
    merged.text                             # their text with your changes in it
    merged.conflicts                        # places both changed differently, marked in the text

Where only you changed lines, yours are taken; where only they did, theirs; where both changed the same lines
differently (or both inserted lines at the same place), both versions are kept one after the other between marks,
as Git does::

    <<<<<<< yours
    your lines
    =======
    their lines
    >>>>>>> theirs (change request #3 now)

The writer keeps what should stay and removes the marks in the editor; :func:`conflict_marks` counts the marks
left, so nothing is sent with them by mistake.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

__all__ = ["MINE", "SPLIT", "THEIRS", "Rebased", "conflict_marks", "rebase"]

MINE = "<<<<<<< yours"
SPLIT = "======="
THEIRS = ">>>>>>> theirs"


@dataclass(frozen=True)
class Rebased:
    text: str
    conflicts: int
    """How many places both changed differently (each marked in ``text``)."""


@dataclass(frozen=True)
class _Change:
    start: int  # the base lines replaced: [start, end)
    end: int
    lines: tuple[str, ...]


def _changes(base: list[str], other: list[str]) -> list[_Change]:
    matcher = difflib.SequenceMatcher(None, base, other, autojunk=False)
    return [_Change(i1, i2, tuple(other[j1:j2])) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _apply(base: list[str], start: int, end: int, changes: list[_Change]) -> list[str]:
    """Base lines ``[start, end)`` with ``changes`` (all inside them, in order) made."""
    out: list[str] = []
    at = start
    for change in changes:
        out += base[at : change.start]
        out += change.lines
        at = change.end
    return out + base[at:end]


def _joins(change: _Change, end: int, group: list[tuple[_Change, int]]) -> bool:
    """Whether ``change`` belongs with the chunk ``group`` (ending at base line ``end``): it overlaps it, or both
    insert lines at the same place (the order of the two would be a guess)."""
    if change.start < end:
        return True
    inserting = change.start == change.end == end
    return inserting and any(c.start == c.end == end for c, _ in group)


def rebase(base: str, mine: str, theirs: str, *, theirs_label: str = "") -> Rebased:
    """Your changes (``base`` → ``mine``) made on ``theirs``; both changing the same place differently is marked
    (``theirs_label`` follows the closing mark: where their text is from)."""
    old, left, right = base.splitlines(), mine.splitlines(), theirs.splitlines()
    tagged = sorted(
        [(c, 0) for c in _changes(old, left)] + [(c, 1) for c in _changes(old, right)],
        key=lambda item: (item[0].start, item[0].end),
    )
    out: list[str] = []
    conflicts = 0
    at = 0
    i = 0
    while i < len(tagged):
        # A chunk: changes that overlap or touch, from either side, taken together.
        start, end = tagged[i][0].start, tagged[i][0].end
        group = [tagged[i]]
        i += 1
        while i < len(tagged) and _joins(tagged[i][0], end, group):
            end = max(end, tagged[i][0].end)
            group.append(tagged[i])
            i += 1
        out += old[at:start]
        at = end
        sides = {side for _, side in group}
        yours = _apply(old, start, end, [c for c, side in group if side == 0])
        their = _apply(old, start, end, [c for c, side in group if side == 1])
        if sides == {0}:
            out += yours
        elif sides == {1} or yours == their:
            out += their
        else:
            conflicts += 1
            closing = f"{THEIRS} ({theirs_label})" if theirs_label else THEIRS
            out += [MINE, *yours, SPLIT, *their, closing]
    out += old[at:]
    ends = "\n" if (mine.endswith("\n") or theirs.endswith("\n")) and out else ""
    return Rebased("\n".join(out) + ends, conflicts)


def conflict_marks(text: str) -> int:
    """How many conflict blocks :func:`rebase` marked are left in ``text``."""
    return sum(1 for line in text.splitlines() if line.startswith(MINE))
