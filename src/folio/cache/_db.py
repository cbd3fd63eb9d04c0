"""Opening a SQLite file the way every Folio store needs it, and the small file helpers the stores share.

:func:`connect` makes the folder (0700) and the file (0600; SQLite gives its ``-wal``/``-shm`` files the mode of the
database file, whatever the umask), turns on WAL where the filesystem supports it and falls back to a rollback
journal with ``synchronous=FULL`` where it does not (network home directories), and checks the file with
``PRAGMA quick_check``. It raises.

:func:`open_database` never raises: a damaged or unreadable file is moved aside to ``<name>.corrupt-<timestamp>``
and a new one made, and when even that fails the caller gets no connection and a message saying why, so it can run
without its store. A file another program holds locked is left alone (it is not damaged).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple, Self

__all__ = [
    "NO_WAL_ENV",
    "Opened",
    "connect",
    "is_busy",
    "is_damaged",
    "is_full",
    "journal_mode",
    "move_aside",
    "open_database",
    "private_folder",
    "read_json",
    "reason",
    "safe_name",
    "write_json_atomic",
]

NO_WAL_ENV = "FOLIO_CACHE_NO_WAL"
"""Set to ``1`` to refuse WAL, as a network filesystem would (tests, and users whose filesystem lies about it)."""

# Primary result codes (https://sqlite.org/rescode.html); Python 3.11 exposes them as ``sqlite_errorcode``.
_BUSY, _LOCKED, _CORRUPT, _FULL, _NOTADB = 5, 6, 11, 13, 26


class _Damaged(sqlite3.DatabaseError):
    """``quick_check`` found a problem in a file SQLite could read."""


class Opened(NamedTuple):  # (defined before the first frame: see folio.cache.records)
    """What :func:`open_database` made: a connection (``None`` when the store must run without one), the journal
    mode in use, and a message for the user when something went wrong (the file was replaced, or is unusable)."""

    conn: sqlite3.Connection | None
    journal_mode: str = ""
    problem: str | None = None


def _code(error: BaseException) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def is_busy(error: BaseException) -> bool:
    """Another connection holds the lock: nothing is wrong with the file."""
    text = str(error).lower()
    return _code(error) in (_BUSY, _LOCKED) or "locked" in text or "busy" in text


def is_full(error: BaseException) -> bool:
    """SQLITE_FULL: the disk is full, or the file reached ``max_page_count``."""
    return _code(error) == _FULL or "disk is full" in str(error).lower()


def is_damaged(error: BaseException) -> bool:
    """The file is not a database or is malformed: using it again will not help."""
    text = str(error).lower()
    return (
        isinstance(error, _Damaged)
        or _code(error) in (_CORRUPT, _NOTADB)
        or "not a database" in text
        or "malformed" in text
    )


def reason(error: BaseException) -> str:
    """A short human reason for an error, in one line, without a traceback."""
    if isinstance(error, OSError):
        where = error.filename or "?"
        if isinstance(error, FileExistsError):
            return f"a file is in the way of the folder {where}"
        if isinstance(error, NotADirectoryError):
            return f"a file is in the way of {where}"
        if isinstance(error, IsADirectoryError):
            return f"there is a folder where the file {where} should be"
        if error.strerror:
            return error.strerror.lower() + (f": {error.filename}" if error.filename else "")
    text = " ".join(str(error).split())
    return (text[:200] + "...") if len(text) > 200 else text or type(error).__name__


def private_folder(folder: Path) -> None:
    """Make ``folder`` (and its parents) and give it mode 0700: what Folio stores there is the user's alone."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if os.name == "posix":
        os.chmod(folder, 0o700)


def _private_file(path: Path) -> None:
    """Create ``path`` empty with mode 0600 if missing (an empty file is an empty database), or set 0600."""
    if path.exists() and not path.is_file():
        raise IsADirectoryError(21, "Not a regular file", str(path))
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if os.name == "posix":
            os.fchmod(fd, 0o600)
    finally:
        os.close(fd)


def _companions(path: Path) -> list[Path]:
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm", "-journal")]


def connect(
    path: Path,
    *,
    wal: bool | None = None,
    full_sync: bool = False,
    busy_timeout: float = 5.0,
    max_pages: int | None = None,
    schema: Sequence[str] = (),
    version: int = 1,
    reset_on_mismatch: bool = False,
    vfs: str | None = None,
) -> sqlite3.Connection:
    """Open (creating if needed) the database at ``path`` and check it; raises ``sqlite3.Error`` or ``OSError``.

    ``wal=None`` uses WAL unless ``$FOLIO_CACHE_NO_WAL`` is set. ``full_sync`` keeps ``synchronous=FULL`` even
    with WAL (user data); otherwise WAL runs with ``NORMAL``, which stays consistent after a crash. ``max_pages``
    caps the file's size in pages (tests use it to fill the "disk"). ``schema`` (statements) is run in one
    transaction when the file's ``user_version`` is older than ``version`` (or just different, with
    ``reset_on_mismatch``: a store that starts over), and then ``user_version`` is set. A file made by a newer
    Folio is otherwise left as it is.
    ``vfs`` picks an SQLite VFS (tests use ``unix-none``, which has no shared memory and so refuses WAL).
    The connection is in autocommit mode: callers open their transactions with ``BEGIN IMMEDIATE``.
    """
    if wal is None:
        wal = os.environ.get(NO_WAL_ENV, "").strip() not in ("1", "true", "yes")
    private_folder(path.parent)
    _private_file(path)
    target = f"{path.resolve().as_uri()}?vfs={vfs}" if vfs else str(path)
    conn = sqlite3.connect(target, timeout=busy_timeout, isolation_level=None, check_same_thread=False, uri=bool(vfs))
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        mode = ""
        if wal:
            try:
                mode = str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
            except sqlite3.OperationalError as error:
                if is_busy(error) or is_damaged(error):
                    raise
                mode = ""  # the filesystem refused it: fall back below
        if mode != "wal":
            mode = str(conn.execute("PRAGMA journal_mode = DELETE").fetchone()[0]).lower()
        conn.execute(f"PRAGMA synchronous = {'NORMAL' if mode == 'wal' and not full_sync else 'FULL'}")
        rows = conn.execute("PRAGMA quick_check").fetchall()
        if [tuple(r) for r in rows] != [("ok",)]:
            found = [line for r in rows for line in str(r[0]).splitlines() if line and not line.startswith("***")]
            raise _Damaged(f"damaged pages: {found[0] if found else 'the integrity check failed'}")
        if max_pages is not None:
            conn.execute(f"PRAGMA max_page_count = {int(max_pages)}")
        if schema and _needs_schema(_user_version(conn), version, reset_on_mismatch):
            conn.execute("BEGIN IMMEDIATE")
            try:
                # Another process may have made it meanwhile.
                if _needs_schema(_user_version(conn), version, reset_on_mismatch):
                    for statement in schema:
                        conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {int(version)}")
                conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
        if os.name == "posix":
            for extra in _companions(path):
                with contextlib.suppress(OSError):
                    os.chmod(extra, 0o600)
    except BaseException:
        conn.close()
        raise
    return conn


