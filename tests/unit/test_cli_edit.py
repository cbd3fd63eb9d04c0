"""``folio edit PAGE``: end to end against ``folio sandbox serve`` on a socket, with ``folio edit`` a child process
whose ``EDITOR`` is a script that appends a line (a page of the main content into a new change request, ``--cr``
into an existing one after a first run refused for want of a terminal, an unchanged text, an address that names no
page, a change request a colleague moved on meanwhile, then sent with ``--force``); and in this process against the
in-process sandbox: addresses and options refused before anything is read, no token, the question answered no, a
lost answer that did nothing, the diff coloured only on a terminal."""

from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from folio import cli, cli_edit
from folio.sandbox import SandboxState, SandboxTransport
from folio.sandbox.revisions import walk
from folio.services.review.diff import diff_markdown
from tests.conftest import SANDBOX_URL, TOKEN
from tests.sandbox import serving

LINE = "A line from the script."
EDITOR_SCRIPT = """\
import json, os, sys, urllib.request

colleague = os.environ.get("FOLIO_TEST_COLLEAGUE")
if colleague:  # someone changes the page while it is being edited
    spec = json.loads(colleague)
    request = urllib.request.Request(
        spec["url"], data=json.dumps(spec["body"]).encode(), method="POST",
        headers={"Authorization": "Bearer colleague", "Content-Type": "application/json"},
    )
    urllib.request.urlopen(request, timeout=30).read()
with open(sys.argv[-1], "a", encoding="utf-8") as handle:
    handle.write("\\n" + os.environ.get("FOLIO_TEST_LINE", "A line from the script.") + "\\n")
"""


@pytest.fixture
def editor(tmp_path: Path) -> str:
    """An ``EDITOR`` command that appends a line to the file (and, with FOLIO_TEST_COLLEAGUE, first posts a
    colleague's change)."""
    script = tmp_path / "append_line.py"
    script.write_text(EDITOR_SCRIPT, encoding="utf-8")
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


# --- against `folio sandbox serve` ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    """One server for the module's child processes (each test edits pages of its own)."""
    with serving.served() as url:
        yield url


