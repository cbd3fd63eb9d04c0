"""``folio conversations ingest FILE.json`` against the in-process sandbox: every conversation sent (exit 0), a bad
item reported with its field and problem while the good ones still go (exit 1), an unreadable file (exit 2, nothing
sent), the organization found from --org, the profile or the only one, and a service without conversations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from folio import cli
from folio.config import paths
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.faults import Faults
from folio.services.insights.conversations import CONFIRM_ABOVE
from tests.conftest import SANDBOX_URL, TOKEN
from tests.services.test_conversations_service import WithoutConversations

GOOD = {
    "id": "zendesk-9001",
    "subject": "Export to PDF loses images",
    "metadata": {"url": "https://zendesk.example.com/9001", "attributes": {"plan": "pro"}},
    "parts": [{"role": "user", "body": "My PDF export has no images."}, {"role": "assistant", "body": "Noted."}],
}
ALSO_GOOD = {"subject": "Search cannot find new pages", "parts": [{"body": "Search does not find my new page."}]}
BAD = {"subject": "Missing its parts"}


@pytest.fixture
def sandbox(app: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every client the command line builds talks to the test's sandbox, with the test's token."""
    monkeypatch.setattr(cli, "transport_factory", lambda base_url: SandboxTransport(app))
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    return app


def conversations_file(tmp_path: Path, content: Any, name: str = "conversations.json") -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def subjects(state: SandboxState) -> list[str]:
    return [c.get("subject") or "" for c in state.conversations.values() if c["organization"] == state.demo_org]


def ingest(*argv: str) -> int:
    return cli.main(["conversations", "ingest", *argv, "--base-url", SANDBOX_URL])


