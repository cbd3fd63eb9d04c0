"""The outbox pinned as SVG (ctrl+o, ``modals/outbox.py``): writes made offline as asked, waiting to be sent in
the order they were made, and one stuck with its note below the list, at 80x24 and 160x50.

Update with ``pytest tests/snapshots/test_outbox.py --snapshot-update`` only after looking at the report.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from folio.sandbox import SandboxState
from folio.services import Services
from folio.services.local import Local
from folio.services.review.outbox import outbox_of
from folio.tui.app import FolioApp
from folio.tui.modals.outbox import OutboxModal
from folio.tui.screens.content.organizations import OrganizationsScreen
from tests.conftest import FROZEN_AT
from tests.snapshots.support import SIZES, freeze_now, loaded, sandbox_services


@pytest.fixture(autouse=True)
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_now(monkeypatch)


def _app(sandbox: Any, state: SandboxState, home: Path) -> FolioApp:
    client = sandbox_services(sandbox).client
    local = Local(client, cache_dir=home / "cache", state_dir=home / "state")
    local.confirm(state.default_user, "Ada")
    services = Services(client, where="the demo sandbox", local=local)
    services.comments.clock = lambda: FROZEN_AT
    assert local.state is not None
    written = iter([FROZEN_AT.timestamp() - 3600, FROZEN_AT.timestamp() - 1800, FROZEN_AT.timestamp() - 300])
    local.state._clock = lambda: next(written)
    outbox = outbox_of(services)
    assert outbox is not None
    space = next(s["id"] for s in state.spaces.values() if s["title"] == "Admin Handbook")
    outbox.queue("comment", space, {"markdown": "Queued from the train: step 3 needs a screenshot."}, "Admin Handbook")
    stuck = outbox.queue(
        "reply", space, {"markdown": "Agreed, and the \x1b]0;title\x07 link too."}, "a reply to Dana Moreau"
    )
    outbox.queue("resolve", space, {"resolved": True}, "the thread on “Install”")
    local.state.mark(stuck, "stuck", "The service refused it: the thread was deleted (404).")
    services.client.set_offline("asked")
    app = FolioApp(services, start=lambda: OrganizationsScreen(services))
    app.animation_level = "none"
    return app


def _outbox() -> Callable[[Pilot[None]], Awaitable[None]]:
    async def run(pilot: Pilot[None]) -> None:
        await loaded(pilot)
        app = pilot.app
        assert isinstance(app, FolioApp)
        app.push_screen(OutboxModal(app.services))
        await loaded(pilot)
        await pilot.press("j")  # the stuck one: its note below the list
        await loaded(pilot)

    return run


@pytest.mark.parametrize("size", SIZES)
def test_outbox(snap_compare: Any, app: Any, state: SandboxState, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(_app(app, state, tmp_path), terminal_size=size, run_before=_outbox())
