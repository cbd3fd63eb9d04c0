"""The sandbox's ``--scale`` adds a large change request: 200 pages changed, pages of 5,000 lines, moved and
deleted pages, tables and code blocks (what the diff benchmark opens and scrolls)."""

from __future__ import annotations

from collections import Counter

from folio.sandbox.revisions import diff_pages, walk
from folio.sandbox.seed import populate
from folio.sandbox.seed.large import LARGE_CR_SUBJECT, LARGE_SPACE_TITLE, LONG_LINES
from folio.sandbox.state import SandboxState
from folio.services.review.diff import diff_markdown


def _large(state: SandboxState) -> tuple[dict, list[dict], list[dict]]:  # type: ignore[type-arg]
    cr = next(c for c in state.change_requests.values() if c["subject"] == LARGE_CR_SUBJECT)
    space = state.spaces[cr["space"]]
    base = state.revisions[space["revision"]]["pages"]
    return cr, base, state.revisions[cr["revision"]]["pages"]


def test_scale_adds_a_change_request_of_200_pages_with_every_kind_of_change() -> None:
    state = populate(SandboxState(seed=7), scale=1)
    cr, base, head = _large(state)
    assert state.spaces[cr["space"]]["title"] == LARGE_SPACE_TITLE
    assert cr["status"] == "open" and state.default_user in cr["requestedReviewers"]
    kinds = Counter(change["type"] for change in diff_pages(base, head))
    assert sum(kinds.values()) >= 200
    assert kinds["page_edited"] >= 150 and kinds["page_created"] and kinds["page_deleted"] and kinds["page_moved"]


def test_its_long_pages_have_5000_lines_of_tables_and_code_and_a_diff_all_along() -> None:
    state = populate(SandboxState(seed=7), scale=1)
    _, base, head = _large(state)
    after = {page["id"]: page["markdown"] for page, _, _ in walk(head)}
    long = [page for page, _, _ in walk(base) if page["markdown"].count("\n") >= LONG_LINES]
    assert len(long) == 3
    diffs = []
    for page in long:
        text = page["markdown"]
        assert "| --- | --- | --- |" in text and "```python" in text
        diff = diff_markdown(text, after[page["id"]])
        assert diff.status == "changed" and not diff.truncated  # within the client's 5,000 lines
        assert diff.added > 150 and diff.removed > 150
        assert diff.unified_hunks[-1] > 0.9 * len(diff.unified) - 20  # changed all along the page
        diffs.append(diff)
    assert len(diffs[0].unified) >= LONG_LINES  # one diff to scroll of 5,000 lines and more
    assert all(len(diff.hunks) > 100 for diff in diffs[1:])  # many hunks, changed here and there


def test_no_large_change_request_without_scale() -> None:
    state = populate(SandboxState(seed=7))
    assert all(c["subject"] != LARGE_CR_SUBJECT for c in state.change_requests.values())
