"""What the snapshot tests share: an app on the seeded sandbox with no retry waits and no animation, a frozen
clock, and a ``run_before`` that lets each key's work finish before the picture is taken.

    def test_teams(snap_compare, app, state, size):
        start = sandbox_app(app, lambda services: TeamsScreen(services, state.demo_org))
        assert snap_compare(start, terminal_size=size, run_before=after("j"))
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxTransport
from folio.services import Services
from folio.tui.app import FolioApp
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN

__all__ = ["SIZES", "after", "freeze_now", "loaded", "sandbox_app", "sandbox_services"]

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]


def freeze_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ages and times as at ``FROZEN_AT`` (call it from an autouse fixture)."""
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


async def _no_sleep(seconds: float) -> None:
    return None


def sandbox_services(sandbox: Any) -> Services:
    """Services on ``sandbox`` (the ``app`` fixture), built here, not with the async ``client`` fixture:
    snap_compare runs the app on its own event loop."""
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(sandbox),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    return Services(client, where="the demo sandbox")


def sandbox_app(sandbox: Any, start: Callable[[Services], Screen[Any]] | None = None) -> FolioApp:
    """The app on ``sandbox``, opening ``start(services)`` (the organizations list when None), not animated."""
    services = sandbox_services(sandbox)
    app = FolioApp(services) if start is None else FolioApp(services, start=lambda: start(services))
    app.animation_level = "none"
    return app


async def loaded(pilot: Pilot[None], rounds: int = 1) -> None:
    """Let what is running finish (``rounds`` times: a load that starts another)."""
    for _ in range(rounds):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def pressed(*keys: str, wait_each: bool = False) -> Callable[[Pilot[None]], Awaitable[None]]:
    """Load, press ``keys`` with a pause after each (``wait_each``: and let the workers it started finish), then
    wait once for what they started; the cursors keep their blink (the screens it is used on show none)."""

    async def run(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
            if wait_each:
                await pilot.app.workers.wait_for_complete()
        if not wait_each:
            await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    return run


def after(*keys: str, still: bool = True) -> Callable[[Pilot[None]], Awaitable[None]]:
    """Load, press ``keys`` letting what each started finish, then (``still``) stop the cursors blinking:
    snap_compare's own ``press`` runs after ``run_before`` and does not wait for workers."""

    async def run(pilot: Pilot[None]) -> None:
        await loaded(pilot)
        for key in keys:
            await pilot.press(key)
            await loaded(pilot)
        if still:
            for widget in pilot.app.screen.query("Input, TextArea"):
                widget.cursor_blink = False  # type: ignore[attr-defined]
            await pilot.pause()

    return run
