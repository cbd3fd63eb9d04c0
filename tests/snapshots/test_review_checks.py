"""The checks tab of a change request pinned as SVG at 80x24 and 160x50: a broken link it introduces, a deleted
page still linked, an empty page, pages without a description, and an open change request editing the same page.

Update with ``pytest tests/snapshots/test_review_checks.py --snapshot-update`` only after looking at the report.
"""

from __future__ import annotations

from typing import Any

import pytest

from folio.sandbox import SandboxState
from folio.sandbox.domain.change_requests import open_change_request
from folio.sandbox.seed.change_requests import commit, create, delete, edit
from folio.tui.app import FolioApp
from folio.tui.screens.review.change_request import ChangeRequestScreen
from tests.snapshots.support import pressed, sandbox_services

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]


def _app(sandbox: Any, state: SandboxState) -> FolioApp:
    services = sandbox_services(sandbox)
    space = next(s for s, r in state.spaces.items() if r["title"] == "Getting Started")
    record = open_change_request(state, space, state.default_user, subject="Drop troubleshooting", at=state.now())
    edits = [delete("Troubleshooting"), create("Glossary", "# Glossary\n"), edit("Linux", "", "\nArm64 too.\n")]
    commit(state, record, edits, state.now())
    record["status"] = "open"
    trail = (state.orgs[state.demo_org]["title"], state.spaces[space]["title"])
    app = FolioApp(services, start=lambda: ChangeRequestScreen(services, space, record["number"], trail=trail))
    app.animation_level = "none"
    return app


@pytest.mark.parametrize("size", SIZES)
def test_checks(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    assert snap_compare(_app(app, state), terminal_size=size, run_before=pressed("4", wait_each=True))
