"""A damaged state file (#24): what can still be read of it comes back into the new one, row by row, and Folio
says what was recovered and where the rest is (the store's problem, the TUI's first notice, ``folio cache info``).

The files are damaged as a disk does it: whole pages overwritten, never the first one (the header and schema),
so SQLite opens them and then refuses them (``quick_check``, or a read that reaches the page)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from folio import cli
from folio.cache import LocalState, describe
from folio.cache._recover import open_damaged, readable_rows
from folio.services.local import Local
from tests.cache.conftest import Clock

PAGE = 4096


def _smash(path: Path, page: int) -> None:
    """Overwrite page ``page`` (1-based) of the file with bytes that are no b-tree page."""
    assert page > 1, "the first page is the header and the schema: keep it"
    data = bytearray(path.read_bytes())
    data[(page - 1) * PAGE : page * PAGE] = bytes(range(256)) * (PAGE // 256)
    path.write_bytes(bytes(data))


def _root_page(path: Path, name: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)).fetchone()[0])
    finally:
        conn.close()


def _passes_check(path: Path) -> bool:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    except sqlite3.DatabaseError:
        return False
    finally:
        conn.close()


def _page_holding(path: Path, text: bytes) -> int:
    offset = path.read_bytes().index(text)
    return offset // PAGE + 1


def _one_of_each(folder: Path, clock: Clock) -> LocalState:
    """The issue's case: one draft and one queued comment (and a session), closed cleanly."""
    state = LocalState.open("acct", folder=folder, wal=False, clock=clock)
    state.save_draft("reply:s1/c1", "half a sentence, typed offline", where="a reply on Getting started")
    state.enqueue("comment", "/spaces/s1/comments", {"body": "sent later"}, where="Getting started")
    state.save_session({"stack": ["organizations"]})
    state.close()
    return state


def test_one_draft_and_one_outbox_item_come_back_from_a_file_that_will_not_open(tmp_path: Path, clock: Clock) -> None:
    before = _one_of_each(tmp_path, clock)
    _smash(before.path, _root_page(before.path, "sqlite_autoindex_drafts_1"))  # the drafts' index: open fails
    assert not _passes_check(before.path)
    damaged_bytes = before.path.read_bytes()

    clock.tick(60)
    state = LocalState.open("acct", folder=tmp_path, wal=False, clock=clock)  # (WAL would mark the header)
    [aside] = tmp_path.glob("state-acct.sqlite3.corrupt-*")
    assert state.problem is not None
    assert state.problem.startswith(
        f"Recovered 1 draft and 1 outbox item from a damaged state file; the damaged file is at {aside}"
    )
    assert "parts of it could not be read" not in state.problem  # every row of it was read
    assert [(d.key, d.text, d.where) for d in state.drafts()] == [
        ("reply:s1/c1", "half a sentence, typed offline", "a reply on Getting started")
    ]
    [item] = state.outbox()
    assert (item.id, item.kind, item.target, item.payload, item.state) == (
        1,
        "comment",
        "/spaces/s1/comments",
        {"body": "sent later"},
        "queued",
    )
    assert state.session() == {"stack": ["organizations"]}
    assert state.enqueue("comment", "/t", {}) == 2  # the ids go on from the recovered ones
    state.close()
    assert aside.read_bytes() == damaged_bytes  # read, never written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state-acct.sqlite3", aside.name]


def test_rows_on_a_damaged_page_are_lost_and_the_rows_after_it_kept(tmp_path: Path, clock: Clock) -> None:
    state = LocalState.open("acct", folder=tmp_path, wal=False, clock=clock)
    for i in range(300):
        clock.tick(1)
        state.save_draft(f"reply:{i}", f"TEXT-{i:04d}-" + "x" * 400, where=f"thread {i}")
    for i in range(5):
        state.enqueue("comment", f"/spaces/s{i}/comments", {"body": f"queued {i}"})
    state.close()
    written = {f"reply:{i}": f"TEXT-{i:04d}-" + "x" * 400 for i in range(300)}
    _smash(state.path, _page_holding(state.path, b"TEXT-0150-"))  # a leaf in the middle of the drafts

    again = LocalState.open("acct", folder=tmp_path, clock=clock)
    drafts = {d.key: d.text for d in again.drafts()}
    assert 250 < len(drafts) < 300  # one page's rows are gone, the others are back
    assert all(written[key] == text for key, text in drafts.items())  # and exactly as they were written
    lost = sorted(int(key.split(":")[1]) for key in set(written) - set(drafts))
    assert 150 in lost and lost == list(range(lost[0], lost[-1] + 1))  # the rows of that one page
    assert {"reply:0", f"reply:{lost[0] - 1}", f"reply:{lost[-1] + 1}", "reply:299"} <= set(drafts)
    assert [item.payload["body"] for item in again.outbox()] == [f"queued {i}" for i in range(5)]
    [aside] = tmp_path.glob("state-acct.sqlite3.corrupt-*")
    assert again.problem is not None and again.problem.startswith(
        f"Recovered {len(drafts)} drafts and 5 outbox items from a damaged state file; the damaged file is at {aside}"
        "; parts of it could not be read and remain only there"
    )
    again.close()


