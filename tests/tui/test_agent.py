"""The agent instructions screen driven by keys over the seeded sandbox: shown with who changed them last, saved
from the form and from $EDITOR, and a refused send that keeps the text (as a draft, through a restart)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.faults import Faults
from folio.services import Services
from folio.tui import routes
from folio.tui.app import FolioApp
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.screens.insights.agent import AgentScreen, find_words
from folio.tui.widgets.markdown_view import SafeMarkdown
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN
from tests.services.test_access_service import member_with
from tests.tui.conftest import settle
from tests.tui.test_local import Machine

SEEDED = "Write for engineers who integrate with Northwind's APIs: lead with the request, then explain it."


@pytest.fixture(autouse=True)
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


def agent(services: Services, state: SandboxState) -> Callable[[], AgentScreen]:
    return lambda: AgentScreen(services, state.demo_org, trail=("Northwind Labs",))


def paragraphs(state: SandboxState) -> list[str]:
    doc = state.agent_instructions[state.demo_org]["instructions"]
    return ["".join(leaf["text"] for t in n["nodes"] for leaf in t["leaves"]) for n in doc["nodes"]]


def said(app: Any) -> list[str]:
    return [n.message for n in app._notifications]


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await settle(pilot)


async def test_the_instructions_and_who_changed_them(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(agent(services, state)) as (app, _):
        meta = str(app.screen.query_one("#agent-meta", Static).render())
        assert meta == "Last changed by Bruno Lindqvist, 2026-10-20 09:00 UTC (12 d ago)"
        shown = app.screen.query_one("#agent-text", SafeMarkdown).source
        assert shown.split("\n\n") == paragraphs(state)


async def test_the_words_of_the_verb_are_found_in_the_instructions(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """``:agent API reference`` opens them saying how often and where the words are (the phrase, or a word of it,
    in any case); the screen keeps the words for the session."""
    start = lambda: routes.build(services, "agent", {"org_id": state.demo_org, "words": " API  reference "})  # noqa: E731
    async with open_app(start) as (app, _):
        screen = app.screen
        assert isinstance(screen, AgentScreen) and screen.words == "API reference"  # what the session saves
        lines = str(screen.query_one("#agent-meta", Static).render()).split("\n")
        assert lines[0].startswith("Last changed by Bruno Lindqvist")
        assert lines[1] == "\u201cAPI reference\u201d: 2 matches, in paragraphs 1 and 3 of 3."  # APIs; the phrase


def test_find_words_says_how_many_and_where() -> None:
    text = "Lead with the request.\n\nThen explain the request and its answer.\nBe brief."
    assert find_words(text, "request") == "\u201crequest\u201d: 2 matches, in paragraphs 1 and 2 of 3."
    assert find_words(text, "BRIEF") == "\u201cBRIEF\u201d: 1 match, in paragraph 3 of 3."
    assert find_words(text, "webhook") == "\u201cwebhook\u201d: not in the instructions."
    assert find_words("", "webhook") == "\u201cwebhook\u201d: no instructions to look in."


async def test_save_the_instructions_from_the_form(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(agent(services, state)) as (app, pilot):
        await keys(pilot, "e")
        form = app.screen
        assert isinstance(form, TextEntryModal) and form.text.split("\n") == paragraphs(state)
        await keys(pilot, *"Be brief. ", "ctrl+s")
        assert isinstance(app.screen, AgentScreen)
        assert paragraphs(state)[0] == "Be brief. " + SEEDED
        assert state.agent_instructions[state.demo_org]["updatedBy"] == state.default_user
        assert "Agent instructions saved." in said(app)
        assert str(app.screen.query_one("#agent-meta", Static).render()).startswith("Last changed by Ada Okafor")


async def test_a_refused_send_keeps_the_text_through_a_restart(state: SandboxState, tmp_path: Path) -> None:
    machine = Machine(state, tmp_path / "home")
    before = paragraphs(state)

    def start(services: Services) -> Callable[[], Screen[Any]]:
        return agent(services, state)

    async with machine.run(start) as (app, pilot):
        await keys(pilot, "e")
        await keys(pilot, *"Be brief. ")
        state.tokens = {TOKEN: member_with(state, "edit")}  # no longer an admin: the service refuses (403)
        await keys(pilot, "ctrl+s")
        form = app.screen
        assert isinstance(form, TextEntryModal), "a refused send keeps the form open"
        assert form.text.startswith("Be brief. " + SEEDED) and "Not sent" in form.problem_text
        local = app.services.local
        assert local is not None and local.state is not None
        assert [d.text.split("\n")[0] for d in local.state.drafts()] == ["Be brief. " + SEEDED]
    assert paragraphs(state) == before
    state.tokens = {}
    async with machine.run(start) as (app, pilot):
        await keys(pilot, "e")
        form = app.screen
        assert isinstance(form, TextEntryModal) and form.text.startswith("Be brief. ")  # the draft is back
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, AgentScreen) and paragraphs(state)[0] == "Be brief. " + SEEDED
        local = app.services.local
        assert local is not None and local.state is not None and local.state.drafts() == []


async def test_edit_in_the_editor(
    services: Services, state: SandboxState, open_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    edited: list[str] = []

    def editor(app: Any, text: str) -> str:
        edited.append(text)
        return "Answer in British English.\nCite the API reference.\n"

    monkeypatch.setattr("folio.tui.screens.insights.agent.edit_in_editor", editor)
    before = "\n".join(paragraphs(state))
    async with open_app(agent(services, state)) as (app, pilot):
        await keys(pilot, "E")
        assert edited == [before]  # the editor was handed the text as the form would hold it
        assert paragraphs(state) == ["Answer in British English.", "Cite the API reference."]
        assert "Agent instructions saved." in said(app)


async def test_an_editor_text_the_service_refuses_opens_in_the_form(
    services: Services, state: SandboxState, open_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("folio.tui.screens.insights.agent.edit_in_editor", lambda app, text: "Refused text.")
    async with open_app(agent(services, state)) as (app, pilot):
        state.tokens = {TOKEN: member_with(state, "edit")}
        await keys(pilot, "E")
        form = app.screen
        assert isinstance(form, TextEntryModal) and form.text == "Refused text."
        assert any(m.startswith("Could not save the agent instructions") for m in said(app))
    assert paragraphs(state)[0] == SEEDED


async def test_an_editor_that_cannot_run_is_said(
    services: Services, state: SandboxState, open_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(app: Any, text: str) -> str:
        raise RuntimeError("The editor 'nano' was not found; set EDITOR.")

    monkeypatch.setattr("folio.tui.screens.insights.agent.edit_in_editor", broken)
    async with open_app(agent(services, state)) as (app, pilot):
        await keys(pilot, "E")
        assert said(app)[-1] == (
            "Instructions not edited: The editor 'nano' was not found; set EDITOR. Press e to edit them here."
        )


async def test_only_admins_change_them(services: Services, state: SandboxState, open_app: Any) -> None:
    state.tokens = {TOKEN: member_with(state, "edit")}
    async with open_app(agent(services, state)) as (app, pilot):
        screen = app.screen
        assert "read-only: only admins change them" in str(screen.query_one("#agent-meta", Static).render())
        assert screen.check_action("edit_here", ()) is None
        assert screen.why_not("edit_in_editor") == "Only admins of the organization can change the agent instructions."
        await keys(pilot, "e")
        assert app.screen is screen


@pytest.mark.parametrize("kind", ["sso", "settings", "agent"])
async def test_a_failing_service_is_said_in_words(state: SandboxState, kind: str) -> None:
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state, faults=Faults(error_rate=1.0))),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    services = Services(client, where="a failing sandbox")
    app = FolioApp(services, start=lambda: routes.build(services, kind, {"org_id": state.demo_org}))
    app.animation_level = "none"
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        text = " ".join(str(w.render()) for w in app.screen.query(Static).results() if w.display)
        assert "Injected server error" in text and "Press r to try again." in text, text
    await client.aclose()


async def _no_sleep(seconds: float) -> None:
    return None
