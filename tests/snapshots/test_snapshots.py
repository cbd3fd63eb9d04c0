"""The layout of every screen, pinned as SVG at 80x24 and 160x50 (seeded sandbox, frozen clock, no animation).

Update with ``pytest tests/snapshots --snapshot-update`` only after looking at the report.
"""

from __future__ import annotations

from typing import Any

import pytest

from folio.sandbox import SandboxState
from tests.snapshots.support import SIZES, loaded, sandbox_app


@pytest.mark.parametrize("size", SIZES)
def test_organizations(snap_compare: Any, app: Any, size: tuple[int, int]) -> None:
    assert snap_compare(sandbox_app(app), terminal_size=size, run_before=loaded)


def test_organizations_cursor_on_the_second_row(snap_compare: Any, app: Any) -> None:
    assert snap_compare(sandbox_app(app), press=["j"], terminal_size=(80, 24), run_before=loaded)


def test_organizations_failed(snap_compare: Any, app: Any, state: SandboxState) -> None:
    state.tokens = {"another-token": state.default_user}
    assert snap_compare(sandbox_app(app), terminal_size=(80, 24), run_before=loaded)
