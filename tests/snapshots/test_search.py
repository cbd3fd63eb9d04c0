"""The search results (a section under the cursor, its words highlighted) and the trash, pinned as SVG at 80x24
and 160x50 (seeded sandbox, frozen clock, no animation). Update with
``pytest tests/snapshots/test_search.py --snapshot-update`` only after looking at the report."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from folio.models.space import SpaceSummary
from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui import routes
from folio.tui.app import FolioApp
from tests.conftest import FROZEN_AT
from tests.snapshots.support import sandbox_services

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)


def _app(
    sandbox: Any, start: Callable[[Services], Screen[Any]], prepare: Callable[[Services], None] | None = None
) -> FolioApp:
    services = sandbox_services(sandbox)
    if prepare is not None:
        prepare(services)
    app = FolioApp(services, start=lambda: start(services))
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
        for widget in pilot.app.screen.query("Input"):
            widget.cursor_blink = False  # type: ignore[attr-defined]
        await pilot.pause()

    return run


@pytest.mark.parametrize("size", SIZES)
def test_search_results(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    def start(services: Services) -> Screen[Any]:
        ids = {"org_id": state.demo_org, "words": "robot"}
        screen: Screen[Any] = routes.build(services, "search", ids, trail=("Organizations", "Northwind Labs"))
        return screen

    # The cursor starts on the first page; j is its first section: its text shown below, the words highlighted.
    assert snap_compare(_app(app, start), terminal_size=size, run_before=_after("j", "j"))


@pytest.mark.parametrize("size", SIZES)
def test_trash(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    legacy = next(sid for sid, s in state.spaces.items() if s["title"] == "Legacy Docs (v1)")
    scratch = next(sid for sid, s in state.spaces.items() if s["title"] == "Scratchpad")
    state.spaces[scratch]["deletedAt"] = state.clock.iso(FROZEN_AT - timedelta(hours=20))

    def knows(services: Services) -> None:  # the spaces Folio saw in the organization before they went
        services.trash.saw(state.demo_org, [SpaceSummary(id=legacy, title=""), SpaceSummary(id=scratch, title="")])

    def start(services: Services) -> Screen[Any]:
        trail = ("Organizations", "Northwind Labs")
        screen: Screen[Any] = routes.build(services, "trash", {"org_id": state.demo_org}, trail=trail)
        return screen

    assert snap_compare(_app(app, start, knows), terminal_size=size, run_before=_after())
