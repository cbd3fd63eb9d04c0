"""Collections and spaces through the client against the sandbox (spec 4.7, the space lifecycle of section 3
and the move and transfer errors of section 7)."""

from __future__ import annotations

import copy

import msgspec
import pytest

from folio.api import GitBookClient, RetryPolicy, Token, errors, pagination
from folio.models.space import ContentPointer, Space, SpaceSummary
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.seed.content import MISSING_PAGE
from tests.conftest import SANDBOX_URL, TOKEN


def space_id(state: SandboxState, title: str) -> str:
    return next(s["id"] for s in state.spaces.values() if s["title"] == title)


def collection_id(state: SandboxState, title: str) -> str:
    return next(c["id"] for c in state.collections.values() if c["title"] == title)


def other_org(state: SandboxState) -> str:
    return next(o for o in state.orgs if o != state.demo_org)


def client_for(app) -> GitBookClient:  # type: ignore[no-untyped-def]
    return GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(app),
        retry=RetryPolicy(sleep=lambda s: _nothing()),
    )


async def _nothing() -> None:
    return None


# --- spaces ------------------------------------------------------------------------------------------------


async def test_list_org_spaces_leaves_deleted_out(client: GitBookClient, state: SandboxState) -> None:
    spaces = await client.spaces.list(state.demo_org).collect()
    assert len(spaces) == 12
    assert spaces[0].title == "Getting Started" and spaces[-1].title == "Scratchpad"
    assert "Legacy Docs (v1)" not in {s.title for s in spaces}
    assert all(isinstance(s, Space) and s.permissions is not None for s in spaces)
    with pytest.raises(errors.NotFound):
        await client.spaces.list("no-such-org").collect()


async def test_space_summaries_read_what_a_row_shows_and_skip_the_rest(
    client: GitBookClient, state: SandboxState
) -> None:
    full = await client.spaces.list(state.demo_org).collect()
    rows = await client.spaces.summaries(state.demo_org, limit=5).collect()
    assert [s.id for s in rows] == [s.id for s in full]
    assert all(type(s) is SpaceSummary for s in rows)
    for row, space in zip(rows, full, strict=True):
        shown = msgspec.structs.asdict(row)
        urls = shown.pop("urls")
        assert shown == {name: getattr(space, name) for name in shown}
        assert space.urls is not None and urls is not None
        assert (urls.app, urls.published) == (space.urls.app, space.urls.published)
        assert not hasattr(row, "__dict__") and not hasattr(row, "permissions")
    opened = rows[0].change_requests_open  # the count a row shows is the full space's count
    assert opened == (await client.spaces.get(rows[0].id)).change_requests_open
    with pytest.raises(errors.NotFound):
        await client.spaces.summaries("no-such-org").collect()


