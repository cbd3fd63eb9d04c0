"""The space screen's layout, pinned as SVG: the pages tab at 80x24 and 160x50, the links tab at 80x24
(seeded sandbox, "Getting Started", frozen clock, no animation).

Update with ``pytest tests/snapshots/test_space.py --snapshot-update`` only after looking at the report.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from folio.sandbox import SandboxState
from folio.tui.app import FolioApp
from folio.tui.screens.content.space import SpaceScreen
from tests.snapshots.support import sandbox_services

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]


def _app(sandbox: Any, state: SandboxState) -> FolioApp:
    services = sandbox_services(sandbox)
    sid = next(s["id"] for s in state.spaces.values() if s["title"] == "Getting Started")
    app = FolioApp(services, start=lambda: SpaceScreen(services, sid, trail=("Northwind Labs",)))
    app.animation_level = "none"
    return app


async def _loaded(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_space_pages(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    assert snap_compare(_app(app, state), terminal_size=size, run_before=_loaded)


def test_space_links(snap_compare: Any, app: Any, state: SandboxState) -> None:
    async def links(pilot: Pilot[None]) -> None:
        await _loaded(pilot)
        await pilot.press("3")
        await _loaded(pilot)

    assert snap_compare(_app(app, state), terminal_size=(80, 24), run_before=links)
