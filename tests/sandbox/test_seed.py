"""The demo seed: change requests are discussed where they change things, and the seed is deterministic."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from folio.sandbox import SandboxState
from folio.sandbox.clock import Clock
from folio.sandbox.revisions import diff_pages, walk
from folio.sandbox.seed import populate
from folio.sandbox.state import Record

FROZEN_AT = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


def seeded(scale: int = 0) -> SandboxState:
    state = SandboxState(clock=Clock(FROZEN_AT), seed=7)
    return populate(state, scale=scale)


def changes(state: SandboxState, cr: Record) -> list[Record]:
    base = state.revisions[cr.get("revisionMergedAncestor") or cr["revisionInitial"]]["pages"]
    return diff_pages(base, state.revisions[cr["revision"]]["pages"])


@pytest.mark.parametrize("scale", [0, 30])
def test_change_request_comments_are_about_the_pages_they_change(scale: int) -> None:
    state = seeded(scale)
    discussed = 0
    for cr in state.change_requests.values():
        changed = changes(state, cr)
        kept = {c["page"] for c in changed if c["type"] != "page_deleted"}
        titles = {c["title"] for c in changed}
        for comment in (c for c in state.comments.values() if c["changeRequest"] == cr["id"]):
            discussed += 1
            page = (comment["target"].get("page") or {}).get("id")
            if page is None:  # on the whole change request: it names a page it changes
                assert any(f"**{title}**" in comment["body"] for title in titles), (cr["subject"], comment["body"])
            else:
                assert page in kept, (cr["subject"], comment["body"])
    assert discussed >= 15


def test_the_linux_change_request_discusses_linux_not_the_welcome_page() -> None:
    state = seeded()
    cr = next(c for c in state.change_requests.values() if c["subject"] == "Clarify Linux install steps")
    assert cr["number"] == 1
    titles = {p["id"]: p["title"] for p, _, _ in walk(state.revisions[cr["revision"]]["pages"])}
    comments = [c for c in state.comments.values() if c["changeRequest"] == cr["id"]]
    assert comments and {titles[c["target"]["page"]["id"]] for c in comments} <= {"Linux", "Windows"}
    assert all("Welcome" not in c["body"] for c in comments)


def test_a_page_a_change_request_deletes_is_discussed_on_the_whole_change_request() -> None:
    state = seeded()
    cr = next(c for c in state.change_requests.values() if c["subject"].startswith("Remove the deprecated"))
    comments = [c for c in state.comments.values() if c["changeRequest"] == cr["id"]]
    assert comments and all("page" not in c["target"] for c in comments)
    assert "Rollouts API" in comments[0]["body"]


def test_the_seed_is_deterministic() -> None:
    one, two = seeded(), seeded()
    for store in ("spaces", "change_requests", "comments", "sites", "clusters", "translations"):
        assert list(getattr(one, store)) == list(getattr(two, store)), store
