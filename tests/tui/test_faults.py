"""Every screen on a flaky service: slow answers, server errors, 429 bursts and dropped connections.

For each screen that exists: a key is handled while its load is still in flight (the app never waits on the
network), a service that always fails is reported in words on the screen, a mix of faults leaves the app
running, and a text typed into a TextEntryModal survives a failed send (then goes out once the service is back,
and the sandbox holds it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from textual import events
from textual.screen import Screen
from textual.widgets import Input, TextArea
from textual.worker import WorkerState

from folio.sandbox import SandboxState
from folio.sandbox.faults import Faults
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.modals.help import HelpModal
from folio.tui.modals.text_entry import TextEntryModal
from tests.tui.conftest import settle
from tests.tui.test_hostile import frame_text, screen_class, targets_of

SCREENS = ["organizations", "organization", "space", "change-request", "thread", "site"]
FAILED = "Injected server error"
"""What the sandbox says when it fails on purpose: the screen must pass it on in words."""


def opener(name: str, services: Services, state: SandboxState) -> Callable[[], Screen[Any]] | None:
    """How to open the screen ``name`` on the walk's targets (None: the screen does not exist here)."""
    t = targets_of(state)
    number = state.change_requests[t["cr"]]["number"]
    builds: dict[str, tuple[str, str, Callable[[Any], Screen[Any]]]] = {
        "organizations": ("organizations", "OrganizationsScreen", lambda cls: cls(services)),
        "organization": ("organization", "OrganizationScreen", lambda cls: cls(services, t["org"])),
        "space": ("space", "SpaceScreen", lambda cls: cls(services, t["space"])),
        "change-request": ("change_request", "ChangeRequestScreen", lambda cls: cls(services, t["space"], number)),
        "thread": (
            "thread",
            "ThreadScreen",
            lambda cls: cls(services, t["space"], t["comment"], change_request=t["cr"]),
        ),
        "site": ("site", "SiteScreen", lambda cls: cls(services, t["org"], t["site"])),
    }
    module, class_name, build = builds[name]
    cls = screen_class(module, class_name)
    if cls is None:
        return None
    return lambda: build(cls)


def app_for(services: Services, start: Callable[[], Screen[Any]]) -> FolioApp:
    app = FolioApp(services, start=start)
    app.animation_level = "none"
    return app


def busy(app: FolioApp) -> bool:
    return any(w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in app.workers)


def said(app: FolioApp) -> str:
    """What the screen shows and what it notified."""
    return frame_text(app.screen) + "\n" + "\n".join(str(n.message) for n in app._notifications)


@pytest.mark.parametrize("name", SCREENS)
async def test_a_key_is_handled_while_a_load_is_in_flight(
    name: str, flaky: Services, state: SandboxState, faults: Faults
) -> None:
    start = opener(name, flaky, state)
    if start is None:
        pytest.skip(f"no {name} screen in this build")
    faults.latency = 3600.0  # no answer comes back during the test: the key must not wait for one
    app = app_for(flaky, start)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert busy(app), "the screen should be loading"
        # The key goes in as a terminal sends it (pilot.press would also wait for the screen to go quiet).
        assert app._driver is not None
        app._driver.send_message(events.Key("question_mark", "?"))
        # Ordering, not timing: the help must open while the loads are still waiting for their answers. The bound
        # only stops a broken build from hanging the suite.
        for _ in range(3000):
            if isinstance(app.screen, HelpModal):
                break
            await asyncio.sleep(0.01)
        assert isinstance(app.screen, HelpModal), "? was not handled while the screen was loading"
        assert busy(app), "the loads ended before the key was handled"
        await pilot.press("escape")
        assert app.is_running and app._exception is None  # leaving cancels the loads still in flight


