"""The command line against the in-process sandbox: auth login, status and logout, the missing-token message,
the debug log that never holds the token, and the wiring of the TUI."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from folio import cli
from folio.config import paths
from folio.sandbox import SandboxState, SandboxTransport
from tests.conftest import SANDBOX_URL, TOKEN


@pytest.fixture
def sandbox(app: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every client the command line builds talks to the test's sandbox."""
    monkeypatch.setattr(cli, "transport_factory", lambda base_url: SandboxTransport(app))
    return app


class Typed:
    """What the user types at the hidden prompt, and the prompts shown."""

    def __init__(self) -> None:
        self.answer = TOKEN
        self.prompts: list[str] = []

    def getpass(self, prompt: str = "Password: ", stream: Any = None) -> str:
        self.prompts.append(prompt)
        return self.answer


@pytest.fixture
def typed(monkeypatch: pytest.MonkeyPatch) -> Typed:
    import getpass

    keyboard = Typed()
    monkeypatch.setattr(getpass, "getpass", keyboard.getpass)
    return keyboard


def _saved() -> dict[str, Any]:
    return tomllib.loads(paths().config_file.read_text())


def _refuse_all_but(state: SandboxState, token: str) -> None:
    state.tokens = {token: state.default_user}


# -- auth login ---------------------------------------------------------------------------------------------


def test_login_checks_the_token_then_saves_the_profile(
    sandbox: Any, typed: Typed, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["auth", "login", "--base-url", SANDBOX_URL])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Logged in as Ada Okafor <ada@northwind.dev>" in out
    assert "Saved profile 'default'" in out
    assert typed.prompts == ["GitBook API token for profile 'default' (input hidden): "]
    saved = _saved()
    assert saved["default_profile"] == "default"
    assert saved["profiles"]["default"] == {"base_url": SANDBOX_URL, "token": TOKEN}
    assert TOKEN not in out + err


def test_login_to_a_named_profile_keeps_the_others(sandbox: Any, typed: Typed) -> None:
    assert cli.main(["auth", "login", "--base-url", SANDBOX_URL]) == 0
    typed.answer = "gb_api_second_token"
    assert cli.main(["auth", "login", "--profile", "work", "--base-url", SANDBOX_URL]) == 0
    saved = _saved()
    assert saved["default_profile"] == "default"
    assert saved["profiles"]["default"]["token"] == TOKEN
    assert saved["profiles"]["work"]["token"] == "gb_api_second_token"


def test_a_refused_token_saves_nothing_and_says_why(
    sandbox: Any, state: SandboxState, typed: Typed, capsys: pytest.CaptureFixture[str]
) -> None:
    _refuse_all_but(state, "the-only-good-token")
    code = cli.main(["auth", "login", "--base-url", SANDBOX_URL])
    out, err = capsys.readouterr()
    assert code == 1
    assert "the service refused the token" in err
    assert "401" in err and "Nothing was saved" in err
    assert not paths().config_file.exists()
    assert TOKEN not in out + err
    assert "Traceback" not in err


def test_a_refused_token_leaves_an_existing_profile_alone(sandbox: Any, state: SandboxState, typed: Typed) -> None:
    assert cli.main(["auth", "login", "--base-url", SANDBOX_URL]) == 0
    before = paths().config_file.read_text()
    _refuse_all_but(state, TOKEN)
    typed.answer = "gb_api_wrong"
    assert cli.main(["auth", "login"]) == 1
    assert paths().config_file.read_text() == before


