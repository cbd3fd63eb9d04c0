"""The inbox watch against the seeded sandbox: the first look seeds and says nothing; then a review request made
by another user is announced once and only once, also by a watch started again on the same state database; a
merge of your change request and a reply on your thread are announced; a 429 waits what the service asked, and
longer after each failure in a row."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from folio.api import GitBookClient, RetryPolicy, Token
from folio.cache import LocalState
from folio.sandbox import SandboxState, SandboxTransport
from folio.sandbox.domain.change_requests import open_change_request
from folio.sandbox.domain.reviews import request_review
from folio.services import Services
from folio.services.browse import InboxFilter
from folio.services.review.inbox_watch import (
    MOST_BACKOFF,
    Announcement,
    InboxWatch,
    MemorySeen,
    Problem,
    inbox_pages,
    space_titles,
)
from tests.conftest import SANDBOX_URL, TOKEN

OTHER = "gb_api_other_user_token"


def cr_of(state: SandboxState, subject: str) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == subject)


def user(state: SandboxState, name: str) -> str:
    return next(uid for uid, u in state.users.items() if u["email"].startswith(name + "@"))


@pytest.fixture
def services(client: GitBookClient) -> Services:
    return Services(client)


@pytest.fixture
async def as_emeka(state: SandboxState, app: Any) -> AsyncIterator[GitBookClient]:
    """A second caller of the same sandbox: Emeka, with his own token."""
    state.tokens = {TOKEN: state.default_user, OTHER: user(state, "emeka")}
    other = GitBookClient(token=Token(OTHER), base_url=SANDBOX_URL, transport=SandboxTransport(app))
    yield other
    await other.aclose()


async def ask_ada(state: SandboxState, as_emeka: GitBookClient, subject: str) -> dict[str, Any]:
    record = cr_of(state, subject)
    path = f"/spaces/{record['space']}/change-requests/{record['id']}/requested-reviewers"
    await as_emeka.request_json("POST", path, json={"users": [state.default_user]})
    return record


async def test_a_review_request_is_announced_once_and_only_once_also_after_a_restart(
    services: Services, state: SandboxState, as_emeka: GitBookClient, tmp_path: Path
) -> None:
    db = LocalState.open("ada", folder=tmp_path)
    watch = InboxWatch(services, seen=db)
    assert await watch.poll() == []  # the first look seeds: two review requests were waiting already, unsaid
    assert await watch.poll() == []

    record = await ask_ada(state, as_emeka, "Remove the deprecated Rollouts API page")
    said = await watch.poll()
    assert [(a.kind, a.change_request, a.title) for a in said] == [
        ("review", record["id"], "#2 Remove the deprecated Rollouts API page")
    ]
    assert said[0].line.startswith("Review asked of you by Emeka")
    assert "#2 Remove the deprecated Rollouts API page (Northwind Labs) https://" in said[0].line
    assert await watch.poll() == []  # once
    db.close()

    again = LocalState.open("ada", folder=tmp_path)  # Folio started again: nothing is said a second time
    assert await InboxWatch(services, seen=again).poll() == []
    second = await ask_ada(state, as_emeka, "December 2026 release notes")  # a draft: now open, awaiting Ada
    assert [a.change_request for a in await InboxWatch(services, seen=again).poll()] == [second["id"]]


async def test_a_merge_of_your_change_request_and_a_reply_on_your_thread_are_announced(
    services: Services, client: GitBookClient, state: SandboxState, as_emeka: GitBookClient
) -> None:
    watch = InboxWatch(services, seen=MemorySeen())
    mine = cr_of(state, "Failover: lower the DNS TTL first")
    thread = await client.comments.create(mine["space"], "Is 60 s low enough?", change_request=mine["id"])
    assert await watch.poll() == []

    await as_emeka.comments.reply(mine["space"], thread.id, "Yes, 60 s is fine.", change_request=mine["id"])
    said = await watch.poll()
    assert [(a.kind, a.comment) for a in said] == [("reply", thread.id)]
    assert said[0].line.startswith("Emeka")
    await client.comments.reply(mine["space"], thread.id, "Thanks!", change_request=mine["id"])
    assert await watch.poll() == []  # my own reply is nothing new

    rollout = cr_of(state, "Explain rollout waves")  # Ada's, open
    await client.change_requests.merge(rollout["space"], rollout["id"])
    said = await watch.poll()
    assert [(a.kind, a.change_request) for a in said] == [("merged", rollout["id"])]
    assert said[0].line.startswith("Merged: your #2 Explain rollout waves (")
    assert await watch.poll() == []


class Throttle(httpx.AsyncBaseTransport):
    """The sandbox behind a service that answers 429 (Retry-After: ``after`` s) while ``refusing`` is above 0."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.refusing = 0
        self.after = "120"
        self.asked = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.asked += 1
        if self.refusing:
            self.refusing -= 1
            headers = {"Retry-After": self.after} if self.after else {}
            return httpx.Response(429, headers=headers, json={"error": {"code": 429, "message": "Slow down"}})
        return await self.inner.handle_async_request(request)


