"""The pending review pinned as SVG: the list of held comments (H) over the change request at 80x24 and 160x50,
and the line under the header that counts them.

Update with ``pytest tests/snapshots/test_pending_review.py --snapshot-update`` only after looking at the report.
"""

from __future__ import annotations

from typing import Any

import pytest

from folio.sandbox import SandboxState
from folio.sandbox.revisions import walk
from folio.tui.app import FolioApp
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.widgets.change_overview import ChangesPane
from tests.conftest import FROZEN_AT
from tests.snapshots.support import pressed, sandbox_services

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]
LINUX = "Clarify Linux install steps"


@pytest.fixture(autouse=True)
def side_by_side_preferred(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ChangesPane, "prefer_side_by_side", True)


def _app(sandbox: Any, state: SandboxState) -> FolioApp:
    services = sandbox_services(sandbox)  # no local state: held in memory, said in the list
    services.comments.clock = lambda: FROZEN_AT
    record = next(c for c in state.change_requests.values() if c["subject"] == LINUX)
    sid, cid = record["space"], record["id"]
    pages = {p["title"]: p["id"] for p, _, _ in walk(state.revisions[record["revision"]]["pages"])}
    thread = next(c["id"] for c in state.comments.values() if c["changeRequest"] == cid)
    pending = services.pending_review
    pending._clock = lambda: FROZEN_AT.timestamp() - 600  # written ten minutes before the frozen now
    pending.toggle(sid, cid)
    linux, windows = pages["Linux"], pages["Windows"]
    pending.hold(sid, cid, "comment", "Say which Ubuntu releases this covers.", where="“Linux”", page=linux)
    pending.hold(sid, cid, "reply", "Agreed: every time, and say why.", where="a reply to Dana Moreau", comment=thread)
    pending.hold(sid, cid, "comment", "The PowerShell step needs admin rights.", where="“Windows”", page=windows)
    trail = (state.orgs[state.demo_org]["title"], state.spaces[sid]["title"])
    app = FolioApp(services, start=lambda: ChangeRequestScreen(services, sid, record["number"], trail=trail))
    app.animation_level = "none"
    return app


@pytest.mark.parametrize("size", SIZES)
def test_pending_review_list(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    assert snap_compare(_app(app, state), terminal_size=size, run_before=pressed("H"))


@pytest.mark.parametrize("size", SIZES)
def test_pending_review_line(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    assert snap_compare(_app(app, state), terminal_size=size, run_before=pressed("2"))
