"""The HTTP response cache: the bodies of GET responses, one SQLite file per account, bounded in size.

Keys are ``GET <path>`` or ``GET <path>?<query>`` (``folio.api.caching.cache_key`` builds them). The cache is
best-effort: no method raises; when the file cannot be used the cache runs disabled (every read a miss, every
write a no-op) and :attr:`ResponseCache.problem` says why. Each write is one transaction, so a crash (``kill -9``,
power loss) leaves the file as it was before or after that write.

Size: the bodies together stay under ``max_bytes``, least recently used first out; a body larger than
``entry_cap`` is not stored. A running total kept by triggers makes the check O(1) per write.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from folio.cache._db import Opened, Store, is_damaged, is_full, open_database, reason, safe_name
from folio.cache._schema import (
    RESPONSES_DELETE_PATH,
    RESPONSES_DELETE_RANGE,
    RESPONSES_SCHEMA,
    RESPONSES_UPSERT,
    RESPONSES_VERSION,
)
from folio.cache.records import CachedResponse, CacheInfo
from folio.config.paths import paths

__all__ = ["KEY_PREFIX", "CacheInfo", "CachedResponse", "ResponseCache"]

KEY_PREFIX = "GET "
TOUCH_AFTER = 5.0
"""A hit refreshes its last-used time only when that is older than this (seconds): LRU without a write per read."""


def _after(prefix: str) -> str:
    """The smallest string greater than every string starting with ``prefix`` (its last character is ASCII)."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)


