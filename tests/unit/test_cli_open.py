"""``folio open URL``, ``folio URL`` and ``folio show URL [--json]`` against the in-process sandbox: the JSON is the
service's shape of the thing the link names (checked against the sandbox's records), read from the account's cache
first (``--fresh`` asks the service), quiet when stdout is not a terminal, safe on a terminal with hostile titles;
exit 1 when the service says no, 2 for a URL Folio cannot read, a link to a list or no token; ``open`` and the bare
URL reach the TUI with the link, a bad URL does not start it."""

from __future__ import annotations

import argparse
import json
from typing import Any

import pytest

from folio import cli
from folio.cli_open import as_open, looks_like_url
from folio.config.logging import DebugLog
from folio.sandbox import SandboxState, SandboxTransport
from tests.conftest import SANDBOX_URL, TOKEN

APP = "https://app.gitbook.com"


@pytest.fixture
def sandbox(app: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every client the command line builds talks to the test's sandbox, with the test's token."""
    monkeypatch.setattr(cli, "transport_factory", lambda base_url: SandboxTransport(app))
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    return app


def show(*argv: str) -> int:
    return cli.main(["show", *argv, "--base-url", SANDBOX_URL])


def test_show_json_is_the_services_shape_of_the_change_request(
    sandbox: Any, state: SandboxState, capsys: pytest.CaptureFixture[str]
) -> None:
    cr = next(c for c in state.change_requests.values() if state.spaces[c["space"]]["organization"] == state.demo_org)
    code = show("--json", f"{APP}/o/{state.demo_org}/s/{cr['space']}/~/changes/{cr['number']}/")
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    assert (data["object"], data["id"], data["number"], data["subject"]) == (
        "change-request",
        cr["id"],
        cr["number"],
        cr["subject"],
    )
    assert "revisionInitial" in data and "revision_initial" not in data  # the service's names
    assert None not in data.values()  # (fields without a value are left out)
    assert err == ""  # stdout is not a terminal: no progress line


def test_show_a_published_page_without_json(
    sandbox: Any, state: SandboxState, capsys: pytest.CaptureFixture[str]
) -> None:
    space = next(
        s for s in state.spaces.values() if s["organization"] == state.demo_org and s["visibility"] == "public"
    )
    page = next(p for p in state.revisions[space["revision"]]["pages"] if p.get("type", "document") == "document")
    assert (
        cli.main(["show", f"{APP}/o/{state.demo_org}/s/{space['id']}/{page['slug']}", "--base-url", SANDBOX_URL]) == 0
    )
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"Page: {page['title']} ({page['id']})"
    assert f"page_id={page['id']}" in out


def test_show_keeps_hostile_text_off_the_terminal(
    sandbox: Any, state: SandboxState, capsys: pytest.CaptureFixture[str]
) -> None:
    org = state.demo_org
    state.orgs[org]["title"] = "Evil \x1b]52;c;ZXZpbA==\x07 \u202eco \x9b31m"
    assert show(f"{APP}/o/{org}/") == 0
    assert show("--json", f"{APP}/o/{org}/") == 0
    out = capsys.readouterr().out
    for forbidden in ("\x1b", "\x07", "\u202e", "\x9b"):
        assert forbidden not in out
    data = json.loads(out[out.index("{") :])
    assert data["title"] == state.orgs[org]["title"]  # the JSON still holds the text itself, escaped


def test_exit_codes(sandbox: Any, state: SandboxState, capsys: pytest.CaptureFixture[str]) -> None:
    assert show(f"{APP}/o/{state.demo_org}/nonsense/1") == 2
    assert "'nonsense' is not a part Folio knows after the organization id" in capsys.readouterr().err
    assert show(f"{APP}/o/{state.demo_org}/members") == 2
    assert "folio show reads one thing" in capsys.readouterr().err
    assert show("https://nowhere.example.com/docs") == 2
    assert "no published site or space" in capsys.readouterr().err
    assert show(f"{APP}/o/{state.demo_org}/s/no-such-space/") == 1
    assert "could not read it" in capsys.readouterr().err


def test_no_token_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", f"{APP}/o/x/"]) == 2
    assert "there is no GitBook token" in capsys.readouterr().err


def test_demo_show_reads_the_demo_data(capsys: pytest.CaptureFixture[str]) -> None:
    _, org = cli._demo_client()
    assert cli.main(["--demo", "show", "--json", "--fresh", f"{APP}/o/{org}/"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "Northwind Labs"


def test_a_url_as_the_only_argument_is_folio_open() -> None:
    url = f"{APP}/o/O1/"
    assert as_open([url]) == ["open", url]
    assert as_open(["--demo", "--profile", "work", url]) == ["--demo", "--profile", "work", "open", url]
    assert as_open(["--base-url", "https://x.test", "show", url]) == ["--base-url", "https://x.test", "show", url]
    assert as_open(["show", url]) == ["show", url]
    assert looks_like_url("app.gitbook.com/o/O1") and not looks_like_url("auth")


@pytest.mark.parametrize("argv", [["open", f"{APP}/o/O1/s/S1/intro"], [f"{APP}/o/O1/s/S1/intro"]])
def test_open_starts_the_tui_with_the_link(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[argparse.Namespace] = []

    def run_tui(args: argparse.Namespace, log: DebugLog | None) -> int:
        started.append(args)
        return 0

    monkeypatch.setattr(cli, "_run_tui", run_tui)
    assert cli.main(["--demo", *argv]) == 0
    assert [a.link for a in started] == [f"{APP}/o/O1/s/S1/intro"]


def test_open_a_bad_url_does_not_start_the_tui(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "_run_tui", lambda args, log: pytest.fail("the TUI was started"))
    assert cli.main(["--demo", "open", f"{APP}/o/O1/s/S1/~/changes/zero/"]) == 2
    assert "'zero' is not a change request number" in capsys.readouterr().err


def test_help_lists_open_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert "open " in out and "show " in out


def test_the_tui_is_given_the_link(monkeypatch: pytest.MonkeyPatch) -> None:
    """``folio URL`` reaches the app: ``FolioApp(link=URL)`` (the app opens it after its first frame)."""
    import folio.tui.app

    given: dict[str, Any] = {}

    class App:
        return_code = 0

        def __init__(self, services: Any, **kwargs: Any) -> None:
            self.services = services
            given.update(kwargs)

        async def run_async(self) -> None:
            return None

    monkeypatch.setattr(folio.tui.app, "FolioApp", App)
    url = f"{APP}/o/O1/s/S1/~/changes/3/"
    assert cli.main(["--demo", "--no-cache", url]) == 0
    assert given["link"] == url


def test_show_reads_the_cache_first_and_fresh_asks_the_service(
    sandbox: Any, state: SandboxState, capsys: pytest.CaptureFixture[str]
) -> None:
    org = state.demo_org
    space = next(s for s in state.spaces.values() if s["organization"] == org)
    url = f"{APP}/o/{org}/s/{space['id']}/"
    before = space["title"]
    assert show("--json", url) == 0
    assert json.loads(capsys.readouterr().out)["title"] == before
    space["title"] = "Renamed on the service"
    assert show("--json", url) == 0  # what was read before, from the account's cache
    assert json.loads(capsys.readouterr().out)["title"] == before
    assert show("--json", "--fresh", url) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "Renamed on the service"
    assert cli.main(["--no-cache", "show", "--json", url, "--base-url", SANDBOX_URL]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "Renamed on the service"
