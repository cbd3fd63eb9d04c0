"""Comments and replies under a space and under a change request, and commenters: through the real client to
the sandbox, asserting on the returned models and on what the sandbox now holds."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient, errors
from folio.models.comment import Comment, CommentReply, TableCellTarget
from folio.models.member import Member
from folio.sandbox import SandboxState
from folio.sandbox.revisions import walk
from folio.sandbox.seed import comments as comments_seed
from folio.sandbox.seed import content, people
from tests.conftest import FROZEN_AT, TOKEN


def space_of(state: SandboxState, title: str = "Getting Started") -> str:
    return next(s["id"] for s in state.spaces.values() if s["title"] == title and s["organization"] == state.demo_org)


def page_ids(state: SandboxState, space_id: str) -> list[str]:
    pages = state.revisions[state.spaces[space_id]["revision"]]["pages"]
    return [p["id"] for p, _, _ in walk(pages) if p.get("type", "document") == "document"]


def make_cr(state: SandboxState, space_id: str) -> dict[str, Any]:
    """A change request record in the documented shape, made here so the tests do not hang on another seed."""
    number = 1 + max((c.get("number", 0) for c in state.change_requests.values() if c["space"] == space_id), default=0)
    cid = state.new_id()
    revision = state.spaces[space_id]["revision"]
    state.change_requests[cid] = {
        "id": cid,
        "space": space_id,
        "number": number,
        "status": "open",
        "subject": "Tighten the install guide",
        "description": None,
        "createdBy": state.default_user,
        "createdAt": state.now(),
        "updatedAt": state.now(),
        "revision": revision,
        "revisionInitial": revision,
        "revisionMergedAncestor": None,
        "revisionMerged": None,
        "mergedBy": None,
        "mergedAt": None,
        "requestedReviewers": [],
        "reviews": [],
    }
    return state.change_requests[cid]


def other_member(state: SandboxState, role: str) -> str:
    return next(u for u, m in state.members[state.demo_org].items() if m["role"] == role and u != state.default_user)


def as_user(state: SandboxState, user_id: str) -> None:
    state.tokens = {TOKEN: user_id}


# --- comments in a space ------------------------------------------------------------------------------------


async def test_list_space_comments_is_newest_first_and_excludes_change_requests(
    client: GitBookClient, state: SandboxState
) -> None:
    sid = space_of(state)
    cr = make_cr(state, sid)
    await client.comments.create(sid, "Inside the change request", change_request=cr["id"])
    items = await client.comments.list(sid).collect()
    expected = [c for c in state.comments.values() if c["space"] == sid and c["changeRequest"] is None]
    assert len(items) == len(expected) >= 2
    assert all(isinstance(c, Comment) and c.target.space == sid and c.change_request is None for c in items)
    stamps = [c.posted_at for c in items]
    assert stamps == sorted(stamps, reverse=True)  # type: ignore[type-var]
    asc = await client.comments.list(sid, order="asc").collect()
    assert [c.id for c in asc] == [c.id for c in reversed(items)]


async def test_list_filters_status_page_and_authors(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state, "Getting Started")
    page = page_ids(state, sid)[1]
    me = state.default_user
    opened = await client.comments.create(sid, "On the installation page", page=page)
    resolved = await client.comments.create(sid, "Done already")
    await client.comments.update(sid, resolved.id, resolved=True)
    open_ids = {c.id for c in await client.comments.list(sid, status="open").collect()}
    resolved_ids = {c.id for c in await client.comments.list(sid, status="resolved").collect()}
    assert opened.id in open_ids and resolved.id in resolved_ids and not open_ids & resolved_ids
    on_page = await client.comments.list(sid, target_page=page).collect()
    assert opened.id in {c.id for c in on_page} and all(c.page_id == page for c in on_page)
    other = other_member(state, "create")
    state.comments[resolved.id]["postedBy"] = other
    mine = await client.comments.list(sid, authors=[me]).collect()
    assert {c.posted_by.id for c in mine if c.posted_by} == {me}
    both = await client.comments.list(sid, authors=[me, other]).collect()
    assert {c.id for c in both} >= {opened.id, resolved.id}
    comma = await client.request_json("GET", f"/spaces/{sid}/comments", params={"authors": f"{me},{other}"})
    assert {c["id"] for c in comma["items"]} == {c.id for c in both}


async def test_create_on_a_page_and_block(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    page = page_ids(state, sid)[0]
    comment = await client.comments.create(
        sid,
        "This step needs a screenshot",
        page=page,
        node="blockKey1",
        table_cell=TableCellTarget(record="r1", definition="d1"),
    )
    assert comment.text == "This step needs a screenshot"
    assert comment.status == "open" and not comment.resolved
    assert comment.page_id == page and comment.target.node and comment.target.node.id == "blockKey1"
    assert comment.target.table_cell == TableCellTarget(record="r1", definition="d1")
    assert comment.target.revision == state.spaces[sid]["revision"]
    assert comment.permissions.edit and comment.permissions.delete and comment.permissions.reply
    assert comment.posted_at == FROZEN_AT and comment.replies == 0 and comment.repliers == []
    record = state.comments[comment.id]
    assert record["body"] == "This step needs a screenshot" and record["postedBy"] == state.default_user
    assert record["target"]["page"] == {"id": page} and record["changeRequest"] is None


async def test_create_on_an_unknown_page_is_refused(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    before = len(state.comments)
    with pytest.raises(errors.BadRequest) as caught:
        await client.comments.create(sid, "Where?", page="noSuchPage")
    assert "page" in caught.value.message and len(state.comments) == before


async def test_empty_body_is_caught_before_sending(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    before = dict(state.comments)
    for text in ("", "   \n"):
        with pytest.raises(errors.InvalidRequest) as caught:
            await client.comments.create(sid, text)
        assert caught.value.field == "body.markdown"
    with pytest.raises(errors.InvalidRequest):
        await client.comments.update(sid, next(iter(before)), added_reactions=["x" * 51])
    with pytest.raises(errors.InvalidRequest):
        client.comments.list(sid, limit=1001)
    assert state.comments == before


@pytest.mark.parametrize(
    ("body", "word"),
    [
        ({}, "body"),
        ({"body": {"markdown": ""}}, "body.markdown"),
        ({"body": "text"}, "body"),
        ({"body": {"markdown": "x"}, "page": 5}, "page"),
        ({"body": {"markdown": "x"}, "tableCell": {}}, "tableCell"),
    ],
)
async def test_server_refuses_invalid_post_bodies(
    client: GitBookClient, state: SandboxState, body: dict[str, Any], word: str
) -> None:
    sid = space_of(state)
    before = len(state.comments)
    with pytest.raises(errors.BadRequest) as caught:
        await client.request_json("POST", f"/spaces/{sid}/comments", json=body)
    assert word in caught.value.message and len(state.comments) == before


async def test_server_refuses_invalid_updates_and_queries(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    cid = next(c["id"] for c in state.comments.values() if c["space"] == sid and not c["changeRequest"])
    for body in ({"resolved": "yes"}, {"addedReactions": "👍"}, {"removedReactions": [""]}):
        with pytest.raises(errors.BadRequest):
            await client.request_json("PUT", f"/spaces/{sid}/comments/{cid}", json=body)
    for params in ({"status": "closed"}, {"order": "up"}, {"format": "html"}):
        with pytest.raises(errors.BadRequest):
            await client.request_json("GET", f"/spaces/{sid}/comments", params=params)
    assert state.comments[cid]["status"] in ("open", "resolved")


async def test_get_in_markdown_and_document_formats(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    made = await client.comments.create(sid, "Line one\nLine two")
    plain = await client.comments.get(sid, made.id)
    doc = await client.comments.get(sid, made.id, format="document")
    assert plain.body.markdown == "Line one\nLine two" and plain.body.document is None
    assert doc.body.document is not None and doc.body.markdown is None
    assert doc.text == "Line one\nLine two"
    assert plain.urls and plain.urls.location and plain.urls.location.endswith(f"/spaces/{sid}/comments/{made.id}")


async def test_resolve_and_reopen(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    made = await client.comments.create(sid, "Please fix")
    resolved = await client.comments.update(sid, made.id, resolved=True)
    assert resolved.status == "resolved" and resolved.resolved_at == FROZEN_AT
    assert resolved.resolved_by and resolved.resolved_by.id == state.default_user
    assert state.comments[made.id]["status"] == "resolved"
    assert state.comments[made.id]["resolvedBy"] == state.default_user
    reopened = await client.comments.update(sid, made.id, resolved=False)
    assert reopened.status == "open" and reopened.resolved_at is None and reopened.resolved_by is None
    assert state.comments[made.id]["resolvedAt"] is None and state.comments[made.id]["status"] == "open"


async def test_only_the_author_edits_the_body(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    made = await client.comments.create(sid, "First words")
    edited = await client.comments.update(sid, made.id, markdown="Better words")
    assert edited.text == "Better words" and edited.edited_at == FROZEN_AT
    assert state.comments[made.id]["body"] == "Better words"
    state.comments[made.id]["postedBy"] = other_member(state, "edit")
    with pytest.raises(errors.Forbidden):
        await client.comments.update(sid, made.id, markdown="Not mine")
    assert state.comments[made.id]["body"] == "Better words"
    seen = await client.comments.get(sid, made.id)
    assert not seen.permissions.edit and seen.permissions.delete  # the caller is an admin


async def test_reactions_are_added_and_removed(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    made = await client.comments.create(sid, "React to me")
    me = state.default_user
    one = await client.comments.update(sid, made.id, added_reactions=["👍", "🎉"])
    thumbs = one.reaction("👍")
    assert thumbs and thumbs.count == 1 and thumbs.by(me) and one.reaction("🎉")
    as_user(state, other_member(state, "edit"))
    two = await client.comments.update(sid, made.id, added_reactions=["👍"])
    assert two.reaction("👍").count == 2  # type: ignore[union-attr]
    as_user(state, me)
    three = await client.comments.update(sid, made.id, removed_reactions=["👍", "🎉"])
    assert three.reaction("🎉") is None
    left = three.reaction("👍")
    assert left and left.count == 1 and not left.by(me)
    assert [r["emoji"] for r in state.comments[made.id]["reactions"]] == ["👍"]


async def test_delete_comment_then_missing_is_not_found(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    made = await client.comments.create(sid, "Short-lived")
    await client.comments.reply(sid, made.id, "and its reply")
    await client.comments.delete(sid, made.id)
    assert made.id not in state.comments
    with pytest.raises(errors.NotFound):
        await client.comments.delete(sid, made.id)
    with pytest.raises(errors.NotFound):
        await client.comments.get(sid, made.id)


async def test_only_author_or_admin_deletes(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    made = await client.comments.create(sid, "Admin's words")
    as_user(state, other_member(state, "edit"))
    with pytest.raises(errors.Forbidden):
        await client.comments.delete(sid, made.id)
    assert made.id in state.comments


async def test_readers_cannot_comment(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    as_user(state, other_member(state, "read"))
    before = len(state.comments)
    with pytest.raises(errors.Forbidden):
        await client.comments.create(sid, "Hello")
    listed = await client.comments.list(sid).collect()
    assert listed and not any(c.permissions.reply for c in listed) and len(state.comments) == before


async def test_missing_space_comment_and_change_request_are_not_found(
    client: GitBookClient, state: SandboxState
) -> None:
    sid = space_of(state)
    cid = next(c["id"] for c in state.comments.values() if c["space"] == sid and not c["changeRequest"])
    with pytest.raises(errors.NotFound):
        await client.comments.list("noSuchSpace").collect()
    with pytest.raises(errors.NotFound):
        await client.comments.get(sid, "noSuchComment")
    with pytest.raises(errors.NotFound):
        await client.comments.list(sid, change_request="noSuchCR").collect()
    cr = make_cr(state, sid)
    with pytest.raises(errors.NotFound):  # a space comment is not inside the change request
        await client.comments.get(sid, cid, change_request=cr["id"])
    with pytest.raises(errors.NotFound):
        await client.comments.get(space_of(state, "User Guide"), cid)


# --- comments in a change request ---------------------------------------------------------------------------


async def test_change_request_comments_by_id_and_number(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    cr = make_cr(state, sid)
    page = page_ids(state, sid)[0]
    made = await client.comments.create(sid, "Reads well", change_request=cr["id"], page=page)
    assert made.change_request == cr["id"] and made.target.revision == cr["revision"]
    assert made.urls and made.urls.location and f"/change-requests/{cr['id']}/comments/" in made.urls.location
    assert state.comments[made.id]["changeRequest"] == cr["id"]
    by_number = await client.comments.list(sid, change_request=cr["number"]).collect()
    assert [c.id for c in by_number] == [made.id]
    got = await client.comments.get(sid, made.id, change_request=str(cr["number"]))
    assert got.id == made.id and got.page_id == page
    resolved = await client.comments.update(sid, made.id, change_request=cr["id"], resolved=True)
    assert resolved.resolved and state.comments[made.id]["status"] == "resolved"
    with pytest.raises(errors.NotFound):  # not a comment of the space's own content
        await client.comments.get(sid, made.id)
    await client.comments.delete(sid, made.id, change_request=cr["id"])
    assert made.id not in state.comments


async def test_change_request_page_is_checked_against_its_revision(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    cr = make_cr(state, sid)
    other_page = page_ids(state, space_of(state, "User Guide"))[0]
    with pytest.raises(errors.BadRequest):
        await client.comments.create(sid, "Wrong page", change_request=cr["id"], page=other_page)
    assert not any(c["changeRequest"] == cr["id"] for c in state.comments.values())


# --- replies ------------------------------------------------------------------------------------------------


async def test_replies_in_a_change_request(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    cr = make_cr(state, sid)
    made = await client.comments.create(sid, "Question", change_request=cr["id"])
    reply = await client.comments.reply(sid, made.id, "Answer", change_request=cr["id"], format="document")
    assert isinstance(reply, CommentReply) and reply.text == "Answer" and reply.body.document is not None
    assert reply.permissions.edit and reply.posted_at == FROZEN_AT
    as_user(state, other_member(state, "edit"))
    await client.comments.reply(sid, made.id, "Second answer", change_request=cr["id"])
    listed = await client.comments.replies(sid, made.id, change_request=cr["id"]).collect()
    assert [r.text for r in listed] == ["Answer", "Second answer"]
    assert listed[0].permissions.edit is False and listed[1].permissions.edit is True
    comment = await client.comments.get(sid, made.id, change_request=cr["id"])
    assert comment.replies == 2 and {r.user.id for r in comment.repliers} == {
        state.default_user,
        other_member(state, "edit"),
    }
    assert all(r.count == 1 for r in comment.repliers)
    assert len(state.comments[made.id]["replies"]) == 2
    # read, edit and delete one reply under the change request prefix too
    second = listed[1]
    got = await client.comments.get_reply(sid, made.id, second.id, change_request=cr["id"])
    assert got.id == second.id
    changed = await client.comments.update_reply(sid, made.id, second.id, change_request=cr["id"], markdown="Edit")
    assert changed.text == "Edit" and changed.edited_at == FROZEN_AT
    await client.comments.delete_reply(sid, made.id, second.id, change_request=cr["id"])
    assert [r["id"] for r in state.comments[made.id]["replies"]] == [reply.id]


async def test_replies_in_a_space(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    made = await client.comments.create(sid, "Thread")
    reply = await client.comments.reply(sid, made.id, "First reply")
    assert state.comments[made.id]["replies"][0]["body"] == "First reply"
    got = await client.comments.get_reply(sid, made.id, reply.id, format="markdown")
    assert got.id == reply.id and got.body.markdown == "First reply"
    assert got.urls and got.urls.location and got.urls.location.endswith(f"/comments/{made.id}/replies/{reply.id}")
    edited = await client.comments.update_reply(sid, made.id, reply.id, markdown="Edited", added_reactions=["🙏"])
    assert edited.text == "Edited" and edited.reaction("🙏") and edited.edited_at == FROZEN_AT
    assert state.comments[made.id]["replies"][0]["reactions"][0]["emoji"] == "🙏"
    unreacted = await client.comments.update_reply(sid, made.id, reply.id, removed_reactions=["🙏"])
    assert unreacted.reactions == []
    listed = await client.comments.replies(sid, made.id).collect()
    assert [r.id for r in listed] == [reply.id]
    state.comments[made.id]["replies"][0]["postedBy"] = other_member(state, "edit")
    with pytest.raises(errors.Forbidden):
        await client.comments.update_reply(sid, made.id, reply.id, markdown="Not mine")
    await client.comments.delete_reply(sid, made.id, reply.id)  # an admin may
    assert state.comments[made.id]["replies"] == []
    assert (await client.comments.get(sid, made.id)).replies == 0
    with pytest.raises(errors.NotFound):
        await client.comments.delete_reply(sid, made.id, reply.id)
    with pytest.raises(errors.NotFound):
        await client.comments.get_reply(sid, made.id, reply.id)


async def test_reply_with_empty_body(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state)
    made = await client.comments.create(sid, "Thread")
    with pytest.raises(errors.InvalidRequest):
        await client.comments.reply(sid, made.id, " ")
    with pytest.raises(errors.BadRequest):
        await client.request_json("POST", f"/spaces/{sid}/comments/{made.id}/replies", json={"body": {}})
    assert state.comments[made.id]["replies"] == []


# --- commenters ---------------------------------------------------------------------------------------------


async def test_commenters_of_a_space_and_a_change_request(client: GitBookClient, state: SandboxState) -> None:
    sid = space_of(state, "Scratchpad")
    for c in [c for c in state.comments.values() if c["space"] == sid]:
        del state.comments[c["id"]]
    assert await client.comments.commenters(sid).collect() == []
    cr = make_cr(state, sid)
    editor = other_member(state, "edit")
    made = await client.comments.create(sid, "On the space")
    as_user(state, editor)
    await client.comments.reply(sid, made.id, "A reply counts too")
    await client.comments.create(sid, "In the change request", change_request=cr["id"])
    people_ = await client.comments.commenters(sid).collect()
    assert all(isinstance(m, Member) for m in people_)
    assert {m.id for m in people_} == {state.default_user, editor}
    assert {m.role for m in people_} == {"admin", "edit"}
    in_cr = await client.comments.commenters(sid, change_request=cr["number"]).collect()
    assert [m.id for m in in_cr] == [editor]


# --- seed ---------------------------------------------------------------------------------------------------


def test_seed_threads_spaces_and_change_requests(state: SandboxState) -> None:
    fresh = SandboxState(clock=state.clock, seed=7)
    people.seed(fresh)
    content.seed(fresh)
    sid = space_of(fresh)
    cr = make_cr(fresh, sid)
    comments_seed.seed(fresh, scale=25)
    in_cr = [c for c in fresh.comments.values() if c["changeRequest"] == cr["id"]]
    assert in_cr and all(c["target"]["revision"] == cr["revision"] for c in in_cr)
    seeded = [c for c in fresh.comments.values() if not c["body"].startswith("Generated")]
    assert any(c["status"] == "resolved" for c in seeded) and any(c["replies"] for c in seeded)
    assert any(c["reactions"] for c in seeded) and any("node" in c["target"] for c in seeded)
    assert sum(c["body"].startswith("Generated") for c in fresh.comments.values()) == 25
    assert {c["space"] for c in fresh.comments.values()} <= set(fresh.spaces)
