"""Account ids and the token-fingerprint index; ``folio cache info`` text and ``folio cache clear``."""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path

from folio.cache import LocalState, ResponseCache, account_id, clear_all, describe, lookup, remember
from folio.cache.accounts import labels
from tests.cache.conftest import Clock


def test_account_id_is_a_short_hash_of_address_and_user() -> None:
    expected = hashlib.sha256(b"https://api.gitbook.com\0user-1").hexdigest()[:16]
    assert account_id("https://api.gitbook.com", "user-1") == expected
    assert account_id("https://api.gitbook.com/", "user-1") == expected
    assert account_id("https://api.gitbook.com", "user-2") != expected
    assert account_id("https://sandbox.folio.test", "user-1") != expected
    # the separator keeps ("ab", "c") and ("a", "bc") apart
    assert account_id("https://x/ab", "c") != account_id("https://x/a", "bc")


def test_the_index_remembers_which_account_a_token_led_to(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    assert lookup(folder, "fp-1") is None
    assert remember(folder, "fp-1", "a" * 16, "Ada (ada@example.com)")
    assert remember(folder, "fp-2", "b" * 16, "")
    assert remember(folder, "fp-1", "c" * 16, "Ada again")  # the token now belongs to another account
    assert (lookup(folder, "fp-1"), lookup(folder, "fp-2"), lookup(folder, "fp-3")) == ("c" * 16, "b" * 16, None)
    index = folder / "accounts.json"
    assert stat.S_IMODE(index.stat().st_mode) == 0o600 and stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert json.loads(index.read_text()) == {
        "version": 1,
        "tokens": {"fp-1": {"account": "c" * 16, "label": "Ada again"}, "fp-2": {"account": "b" * 16, "label": ""}},
    }
    assert labels(folder) == {"c" * 16: "Ada again"}
    assert [p.name for p in folder.iterdir()] == ["accounts.json"]  # no temporary file left behind


def test_a_broken_or_unwritable_index_costs_nothing_but_the_shortcut(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / "accounts.json").write_text("{ not json")
    assert lookup(folder, "fp") is None
    assert remember(folder, "fp", "a" * 16, "Ada")
    assert lookup(folder, "fp") == "a" * 16
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert remember(blocker, "fp", "a" * 16, "Ada") is False
    assert lookup(blocker, "fp") is None


def test_describe_with_nothing_yet(tmp_path: Path) -> None:
    assert describe(tmp_path / "cache", tmp_path / "state").startswith("No cache yet")


def test_describe_lists_each_account_and_clear_all_keeps_the_drafts(tmp_path: Path, clock: Clock) -> None:
    cache_dir, state_dir = tmp_path / "cache", tmp_path / "state"
    ada, bob = account_id("https://api.gitbook.com", "ada"), account_id("https://api.gitbook.com", "bob")
    remember(cache_dir, "fp-ada", ada, "Ada Lovelace")
    cache = ResponseCache.open(ada, folder=cache_dir, clock=clock)
    cache.put("GET /orgs", b"o" * 2048)
    clock.tick(3 * 3600)
    cache.put("GET /user", b"u" * 100)
    cache.close()
    ResponseCache.open(bob, folder=cache_dir, wal=False).close()
    state = LocalState.open(ada, folder=state_dir)
    state.save_draft("comment:a", "unsent words")
    state.enqueue("comment", "/t", {})
    state.enqueue("reply", "/t", {})
    state.mark(2, "stuck", "merged")
    state.close()
    (cache_dir / "responses-zzz.sqlite3.corrupt-20260101-000000").write_bytes(b"old damage")

    text = describe(cache_dir, state_dir, now=clock.now + 120)
    assert f"Ada Lovelace ({ada}): 2 entries, 2.1 KB" in text
    assert "journal wal, stored 3 hours ago to 2 minutes ago" in text
    assert f"{bob}: 0 entries, 0 B" in text and "journal delete" in text
    assert "responses-zzz.sqlite3.corrupt-20260101-000000" in text
    assert f"Ada Lovelace ({ada}): 1 draft, outbox 1 queued, 1 stuck" in text
    assert "keeps them" in text

    assert clear_all(cache_dir) == 4  # two caches, the damaged copy, the index
    assert list(cache_dir.iterdir()) == []
    assert LocalState.open(ada, folder=state_dir).draft("comment:a") is not None
    after = describe(cache_dir, state_dir)
    assert "Response cache" in after and "  none" in after and "1 draft" in after
    assert clear_all(cache_dir) == 0
    assert clear_all(tmp_path / "never-made") == 0


def test_describe_reports_an_unreadable_file_without_touching_it(tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    damaged = cache_dir / "responses-acct.sqlite3"
    damaged.write_bytes(b"garbage" * 100)
    text = describe(cache_dir, tmp_path / "state")
    assert "acct: unreadable" in text
    assert damaged.read_bytes() == b"garbage" * 100
    assert not list(cache_dir.glob("*.corrupt-*"))


def test_describe_mentions_drafts_left_in_the_json_fallback(tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    (state_dir / "state-acct.sqlite3").mkdir(parents=True)
    LocalState.open("acct", folder=state_dir).save_draft("k", "text")
    assert "acct: 1 draft kept in drafts-acct.json" in describe(tmp_path / "cache", state_dir)
