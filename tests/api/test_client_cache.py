"""The client reading through a response store: what is stored, cache-only reads, the automatic offline
fallback when the link drops, writes refused offline and invalidating what they change."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from folio.api import GitBookClient, RetryPolicy, Token, errors
from folio.api.caching import cache_key, cached_only, freshness
from folio.models.change_request import ChangeRequestSummary
from folio.models.space import SpaceSummary
from folio.sandbox import SandboxState, SandboxTransport, create_app
from tests.conftest import SANDBOX_URL, TOKEN, Link


@dataclass(frozen=True)
class Hit:
    body: bytes
    stored_at: float


class DictStore:
    """The store protocol over a dict (the SQLite one has its own tests in tests/cache)."""

    def __init__(self) -> None:
        self.entries: dict[str, Hit] = {}
        self.invalidated: list[str] = []

    def get(self, key: str) -> Hit | None:
        return self.entries.get(key)

    def put(self, key: str, body: bytes) -> None:
        self.entries[key] = Hit(body, time.time())

    def invalidate(self, path: str) -> int:
        self.invalidated.append(path)
        gone = [k for k in self.entries if k.split("?")[0].removeprefix("GET ").startswith(path)]
        for k in gone:
            del self.entries[k]
        return len(gone)


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture
def link(state: SandboxState) -> Link:
    return Link(SandboxTransport(create_app(state)))


@pytest.fixture
async def cached(link: Link) -> AsyncIterator[tuple[GitBookClient, DictStore]]:
    client = GitBookClient(token=Token(TOKEN), base_url=SANDBOX_URL, transport=link, retry=RetryPolicy(sleep=_no_sleep))
    store = DictStore()
    client.store = store
    yield client, store
    await client.aclose()


def test_keys_sort_the_query_and_repeat_list_values() -> None:
    assert cache_key("/orgs/o1/spaces", None) == "GET /orgs/o1/spaces"
    assert cache_key("/x", {"page": "b", "limit": 10}) == "GET /x?limit=10&page=b"
    assert cache_key("/x", {"status": ["open", "draft"]}) == "GET /x?status=open&status=draft"


async def test_a_read_is_stored_and_answered_from_the_cache_alone(
    cached: tuple[GitBookClient, DictStore], link: Link
) -> None:
    client, store = cached
    orgs = await client.organizations.list().collect()
    assert any(key.startswith("GET /orgs") for key in store.entries)
    sent = len(link.sent)
    with cached_only(), freshness() as seen:
        again = await client.organizations.list().collect()
    assert [o.id for o in again] == [o.id for o in orgs]
    assert len(link.sent) == sent, "a cache-only read must not touch the network"
    assert seen.from_cache and seen.oldest is not None and seen.oldest <= time.time()


async def test_a_cached_spaces_list_reads_back_as_the_same_rows(
    cached: tuple[GitBookClient, DictStore], link: Link, state: SandboxState
) -> None:
    client, store = cached
    rows = await client.spaces.summaries(state.demo_org, limit=5).collect()
    assert len([key for key in store.entries if key.startswith(f"GET /orgs/{state.demo_org}/spaces")]) == 3
    sent = len(link.sent)
    with cached_only():  # the stored bytes go through the same decoding as an answer (msgspec Struct rows)
        again = await client.spaces.summaries(state.demo_org, limit=5).collect()
    assert len(link.sent) == sent
    assert again == rows and len(rows) == 12 and all(type(row) is SpaceSummary for row in again)


async def test_a_cached_inbox_reads_back_as_the_same_rows(
    cached: tuple[GitBookClient, DictStore], link: Link, state: SandboxState
) -> None:
    client, store = cached
    every = ["draft", "open", "archived", "merged"]
    rows = await client.change_requests.summaries_for_organization(state.demo_org, status=every, limit=4).collect()
    assert len([key for key in store.entries if key.startswith(f"GET /orgs/{state.demo_org}/change-requests")]) == 3
    sent = len(link.sent)
    with cached_only():  # the stored bytes go through the same decoding as an answer (msgspec Struct rows)
        again = await client.change_requests.summaries_for_organization(state.demo_org, status=every, limit=4).collect()
    assert len(link.sent) == sent
    assert again == rows and len(rows) == 10 and all(type(row) is ChangeRequestSummary for row in again)


async def test_a_cache_only_read_never_seen_is_not_cached(cached: tuple[GitBookClient, DictStore]) -> None:
    client, _ = cached
    with cached_only(), pytest.raises(errors.NotCached):
        await client.users.me()


async def test_a_dropped_link_falls_back_to_the_cache_and_goes_offline(
    cached: tuple[GitBookClient, DictStore], link: Link
) -> None:
    client, _ = cached
    changes: list[str | None] = []
    client.on_offline_change = changes.append
    me = await client.users.me()
    link.down = True
    with freshness() as seen:
        again = await client.users.me()
    assert again.id == me.id and seen.from_cache
    assert client.offline_reason == "network" and changes == ["network"]
    # Offline, something never seen says so at once, without trying the link.
    with pytest.raises(errors.Offline):
        await client.organizations.list().collect()
    assert not await client.probe_online()
    link.down = False
    assert await client.probe_online()
    assert client.offline_reason is None and changes == ["network", None]


async def test_a_dropped_link_with_nothing_cached_is_a_transport_error(
    cached: tuple[GitBookClient, DictStore], link: Link
) -> None:
    client, _ = cached
    link.down = True
    with pytest.raises(errors.TransportError):
        await client.users.me()
    assert client.offline_reason is None


async def test_writes_are_refused_offline_and_invalidate_what_they_change_online(
    cached: tuple[GitBookClient, DictStore], state: SandboxState, link: Link
) -> None:
    client, store = cached
    org = next(iter(state.orgs))
    spaces = await client.spaces.list(org).collect()
    space = spaces[0]
    await client.spaces.get(space.id)
    assert f"GET /spaces/{space.id}" in store.entries
    client.set_offline("asked")
    sent = len(link.sent)
    with pytest.raises(errors.Offline):
        await client.spaces.update(space.id, title="Renamed offline")
    assert len(link.sent) == sent
    client.set_offline(None)
    await client.spaces.update(space.id, title="Renamed online")
    assert store.invalidated == [f"/spaces/{space.id}"]
    assert f"GET /spaces/{space.id}" not in store.entries


async def test_a_spent_rate_limit_holds_refreshes_nobody_asked_for(state: SandboxState) -> None:
    from folio.sandbox.faults import Faults

    faults = Faults(burst_429=1, retry_after=30.0, seed=1)
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state, faults=faults)),
        retry=RetryPolicy(sleep=_no_sleep, max_rate_limit_wait=60.0),
    )
    try:
        assert client.may_refresh()
        await client.users.me()  # the first answer is a 429 (Retry-After: 30), the retry succeeds
        assert not client.may_refresh(), "refreshing by itself waits for the rate limit to reset"
        client.quiet_until = 0.0
        client.set_offline("network")
        assert not client.may_refresh(), "nor does it run offline"
    finally:
        await client.aclose()
