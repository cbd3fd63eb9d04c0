"""Writes that set a state (a collection or space transfer, a space restore, a move in the collections tree) whose
answer is lost (the sandbox's ``drop_after_write``): the service reads what is true instead of failing or sending
again, and a refusal that only means "it is so already" (409, 400 "not deleted") is read the same way. Counted in
the requests the sandbox received."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from folio.api import GitBookClient, RetryPolicy, Token, errors
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.sandbox.domain.spaces import siblings
from folio.services import Services
from folio.services.browse import build_tree
from folio.services.content.collections import content_tree, placement
from folio.services.content.placed import is_placed
from folio.services.reconcile import NotDone, send_or_read
from tests.conftest import SANDBOX_URL, TOKEN, Counting


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture
def faults() -> Faults:
    return Faults(seed=3)


@pytest.fixture
def transport(state: SandboxState, faults: Faults) -> Counting:
    return Counting(SandboxTransport(create_app(state, faults=faults)))


@pytest.fixture
async def services(transport: Counting) -> AsyncIterator[Services]:
    client = GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=transport, retry=RetryPolicy(sleep=_no_sleep)
    )
    yield Services(client, where="a sandbox that loses answers")
    await client.aclose()


def named(state: SandboxState, title: str) -> dict[str, Any]:
    return next(r for r in (*state.spaces.values(), *state.collections.values()) if r["title"] == title)


def other_org(state: SandboxState) -> str:
    return next(o for o in state.orgs if o != state.demo_org)


async def test_a_collection_transfer_whose_answer_was_lost_is_read_and_done(
    services: Services, state: SandboxState, faults: Faults, transport: Counting
) -> None:
    drafts = await services.collections.create(state.demo_org, "Drafts")
    guild = other_org(state)
    faults.drop_after_write = 1.0  # the transfer is done, its answer lost
    moved = await services.collections.transfer(drafts, guild)
    assert moved.id == drafts.id and moved.organization == guild
    assert state.collections[drafts.id]["organization"] == guild
    assert transport.writes[1:] == [f"POST /v1/collections/{drafts.id}/transfer"]  # sent once


async def test_a_collection_transfer_refused_as_done_already_is_read_and_done(
    services: Services, state: SandboxState
) -> None:
    drafts = await services.collections.create(state.demo_org, "Drafts")
    guild = other_org(state)
    await services.collections.transfer(drafts, guild)  # the first send of two
    moved = await services.collections.transfer(drafts, guild)  # the second: the sandbox answers 409
    assert moved.organization == guild and state.collections[drafts.id]["organization"] == guild


async def test_a_space_transfer_whose_answer_was_lost_is_read_and_done(
    services: Services, state: SandboxState, faults: Faults, transport: Counting
) -> None:
    scratch = await services.space_admin.space(named(state, "Scratchpad")["id"])
    guild = other_org(state)
    faults.drop_after_write = 1.0
    moved = await services.space_admin.transfer(scratch, guild)
    assert moved.organization == guild and state.spaces[scratch.id]["organization"] == guild
    assert transport.writes == [f"POST /v1/spaces/{scratch.id}/transfer"]


async def test_a_restore_whose_answer_was_lost_is_read_and_done(
    services: Services, state: SandboxState, faults: Faults, transport: Counting
) -> None:
    scratch = await services.space_admin.space(named(state, "Scratchpad")["id"])
    await services.trash.delete(scratch)
    gone = await services.space_admin.space(scratch.id)
    assert gone.deleted
    faults.drop_after_write = 1.0
    restored = await services.trash.restore(gone)
    assert not restored.deleted and state.spaces[scratch.id].get("deletedAt") is None
    assert transport.writes == [f"DELETE /v1/spaces/{scratch.id}", f"POST /v1/spaces/{scratch.id}/restore"]
    faults.drop_after_write = 0.0
    again = await services.trash.restore(gone)  # 400 "not deleted": it is back, and that is what is said
    assert not again.deleted


async def test_a_move_whose_answer_was_lost_is_read_and_done(
    services: Services, state: SandboxState, faults: Faults, transport: Counting
) -> None:
    org = state.demo_org
    spaces = [s async for page in services.browse.spaces_pages(org) for s in page]
    tree = content_tree(build_tree(await services.browse.collections(org), spaces))
    guide, reference = named(state, "User Guide"), named(state, "Reference")
    tree.layout.place(f"s:{guide['id']}", f"c:{reference['id']}", 1)  # before SDK Reference
    move = placement(tree, f"s:{guide['id']}")
    faults.drop_after_write = 1.0
    await services.collections.move(move, org)
    order = [i["title"] for _, i in siblings(state, org, reference["id"])]
    assert order == ["REST API Reference", "User Guide", "SDK Reference"]
    assert transport.writes == [f"POST /v1/spaces/{guide['id']}/move"]
    faults.drop_after_write = 0.0
    await services.collections.move(move, org)  # sent again by hand: 409, and it is where it was sent


async def test_a_409_the_state_explains_is_done_and_another_refusal_stands(
    services: Services, state: SandboxState
) -> None:
    org = state.demo_org
    spaces = [s async for page in services.browse.spaces_pages(org) for s in page]
    tree = content_tree(build_tree(await services.browse.collections(org), spaces))
    guide = named(state, "User Guide")
    move = placement(tree, f"s:{guide['id']}")  # where it is already
    before = [i["title"] for _, i in siblings(state, org, guide["parent"])]
    await services.collections.move(move, org)  # 409 "would not result in any update": it is there, so done
    assert [i["title"] for _, i in siblings(state, org, guide["parent"])] == before
    company = await services.collections.get(named(state, "Company")["id"])
    with pytest.raises(errors.PreconditionFailed):  # its spaces are published: refused, and nothing is read
        await services.collections.transfer(company, other_org(state))
    assert state.collections[company.id]["organization"] == org


def test_is_placed_reads_the_neighbour_the_move_names() -> None:
    from tests.services.test_content_admin import sample

    tree = sample()
    move = placement(tree, "s:gu")  # after GS, in G
    assert is_placed(tree, move)
    tree.layout.place("s:gu", "c:G", 0)
    assert not is_placed(tree, move)
    tree.layout.place("s:gu", "c:P", 0)
    assert not is_placed(tree, move)


async def test_a_lost_answer_the_state_shows_not_done_says_so_and_is_not_sent_again() -> None:
    sent: list[str] = []

    async def send() -> str:
        sent.append("sent")
        raise errors.TransportError("The connection dropped after the request was sent.")

    async def read() -> str | None:
        return None

    with pytest.raises(NotDone, match="the space was read again and it was not done"):
        await send_or_read(send, read, what="the space")
    assert sent == ["sent"]

    async def unreadable() -> str | None:
        raise errors.ServerError("down", status=503)

    with pytest.raises(errors.TransportError):  # the state could not be read: the lost answer is what is said
        await send_or_read(send, unreadable, what="the space")
