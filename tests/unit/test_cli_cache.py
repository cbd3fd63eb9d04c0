"""``folio cache info`` / ``clear`` and ``--offline`` without anything cached, as a person meets them."""

from __future__ import annotations

from pathlib import Path

import pytest

from folio import cli
from folio.cache import LocalState, ResponseCache


def test_info_on_a_fresh_machine_says_there_is_no_cache(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["cache", "info"]) == 0
    assert "No cache yet" in capsys.readouterr().out


def test_clear_removes_the_cached_answers_and_keeps_the_drafts(
    isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = ResponseCache.open("acct1", folder=isolated_home / "cache")
    cache.put("GET /orgs", b'{"items": []}')
    cache.close()
    state = LocalState.open("acct1", folder=isolated_home / "state")
    state.save_draft("reply:s/c/k", "half a sentence", where="a reply")
    state.close()
    assert cli.main(["cache", "info"]) == 0
    info = capsys.readouterr().out
    assert "1 entries" in info or "1 entry" in info
    assert "1 draft" in info
    assert cli.main(["cache", "clear"]) == 0
    said = capsys.readouterr().out
    assert "Removed" in said and "Drafts and the outbox are kept" in said
    assert not list((isolated_home / "cache").glob("responses-*.sqlite3"))
    kept = LocalState.open("acct1", folder=isolated_home / "state")
    assert kept.draft("reply:s/c/k") is not None
    kept.close()


def test_offline_with_nothing_cached_says_what_is_missing(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--demo", "--offline"]) == cli.EXIT_USAGE
    assert "--offline needs what an earlier online run" in capsys.readouterr().err
