"""Where drafts go when the state database will not take them: a JSON file next to it.

It holds the drafts the database refused and the drops it refused (key -> when), so neither typed text nor the
removal of text already sent is lost; :meth:`DraftsFile.move_into` hands both to the database once it works.
Written atomically with mode 0600, and deleted when empty.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from folio.cache._db import read_json, reason, write_json_atomic
from folio.cache._schema import UPSERT_DRAFT
from folio.cache.records import Draft

__all__ = ["DraftsFile"]


class DraftsFile:
    """The drafts (and drops) kept outside the database, mirrored in ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.drafts: dict[str, Draft] = {}
        self.dropped: dict[str, float] = {}

    def __bool__(self) -> bool:
        return bool(self.drafts or self.dropped)

    def load(self) -> None:
        """Read what an earlier run left (a missing or unreadable file is empty)."""
        data = read_json(self.path)
        data = data if isinstance(data, dict) else {}
        for entry in data.get("drafts") or []:
            with contextlib.suppress(KeyError, TypeError, ValueError):
                draft = Draft(str(entry["key"]), str(entry["text"]), str(entry["where"]), float(entry["saved_at"]))
                self.drafts[draft.key] = draft
        dropped = data.get("dropped")
        for key, when in dropped.items() if isinstance(dropped, dict) else ():
            with contextlib.suppress(TypeError, ValueError):
                self.dropped[str(key)] = float(when)

    def save(self) -> str | None:
        """Write the file (or delete it when empty); returns why it could not be, else ``None``."""
        try:
            if self:
                drafts = [
                    {"key": d.key, "text": d.text, "where": d.where, "saved_at": d.saved_at}
                    for d in self.drafts.values()
                ]
                write_json_atomic(self.path, {"version": 1, "drafts": drafts, "dropped": self.dropped})
            else:
                self.path.unlink(missing_ok=True)
        except OSError as error:
            return reason(error)
        return None

    def visible(self, draft: Draft) -> bool:
        """False for a database draft that was dropped after it was saved."""
        return draft.saved_at > self.dropped.get(draft.key, float("-inf"))

    def merge(self, found: list[Draft]) -> dict[str, Draft]:
        """The database's drafts with these on top, the newer of two for a key winning."""
        merged = {d.key: d for d in found if self.visible(d)}
        for key, draft in self.drafts.items():
            if key not in merged or draft.saved_at >= merged[key].saved_at:
                merged[key] = draft
        return merged

    def move_into(self, conn: sqlite3.Connection) -> None:
        """Apply the drops and the drafts to the database in one transaction (a newer draft there wins), then
        forget them here. Raises ``sqlite3.Error``, leaving both sides as they were."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            for key, when in self.dropped.items():
                conn.execute("DELETE FROM drafts WHERE key = ? AND saved_at <= ?", (key, when))
            for draft in self.drafts.values():
                conn.execute(
                    UPSERT_DRAFT + " WHERE excluded.saved_at >= drafts.saved_at",
                    (draft.key, draft.text, draft.where, draft.saved_at),
                )
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise
        self.drafts.clear()
        self.dropped.clear()
