"""The sites panel (in the test's host screen) and each tab of the site screen, pinned as SVG (seeded sandbox,
frozen clock, no animation). Update with ``pytest tests/snapshots/test_sites.py --snapshot-update`` only after
looking at the report."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxState, SandboxTransport
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.screens.site import SiteScreen
from tests.api.sites_support import site_id
from tests.conftest import SANDBOX_URL, TOKEN
from tests.tui.test_sites import SitesHost, StructureHost

SMALL = (80, 24)


async def _no_sleep(seconds: float) -> None:
    return None


def _app(sandbox: Any, start: Callable[[Services], Screen[Any]]) -> FolioApp:
    # Built here, not with the async `client` fixture: snap_compare runs the app on its own event loop.
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(sandbox),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    services = Services(client, where="the demo sandbox")
    app = FolioApp(services, start=lambda: start(services))
    app.animation_level = "none"
    return app


async def _loaded(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def _after(*keys: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    """Load, press ``keys`` and let what they started finish, then stop the cursors blinking: snap_compare's
    own ``press`` runs after ``run_before`` and does not wait for workers."""

    async def run(pilot: Pilot[None]) -> None:
        await _loaded(pilot)
        for key in keys:
            await pilot.press(key)
            await _loaded(pilot)
        for widget in pilot.app.screen.query("Input, TextArea"):
            widget.cursor_blink = False  # type: ignore[attr-defined]
        await pilot.pause()

    return run


def _site(state: SandboxState, title: str = "Northwind Docs") -> Callable[[Services], Screen[Any]]:
    sid = site_id(state, title)
    return lambda services: SiteScreen(services, state.demo_org, sid, trail=("Northwind Labs",))


def test_sites_panel(snap_compare: Any, app: Any, state: SandboxState) -> None:
    start = _app(app, lambda services: SitesHost(services, state.demo_org))
    assert snap_compare(start, terminal_size=SMALL, run_before=_loaded)


def test_sites_panel_create_modal(snap_compare: Any, app: Any, state: SandboxState) -> None:
    start = _app(app, lambda services: SitesHost(services, state.demo_org))
    assert snap_compare(start, terminal_size=SMALL, run_before=_after("n", "D"))


def test_sites_panel_delete_confirmation(snap_compare: Any, app: Any, state: SandboxState) -> None:
    start = _app(app, lambda services: SitesHost(services, state.demo_org))
    assert snap_compare(start, terminal_size=SMALL, run_before=_after("j", "D", "x", "enter"))


@pytest.mark.parametrize("size", [pytest.param(SMALL, id="80x24"), pytest.param((160, 50), id="160x50")])
def test_site_settings(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    assert snap_compare(_app(app, _site(state)), terminal_size=size, run_before=_loaded)


def test_site_settings_editing_the_title(snap_compare: Any, app: Any, state: SandboxState) -> None:
    run = _after("enter", "ctrl+u", "N")
    assert snap_compare(_app(app, _site(state)), terminal_size=SMALL, run_before=run)


def test_site_visibility_choice(snap_compare: Any, app: Any, state: SandboxState) -> None:
    assert snap_compare(_app(app, _site(state)), terminal_size=SMALL, run_before=_after("j", "enter"))


@pytest.mark.parametrize("size", [pytest.param(SMALL, id="80x24"), pytest.param((160, 50), id="160x50")])
def test_site_structure(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    """The Structure tab: the structure editor where it is installed (else the read-only view), with the
    published view beside it from 120 columns."""
    assert snap_compare(_app(app, _site(state)), terminal_size=size, run_before=_after("2"))


def test_site_structure_read_only_view(snap_compare: Any, app: Any, state: SandboxState) -> None:
    """The read-only view the Structure tab falls back on, alone."""
    sid = site_id(state)
    start = _app(app, lambda services: StructureHost(services, state.demo_org, sid))
    assert snap_compare(start, terminal_size=SMALL, run_before=_loaded)


def test_site_published(snap_compare: Any, app: Any, state: SandboxState) -> None:
    """At 80 columns ``p`` shows the published view in the structure's place."""
    assert snap_compare(_app(app, _site(state)), terminal_size=SMALL, run_before=_after("2", "p", "down", "down"))


def test_site_published_unpublished_root_site(snap_compare: Any, app: Any, state: SandboxState) -> None:
    start = _app(app, _site(state, "Internal Handbook"))
    assert snap_compare(start, terminal_size=SMALL, run_before=_after("2", "p"))


def test_site_adaptive_content(snap_compare: Any, app: Any, state: SandboxState) -> None:
    assert snap_compare(_app(app, _site(state)), terminal_size=SMALL, run_before=_after("3", "tab"))


def test_site_adaptive_content_with_a_problem(snap_compare: Any, app: Any, state: SandboxState) -> None:
    run = _after("3", "down", "down", "down", "down", "end", "left", "left", "x")
    assert snap_compare(_app(app, _site(state)), terminal_size=SMALL, run_before=run)
