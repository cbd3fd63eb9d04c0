"""A pending review over the sandbox: comments and replies written while holding are kept on this machine (not
sent, still there after a restart), then sent in order with the verdict; a send whose answer was lost is looked for
before it goes again; a failure leaves the rest held, in order."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from folio.api import GitBookClient, RetryPolicy, Token, errors
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.sandbox.revisions import walk
from folio.services import Services
from folio.services.local import Local
from folio.services.review.comments import Queued
from folio.services.review.pending_review import Held
from tests.conftest import EXCHANGES, SANDBOX_URL, TOKEN, Link, RecordingTransport


@pytest.fixture
def faults() -> Faults:
    return Faults()


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture
async def client(state: SandboxState, faults: Faults) -> AsyncIterator[GitBookClient]:
    link = Link(SandboxTransport(create_app(state, faults=faults)))
    c = GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=RecordingTransport(link), retry=RetryPolicy(sleep=_no_sleep)
    )
    yield c
    await c.aclose()


def _services(client: GitBookClient, state: SandboxState, folder: Path) -> Services:
    local = Local(client, cache_dir=folder / "cache", state_dir=folder / "state")
    local.confirm(state.default_user, "Ada")
    return Services(client, local=local)


@pytest.fixture
def services(client: GitBookClient, state: SandboxState, tmp_path: Path) -> Iterator[Services]:
    state.clock.freeze(datetime.now(UTC))  # the service's clock agrees with this machine's
    services = _services(client, state, tmp_path)
    yield services
    assert services.local is not None
    services.local.close()


def the_cr(state: SandboxState) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == "Clarify Linux install steps")


def pages_of(state: SandboxState, cr: dict[str, Any]) -> list[str]:
    pages = state.revisions[cr["revision"]]["pages"]
    return [str(p["id"]) for p, _, _ in walk(pages) if p.get("type", "document") == "document"]


def thread_of(state: SandboxState, cr: dict[str, Any]) -> dict[str, Any]:
    return next(c for c in state.comments.values() if c["changeRequest"] == cr["id"] and c["status"] == "open")


def bodies(state: SandboxState, cr: dict[str, Any]) -> list[str]:
    """The change request's comments and replies in the order the sandbox took them."""
    out = [c["body"] for c in state.comments.values() if c["changeRequest"] == cr["id"]]
    return out + [r["body"] for c in state.comments.values() if c["changeRequest"] == cr["id"] for r in c["replies"]]


def writes_since(mark: int) -> list[tuple[str, str]]:
    return [(str(e["method"]), str(e["path"])) for e in EXCHANGES[mark:] if e["method"] != "GET"]


async def hold_three(services: Services, state: SandboxState) -> tuple[str, str, str]:
    cr = the_cr(state)
    sid, cid = cr["space"], cr["id"]
    first, second = pages_of(state, cr)[:2]
    thread = thread_of(state, cr)
    assert services.pending_review.toggle(sid, cid).holding
    comments = services.comments
    held = [
        await comments.create(sid, "Held one", change_request=cid, page=first, where="a comment on page one"),
        await comments.reply(sid, thread["id"], "Held two", change_request=cid),
        await comments.create(sid, "Held three", change_request=cid, page=second),
    ]
    assert all(isinstance(h, Held) and isinstance(h, Queued) for h in held)
    assert [h.id for h in held] == [1, 2, 3]  # type: ignore[union-attr]
    return sid, cid, thread["id"]


async def test_held_comments_are_kept_not_sent_and_survive_a_restart(
    services: Services, client: GitBookClient, state: SandboxState, tmp_path: Path
) -> None:
    before = bodies(state, the_cr(state))
    mark = len(EXCHANGES)
    sid, cid, thread = await hold_three(services, state)
    assert writes_since(mark) == []  # nothing reached the service
    assert bodies(state, the_cr(state)) == before
    review = services.pending_review.get(sid, cid)
    assert review.holding and review.summary == "pending review: 3 comments"
    assert [(i.kind, i.markdown) for i in review.items] == [
        ("comment", "Held one"),
        ("reply", "Held two"),
        ("comment", "Held three"),
    ]
    assert review.items[0].where == "a comment on page one" and review.items[1].comment == thread

    assert services.local is not None
    services.local.close()  # the terminal goes away
    again = _services(client, state, tmp_path)
    kept = again.pending_review.get(sid, cid)
    assert kept.holding and [i.markdown for i in kept.items] == ["Held one", "Held two", "Held three"]
    assert again.local is not None
    again.local.close()


