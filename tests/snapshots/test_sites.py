"""The sites panel (in the test's host screen) and each tab of the site screen, pinned as SVG (seeded sandbox,
frozen clock, no animation). Update with ``pytest tests/snapshots/test_sites.py --snapshot-update`` only after
looking at the report."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.screen import Screen

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui.screens.sites.site import SiteScreen
from tests.api.sites_support import site_id
from tests.snapshots.support import after, loaded, sandbox_app
from tests.tui.test_sites import SitesHost, StructureHost

SMALL = (80, 24)


def _site(state: SandboxState, title: str = "Northwind Docs") -> Callable[[Services], Screen[Any]]:
    sid = site_id(state, title)
    return lambda services: SiteScreen(services, state.demo_org, sid, trail=("Northwind Labs",))


def test_sites_panel(snap_compare: Any, app: Any, state: SandboxState) -> None:
    start = sandbox_app(app, lambda services: SitesHost(services, state.demo_org))
    assert snap_compare(start, terminal_size=SMALL, run_before=loaded)


def test_sites_panel_create_modal(snap_compare: Any, app: Any, state: SandboxState) -> None:
    start = sandbox_app(app, lambda services: SitesHost(services, state.demo_org))
    assert snap_compare(start, terminal_size=SMALL, run_before=after("n", "D"))


def test_sites_panel_delete_confirmation(snap_compare: Any, app: Any, state: SandboxState) -> None:
    start = sandbox_app(app, lambda services: SitesHost(services, state.demo_org))
    assert snap_compare(start, terminal_size=SMALL, run_before=after("j", "D", "x", "enter"))


@pytest.mark.parametrize("size", [pytest.param(SMALL, id="80x24"), pytest.param((160, 50), id="160x50")])
def test_site_settings(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    assert snap_compare(sandbox_app(app, _site(state)), terminal_size=size, run_before=loaded)


def test_site_settings_editing_the_title(snap_compare: Any, app: Any, state: SandboxState) -> None:
    run = after("enter", "ctrl+u", "N")
    assert snap_compare(sandbox_app(app, _site(state)), terminal_size=SMALL, run_before=run)


def test_site_visibility_choice(snap_compare: Any, app: Any, state: SandboxState) -> None:
    assert snap_compare(sandbox_app(app, _site(state)), terminal_size=SMALL, run_before=after("j", "enter"))


@pytest.mark.parametrize("size", [pytest.param(SMALL, id="80x24"), pytest.param((160, 50), id="160x50")])
def test_site_structure(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    """The Structure tab: the structure editor where it is installed (else the read-only view), with the
    published view beside it from 120 columns."""
    assert snap_compare(sandbox_app(app, _site(state)), terminal_size=size, run_before=after("2"))


def test_site_structure_read_only_view(snap_compare: Any, app: Any, state: SandboxState) -> None:
    """The read-only view the Structure tab falls back on, alone."""
    sid = site_id(state)
    start = sandbox_app(app, lambda services: StructureHost(services, state.demo_org, sid))
    assert snap_compare(start, terminal_size=SMALL, run_before=loaded)


def test_site_published(snap_compare: Any, app: Any, state: SandboxState) -> None:
    """At 80 columns ``p`` shows the published view in the structure's place."""
    assert snap_compare(sandbox_app(app, _site(state)), terminal_size=SMALL, run_before=after("2", "p", "down", "down"))


def test_site_published_unpublished_root_site(snap_compare: Any, app: Any, state: SandboxState) -> None:
    start = sandbox_app(app, _site(state, "Internal Handbook"))
    assert snap_compare(start, terminal_size=SMALL, run_before=after("2", "p"))


def test_site_adaptive_content(snap_compare: Any, app: Any, state: SandboxState) -> None:
    assert snap_compare(sandbox_app(app, _site(state)), terminal_size=SMALL, run_before=after("3", "tab"))


def test_site_adaptive_content_with_a_problem(snap_compare: Any, app: Any, state: SandboxState) -> None:
    run = after("3", "down", "down", "down", "down", "end", "left", "left", "x")
    assert snap_compare(sandbox_app(app, _site(state)), terminal_size=SMALL, run_before=run)
