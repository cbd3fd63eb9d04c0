"""The pages tab of a change request pinned as SVG at 80x24: the tree with a planned new page and a move (the marks
and the line saying what was planned), and the plan shown before it is sent (numbered steps, y sends, x drops).

Update with ``pytest tests/snapshots/test_cr_pages.py --snapshot-update`` only after looking at the report.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot
from textual.screen import ModalScreen

from folio.sandbox import SandboxState
from folio.tui.app import FolioApp
from folio.tui.screens.review.change_request import ChangeRequestScreen
from tests.snapshots.support import loaded, sandbox_services

PLANNED = ("5", "j", "n", "F", "A", "Q", "ctrl+s", *"jjjjj", "space", "up", "enter")
"""On the pages tab: a new page “FAQ” under Installation, then “Your first robot” moved to the end of it."""


def _app(sandbox: Any, state: SandboxState) -> FolioApp:
    services = sandbox_services(sandbox)
    record = next(c for c in state.change_requests.values() if c["subject"] == "Clarify Linux install steps")
    trail = (state.orgs[state.demo_org]["title"], state.spaces[record["space"]]["title"])
    app = FolioApp(
        services, start=lambda: ChangeRequestScreen(services, record["space"], record["number"], trail=trail)
    )
    app.animation_level = "none"
    return app


def keyed(*keys: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    """Press ``keys``, letting what each started finish unless it opened a dialog (its worker waits on it)."""

    async def run(pilot: Pilot[None]) -> None:
        await loaded(pilot)
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
            if not isinstance(pilot.app.screen, ModalScreen):
                await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    return run


def test_pages_tab_with_a_plan(snap_compare: Any, app: Any, state: SandboxState) -> None:
    assert snap_compare(_app(app, state), terminal_size=(80, 24), run_before=keyed(*PLANNED))


def test_plan_shown_before_sending(snap_compare: Any, app: Any, state: SandboxState) -> None:
    assert snap_compare(_app(app, state), terminal_size=(80, 24), run_before=keyed(*PLANNED, "ctrl+s"))