async def test_the_pending_review_goes_in_order_with_the_verdict(services: Services, state: SandboxState) -> None:
    sid, cid, thread = await hold_three(services, state)
    mark = len(EXCHANGES)
    report = await services.pending_review.send(sid, cid)
    await services.review.submit(sid, cid, "approved", "Looks good")
    assert [i.markdown for i in report.sent] == ["Held one", "Held two", "Held three"] and report.found == []
    path = f"/spaces/{sid}/change-requests/{cid}"
    assert writes_since(mark) == [
        ("POST", f"{path}/comments"),
        ("POST", f"{path}/comments/{thread}/replies"),
        ("POST", f"{path}/comments"),
        ("POST", f"{path}/reviews"),
    ]
    new = [c for c in state.comments.values() if c["body"] in ("Held one", "Held three")]
    assert [c["body"] for c in new] == ["Held one", "Held three"]  # in the order they were written
    assert new[0]["target"]["page"]["id"] == pages_of(state, the_cr(state))[0]
    assert state.comments[thread]["replies"][-1]["body"] == "Held two"
    assert the_cr(state)["reviews"][-1]["status"] == "approved"
    review = services.pending_review.get(sid, cid)
    assert review.items == [] and not review.holding  # sent: nothing held, not holding any more
    posted = await services.comments.create(sid, "Straight away", change_request=cid)
    assert not isinstance(posted, Queued) and "Straight away" in bodies(state, the_cr(state))


async def test_a_held_comment_whose_answer_was_lost_is_found_not_sent_twice(
    services: Services, state: SandboxState, faults: Faults
) -> None:
    sid, cid, _ = await hold_three(services, state)
    faults.drop_after_write = 1.0  # the first comment is taken, its answer lost
    with pytest.raises(errors.ApiError):
        await services.pending_review.send(sid, cid)
    faults.drop_after_write = 0.0
    left = services.pending_review.get(sid, cid).items
    assert [i.markdown for i in left] == ["Held one", "Held two", "Held three"] and left[0].attempted
    report = await services.pending_review.send(sid, cid)
    assert [i.markdown for i in report.found] == ["Held one"]
    assert [i.markdown for i in report.sent] == ["Held two", "Held three"]
    assert bodies(state, the_cr(state)).count("Held one") == 1


async def test_a_failure_stops_the_send_and_keeps_the_rest_in_order(services: Services, state: SandboxState) -> None:
    sid, cid, thread = await hold_three(services, state)
    del state.comments[thread]  # the thread of the second item is deleted meanwhile
    with pytest.raises(errors.NotFound):
        await services.pending_review.send(sid, cid)
    assert "Held one" in bodies(state, the_cr(state))
    assert [i.markdown for i in services.pending_review.get(sid, cid).items] == ["Held two", "Held three"]
    assert services.pending_review.remove(sid, cid, 0) is not None  # the user drops the reply
    await services.pending_review.send(sid, cid)
    assert "Held three" in bodies(state, the_cr(state))


async def test_not_holding_sends_at_once_and_empty_text_is_refused(services: Services, state: SandboxState) -> None:
    cr = the_cr(state)
    posted = await services.comments.create(cr["space"], "At once", change_request=cr["id"])
    assert not isinstance(posted, Queued) and "At once" in bodies(state, cr)
    services.pending_review.toggle(cr["space"], cr["id"])
    with pytest.raises(errors.InvalidRequest):
        await services.comments.create(cr["space"], "  ", change_request=cr["id"])
    assert services.pending_review.get(cr["space"], cr["id"]).items == []
    assert services.pending_review.discard(cr["space"], cr["id"]) == 0
    assert not services.pending_review.holding(cr["space"], cr["id"])