async def test_a_429_waits_what_the_service_asked_and_backs_off_further_in_a_row(
    app: Any, state: SandboxState, as_emeka: GitBookClient
) -> None:
    throttle = Throttle(SandboxTransport(app))

    async def no_sleep(seconds: float) -> None:
        return None

    client = GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=throttle, retry=RetryPolicy(attempts=1, sleep=no_sleep)
    )
    waits: list[float] = []
    ran: list[Announcement | Problem] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        client.quiet_until = 0.0  # (the time asked has passed)
        if len(waits) == 1:
            throttle.refusing = 1  # the second look: 429, Retry-After 120
        elif len(waits) == 2:
            throttle.refusing, throttle.after = 1, ""  # the third: 429 without a time
        elif len(waits) == 3:
            await ask_ada(state, as_emeka, "Remove the deprecated Rollouts API page")  # the fourth: works again
        elif len(waits) == 5:
            raise _Stop

    watch = InboxWatch(Services(client), interval=60.0, seen=MemorySeen(), sleep=sleep)
    with pytest.raises(_Stop):
        async for event in watch.run():
            ran.append(event)
    await client.aclose()
    problems = [e for e in ran if isinstance(e, Problem)]
    assert [p.wait for p in problems] == [120.0, 240.0]  # what it asked (over 2 x 60), then 4 x 60
    assert "Rate limited" in problems[0].words or "Too many" in problems[0].words
    assert "The next look is in 120 s" in problems[0].words
    assert [e.kind for e in ran if isinstance(e, Announcement)] == ["review"]
    assert waits == [60.0, 120.0, 240.0, 60.0, 60.0]  # back to the interval once a look works
    assert watch.backoff(10_000.0) == 10_000.0 and watch.backoff(None) <= MOST_BACKOFF


class _Stop(Exception):
    pass


async def test_the_inbox_reads_every_organization_and_names_their_spaces(
    services: Services, state: SandboxState
) -> None:
    guild = next(
        s
        for s in state.spaces.values()
        if s["organization"] != state.spaces[cr_of(state, "Explain rollout waves")["space"]]["organization"]
    )
    robots = open_change_request(state, guild["id"], user(state, "emeka"), subject="Calibrate the arm")
    request_review(state, robots, state.default_user, user(state, "emeka"))
    orgs: set[str] = set()
    rows = [cr async for page in inbox_pages(services, InboxFilter(awaiting_me=True), orgs=orgs) for cr in page]
    assert sorted(cr.title for cr in rows) == [
        "#1 Add pagination to the Robots API",
        "#1 Calibrate the arm",
        "#1 Clarify Linux install steps",
        "#2 Weekend paging rotation",
    ]
    assert orgs == set(state.orgs)  # both organizations of the account
    titles = await space_titles(services, orgs)
    assert titles[robots["space"]] == guild["title"]
    assert all(titles.get(cr.space) for cr in rows)
