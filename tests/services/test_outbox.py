"""The offline outbox over the sandbox: comments, replies, reactions and resolves made offline are queued in order,
sent once in that order when back online, reconciled (never duplicated) after a lost answer, and kept as stuck
with a reason when they can no longer apply; every check looks at what the sandbox holds."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from folio.api import GitBookClient, RetryPolicy, Token, errors
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.sandbox.revisions import walk
from folio.services import Services
from folio.services.local import Local
from folio.services.review.comments import Queued
from folio.services.review.outbox import ATTEMPTED, KINDS, OutboxService, outbox_of
from tests.conftest import EXCHANGES, SANDBOX_URL, TOKEN, Link, RecordingTransport

# -- a sandbox with switchable faults, behind a link that can go down, and services with local data ------------


@pytest.fixture
def faults() -> Faults:
    return Faults()  # all off: tests turn one on for a moment


@pytest.fixture
def link(state: SandboxState, faults: Faults) -> Link:
    return Link(SandboxTransport(create_app(state, faults=faults)))


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture
async def client(link: Link) -> AsyncIterator[GitBookClient]:
    c = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=RecordingTransport(link),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    yield c
    await c.aclose()


@pytest.fixture
def services(client: GitBookClient, state: SandboxState, tmp_path: Path) -> Iterator[Services]:
    state.clock.freeze(datetime.now(UTC))  # the service's clock agrees with this machine's
    local = Local(client, cache_dir=tmp_path / "cache", state_dir=tmp_path / "state")
    local.confirm(state.default_user, "Ada")
    yield Services(client, local=local)
    local.close()


@pytest.fixture
def outbox(services: Services) -> OutboxService:
    found = outbox_of(services)
    assert found is not None
    return found


def space_of(state: SandboxState, title: str = "Admin Handbook") -> str:
    return next(s["id"] for s in state.spaces.values() if s["title"] == title and s["organization"] == state.demo_org)


def page_of(state: SandboxState, space_id: str) -> str:
    pages = state.revisions[state.spaces[space_id]["revision"]]["pages"]
    return str(next(p for p, _, _ in walk(pages) if p.get("type", "document") == "document")["id"])


def open_comment(state: SandboxState, space_id: str, *, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    return next(
        c
        for c in state.comments.values()
        if c["space"] == space_id and c["changeRequest"] is None and c["status"] == "open" and c["id"] not in skip
    )


def holding(state: SandboxState, text: str) -> list[dict[str, Any]]:
    """Every comment and reply in the sandbox with this body."""
    found = [c for c in state.comments.values() if c["body"] == text]
    return found + [r for c in state.comments.values() for r in c["replies"] if r["body"] == text]


def reacted(record: dict[str, Any], emoji: str, user: str) -> bool:
    return any(r["emoji"] == emoji and any(u["user"] == user for u in r["users"]) for r in record["reactions"])


def writes_since(mark: int) -> list[tuple[str, str]]:
    """The writes that reached the sandbox after ``mark`` (an index into the recorded exchanges)."""
    return [(str(e["method"]), str(e["path"])) for e in EXCHANGES[mark:] if e["method"] != "GET"]


async def queue_all_four(services: Services, state: SandboxState) -> tuple[str, str, dict[str, Any]]:
    """Offline: a comment on a page, a reply, a reaction and a resolve on one thread. Returns the space, the
    page and the thread's record."""
    sid = space_of(state)
    page = page_of(state, sid)
    thread = open_comment(state, sid)
    await services.client.spaces.get(sid)  # seen online, as the screens do: the outbox names it from the cache
    services.client.set_offline("asked")
    comments = services.comments
    results = [
        await comments.create(sid, "Queued comment", page=page, where="a comment on the first page"),
        await comments.reply(sid, thread["id"], "Queued reply"),
        await comments.react(sid, thread["id"], "🎉"),
        await comments.set_resolved(sid, thread["id"], True),
    ]
    assert all(isinstance(r, Queued) for r in results)
    return sid, page, thread


# -- queueing and sending in order --------------------------------------------------------------------------------


