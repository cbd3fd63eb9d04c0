"""``--demo`` on the subcommands that talk to the service: ``auth status`` checks the demo's own sign-in on the
built-in sandbox (no token, no profile); ``auth login`` and ``logout`` say there is nothing to do for the demo."""

from __future__ import annotations

import pytest

from folio import cli


def test_auth_status_with_demo_needs_no_token(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["--demo", "auth", "status"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    lines = out.splitlines()
    assert lines[0] == "Profile:  demo (--demo: the built-in sandbox, no account; nothing is saved)"
    assert lines[1] == f"Base URL: {cli.DEMO_BASE_URL} (in this process)"
    assert lines[-1].startswith("Check:    works: signed in as ")
    assert "no GitBook token" not in out + err and cli.DEMO_TOKEN not in out + err


@pytest.mark.parametrize("action", ["login", "logout"])
def test_login_and_logout_with_demo_say_there_is_nothing_to_do(action: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["--demo", "auth", action])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith(f"folio: --demo uses the built-in sandbox and needs no token: there is nothing to {action}")
