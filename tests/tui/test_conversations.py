"""The conversations screen and one conversation's screen, driven by keys over the seeded sandbox: the list and its
source filter, a conversation opened (its parts made safe, its metadata, its issues and their cluster), a file
ingested through ``i`` (a bad item reported, the good ones in the sandbox), an unreadable file keeping the form,
and a service without conversations saying so."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Static

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.domain.conversations import ingest_conversation
from folio.sandbox.faults import Faults
from folio.services import Services
from folio.services.insights.conversations import CONFIRM_ABOVE, NOT_OFFERED
from folio.tui.app import FolioApp
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.ingest import IngestModal, IngestReportModal
from folio.tui.screens.insights.cluster import ClusterScreen
from folio.tui.screens.insights.clusters import ClustersScreen
from folio.tui.screens.insights.conversation import ConversationScreen
from folio.tui.screens.insights.conversations import ConversationsScreen
from folio.tui.widgets.resource_browser import ResourceBrowser
from tests.conftest import SANDBOX_URL, TOKEN
from tests.tui.conftest import settle
from tests.tui.test_clusters import bare_services

LOGIN_LOOP = "Stuck in a login loop"


def conversations(services: Services, state: SandboxState) -> Callable[[], ConversationsScreen]:
    return lambda: ConversationsScreen(services, state.demo_org, trail=("Northwind Labs",))


def conversation_id(state: SandboxState, subject: str) -> str:
    return str(next(c["id"] for c in state.conversations.values() if c["subject"] == subject))


def rows(browser: ResourceBrowser) -> list[list[str]]:
    return [[c if isinstance(c, str) else c.plain for c in r.cells] for r in browser.list.visible_rows]


def text_of(widget: Static) -> str:
    return str(widget.render())


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await settle(pilot)


def sources(state: SandboxState) -> list[str]:
    return sorted({c["source"] for c in state.conversations.values() if c["organization"] == state.demo_org})


# --- the list ---------------------------------------------------------------------------------------------------


async def test_conversations_are_listed(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(conversations(services, state)) as (app, _pilot):
        screen = app.screen
        assert isinstance(screen, ConversationsScreen)
        shown = rows(screen.panel.browser)
        assert len(shown) == 13
        login = next(r for r in shown if r[0] == LOGIN_LOOP)
        assert login[1:3] == ["intercom", "low"]
        assert login[3].endswith("ago") and login[4].endswith("ago")
        assert screen.panel.known_sources == set(sources(state))


async def test_filter_by_source_cycles(services: Services, state: SandboxState, open_app: Any) -> None:
    every = sources(state)
    assert every == ["docs-assistant", "intercom", "slack", "zendesk"]
    async with open_app(conversations(services, state)) as (app, pilot):
        panel = app.screen.panel
        hint = panel.query_one(".resource-panel--hint", Static)
        assert text_of(hint).startswith("All sources (f shows docs-assistant)")
        for source in every:
            await keys(pilot, "f")
            assert panel.source == source
            shown = rows(panel.browser)
            expected = [c for c in state.conversations.values() if c["source"] == source]
            assert shown and len(shown) == len(expected) and {r[1] for r in shown} == {source}
            assert text_of(hint).startswith(f"Source: {source} (f shows ")
        await keys(pilot, "f")
        assert panel.source is None and len(rows(panel.browser)) == 13


# --- one conversation ----------------------------------------------------------------------------------------


async def test_a_conversation_opens_with_its_parts_metadata_and_issues(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    cid = conversation_id(state, LOGIN_LOOP)
    async with open_app(conversations(services, state)) as (app, pilot):
        assert app.screen.panel.browser.list.move_to(cid)
        await keys(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, ConversationScreen) and screen.conversation_id == cid
        assert screen.trail == ("Northwind Labs", "Conversations", LOGIN_LOOP)
        assert text_of(screen.query_one("#conversation-title", Static)) == LOGIN_LOOP
        facts = text_of(screen.query_one("#conversation-facts", Static))
        assert "source intercom" in facts and "low impact" in facts and "2 parts" in facts
        roles = [text_of(s) for s in screen.query(".part--role").results(Static)]
        bodies = [text_of(s) for s in screen.query(".part--body").results(Static)]
        assert roles == ["user", "assistant"]
        assert bodies[0] == "After the Okta redirect I land on the login page again, forever."
        await keys(pilot, "2")
        metadata = {r[0]: r[1] for r in rows(screen.metadata_list)}
        assert metadata["URL"] == "https://intercom.example.com/conversations/1000"
        assert metadata["source"] == "intercom" and metadata["plan"] == "pro"
        await keys(pilot, "3")
        issues = rows(screen.issues_list)
        assert len(issues) == 1 and issues[0][2] == "Login loops after SSO redirect"
        await keys(pilot, "enter")
        assert isinstance(app.screen, ClusterScreen)
        assert state.clusters[app.screen.cluster_id]["label"] == "Login loops after SSO redirect"


async def test_parts_are_shown_as_text_never_as_markup(services: Services, state: SandboxState, open_app: Any) -> None:
    body = {
        "subject": "[bold]Loud[/bold] \x1b]8;;https://evil.test\x07link\x1b]8;;\x07",
        "parts": [{"type": "message", "role": "user", "body": "[@click=app.quit]Quit[/]\x1b[31m red\u202e"}],
    }
    ingest_conversation(state, state.demo_org, body)
    cid = conversation_id(state, body["subject"])  # type: ignore[arg-type]
    start = lambda: ConversationScreen(services, state.demo_org, cid)  # noqa: E731
    async with open_app(start) as (app, _pilot):
        screen = app.screen
        assert text_of(screen.query_one("#conversation-title", Static)) == "[bold]Loud[/bold] link"
        assert [text_of(s) for s in screen.query(".part--body").results(Static)] == ["[@click=app.quit]Quit[/] red"]
        assert app.is_running


# --- ingesting ----------------------------------------------------------------------------------------------


async def test_ingest_a_file_through_the_screen(
    services: Services, state: SandboxState, open_app: Any, tmp_path: Path
) -> None:
    path = tmp_path / "export.json"
    good = {"subject": "Dark mode toggle missing", "parts": [{"role": "user", "body": "Where is dark mode?"}]}
    path.write_text(json.dumps([good, {"subject": "No parts here"}]))
    before = len(state.conversations)
    async with open_app(conversations(services, state)) as (app, pilot):
        await keys(pilot, "i")
        modal = app.screen
        assert isinstance(modal, IngestModal)
        await pilot.press(*str(tmp_path / "nope.json"))
        await settle(pilot)
        assert "No such file." in modal.problem_text
        modal.query_one("#field-path", Input).value = str(path)
        await keys(pilot, "ctrl+s")
        report = app.screen
        assert isinstance(report, IngestReportModal)
        assert text_of(report.query_one(".ingest-report--title", Static)) == "1 of 2 conversations sent, 1 refused."
        assert report.lines == [
            "sent    1. Dark mode toggle missing",
            "refused 2. No parts here — parts: Field required",
        ]
        assert len(state.conversations) == before + 1
        assert "Dark mode toggle missing" in [c["subject"] for c in state.conversations.values()]
        await keys(pilot, "escape")
        screen = app.screen
        assert isinstance(screen, ConversationsScreen)
        assert "Dark mode toggle missing" in [r[0] for r in rows(screen.panel.browser)]


async def test_an_unreadable_file_keeps_the_form(
    services: Services, state: SandboxState, open_app: Any, tmp_path: Path
) -> None:
    path = tmp_path / "broken.json"
    path.write_text("[{")
    before = len(state.conversations)
    async with open_app(conversations(services, state)) as (app, pilot):
        await keys(pilot, "i")
        modal = app.screen
        assert isinstance(modal, IngestModal)
        modal.query_one("#field-path", Input).value = str(path)
        await keys(pilot, "ctrl+s")
        assert app.screen is modal
        assert modal.query_one("#field-path", Input).value == str(path)
        assert f"Nothing was sent: {path}: is not JSON" in modal.problem_text
        assert len(state.conversations) == before


async def asked(pilot: Pilot[None], key: str) -> ConfirmModal:
    """Press ``key`` and wait for the question it asks (the send waits for the answer, so its worker is not done:
    :func:`settle` would wait for it)."""
    await pilot.press(key)
    for _ in range(200):
        if isinstance(pilot.app.screen, ConfirmModal):
            return pilot.app.screen
        await pilot.pause()
    raise AssertionError(f"no question after {key}: {pilot.app.screen!r}")


async def test_a_large_file_is_counted_and_sent_only_once_confirmed(
    services: Services, state: SandboxState, open_app: Any, tmp_path: Path
) -> None:
    path = tmp_path / "bulk.json"
    count = CONFIRM_ABOVE + 1
    path.write_text(json.dumps([{"subject": f"Bulk {n}", "parts": [{"body": f"Item {n}"}]} for n in range(count)]))
    before = len(state.conversations)
    async with open_app(conversations(services, state)) as (app, pilot):
        await keys(pilot, "i")
        modal = app.screen
        assert isinstance(modal, IngestModal)
        modal.query_one("#field-path", Input).value = str(path)
        question = await asked(pilot, "ctrl+s")
        assert question.title_text.plain == f"Send {count} conversations?"
        assert f"holds {count} conversations, more than {CONFIRM_ABOVE}" in question.body_text.plain
        await keys(pilot, "n")
        assert app.screen is modal and len(state.conversations) == before  # nothing sent
        assert f"Nothing was sent: the {count} conversations of the file were not confirmed" in modal.problem_text
        assert modal.query_one("#field-path", Input).value == str(path)
        await asked(pilot, "ctrl+s")
        await keys(pilot, "y")
        report = app.screen
        assert isinstance(report, IngestReportModal)
        assert text_of(report.query_one(".ingest-report--title", Static)) == f"All {count} conversations sent."
        assert len(state.conversations) == before + count


async def test_a_deeply_nested_file_is_refused_and_keeps_the_form(
    services: Services, state: SandboxState, open_app: Any, tmp_path: Path
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 10_000 + "]" * 10_000)
    before = len(state.conversations)
    async with open_app(conversations(services, state)) as (app, pilot):
        await keys(pilot, "i")
        modal = app.screen
        assert isinstance(modal, IngestModal)
        modal.query_one("#field-path", Input).value = str(path)
        await keys(pilot, "ctrl+s")
        assert app.screen is modal and app.is_running
        assert f"Nothing was sent: {path}: is nested too deeply to read" in modal.problem_text
        assert len(state.conversations) == before


async def test_a_lost_answer_is_looked_for_not_sent_twice(state: SandboxState, tmp_path: Path) -> None:
    faults = Faults(seed=3)
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state, faults=faults)),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    services = Services(client, where="a flaky sandbox")
    path = tmp_path / "export.json"
    items = [
        {"subject": "Dark mode toggle missing", "parts": [{"body": "Where is dark mode?"}]},
        {"id": "zd-77", "subject": "Search misses new pages", "parts": [{"body": "New pages are not found."}]},
    ]
    path.write_text(json.dumps(items))
    before = len(state.conversations)
    app = FolioApp(services, start=conversations(services, state))
    app.animation_level = "none"
    async with client, app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "i")
        modal = app.screen
        assert isinstance(modal, IngestModal)
        modal.query_one("#field-path", Input).value = str(path)
        faults.drop_after_write = 1.0  # every ingest done, every answer lost
        await keys(pilot, "ctrl+s")
        faults.drop_after_write = 0.0
        report = app.screen
        assert isinstance(report, IngestReportModal)
        assert text_of(report.query_one(".ingest-report--title", Static)) == "All 2 conversations sent."
        assert report.lines == [
            "sent    1. Dark mode toggle missing — the answer was lost; Folio checked: it arrived, once",
            "sent    2. Search misses new pages — the answer was lost; Folio checked: it arrived, once",
        ]
    subjects = [c["subject"] for c in state.conversations.values()]
    assert len(state.conversations) == before + 2
    assert subjects.count("Dark mode toggle missing") == 1 and subjects.count("Search misses new pages") == 1


async def _no_sleep(seconds: float) -> None:
    return None


# --- a service without conversations -------------------------------------------------------------------------


async def test_a_service_without_conversations_says_so(state: SandboxState, open_app: Any) -> None:
    services = bare_services(state)
    async with open_app(conversations(services, state)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ConversationsScreen)
        status = screen.panel.browser.query_one(".resource-browser--status", Static)
        assert text_of(status) == NOT_OFFERED and not status.has_class("-error")
        everything = " ".join(text_of(s) for s in screen.query(Static))
        assert everything.count(NOT_OFFERED) == 1 and "404" not in everything
        assert screen.panel.why_not("ingest") == NOT_OFFERED
        await keys(pilot, "i")
        assert app.screen is screen  # no form for a service that cannot take it
        await keys(pilot, "escape")
        assert app.is_running
    await services.aclose()


async def test_a_conversation_screen_without_conversations(state: SandboxState, open_app: Any) -> None:
    services = bare_services(state)
    start = lambda: ConversationScreen(services, state.demo_org, "any")  # noqa: E731
    async with open_app(start) as (app, _pilot):
        assert text_of(app.screen.query_one("#conversation-title", Static)) == NOT_OFFERED
    await services.aclose()


# --- the command line ---------------------------------------------------------------------------------------


async def command(pilot: Pilot[None], line: str) -> None:
    await keys(pilot, "colon")
    await pilot.press(*[{" ": "space"}.get(c, c) for c in line])
    await keys(pilot, "enter")


async def test_command_line_reaches_both_lists_of_the_organization_in_view(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """``:clusters login`` from the conversations of an organization opens its clusters filtered by the words;
    ``:conv`` comes back to its conversations."""
    async with open_app(conversations(services, state)) as (app, pilot):
        await command(pilot, "clusters login")
        screen = app.screen
        assert isinstance(screen, ClustersScreen) and screen.org_id == state.demo_org
        assert [r[0] for r in rows(screen.panel.browser)] == ["Login loops after SSO redirect"]
        assert screen.panel.browser.list.filter_text == "login"
        await command(pilot, "conv")
        assert isinstance(app.screen, ConversationsScreen) and app.screen.org_id == state.demo_org