async def test_the_sandboxs_space_pages_are_read_by_msgspec_alone(
    client: GitBookClient, state: SandboxState, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(item_type: object) -> None:
        raise AssertionError(f"a page of spaces was read again by pydantic as {item_type}")

    monkeypatch.setattr(pagination, "_envelope_adapter", refuse)
    rows = await client.spaces.summaries(state.demo_org, limit=1000).collect()
    assert len(rows) == 12 and all(row.created_at is not None and row.urls is not None for row in rows)


async def test_space_counts_and_permissions(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "User Guide")
    for n, status in enumerate(("open", "open", "draft", "merged"), start=101):
        state.change_requests[f"cr{n}"] = {"id": f"cr{n}", "space": sid, "number": n, "status": status}
    mine = [cr["status"] for cr in state.change_requests.values() if cr["space"] == sid]
    open_comments = sum(
        1
        for c in state.comments.values()
        if c["space"] == sid and not c.get("changeRequest") and c.get("status") != "resolved"
    )
    space = await client.spaces.get(sid)
    assert (space.change_requests, space.change_requests_open, space.change_requests_draft) == (
        len(mine),
        mine.count("open"),
        mine.count("draft"),
    )
    assert space.change_requests_open >= 2 and space.change_requests_draft >= 1
    assert space.comments == open_comments
    assert space.permissions is not None and space.permissions.admin and space.permissions.merge
    assert space.urls is not None and space.urls.published and space.visibility == "public"
    # A reader sees what a reader may do.
    reader = next(u for u, m in state.members[state.demo_org].items() if m["role"] == "read")
    state.tokens = {TOKEN: reader}
    as_reader = await client.spaces.get(sid)
    assert as_reader.permissions is not None
    assert as_reader.permissions.view and not as_reader.permissions.edit
    assert not as_reader.permissions.comment and not as_reader.permissions.admin


async def test_get_space_errors(client: GitBookClient) -> None:
    with pytest.raises(errors.NotFound):
        await client.spaces.get("missing-space")


async def test_get_space_with_share_key(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "SDK Reference")
    space = await client.spaces.get(sid, share_key="k3y")
    assert space.id == sid and space.visibility == "unlisted"


async def test_update_space(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Release Notes")
    locked = await client.spaces.update(
        sid,
        edit_mode="locked",
        title="Changelog",
        emoji=None,
        language="fr",
        merge_rules={"type": "rules", "rules": [{"rule": "allow_bypass", "users": []}]},
    )
    assert locked.locked and locked.title == "Changelog" and locked.emoji == "" and locked.language == "fr"
    assert locked.permissions is not None and not locked.permissions.edit
    assert locked.merge_rules is not None and locked.merge_rules.type == "rules"
    record = state.spaces[sid]
    assert record["editMode"] == "locked" and record["title"] == "Changelog" and record["language"] == "fr"
    assert record["updatedAt"] == state.now()
    live = await client.spaces.update(sid, edit_mode="live", default_level="comment")
    assert live.edit_mode == "live" and state.spaces[sid]["editMode"] == "live"
    assert live.default_level == "comment"


async def test_update_space_errors(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Release Notes")
    before = copy.deepcopy(state.spaces[sid])
    for kwargs in ({"title": "t" * 51}, {"edit_mode": "frozen"}, {"language": "xx"}, {}):
        with pytest.raises(errors.InvalidRequest):
            await client.spaces.update(sid, **kwargs)
    assert state.spaces[sid] == before
    for bad in (
        {"editMode": "frozen"},
        {"language": "klingon"},
        {"mergeRules": {"type": "vote"}},
        {"title": 3},
        {"emoji": "🎉", "icon": "https://x.test/i.png"},
    ):
        with pytest.raises(errors.BadRequest):
            await client.request_json("PATCH", f"/spaces/{sid}", json=bad)
    assert state.spaces[sid] == before
    with pytest.raises(errors.NotFound):
        await client.spaces.update("missing", title="x")


async def test_delete_and_restore_space(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Onboarding")
    assert await client.spaces.delete(sid) is True
    assert state.spaces[sid]["deletedAt"] == state.now()
    assert sid not in {s.id for s in await client.spaces.list(state.demo_org).collect()}
    deleted = await client.spaces.get(sid)
    assert deleted.deleted and deleted.deleted_at is not None
    assert await client.spaces.delete(sid) is False
    with pytest.raises(errors.NotFound):
        await client.spaces.update(sid, title="x")
    state.clock.advance(days=6)
    restored = await client.spaces.restore(sid)
    assert not restored.deleted and state.spaces[sid]["deletedAt"] is None
    assert sid in {s.id for s in await client.spaces.list(state.demo_org).collect()}
    with pytest.raises(errors.BadRequest, match="not deleted"):
        await client.spaces.restore(sid)
    assert await client.spaces.delete("missing") is False


async def test_restore_window_is_seven_days(client: GitBookClient, state: SandboxState) -> None:
    legacy = space_id(state, "Legacy Docs (v1)")  # deleted three days ago
    state.clock.advance(days=5)
    with pytest.raises(errors.NotFound, match="permanently"):
        await client.spaces.restore(legacy)
    assert legacy not in state.spaces
    with pytest.raises(errors.NotFound):
        await client.spaces.get(legacy)


async def test_restore_within_window(client: GitBookClient, state: SandboxState) -> None:
    legacy = space_id(state, "Legacy Docs (v1)")
    restored = await client.spaces.restore(legacy)
    assert restored.title == "Legacy Docs (v1)" and state.spaces[legacy]["deletedAt"] is None


async def test_only_admins_delete_spaces(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Onboarding")
    state.members[state.demo_org][state.default_user]["role"] = "edit"
    with pytest.raises(errors.Forbidden):
        await client.spaces.delete(sid)
    assert state.spaces[sid]["deletedAt"] is None


async def test_duplicate_space(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    dup = await client.spaces.duplicate(sid)
    assert dup.id != sid and dup.title == "Getting Started (copy)" and dup.parent == state.spaces[sid]["parent"]
    original = state.revisions[state.spaces[sid]["revision"]]["pages"]
    copied = state.revisions[state.spaces[dup.id]["revision"]]["pages"]
    assert [p["title"] for p in copied] == [p["title"] for p in original]
    assert not {p["id"] for p in copied} & {p["id"] for p in original}
    # Links between the copied pages point at the copies.
    assert f"/pages/{copied[1]['id']}" in copied[0]["markdown"]
    with pytest.raises(errors.NotFound):
        await client.spaces.duplicate("missing")


async def test_move_space(client: GitBookClient, state: SandboxState) -> None:
    scratch = space_id(state, "Scratchpad")
    guides = collection_id(state, "Guides")
    user_guide = space_id(state, "User Guide")
    moved = await client.spaces.move(scratch, before=user_guide)
    assert moved.parent == guides and state.spaces[scratch]["parent"] == guides
    titles = [s.title for s in await client.collections.spaces(guides).collect()]
    assert titles == ["Getting Started", "Scratchpad", "User Guide", "Admin Handbook"]
    with pytest.raises(errors.Conflict):
        await client.spaces.move(scratch, after=space_id(state, "Getting Started"))
    # Out of the collection: an in-collection space becomes private at the root.
    admin = space_id(state, "Admin Handbook")
    out = await client.spaces.move(admin, parent=None)
    assert out.parent is None and out.visibility == "private"
    roots = [s.title for s in await client.spaces.list(state.demo_org).collect() if s.parent is None]
    assert roots[-1] == "Admin Handbook"


async def test_move_space_errors(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Release Notes")
    before = copy.deepcopy(state.spaces[sid])
    with pytest.raises(errors.InvalidRequest):
        await client.spaces.move(sid, after=sid)
    with pytest.raises(errors.BadRequest, match="itself"):
        await client.request_json(
            "POST", f"/spaces/{sid}/move", json={"position": {"after": {"type": "space", "space": sid}}}
        )
    with pytest.raises(errors.BadRequest, match="Invalid position"):
        await client.spaces.move(sid, before="no-such-space")
    with pytest.raises(errors.BadRequest):
        await client.spaces.move(sid, parent="no-such-collection")
    with pytest.raises(errors.BadRequest, match="neighbours"):
        await client.spaces.move(
            sid,
            before=ContentPointer.to_collection(collection_id(state, "Guides")),
            after=ContentPointer.to_collection(collection_id(state, "Reference")),
        )
    with pytest.raises(errors.BadRequest, match="same collection"):
        await client.spaces.move(sid, before=space_id(state, "Scratchpad"), after=space_id(state, "Onboarding"))
    with pytest.raises(errors.NotFound):
        await client.spaces.move("missing", parent=None)
    assert state.spaces[sid] == before


async def test_transfer_space(client: GitBookClient, state: SandboxState) -> None:
    scratch = space_id(state, "Scratchpad")
    target = other_org(state)
    moved = await client.spaces.transfer(scratch, organization=target)
    assert moved.organization == target
    assert state.spaces[scratch]["organization"] == target
    assert scratch in {s.id for s in await client.spaces.list(target).collect()}


async def test_transfer_space_errors(client: GitBookClient, state: SandboxState) -> None:
    scratch = space_id(state, "Scratchpad")
    target = other_org(state)
    with pytest.raises(errors.Conflict):
        await client.spaces.transfer(scratch, organization=state.demo_org)
    with pytest.raises(errors.BadRequest, match="organization"):
        await client.spaces.transfer(scratch, organization="no-such-org")
    with pytest.raises(errors.PreconditionFailed, match="published"):
        await client.spaces.transfer(space_id(state, "Getting Started"), organization=target)
    state.members[target][state.default_user]["role"] = "read"
    with pytest.raises(errors.PreconditionFailed):
        await client.spaces.transfer(scratch, organization=target)
    with pytest.raises(errors.NotFound) as caught:
        await client.spaces.transfer("missing", organization=target)
    assert not isinstance(caught.value, errors.NotOffered)
    with pytest.raises(errors.BadRequest, match="organization"):
        await client.request_json("POST", f"/spaces/{scratch}/transfer", json={})
    assert state.spaces[scratch]["organization"] == state.demo_org


async def test_optional_operations_not_offered(state: SandboxState) -> None:
    async with client_for(create_app(state, offer_optional=False)) as c:
        with pytest.raises(errors.NotOffered):
            await c.spaces.transfer(space_id(state, "Scratchpad"), organization=other_org(state))
        with pytest.raises(errors.NotOffered):
            await c.spaces.links(space_id(state, "Getting Started")).collect()


async def test_space_links(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    first = await client.spaces.links(sid).fetch()
    assert first.stats is not None and first.stats.total == len(first.items) == first.count
    assert first.stats.broken.total == 1
    assert {link.status for link in first.items} == {"ok", "broken", "in-app"}
    assert all(link.relation == "reference" and link.location_references for link in first.items)
    broken = await client.spaces.links(sid, status="broken").collect()
    assert len(broken) == 1 and broken[0].broken
    assert broken[0].target_reference is not None and getattr(broken[0].target_reference, "page", None) == MISSING_PAGE
    with pytest.raises(errors.InvalidRequest):
        client.spaces.links(sid, status="dead")
    with pytest.raises(errors.NotFound):
        await client.spaces.links("missing").collect()


async def test_search_space(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    hits = await client.spaces.search(sid, "ROBOT").collect()
    assert hits and hits[0].title == "Your first robot"
    assert [h.model_extra["rank"] for h in hits] == list(range(1, len(hits) + 1))  # type: ignore[index]
    section = hits[0].sections[0]
    assert "robot" in section.body.lower() and section.urls is not None and section.urls.app
    linux = await client.spaces.search(sid, "distribution package").collect()
    assert [h.title for h in linux] == ["Linux"] and [a.title for a in linux[0].ancestors] == ["Installation"]
    assert await client.spaces.search(sid, "zebra crossing").collect() == []


async def test_search_space_errors(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Getting Started")
    with pytest.raises(errors.InvalidRequest):
        client.spaces.search(sid, "q" * 513)
    with pytest.raises(errors.InvalidRequest):
        client.spaces.search(sid, "  ")
    with pytest.raises(errors.BadRequest, match="query"):
        await client.request_json("GET", f"/spaces/{sid}/search")
    with pytest.raises(errors.BadRequest, match="512"):
        await client.request_json("GET", f"/spaces/{sid}/search", params={"query": "q" * 513})


async def test_move_between_two_neighbours(client: GitBookClient, state: SandboxState) -> None:
    notes = space_id(state, "Release Notes")
    guides, reference = collection_id(state, "Guides"), collection_id(state, "Reference")
    moved = await client.spaces.move(
        notes, after=ContentPointer.to_collection(guides), before=ContentPointer.to_collection(reference)
    )
    assert moved.parent == collection_id(state, "Product")
    order = sorted(
        [state.collections[guides], state.collections[reference], state.spaces[notes]], key=lambda r: r["order"]
    )
    assert [r["id"] for r in order] == [guides, notes, reference]


async def test_deleted_space_is_gone_after_seven_days(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "Brand Guidelines")
    assert await client.spaces.delete(sid) is True
    state.clock.advance(days=8)
    with pytest.raises(errors.NotFound, match="permanently removed"):
        await client.spaces.get(sid)
    with pytest.raises(errors.NotFound):
        await client.spaces.restore(sid)
    assert sid not in state.spaces
    assert await client.spaces.delete(sid) is False
