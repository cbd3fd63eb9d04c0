"""CommentService over the seeded sandbox: the grouped list, the thread, and every write, asserting on what the
sandbox holds afterwards; and its pure helpers (grouping, ages, block lookup)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from folio.api import GitBookClient, errors
from folio.models.comment import Comment, CommentReply
from folio.sandbox import SandboxState
from folio.sandbox.revisions import walk
from folio.services import Services
from folio.services.review.comments import (
    CommentService,
    PageChoice,
    age,
    find_block,
    first_line,
    group_comments,
    is_mine,
    may,
    my_reactions,
    reactions_summary,
)
from tests.conftest import FROZEN_AT, TOKEN


def space_of(state: SandboxState, title: str = "Admin Handbook") -> str:
    return next(s["id"] for s in state.spaces.values() if s["title"] == title and s["organization"] == state.demo_org)


def first_page(state: SandboxState, space_id: str) -> dict[str, object]:
    pages = state.revisions[state.spaces[space_id]["revision"]]["pages"]
    return next(p for p, _, _ in walk(pages) if p.get("type", "document") == "document")


@pytest.fixture
def service(client: GitBookClient) -> CommentService:
    svc = Services(client).comments
    svc.clock = lambda: FROZEN_AT
    return svc


# --- reads ---------------------------------------------------------------------------------------------------


async def test_load_groups_by_page_then_block(service: CommentService, state: SandboxState) -> None:
    sid = space_of(state)
    listing = await service.load(sid)
    stored = [c for c in state.comments.values() if c["space"] == sid and c["changeRequest"] is None]
    assert sorted(c.id for c in listing.comments) == sorted(c["id"] for c in stored)
    assert listing.me is not None and listing.me.id == state.default_user
    assert listing.count("all") == 4 and listing.count("open") == 3 and listing.count("resolved") == 1
    groups = listing.groups("all")
    assert groups[0].page_id is None and groups[0].title == "The whole space"
    titles = {p.id: p.title for p in listing.pages}
    for group in groups[1:]:
        assert group.title == titles[group.page_id]  # type: ignore[index]
    node_blocks = [b for g in groups for b in g.blocks if b.node_id]
    assert node_blocks and all(b.label == "¶ A block of this page" for b in node_blocks)  # never the node id
    assert sum(g.count for g in listing.groups("open")) == 3
    assert all(c.status == "resolved" for g in listing.groups("resolved") for b in g.blocks for c in b.comments)


async def test_load_inside_a_change_request(service: CommentService, state: SandboxState) -> None:
    sid = space_of(state, "Getting Started")
    cr = next(c for c in state.change_requests.values() if c["space"] == sid and c["number"] == 2)
    listing = await service.load(sid, change_request=cr["id"])
    assert {c.id for c in listing.comments} == {
        c["id"] for c in state.comments.values() if c["changeRequest"] == cr["id"]
    }
    assert listing.groups()[0].title == "The whole change request"


async def test_block_texts_are_found_by_node_key_when_the_document_has_it(
    service: CommentService, state: SandboxState, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = space_of(state)
    listing = await service.load(sid)
    # The sandbox's blocks carry keys: the seeded threads on blocks find their block's text.
    found = await service.block_texts(sid, listing.comments)
    assert found and all(found.values())
    node_comment = next(c for c in listing.comments if c.target.node)
    node = node_comment.target.node.id  # type: ignore[union-attr]

    async def page(*args: object, **kwargs: object) -> object:
        class P:
            title = "Page"
            document = {"nodes": [{"object": "block", "key": node, "nodes": [{"object": "leaf", "text": "Step 2."}]}]}

        return P()

    monkeypatch.setattr(service._client.content, "page", page)
    assert await service.block_texts(sid, listing.comments) == {node: "Step 2."}


async def test_thread_reads_the_comment_its_replies_and_where_it_sits(
    service: CommentService, state: SandboxState
) -> None:
    sid = space_of(state, "User Guide")
    record = next(c for c in state.comments.values() if c["space"] == sid and len(c["replies"]) == 3)
    thread = await service.thread(sid, record["id"])
    assert thread.comment.id == record["id"] and thread.replies_listed
    assert [r.id for r in thread.replies] == [r["id"] for r in record["replies"]]
    assert thread.where == "On the whole space"
    paged = next(c for c in state.comments.values() if c["space"] == sid and c["target"].get("node"))
    thread = await service.thread(sid, paged["id"])
    assert thread.where.startswith("On “") and " of “" in thread.where
    assert paged["target"]["node"]["id"] not in thread.where


async def test_thread_says_when_the_space_prefix_lists_no_replies(
    service: CommentService, state: SandboxState, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = space_of(state)
    record = next(c for c in state.comments.values() if c["space"] == sid and c["changeRequest"] is None)
    real = service._client.comments.replies

    def missing(*args: object, **kwargs: object) -> object:
        paginator = real(*args, **kwargs)  # type: ignore[arg-type]
        paginator.path += "-not-offered"
        return paginator

    monkeypatch.setattr(service._client.comments, "replies", missing)
    thread = await service.thread(sid, record["id"])
    assert thread.replies == [] and not thread.replies_listed


# --- writes ----------------------------------------------------------------------------------------------------


async def test_create_reply_edit_react_resolve_delete(service: CommentService, state: SandboxState) -> None:
    sid = space_of(state)
    page = first_page(state, sid)
    comment = await service.create(sid, "Needs a **diagram**.", page=str(page["id"]))
    record = state.comments[comment.id]
    assert record["body"] == "Needs a **diagram**." and record["target"]["page"] == {"id": page["id"]}
    assert await service.is_mine(comment)

    reply = await service.reply(sid, comment.id, "Adding one.")
    assert isinstance(reply, CommentReply) and record["replies"][-1]["body"] == "Adding one."

    await service.edit(sid, comment.id, "Needs a diagram and a table.")
    assert record["body"] == "Needs a diagram and a table." and record["editedAt"]
    await service.edit(sid, comment.id, "Adding both.", reply_id=reply.id)
    assert record["replies"][-1]["body"] == "Adding both."

    updated = await service.react(sid, comment.id, "🎉")
    assert my_reactions(updated, await service.me()) == ["🎉"]
    assert record["reactions"][0]["emoji"] == "🎉"
    await service.react(sid, comment.id, "🎉", remove=True)
    assert record["reactions"] == []
    await service.react(sid, comment.id, "👀", reply_id=reply.id)
    assert record["replies"][-1]["reactions"][0]["emoji"] == "👀"

    resolved = await service.set_resolved(sid, comment.id, True)
    assert resolved.resolved and record["status"] == "resolved" and record["resolvedBy"] == state.default_user
    await service.set_resolved(sid, comment.id, False)
    assert record["status"] == "open" and record["resolvedBy"] is None

    await service.delete(sid, comment.id, reply_id=reply.id)
    assert record["replies"] == []
    await service.delete(sid, comment.id)
    assert comment.id not in state.comments


async def test_writes_in_a_change_request(service: CommentService, state: SandboxState) -> None:
    sid = space_of(state, "Getting Started")
    cr = next(c for c in state.change_requests.values() if c["space"] == sid and c["number"] == 1)
    comment = await service.create(sid, "On the change request.", change_request=cr["id"])
    assert state.comments[comment.id]["changeRequest"] == cr["id"]
    await service.reply(sid, comment.id, "Seen.", change_request=cr["id"])
    thread = await service.thread(sid, comment.id, change_request=cr["id"])
    assert [r.text for r in thread.replies] == ["Seen."] and thread.where == "On the whole change request"


async def test_editing_someone_elses_comment_is_refused(service: CommentService, state: SandboxState) -> None:
    sid = space_of(state)
    other = next(c for c in state.comments.values() if c["space"] == sid and c["postedBy"] != state.default_user)
    with pytest.raises(errors.Forbidden):
        await service.edit(sid, other["id"], "Not mine.")
    assert other["body"] != "Not mine."


async def test_a_reader_cannot_comment(service: CommentService, state: SandboxState) -> None:
    sid = space_of(state)
    reader = next(u for u, m in state.members[state.demo_org].items() if m["role"] == "read")
    state.tokens = {TOKEN: reader}
    before = dict(state.comments)
    with pytest.raises(errors.Forbidden):
        await service.create(sid, "Hello")
    assert state.comments == before


# --- pure helpers ------------------------------------------------------------------------------------------------


def _comment(
    cid: str, *, page: str | None = None, node: str | None = None, hours: float = 1, status: str = "open"
) -> Comment:
    target: dict[str, object] = {}
    if page:
        target["page"] = {"id": page}
    if node:
        target["node"] = {"id": node}
    return Comment.model_validate(
        {
            "id": cid,
            "postedAt": (FROZEN_AT - timedelta(hours=hours)).isoformat(),
            "postedBy": {"id": "u1", "displayName": "U"},
            "target": target,
            "status": status,
            "body": {"markdown": f"body {cid}"},
        }
    )


def test_group_comments_orders_space_pages_then_unknown_pages() -> None:
    pages = [PageChoice("p1", "One"), PageChoice("p2", "Two", 1)]
    comments = [
        _comment("a", page="p2", hours=1),
        _comment("b", page="gone", hours=2),
        _comment("c", hours=3),
        _comment("d", page="p1", node="n1", hours=4, status="resolved"),
        _comment("e", page="p1", hours=5),
        _comment("f", page="p1", node="n1", hours=0.5),
    ]
    groups = group_comments(comments, pages, {"n1": "The block text."})
    assert [g.title for g in groups] == ["The whole space", "One", "Two", "Page gone (not in the current content)"]
    assert [b.label for b in groups[1].blocks] == ["On the page", "¶ “The block text.”"]
    assert [c.id for c in groups[1].blocks[1].comments] == ["f", "d"]
    assert [g.title for g in group_comments(comments, pages, status="resolved")] == ["One"]
    assert group_comments(comments, pages, change_request=3)[0].title == "The whole change request"


@pytest.mark.parametrize(
    ("delta", "expected"),
    [
        (timedelta(seconds=5), "just now"),
        (timedelta(minutes=5), "5 min ago"),
        (timedelta(hours=3), "3 h ago"),
        (timedelta(days=2), "2 d ago"),
        (timedelta(days=20), "2 wk ago"),
        (timedelta(days=90), "3 mo ago"),
    ],
)
def test_age(delta: timedelta, expected: str) -> None:
    assert age(FROZEN_AT - delta, FROZEN_AT) == expected
    assert age(None, FROZEN_AT) == "—"


def test_small_helpers() -> None:
    assert first_line("\n\n  Hello there \nsecond") == "Hello there"
    assert first_line("x" * 50, 10) == "x" * 9 + "…"
    doc = {"nodes": [{"key": "a", "nodes": [{"object": "leaf", "text": "A"}]}, [{"key": "b", "leaves": []}]]}
    assert find_block(doc, "a") == "A" and find_block(doc, "b") is None and find_block(None, "a") is None
    c = Comment.model_validate(
        {
            "id": "c",
            "postedBy": {"id": "me"},
            "reactions": [{"emoji": "👍", "count": 2, "users": [{"user": {"id": "me"}}]}, {"emoji": "👀", "users": []}],
        }
    )
    me = c.posted_by
    assert reactions_summary(c.reactions) == "👍2" and my_reactions(c, me) == ["👍"]
    assert is_mine(c, me) and not is_mine(c, None)
    assert may(c, "edit")  # no permissions sent: the service decides
    assert not may(Comment.model_validate({"id": "x", "permissions": {"view": True}}), "edit")
