"""``kill -9`` in the middle of writes: the next open finds a valid database, and what it holds is whole.

A child process writes in a loop (big bodies, evictions, drafts) and reports each write it finished; the test
kills it with SIGKILL while it is busy writing, then checks the file with SQLite's own ``quick_check`` before
Folio opens it (so Folio's repair path cannot hide a broken file), then opens it with Folio.
"""

from __future__ import annotations

import hashlib
import inspect
import os
import select
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from folio.cache import LocalState, ResponseCache

CHILD_PRELUDE = """
import hashlib, sqlite3, sys
from pathlib import Path

# Say when SQLite starts an INSERT, so the test can kill the process inside a write, not between two.
# (The authorizer sees each statement as it is prepared; with no statement cache, every statement is prepared.)
_connect = sqlite3.connect
def _inside(action, table, *_):
    if action == sqlite3.SQLITE_INSERT and table in ("responses", "drafts"):
        print("inside", flush=True)
    return sqlite3.SQLITE_OK
def _traced(*args, **kwargs):
    conn = _connect(*args, **{**kwargs, "cached_statements": 0})
    conn.set_authorizer(_inside)
    return conn
sqlite3.connect = _traced
"""

CACHE_WRITER = """
from folio.cache import ResponseCache
cache = ResponseCache.open("acct", folder=Path(sys.argv[1]), max_bytes=8 * 2**20, entry_cap=2**20)
assert cache.enabled, cache.problem
i = 0
while True:
    cache.put(f"GET /big/{i}", _body_for(i))
    print("wrote", i, flush=True)
    i += 1
"""

STATE_WRITER = """
from folio.cache import LocalState
state = LocalState.open("acct", folder=Path(sys.argv[1]))
assert state.enabled, state.problem
state.save_draft("comment:before", "typed before the crash", where="a comment on #12")
state.enqueue("comment", "/spaces/s1/change-requests/c1/comments", {"body": "queued before the crash"})
i = 0
while True:
    text = _text_for(i)
    state.save_draft(f"comment:loop{i % 7}", text, where=f"loop {i}")
    state.enqueue("reply", f"/t/{i}", {"text": text})
    print("wrote", i, flush=True)
    i += 1
"""


def _run_and_kill(script: str, folder: Path, *, env: dict[str, str], writes: int = 25) -> int:
    """Start the writer, let it finish ``writes`` writes, SIGKILL it once SQLite has begun the next one (in
    rollback-journal mode that leaves a hot journal behind); returns the last write it reported finished."""
    code = CHILD_PRELUDE + inspect.getsource(_body_for) + inspect.getsource(_text_for) + textwrap.dedent(script)
    command = [sys.executable, "-c", code, str(folder)]
    environ = {**os.environ, **env}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environ) as child:
        assert child.stdout is not None and child.stderr is not None
        done = -1
        deadline = time.monotonic() + 120  # only so a broken child cannot hang the suite
        try:
            while True:
                ready, _, _ = select.select([child.stdout], [], [], max(0.0, deadline - time.monotonic()))
                line = child.stdout.readline() if ready else ""
                if not line:
                    child.kill()
                    pytest.fail(f"the writer stopped early: {child.stderr.read()}")
                if line.startswith("wrote "):
                    done = int(line.split()[1])
                elif line.strip() == "inside" and done >= writes:
                    child.send_signal(signal.SIGKILL)  # SQLite is inside a write transaction now
                    break
        finally:
            if child.poll() is None:
                child.kill()
            child.wait()
        rest = child.stdout.read().splitlines()
    assert child.returncode == -signal.SIGKILL
    finished = [int(line[6:]) for line in rest if line.startswith("wrote ") and line[6:].isdigit()]
    return max([done, *finished])


def _quick_check(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("PRAGMA quick_check").fetchone()[0])
    finally:
        conn.close()


def _body_for(i: int) -> bytes:
    size = 200_000 + (i * 37_813) % 800_000
    return (hashlib.sha256(str(i).encode()).digest() * (size // 32 + 1))[:size]


def _text_for(i: int) -> str:
    return f"{i}:" + "draft words " * (1000 + i % 5000)


@pytest.mark.parametrize("no_wal", ["", "1"], ids=["wal", "rollback-journal"])
def test_kill_9_during_cache_writes_leaves_a_valid_file_with_whole_entries(tmp_path: Path, no_wal: str) -> None:
    last = _run_and_kill(CACHE_WRITER, tmp_path, env={"FOLIO_CACHE_NO_WAL": no_wal})
    path = tmp_path / "responses-acct.sqlite3"
    assert _quick_check(path) == "ok"
    cache = ResponseCache.open("acct", folder=tmp_path, max_bytes=8 * 2**20, entry_cap=2**20)
    assert cache.enabled and cache.problem is None
    assert not list(tmp_path.glob("*.corrupt-*"))
    present = 0
    for i in range(last + 2):  # the one being written when the kill came: whole or absent
        hit = cache.get(f"GET /big/{i}")
        if hit is not None:
            assert hit.body == _body_for(i), f"entry {i} is not whole"
            present += 1
    assert cache.get(f"GET /big/{last}") is not None  # committed before the kill: kept
    info = cache.info()
    assert present == info.entries and info.bytes <= 8 * 2**20


def test_kill_9_while_typing_keeps_every_saved_draft(tmp_path: Path) -> None:
    last = _run_and_kill(STATE_WRITER, tmp_path, env={})
    assert _quick_check(tmp_path / "state-acct.sqlite3") == "ok"
    state = LocalState.open("acct", folder=tmp_path)
    assert state.enabled and state.problem is None
    before = state.draft("comment:before")
    assert before is not None and before.text == "typed before the crash" and before.where == "a comment on #12"
    drafts = {d.key: d for d in state.drafts()}
    for key, draft in drafts.items():
        if key.startswith("comment:loop"):
            i = int(draft.where.removeprefix("loop "))
            assert draft.text == _text_for(i), f"draft {key} is not whole"
    assert drafts[f"comment:loop{last % 7}"].where == f"loop {last}"  # the last reported save is there
    items = state.outbox()
    assert items[0].payload == {"body": "queued before the crash"}
    targets = [item.target for item in items[1:]]
    assert targets == [f"/t/{i}" for i in range(len(targets))]
    assert len(targets) in (last + 1, last + 2)  # the item being written at the kill: whole or absent
    assert all(item.payload == {"text": _text_for(item.id - 2)} for item in items[1:])
