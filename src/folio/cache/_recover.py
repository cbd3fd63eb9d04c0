"""Reading what can still be read from a damaged SQLite file, row by row.

SQLite stops a whole query at the first damaged page (``database disk image is malformed``), and
``Connection.iterdump`` stops with it: one bad page would cost every row after it. :func:`readable_rows` reads a
table in rowid order and, when the read fails, looks for the next rowid it can reach (a seek by rowid descends
the table's tree afresh, so it passes over a damaged leaf), and goes on from there; a row that cannot be decoded
is skipped alone. It reads only: the file is opened read-only (``immutable`` when it has no ``-wal`` beside it, so
SQLite makes no companion file either) and is left as it was found.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

__all__ = ["Rows", "open_damaged", "readable_rows"]

_LOWEST, _HIGHEST = -(2**63), 2**63 - 1
_MOST_FAILURES = 1_000
"""Failed reads after which a table is given up (a file damaged all through, read with a seek per page)."""


class Rows(NamedTuple):  # (defined before the first frame: see folio.cache.records)
    """What could be read of a table, and whether some of it could not."""

    rows: list[tuple[Any, ...]]
    complete: bool


def open_damaged(path: Path) -> sqlite3.Connection:
    """A read-only connection to the damaged file ``path``; raises ``sqlite3.Error``. Text that is not UTF-8 is
    read with replacement characters instead of failing the row."""
    wal = path.with_name(path.name + "-wal")
    mode = "mode=ro" if wal.exists() else "immutable=1"  # the WAL's rows are needed; without one, touch nothing
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True, check_same_thread=False)
    conn.text_factory = lambda data: data.decode("utf-8", "replace")
    return conn


def readable_rows(conn: sqlite3.Connection, table: str, columns: Sequence[str]) -> Rows:
    """Every row of ``table`` (its ``columns``, in rowid order) that can be read; never raises for the file."""
    select = f"SELECT rowid, {', '.join(columns)} FROM {table}"
    rows: list[tuple[Any, ...]] = []
    after: int | None = None  # the last rowid read or passed over (None: none yet)
    complete = True
    for _ in range(_MOST_FAILURES):
        began = after
        try:
            if after is None:
                cursor = conn.execute(select + " ORDER BY rowid")
            else:
                cursor = conn.execute(select + " WHERE rowid > ? ORDER BY rowid", (after,))
            for row in cursor:
                if after is not None and row[0] <= after:  # a tree out of order: do not go round in circles
                    raise sqlite3.DatabaseError("rowids out of order")
                rows.append(tuple(row[1:]))
                after = row[0]
            return Rows(rows, complete)
        except sqlite3.DatabaseError:
            complete = False
        # SQLite reads a row's values as it steps to it, and Python steps to the next row before it hands out the
        # one it holds: a failure at a row loses the row before it too. Read that one alone, then go on.
        try:
            if after is None:
                row = conn.execute(select + " ORDER BY rowid LIMIT 1").fetchone()
            else:
                row = conn.execute(select + " WHERE rowid > ? ORDER BY rowid LIMIT 1", (after,)).fetchone()
        except sqlite3.DatabaseError:
            row = None
        if row is not None and (after is None or row[0] > after):
            rows.append(tuple(row[1:]))
            after = row[0]
            continue
        if after == _HIGHEST:
            break
        first = _LOWEST if after is None else after + 1
        found = _next_readable(conn, table, first)
        if found is None:
            break
        if found == first and after == began:
            after = found  # the read failed at this very row, which a seek reaches: pass over it alone
        elif found > _LOWEST:
            after = found - 1  # the next read starts at the first row past the damage
        else:
            after = None
    return Rows(rows, complete)


def _seek(conn: sqlite3.Connection, table: str, start: int) -> int | None:
    """The first rowid at or after ``start`` (None: there is none); raises when the way there is damaged."""
    row = conn.execute(f"SELECT rowid FROM {table} WHERE rowid >= ? ORDER BY rowid LIMIT 1", (start,)).fetchone()
    return None if row is None else int(row[0])


def _next_readable(conn: sqlite3.Connection, table: str, start: int) -> int | None:
    """The first rowid at or after ``start`` that a seek reaches without an error: steps that double until one
    works, then halving back to the first place that does, so the rows just after a damaged page are kept."""
    failed, step, at = start - 1, 1, start
    while True:
        try:
            _seek(conn, table, at)
            break
        except sqlite3.DatabaseError:
            failed = at
            if at >= _HIGHEST:
                return None
            at = min(_HIGHEST, start + step)
            step *= 2
    while at - failed > 1:
        middle = failed + (at - failed) // 2
        try:
            _seek(conn, table, middle)
        except sqlite3.DatabaseError:
            failed = middle
        else:
            at = middle
    try:
        return _seek(conn, table, at)
    except sqlite3.DatabaseError:
        return None
