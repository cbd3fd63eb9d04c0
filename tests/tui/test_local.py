"""The local data in the TUI: every screen paints from the cache when the link is down (and says it is
offline), fresh data replaces a cached paint without moving the cursor, drafts survive a failed send and a
restart, a hang-up keeps the draft and the session, and a restart after it reopens the same screens."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import TabbedContent

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.faults import Faults
from folio.services import Services
from folio.services.local import Local
from folio.tui.app import FolioApp
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.widgets.resource_browser import ResourceBrowser
from tests.conftest import SANDBOX_URL, TOKEN, Link
from tests.tui.conftest import settle
from tests.tui.test_faults import SCREENS, opener
from tests.tui.test_hostile import frame_text, targets_of


async def _no_sleep(seconds: float) -> None:
    return None


async def until(pilot: Pilot[None], ready: Callable[[], bool]) -> None:
    """Pause until ``ready()`` (a modal waiting for input keeps its worker running: ``settle`` would wait forever).
    The bound only stops a broken build from hanging the suite."""
    for _ in range(500):
        if ready():
            return
        await pilot.pause(0.01)
    raise AssertionError("the screen never got there")


class Machine:
    """One machine's folders, and a sandbox behind a link that can drop; each ``run`` is a new Folio process."""

    def __init__(self, state: SandboxState, home: Path) -> None:
        self.state = state
        self.home = home
        self.faults = Faults(seed=5)
        self.link = Link(SandboxTransport(create_app(state, faults=self.faults)))

    @asynccontextmanager
    async def services(self) -> AsyncIterator[Services]:
        client = GitBookClient(
            token=Token(TOKEN), base_url=SANDBOX_URL, transport=self.link, retry=RetryPolicy(sleep=_no_sleep)
        )
        local = Local(client, cache_dir=self.home / "cache", state_dir=self.home / "state")
        local.open_known()
        try:
            yield Services(client, where="the test sandbox", local=local)
        finally:
            local.close()
            await client.aclose()

    @asynccontextmanager
    async def run(
        self, start: Callable[[Services], Callable[[], Screen[Any]] | None] | None = None, **kwargs: Any
    ) -> AsyncIterator[tuple[FolioApp, Pilot[None]]]:
        async with self.services() as services:
            app = FolioApp(services, start=start(services) if start else None, **kwargs)
            app.animation_level = "none"
            async with app.run_test(size=(100, 30)) as pilot:
                await settle(pilot)
                yield app, pilot


@pytest.fixture
def machine(state: SandboxState, tmp_path: Path) -> Machine:
    return Machine(state, tmp_path / "home")


def expected_text(name: str, state: SandboxState) -> str:
    """A text from the sandbox that the screen ``name`` shows once loaded."""
    t = targets_of(state)
    space_titles = [s["title"] for s in state.spaces.values() if s["organization"] == t["org"]]
    return {
        "organizations": state.orgs[t["org"]]["title"],
        "organization": sorted(space_titles)[0] if False else space_titles[0],
        "space": state.spaces[t["space"]]["title"],
        "change-request": state.change_requests[t["cr"]]["subject"],
        "thread": state.comments[t["comment"]]["body"].splitlines()[0][:20],
        "site": state.sites[t["site"]]["title"],
    }[name]


@pytest.mark.parametrize("name", SCREENS)
async def test_every_screen_paints_from_the_cache_when_the_link_is_down(
    name: str, machine: Machine, state: SandboxState
) -> None:
    def start(services: Services) -> Callable[[], Screen[Any]] | None:
        return opener(name, services, state)

    async with machine.run(start) as (app, pilot):
        online = frame_text(app.screen)
        assert app.services.local is not None and app.services.local.account is not None
    machine.link.down = True
    async with machine.run(start) as (app, pilot):
        await settle(pilot)
        offline = frame_text(app.screen)
        assert app.services.client.offline_reason == "network"
        assert "offline" in str(app.title)
        assert "Could not" not in offline, offline
    wanted = expected_text(name, state)
    if wanted[:12] in online:  # what the screen showed online, it shows offline too
        assert wanted[:12] in offline


