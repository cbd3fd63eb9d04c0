"""The OpenAPI specs list, a spec's versions and the translations list, pinned as SVG at 80x24 and 160x50 (seeded
sandbox, frozen clock, no animation). Update with ``pytest tests/snapshots/test_references.py --snapshot-update``
only after looking at the report."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxState, SandboxTransport
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.screens.spec import SpecScreen
from folio.tui.screens.specs import SpecsPanel, SpecsScreen
from folio.tui.screens.translations import TranslationsScreen
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]
TRAIL = ("Organizations", "Northwind Labs")


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


@pytest.fixture(autouse=True)
def no_timers(monkeypatch: pytest.MonkeyPatch) -> None:
    """No spec is processing in the seeded lists; should one be, its look must not fire during a snapshot."""
    monkeypatch.setattr(SpecsPanel, "set_timer", lambda self, delay, callback, **_: None)


async def _no_sleep(seconds: float) -> None:
    return None


def _app(sandbox: Any, start: Callable[[Services], Screen[Any]]) -> FolioApp:
    # Built here, not with the async `client` fixture: snap_compare runs the app on its own event loop.
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(sandbox),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    services = Services(client, where="the demo sandbox")
    app = FolioApp(services, start=lambda: start(services))
    app.animation_level = "none"
    return app


async def _loaded(pilot: Pilot[None]) -> None:
    for _ in range(2):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_specs(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    """The list with the failed spec under the cursor: its errors in the detail below."""

    async def run(pilot: Pilot[None]) -> None:
        await _loaded(pilot)
        await pilot.press("j")
        await _loaded(pilot)

    start = _app(app, lambda services: SpecsScreen(services, state.demo_org, trail=TRAIL))
    assert snap_compare(start, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_spec_versions(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    trail = (*TRAIL, "OpenAPI specs")
    start = _app(app, lambda services: SpecScreen(services, state.demo_org, "petstore", trail=trail))
    assert snap_compare(start, terminal_size=size, run_before=_loaded)


@pytest.mark.parametrize("size", SIZES)
def test_translations(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    start = _app(app, lambda services: TranslationsScreen(services, state.demo_org, trail=TRAIL))
    assert snap_compare(start, terminal_size=size, run_before=_loaded)