async def test_offline_writes_are_queued_in_order_then_sent_once_in_that_order(
    services: Services, outbox: OutboxService, state: SandboxState
) -> None:
    sid, page, thread = await queue_all_four(services, state)
    items = outbox.items()
    assert [i.kind for i in items] == ["comment", "reply", "reaction", "resolve"]
    assert [i.state for i in items] == ["queued"] * 4
    assert [i.id for i in items] == sorted(i.id for i in items)
    assert items[0].payload == {
        "space": sid,
        "change_request": None,
        "page": page,
        "node": None,
        "markdown": "Queued comment",
    }
    assert items[0].where == "a comment on the first page in “Admin Handbook”"
    assert items[1].where == "a reply in “Admin Handbook”"  # the thread was never read: not named
    assert items[2].payload["emoji"] == "🎉" and items[3].payload["resolved"] is True
    assert holding(state, "Queued comment") == [] and holding(state, "Queued reply") == []
    assert thread["status"] == "open"

    refused = await outbox.flush()  # still offline, as asked: nothing goes
    assert refused.left == 4 and refused.done == 0 and "offline" in (refused.stopped or "")

    services.client.set_offline(None)
    steps: list[tuple[str, str]] = []
    mark = len(EXCHANGES)
    report = await outbox.flush(lambda item, step: steps.append((item.kind, step)))
    assert steps == [
        (kind, step) for kind in ("comment", "reply", "reaction", "resolve") for step in ("sending", "sent")
    ]
    base = f"/spaces/{sid}/comments"
    assert writes_since(mark) == [
        ("POST", base),
        ("POST", f"{base}/{thread['id']}/replies"),
        ("PUT", f"{base}/{thread['id']}"),
        ("PUT", f"{base}/{thread['id']}"),
    ]
    assert [i.kind for i in report.sent] == ["comment", "reply", "reaction", "resolve"]
    assert report.left == 0 and report.stopped is None and report.summary == "Outbox: 4 sent."
    [comment] = holding(state, "Queued comment")
    assert comment["target"]["page"] == {"id": page} and comment["postedBy"] == state.default_user
    assert [r["body"] for r in thread["replies"]].count("Queued reply") == 1
    assert reacted(thread, "🎉", state.default_user) and thread["status"] == "resolved"
    assert outbox.items() == []

    again = await outbox.flush()
    assert again.done == 0 and len(holding(state, "Queued comment")) == 1 and len(holding(state, "Queued reply")) == 1


async def test_online_writes_are_not_queued(services: Services, outbox: OutboxService, state: SandboxState) -> None:
    sid = space_of(state)
    posted = await services.comments.create(sid, "Straight away")
    assert not isinstance(posted, Queued) and len(holding(state, "Straight away")) == 1
    assert outbox.items() == []


async def test_edits_deletes_and_empty_text_are_refused_offline(
    services: Services, outbox: OutboxService, state: SandboxState
) -> None:
    sid = space_of(state)
    mine = next(c for c in state.comments.values() if c["space"] == sid and c["postedBy"] == state.default_user)
    services.client.set_offline("network")
    with pytest.raises(errors.Offline, match="edits and deletes need the service"):
        await services.comments.edit(sid, mine["id"], "Changed")
    with pytest.raises(errors.Offline, match="edits and deletes need the service"):
        await services.comments.delete(sid, mine["id"])
    with pytest.raises(errors.InvalidRequest):
        await services.comments.reply(sid, mine["id"], "   ")
    assert outbox.items() == [] and mine["id"] in state.comments and mine["body"] != "Changed"


async def test_without_local_data_an_offline_write_just_fails(client: GitBookClient, state: SandboxState) -> None:
    services = Services(client)
    assert outbox_of(services) is None
    client.set_offline("asked")
    with pytest.raises(errors.Offline):
        await services.comments.reply(space_of(state), open_comment(state, space_of(state))["id"], "Hello")


def test_one_outbox_per_services(services: Services) -> None:
    assert outbox_of(services) is outbox_of(services)


# -- a lost answer is reconciled, never duplicated ----------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
async def test_a_write_whose_answer_was_lost_is_found_not_sent_again(
    kind: str, services: Services, outbox: OutboxService, state: SandboxState, faults: Faults
) -> None:
    # The service's clock runs 5 minutes behind this machine's: what it stamps still counts as after the queueing.
    state.clock.freeze(datetime.now(UTC) - timedelta(minutes=5))
    _, _, thread = await queue_all_four(services, state)
    for item in outbox.items():
        if item.kind != kind:
            outbox.state.remove(item.id)  # type: ignore[union-attr]
    [item] = outbox.items()
    services.client.set_offline(None)

    faults.drop_after_write = 1.0  # the write is applied, its answer lost
    lost = await outbox.flush()
    faults.drop_after_write = 0.0
    assert lost.done == 0 and lost.left == 1 and "connection" in (lost.stopped or "")
    [waiting] = outbox.items()
    assert waiting.state == "queued" and waiting.note == ATTEMPTED

    mark = len(EXCHANGES)
    report = await outbox.flush()
    assert [i.id for i in report.found] == [item.id] and report.sent == [] and outbox.items() == []
    assert writes_since(mark) == []  # looked for, not sent again
    assert "had already reached" in report.summary
    assert len(holding(state, "Queued comment")) == (kind == "comment")
    assert len(holding(state, "Queued reply")) == (kind == "reply")
    assert reacted(thread, "🎉", state.default_user) == (kind == "reaction")
    assert (thread["status"] == "resolved") == (kind == "resolve")


