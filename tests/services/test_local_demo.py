"""The demo forgets another run's cached answers (#19): its sandbox is new at each start, so another run's data
must not stay on screen; what the user typed (drafts) stays. A start opens the files before it builds the client
(issue 15): the last run's answers are its first frame, and they are forgotten when the client comes."""

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


def test_a_start_opens_the_files_first_and_forgets_when_the_client_comes(client: GitBookClient, tmp_path: Path) -> None:
    folders = {"cache_dir": tmp_path / "cache", "state_dir": tmp_path / "state"}
    first = Local(client, **folders)
    first.confirm("user-1", "Ada")
    assert first.cache is not None
    first.cache.put("GET /orgs", b'{"items": []}')
    first.close()
    assert client.store is None

    secret = client.token.reveal() if client.token else ""
    demo = Local(**folders, base_url=client.base_url, secret=secret, forget_answers=True)
    assert demo.open_known() and demo.client is None  # the same account, found without the client
    assert demo.cached("GET /orgs") is not None  # the first frame paints the last run's list
    demo.attach(client)
    assert client.store is demo.cache and demo.cached("GET /orgs") is None
    demo.cache.put("GET /orgs", b'{"items": []}')
    demo.confirm("user-1", "Ada")
    assert demo.cached("GET /orgs") is not None  # forgotten once: what this run read stays
    demo.close()
    assert client.store is None and demo.cached("GET /orgs") is None


def test_before_its_account_is_known_a_client_reads_into_memory(client: GitBookClient, tmp_path: Path) -> None:
    folders = {"cache_dir": tmp_path / "cache", "state_dir": tmp_path / "state"}
    local = Local(**folders, base_url=client.base_url, secret="another token")
    assert not local.open_known() and local.cached("GET /orgs") is None
    local.attach(client)
    assert client.store is not None and client.store is not local.cache
    client.store.put("GET /orgs", b'{"items": []}')
    local.confirm("user-2", "Bo")
    assert client.store is local.cache and local.cached("GET /orgs") is not None  # kept once the account is known
    local.close()
