"""A pending review driven by keys over the sandbox: P holds, three comments written on the comments tab stay on
this machine (the line under the header counts them), H lists them, and the verdict sends them in one go, in order,
before the review; the sandbox then holds them in that order."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Static

from folio.api import GitBookClient
from folio.sandbox import SandboxState
from folio.services import Services
from folio.services.local import Local
from folio.tui.modals.pending_review import PendingReviewModal
from folio.tui.modals.review import ReviewModal
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.widgets.comments_panel import PagePickerModal
from tests.conftest import EXCHANGES

SIZE = (120, 32)
ASKING = {"comments-panel-new", "pending-drop", "pending-edit"}
"""Worker groups that wait on a modal: settled once the modal is up."""
LINUX = "Clarify Linux install steps"


@pytest.fixture
def services(client: GitBookClient, state: SandboxState, tmp_path: Path) -> Iterator[Services]:
    state.clock.freeze(datetime.now(UTC))  # the service's clock agrees with this machine's
    local = Local(client, cache_dir=tmp_path / "cache", state_dir=tmp_path / "state")
    local.confirm(state.default_user, "Ada")
    yield Services(client, where="the test sandbox", local=local)
    local.close()


async def settle(pilot: Pilot[None]) -> None:
    app = pilot.app
    for _ in range(500):
        await pilot.pause()
        asking = isinstance(app.screen, ModalScreen)
        if not [w for w in app.workers if w.is_running and not (asking and w.group in ASKING)]:
            break
    await pilot.pause()


async def press(pilot: Pilot[None], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


async def type_text(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*[{" ": "space"}.get(ch, ch) for ch in text])


def the_cr(state: SandboxState) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == LINUX)


def bar_text(screen: Any) -> str:
    bar = screen.query_one("#cr-review-bar", Static)
    return str(bar.render()) if bar.display else ""


def opener(services: Services, state: SandboxState) -> Any:
    record = the_cr(state)
    return lambda: ChangeRequestScreen(services, record["space"], record["number"], trail=("Northwind Labs",))


async def comment(pilot: Pilot[None], text: str) -> None:
    """c on the comments tab, the page under the cursor, the text, ctrl+s."""
    await press(pilot, "c")
    assert isinstance(pilot.app.screen, PagePickerModal)
    await press(pilot, "enter")
    assert isinstance(pilot.app.screen, TextEntryModal)
    await type_text(pilot, text)
    await press(pilot, "ctrl+s")


async def test_three_held_comments_and_a_verdict_go_in_one_go_in_order(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    record = the_cr(state)
    sid, cid = record["space"], record["id"]
    texts = ["First held remark", "Second held remark", "Third held remark"]
    async with open_app(opener(services, state), size=SIZE) as (app, pilot):
        screen = app.screen
        await settle(pilot)
        assert bar_text(screen) == ""
        await press(pilot, "P")
        assert bar_text(screen).startswith("pending review: 0 comments")
        await press(pilot, "3")
        for text in texts:
            await comment(pilot, text)
            assert app.screen is screen
        assert [c for c in state.comments.values() if c["body"] in texts] == []  # nothing reached the service
        assert bar_text(screen).startswith("pending review: 3 comments")
        assert "holding (P stops)" in bar_text(screen)
        said = [n.message for n in app._notifications]
        assert said.count("Held in your pending review: it is sent with your verdict (R).") == 3, said
        assert not any("outbox" in message for message in said), said

        await press(pilot, "H")
        listing = app.screen
        assert isinstance(listing, PendingReviewModal)
        rows = [str(row.cells[2]) for row in listing.list.visible_rows]
        assert rows == texts
        await press(pilot, "escape")

        mark = len(EXCHANGES)
        await press(pilot, "R")
        modal = app.screen
        assert isinstance(modal, ReviewModal)
        held = str(modal.query_one(".review--held", Static).render())
        assert "3 comments go first" in held and held.index(texts[0]) < held.index(texts[2])
        await press(pilot, "a", "f2")
        assert app.screen is screen
        writes = [(e["method"], e["path"]) for e in EXCHANGES[mark:] if e["method"] != "GET"]
        path = f"/spaces/{sid}/change-requests/{cid}"
        assert writes == [("POST", f"{path}/comments")] * 3 + [("POST", f"{path}/reviews")]
        sent = [c for c in state.comments.values() if c["body"] in texts]
        assert [c["body"] for c in sent] == texts and all(c["changeRequest"] == cid for c in sent)
        assert record["reviews"][-1]["status"] == "approved"
        assert any("Approved #1 with 3 comments." in n.message for n in app._notifications)
        assert bar_text(screen) == ""  # nothing held, not holding
    assert services.pending_review.get(sid, cid).items == []


async def test_a_held_comment_is_dropped_from_the_list_and_stopping_keeps_the_rest(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    record = the_cr(state)
    async with open_app(opener(services, state), size=SIZE) as (app, pilot):
        screen = app.screen
        await settle(pilot)
        await press(pilot, "P", "3")
        await comment(pilot, "Keep me")
        await comment(pilot, "Drop me")
        await press(pilot, "P")  # no longer holding: the two stay held for the verdict
        assert bar_text(screen).startswith("pending review: 2 comments") and "not holding" in bar_text(screen)
        await press(pilot, "H")
        listing = app.screen
        assert isinstance(listing, PendingReviewModal)
        await press(pilot, "j", "d")
        await press(pilot, "y")
        assert [str(r.cells[2]) for r in listing.list.visible_rows] == ["Keep me"]
        await press(pilot, "escape")
        assert bar_text(screen).startswith("pending review: 1 comment ")
        await comment(pilot, "Straight out")  # not holding: sent at once
        assert [c["body"] for c in state.comments.values() if c["body"] in ("Straight out", "Keep me")] == [
            "Straight out"
        ]
    assert [i.markdown for i in services.pending_review.get(record["space"], record["id"]).items] == ["Keep me"]