@pytest.mark.parametrize("name", SCREENS)
async def test_a_failing_service_is_said_in_words(
    name: str, flaky: Services, state: SandboxState, faults: Faults
) -> None:
    start = opener(name, flaky, state)
    if start is None:
        pytest.skip(f"no {name} screen in this build")
    faults.error_rate = 1.0
    app = app_for(flaky, start)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.is_running and app._exception is None
        assert FAILED in said(app), f"{name}: the failure is not shown in words"
        faults.error_rate = 0.0  # the service is back: r loads again and the words go
        await pilot.press("r")
        await settle(pilot)
        assert app.is_running and app._exception is None


@pytest.mark.parametrize("name", SCREENS)
async def test_a_mix_of_faults_leaves_the_app_running(
    name: str, flaky: Services, state: SandboxState, faults: Faults
) -> None:
    start = opener(name, flaky, state)
    if start is None:
        pytest.skip(f"no {name} screen in this build")
    faults.latency, faults.error_rate, faults.burst_429, faults.drop_rate = 0.3, 0.5, 2, 0.2
    app = app_for(flaky, start)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark", "escape")
        await settle(pilot)
        for key in "12345":  # every tab, where the screen has tabs
            await pilot.press(key)
            await settle(pilot)
            assert app.is_running and app._exception is None
        assert "Traceback" not in said(app)


# -- a text typed is never lost -------------------------------------------------------------------------------


async def _type(pilot: Any, text: str) -> None:
    await pilot.press(*[{" ": "space"}.get(c, c) for c in text])


def _entry_text(modal: TextEntryModal) -> str:
    widget = modal.widget("text")
    return widget.text if isinstance(widget, TextArea) else widget.value if isinstance(widget, Input) else ""


async def _sent(pilot: Any, modal: TextEntryModal) -> None:
    """Wait for the modal's send to finish (not with settle: the screen's worker waits on the modal itself)."""
    for _ in range(200):
        await pilot.pause(0.02)
        if not modal.sending and not any(w.group == "form-send" and w.is_running for w in modal.workers):
            break
    await pilot.pause()


async def _modal(pilot: Any) -> TextEntryModal:
    for _ in range(100):
        await pilot.pause(0.02)
        if isinstance(pilot.app.screen, TextEntryModal):
            return pilot.app.screen
    raise AssertionError(f"no TextEntryModal opened (on top: {pilot.app.screen!r})")


async def _send_fails_then_succeeds(pilot: Any, faults: Faults, typed: str) -> TextEntryModal:
    app = pilot.app
    modal = await _modal(pilot)
    await pilot.press("end")  # after the text already there (an Input selects it all on focus)
    await _type(pilot, typed)
    faults.error_rate = 1.0
    await pilot.press("ctrl+s")
    await _sent(pilot, modal)
    assert app.screen is modal, "the modal closed although sending failed"
    assert typed in _entry_text(modal)
    problem = modal.problem_text
    assert FAILED in problem and "kept" in problem
    faults.error_rate = 0.0
    await pilot.press("ctrl+s")
    await _sent(pilot, modal)
    await settle(pilot)
    assert app.screen is not modal
    return modal


async def test_a_reply_survives_a_failed_send(flaky: Services, state: SandboxState, faults: Faults) -> None:
    start = opener("thread", flaky, state)
    if start is None:
        pytest.skip("no thread screen in this build")
    comment = state.comments[targets_of(state)["comment"]]
    before = len(comment["replies"])
    app = app_for(flaky, start)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await _send_fails_then_succeeds(pilot, faults, "kept through a failure")
        assert len(comment["replies"]) == before + 1
        assert comment["replies"][-1]["body"] == "kept through a failure"


async def test_a_subject_survives_a_failed_send(flaky: Services, state: SandboxState, faults: Faults) -> None:
    start = opener("change-request", flaky, state)
    if start is None:
        pytest.skip("no change request screen in this build")
    cr = state.change_requests[targets_of(state)["cr"]]
    subject = cr["subject"]
    app = app_for(flaky, start)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await _send_fails_then_succeeds(pilot, faults, " again")
        assert cr["subject"] == f"{subject} again"
