"""Local state: drafts, the outbox and the session survive restarts, and a draft survives a database that fails."""

from __future__ import annotations

import json
import sqlite3
import stat
from pathlib import Path

import pytest

from folio.cache import Draft, LocalState, OutboxItem
from tests.cache.conftest import Clock


def test_drafts_round_trip_newest_first(tmp_path: Path, clock: Clock) -> None:
    state = LocalState.open("acct", folder=tmp_path, clock=clock)
    assert state.enabled and state.problem is None
    assert state.draft("comment:a") is None and state.drafts() == []
    state.save_draft("comment:a", "first words", where='a comment on #12 "Fix typos"')
    first = clock.now
    clock.tick()
    state.save_draft("reply:b", "a reply")
    clock.tick()
    state.save_draft("comment:a", "first words, more of them", where='a comment on #12 "Fix typos"')
    assert state.draft("comment:a") == Draft(
        "comment:a", "first words, more of them", 'a comment on #12 "Fix typos"', clock.now
    )
    assert [d.key for d in state.drafts()] == ["comment:a", "reply:b"]
    assert state.draft("reply:b") == Draft("reply:b", "a reply", "", first + 10)
    state.close()

    again = LocalState.open("acct", folder=tmp_path, clock=clock)
    assert [d.text for d in again.drafts()] == ["first words, more of them", "a reply"]
    again.save_draft("reply:b", "")  # emptied: gone
    assert again.draft("reply:b") is None
    again.drop_draft("comment:a")
    again.drop_draft("never:there")
    assert again.drafts() == []


def test_unicode_and_long_drafts_come_back_exactly(tmp_path: Path) -> None:
    state = LocalState.open("acct", folder=tmp_path)
    text = "Ünïcödé — ✓ 漢字 🙂\n\ttabs and \x00 nul\n" * 5000
    state.save_draft("description:cr/7", text, where="the description of #7")
    state.close()
    assert LocalState.open("acct", folder=tmp_path).draft("description:cr/7").text == text  # type: ignore[union-attr]


def test_outbox_keeps_order_state_and_notes(tmp_path: Path, clock: Clock) -> None:
    state = LocalState.open("acct", folder=tmp_path, clock=clock)
    first = state.enqueue("comment", "/spaces/s1/change-requests/c1/comments", {"body": "Looks good"}, where="#1")
    clock.tick()
    second = state.enqueue("reaction", "/spaces/s1/change-requests/c1/comments/k1/reactions", {"emoji": "👍"})
    third = state.enqueue("resolve", "/spaces/s1/change-requests/c1/comments/k2", {"status": "resolved"})
    assert first < second < third
    state.mark(second, "sent")
    state.mark(third, "stuck", "the thread was deleted")
    assert state.outbox() == [
        OutboxItem(
            first,
            "comment",
            "/spaces/s1/change-requests/c1/comments",
            {"body": "Looks good"},
            "#1",
            clock.now - 10,
            "queued",
        ),
        OutboxItem(
            second,
            "reaction",
            "/spaces/s1/change-requests/c1/comments/k1/reactions",
            {"emoji": "👍"},
            "",
            clock.now,
            "sent",
        ),
        OutboxItem(
            third,
            "resolve",
            "/spaces/s1/change-requests/c1/comments/k2",
            {"status": "resolved"},
            "",
            clock.now,
            "stuck",
            "the thread was deleted",
        ),
    ]
    state.remove(third)
    state.close()
    again = LocalState.open("acct", folder=tmp_path, clock=clock)
    assert [(i.id, i.state) for i in again.outbox()] == [(first, "queued"), (second, "sent")]
    fourth = again.enqueue("reply", "/t", {})
    assert fourth > third  # an id is never handed out twice
    with pytest.raises(ValueError):
        again.mark(fourth, "lost")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        again.enqueue("comment", "/t", {"when": object()})


def test_session_round_trip(tmp_path: Path) -> None:
    state = LocalState.open("acct", folder=tmp_path)
    assert state.session() is None
    data = {"screens": [{"name": "spaces", "org": "o1", "filter": "docs", "cursor": 3}], "version": 1}
    state.save_session(data)
    state.save_session(data | {"version": 2})
    state.close()
    again = LocalState.open("acct", folder=tmp_path)
    assert again.session() == data | {"version": 2}
    again.clear_session()
    assert again.session() is None