async def test_fresh_data_replaces_a_cached_paint_and_the_cursor_stays(machine: Machine, state: SandboxState) -> None:
    def start(services: Services) -> Callable[[], Screen[Any]] | None:
        return opener("organization", services, state)

    async with machine.run(start) as (app, pilot):
        await pilot.press("2")
        await settle(pilot)
    machine.faults.latency = 3.0  # the fresh answers come late: the keys land on the cached paint
    async with machine.services() as services:
        app = FolioApp(services, start=opener("organization", services, state))
        app.animation_level = "none"
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("2", "j", "j")
            browser = app.screen.query_one("#organization-spaces", ResourceBrowser)
            assert "cached" in str(app.screen.sub_title), "the cached paint says how old it is"
            row = browser.list.highlighted
            assert row is not None and browser.list.cursor == 2
            state.spaces[row.key]["title"] = "Renamed while away"
            await settle(pilot)
            assert browser.list.highlighted is not None and browser.list.highlighted.key == row.key
            titles = [r.search for r in browser.list.rows]
            assert any("renamed while away" in t.lower() for t in titles), titles
            assert "cached" not in str(app.screen.sub_title), app.screen.__dict__.get("_ages")


async def test_a_reply_draft_survives_a_failed_send_and_a_restart(machine: Machine, state: SandboxState) -> None:
    t = targets_of(state)

    def start(services: Services) -> Callable[[], Screen[Any]] | None:
        return opener("thread", services, state)

    before = len(state.comments[t["comment"]].get("replies") or [])
    async with machine.run(start) as (app, pilot):
        await pilot.press("c")
        await until(pilot, lambda: isinstance(pilot.app.screen, TextEntryModal))
        assert isinstance(app.screen, TextEntryModal)
        await pilot.press(*"Kept through everything")
        local = app.services.local
        assert local is not None and local.state is not None
        drafts = local.state.drafts()
        assert [d.text for d in drafts] == ["Kept through everything"]
        assert "reply" in drafts[0].where
        machine.faults.error_rate = 1.0
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Not sent" in frame_text(pilot.app.screen))
        assert isinstance(app.screen, TextEntryModal), "a failed send keeps the entry open"
        said = app.screen.problem_text
        assert "What you typed is kept" in said and "state-" not in said  # no file path in the message
    machine.faults.error_rate = 0.0
    async with machine.run(start) as (app, pilot):
        await pilot.press("c")
        await until(pilot, lambda: isinstance(pilot.app.screen, TextEntryModal))
        assert isinstance(app.screen, TextEntryModal)
        assert app.screen.text == "Kept through everything"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(pilot.app.screen, TextEntryModal))
        await settle(pilot)
        assert app.services.local is not None and app.services.local.state is not None
        assert app.services.local.state.drafts() == []
    replies = state.comments[t["comment"]].get("replies") or []
    assert len(replies) == before + 1


async def test_a_hang_up_keeps_the_draft_and_the_next_start_reopens_the_screens(
    machine: Machine, state: SandboxState
) -> None:
    t = targets_of(state)
    async with machine.run(restore=True) as (app, pilot):
        app.push_screen(opener("space", app.services, state)())  # type: ignore[misc]
        await settle(pilot)
        app.push_screen(opener("thread", app.services, state)())  # type: ignore[misc]
        await settle(pilot)
        await pilot.press("c")
        await until(pilot, lambda: isinstance(pilot.app.screen, TextEntryModal))
        await pilot.press(*"typed when the line dropped")
        os.kill(os.getpid(), signal.SIGHUP)
        await pilot.pause(0.2)
        assert app.return_code == 128 + signal.SIGHUP
        local = app.services.local
        assert local is not None and local.state is not None
        assert [d.text for d in local.state.drafts()] == ["typed when the line dropped"]
        saved = local.state.session()
        assert saved is not None and [s["screen"] for s in saved["screens"]] == ["space", "thread"]
    async with machine.run(restore=True) as (app, pilot):
        await settle(pilot)
        names = [type(s).__name__ for s in app.screen_stack[1:]]
        assert names == ["OrganizationsScreen", "SpaceScreen", "ThreadScreen"]
        assert getattr(app.screen, "comment_id", None) == t["comment"]
        await pilot.press("q")
    async with machine.run(restore=True) as (app, pilot):
        assert [type(s).__name__ for s in app.screen_stack[1:]] == ["OrganizationsScreen"], "q ends the session"


