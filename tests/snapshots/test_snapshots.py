"""The layout of every screen, pinned as SVG at 80x24 and 160x50 (seeded sandbox, frozen clock, no animation).

Update with ``pytest tests/snapshots --snapshot-update`` only after looking at the report.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxState, SandboxTransport
from folio.services import Services
from folio.tui.app import FolioApp
from tests.conftest import SANDBOX_URL, TOKEN

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]


async def _no_sleep(seconds: float) -> None:
    return None


def _app(sandbox: Any) -> FolioApp:
    # Built here, not with the async `client` fixture: snap_compare runs the app on its own event loop.
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(sandbox),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    app = FolioApp(Services(client, where="the demo sandbox"))
    app.animation_level = "none"
    return app


async def _loaded(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_organizations(snap_compare: Any, app: Any, size: tuple[int, int]) -> None:
    assert snap_compare(_app(app), terminal_size=size, run_before=_loaded)


def test_organizations_cursor_on_the_second_row(snap_compare: Any, app: Any) -> None:
    assert snap_compare(_app(app), press=["j"], terminal_size=(80, 24), run_before=_loaded)


def test_organizations_failed(snap_compare: Any, app: Any, state: SandboxState) -> None:
    state.tokens = {"another-token": state.default_user}
    assert snap_compare(_app(app), terminal_size=(80, 24), run_before=_loaded)
