"""The comments panel (inside a small host screen) at 80x24 and 160x50, and a thread at 80x24.

Seeded sandbox, frozen clock (ages are counted from it), no animation. Update with
``pytest tests/snapshots/test_comments.py --snapshot-update`` only after looking at the report.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Footer, Header

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.screens.base import FolioScreen
from folio.tui.screens.review.thread import ThreadScreen
from folio.tui.widgets.comments_panel import CommentsPanel
from tests.conftest import FROZEN_AT
from tests.snapshots.support import sandbox_services

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]


class Host(FolioScreen):
    """Stands in for the space and change request screens that embed the panel."""

    def __init__(self, services: Services, space_id: str) -> None:
        super().__init__(services, trail=("Northwind Labs",))
        self.space_id = space_id
        self.crumb = "Admin Handbook"

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield CommentsPanel(self.services, self.space_id)
        yield Footer()

    def on_mount(self) -> None:
        self.set_crumb(self.crumb)


def _app(sandbox: Any, start: Callable[[Services], Screen[Any]]) -> FolioApp:
    services = sandbox_services(sandbox)
    services.comments.clock = lambda: FROZEN_AT
    app = FolioApp(services, start=lambda: start(services))
    app.animation_level = "none"
    return app


async def _loaded(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def _space(state: SandboxState, title: str) -> str:
    return next(s["id"] for s in state.spaces.values() if s["title"] == title and s["organization"] == state.demo_org)


@pytest.mark.parametrize("size", SIZES)
def test_comments_panel(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    sid = _space(state, "Admin Handbook")
    assert snap_compare(_app(app, lambda s: Host(s, sid)), press=["f", "f"], terminal_size=size, run_before=_loaded)


@pytest.mark.parametrize("size", SIZES)
def test_comment_thread(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    sid = _space(state, "Release Notes")
    comment = next(c for c in state.comments.values() if c["space"] == sid and c["body"].startswith("The first"))
    trail = ("Northwind Labs", "Release Notes")
    start = lambda s: ThreadScreen(s, sid, comment["id"], trail=trail)  # noqa: E731
    assert snap_compare(_app(app, start), terminal_size=size, run_before=_loaded)
