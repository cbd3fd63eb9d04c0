"""The response cache: LRU within a size bound, the per-entry cap, invalidation by path, one file per account."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from folio.cache import CachedResponse, ResponseCache
from tests.cache.conftest import Clock


def _sum_of_bodies(path: Path) -> tuple[int, int]:
    conn = sqlite3.connect(path)
    try:
        count, total = conn.execute("SELECT COUNT(*), COALESCE(SUM(LENGTH(body)), 0) FROM responses").fetchone()
    finally:
        conn.close()
    return int(count), int(total)


def test_a_put_is_found_with_its_time(tmp_path: Path, clock: Clock) -> None:
    cache = ResponseCache.open("acct", folder=tmp_path, clock=clock)
    assert cache.enabled and cache.problem is None
    assert cache.get("GET /orgs") is None
    cache.put("GET /orgs", b'{"items": []}')
    assert cache.get("GET /orgs") == CachedResponse(b'{"items": []}', clock.now)
    clock.tick()
    cache.put("GET /orgs", b"{}")
    assert cache.get("GET /orgs") == CachedResponse(b"{}", clock.now)
    cache.close()
    assert not cache.enabled
    assert cache.get("GET /orgs") is None  # closed: a miss, not an error


def test_the_least_recently_used_entry_goes_first(tmp_path: Path, clock: Clock) -> None:
    cache = ResponseCache.open("acct", folder=tmp_path, max_bytes=3000, entry_cap=1000, clock=clock)
    for name in "abc":
        cache.put(f"GET /x/{name}", name.encode() * 1000)
        clock.tick()
    assert cache.get("GET /x/a") is not None  # a is now the most recently used
    clock.tick()
    cache.put("GET /x/d", b"d" * 1000)
    assert cache.get("GET /x/b") is None
    assert [cache.get(f"GET /x/{n}") is not None for n in "acd"] == [True, True, True]
    assert cache.info().bytes == 3000


def test_a_hit_moments_after_the_last_one_does_not_write(tmp_path: Path, clock: Clock) -> None:
    cache = ResponseCache.open("acct", folder=tmp_path, max_bytes=2000, entry_cap=1000, clock=clock)
    cache.put("GET /x/a", b"a" * 1000)
    clock.tick(1)
    cache.put("GET /x/b", b"b" * 1000)
    clock.tick(1)
    assert cache.get("GET /x/a") is not None  # used 2 s ago: not worth a write, so a stays the oldest
    cache.put("GET /x/c", b"c" * 1000)
    assert cache.get("GET /x/a") is None
    assert cache.get("GET /x/b") is not None


def test_the_bodies_never_exceed_the_bound_and_the_totals_stay_true(tmp_path: Path, clock: Clock) -> None:
    cache = ResponseCache.open("acct", folder=tmp_path, max_bytes=50_000, entry_cap=9_000, clock=clock)
    for i in range(300):
        size = (i * 7919) % 9_000 + 1
        cache.put(f"GET /spaces/s{i % 37}/pages", bytes([i % 256]) * size)  # many replacements of the same keys
        clock.tick(1)
        info = cache.info()
        assert info.bytes <= 50_000
    assert _sum_of_bodies(cache.path) == (info.entries, info.bytes)
    assert info.entries > 1


def test_a_body_over_the_cap_is_not_stored_and_the_old_one_goes(tmp_path: Path) -> None:
    cache = ResponseCache.open("acct", folder=tmp_path, entry_cap=100)
    cache.put("GET /big", b"x" * 100)
    assert cache.get("GET /big") is not None  # exactly the cap is fine
    cache.put("GET /big", b"y" * 101)
    assert cache.get("GET /big") is None  # the old answer is not the current one any more
    assert cache.info().entries == 0
    assert cache.problem is None


def test_a_body_over_the_whole_bound_is_not_stored(tmp_path: Path) -> None:
    cache = ResponseCache.open("acct", folder=tmp_path, max_bytes=500, entry_cap=1000)
    cache.put("GET /a", b"a" * 400)
    cache.put("GET /b", b"b" * 600)
    assert cache.get("GET /b") is None
    assert cache.get("GET /a") is not None


KEYS = [
    "GET /spaces/s1/change-requests/c1/comments/k9",
    "GET /spaces/s1/change-requests/c1/comments/k9/replies?limit=100",
    "GET /spaces/s1/change-requests/c1/comments/k9/replies/r1",
    "GET /spaces/s1/change-requests/c1/comments",
    "GET /spaces/s1/change-requests/c1/comments?limit=100",
    "GET /spaces/s1/change-requests/c1",
    "GET /spaces/s1/change-requests",
    "GET /spaces/s1/change-requests?status=open",
    "GET /spaces/s1",
    # below: siblings and look-alikes that must stay
    "GET /spaces/s1/pages",
    "GET /spaces/s1/change-requests/c1/reviews",
    "GET /spaces/s1/change-requests/c1/comments/k90",
    "GET /spaces/s1/change-requests/c1/comments/k9x/replies",
    "GET /spaces/s1/change-requests/c10",
    "GET /spaces/s10",
    "GET /spaces/s1/change-requests/c1/comment",
    "GET /orgs/o1/spaces",
]


@pytest.mark.parametrize(
    "written", ["/spaces/s1/change-requests/c1/comments/k9", "/spaces/s1/change-requests/c1/comments/k9/"]
)
def test_a_write_forgets_the_path_below_it_and_its_ancestors_but_no_sibling(tmp_path: Path, written: str) -> None:
    cache = ResponseCache.open("acct", folder=tmp_path)
    for key in KEYS:
        cache.put(key, key.encode())
    assert cache.invalidate(written) == 9
    left = [key for key in KEYS if cache.get(key) is not None]
    assert left == KEYS[9:]


def test_invalidate_treats_like_wildcards_as_plain_characters(tmp_path: Path) -> None:
    cache = ResponseCache.open("acct", folder=tmp_path)
    keys = ["GET /spaces/a_b/pages", "GET /spaces/axb/pages", "GET /spaces/a%/pages", "GET /spaces/aZZ/pages"]
    keys += ["GET /spaces/a\\b/pages", "GET /spaces/a\\c/pages"]
    for key in keys:
        cache.put(key, b"1")
    assert cache.invalidate("/spaces/a_b") == 1
    assert cache.invalidate("/spaces/a%") == 1
    assert cache.invalidate("/spaces/a\\b") == 1
    assert [k for k in keys if cache.get(k) is not None] == [
        "GET /spaces/axb/pages",
        "GET /spaces/aZZ/pages",
        "GET /spaces/a\\c/pages",
    ]


def test_invalidate_of_a_top_level_path_and_of_nothing(tmp_path: Path) -> None:
    cache = ResponseCache.open("acct", folder=tmp_path)
    for key in ("GET /orgs", "GET /orgs?limit=5", "GET /user", "GET /orgs/o1"):
        cache.put(key, b"1")
    assert cache.invalidate("") == 0
    assert cache.invalidate("/") == 0
    assert cache.invalidate("/orgs?page=2") == 3  # the query of the written path does not matter
    assert cache.get("GET /user") is not None


def test_two_accounts_never_see_each_others_entries(tmp_path: Path) -> None:
    alice = ResponseCache.open("a1b2c3d4e5f60718", folder=tmp_path)
    bob = ResponseCache.open("0000111122223333", folder=tmp_path)
    alice.put("GET /user", b"alice")
    alice.put("GET /orgs/o1", b"alice's org")
    bob.put("GET /user", b"bob")
    assert alice.get("GET /user") == CachedResponse(b"alice", alice.get("GET /user").stored_at)  # type: ignore[union-attr]
    assert bob.get("GET /user").body == b"bob"  # type: ignore[union-attr]
    assert bob.get("GET /orgs/o1") is None
    bob.clear()
    assert alice.get("GET /orgs/o1") is not None
    assert alice.path != bob.path
    assert alice.path.name == "responses-a1b2c3d4e5f60718.sqlite3"


def test_account_names_are_made_safe_for_file_names_without_colliding(tmp_path: Path) -> None:
    odd = ResponseCache.open("../a/b", folder=tmp_path)
    similar = ResponseCache.open("___a_b", folder=tmp_path)
    assert odd.path.parent == tmp_path
    assert odd.path != similar.path
    assert all(c.isalnum() or c in "-_." for c in odd.path.name)
    odd.put("GET /user", b"odd")
    assert similar.get("GET /user") is None


def test_info_and_clear(tmp_path: Path, clock: Clock) -> None:
    cache = ResponseCache.open("acct", folder=tmp_path, max_bytes=10_000, clock=clock)
    empty = cache.info()
    assert (empty.entries, empty.bytes, empty.oldest, empty.newest) == (0, 0, None, None)
    first = clock.now
    cache.put("GET /a", b"a" * 100)
    clock.tick(60)
    cache.put("GET /b", b"b" * 50)
    info = cache.info()
    assert (info.entries, info.bytes, info.max_bytes, info.oldest, info.newest) == (2, 150, 10_000, first, clock.now)
    assert info.path == cache.path and info.file_bytes > 150 and info.journal_mode == "wal" and info.problem is None
    cache.clear()
    assert cache.info().entries == 0
    assert cache.get("GET /a") is None
    cache.put("GET /c", b"c")
    assert cache.get("GET /c") is not None
