"""The organization screen's layout, pinned as SVG: each tab at 80x24, the collections tab at 160x50 too
(seeded sandbox, frozen clock, no animation).

Update with ``pytest tests/snapshots/test_organization.py --snapshot-update`` only after looking at the report.
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


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)


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


@pytest.mark.parametrize(
    "keys",
    [
        pytest.param((), id="collections"),
        pytest.param(("2",), id="spaces"),
        pytest.param(("3",), id="change-requests"),
        pytest.param(("4",), id="sites"),
    ],
)
def test_organization_tabs(snap_compare: Any, app: Any, state: SandboxState, keys: tuple[str, ...]) -> None:
    assert snap_compare(_app(app, state), terminal_size=(80, 24), run_before=_after(*keys))


def test_organization_wide(snap_compare: Any, app: Any, state: SandboxState) -> None:
    assert snap_compare(_app(app, state), terminal_size=(160, 50), run_before=_after())


def test_organization_inbox_awaiting_me_at_every_status(snap_compare: Any, app: Any, state: SandboxState) -> None:
    assert snap_compare(_app(app, state), terminal_size=(80, 24), run_before=_after("3", "s", "s", "s", "a"))
