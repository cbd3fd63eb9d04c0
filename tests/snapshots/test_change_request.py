"""The change request screen pinned as SVG: the overview and changes tabs at 80x24 and 160x50 (side by side at
160), and the states that matter (the outdated banner, the current change with word highlights, the review modal).

Update with ``pytest tests/snapshots/test_change_request.py --snapshot-update`` only after looking at the report.
"""

from __future__ import annotations

from typing import Any

import pytest

from folio.sandbox import SandboxState
from folio.tui.app import FolioApp
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.widgets.change_overview import ChangesPane
from tests.snapshots.support import pressed, sandbox_services

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]


@pytest.fixture(autouse=True)
def side_by_side_preferred(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ChangesPane, "prefer_side_by_side", True)


def _app(sandbox: Any, state: SandboxState, subject: str) -> FolioApp:
    services = sandbox_services(sandbox)
    record = next(c for c in state.change_requests.values() if c["subject"] == subject)
    trail = (state.orgs[state.demo_org]["title"], state.spaces[record["space"]]["title"])
    app = FolioApp(
        services, start=lambda: ChangeRequestScreen(services, record["space"], record["number"], trail=trail)
    )
    app.animation_level = "none"
    return app


@pytest.mark.parametrize("size", SIZES)
def test_overview(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    assert snap_compare(_app(app, state, "Clarify Linux install steps"), terminal_size=size, run_before=pressed())


@pytest.mark.parametrize("size", SIZES)
def test_changes(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    assert snap_compare(_app(app, state, "Clarify Linux install steps"), terminal_size=size, run_before=pressed("2"))


def test_overview_outdated(snap_compare: Any, app: Any, state: SandboxState) -> None:
    subject = "Add pagination to the Robots API"
    assert snap_compare(_app(app, state, subject), terminal_size=(80, 24), run_before=pressed())


def test_changes_current_hunk_with_word_highlights(snap_compare: Any, app: Any, state: SandboxState) -> None:
    subject = "Failover: lower the DNS TTL first"
    assert snap_compare(_app(app, state, subject), terminal_size=(160, 50), run_before=pressed("2", "n"))


def test_changes_unified_with_a_viewed_page(snap_compare: Any, app: Any, state: SandboxState) -> None:
    subject = "Failover: lower the DNS TTL first"
    assert snap_compare(_app(app, state, subject), terminal_size=(100, 30), run_before=pressed("2", "n", "v"))


def test_review_modal(snap_compare: Any, app: Any, state: SandboxState) -> None:
    assert snap_compare(
        _app(app, state, "Clarify Linux install steps"), terminal_size=(80, 24), run_before=pressed("R")
    )
