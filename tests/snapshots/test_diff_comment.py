"""Comment from the diff and the wrapped diff, pinned as SVG at 80x24 and 160x50: the comment box on a block of
the Linux page (the block quoted above the box), and the diff with its long lines wrapped (side by side at 160
columns, unified at 80).

Update with ``pytest tests/snapshots/test_diff_comment.py --snapshot-update`` only after looking at the report.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import ModalScreen

from folio.sandbox import SandboxState
from folio.tui.app import FolioApp
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.widgets.change_overview import ChangesPane
from tests.snapshots.support import sandbox_services

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]
LINUX = "Clarify Linux install steps"


@pytest.fixture(autouse=True)
def defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ChangesPane, "prefer_side_by_side", True)
    monkeypatch.setattr(ChangesPane, "prefer_wrap", False)


def _app(sandbox: Any, state: SandboxState, subject: str) -> FolioApp:
    services = sandbox_services(sandbox)
    record = next(c for c in state.change_requests.values() if c["subject"] == subject)
    trail = (state.orgs[state.demo_org]["title"], state.spaces[record["space"]]["title"])
    app = FolioApp(
        services, start=lambda: ChangeRequestScreen(services, record["space"], record["number"], trail=trail)
    )
    app.animation_level = "none"
    return app


async def _quiet(pilot: Pilot[None], *, asking: bool = False) -> None:
    """Workers done (with ``asking``: all but the one waiting on the open comment box)."""
    for _ in range(500):
        await pilot.pause()
        up = isinstance(pilot.app.screen, ModalScreen)
        busy = [w for w in pilot.app.workers if w.is_running and not (asking and up and w.group == "changes-comment")]
        if not busy:
            break
    await pilot.pause()


def _after(*keys: str, asking: bool = False) -> Callable[[Pilot[None]], Awaitable[None]]:
    async def run(pilot: Pilot[None]) -> None:
        await _quiet(pilot)
        for key in keys:
            await pilot.press(key)
            await _quiet(pilot, asking=asking)

    return run


@pytest.mark.parametrize("size", SIZES)
def test_comment_on_a_block_from_the_diff(
    snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]
) -> None:
    # The Linux page's diff, the cursor moved to the new paragraph, c: its text above the box.
    keys = ("2", "enter", "j", "j", "j", "j", "c")
    assert snap_compare(_app(app, state, LINUX), terminal_size=size, run_before=_after(*keys, asking=True))


@pytest.mark.parametrize("size", SIZES)
def test_wrapped_diff(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    keys = ("2", "enter", "w", "j", "j", "j", "j")
    assert snap_compare(_app(app, state, LINUX), terminal_size=size, run_before=_after(*keys))


def test_side_by_side_under_140_columns(snap_compare: Any, app: Any, state: SandboxState) -> None:
    # 130 columns: side by side, the page list narrower, long lines wrapped.
    assert snap_compare(_app(app, state, LINUX), terminal_size=(130, 40), run_before=_after("2", "enter", "w"))
