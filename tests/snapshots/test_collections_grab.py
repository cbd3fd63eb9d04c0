"""The collections tree with a space in hand, pinned as SVG at 80x24 and 160x50: "User Guide" picked up and
shown two spots down, in the Reference collection, with the status line saying where it would land (seeded
sandbox, frozen clock, no animation).

Update with ``pytest tests/snapshots/test_collections_grab.py --snapshot-update`` only after looking at the report.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from folio.sandbox import SandboxState
from folio.tui.app import FolioApp
from folio.tui.screens.content.organization import OrganizationScreen
from tests.conftest import FROZEN_AT
from tests.snapshots.support import sandbox_services

GRAB = ("j", "j", "j", "space", "down", "down")
"""From "Product": down to "User Guide", pick it up, two spots down (into Reference, before its first space)."""


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


def _app(sandbox: Any, state: SandboxState) -> FolioApp:
    services = sandbox_services(sandbox)
    app = FolioApp(
        services,
        start=lambda: OrganizationScreen(services, state.demo_org, title="Northwind Labs", trail=("Organizations",)),
    )
    app.animation_level = "none"
    return app


def _after(*keys: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    async def run(pilot: Pilot[None]) -> None:
        for key in ("", *keys):
            if key:
                await pilot.press(key)
            await pilot.pause()
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()

    return run


@pytest.mark.parametrize("size", [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")])
def test_collections_grab(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    assert snap_compare(_app(app, state), terminal_size=size, run_before=_after(*GRAB))