def test_every_conversation_sent_exits_0(
    sandbox: Any, state: SandboxState, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = len(state.conversations)
    code = ingest(conversations_file(tmp_path, [GOOD, ALSO_GOOD]), "--org", state.demo_org)
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert out.splitlines() == [
        f"Sending 2 conversations to organization {state.demo_org}:",
        "  sent     1. Export to PDF loses images",
        "  sent     2. Search cannot find new pages",
        "All 2 conversations sent.",
    ]
    assert len(state.conversations) == before + 2
    sent = next(
        c for c in state.conversations.values() if c.get("externalId") == "zendesk-9001" or c["id"] == "zendesk-9001"
    )
    assert sent["subject"] == "Export to PDF loses images" and len(sent["parts"]) == 2


def test_one_object_is_one_conversation(
    sandbox: Any, state: SandboxState, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert ingest(conversations_file(tmp_path, ALSO_GOOD), "--org", state.demo_org) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "The conversation was sent."
    assert "Search cannot find new pages" in subjects(state)


def test_a_bad_item_is_reported_and_the_good_ones_still_go(
    sandbox: Any, state: SandboxState, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_part = {"subject": "Body is a number", "parts": [{"role": "user", "body": 42}]}
    items = [GOOD, BAD, 7, bad_part, ALSO_GOOD]
    code = ingest(conversations_file(tmp_path, items), "--org", state.demo_org)
    out, err = capsys.readouterr()
    assert code == 1, out + err
    assert out.splitlines()[1:] == [
        "  sent     1. Export to PDF loses images",
        "  refused  2. Missing its parts: parts: Field required",
        "  refused  3. item 3: conversation: must be an object, not a number",
        "  refused  4. Body is a number: parts[0].body: must be text or a rich-text document (an object)",
        "  sent     5. Search cannot find new pages",
        "2 of 5 conversations sent, 3 refused.",
    ]
    shown = subjects(state)
    assert "Export to PDF loses images" in shown and "Search cannot find new pages" in shown
    assert "Missing its parts" not in shown and "Body is a number" not in shown


def test_what_the_service_refuses_is_reported_per_item(
    sandbox: Any, state: SandboxState, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A reader may not ingest: the service says so for each item, in its own words."""
    state.members[state.demo_org][state.default_user]["role"] = "read"
    code = ingest(conversations_file(tmp_path, [GOOD]), "--org", state.demo_org)
    out, _ = capsys.readouterr()
    assert code == 1
    line = out.splitlines()[1]
    assert line.startswith("  refused  1. Export to PDF loses images: ") and "(403)" in line
    assert "Export to PDF loses images" not in subjects(state)


def test_lost_answers_are_looked_for_and_each_conversation_made_once(
    state: SandboxState, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    faulty = create_app(state, faults=Faults(drop_after_write=1.0))  # every ingest done, every answer lost
    monkeypatch.setattr(cli, "transport_factory", lambda base_url: SandboxTransport(faulty))
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    before = len(state.conversations)
    code = ingest(conversations_file(tmp_path, [GOOD, ALSO_GOOD]), "--org", state.demo_org)
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert out.splitlines()[1:] == [
        "  sent     1. Export to PDF loses images: the answer was lost; Folio checked: it arrived, once",
        "  sent     2. Search cannot find new pages: the answer was lost; Folio checked: it arrived, once",
        "All 2 conversations sent.",
    ]
    assert len(state.conversations) == before + 2
    assert subjects(state).count("Export to PDF loses images") == 1


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "no such file"),
        ("{not json", "is not JSON"),
        ("42", "holds a number: expected a conversation object or a list of them"),
    ],
)
def test_an_unreadable_file_exits_2_and_sends_nothing(
    sandbox: Any,
    state: SandboxState,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    content: str | None,
    problem: str,
) -> None:
    path = str(tmp_path / "absent.json") if content is None else conversations_file(tmp_path, content)
    before = len(state.hits)
    code = ingest(path, "--org", state.demo_org)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith(f"folio: cannot read the conversations file {path}: {problem}")
    assert err.rstrip().endswith("Nothing was sent.")
    assert len(state.hits) == before  # not even a request


@pytest.mark.parametrize(("opening", "closing"), [("[", "]"), ('{"a":', "}")])
def test_a_file_nested_ten_thousand_levels_deep_is_refused_clearly(
    sandbox: Any,
    state: SandboxState,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    opening: str,
    closing: str,
) -> None:
    path = conversations_file(tmp_path, opening * 10_000 + "1" + closing * 10_000)
    before = len(state.hits)
    code = ingest(path, "--org", state.demo_org)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith(f"folio: cannot read the conversations file {path}: is nested too deeply to read")
    assert err.rstrip().endswith("Nothing was sent.") and "Traceback" not in err
    assert len(state.hits) == before


def test_more_than_the_threshold_is_counted_and_needs_yes(
    sandbox: Any, state: SandboxState, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    many = [{"subject": f"Bulk {n}", "parts": [{"body": f"Item {n}"}]} for n in range(CONFIRM_ABOVE + 1)]
    path = conversations_file(tmp_path, many)
    before, hits = len(state.conversations), len(state.hits)
    code = ingest(path, "--org", state.demo_org)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.strip() == (
        f"folio: {path} holds {CONFIRM_ABOVE + 1} conversations: more than {CONFIRM_ABOVE} are sent only with "
        "--yes. Nothing was sent."
    )
    assert len(state.conversations) == before and len(state.hits) == hits
    assert ingest(path, "--org", state.demo_org, "--yes") == 0
    out, _ = capsys.readouterr()
    assert out.splitlines()[0] == f"Sending {CONFIRM_ABOVE + 1} conversations to organization {state.demo_org}:"
    assert len(state.conversations) == before + CONFIRM_ABOVE + 1


def test_the_threshold_itself_needs_no_yes(
    sandbox: Any, state: SandboxState, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    many = [{"subject": f"Bulk {n}", "parts": [{"body": f"Item {n}"}]} for n in range(CONFIRM_ABOVE)]
    assert ingest(conversations_file(tmp_path, many), "--org", state.demo_org) == 0
    assert capsys.readouterr().out.startswith(f"Sending {CONFIRM_ABOVE} conversations")


def test_demo_sends_to_the_demo_sandbox_without_a_token(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["--demo", "conversations", "ingest", conversations_file(tmp_path, [GOOD])])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    lines = out.splitlines()
    assert lines[0] == "The demo sandbox (--demo): nothing sent here is kept after this command."
    assert lines[1].startswith("Sending 1 conversation to organization ")
    assert lines[2:] == ["  sent     1. Export to PDF loses images", "The conversation was sent."]
    assert "token" not in err


def test_the_organization_from_the_profile(
    sandbox: Any, state: SandboxState, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = paths().config_file
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f'default_profile = "work"\n\n[profiles.work]\norganization = "{state.demo_org}"\n')
    config.chmod(0o600)
    assert ingest(conversations_file(tmp_path, [ALSO_GOOD])) == 0
    assert f"to organization {state.demo_org}:" in capsys.readouterr().out


def test_several_organizations_need_org(
    sandbox: Any, state: SandboxState, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = [o for o in state.orgs if state.default_user in state.members[o]]
    assert len(mine) > 1
    code = ingest(conversations_file(tmp_path, [ALSO_GOOD]))
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith(f"folio: give --org: you belong to {len(mine)} organizations: ")
    assert all(o in err for o in mine)


def test_the_only_organization_is_used(
    sandbox: Any, state: SandboxState, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for org in state.orgs:
        if org != state.demo_org:
            state.members[org].pop(state.default_user, None)
    assert ingest(conversations_file(tmp_path, [ALSO_GOOD])) == 0
    assert f"to organization {state.demo_org}:" in capsys.readouterr().out


def test_no_token_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = ingest(conversations_file(tmp_path, [GOOD]), "--org", "org-1")
    assert code == 2
    assert "there is no GitBook token to use" in capsys.readouterr().err


def test_a_service_without_conversations(
    state: SandboxState, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        cli, "transport_factory", lambda base_url: WithoutConversations(SandboxTransport(create_app(state)))
    )
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    code = ingest(conversations_file(tmp_path, [GOOD, ALSO_GOOD]), "--org", state.demo_org)
    out, _ = capsys.readouterr()
    assert code == 1
    assert out.splitlines()[1:] == [
        "  refused  1. Export to PDF loses images: This service does not offer conversations.",
        "  refused  2. Search cannot find new pages: This service does not offer conversations.",
        "0 of 2 conversations sent, 2 refused.",
    ]


def test_labels_from_the_file_are_printed_safely(
    sandbox: Any, state: SandboxState, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sneaky = {"subject": "Red\x1b[31m alert\x07\u202e", "parts": [{"body": "x"}]}
    assert ingest(conversations_file(tmp_path, [sneaky]), "--org", state.demo_org) == 0
    out = capsys.readouterr().out
    assert "  sent     1. Red alert\n" in out and "\x1b" not in out and "\u202e" not in out
