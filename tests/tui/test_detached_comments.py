"""Detached comments on the change request's comments tab: a comment whose block another user rewrote (through the
API) stays listed, under a heading that says it is detached, with the block's text as it was (kept when the comment
was first shown) and the most similar block of the page now; it is never put on that other block."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from folio.models.comment import Comment
from folio.sandbox import SandboxState, SandboxTransport
from folio.sandbox.revisions import find_page, walk
from folio.services import Services
from folio.services.review.detached import BlockMemory, blocks_of
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.screens.review.thread import Post, ThreadScreen
from folio.tui.widgets.comments_panel import BlockHead, CommentsPanel
from tests.conftest import SANDBOX_URL, TOKEN
from tests.tui.conftest import settle

Opener = Callable[..., Any]
OTHER = "gb_api_other_user_token"
OLD = "The package needs Ubuntu 22.04 or newer (Debian 12 works too)."
NEW = "The package needs Ubuntu 22.04 or newer, or Debian 12."


def user(state: SandboxState, name: str) -> str:
    return next(uid for uid, u in state.users.items() if u["email"].startswith(name + "@"))


@pytest.fixture
def record(state: SandboxState) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == "Clarify Linux install steps")


@pytest.fixture
def as_emeka(state: SandboxState, app: Any) -> httpx.AsyncClient:
    state.tokens = {TOKEN: state.default_user, OTHER: user(state, "emeka")}
    return httpx.AsyncClient(
        transport=SandboxTransport(app), base_url=SANDBOX_URL + "/v1", headers={"Authorization": f"Bearer {OTHER}"}
    )


def linux_of(state: SandboxState, record: dict[str, Any]) -> dict[str, Any]:
    return next(p for p, _, _ in walk(state.revisions[record["revision"]]["pages"]) if p["title"] == "Linux")


async def rewrite(state: SandboxState, record: dict[str, Any], other: httpx.AsyncClient, new: str) -> None:
    page = linux_of(state, record)
    markdown = page["markdown"].replace(OLD, new)
    assert markdown != page["markdown"]
    path = f"/spaces/{record['space']}/change-requests/{record['id']}/content"
    change = {"operation": "update_page", "page": page["id"], "document": {"markdown": markdown}}
    answer = await other.post(path, json={"changes": [change]})
    assert answer.status_code == 200, answer.text


async def comment_on_the_block(services: Services, record: dict[str, Any], page_id: str) -> Comment:
    page = await services.client.content.page(record["space"], page_id, change_request=record["id"], format="document")
    key = next(k for k, t in blocks_of(page.document) if t == OLD)
    return await services.client.comments.create(
        record["space"], "Which Debian versions?", change_request=record["id"], page=page_id, node=key
    )


def under(panel: CommentsPanel, comment_id: str) -> str | None:
    """The label of the block heading the comment's row sits under."""
    label = None
    for row in panel.browser.list.visible_rows:
        if isinstance(row.data, BlockHead):
            label = row.data.label
        if row.key == comment_id:
            return label
    return None


async def comments_tab(pilot: Pilot[None]) -> CommentsPanel:
    await pilot.press("3")
    await settle(pilot)
    return pilot.app.screen.query_one(CommentsPanel)


async def test_a_comment_whose_block_was_rewritten_shows_as_detached_with_its_old_text(
    services: Services, state: SandboxState, open_app: Opener, record: dict[str, Any], as_emeka: httpx.AsyncClient
) -> None:
    comment = await comment_on_the_block(services, record, linux_of(state, record)["id"])
    screen = lambda: ChangeRequestScreen(services, record["space"], record["number"])  # noqa: E731
    async with open_app(screen) as (_app, pilot):
        panel = await comments_tab(pilot)
        assert (
            under(panel, comment.id)
            == "\u00b6 \u201cThe package needs Ubuntu 22.04 or newer (Debian 12 works to\u2026\u201d"
        )
        assert panel.detached == {}
    # While nobody looks, another user rewrites the block: the page no longer has it.
    await rewrite(state, record, as_emeka, NEW)
    async with open_app(screen) as (_app, pilot):
        panel = await comments_tab(pilot)
        label = under(panel, comment.id)  # still under its own block's heading, never the similar block's
        assert label is not None and label.startswith("\u26a0 Detached \u201cThe package needs Ubuntu 22.04")
        assert "Detached \u201cThe package needs Ubuntu 22.04 or newer (Debian" in label  # the block's text as it was
        assert panel.detached[comment.id].text == OLD
        assert f"now most like \u201c{NEW}\u201d" in label
        assert panel.detached[comment.id].suggestion == NEW


async def test_the_old_text_comes_from_this_machine_first(
    services: Services, state: SandboxState, open_app: Opener, record: dict[str, Any], as_emeka: httpx.AsyncClient
) -> None:
    linux = linux_of(state, record)
    comment = await comment_on_the_block(services, record, linux["id"])
    screen = lambda: ChangeRequestScreen(services, record["space"], record["number"])  # noqa: E731
    async with open_app(screen) as (_app, pilot):
        await comments_tab(pilot)
    kept = BlockMemory().recall(f"{record['space']}-{record['id']}")
    assert kept[comment.id] == {
        "page": linux["id"],
        "node": comment.target.node.id if comment.target.node else "",
        "text": OLD,
    }
    # The revision the comment was made on is no longer readable: the kept text still says what it was on.
    await rewrite(state, record, as_emeka, "Ubuntu only.")
    del state.revisions[comment.target.revision or ""]
    async with open_app(screen) as (_app, pilot):
        panel = await comments_tab(pilot)
        label = under(panel, comment.id)
        assert (
            label is not None
            and "Detached \u201cThe package needs" in label
            and "no block of the page is like it now" in label
        )
        assert panel.detached[comment.id].text == OLD
        found = find_page(state.revisions[record["revision"]]["pages"], linux["id"])
        assert found is not None and OLD not in found[0]["markdown"]


async def test_the_thread_of_a_detached_comment_says_so(
    services: Services, state: SandboxState, open_app: Opener, record: dict[str, Any], as_emeka: httpx.AsyncClient
) -> None:
    comment = await comment_on_the_block(services, record, linux_of(state, record)["id"])
    thread = lambda: ThreadScreen(services, record["space"], comment.id, change_request=record["id"])  # noqa: E731
    async with open_app(thread) as (app, _pilot):
        assert "Detached" not in str(app.screen.query_one("#thread-where", Static).render())  # its block is there
    await rewrite(state, record, as_emeka, NEW)
    async with open_app(thread, size=(120, 30)) as (app, _pilot):
        where = str(app.screen.query_one("#thread-where", Static).render())
        assert "\u26a0 Detached \u201cThe package needs Ubuntu 22.04 or newer (Debian 12" in where
        assert f"now most like \u201c{NEW}\u201d" in where
        assert [post.item.id for post in app.screen.query(Post)][:1] == [comment.id]  # the thread is all there