async def test_an_older_identical_comment_is_not_taken_for_the_queued_one(
    services: Services, outbox: OutboxService, state: SandboxState
) -> None:
    sid = space_of(state)
    page = page_of(state, sid)
    now = datetime.now(UTC)
    state.clock.freeze(now - timedelta(days=2))
    await services.comments.create(sid, "LGTM", page=page)  # two days ago, online
    state.clock.freeze(now)
    services.client.set_offline("asked")
    queued = await services.comments.create(sid, "LGTM", page=page)
    assert isinstance(queued, Queued)
    outbox.state.mark(queued.id, "queued", ATTEMPTED)  # type: ignore[union-attr]  # a crash as it was sent
    services.client.set_offline(None)
    report = await outbox.flush()
    assert [i.id for i in report.sent] == [queued.id] and report.found == []
    assert len(holding(state, "LGTM")) == 2


# -- what stops a flush, and what can no longer apply --------------------------------------------------------------


async def test_a_transport_failure_stops_the_flush_and_the_rest_waits_in_order(
    services: Services, outbox: OutboxService, state: SandboxState, link: Link
) -> None:
    await queue_all_four(services, state)
    services.client.set_offline(None)
    link.down = True  # connecting fails: nothing can have reached the service
    report = await outbox.flush()
    assert report.done == 0 and report.left == 4 and "connection" in (report.stopped or "")
    assert [(i.state, i.note) for i in outbox.items()] == [("queued", "")] * 4
    assert "4 still waiting" in report.summary
    link.down = False
    assert (await outbox.flush()).done == 4
    assert len(holding(state, "Queued comment")) == 1 and len(holding(state, "Queued reply")) == 1


async def test_the_outbox_goes_out_when_the_service_comes_back(
    services: Services, outbox: OutboxService, state: SandboxState, link: Link
) -> None:
    await queue_all_four(services, state)
    services.client.set_offline("network")
    link.down = True
    still = await outbox.flush()
    assert still.done == 0 and still.left == 4 and "cannot be reached" in (still.stopped or "")
    assert services.client.offline_reason == "network"
    link.down = False
    report = await outbox.flush()
    assert services.client.offline_reason is None and report.done == 4 and outbox.items() == []
    assert len(holding(state, "Queued comment")) == 1


async def test_items_that_no_longer_apply_are_kept_as_stuck_while_later_ones_go(
    services: Services, outbox: OutboxService, state: SandboxState
) -> None:
    sid = space_of(state)
    doomed = open_comment(state, sid)
    living = open_comment(state, sid, skip=(doomed["id"],))
    gs = space_of(state, "Getting Started")
    cr = next(c for c in state.change_requests.values() if c["space"] == gs and c["number"] == 2)
    services.client.set_offline("asked")
    comments = services.comments
    await comments.reply(sid, doomed["id"], "Too late")
    await comments.create(gs, "On a merged change request", change_request=cr["id"])
    await comments.react(sid, living["id"], "👀")
    await comments.set_resolved(sid, doomed["id"], True)
    await comments.reply(sid, living["id"], "Still welcome")

    del state.comments[doomed["id"]]  # deleted by someone else meanwhile
    cr["status"] = "merged"
    services.client.set_offline(None)
    report = await outbox.flush()

    assert [i.kind for i in report.stuck] == ["reply", "comment", "resolve"]
    assert [i.kind for i in report.sent] == ["reaction", "reply"]
    assert report.stopped is None and report.left == 0
    assert reacted(living, "👀", state.default_user)
    assert [r["body"] for r in living["replies"]].count("Still welcome") == 1
    assert holding(state, "On a merged change request") == []
    kept = outbox.items()
    assert [(i.kind, i.state) for i in kept] == [("reply", "stuck"), ("comment", "stuck"), ("resolve", "stuck")]
    assert kept[0].note == "The thread was deleted: the reply was not sent."
    assert kept[1].note == "Change request #2 was merged: this no longer applies, so it was not sent."
    assert kept[2].note == "The thread was deleted: it was not resolved."
    assert "3 can no longer be sent" in report.summary

    assert (await outbox.flush()).done == 0  # stuck items are not tried again
    outbox.discard(kept[0].id)
    assert [i.id for i in outbox.items()] == [kept[1].id, kept[2].id]


async def test_a_queued_item_is_not_discarded(services: Services, outbox: OutboxService, state: SandboxState) -> None:
    sid = space_of(state)
    services.client.set_offline("asked")
    queued = await services.comments.reply(sid, open_comment(state, sid)["id"], "Wait for it")
    assert isinstance(queued, Queued)
    with pytest.raises(ValueError, match="still waits"):
        outbox.discard(queued.id)
    assert [i.id for i in outbox.items()] == [queued.id]