def test_info_counts(tmp_path: Path) -> None:
    state = LocalState.open("acct", folder=tmp_path)
    state.save_draft("a", "x")
    state.save_draft("b", "y")
    for n in range(3):
        state.enqueue("comment", f"/t/{n}", {})
    state.mark(1, "stuck", "merged")
    info = state.info()
    assert (info.drafts, info.outbox, info.queued, info.stuck, info.session) == (2, 3, 2, 1, False)
    assert info.path == tmp_path / "state-acct.sqlite3" and info.journal_mode == "wal"
    assert info.fallback is None and info.problem is None


def test_state_files_are_private_and_fully_synced(tmp_path: Path) -> None:
    state = LocalState.open("acct", folder=tmp_path / "state")
    state.save_draft("a", "secret plans")
    assert stat.S_IMODE((tmp_path / "state").stat().st_mode) == 0o700
    assert stat.S_IMODE(state.path.stat().st_mode) == 0o600
    assert state._conn is not None  # the one place a test looks inside: the pragma is per connection
    assert state._conn.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_drafts_go_to_a_json_file_when_the_database_cannot_be_opened(tmp_path: Path, clock: Clock) -> None:
    (tmp_path / "state-acct.sqlite3").mkdir()  # something that is not a database where the database goes
    state = LocalState.open("acct", folder=tmp_path, clock=clock)
    assert not state.enabled
    fallback = tmp_path / "drafts-acct.json"
    assert state.problem is not None and str(fallback) in state.problem
    state.save_draft("comment:a", "typed while the database was away", where="a comment on #3")
    state.save_draft("comment:b", "and this")
    state.drop_draft("comment:b")
    assert stat.S_IMODE(fallback.stat().st_mode) == 0o600
    assert [d["key"] for d in json.loads(fallback.read_text())["drafts"]] == ["comment:a"]
    assert state.info().fallback == fallback
    # The outbox and session work, in memory, for this run.
    queued = state.enqueue("comment", "/t", {"body": "hi"})
    state.mark(queued, "stuck", "offline")
    assert [(i.id, i.state, i.note) for i in state.outbox()] == [(queued, "stuck", "offline")]
    state.save_session({"screen": "spaces"})
    assert state.session() == {"screen": "spaces"}
    state.remove(queued)
    assert state.outbox() == []
    state.close()

    still_broken = LocalState.open("acct", folder=tmp_path, clock=clock)
    assert still_broken.draft("comment:a") == Draft(
        "comment:a", "typed while the database was away", "a comment on #3", clock.now
    )
    (tmp_path / "state-acct.sqlite3").rmdir()
    healed = LocalState.open("acct", folder=tmp_path, clock=clock)
    assert healed.enabled and healed.problem is None
    assert [d.text for d in healed.drafts()] == ["typed while the database was away"]
    assert not fallback.exists()  # moved into the database


