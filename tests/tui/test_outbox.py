"""The outbox modal and the writes queued from the thread screen and the comments panel, driven by keys over the
seeded sandbox with the account's local data in a temporary folder; every send is checked in the sandbox."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Footer, Header, Static

from folio.api import GitBookClient
from folio.models.comment import Comment
from folio.sandbox import SandboxState
from folio.services import Services
from folio.services.local import Local
from folio.services.review.comments import Queued
from folio.services.review.outbox import OutboxService, outbox_of
from folio.tui.app import FolioApp
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.outbox import OutboxModal, flush_outbox
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.screens.base import FolioScreen
from folio.tui.screens.review.thread import ThreadScreen
from folio.tui.widgets.comments_panel import CommentsPanel, PagePickerModal

SIZE = (110, 32)
ASKING = {"outbox-discard", "thread-write", "comments-panel-new"}
"""Worker groups that wait on a modal: settled once the modal is up."""


@pytest.fixture
def services(client: GitBookClient, state: SandboxState, tmp_path: Path) -> Iterator[Services]:
    state.clock.freeze(datetime.now(UTC))
    local = Local(client, cache_dir=tmp_path / "cache", state_dir=tmp_path / "state")
    local.confirm(state.default_user, "Ada")
    yield Services(client, where="the test sandbox", local=local)
    local.close()


def outbox(services: Services) -> OutboxService:
    found = outbox_of(services)
    assert found is not None
    return found


async def settle(pilot: Pilot[None]) -> None:
    """Let workers finish (those waiting on an open modal excepted) and the screen redraw."""
    app = pilot.app
    for _ in range(500):
        await pilot.pause()
        asking = isinstance(app.screen, ModalScreen) and not isinstance(app.screen, OutboxModal)
        busy = [w for w in app.workers if w.is_running and not (asking and w.group in ASKING)]
        if not busy:
            break
    else:
        raise AssertionError(f"workers still running: {busy}")
    await pilot.pause()


def space_of(state: SandboxState, title: str = "Admin Handbook") -> str:
    return next(s["id"] for s in state.spaces.values() if s["title"] == title and s["organization"] == state.demo_org)


def open_threads(state: SandboxState, space_id: str) -> list[dict[str, Any]]:
    return [
        c
        for c in state.comments.values()
        if c["space"] == space_id and c["changeRequest"] is None and c["status"] == "open"
    ]


def rows(modal: OutboxModal) -> list[list[str]]:
    return [[c if isinstance(c, str) else c.plain for c in row.cells] for row in modal.list.rows]


def status(modal: OutboxModal) -> str:
    return str(modal.query_one(".outbox--status", Static).render())


def notes(app: FolioApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def open_outbox(app: FolioApp, pilot: Pilot[None], services: Services) -> OutboxModal:
    app.push_screen(OutboxModal(services))
    await settle(pilot)
    modal = app.screen
    assert isinstance(modal, OutboxModal)
    return modal


async def test_the_modal_lists_the_batch_and_s_sends_it_in_order(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    sid = space_of(state)
    thread = open_threads(state, sid)[0]
    await services.client.spaces.get(sid)
    services.client.set_offline("asked")
    await services.comments.create(sid, "Queued from the train")
    await services.comments.reply(sid, thread["id"], "Agreed")
    await services.comments.react(sid, thread["id"], "👀", where="your reaction 👀 on the first thread")
    await services.comments.set_resolved(sid, thread["id"], True)

    # Opened online, Folio would send the batch at once; offline as asked, it waits for `s`.
    async with open_app(size=SIZE) as (app, pilot):
        modal = await open_outbox(app, pilot, services)
        assert [r[0] for r in rows(modal)] == ["comment", "reply", "reaction", "resolve"]
        assert [r[2] for r in rows(modal)] == ["waiting"] * 4
        assert rows(modal)[0][1] == "a comment in “Admin Handbook”"
        assert rows(modal)[2][1] == "your reaction 👀 on the first thread in “Admin Handbook”"
        assert status(modal).startswith("4 waiting · 0 stuck. Folio runs offline")
        detail = str(modal.query_one(".outbox--detail", Static).render())
        assert "“Queued from the train”" in detail
        await pilot.press("j")
        assert "“Agreed”" in str(modal.query_one(".outbox--detail", Static).render())

        services.client.set_offline(None)
        await pilot.press("s")
        await settle(pilot)
        assert [r[2] for r in rows(modal)] == ["sent"] * 4
        assert status(modal).startswith("Outbox: 4 sent.")
        assert "Outbox: 4 sent." in notes(app)
        assert outbox(services).items() == []
        assert [c["body"] for c in state.comments.values()].count("Queued from the train") == 1
        assert [r["body"] for r in thread["replies"]].count("Agreed") == 1
        assert thread["status"] == "resolved"
        assert modal.check_action("send", ()) is None  # nothing waits any more

        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, OutboxModal)


async def test_a_stuck_item_shows_why_and_d_discards_it_after_confirming(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    sid = space_of(state)
    doomed, living = open_threads(state, sid)[:2]
    services.client.set_offline("asked")
    await services.comments.reply(sid, doomed["id"], "Too late")
    await services.comments.reply(sid, living["id"], "Just in time")
    del state.comments[doomed["id"]]

    async with open_app(size=SIZE) as (app, pilot):
        modal = await open_outbox(app, pilot, services)
        services.client.set_offline(None)
        await pilot.press("s")
        await settle(pilot)
        assert [r[2] for r in rows(modal)] == ["stuck", "sent"]
        assert "The thread was deleted: the reply was not sent." in str(
            modal.query_one(".outbox--detail", Static).render()
        )
        assert [r["body"] for r in living["replies"]].count("Just in time") == 1

        await pilot.press("j")
        assert modal.check_action("discard", ()) is None  # a sent item is not discarded
        await pilot.press("k", "d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("n")
        await settle(pilot)
        assert [i.state for i in outbox(services).items()] == ["stuck"]  # still there

        await pilot.press("d")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert app.screen is modal
        assert outbox(services).items() == []
        assert [r[2] for r in rows(modal)] == ["sent"]


async def test_offline_s_sends_nothing_and_says_why(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_of(state)
    services.client.set_offline("asked")
    await services.comments.reply(sid, open_threads(state, sid)[0]["id"], "Later")
    async with open_app(size=SIZE) as (app, pilot):
        modal = await open_outbox(app, pilot, services)
        assert "Folio runs offline (--offline)" in status(modal)
        assert modal.check_action("send", ()) is None
        await pilot.press("s")
        await settle(pilot)
        assert [i.state for i in outbox(services).items()] == ["queued"]
        assert all(r["body"] != "Later" for c in state.comments.values() for r in c["replies"])


async def test_server_text_in_the_outbox_is_shown_as_text(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    sid = space_of(state)
    state.spaces[sid]["title"] = "[@click=app.quit]Evil\x1b]52;c;aGk=\x07 space"
    await services.client.spaces.get(sid)
    services.client.set_offline("asked")
    await services.comments.create(sid, "Hello [b]there[/b]\x1b[2J")
    async with open_app(size=SIZE) as (app, pilot):
        modal = await open_outbox(app, pilot, services)
        assert rows(modal)[0][1] == "a comment in “[@click=app.quit]Evil space”"
        detail = str(modal.query_one(".outbox--detail", Static).render())
        assert "Hello [b]there[/b]" in detail and "\x1b" not in detail
        assert app.is_running


async def test_flush_outbox_sends_and_notifies(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_of(state)
    services.client.set_offline("asked")
    await services.comments.reply(sid, open_threads(state, sid)[0]["id"], "Back online now")
    async with open_app(size=SIZE) as (app, pilot):
        assert await flush_outbox(app, services) is None  # offline as asked: the flush waits
        services.client.set_offline(None)
        report = await flush_outbox(app, services)
        assert report is not None and report.done == 1
        await pilot.pause()
        assert "Outbox: 1 sent." in notes(app)
        assert await flush_outbox(app, services) is None  # nothing left


async def test_a_reply_written_offline_in_a_thread_is_queued(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    sid = space_of(state)
    thread = open_threads(state, sid)[0]
    replies = len(thread["replies"])
    async with open_app(lambda: ThreadScreen(services, sid, thread["id"]), size=SIZE) as (app, pilot):
        await settle(pilot)  # read online: the thread is in the cache
        services.client.set_offline("asked")
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, TextEntryModal)
        await pilot.press(*"Noted", "ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ThreadScreen)
        assert notes(app)[-1] == Queued.message
        [item] = outbox(services).items()
        assert item.kind == "reply" and item.payload["markdown"] == "Noted"
        assert item.where.startswith("a reply to ")
        assert len(thread["replies"]) == replies

        await pilot.press("x")  # resolve, offline: queued too
        await settle(pilot)
        assert notes(app)[-1] == Queued.message
        assert [i.kind for i in outbox(services).items()] == ["reply", "resolve"]
        assert thread["status"] == "open"

        services.client.set_offline(None)
        report = await flush_outbox(app, services)
        assert report is not None and report.done == 2
        assert [r["body"] for r in thread["replies"]].count("Noted") == 1 and thread["status"] == "resolved"


class Host(FolioScreen):
    """Stands in for the space screen that embeds the comments panel."""

    crumb = "Host"

    def __init__(self, services: Services, space_id: str) -> None:
        super().__init__(services)
        self.space_id = space_id

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield CommentsPanel(self.services, self.space_id)
        yield Footer()


async def test_a_comment_and_a_resolve_made_offline_in_the_panel_are_queued(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    sid = space_of(state)
    before = len(state.comments)
    async with open_app(lambda: Host(services, sid), size=SIZE) as (app, pilot):
        await settle(pilot)  # read online: the comments and pages are in the cache
        panel = app.screen.query_one(CommentsPanel)
        services.client.set_offline("asked")
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, PagePickerModal)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TextEntryModal)
        await pilot.press(*"Offline", "ctrl+s")
        await settle(pilot)
        assert app.screen.query(CommentsPanel)
        assert notes(app)[-1] == Queued.message
        [item] = outbox(services).items()
        assert (
            item.kind == "comment" and item.payload["markdown"] == "Offline" and item.where.startswith("a comment on")
        )

        row = next(r for r in panel.browser.list.rows if isinstance(r.data, Comment) and not r.data.resolved)
        assert panel.browser.list.move_to(row.key)
        await pilot.press("x")
        await settle(pilot)
        assert notes(app)[-1] == Queued.message
        assert [(i.kind, i.payload["comment"]) for i in outbox(services).items()[1:]] == [("resolve", row.key)]
        assert len(state.comments) == before and state.comments[row.key]["status"] == "open"
