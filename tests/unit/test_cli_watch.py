"""``folio watch`` against the in-process sandbox: ``--once`` looks once (a first look announces nothing and says
so), a review request made on the sandbox is then printed once, and not again by a later run (the state database
under FOLIO_HOME remembers it); ``--demo --once`` prints the demo teammate's request; server text reaches stdout
without escape sequences; ctrl+c exits 0; a too short interval is a usage error; the terminal notification fits
the terminal."""

from __future__ import annotations

from typing import Any

import pytest

from folio import cli
from folio.sandbox import SandboxState, SandboxTransport
from folio.sandbox.domain.reviews import request_review
from folio.services.review.inbox_watch import InboxWatch, terminal_notification
from tests.conftest import SANDBOX_URL, TOKEN


@pytest.fixture
def sandbox(app: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every client the command line builds talks to the test's sandbox, with the test's token."""
    monkeypatch.setattr(cli, "transport_factory", lambda base_url: SandboxTransport(app))
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    return app


def watch_once(*argv: str) -> int:
    return cli.main(["watch", "--once", *argv, "--base-url", SANDBOX_URL])


def ask_ada(state: SandboxState, subject: str) -> None:
    record = next(c for c in state.change_requests.values() if c["subject"] == subject)
    emeka = next(uid for uid, u in state.users.items() if u["email"].startswith("emeka@"))
    request_review(state, record, state.default_user, emeka)


def test_once_seeds_then_prints_a_review_request_once_across_runs(
    sandbox: Any, state: SandboxState, capsys: pytest.CaptureFixture[str]
) -> None:
    assert watch_once() == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert "First look at 2 organizations" in err

    ask_ada(state, "Remove the deprecated Rollouts API page")
    assert watch_once() == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 1 and err == ""
    assert lines[0].startswith("Review asked of you by Emeka Nwosu: #2 Remove the deprecated Rollouts API page")

    assert watch_once() == 0  # a new process, the same state database: said once only
    assert capsys.readouterr().out == ""


def test_server_text_is_printed_without_escape_sequences(
    sandbox: Any, state: SandboxState, capsys: pytest.CaptureFixture[str]
) -> None:
    assert watch_once() == 0
    record = next(c for c in state.change_requests.values() if c["subject"] == "December 2026 release notes")
    record["subject"] = "Notes\x1b]0;owned\x07\x1b[2J here"
    ask_ada(state, "Notes\x1b]0;owned\x07\x1b[2J here")
    capsys.readouterr()
    assert watch_once() == 0
    out = capsys.readouterr().out
    assert "#1 Notes here" in out and "\x1b" not in out and "\x07" not in out


def test_demo_once_prints_the_teammates_request(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["watch", "--demo", "--once"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        line for line in out.splitlines() if line.startswith("Review asked of you by Emeka Nwosu: #2 Remove")
    ]
    assert len(out.splitlines()) == 1
    assert "demo sandbox" in err


def test_ctrl_c_exits_0(sandbox: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    async def interrupted(self: InboxWatch) -> list[Any]:
        raise KeyboardInterrupt

    monkeypatch.setattr(InboxWatch, "poll", interrupted)
    assert cli.main(["watch", "--base-url", SANDBOX_URL]) == 0
    assert "Stopped watching." in capsys.readouterr().err


def test_a_too_short_interval_and_no_token_are_usage_errors(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    assert cli.main(["watch", "--interval", "5", "--base-url", SANDBOX_URL]) == 2
    assert "at least 15 seconds" in capsys.readouterr().err
    monkeypatch.delenv("GITBOOK_TOKEN")
    assert cli.main(["watch", "--once"]) == 2
    assert "no GitBook token" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"TERM_PROGRAM": "iTerm.app"}, "\x1b]9;Folio: Review asked: #1 x\x07"),
        ({"TERM_PROGRAM": "WezTerm"}, "\x1b]9;Folio: Review asked: #1 x\x07"),
        ({"WT_SESSION": "1"}, "\x1b]9;Folio: Review asked: #1 x\x07"),
        ({"TERM": "xterm-kitty"}, "\x1b]99;;Folio: Review asked: #1 x\x1b\\"),
        ({"VTE_VERSION": "7600", "TERM": "xterm-256color"}, "\x1b]777;notify;Folio;Review asked: #1 x\x07"),
        ({"TERM_PROGRAM": "iTerm.app", "TMUX": "/tmp/tmux"}, "\a"),
        ({"TERM": "xterm-256color"}, "\a"),
    ],
)
def test_the_terminal_notification_fits_the_terminal(environ: dict[str, str], expected: str) -> None:
    assert terminal_notification("Folio", "Review asked:\x1b]0;x\x07 #1\n x", environ) == expected


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ("", 60.0),
        ("[inbox]\ninterval = 90", 90.0),
        ("[inbox]\nwatch = false", None),
        ("[inbox]\ninterval = 1", 60.0),  # a bad [inbox] does not stop the start (:inbox says what is wrong)
    ],
)
def test_the_tui_watches_at_the_configured_interval(tmp_path: Any, toml: str, expected: float | None) -> None:
    from folio.cli_tui import _inbox_watch
    from folio.config.settings import Settings

    path = tmp_path / "config.toml"
    path.write_text(toml)
    assert _inbox_watch(Settings.load(path)) == expected
