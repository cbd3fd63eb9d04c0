"""The structure editor's layout, pinned as SVG at 80x24 and 160x50 in its normal, grab and plan states (seeded
sandbox, frozen clock, no animation).

Update with ``pytest tests/snapshots/test_structure_editor.py --snapshot-update`` only after looking at them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from folio.sandbox import SandboxState
from folio.tui.app import FolioApp
from tests.api.sites_support import site_id
from tests.snapshots.support import sandbox_services
from tests.tui.test_structure_editor import Host

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]


def _app(sandbox: Any, state: SandboxState) -> FolioApp:
    services = sandbox_services(sandbox)
    app = FolioApp(services, start=lambda: Host(services, state.demo_org, site_id(state)))
    app.animation_level = "none"
    return app


async def _idle(pilot: Pilot[None]) -> None:
    """Everything done but the workers that wait for a modal to close."""
    await pilot.pause()
    running = [w for w in pilot.app.workers if w.group != "structure-ask" and not w.is_finished]
    await asyncio.gather(*(w.wait() for w in running), return_exceptions=True)
    await pilot.pause()


def _after(*keys: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    async def run_before(pilot: Pilot[None]) -> None:
        await _idle(pilot)
        for key in keys:
            await pilot.press(key)
            await _idle(pilot)
        for widget in pilot.app.screen.query("Input"):
            widget.cursor_blink = False  # type: ignore[attr-defined]
        await pilot.pause()

    return run_before


NORMAL = ("j", "j", "j", "j")
GRAB = ("j",) * 12 + ("space", "up", "up")  # Release Notes held at the end of Reference
PLAN = ("b",) + ("j",) * 12 + ("K", "g", "j", "J", "P")  # two moves collected, then their plan
CONDITION = ("j", "e", "tab", "tab", "tab", "tab", "b", "e", "t", "a")  # Getting Started's condition, "beta" typed


@pytest.mark.parametrize("size", SIZES)
def test_structure_editor(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    assert snap_compare(_app(app, state), terminal_size=size, run_before=_after(*NORMAL))


@pytest.mark.parametrize("size", SIZES)
def test_structure_editor_holding_a_node(
    snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]
) -> None:
    assert snap_compare(_app(app, state), terminal_size=size, run_before=_after(*GRAB))


@pytest.mark.parametrize("size", SIZES)
def test_structure_editor_plan(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    assert snap_compare(_app(app, state), terminal_size=size, run_before=_after(*PLAN))


@pytest.mark.parametrize("size", SIZES)
def test_structure_editor_condition_field(
    snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]
) -> None:
    """The edit form with the site's template conditions under the condition field, filtered by what is typed."""
    assert snap_compare(_app(app, state), terminal_size=size, run_before=_after(*CONDITION))
