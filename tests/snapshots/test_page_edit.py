"""The send dialog of a page edited in $EDITOR, pinned as SVG at 80x24: the Linux page of a change request edited
by a script (one word changed), the diff of the markdown and where it goes (this change request first).

Update with ``pytest tests/snapshots/test_page_edit.py --snapshot-update`` only after looking at the report.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from folio.sandbox import SandboxState
from folio.tui.app import FolioApp
from folio.tui.modals.page_edit import PageSendModal
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.widgets.change_overview import ChangesPane
from tests.snapshots.support import freeze_now, sandbox_services

LINUX = "Clarify Linux install steps"
EDIT = """\
import sys
from pathlib import Path

path = Path(sys.argv[-1])
path.write_text(path.read_text(encoding="utf-8").replace("sudo apt update", "sudo apt-get update"), encoding="utf-8")
"""


@pytest.fixture(autouse=True)
def defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    freeze_now(monkeypatch)
    monkeypatch.setattr(ChangesPane, "prefer_side_by_side", True)
    monkeypatch.setattr(ChangesPane, "prefer_wrap", False)
    script = tmp_path / "edit.py"
    script.write_text(EDIT, encoding="utf-8")
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    monkeypatch.delenv("VISUAL", raising=False)


def _app(sandbox: Any, state: SandboxState) -> FolioApp:
    services = sandbox_services(sandbox)
    record = next(c for c in state.change_requests.values() if c["subject"] == LINUX)
    app = FolioApp(services, start=lambda: ChangeRequestScreen(services, record["space"], record["number"]))
    app.animation_level = "none"
    app.suspend = contextlib.nullcontext  # type: ignore[method-assign]  # no terminal to hand over here
    return app


async def _to_the_dialog(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.press("2")
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.press("E")
    for _ in range(400):
        if isinstance(pilot.app.screen, PageSendModal):
            break
        await pilot.pause()
    await pilot.pause()
    pilot.app.clear_notifications()  # "Reading the page…": gone in a moment
    await pilot.pause()


def test_the_send_dialog(snap_compare: Any, app: Any, state: SandboxState) -> None:
    assert snap_compare(_app(app, state), terminal_size=(80, 24), run_before=_to_the_dialog)