def test_a_draft_saved_while_the_database_is_locked_is_not_lost(tmp_path: Path, clock: Clock) -> None:
    state = LocalState.open("acct", folder=tmp_path, wal=False, busy_timeout=0, clock=clock)
    state.save_draft("comment:a", "older text")
    state.save_draft("comment:sent", "text the service accepted")
    holder = sqlite3.connect(state.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the file
    try:
        clock.tick()
        state.save_draft("comment:a", "newer text typed during the lock", where="a comment on #5")
        assert state.problem is not None
        state.drop_draft("comment:sent")  # sent: it must not come back, even though the database refused
        assert state.draft("comment:a").text == "newer text typed during the lock"  # type: ignore[union-attr]
        assert (tmp_path / "drafts-acct.json").exists()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert [d.text for d in state.drafts()] == ["newer text typed during the lock"]
    state.close()
    reopened = LocalState.open("acct", folder=tmp_path, clock=clock)
    assert reopened.problem is None
    assert reopened.draft("comment:a").text == "newer text typed during the lock"  # type: ignore[union-attr]
    assert [d.key for d in reopened.drafts()] == ["comment:a"]
    assert not (tmp_path / "drafts-acct.json").exists()


def test_a_newer_draft_in_the_database_wins_over_an_older_one_left_in_the_json_file(
    tmp_path: Path, clock: Clock
) -> None:
    stale = {"version": 1, "drafts": [{"key": "k", "text": "old", "where": "", "saved_at": clock.now - 100}]}
    state = LocalState.open("acct", folder=tmp_path, clock=clock)
    state.save_draft("k", "new")
    state.close()
    (tmp_path / "drafts-acct.json").write_text(json.dumps(stale))
    assert LocalState.open("acct", folder=tmp_path, clock=clock).draft("k").text == "new"  # type: ignore[union-attr]


def test_nowhere_to_write_keeps_drafts_for_the_run_without_raising(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where the folder should be")
    state = LocalState.open("acct", folder=blocker)
    state.save_draft("comment:a", "still here")
    assert state.draft("comment:a").text == "still here"  # type: ignore[union-attr]
    assert state.problem is not None and "until Folio quits" in state.problem
    state.enqueue("comment", "/t", {})
    assert len(state.outbox()) == 1
    state.close()


def test_a_damaged_state_file_is_kept_aside_and_a_new_one_made(tmp_path: Path) -> None:
    path = tmp_path / "state-acct.sqlite3"
    path.write_bytes(b"\x00garbage" * 500)
    state = LocalState.open("acct", folder=tmp_path)
    assert state.enabled and state.problem is not None and "the damaged file is at" in state.problem
    assert [p.read_bytes()[:8] for p in tmp_path.glob("state-acct.sqlite3.corrupt-*")] == [b"\x00garbage"]
    state.save_draft("a", "works again")
    assert state.draft("a") is not None


def test_announced_keys_survive_a_restart_and_a_version_2_file_gains_the_table(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "state-acct.sqlite3"
    old = sqlite3.connect(path)  # a file of the version before the inbox watch, with a draft in it
    old.execute("CREATE TABLE drafts (key TEXT PRIMARY KEY NOT NULL, text TEXT NOT NULL, place TEXT NOT NULL,"
                " saved_at REAL NOT NULL)")  # fmt: skip
    old.execute("INSERT INTO drafts VALUES ('k', 'kept', '', 1.0)")
    old.execute("PRAGMA user_version = 2")
    old.commit()
    old.close()
    state = LocalState.open("acct", folder=tmp_path, clock=clock)
    assert state.problem is None and state.draft("k") is not None
    assert state.announced(["review:cr1", "merged:cr2"]) == set()
    assert state.mark_announced(["review:cr1", "review:cr1", "seeded:org1"]) == {"review:cr1", "seeded:org1"}
    assert state.mark_announced([]) == set()
    assert state.announced(["review:cr1", "merged:cr2", "seeded:org1"]) == {"review:cr1", "seeded:org1"}
    other = LocalState.open("acct", folder=tmp_path, clock=clock)  # the TUI and folio watch, side by side
    assert other.mark_announced(["review:cr1", "merged:cr2"]) == {"merged:cr2"}  # only the key it recorded first
    assert state.mark_announced(["merged:cr2"]) == set()
    other.close()
    state.close()
    again = LocalState.open("acct", folder=tmp_path, clock=clock)
    many = [f"reply:c{i}:1" for i in range(1200)]  # more keys than one query takes
    again.mark_announced(many[::2])
    assert again.announced(["review:cr1", *many]) == {"review:cr1", *many[::2]}


def test_announced_keys_are_kept_in_memory_when_the_database_cannot_be_used(tmp_path: Path) -> None:
    (tmp_path / "state-acct.sqlite3").mkdir()
    state = LocalState.open("acct", folder=tmp_path)
    assert not state.enabled
    assert state.mark_announced(["review:cr1"]) == {"review:cr1"}
    assert state.mark_announced(["review:cr1", "review:cr2"]) == {"review:cr2"}
    assert state.announced(["review:cr1", "review:cr3"]) == {"review:cr1"}
