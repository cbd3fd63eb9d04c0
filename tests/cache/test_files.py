"""How the cache file is opened: permissions, WAL and its fallback, damaged, unreadable, locked and full files.
None of these may raise into the app."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from folio.cache import ResponseCache
from folio.cache._db import NO_WAL_ENV, connect, open_database


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """A umask that lets everyone read new files: the cache must set its modes itself."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.usefixtures("open_umask")
def test_folder_is_0700_and_files_0600_whatever_the_umask(tmp_path: Path) -> None:
    folder = tmp_path / "made" / "cache"
    cache = ResponseCache.open("acct", folder=folder)
    cache.put("GET /user", b"x" * 5000)
    assert cache.get("GET /user") is not None
    files = [cache.path, cache.path.with_name(cache.path.name + "-wal"), cache.path.with_name(cache.path.name + "-shm")]
    assert all(f.exists() for f in files)
    assert [_mode(f) for f in files] == [0o600, 0o600, 0o600]
    assert _mode(folder) == 0o700


def test_an_existing_open_folder_and_file_are_closed_up(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    ResponseCache.open("acct", folder=folder).close()
    path = folder / "responses-acct.sqlite3"
    os.chmod(path, 0o644)
    cache = ResponseCache.open("acct", folder=folder)
    assert cache.problem is None
    assert (_mode(folder), _mode(path)) == (0o700, 0o600)


def test_wal_on_a_normal_disk(tmp_path: Path) -> None:
    cache = ResponseCache.open("acct", folder=tmp_path)
    assert cache.info().journal_mode == "wal"
    conn = connect(tmp_path / "plain.sqlite3")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: consistent after a crash with WAL
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    conn.close()
    user_data = connect(tmp_path / "state.sqlite3", full_sync=True)
    assert user_data.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    user_data.close()


def test_a_filesystem_that_refuses_wal_gets_a_rollback_journal_with_full_sync(tmp_path: Path) -> None:
    # The unix-none VFS has no shared memory, as on many network filesystems: SQLite answers the WAL request
    # with the old mode instead of failing.
    conn = connect(tmp_path / "refused.sqlite3", vfs="unix-none")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    conn.close()
    opened = open_database(tmp_path / "refused.sqlite3", what="The test store", vfs="unix-none")
    assert opened.conn is not None and opened.journal_mode == "delete" and opened.problem is None
    opened.conn.close()


def test_wal_can_be_refused_by_a_variable_or_a_parameter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    by_parameter = ResponseCache.open("one", folder=tmp_path, wal=False)
    monkeypatch.setenv(NO_WAL_ENV, "1")
    by_variable = ResponseCache.open("two", folder=tmp_path)
    for cache in (by_parameter, by_variable):
        assert cache.info().journal_mode == "delete"
        cache.put("GET /user", b"me")
        assert cache.get("GET /user") is not None
        assert not cache.path.with_name(cache.path.name + "-wal").exists()


def test_a_garbage_file_is_moved_aside_and_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "responses-acct.sqlite3"
    garbage = b"this is not a database, it is a shopping list\n" * 200
    path.write_bytes(garbage)
    cache = ResponseCache.open("acct", folder=tmp_path)
    assert cache.enabled
    assert cache.problem is not None and "not a database" in cache.problem and "moved to" in cache.problem
    aside = list(tmp_path.glob("responses-acct.sqlite3.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == garbage
    assert aside[0].name in cache.problem
    cache.put("GET /user", b"me")
    assert cache.get("GET /user") is not None
    cache.close()
    again = ResponseCache.open("acct", folder=tmp_path)
    assert again.problem is None and again.get("GET /user") is not None


def test_a_file_with_damaged_pages_is_moved_aside_and_rebuilt(tmp_path: Path) -> None:
    cache = ResponseCache.open("acct", folder=tmp_path, wal=False)
    for i in range(100):
        cache.put(f"GET /spaces/s{i}", bytes([i]) * 3000)
    cache.close()
    data = bytearray(cache.path.read_bytes())
    page = 4096
    assert len(data) > 20 * page
    data[page : 20 * page] = bytes(range(256)) * (19 * page // 256)  # keep the header, smash the tree
    cache.path.write_bytes(bytes(data))
    reopened = ResponseCache.open("acct", folder=tmp_path)
    assert reopened.enabled and reopened.problem is not None and "moved to" in reopened.problem
    assert reopened.info().entries == 0
    reopened.put("GET /user", b"me")
    assert reopened.get("GET /user") is not None
    assert len(list(tmp_path.glob("*.corrupt-*"))) == 1


def test_a_second_damaged_file_does_not_overwrite_the_first_one_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "responses-acct.sqlite3"
    for text in (b"first garbage" * 100, b"second garbage" * 100):
        path.write_bytes(text)
        ResponseCache.open("acct", folder=tmp_path).close()
    kept = sorted(p.read_bytes()[:6] for p in tmp_path.glob("*.corrupt-*"))
    assert kept == [b"first ", b"second"]


def _assert_disabled_and_harmless(cache: ResponseCache) -> None:
    assert not cache.enabled
    assert cache.problem
    cache.put("GET /user", b"me")
    assert cache.get("GET /user") is None
    assert cache.invalidate("/user") == 0
    cache.clear()
    info = cache.info()
    assert (info.entries, info.bytes, info.problem) == (0, 0, cache.problem)
    cache.close()


def test_a_folder_that_is_a_file_gives_a_disabled_cache(tmp_path: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the folder should be")
    cache = ResponseCache.open("acct", folder=blocker)
    _assert_disabled_and_harmless(cache)
    assert blocker.read_text() == "a file where the folder should be"


def test_a_folder_where_the_file_should_be_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "responses-acct.sqlite3").mkdir()
    (tmp_path / "responses-acct.sqlite3" / "keep.txt").write_text("mine")
    cache = ResponseCache.open("acct", folder=tmp_path)
    _assert_disabled_and_harmless(cache)
    assert (tmp_path / "responses-acct.sqlite3" / "keep.txt").read_text() == "mine"


def test_a_file_locked_by_another_program_is_not_taken_for_damaged(tmp_path: Path) -> None:
    path = tmp_path / "responses-acct.sqlite3"
    ResponseCache.open("acct", folder=tmp_path, wal=False).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        cache = ResponseCache.open("acct", folder=tmp_path, busy_timeout=0)
        assert "locked" in (cache.problem or "")
        _assert_disabled_and_harmless(cache)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not list(tmp_path.glob("*.corrupt-*"))
    assert ResponseCache.open("acct", folder=tmp_path).problem is None


def test_a_full_disk_evicts_to_make_room_and_otherwise_gives_up_quietly(tmp_path: Path) -> None:
    # 80 pages of 4 KiB: the "disk" fills long before the 64 MiB bound would evict anything.
    cache = ResponseCache.open("acct", folder=tmp_path, max_pages=80)
    for i in range(60):
        cache.put(f"GET /spaces/s{i}", bytes([i]) * 20_000)
        assert cache.get(f"GET /spaces/s{i}") is not None, f"put {i} was dropped"
    assert cache.problem is None
    assert 0 < cache.info().entries < 60  # the oldest were evicted to make room
    assert cache.get("GET /spaces/s0") is None
    cache.put("GET /huge", b"h" * 400_000)  # larger than the whole "disk": cannot fit even when empty
    assert cache.get("GET /huge") is None
    assert cache.problem is not None and "full" in cache.problem
    assert cache.enabled
    cache.put("GET /small", b"s")
    assert cache.get("GET /small") is not None