def test_an_empty_token_saves_nothing(sandbox: Any, typed: Typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed.answer = "   "
    assert cli.main(["auth", "login"]) == 1
    assert "no token was entered" in capsys.readouterr().err
    assert not paths().config_file.exists()


# -- auth status and logout ---------------------------------------------------------------------------------


def test_status_with_gitbook_token_and_no_file(
    sandbox: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    code = cli.main(["auth", "status", "--base-url", SANDBOX_URL])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Profile:  default (not saved)" in out
    assert f"Base URL: {SANDBOX_URL}" in out
    assert "Token:    from the GITBOOK_TOKEN environment variable" in out
    assert "Check:    works: signed in as Ada Okafor <ada@northwind.dev>" in out
    assert TOKEN not in out + err


def test_status_of_a_saved_profile_and_of_a_refused_token(
    sandbox: Any, state: SandboxState, typed: Typed, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["auth", "login", "--base-url", SANDBOX_URL]) == 0
    capsys.readouterr()
    assert cli.main(["auth", "status"]) == 0
    out = capsys.readouterr().out
    assert "Token:    from profile 'default'" in out and "works" in out
    _refuse_all_but(state, "another-token")
    assert cli.main(["auth", "status"]) == 1
    out, err = capsys.readouterr()
    assert "Check:    does not work: the service refused the token" in out
    assert TOKEN not in out + err


def test_status_without_a_token(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["auth", "status"]) == 1
    out = capsys.readouterr().out
    assert "Token:    none: no token is configured" in out
    assert "folio auth login" in out and "folio --demo" in out


def test_logout_removes_the_saved_token(sandbox: Any, typed: Typed, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["auth", "login", "--base-url", SANDBOX_URL]) == 0
    capsys.readouterr()
    assert cli.main(["auth", "logout"]) == 0
    assert "Removed the saved token of profile 'default'" in capsys.readouterr().out
    assert _saved()["profiles"]["default"] == {"base_url": SANDBOX_URL}
    assert cli.main(["auth", "logout"]) == 0
    assert "has no saved token" in capsys.readouterr().out
    assert cli.main(["auth", "status"]) == 1


# -- the TUI's wiring ---------------------------------------------------------------------------------------


def test_no_token_exits_2_and_says_how_to_log_in(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    out, err = capsys.readouterr()
    assert "there is no GitBook token to use (no token is configured)" in err
    assert "folio auth login" in err and "GITBOOK_TOKEN" in err and "folio --demo" in err
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--profile", "nope"], "There is no profile 'nope'"),
        (["--token", "t", "--base-url", "api.gitbook.com"], "not a usable base URL"),
        (["sandbox", "serve", "--faults", "meteor=1"], "unknown fault 'meteor'"),
        (["sandbox", "serve", "--port", "70000"], "not a port number"),
    ],
)
def test_bad_options_exit_2_in_words(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--demo"],
        ["--demo", "--offline", "--no-cache", "--debug"],
        ["--profile", "work"],
        ["--profile=work", "--base-url", "https://gitbook.example", "--token", "auth"],
        ["--token", "sandbox"],
    ],
)
def test_a_command_line_that_opens_the_tui_parses_alike_without_the_commands(argv: list[str]) -> None:
    """The commands' parsers are left out only where they change nothing: the same options, the same values."""
    assert cli._opens_the_tui(argv)
    assert cli.build_parser(commands=False).parse_args(argv) == cli.build_parser().parse_args(argv)


@pytest.mark.parametrize(
    "argv", [["auth", "status"], ["--demo", "cache", "info"], ["bogus"], ["--prof", "work"], ["-h"], ["--help"]]
)
def test_a_command_help_or_an_unknown_word_gets_the_whole_parser(argv: list[str]) -> None:
    assert not cli._opens_the_tui(argv)


