"""What the user made and must not lose: drafts, the offline outbox, and the session to restore; and what the
inbox watch already announced (:meth:`LocalState.announced`), so a restart does not say it again.

One SQLite file per account in the platform's state folder (``folio cache clear`` never touches it), written with
``synchronous=FULL``: losing typed text is worse than a slow write. Every write is committed before the method
returns, so there is nothing to flush when the terminal goes away (SIGHUP, SIGTERM).

No method raises for a storage problem. When the database cannot be used, drafts go to ``drafts-<account>.json``
in the same folder (written atomically, 0600) and come back into the database the next time it opens; the outbox
and the session then live in memory until Folio quits, and :attr:`LocalState.problem` says so.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, cast, get_args

from folio.cache._db import Opened, Store, open_database, reason, safe_name
from folio.cache._fallback import DraftsFile
from folio.cache._recover import open_damaged, readable_rows
from folio.cache._schema import STATE_SCHEMA, STATE_VERSION, UPSERT_DRAFT
from folio.cache.records import Draft, OutboxItem, OutboxState, StateInfo
from folio.config.paths import paths

_KEYS_PER_QUERY = 500
"""Keys looked up per query (SQLite's limit of parameters is 999 on older builds)."""

__all__ = ["Draft", "LocalState", "OutboxItem", "OutboxState", "StateInfo", "recover_state", "recovery_words"]


class LocalState(Store):
    """Drafts, outbox and session of one account. Safe to share between threads."""

    def __init__(self, path: Path, opened: Opened, *, clock: Callable[[], float] = time.time) -> None:
        self._path = path
        self._conn = opened.conn
        self._journal_mode = opened.journal_mode
        self._problem = opened.problem
        self._clock = clock
        self._lock = threading.RLock()
        name = path.name.replace("state-", "drafts-", 1).removesuffix(".sqlite3") + ".json"
        self._file = DraftsFile(path.with_name(name))  # drafts (and drops) the database would not take
        self._memory_outbox: list[OutboxItem] | None = None  # set once the outbox had to leave the database
        self._memory_ids = 0  # items kept in memory get ids -1, -2, ...: never one the database handed out
        self._memory_session: tuple[dict[str, Any] | None] | None = None
        self._memory_announced: set[str] = set()  # what could not be written: remembered until Folio quits

    @classmethod
    def open(
        cls,
        account: str,
        *,
        folder: Path | None = None,
        wal: bool | None = None,
        busy_timeout: float = 5.0,
        clock: Callable[[], float] = time.time,
    ) -> LocalState:
        """Open (or make) ``state-<account>.sqlite3`` in ``folder`` (default: the platform's state folder).
        Never raises. Drafts left in the JSON fallback file by an earlier run move back into the database."""
        path = (folder if folder is not None else paths().state_dir) / f"state-{safe_name(account)}.sqlite3"
        opened = open_database(
            path,
            what="The local drafts and outbox",
            wal=wal,
            full_sync=True,
            busy_timeout=busy_timeout,
            schema=STATE_SCHEMA,
            version=STATE_VERSION,
            recover=lambda damaged, conn: recover_state(damaged, conn, now=clock()),
        )
        state = cls(path, opened, clock=clock)
        state._adopt_drafts_file()
        return state

    # Drafts

    def save_draft(self, key: str, text: str, *, where: str = "") -> None:
        """Keep ``text`` as the draft for ``key`` (an empty text removes it); committed before this returns."""
        if not text:
            self.drop_draft(key)
            return
        draft = Draft(key, text, where, self._clock())
        with self._lock:
            was_dropped = self._file.dropped.pop(key, None) is not None
            if self._conn is not None:
                try:
                    self._conn.execute(UPSERT_DRAFT, (key, text, where, draft.saved_at))
                except sqlite3.Error as error:
                    self._problem = f"A draft could not be saved in {self._path.name} ({reason(error)})."
                else:
                    if self._file.drafts.pop(key, None) is not None or was_dropped:
                        self._save_drafts_file()
                    return
            self._file.drafts[key] = draft
            self._save_drafts_file()

    def draft(self, key: str) -> Draft | None:
        with self._lock:
            found = self._db_drafts("WHERE key = ?", (key,))
            return self._file.merge(found).get(key)

    def drafts(self) -> list[Draft]:
        """Every draft, newest first."""
        with self._lock:
            merged = self._file.merge(self._db_drafts("", ()))
        return sorted(merged.values(), key=lambda d: (d.saved_at, d.key), reverse=True)

    def drop_draft(self, key: str) -> None:
        """Forget the draft for ``key`` (its text was sent). When the database refuses, the drop is written to the
        JSON file and applied when the database opens again, so a sent draft does not come back."""
        with self._lock:
            changed = self._file.drafts.pop(key, None) is not None
            if self._conn is not None:
                try:
                    self._conn.execute("DELETE FROM drafts WHERE key = ?", (key,))
                except sqlite3.Error as error:
                    self._problem = f"A sent draft could not be removed from {self._path.name} ({reason(error)})."
                    self._file.dropped[key] = self._clock()
                    changed = True
            if changed:
                self._save_drafts_file()

    # Outbox

    def enqueue(self, kind: str, target: str, payload: dict[str, Any], *, where: str = "") -> int:
        """Queue a write to send later; returns its id. ``payload`` must be JSON-serializable (else TypeError)."""
        data = json.dumps(payload, ensure_ascii=False)
        now = self._clock()
        with self._lock:
            if self._conn is not None and self._memory_outbox is None:
                try:
                    cursor = self._conn.execute(
                        "INSERT INTO outbox (kind, target, payload, place, created_at, state, note)"
                        " VALUES (?, ?, ?, ?, ?, 'queued', '')",
                        (kind, target, data, where, now),
                    )
                    return int(cursor.lastrowid or 0)
                except sqlite3.Error as error:
                    self._problem = f"The outbox could not be saved ({reason(error)}); it is kept until Folio quits."
            # Once in memory, the rest of this run's items follow, so the order stays the order they were made.
            memory = self._memory_outbox if self._memory_outbox is not None else []
            self._memory_outbox = memory
            self._memory_ids -= 1
            item = OutboxItem(self._memory_ids, kind, target, json.loads(data), where, now, "queued")
            memory.append(item)
            return item.id

    def outbox(self) -> list[OutboxItem]:
        """Every item, in the order they were queued."""
        with self._lock:
            items: list[OutboxItem] = []
            if self._conn is not None:
                try:
                    rows = self._conn.execute(
                        "SELECT id, kind, target, payload, place, created_at, state, note FROM outbox ORDER BY id"
                    ).fetchall()
                except sqlite3.Error as error:
                    self._problem = f"The outbox could not be read ({reason(error)})."
                    rows = []
                for id_, kind, target, payload, place, created_at, state, note in rows:
                    items.append(OutboxItem(id_, kind, target, _dict(payload), place, created_at, _state(state), note))
            return items + list(self._memory_outbox or [])

    def mark(self, id: int, state: OutboxState, note: str = "") -> None:
        """Record that item ``id`` was sent, or is stuck (``note`` says why), or is queued again."""
        if state not in get_args(OutboxState):
            raise ValueError(f"unknown outbox state {state!r}")
        with self._lock:
            if id < 0:
                self._memory_outbox = [
                    item._replace(state=state, note=note) if item.id == id else item
                    for item in self._memory_outbox or []
                ]
            elif self._conn is not None:
                try:
                    self._conn.execute("UPDATE outbox SET state = ?, note = ? WHERE id = ?", (state, note, id))
                except sqlite3.Error as error:
                    self._problem = f"The outbox could not be updated ({reason(error)})."

    def remove(self, id: int) -> None:
        with self._lock:
            if id < 0:
                self._memory_outbox = [item for item in self._memory_outbox or [] if item.id != id]
            elif self._conn is not None:
                try:
                    self._conn.execute("DELETE FROM outbox WHERE id = ?", (id,))
                except sqlite3.Error as error:
                    self._problem = f"The outbox could not be updated ({reason(error)})."

    # Session

    def save_session(self, data: dict[str, Any]) -> None:
        """Keep the screen stack, filters and cursor (``data``, JSON-serializable) to restore on the next start."""
        text = json.dumps(data, ensure_ascii=False)
        with self._lock:
            if self._conn is not None:
                try:
                    self._conn.execute("INSERT OR REPLACE INTO session (id, data) VALUES (1, ?)", (text,))
                except sqlite3.Error as error:
                    self._problem = f"The session could not be saved ({reason(error)})."
                else:
                    self._memory_session = None
                    return
            self._memory_session = (json.loads(text),)

    def session(self) -> dict[str, Any] | None:
        with self._lock:
            if self._memory_session is not None:
                return self._memory_session[0]
            if self._conn is None:
                return None
            try:
                row = self._conn.execute("SELECT data FROM session WHERE id = 1").fetchone()
            except sqlite3.Error:
                return None
            return _dict(row[0]) if row else None

    def clear_session(self) -> None:
        with self._lock:
            self._memory_session = None
            if self._conn is not None:
                try:
                    self._conn.execute("DELETE FROM session")
                except sqlite3.Error:
                    self._memory_session = (None,)

    # What the inbox watch announced

    def announced(self, keys: Iterable[str]) -> set[str]:
        """The keys among ``keys`` recorded by :meth:`mark_announced` (in this run or an earlier one)."""
        wanted = list(dict.fromkeys(keys))
        with self._lock:
            found = {key for key in wanted if key in self._memory_announced}
            if self._conn is None:
                return found
            for start in range(0, len(wanted), _KEYS_PER_QUERY):
                chunk = wanted[start : start + _KEYS_PER_QUERY]
                marks = ",".join("?" * len(chunk))
                try:
                    rows = self._conn.execute(f"SELECT key FROM announced WHERE key IN ({marks})", chunk).fetchall()
                except sqlite3.Error as error:
                    self._problem = f"What the inbox watch announced could not be read ({reason(error)})."
                    return found
                found.update(row[0] for row in rows)
            return found

    def mark_announced(self, keys: Iterable[str]) -> set[str]:
        """Record ``keys`` as announced (committed before this returns; kept in memory when the database refuses);
        the keys that were not recorded before: what this caller may announce (another process that recorded a
        key first announces it)."""
        wanted = [key for key in dict.fromkeys(keys) if key not in self._memory_announced]
        if not wanted:
            return set()
        now = self._clock()
        with self._lock:
            if self._conn is not None:
                try:
                    self._conn.execute("BEGIN IMMEDIATE")  # (one commit for a first look's hundreds of keys)
                    try:
                        new = {
                            key
                            for key in wanted
                            if self._conn.execute(
                                "INSERT OR IGNORE INTO announced (key, at) VALUES (?, ?)", (key, now)
                            ).rowcount
                        }
                        self._conn.execute("COMMIT")
                    except BaseException:
                        with contextlib.suppress(sqlite3.Error):
                            self._conn.execute("ROLLBACK")
                        raise
                except sqlite3.Error as error:
                    self._problem = f"What the inbox watch announced could not be kept ({reason(error)})."
                else:
                    return new
            new = set(wanted) - self.announced(wanted)
            self._memory_announced.update(new)
            return new

    # The rest

    def info(self) -> StateInfo:
        items = self.outbox()
        drafts = self.drafts()
        with self._lock:
            return StateInfo(
                path=self._path,
                drafts=len(drafts),
                outbox=len(items),
                queued=sum(1 for i in items if i.state == "queued"),
                stuck=sum(1 for i in items if i.state == "stuck"),
                session=self.session() is not None,
                journal_mode=self._journal_mode,
                fallback=self._file.path if self._file.drafts else None,
                problem=self._problem,
            )

    def __repr__(self) -> str:
        return f"LocalState({str(self._path)!r}, enabled={self.enabled})"

    # Inside the lock.

    def _db_drafts(self, where: str, args: tuple[str, ...]) -> list[Draft]:
        if self._conn is None:
            return []
        try:
            rows = self._conn.execute(f"SELECT key, text, place, saved_at FROM drafts {where}", args).fetchall()
        except sqlite3.Error as error:
            self._problem = f"The drafts could not be read ({reason(error)})."
            return []
        return [Draft(*row) for row in rows]

    def _save_drafts_file(self) -> None:
        trouble = self._file.save()
        if trouble:
            self._problem = f"Drafts could not be written anywhere ({trouble}); they last until Folio quits."

    def _adopt_drafts_file(self) -> None:
        self._file.load()
        if self._conn is None:
            self._problem = (
                f"{self._problem or 'The local database cannot be used.'} Drafts are kept in {self._file.path}; "
                "the outbox and the session last only until Folio quits."
            )
            return
        if not self._file:
            return
        try:
            self._file.move_into(self._conn)
        except sqlite3.Error as error:
            self._problem = f"Drafts in {self._file.path.name} could not move into the database ({reason(error)})."
            return
        self._save_drafts_file()


def _dict(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _state(value: str) -> OutboxState:
    return cast(OutboxState, value) if value in get_args(OutboxState) else "stuck"


# A damaged file set aside: what can still be read of it goes into the new one.

_DRAFT_COLUMNS = ("key", "text", "place", "saved_at")
_OUTBOX_COLUMNS = ("id", "kind", "target", "payload", "place", "created_at", "state", "note")


def recover_state(damaged: Path, conn: sqlite3.Connection, *, now: float) -> str:
    """Copy every draft, outbox item and the session that can still be read from the damaged file ``damaged``
    into the new database ``conn`` (table by table, row by row: see :mod:`folio.cache._recover`), note it in the
    ``recovered`` table for ``folio cache info``, and say what was recovered and where the rest is. Raises
    ``sqlite3.Error`` when the new database will not take them (nothing is then written)."""
    source = open_damaged(damaged)
    try:
        drafts = readable_rows(source, "drafts", _DRAFT_COLUMNS)
        outbox = readable_rows(source, "outbox", _OUTBOX_COLUMNS)
        session = readable_rows(source, "session", ("id", "data"))
    finally:
        source.close()
    kept_drafts = [row for row in drafts.rows if _is_draft(row)]
    kept_outbox = [row for row in outbox.rows if _is_outbox_item(row)]
    kept_session = [row for row in session.rows if row[0] == 1 and isinstance(row[1], str)]
    complete = (
        drafts.complete
        and outbox.complete
        and len(kept_drafts) == len(drafts.rows)
        and len(kept_outbox) == len(outbox.rows)
    )
    conn.execute("BEGIN IMMEDIATE")
    try:
        for row in kept_drafts:
            conn.execute(UPSERT_DRAFT + " WHERE excluded.saved_at >= drafts.saved_at", row)
        for row in kept_outbox:
            conn.execute(
                "INSERT OR IGNORE INTO outbox (id, kind, target, payload, place, created_at, state, note)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
        for row in kept_session:
            conn.execute("INSERT OR IGNORE INTO session (id, data) VALUES (?, ?)", row)
        conn.execute(
            "INSERT INTO recovered (at, damaged, drafts, outbox, complete) VALUES (?, ?, ?, ?, ?)",
            (now, str(damaged), len(kept_drafts), len(kept_outbox), int(complete)),
        )
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    return recovery_words(len(kept_drafts), len(kept_outbox), str(damaged), complete=complete)


def recovery_words(drafts: int, outbox: int, damaged: str, *, complete: bool) -> str:
    """The words of a recovery: "Recovered 2 drafts and 1 outbox item from a damaged state file; the damaged file
    is at <path>."."""
    words = (
        f"Recovered {_plural(drafts, 'draft')} and {_plural(outbox, 'outbox item')} from a damaged state file; "
        f"the damaged file is at {damaged}"
    )
    return words + ("." if complete else "; parts of it could not be read and remain only there.")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _is_draft(row: tuple[Any, ...]) -> bool:
    key, text, place, saved_at = row
    return bool(key) and isinstance(key, str) and isinstance(text, str) and isinstance(place, str) and _number(saved_at)


def _is_outbox_item(row: tuple[Any, ...]) -> bool:
    id_, kind, target, payload, place, created_at, state, note = row
    texts = (kind, target, payload, place, state, note)
    return isinstance(id_, int) and id_ > 0 and all(isinstance(t, str) for t in texts) and _number(created_at)


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