def _needs_schema(current: int, version: int, reset_on_mismatch: bool) -> bool:
    return current < version or (reset_on_mismatch and current != version)


def _user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def safe_name(account: str) -> str:
    """``account`` as a piece of a file name: only ``[A-Za-z0-9_-]``. A name that had to change gets a short hash
    of the original, so two different accounts never end up with the same file."""
    cleaned = re.sub(r"[^A-Za-z0-9_-]", "_", account)[:64]
    if cleaned == account and account:
        return account
    return f"{cleaned}-{hashlib.sha256(account.encode()).hexdigest()[:8]}".lstrip("-")


def move_aside(path: Path) -> Path:
    """Rename a damaged ``path`` (and its ``-wal``/``-shm``, kept next to it as a pair) to
    ``<name>.corrupt-<timestamp>``, so it can still be looked at; returns the new path."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    os.replace(path, target)
    for extra in _companions(path):
        if extra.exists():
            with contextlib.suppress(OSError):
                os.replace(extra, target.with_name(target.name + extra.name[len(path.name) :]))
    return target


def open_database(
    path: Path, *, what: str, recover: Callable[[Path, sqlite3.Connection], str] | None = None, **options: Any
) -> Opened:
    """:func:`connect` that never raises. ``what`` names the store in messages ("The response cache").

    ``recover(damaged, conn)``, when given, is called once a damaged file was moved aside (to ``damaged``) and a
    new one made (``conn``): it copies what it can still read into the new file and returns what to tell the
    user, which becomes the problem's words. It may raise ``sqlite3.Error`` or ``OSError``: the new file is then
    used as it is and the message says nothing could be recovered."""
    try:
        conn = connect(path, **options)
    except OSError as error:
        return Opened(None, problem=f"{what} cannot be used ({reason(error)}); running without it.")
    except sqlite3.Error as error:
        if is_busy(error):
            return Opened(None, problem=f"{what} ({path}) is locked by another program; running without it.")
        why = reason(error)
        try:
            moved = move_aside(path)
        except OSError as move_error:
            problem = f"{what} ({path}) is unreadable ({why}) and could not be moved aside ({reason(move_error)})"
            return Opened(None, problem=problem + "; running without it.")
        try:
            conn = connect(path, **options)
        except (OSError, sqlite3.Error) as again:
            problem = f"{what} was damaged or unreadable ({why}) and was moved to {moved}; a new one could not be made"
            return Opened(None, problem=f"{problem} ({reason(again)}), so Folio runs without it.")
        problem = f"{what} was damaged or unreadable ({why}); it was moved to {moved.name} and a new one started."
        if recover is not None:
            try:
                problem = f"{recover(moved, conn).rstrip('.')} (it was set aside as damaged: {why})."
            except (OSError, sqlite3.Error) as failed:
                problem = (
                    f"{what} was damaged or unreadable ({why}) and nothing could be recovered from it "
                    f"({reason(failed)}); the damaged file is at {moved}, and a new one was started."
                )
        return Opened(conn, journal_mode(conn), problem)
    return Opened(conn, journal_mode(conn))


def journal_mode(conn: sqlite3.Connection) -> str:
    try:
        return str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower()
    except sqlite3.Error:
        return ""


def write_json_atomic(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` atomically (a 0600 temporary file in the 0700 folder, fsync, then
    ``os.replace``): a crash leaves the old file or the new one, never half of one. Raises ``OSError``."""
    import tempfile  # only on this rare path: it is slow to import

    private_folder(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    try:
        if os.name == "posix":
            os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, ensure_ascii=False, sort_keys=True)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_json(path: Path) -> Any:
    """The JSON in ``path``, or ``None`` when it is missing or unreadable."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


class Store:
    """What both stores share: one connection (None once closed or never opened) behind a lock, its file, what
    went wrong with it, and closing by :meth:`close` or by leaving a ``with`` block."""

    _conn: sqlite3.Connection | None
    _lock: threading.RLock
    _path: Path
    _problem: str | None

    @property
    def path(self) -> Path:
        return self._path

    @property
    def problem(self) -> str | None:
        """Why the store is disabled, was rebuilt, or dropped a write; ``None`` when all is well."""
        return self._problem

    @property
    def enabled(self) -> bool:
        """The database is in use."""
        return self._conn is not None

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.close()
                self._conn = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
