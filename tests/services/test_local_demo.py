"""The demo starts with no cached answers (#19): its sandbox is new at each start, so another run's data must
not be painted; what the user typed (drafts) stays."""

from __future__ import annotations

from pathlib import Path

from folio.api import GitBookClient
from folio.services.local import Local


def test_the_demo_forgets_an_earlier_runs_answers_and_keeps_the_drafts(client: GitBookClient, tmp_path: Path) -> None:
    folders = {"cache_dir": tmp_path / "cache", "state_dir": tmp_path / "state"}
    first = Local(client, **folders)
    first.confirm("user-1", "Ada")
    assert first.cache is not None and first.state is not None
    first.cache.put("GET /orgs", b'{"items": []}')
    first.state.save_draft("reply:s/-/c", "half a thought", where="a reply")
    first.close()

    again = Local(client, **folders)
    assert again.open_known() and again.cache is not None
    assert again.cache.get("GET /orgs") is not None  # an account's own run paints from its cache
    again.close()

    demo = Local(client, **folders, forget_answers=True)
    assert demo.open_known() and demo.cache is not None and demo.state is not None
    assert demo.cache.get("GET /orgs") is None
    assert [d.text for d in demo.state.drafts()] == ["half a thought"]
    demo.cache.put("GET /orgs", b'{"items": []}')  # what this run caches, it may paint again
    demo.confirm("user-1", "Ada")
    assert demo.cache.get("GET /orgs") is not None
    demo.close()