async def test_a_reply_made_while_the_link_is_down_goes_out_when_it_is_back(
    machine: Machine, state: SandboxState
) -> None:
    t = targets_of(state)

    def start(services: Services) -> Callable[[], Screen[Any]] | None:
        return opener("thread", services, state)

    before = len(state.comments[t["comment"]].get("replies") or [])
    async with machine.run(start) as (app, pilot):
        pass  # the thread was seen once: it is in the cache
    machine.link.down = True
    async with machine.run(start) as (app, pilot):
        assert app.services.client.offline_reason == "network"
        await pilot.press("c")
        await until(pilot, lambda: isinstance(pilot.app.screen, TextEntryModal))
        await pilot.press(*"Written on the train", "ctrl+s")
        await until(pilot, lambda: not isinstance(pilot.app.screen, TextEntryModal))
        assert len(state.comments[t["comment"]].get("replies") or []) == before, "nothing reached the service"
        outbox = app.services.outbox
        assert outbox is not None and [i.kind for i in outbox.items()] == ["reply"]
        machine.link.down = False
        await app._probe_online()  # what the 15 s timer does
        await settle(pilot)
        assert app.services.client.offline_reason is None
        replies = state.comments[t["comment"]].get("replies") or []
        assert len(replies) == before + 1
        assert "Written on the train" in str(replies[-1])
        assert outbox.waiting() == 0


async def test_a_restart_puts_back_the_tab_the_filter_and_the_row(machine: Machine, state: SandboxState) -> None:
    async with machine.run(restore=True) as (app, pilot):
        app.push_screen(opener("organization", app.services, state)())  # type: ignore[misc]
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        browser = app.screen.query_one("#organization-spaces", ResourceBrowser)
        await pilot.press("slash", *"re", "enter")  # the filter: the spaces whose row has "re" in it
        await pilot.press("j")
        await settle(pilot)
        row = browser.list.highlighted
        assert row is not None and browser.list.cursor == 1
        app.save_session()
        os.kill(os.getpid(), signal.SIGTERM)
        await pilot.pause(0.2)
        assert app.return_code == 128 + signal.SIGTERM
    async with machine.run(restore=True) as (app, pilot):
        await settle(pilot)
        assert type(app.screen).__name__ == "OrganizationScreen"
        browser = app.screen.query_one("#organization-spaces", ResourceBrowser)
        assert app.screen.query_one(TabbedContent).active == "spaces"
        assert browser.filter_input.value == "re"
        assert browser.list.highlighted is not None and browser.list.highlighted.key == row.key


async def test_a_restored_screen_is_kept_for_a_reopen(machine: Machine, state: SandboxState) -> None:
    async with machine.run(restore=True) as (app, pilot):
        app.push_screen(opener("organization", app.services, state)())  # type: ignore[misc]
        await settle(pilot)
        app.save_session()
    async with machine.run(restore=True) as (app, pilot):
        await settle(pilot)
        restored = app.screen
        assert type(restored).__name__ == "OrganizationScreen"
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is not restored and app.is_screen_installed(restored)
        app.open_route("organization", {"org_id": state.demo_org}, title="Northwind Labs")
        await settle(pilot)
        assert app.screen is restored  # pushed back, not built again


async def test_a_corrupt_cache_is_moved_aside_said_and_the_app_runs(machine: Machine, state: SandboxState) -> None:
    async with machine.run() as (app, pilot):
        pass
    files = list((machine.home / "cache").glob("responses-*.sqlite3"))
    assert len(files) == 1
    files[0].write_bytes(b"this is not a database, it was a disk hiccup" * 100)
    async with machine.run() as (app, pilot):
        await settle(pilot)
        messages = " ".join(str(n.message) for n in app._notifications)
        assert "moved" in messages.lower() or "corrupt" in messages.lower() or "damaged" in messages.lower(), messages
        assert app.is_running and state.orgs[targets_of(state)["org"]]["title"][:10] in frame_text(app.screen)
    assert list((machine.home / "cache").glob("responses-*.corrupt-*")), "the damaged file is kept aside"


async def test_refreshing_by_itself_reloads_the_screen_in_view_unless_the_rate_limit_is_spent(
    machine: Machine, state: SandboxState
) -> None:
    from folio.config.settings import RefreshSettings

    def start(services: Services) -> Callable[[], Screen[Any]] | None:
        return opener("organization", services, state)

    async with machine.run(start, refresh=RefreshSettings(interval=60.0)) as (app, pilot):
        client = app.services.client
        sent = len(machine.link.sent)
        client.quiet_until = time.time() + 600  # the service said its rate limit is spent
        app._refresh_by_itself()
        await settle(pilot)
        assert len(machine.link.sent) == sent, "nothing went out while the rate limit is spent"
        client.quiet_until = 0.0
        app._refresh_by_itself()
        await settle(pilot)
        assert any(path.startswith("/orgs/") for _, path in machine.link.sent[sent:]), "the screen in view reloaded"
