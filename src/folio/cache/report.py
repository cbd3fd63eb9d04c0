"""``folio cache info`` and ``folio cache clear``: what is stored, and forgetting the response caches.

The report only reads each file and never repairs or moves anything; clearing deletes the response caches
and the account index, never the state folder (drafts, outbox, session are the user's work).
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path

from folio.cache._db import read_json, reason
from folio.cache.accounts import INDEX_NAME, labels
from folio.cache.state import recovery_words

__all__ = ["clear_all", "describe"]


def describe(folder_cache: Path, folder_state: Path, *, now: float | None = None) -> str:
    """Plain text: each account's response cache (entries, size, ages, journal mode) and state file (drafts,
    outbox), or "No cache yet" when there is nothing."""
    now = time.time() if now is None else now
    names = labels(folder_cache)
    caches = sorted(folder_cache.glob("responses-*.sqlite3")) if folder_cache.is_dir() else []
    states = sorted(folder_state.glob("state-*.sqlite3")) if folder_state.is_dir() else []
    loose = sorted(folder_state.glob("drafts-*.json")) if folder_state.is_dir() else []
    damaged = _damaged_files(folder_cache)
    if not (caches or states or loose):
        return f"No cache yet ({folder_cache})."
    lines = [f"Response cache ({folder_cache}):"]
    lines += [f"  {_who(p, 'responses-', names)}: {_cache_line(p, now)}" for p in caches] or ["  none"]
    if damaged:
        lines.append(f"  {len(damaged)} damaged file(s) moved aside earlier: {', '.join(p.name for p in damaged)}")
    lines.append(f"Drafts, outbox and session ({folder_state}; `folio cache clear` keeps them):")
    lines += [f"  {_who(p, 'state-', names)}: {_state_line(p)}" for p in states]
    lines += [f"  {_who(p, 'drafts-', names)}: {_loose_line(p)}" for p in loose]
    if not (states or loose):
        lines.append("  none")
    set_aside = _damaged_files(folder_state)
    if set_aside:
        listed = ", ".join(p.name for p in set_aside)
        lines.append(f"  {len(set_aside)} damaged file(s) set aside (Folio only reads them): {listed}")
    return "\n".join(lines)


def clear_all(folder_cache: Path) -> int:
    """Delete every response cache file (with its WAL and any damaged copies) and the account index in
    ``folder_cache``; returns how many files went. The state folder is never touched."""
    if not folder_cache.is_dir():
        return 0
    doomed = [*folder_cache.glob("responses-*"), folder_cache / INDEX_NAME, *folder_cache.glob(".accounts-*.tmp")]
    removed = 0
    for path in doomed:
        with contextlib.suppress(OSError):
            if path.is_file():
                path.unlink()
                removed += 1
    return removed


def _who(path: Path, prefix: str, names: dict[str, str]) -> str:
    account = path.name.removeprefix(prefix).split(".", 1)[0]
    return f"{names[account]} ({account})" if account in names else account


def _existing(path: Path) -> sqlite3.Connection:
    # Not ``mode=ro``: a read-only connection cannot remove the -wal and -shm files it makes; this one only reads,
    # and on close SQLite tidies them up as it does for the app.
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True)


def _cache_line(path: Path, now: float) -> str:
    try:
        conn = _existing(path)
        try:
            entries, size = conn.execute("SELECT entries, bytes FROM totals WHERE id = 1").fetchone()
            oldest, newest = conn.execute("SELECT MIN(stored_at), MAX(stored_at) FROM responses").fetchone()
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        finally:
            conn.close()
    except (sqlite3.Error, TypeError) as error:
        return f"unreadable ({reason(error)}); Folio will move it aside and start a new one"
    file_size = sum(p.stat().st_size for p in (path, path.with_name(path.name + "-wal")) if p.exists())
    text = f"{entries} entries, {_size(size)} (file {_size(file_size)}), journal {mode}"
    if oldest is not None:
        text += f", stored {_age(now - oldest)} to {_age(now - newest)}"
    return text


def _state_line(path: Path) -> str:
    try:
        conn = _existing(path)
        try:
            drafts = conn.execute("SELECT COUNT(*) FROM drafts").fetchone()[0]
            counts = dict(conn.execute("SELECT state, COUNT(*) FROM outbox GROUP BY state").fetchall())
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
            recovered = _recovered(conn)
        finally:
            conn.close()
    except sqlite3.Error as error:
        return (
            f"unreadable ({reason(error)}); Folio will set it aside and recover what it can read of it the next "
            "time it opens this account"
        )
    outbox = ", ".join(f"{n} {state}" for state, n in sorted(counts.items())) or "empty"
    line = f"{_plural(drafts, 'draft')}, outbox {outbox}, journal {mode}"
    return line + (f"\n    {recovered}" if recovered else "")


def _recovered(conn: sqlite3.Connection) -> str | None:
    """What the last recovery from a damaged file brought back, in words (None: there was none)."""
    try:
        row = conn.execute(
            "SELECT drafts, outbox, damaged, complete, at FROM recovered ORDER BY id DESC LIMIT 1"
        ).fetchone()
    except sqlite3.OperationalError:  # a file from before recoveries were noted (no such table)
        return None
    if row is None:
        return None
    drafts, outbox, damaged, complete, at = row
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(at))
    return f"{recovery_words(drafts, outbox, damaged, complete=bool(complete)).rstrip('.')} (on {when})."


def _damaged_files(folder: Path) -> list[Path]:
    """The damaged files set aside in ``folder`` (not their ``-wal``/``-shm`` companions)."""
    if not folder.is_dir():
        return []
    found = [p for p in folder.glob("*.corrupt-*") if p.is_file() and not p.name.endswith(("-wal", "-shm", "-journal"))]
    return sorted(found)


def _loose_line(path: Path) -> str:
    data = read_json(path)
    drafts = data.get("drafts") if isinstance(data, dict) else None
    count = len(drafts) if isinstance(drafts, list) else 0
    return f"{_plural(count, 'draft')} kept in {path.name} (the database could not take them)"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024**2:
        return f"{n / 1024:.1f} KB"
    return f"{n / 1024**2:.1f} MB"


def _age(seconds: float) -> str:
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{_plural(int(seconds // 60), 'minute')} ago"
    if seconds < 86400:
        return f"{_plural(int(seconds // 3600), 'hour')} ago"
    return f"{_plural(int(seconds // 86400), 'day')} ago"
