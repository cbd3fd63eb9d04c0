"""``:inbox`` pinned as SVG at 80x24: its default sections, the first shown (the change requests awaiting Ada's
review across both organizations, one of them in the second), seeded sandbox, frozen clock, no animation. Update
with ``pytest tests/snapshots/test_inbox.py --snapshot-update`` only after looking at the report."""

from __future__ import annotations

from typing import Any

import pytest

from folio.sandbox import SandboxState
from folio.sandbox.domain.change_requests import open_change_request
from folio.sandbox.domain.reviews import request_review
from folio.tui.screens.review.inbox import InboxScreen
from tests.snapshots.support import after, freeze_now, sandbox_app


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_now(monkeypatch)


def test_inbox(snap_compare: Any, app: Any, state: SandboxState) -> None:
    space = next(s for s in state.spaces.values() if s["organization"] != state.demo_org)
    emeka = next(uid for uid, u in state.users.items() if u["email"].startswith("emeka@"))
    record = open_change_request(state, space["id"], emeka, subject="Calibrate the arm")
    request_review(state, record, state.default_user, emeka)
    start = sandbox_app(app, lambda services: InboxScreen(services, trail=("Organizations",)))
    assert snap_compare(start, terminal_size=(80, 24), run_before=after())