def test_a_damaged_file_with_its_wal_is_read_with_the_wal(tmp_path: Path, clock: Clock) -> None:
    """Killed with -9: the last writes are only in the ``-wal`` beside the file; they are read too."""
    state = LocalState.open("acct", folder=tmp_path, clock=clock)
    for i in range(60):
        state.save_draft(f"reply:{i:02d}", f"TEXT-{i:04d}-" + "y" * 400)
    state.close()  # these are in the file itself now
    state = LocalState.open("acct", folder=tmp_path, clock=clock)
    for i in range(60, 70):
        state.save_draft(f"reply:{i:02d}", f"TEXT-{i:04d}-" + "y" * 400)  # these only in the WAL
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    for name in ("state-acct.sqlite3", "state-acct.sqlite3-wal"):  # as a kill -9 leaves them
        shutil.copy(tmp_path / name, crashed / name)
    state.close()
    path = crashed / "state-acct.sqlite3"
    assert b"TEXT-0065-" not in path.read_bytes()
    _smash(path, _page_holding(path, b"TEXT-0005-"))

    again = LocalState.open("acct", folder=crashed, clock=clock)
    keys = {d.key for d in again.drafts()}
    assert {f"reply:{i}" for i in range(60, 70)} <= keys  # read from the WAL
    assert "reply:05" not in keys and "reply:59" in keys
    assert again.problem is not None and again.problem.startswith(f"Recovered {len(keys)} drafts and 0 outbox items")
    again.close()


def test_a_file_with_nothing_readable_says_nothing_was_recovered(tmp_path: Path) -> None:
    path = tmp_path / "state-acct.sqlite3"
    path.write_bytes(b"\x00garbage" * 500)
    state = LocalState.open("acct", folder=tmp_path)
    [aside] = tmp_path.glob("state-acct.sqlite3.corrupt-*")
    assert state.problem is not None and state.problem.startswith(
        f"Recovered 0 drafts and 0 outbox items from a damaged state file; the damaged file is at {aside}; "
        "parts of it could not be read and remain only there"
    )
    state.close()


def test_readable_rows_passes_over_a_row_that_cannot_be_read(tmp_path: Path) -> None:
    """A row whose text spills onto a damaged overflow page is lost alone; those after it are read."""
    path = tmp_path / "t.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (body TEXT NOT NULL)")
    conn.executemany("INSERT INTO t VALUES (?)", [(f"row {i}",) for i in range(3)])
    conn.execute("INSERT INTO t VALUES (?)", ("BIG-" + "z" * 3 * PAGE,))  # on overflow pages
    conn.executemany("INSERT INTO t VALUES (?)", [(f"row {i}",) for i in range(4, 7)])
    conn.commit()
    conn.close()
    _smash(path, _page_holding(path, b"z" * 100) + 1)  # the second overflow page of the big row
    source = open_damaged(path)
    found = readable_rows(source, "t", ("body",))
    source.close()
    assert found.rows == [(f"row {i}",) for i in (0, 1, 2, 4, 5, 6)]
    assert found.complete is False


def test_cache_info_says_what_was_recovered_and_where_the_damaged_file_is(
    isolated_home: Path, capsys: pytest.CaptureFixture[str], clock: Clock
) -> None:
    state_dir = isolated_home / "state"
    before = _one_of_each(state_dir, clock)
    _smash(before.path, _root_page(before.path, "sqlite_autoindex_drafts_1"))
    assert cli.main(["cache", "info"]) == 0
    said = capsys.readouterr().out
    assert "unreadable" in said and "recover what it can read of it" in said
    LocalState.open("acct", folder=state_dir, clock=clock).close()  # the next start
    assert cli.main(["cache", "info"]) == 0
    said = capsys.readouterr().out
    [aside] = state_dir.glob("state-acct.sqlite3.corrupt-*")
    assert "acct: 1 draft, outbox 1 queued" in said
    assert f"Recovered 1 draft and 1 outbox item from a damaged state file; the damaged file is at {aside}" in said
    assert f"1 damaged file(s) set aside (Folio only reads them): {aside.name}" in said
    assert describe(isolated_home / "cache", state_dir) == said.rstrip("\n")


def test_the_recovery_is_among_the_local_problems_the_tui_shows_first(tmp_path: Path, clock: Clock) -> None:
    """The app notifies ``Local.problems`` once the service says who is signed in: the recovery is said there."""
    local = Local(cache_dir=tmp_path / "cache", state_dir=tmp_path / "state", base_url="https://x", secret="t")
    local.confirm("user-1", "Ada")
    assert local.state is not None
    account_file = local.state.path
    local.state.save_draft("reply:a", "kept")
    local.close()
    _smash(account_file, _root_page(account_file, "sqlite_autoindex_drafts_1"))
    again = Local(cache_dir=tmp_path / "cache", state_dir=tmp_path / "state", base_url="https://x", secret="t")
    assert again.open_known()
    [aside] = account_file.parent.glob("*.corrupt-*")
    assert any(
        p.startswith(f"Recovered 1 draft and 0 outbox items from a damaged state file; the damaged file is at {aside}")
        for p in again.problems
    )
    again.close()