class Api:
    """The served sandbox read over HTTP, as the checks need it."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=f"{url}/v1", headers={"Authorization": "Bearer checker"}, timeout=30)

    def get(self, path: str, **params: Any) -> Any:
        answer = self.http.get(path, params=params)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def space(self, title: str) -> dict[str, Any]:
        org = next(o for o in self.get("/orgs")["items"] if o["title"] == "Northwind Labs")
        return next(s for s in self.get(f"/orgs/{org['id']}/spaces", limit=100)["items"] if s["title"] == title)

    def page(self, space_id: str, path: str, cr: int | None = None) -> dict[str, Any]:
        where = f"/change-requests/{cr}/content" if cr is not None else "/content"
        listing = self.get(f"/spaces/{space_id}{where}/pages")
        found = next(p for p, _, _ in walk(listing["pages"]) if p.get("path") == path)
        return self.get(f"/spaces/{space_id}{where}/page/{found['id']}", format="markdown")  # type: ignore[no-any-return]

    def cr(self, space_id: str, number: int) -> dict[str, Any]:
        return self.get(f"/spaces/{space_id}/change-requests/{number}")  # type: ignore[no-any-return]

    def crs(self, space_id: str) -> list[int]:
        listed = f"/spaces/{space_id}/change-requests"
        statuses = ("draft", "open", "archived", "merged")
        return sorted(c["number"] for s in statuses for c in self.get(listed, status=s, limit=100)["items"])


@pytest.fixture
def api(served: str) -> Iterator[Api]:
    checker = Api(served)
    yield checker
    checker.http.close()


def edit(served: str, editor: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``folio edit ARGS`` in a child process, with no terminal (stdin closed) and the given environment."""
    return subprocess.run(
        [sys.executable, "-m", "folio", "edit", *args, "--base-url", served],
        env={**os.environ, "GITBOOK_TOKEN": "a-token", "EDITOR": editor, "PYTHONUNBUFFERED": "1", **env},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_page_of_the_main_content_goes_into_a_new_change_request(served: str, editor: str, api: Api) -> None:
    space = api.space("User Guide")
    before = api.page(space["id"], "fleets/channels")["markdown"]
    numbers = api.crs(space["id"])
    result = edit(served, editor, f"{space['id']}/fleets/channels", "--yes")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "--- Channels (the main content)" in lines and f"+{LINE}" in lines
    assert "\x1b" not in result.stdout  # no colour without a terminal
    (number,) = set(api.crs(space["id"])) - set(numbers)
    made = api.cr(space["id"], number)
    assert lines[-2] == f"Made change request #{number} “Edit Channels”."
    assert lines[-1] == made["urls"]["app"]
    assert api.page(space["id"], "fleets/channels", cr=number)["markdown"].rstrip().endswith(LINE)
    assert api.page(space["id"], "fleets/channels")["markdown"] == before  # the main content is as it was


def test_cr_sends_into_an_existing_change_request_once_confirmed(served: str, editor: str, api: Api) -> None:
    space = api.space("User Guide")
    url = f"{space['urls']['app'].rstrip('/')}/fleets/create-a-fleet"  # the page's address in the main content
    revision = api.cr(space["id"], 2)["revision"]
    refused = edit(served, editor, url, "--cr", "2")  # no terminal to confirm on, no --yes
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "this is not a terminal, so sending into change request #2 cannot be confirmed" in refused.stderr
    assert "Send it with --yes" in refused.stderr and "folio edit` of this page offers it again" in refused.stderr
    assert api.cr(space["id"], 2)["revision"] == revision  # nothing sent

    sent = edit(served, "true", url, "--cr", "2", "--yes")  # the kept edit is taken, sent as it is
    assert sent.returncode == 0, sent.stdout + sent.stderr
    assert "You have an unsent edit of “Create a fleet” (change request #2)" in sent.stderr
    assert sent.stdout.splitlines()[-2].startswith("Sent into change request #2 “")
    assert sent.stdout.splitlines()[-1] == api.cr(space["id"], 2)["urls"]["app"]
    markdown = api.page(space["id"], "fleets/create-a-fleet", cr=2)["markdown"]
    assert markdown.count(LINE) == 1

    again = edit(served, "true", url, "--cr", "2", "--yes")  # sent: no edit is kept any more, nothing to send
    assert again.returncode == 0 and "unsent edit" not in again.stderr
    assert again.stdout.strip() == cli_edit.NOTHING_CHANGED


def test_an_unchanged_text_sends_nothing(served: str, api: Api) -> None:
    space = api.space("User Guide")
    numbers, revision = api.crs(space["id"]), api.cr(space["id"], 2)["revision"]
    for page in (f"{space['id']}/fleets", f"{space['id']}/fleets --cr 2"):
        result = edit(served, "true", *page.split(), "--yes")
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stdout == cli_edit.NOTHING_CHANGED + "\n"
    assert api.crs(space["id"]) == numbers and api.cr(space["id"], 2)["revision"] == revision


def test_an_address_that_names_no_page_exits_2(served: str, editor: str, api: Api) -> None:
    space = api.space("User Guide")
    result = edit(served, editor, f"{space['urls']['app'].rstrip('/')}/~/changes/2/fleets/nope", "--yes")
    assert result.returncode == 2
    assert result.stderr.strip().endswith(
        f"No page “nope” under “fleets” in change request #2 of space {space['id']} “User Guide” "
        "(there: create-a-fleet, fleet-policies, channels)."
    )
    assert result.stdout == ""


def test_a_change_request_that_moved_on_is_refused_then_sent_with_force(served: str, editor: str, api: Api) -> None:
    space = api.space("User Guide")
    page = api.page(space["id"], "fleets/fleet-policies", cr=2)
    colleague = {
        "url": f"{served}/v1/spaces/{space['id']}/change-requests/2/content",
        "body": {
            "changes": [
                {
                    "operation": "update_page",
                    "page": page["id"],
                    "document": {"markdown": page["markdown"] + "\nA colleague's line.\n"},
                }
            ]
        },
    }
    address = f"{space['urls']['app'].rstrip('/')}/~/changes/2/fleets/fleet-policies"
    refused = edit(served, editor, address, "--yes", FOLIO_TEST_COLLEAGUE=json.dumps(colleague))
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert "Change request #2 moved on since you opened the page: someone changed this page." in refused.stderr
    assert "-A colleague's line." in refused.stderr.splitlines()  # their line, which yours would replace
    assert "pass --force to send anyway" in refused.stderr
    theirs = api.page(space["id"], "fleets/fleet-policies", cr=2)["markdown"]
    assert "A colleague's line." in theirs and LINE not in theirs  # never overwritten silently

    forced = edit(served, "true", address, "--yes", "--force")
    assert forced.returncode == 0, forced.stdout + forced.stderr
    assert "The page changed since that edit began" in forced.stderr
    mine = api.page(space["id"], "fleets/fleet-policies", cr=2)["markdown"]
    assert LINE in mine and "A colleague's line." not in mine


# --- in this process --------------------------------------------------------------------------------------------


@pytest.fixture
def sandbox(app: Any, monkeypatch: pytest.MonkeyPatch, editor: str) -> Any:
    """Every client the command line builds talks to the test's sandbox, with the test's token and the editor."""
    monkeypatch.setattr(cli, "transport_factory", lambda base_url: SandboxTransport(app))
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    monkeypatch.setenv("EDITOR", editor)
    return app


def run(*argv: str) -> int:
    return cli.main(["edit", *argv, "--base-url", SANDBOX_URL])


def _cr(state: SandboxState, subject: str = "Clarify Linux install steps") -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == subject)


