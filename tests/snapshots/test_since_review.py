"""Since your last review pinned as SVG, at 80x24 and 160x50: the overview saying how many pages changed since the
review, and the changes tab showing only those (V). The change request was approved by the viewer, then another
user edited a page and added one (the sandbox's content changes, as the API applies them). And the comments tab
with a detached comment: its block was rewritten by another user after the comment was posted.

Update with ``pytest tests/snapshots/test_since_review.py --snapshot-update`` only after looking at the report.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from folio.sandbox import SandboxState
from folio.sandbox.domain.content_changes import apply_content_changes
from folio.sandbox.domain.reviews import add_review
from folio.sandbox.revisions import walk
from folio.services.review.detached import blocks_of
from folio.services.review.viewed import ViewedMarks
from folio.tui.app import FolioApp
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.widgets.change_overview import ChangesPane
from tests.conftest import FROZEN_AT
from tests.snapshots.support import freeze_now, pressed, sandbox_services

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]


@pytest.fixture(autouse=True)
def side_by_side_preferred(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ChangesPane, "prefer_side_by_side", True)
    freeze_now(monkeypatch)


def _reviewed_then_edited(state: SandboxState) -> dict[str, Any]:
    record = next(c for c in state.change_requests.values() if c["subject"] == "Clarify Linux install steps")
    pages = {p["title"]: p for p, _, _ in walk(state.revisions[record["revision"]]["pages"])}
    ViewedMarks().set_viewed(record["id"], record["revision"], pages["Windows"]["id"])
    add_review(state, record, state.default_user, "approved", "Fine", at=state.now())
    emeka = next(uid for uid, u in state.users.items() if u["email"].startswith("emeka@"))
    linux = pages["Linux"]
    changes = [
        {
            "operation": "update_page",
            "page": linux["id"],
            "document": {"markdown": linux["markdown"] + "\nArch Linux: install from the AUR.\n"},
        },
        {"operation": "insert_page", "title": "macOS", "document": {"markdown": "# macOS\n\nbrew install northwind\n"}},
    ]
    apply_content_changes(state, record, changes, emeka)
    return record


def _app(sandbox: Any, state: SandboxState) -> FolioApp:
    return _app_on(sandbox, state, _reviewed_then_edited(state))


def _app_on(sandbox: Any, state: SandboxState, record: dict[str, Any]) -> FolioApp:
    services = sandbox_services(sandbox)
    services.comments.clock = lambda: FROZEN_AT
    trail = (state.orgs[state.demo_org]["title"], state.spaces[record["space"]]["title"])
    app = FolioApp(
        services, start=lambda: ChangeRequestScreen(services, record["space"], record["number"], trail=trail)
    )
    app.animation_level = "none"
    return app


@pytest.mark.parametrize("size", SIZES)
def test_overview_says_what_changed_since(
    snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]
) -> None:
    assert snap_compare(_app(app, state), terminal_size=size, run_before=pressed())


@pytest.mark.parametrize("size", SIZES)
def test_changes_since_review(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    assert snap_compare(_app(app, state), terminal_size=size, run_before=pressed("2", "V"))


def _detached_app(sandbox: Any, state: SandboxState) -> tuple[FolioApp, Callable[[Pilot[None]], Awaitable[None]]]:
    """The change request's comments tab after a comment's block was rewritten by another user."""
    record = next(c for c in state.change_requests.values() if c["subject"] == "Clarify Linux install steps")
    linux = next(p for p, _, _ in walk(state.revisions[record["revision"]]["pages"]) if p["title"] == "Linux")
    app = _app_on(sandbox, state, record)
    old = "The package needs Ubuntu 22.04 or newer (Debian 12 works too)."

    async def run(pilot: Pilot[None]) -> None:
        client = pilot.app.services.client  # type: ignore[attr-defined]
        page = await client.content.page(record["space"], linux["id"], change_request=record["id"], format="document")
        key = next(k for k, t in blocks_of(page.document) if t == old)
        await client.comments.create(
            record["space"], "Which Debian versions?", change_request=record["id"], page=linux["id"], node=key
        )
        emeka = next(uid for uid, u in state.users.items() if u["email"].startswith("emeka@"))
        markdown = linux["markdown"].replace(old, "The package needs Ubuntu 22.04 or newer, or Debian 12.")
        change = {"operation": "update_page", "page": linux["id"], "document": {"markdown": markdown}}
        apply_content_changes(state, record, [change], emeka)
        await pressed("3")(pilot)

    return app, run


@pytest.mark.parametrize("size", SIZES)
def test_detached_comment(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    folio, run = _detached_app(app, state)
    assert snap_compare(folio, terminal_size=size, run_before=run)