class ResponseCache(Store):
    """The response cache of one account. Safe to share between threads (one lock around the connection)."""

    def __init__(
        self,
        path: Path,
        opened: Opened,
        *,
        max_bytes: int = 64 * 2**20,
        entry_cap: int = 4 * 2**20,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._path = path
        self._conn = opened.conn
        self._journal_mode = opened.journal_mode
        self._problem = opened.problem
        self.max_bytes = max_bytes
        self.entry_cap = entry_cap
        self._clock = clock
        self._lock = threading.RLock()

    @classmethod
    def open(
        cls,
        account: str,
        *,
        folder: Path | None = None,
        max_bytes: int = 64 * 2**20,
        entry_cap: int = 4 * 2**20,
        wal: bool | None = None,
        max_pages: int | None = None,
        busy_timeout: float = 5.0,
        clock: Callable[[], float] = time.time,
    ) -> ResponseCache:
        """Open (or make) ``responses-<account>.sqlite3`` in ``folder`` (default: the platform's cache folder).

        Never raises. ``wal=False`` refuses WAL as a network filesystem would (``None``: WAL unless
        ``$FOLIO_CACHE_NO_WAL`` is set); ``max_pages`` caps the file (a full disk, for tests); ``clock`` is for tests.
        """
        path = (folder if folder is not None else paths().cache_dir) / f"responses-{safe_name(account)}.sqlite3"
        opened = open_database(
            path,
            what="The response cache",
            wal=wal,
            max_pages=max_pages,
            busy_timeout=busy_timeout,
            schema=RESPONSES_SCHEMA,
            version=RESPONSES_VERSION,
            reset_on_mismatch=True,
        )
        return cls(path, opened, max_bytes=max_bytes, entry_cap=entry_cap, clock=clock)

    def get(self, key: str) -> CachedResponse | None:
        """The stored body for ``key``, or ``None``; a hit counts as a use (for eviction)."""
        with self._lock:
            conn = self._conn
            if conn is None:
                return None
            try:
                row = conn.execute("SELECT body, stored_at, used_at FROM responses WHERE key = ?", (key,)).fetchone()
            except sqlite3.Error as error:
                self._failed(error)
                return None
            if row is None:
                return None
            now = self._clock()
            if now - float(row[2]) > TOUCH_AFTER:
                # Best-effort: a busy file must not turn a hit into a miss.
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("UPDATE responses SET used_at = ? WHERE key = ?", (now, key))
            return CachedResponse(bytes(row[0]), float(row[1]))

    def put(self, key: str, body: bytes) -> None:
        """Store ``body`` for ``key`` (replacing it), making room by evicting the least recently used entries.

        A body over ``entry_cap`` (or ``max_bytes``) is not stored, and the older one for that key is dropped,
        since it is no longer the current answer. A full disk evicts the oldest half and tries once more.
        """
        with self._lock:
            if self._conn is None:
                return
            if len(body) > min(self.entry_cap, self.max_bytes):
                try:
                    self._conn.execute("DELETE FROM responses WHERE key = ?", (key,))
                except sqlite3.Error as error:
                    self._failed(error)
                return
            try:
                self._write(key, body)
            except sqlite3.Error as error:
                if not is_full(error):
                    self._failed(error)
                    return
                try:
                    self._evict_oldest_half()
                    self._write(key, body)
                except sqlite3.Error as again:
                    self._failed(again)

    def invalidate(self, path: str) -> int:
        """Forget what a successful write to ``path`` changed; returns how many entries went.

        That is: every entry for ``path`` or below it (any query), and the entries of each ancestor exactly (any
        query) down to two segments (``/spaces/s1``), but no sibling. Only ranges of keys are compared, never
        ``LIKE`` patterns, so ``_`` and ``%`` in paths are plain characters.
        """
        path = path.split("?", 1)[0].split("#", 1)[0].rstrip("/")
        if not path:
            return 0
        if not path.startswith("/"):
            path = "/" + path
        ancestors: list[str] = []
        parent = path.rsplit("/", 1)[0]
        while parent.count("/") >= 2:
            ancestors.append(parent)
            parent = parent.rsplit("/", 1)[0]
        with self._lock:
            conn = self._conn
            if conn is None:
                return 0
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    below = f"{KEY_PREFIX}{path}/"
                    deleted = conn.execute(RESPONSES_DELETE_RANGE, (below, _after(below))).rowcount
                    for each in (path, *ancestors):
                        with_query = f"{KEY_PREFIX}{each}?"
                        deleted += conn.execute(
                            RESPONSES_DELETE_PATH, (f"{KEY_PREFIX}{each}", with_query, _after(with_query))
                        ).rowcount
                    conn.execute("COMMIT")
                except BaseException:
                    _rollback(conn)
                    raise
            except sqlite3.Error as error:
                self._failed(error)
                return 0
            return int(deleted)

    def info(self) -> CacheInfo:
        """Counts and sizes, for ``folio cache info``."""
        entries = size = 0
        oldest = newest = None
        with self._lock:
            conn = self._conn
            if conn is not None:
                try:
                    entries, size = conn.execute("SELECT entries, bytes FROM totals WHERE id = 1").fetchone()
                    oldest, newest = conn.execute("SELECT MIN(stored_at), MAX(stored_at) FROM responses").fetchone()
                except sqlite3.Error as error:
                    self._failed(error)
            file_bytes = 0
            for part in (self._path, self._path.with_name(self._path.name + "-wal")):
                with contextlib.suppress(OSError):
                    file_bytes += part.stat().st_size
            return CacheInfo(
                path=self._path,
                entries=int(entries),
                bytes=int(size),
                file_bytes=file_bytes,
                max_bytes=self.max_bytes,
                journal_mode=self._journal_mode,
                oldest=oldest,
                newest=newest,
                problem=self._problem,
            )

    def clear(self) -> None:
        """Forget every entry and give the space back to the filesystem."""
        with self._lock:
            conn = self._conn
            if conn is None:
                return
            try:
                conn.execute("DELETE FROM responses")
                conn.execute("VACUUM")
            except sqlite3.Error as error:
                self._failed(error)

    def __repr__(self) -> str:
        return f"ResponseCache({str(self._path)!r}, enabled={self.enabled})"

    # Inside the lock, with a connection.

    def _write(self, key: str, body: bytes) -> None:
        assert self._conn is not None
        conn = self._conn
        now = self._clock()
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Make room first: evicting before inserting keeps the file from growing past the bound on the way.
            row = conn.execute("SELECT size FROM responses WHERE key = ?", (key,)).fetchone()
            self._evict_to(self.max_bytes - len(body) + (int(row[0]) if row else 0), keep=key)
            conn.execute(RESPONSES_UPSERT, (key, body, len(body), now, now))
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise

    def _evict_to(self, limit: int, *, keep: str) -> None:
        assert self._conn is not None
        conn = self._conn
        total = int(conn.execute("SELECT bytes FROM totals WHERE id = 1").fetchone()[0])
        while total > limit:
            rows = conn.execute(
                "SELECT rowid, size FROM responses WHERE key != ? ORDER BY used_at, rowid LIMIT 256", (keep,)
            ).fetchall()
            if not rows:
                return
            doomed: list[tuple[int]] = []
            for rowid, size in rows:
                if total <= limit:
                    break
                doomed.append((rowid,))
                total -= int(size)
            conn.executemany("DELETE FROM responses WHERE rowid = ?", doomed)

    def _evict_oldest_half(self) -> None:
        assert self._conn is not None
        self._conn.execute(
            "DELETE FROM responses WHERE rowid IN (SELECT rowid FROM responses ORDER BY used_at, rowid"
            " LIMIT (SELECT (entries + 1) / 2 FROM totals WHERE id = 1))"
        )

    def _failed(self, error: sqlite3.Error) -> None:
        if is_full(error):
            self._problem = f"The disk is full: the response cache stopped storing some responses ({reason(error)})."
            return
        self._problem = f"The response cache failed ({reason(error)})."
        if is_damaged(error):
            # Going on would fail the same way; the next start moves the file aside and makes a new one.
            self._problem += " It is off until Folio restarts."
            with contextlib.suppress(sqlite3.Error):
                assert self._conn is not None
                self._conn.close()
            self._conn = None


def _rollback(conn: sqlite3.Connection) -> None:
    with contextlib.suppress(sqlite3.Error):
        if conn.in_transaction:
            conn.execute("ROLLBACK")
