"""The markdown diff of review: hunks, word spans, side-by-side alignment, added / deleted / identical pages, caps."""

from __future__ import annotations

import time

import pytest

from folio.services.review.diff import (
    MAX_LINE_CHARS,
    MAX_LINES,
    DiffLine,
    diff_markdown,
    word_spans,
)


def _kinds(lines: list[DiffLine]) -> str:
    return "".join({"context": " ", "add": "+", "delete": "-", "hunk": "@", "note": "!"}[line.kind] for line in lines)


def _cut(text: str, spans: tuple[tuple[int, int], ...]) -> list[str]:
    return [text[a:b] for a, b in spans]


def test_identical_pages_have_no_hunks() -> None:
    diff = diff_markdown("# A\n\nSame.\n", "# A\n\nSame.\n")
    assert diff.status == "identical" and not diff.changed
    assert diff.hunks == [] and diff.unified == [] and diff.side_by_side == []
    assert diff.summary == "no change to the text"
    assert diff_markdown(None, None).status == "identical"
    assert diff_markdown("", None).status == "identical"  # an empty page deleted changes no text


def test_one_edit_is_one_hunk_with_context_and_numbers() -> None:
    before = "\n".join(f"line {n}" for n in range(1, 21))
    after = before.replace("line 10", "line ten")
    diff = diff_markdown(before, after)
    assert diff.status == "changed" and (diff.added, diff.removed) == (1, 1)
    assert len(diff.hunks) == 1
    hunk = diff.hunks[0]
    assert hunk.header == "@@ -7,7 +7,7 @@"
    assert _kinds(diff.unified) == "@   -+   "
    deleted, added = diff.unified[4], diff.unified[5]
    assert (deleted.old, deleted.new, added.old, added.new) == (10, None, None, 10)
    assert _cut(deleted.text, deleted.spans) == ["10"] and _cut(added.text, added.spans) == ["ten"]
    assert diff.unified_hunks == [0] and diff.side_hunks == [0]
    assert diff.summary == "+1 -1"


def test_distant_edits_make_separate_hunks_with_their_positions() -> None:
    before = "\n".join(f"l{n}" for n in range(1, 41))
    after = before.replace("l5\n", "l5 edited\n").replace("l35\n", "l35 edited\n")
    diff = diff_markdown(before, after)
    assert [h.header for h in diff.hunks] == ["@@ -2,7 +2,7 @@", "@@ -32,7 +32,7 @@"]
    assert [diff.unified[i].kind for i in diff.unified_hunks] == ["hunk", "hunk"]
    assert [diff.side_by_side[i].header is not None for i in diff.side_hunks] == [True, True]
    assert diff.unified_hunks[1] == 1 + len(diff.hunks[0].lines)


def test_hunk_header_names_the_nearest_heading() -> None:
    before = "# Guide\n\n## Install\n\n" + "\n".join(f"step {n}" for n in range(12)) + "\n"
    after = before.replace("step 9", "step nine")
    assert diff_markdown(before, after).hunks[0].heading == "## Install"


def test_added_page_is_all_additions() -> None:
    diff = diff_markdown(None, "# New\n\nHello.")
    assert diff.status == "added" and (diff.added, diff.removed) == (3, 0)
    assert diff.hunks[0].header == "@@ -0,0 +1,3 @@"
    assert _kinds(diff.unified) == "@+++"
    assert all(row.left is None and row.right is not None for row in diff.side_by_side[1:])
    assert [line.new for line in diff.unified[1:]] == [1, 2, 3]


def test_deleted_page_is_all_deletions() -> None:
    diff = diff_markdown("# Old\n\nBye.", None)
    assert diff.status == "deleted" and (diff.added, diff.removed) == (0, 3)
    assert diff.hunks[0].header == "@@ -1,3 +0,0 @@"
    assert _kinds(diff.unified) == "@---"
    assert all(row.right is None and row.left is not None for row in diff.side_by_side[1:])


def test_side_by_side_pairs_the_similar_lines() -> None:
    before = "# Failover\n\n1. Confirm the primary is down.\n2. Promote the replica."
    after = "# Failover\n\n1. Lower the DNS TTL.\n2. Confirm the primary is down.\n3. Promote the replica."
    diff = diff_markdown(before, after)
    rows = [
        (r.left.text if r.left else None, r.right.text if r.right else None) for r in diff.side_by_side if not r.header
    ]
    assert rows == [
        ("# Failover", "# Failover"),
        ("", ""),
        (None, "1. Lower the DNS TTL."),
        ("1. Confirm the primary is down.", "2. Confirm the primary is down."),
        ("2. Promote the replica.", "3. Promote the replica."),
    ]
    paired = diff.side_by_side[4]
    assert paired.left and paired.right
    assert _cut(paired.left.text, paired.left.spans) == ["1"]
    assert _cut(paired.right.text, paired.right.spans) == ["2"]
    # unified keeps deletions before additions, with the same spans
    assert _kinds(diff.unified) == "@  --+++"
    lefts = [r.left for r in diff.side_by_side if r.left]
    rights = [r.right for r in diff.side_by_side if r.right]
    assert [line.old for line in lefts] == [1, 2, 3, 4]
    assert [line.new for line in rights] == [1, 2, 3, 4, 5]


def test_unlike_lines_share_rows_without_word_spans() -> None:
    diff = diff_markdown("alpha beta gamma", "completely different words here")
    row = diff.side_by_side[1]
    assert row.left and row.right and row.left.spans == () and row.right.spans == ()


@pytest.mark.parametrize(
    ("old", "new", "left", "right"),
    [
        ("ship updates safely.", "ship updates safely and quickly.", [], [" and quickly"]),
        ("a b c", "a x c", ["b"], ["x"]),
        ("| channel | stable |", "| channel | stable (see) |", [], ["(see) "]),
        ("same", "same", [], []),
        ("", "new line", [], ["new line"]),
    ],
)
def test_word_spans(old: str, new: str, left: list[str], right: list[str]) -> None:
    a, b = word_spans(old, new)
    assert _cut(old, a) == left and _cut(new, b) == right


def test_huge_lines_are_highlighted_whole() -> None:
    old, new = "x " * 800, "y " * 800
    a, b = word_spans(old, new)
    assert a == ((0, len(old)),) and b == ((0, len(new)),)


def test_huge_pages_are_capped_and_say_so() -> None:
    before = "\n".join(f"line {n}" for n in range(MAX_LINES + 500))
    after = before.replace("line 3\n", "line three\n") + "\nmore"
    start = time.perf_counter()
    diff = diff_markdown(before, after)
    assert time.perf_counter() - start < 5
    assert diff.truncated
    assert diff.unified[-1].kind == "note" and "not compared" in diff.unified[-1].text
    assert diff.side_by_side[-1].header is not None
    assert len(diff.hunks) == 1  # the edit past the cap ("more") is not compared
    long_line = "w" * (MAX_LINE_CHARS * 2)
    cut = diff_markdown("a", long_line)
    assert len(cut.unified[-1].text) == MAX_LINE_CHARS and cut.unified[-1].text.endswith("\u2026")


def test_a_changed_past_the_cap_only_diff_is_identical() -> None:
    same = "\n".join(f"line {n}" for n in range(MAX_LINES))
    diff = diff_markdown(same + "\nend", same + "\nother end")
    assert diff.truncated and diff.status == "identical" and not diff.hunks
