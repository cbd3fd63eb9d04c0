"""Comments on blocks over the seeded sandbox: where a thread sits in words (the block's first words, or that the
block is gone, never its id), the blocks of a page placed on its markdown, and a change request's changed pages."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient
from folio.sandbox import SandboxState
from folio.sandbox.revisions import find_page
from folio.services import Services
from folio.services.review.comments import CommentService
from tests.conftest import FROZEN_AT


@pytest.fixture
def service(client: GitBookClient) -> CommentService:
    svc = Services(client).comments
    svc.clock = lambda: FROZEN_AT
    return svc


def on_block(state: SandboxState, body: str) -> dict[str, Any]:
    return next(c for c in state.comments.values() if c["body"].startswith(body) and c["target"].get("node"))


def page_of(state: SandboxState, comment: dict[str, Any]) -> dict[str, Any]:
    cr = state.change_requests.get(comment.get("changeRequest") or "")
    revision = cr["revision"] if cr else state.spaces[comment["space"]]["revision"]
    found = find_page(state.revisions[revision]["pages"], comment["target"]["page"]["id"])
    assert found is not None
    return found[0]


async def test_a_thread_on_a_block_is_placed_by_the_blocks_first_words(
    service: CommentService, state: SandboxState
) -> None:
    comment = on_block(state, "Typo")
    thread = await service.thread(comment["space"], comment["id"])
    assert thread.where == "On “Admins manage members; editors edit content.” of “Roles and permissions”"


async def test_a_block_gone_from_its_page_is_said_so_never_by_its_id(
    service: CommentService, state: SandboxState
) -> None:
    comment = on_block(state, "Typo")
    page = page_of(state, comment)
    page["markdown"] = page["markdown"].replace("Admins manage members", "Owners manage members")  # a new block
    thread = await service.thread(comment["space"], comment["id"])
    assert thread.where == "On a block no longer in the page “Roles and permissions”"
    assert comment["target"]["node"]["id"] not in thread.where


async def test_a_block_keeps_its_place_when_another_block_changes(service: CommentService, state: SandboxState) -> None:
    comment = on_block(state, "Typo")
    page = page_of(state, comment)
    page["markdown"] = page["markdown"] + "\n\nA new paragraph at the end.\n"
    thread = await service.thread(comment["space"], comment["id"])
    assert thread.where.startswith("On “Admins manage members")


async def test_page_blocks_place_the_keyed_blocks_on_the_markdown(service: CommentService, state: SandboxState) -> None:
    cr = next(c for c in state.change_requests.values() if c["subject"] == "Clarify Linux install steps")
    linux = next(p for p in _pages(state, cr["revision"]) if p.get("title") == "Linux")
    blocks = await service.page_blocks(cr["space"], linux["id"], linux["markdown"], change_request=cr["id"])
    assert blocks is not None
    lines = linux["markdown"].splitlines()
    at = next(i + 1 for i, line in enumerate(lines) if line.startswith("The package needs"))
    found = next(b for b in blocks if b.first <= at <= b.last)
    assert found.text.startswith("The package needs Ubuntu")
    posted = await service.create(
        cr["space"], "Which kernel?", change_request=cr["id"], page=linux["id"], node=found.key
    )
    listing = await service.load(cr["space"], change_request=cr["id"])
    texts = await service.block_texts(cr["space"], listing.comments, change_request=cr["id"])
    assert texts[found.key] == found.text and getattr(posted, "id", None) in {c.id for c in listing.comments}
    assert await service.page_blocks(cr["space"], "no-such-page", "", change_request=cr["id"]) is None


async def test_a_change_requests_listing_knows_its_changed_pages(service: CommentService, state: SandboxState) -> None:
    cr = next(c for c in state.change_requests.values() if c["subject"] == "Reorganise troubleshooting")
    listing = await service.load(cr["space"], change_request=cr["id"])
    titles = {p.id: p.title for p in listing.pages}
    assert {titles.get(pid, pid): words for pid, words in listing.changed.items()}["Troubleshooting"] == "edited, moved"
    space = await service.load(cr["space"])
    assert space.changed == {}


def _pages(state: SandboxState, revision: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def visit(items: list[dict[str, Any]]) -> None:
        for page in items:
            out.append(page)
            visit(page.get("pages") or [])

    visit(state.revisions[revision]["pages"])
    return out
