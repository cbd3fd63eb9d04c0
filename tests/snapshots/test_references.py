"""The OpenAPI specs list, a spec's versions and the translations list, pinned as SVG at 80x24 and 160x50 (seeded
sandbox, frozen clock, no animation). Update with ``pytest tests/snapshots/test_references.py --snapshot-update``
only after looking at the report."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from folio.sandbox import SandboxState
from folio.tui.screens.content.translations import TranslationsScreen
from folio.tui.screens.insights.spec import SpecScreen
from folio.tui.screens.insights.specs import SpecsPanel, SpecsScreen
from tests.snapshots.support import freeze_now, loaded, sandbox_app

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]
TRAIL = ("Organizations", "Northwind Labs")


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_now(monkeypatch)


@pytest.fixture(autouse=True)
def no_timers(monkeypatch: pytest.MonkeyPatch) -> None:
    """No spec is processing in the seeded lists; should one be, its look must not fire during a snapshot."""
    monkeypatch.setattr(SpecsPanel, "set_timer", lambda self, delay, callback, **_: None)


async def _loaded(pilot: Pilot[None]) -> None:
    await loaded(pilot, rounds=2)


@pytest.mark.parametrize("size", SIZES)
def test_specs(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    """The list with the failed spec under the cursor: its errors in the detail below."""

    async def run(pilot: Pilot[None]) -> None:
        await _loaded(pilot)
        await pilot.press("j")
        await _loaded(pilot)

    start = sandbox_app(app, lambda services: SpecsScreen(services, state.demo_org, trail=TRAIL))
    assert snap_compare(start, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_spec_versions(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    trail = (*TRAIL, "OpenAPI specs")
    start = sandbox_app(app, lambda services: SpecScreen(services, state.demo_org, "petstore", trail=trail))
    assert snap_compare(start, terminal_size=size, run_before=_loaded)


@pytest.mark.parametrize("size", SIZES)
def test_translations(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    start = sandbox_app(app, lambda services: TranslationsScreen(services, state.demo_org, trail=TRAIL))
    assert snap_compare(start, terminal_size=size, run_before=_loaded)
