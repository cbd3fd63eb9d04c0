"""Collections through the client against the sandbox (spec 4.7 and the move and transfer errors of section
7)."""

from __future__ import annotations

import pytest

from folio.api import GitBookClient, errors
from folio.models.space import Collection, ContentPointer
from folio.sandbox import SandboxState
from tests.api.test_spaces import collection_id, other_org, space_id


async def test_list_collections_nested_and_top_level(client: GitBookClient, state: SandboxState) -> None:
    every = await client.collections.list(state.demo_org).collect()
    top = await client.collections.list(state.demo_org, nested=False).collect()
    assert {c.title for c in every} == {"Product", "Guides", "Reference", "Engineering", "Runbooks", "Company"}
    assert [c.title for c in top] == ["Product", "Engineering", "Company"]
    guides = next(c for c in every if c.title == "Guides")
    assert guides.parent == collection_id(state, "Product")
    assert guides.permissions is not None and guides.permissions.admin
    assert guides.urls is not None and guides.urls.app


async def test_list_collections_of_unknown_org_is_not_found(client: GitBookClient) -> None:
    with pytest.raises(errors.NotFound):
        await client.collections.list("no-such-org").collect()


async def test_create_collection(client: GitBookClient, state: SandboxState) -> None:
    parent = collection_id(state, "Engineering")
    made = await client.collections.create(state.demo_org, title="Playbooks", parent=parent)
    assert isinstance(made, Collection) and made.title == "Playbooks" and made.parent == parent
    record = state.collections[made.id]
    assert record["organization"] == state.demo_org and record["parent"] == parent
    # It comes last among Engineering's children (the list is in sidebar order: depth first).
    children = [c.title for c in await client.collections.list(state.demo_org).collect() if c.parent == parent]
    assert children[-1] == "Playbooks"


async def test_create_collection_limits_checked_before_sending(client: GitBookClient, state: SandboxState) -> None:
    before = dict(state.collections)
    with pytest.raises(errors.InvalidRequest) as caught:
        await client.collections.create(state.demo_org, title="x" * 51)
    assert caught.value.field == "title"
    assert state.collections == before


async def test_create_collection_server_side_errors(client: GitBookClient, state: SandboxState) -> None:
    url = f"/orgs/{state.demo_org}/collections"
    with pytest.raises(errors.BadRequest, match="title"):
        await client.request_json("POST", url, json={"title": 12})
    with pytest.raises(errors.BadRequest, match="parent"):
        await client.request_json("POST", url, json={"title": "Lost", "parent": "nope"})


async def test_get_and_update_collection(client: GitBookClient, state: SandboxState) -> None:
    cid = collection_id(state, "Runbooks")
    got = await client.collections.get(cid)
    assert got.title == "Runbooks" and got.description == "On-call procedures"
    updated = await client.collections.update(cid, title="On-call", description="", default_level="comment")
    assert updated.title == "On-call" and updated.description == "" and updated.default_level == "comment"
    assert state.collections[cid]["title"] == "On-call"
    assert state.collections[cid]["description"] == ""
    assert state.collections[cid]["defaultLevel"] == "comment"


async def test_update_collection_errors(client: GitBookClient, state: SandboxState) -> None:
    cid = collection_id(state, "Runbooks")
    with pytest.raises(errors.InvalidRequest):
        await client.collections.update(cid, description="d" * 101)
    with pytest.raises(errors.InvalidRequest):
        await client.collections.update(cid, default_level="owner")
    assert state.collections[cid]["description"] == "On-call procedures"
    with pytest.raises(errors.BadRequest, match="defaultLevel"):
        await client.request_json("PATCH", f"/collections/{cid}", json={"defaultLevel": "owner"})
    with pytest.raises(errors.NotFound):
        await client.collections.get("missing-collection")


async def test_delete_collection_deletes_its_spaces(client: GitBookClient, state: SandboxState) -> None:
    cid = collection_id(state, "Engineering")
    runbooks = collection_id(state, "Runbooks")
    platform = space_id(state, "Platform Runbooks")
    assert await client.collections.delete(cid) is True
    assert cid not in state.collections and runbooks not in state.collections
    assert state.spaces[platform]["deletedAt"] == state.now()
    # A space of a deleted collection can be restored, at the root.
    restored = await client.spaces.restore(platform)
    assert restored.parent is None and restored.deleted_at is None
    assert await client.collections.delete(cid) is False


async def test_collection_spaces_in_order(client: GitBookClient, state: SandboxState) -> None:
    spaces = await client.collections.spaces(collection_id(state, "Guides")).collect()
    assert [s.title for s in spaces] == ["Getting Started", "User Guide", "Admin Handbook"]
    with pytest.raises(errors.NotFound):
        await client.collections.spaces("missing").collect()


async def test_move_collection(client: GitBookClient, state: SandboxState) -> None:
    runbooks = collection_id(state, "Runbooks")
    product = collection_id(state, "Product")
    moved = await client.collections.move(runbooks, parent=None, after=ContentPointer.to_collection(product))
    assert moved.parent is None
    top = await client.collections.list(state.demo_org, nested=False).collect()
    assert [c.title for c in top] == ["Product", "Runbooks", "Engineering", "Company"]
    assert state.collections[runbooks]["parent"] is None
    # The same move again changes nothing: 409.
    with pytest.raises(errors.Conflict, match="would not result"):
        await client.collections.move(runbooks, after=ContentPointer.to_collection(product))


async def test_move_collection_errors(client: GitBookClient, state: SandboxState) -> None:
    product = collection_id(state, "Product")
    guides = collection_id(state, "Guides")
    with pytest.raises(errors.BadRequest, match="itself"):
        await client.collections.move(product, parent=guides)
    with pytest.raises(errors.BadRequest, match="Invalid position"):
        await client.collections.move(product, before=ContentPointer.to_collection("nope"))
    with pytest.raises(errors.NotFound):
        await client.collections.move("missing", parent=None)
    with pytest.raises(errors.InvalidRequest):
        await client.collections.move(product)
    with pytest.raises(errors.InvalidRequest):
        await client.collections.move(product, before=ContentPointer.to_collection(product))
    with pytest.raises(errors.BadRequest):
        await client.request_json("POST", f"/collections/{product}/move", json={})
    assert state.collections[product]["parent"] is None and state.collections[guides]["parent"] == product


async def test_transfer_collection(client: GitBookClient, state: SandboxState) -> None:
    target = other_org(state)
    drafts = await client.collections.create(state.demo_org, title="Drafts")
    scratch = space_id(state, "Scratchpad")
    await client.spaces.move(scratch, parent=drafts.id)
    moved = await client.collections.transfer(drafts.id, organization=target)
    assert moved.organization == target and moved.parent is None
    assert state.spaces[scratch]["organization"] == target
    assert state.spaces[scratch]["parent"] == drafts.id


async def test_transfer_collection_errors(client: GitBookClient, state: SandboxState) -> None:
    company = collection_id(state, "Company")
    with pytest.raises(errors.Conflict):
        await client.collections.transfer(company, organization=state.demo_org)
    with pytest.raises(errors.BadRequest, match="organization"):
        await client.collections.transfer(company, organization="no-such-org")
    with pytest.raises(errors.NotFound):
        await client.collections.transfer("missing", organization=other_org(state))
    # Its spaces are published on a site: it cannot be moved.
    with pytest.raises(errors.PreconditionFailed):
        await client.collections.transfer(company, organization=other_org(state))
    assert state.collections[company]["organization"] == state.demo_org