def test_an_unknown_word_is_refused_with_the_commands_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["bogus"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'bogus'" in err and "'sandbox'" in err


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Instead of running the TUI, record what it was given and what its service reads."""
    from folio.tui.app import FolioApp

    seen: dict[str, Any] = {}

    async def fake_run(self: FolioApp, **kwargs: Any) -> None:
        seen["app"] = self
        seen["orgs"] = [org.title for org in await self.services.browse.organizations()]

    monkeypatch.setattr(FolioApp, "run_async", fake_run)
    return seen


def test_demo_opens_on_the_in_process_sandbox(opened: dict[str, Any]) -> None:
    assert cli.main(["--demo"]) == 0
    assert opened["orgs"][0] == "Northwind Labs"
    assert opened["app"].services.where == "the demo sandbox"


def test_a_token_opens_the_tui_with_the_profile(
    sandbox: Any, opened: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    assert cli.main(["--base-url", SANDBOX_URL]) == 0
    assert "Northwind Labs" in opened["orgs"]
    assert opened["app"].services.where == "sandbox.folio.test"


# -- the debug log ------------------------------------------------------------------------------------------


def test_debug_log_never_holds_the_token(
    sandbox: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], isolated_home: Path
) -> None:
    canary = "gb_api_canary_d3adb33f"
    monkeypatch.setenv("GITBOOK_TOKEN", canary)
    assert cli.main(["--debug", "auth", "status", "--base-url", SANDBOX_URL]) == 0
    out, err = capsys.readouterr()
    logs = list((isolated_home / "logs").glob("folio-*.log"))
    assert len(logs) == 1
    assert f"Debug log: {logs[0]}" in err
    text = logs[0].read_text()
    assert "GET /user -> 200" in text  # the client's requests were logged...
    assert canary not in text  # ...and the token was not
    assert canary not in out + err


def test_debug_log_hides_a_token_typed_at_login(
    sandbox: Any, typed: Typed, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import logging

    canary = "gb_api_typed_canary_0451"
    typed.answer = canary
    original = logging.Logger.debug

    def leaky(self: logging.Logger, msg: object, *args: object, **kw: Any) -> None:
        # As if some library logged the request headers: the filter must still mask them.
        original(self, msg, *args, **kw)
        if self.name == "folio.api":
            original(self, "headers: Authorization: Bearer %s; token=%s", canary, canary)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(logging.Logger, "debug", leaky)
        assert cli.main(["--debug", "auth", "login", "--base-url", SANDBOX_URL]) == 0
    out, err = capsys.readouterr()
    text = next((isolated_home / "logs").glob("folio-*.log")).read_text()
    assert "headers: Authorization: Bearer ****; token=****" in text
    assert canary not in text and canary not in out + err


def test_the_demo_ignores_a_broken_config(opened: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    paths().config_file.parent.mkdir(parents=True)
    paths().config_file.write_text("[profiles")
    assert cli.main(["--demo"]) == 0
    assert "not valid TOML" in capsys.readouterr().err
    assert opened["orgs"][0] == "Northwind Labs"


def test_login_with_no_input_at_all_saves_nothing(
    sandbox: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import getpass

    def closed_stdin(prompt: str = "", stream: Any = None) -> str:
        raise EOFError

    monkeypatch.setattr(getpass, "getpass", closed_stdin)
    assert cli.main(["auth", "login"]) == 1
    assert "no token was entered" in capsys.readouterr().err
    assert not paths().config_file.exists()


# -- secrets: the token on the command line, plain http (#24) --------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["--token", "t", "--base-url", "http://example.com"],
        ["--base-url", "http://10.0.0.5:8080", "auth", "status"],
        ["auth", "status", "--base-url", "http://api.example.org"],
    ],
)
def test_plain_http_to_another_machine_is_refused_without_insecure(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "is plain http to another machine" in err and "the token would travel unencrypted" in err
    assert "add --insecure if you mean it" in err and "Traceback" not in err


@pytest.mark.parametrize("url", ["http://127.0.0.1:8787", "http://localhost:8787", "http://[::1]:8787"])
def test_plain_http_to_this_machine_needs_no_flag(
    url: str, sandbox: Any, opened: dict[str, Any], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    assert cli.main(["--base-url", url]) == 0
    assert "Northwind Labs" in opened["orgs"]
    assert "plain http" not in capsys.readouterr().err


def test_insecure_lets_plain_http_through_with_a_warning(
    sandbox: Any, opened: dict[str, Any], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    assert cli.main(["--insecure", "--base-url", "http://gitbook.example"]) == 0
    assert "Northwind Labs" in opened["orgs"]
    assert "warning: gitbook.example is reached over plain http (--insecure)" in capsys.readouterr().err
    assert cli.main(["auth", "status", "--insecure", "--base-url", "http://gitbook.example"]) == 0
    assert "Check:    works" in capsys.readouterr().out


def test_token_dash_reads_the_token_from_stdin(
    sandbox: Any, opened: dict[str, Any], state: SandboxState, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    _refuse_all_but(state, "gb_api_from_stdin")
    monkeypatch.setattr("sys.stdin", io.StringIO("gb_api_from_stdin\n"))
    assert cli.main(["--token", "-", "--base-url", SANDBOX_URL]) == 0
    assert "Northwind Labs" in opened["orgs"]


def test_token_dash_at_a_terminal_asks_without_echo(
    sandbox: Any, typed: Typed, opened: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Terminal())
    assert cli.main(["--token", "-", "--base-url", SANDBOX_URL]) == 0
    assert typed.prompts == ["GitBook API token (input hidden): "]
    assert "Northwind Labs" in opened["orgs"]


def test_token_dash_with_nothing_entered_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["--token", "-"]) == 2
    assert "--token - was given, but no token was entered" in capsys.readouterr().err


def test_a_token_that_cannot_be_wiped_from_the_command_line_is_refused(
    opened: dict[str, Any], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from folio.config import process

    monkeypatch.setattr(process, "hide_argument", lambda secret: False)
    monkeypatch.setattr("sys.argv", ["folio", "--token", "gb_api_visible", "--demo"])
    assert cli.main() == 2
    err = capsys.readouterr().err
    assert "would leave the token readable by every user of this machine" in err
    assert "GITBOOK_TOKEN" in err and "--token -" in err and "folio auth login" in err
    assert "gb_api_visible" not in err and opened == {}


def test_help_says_how_the_token_is_kept_out_of_ps(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "'-' asks for it without showing it" in text
    assert "wiped from the process's command line" in text and "--insecure" in text


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc (Linux)")
def test_the_token_is_not_in_the_running_process_command_line(tmp_path: Path) -> None:
    """#24: ``folio --token X`` left the token in ``ps`` for the whole session. A real process, asked who the token
    belongs to, waits on a server that never answers; meanwhile its command line is read from /proc."""
    import os
    import socket
    import subprocess
    import sys

    secret = "gb_api_SECRET_in_argv_7f3a"
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        server.settimeout(60)  # a guard against a hang, not a timed assertion
        port = server.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if k != "GITBOOK_TOKEN"}
        env["FOLIO_HOME"] = str(tmp_path / "home")
        env["PYTHONPATH"] = str(Path(cli.__file__).parents[1])
        argv = [sys.executable, "-m", "folio", "--token", secret, "--base-url", f"http://127.0.0.1:{port}"]
        process = subprocess.Popen(
            [*argv, "auth", "status"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        try:
            connection, _ = server.accept()  # Folio is running, past its start, asking the service
            with connection:
                shown = Path(f"/proc/{process.pid}/cmdline").read_bytes()
        finally:
            process.kill()
            _, err = process.communicate()
    words = shown.split(b"\0")
    assert secret.encode() not in shown
    assert words[words.index(b"--token") + 1] == b"*" * len(secret)
    assert secret.encode() not in err