def _path(state: SandboxState, revision: str, title: str) -> str:
    for page, _, path in walk(state.revisions[revision]["pages"]):
        if page.get("title") == title:
            return str(path)
    raise AssertionError(title)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["https://app.gitbook.com/integrations/slack"], "is not the address of a page in the app"),
        (["SPACE/page", "--cr", "2", "--subject", "New"], "--subject makes a new change request"),
        (["https://app.gitbook.com/o/O/s/SPACE/~/changes/3/page", "--cr", "4"], "change request #3 but --cr names 4"),
        (["SPACE/page", "--cr", "#"], "--cr needs a change request's number"),
        (["SPACE/page", "--subject", " "], "--subject: A subject says what the change is"),
        (["SPACE/page", "--subject", "x" * 101], "--subject: At most 100 characters; this has 101."),
    ],
)
def test_what_contradicts_or_cannot_be_read_exits_2_before_asking(
    argv: list[str], words: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "transport_factory", lambda base_url: pytest.fail("nothing is asked"))
    assert run(*argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and words in err


def test_a_subject_names_the_new_change_request(
    sandbox: Any, state: SandboxState, capsys: pytest.CaptureFixture[str]
) -> None:
    space = next(s for s in state.spaces.values() if s["title"] == "User Guide")
    before = set(state.change_requests)
    assert run(f"{space['id']}/fleets", "--subject", "Fleets: one more line", "--yes") == 0
    out = capsys.readouterr().out
    (made,) = (state.change_requests[i] for i in set(state.change_requests) - before)
    assert made["subject"] == "Fleets: one more line"
    assert out.splitlines()[-2] == f"Made change request #{made['number']} “Fleets: one more line”."
    fleets = next(p for p, _, _ in walk(state.revisions[made["revision"]]["pages"]) if p.get("title") == "Fleets")
    assert fleets["markdown"].rstrip().endswith(LINE)


def test_demo_edits_a_new_sandbox_of_the_demo_data(editor: str, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    from folio.sandbox import create_app

    space = next(s for s in create_app().state.sandbox.spaces.values() if s["title"] == "User Guide")
    monkeypatch.setenv("EDITOR", editor)
    assert cli.main(["edit", "--demo", f"{space['id']}/fleets/channels", "--yes"]) == 0
    out, err = capsys.readouterr()
    assert "The demo sandbox (--demo): nothing sent here is kept" in err
    assert out.splitlines()[-2].startswith("Made change request #") and "“Edit Channels”" in out


def test_the_default_subject_fits() -> None:
    assert cli_edit._default_subject("Channels") == "Edit Channels"
    long = cli_edit._default_subject("t" * 200)
    assert len(long) == 100 and long.endswith("…")


def test_no_token_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("SPACE/page") == 2
    assert "there is no GitBook token to use" in capsys.readouterr().err


def test_no_at_the_question_keeps_the_edit_for_next_time(
    sandbox: Any, state: SandboxState, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cr = _cr(state)
    revision, path = cr["revision"], _path(state, cr["revision"], "Linux")
    monkeypatch.setattr(cli_edit, "_interactive", lambda: True)
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n"))
    assert run(f"{cr['space']}/{path}", "--cr", str(cr["number"])) == 1
    out, err = capsys.readouterr()
    assert f"Send into change request #{cr['number']}? [y/N] " in err
    assert "Not sent. Your edit is kept" in err and f"+{LINE}" in out
    assert state.change_requests[cr["id"]]["revision"] == revision

    monkeypatch.setattr(sys, "stdin", io.StringIO("\ny\n"))  # the kept edit taken (Y is the default), then sent
    monkeypatch.setenv("EDITOR", "true")
    assert run(f"{cr['space']}/{path}", "--cr", str(cr["number"])) == 0
    out, err = capsys.readouterr()
    assert "Continue your unsent edit? [Y/n] " in err
    assert out.splitlines()[-2] == f"Sent into change request #{cr['number']} “{cr['subject']}”."
    after = state.change_requests[cr["id"]]["revision"]
    linux = next(p for p, _, _ in walk(state.revisions[after]["pages"]) if p.get("title") == "Linux")
    assert linux["markdown"].count(LINE) == 1


def test_an_unsent_edit_set_aside_is_written_to_a_file(
    sandbox: Any, state: SandboxState, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cr = _cr(state)
    page = f"{cr['space']}/{_path(state, cr['revision'], 'Linux')}"
    assert run(page, "--cr", str(cr["number"])) == 2  # no terminal: kept
    capsys.readouterr()
    monkeypatch.setattr(cli_edit, "_interactive", lambda: True)
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n"))
    monkeypatch.setenv("EDITOR", "true")
    assert run(page, "--cr", str(cr["number"])) == 0  # from the page as it is: unchanged
    out, err = capsys.readouterr()
    aside = err.split("Your unsent edit is set aside in ", 1)[1].split(";", 1)[0]
    try:
        assert Path(aside).read_text(encoding="utf-8").rstrip().endswith(LINE)
    finally:
        Path(aside).unlink()
    assert out == cli_edit.NOTHING_CHANGED + "\n"


def test_a_lost_answer_that_did_nothing_exits_1_and_keeps_the_edit(
    sandbox: Any, state: SandboxState, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from folio.api import errors
    from folio.api.resources.change_requests import ChangeRequestsResource

    async def lost(*args: Any, **kwargs: Any) -> Any:
        raise errors.TransportError("connection reset")

    monkeypatch.setattr(ChangeRequestsResource, "update_content", lost)
    cr = _cr(state)
    assert run(f"{cr['space']}/{_path(state, cr['revision'], 'Linux')}", "--cr", str(cr["number"]), "--yes") == 1
    err = capsys.readouterr().err
    assert "The answer was lost; the page “Linux” in change request" in err and "it was not done" in err
    assert "Your edit is kept" in err


def test_the_diff_is_coloured_only_on_a_terminal_and_never_carries_escapes() -> None:
    diff = diff_markdown("a\nkeep\n", "a\nkeep\nnew \x1b]0;title\x07line\twith tab\n")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    plain, terminal = io.StringIO(), Terminal()
    cli_edit._print_diff(diff, "before", "after", out=plain)
    cli_edit._print_diff(diff, "before", "after", out=terminal)
    assert "\x1b" not in plain.getvalue()
    assert "+new line\twith tab" in plain.getvalue().splitlines()
    assert "\x1b[32m+new line\twith tab\x1b[0m" in terminal.getvalue()
    assert "\x1b]" not in terminal.getvalue()
