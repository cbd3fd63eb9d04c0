"""A large organization's members (the sandbox's generated ones, issue 24, 11): the first page is on screen before the
last one comes, and every key typed while the list loads reaches its filter (``/zq``: the ``q`` is text, Folio does
not quit), also when who the caller is was read from the cache (that paints no row: the fresh pages must not wait
for the last one)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from textual import events
from textual.pilot import Pilot

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.clock import Clock
from folio.sandbox.seed import populate
from folio.services import Services
from folio.services.local import Local
from folio.services.people.people import PAGE_SIZE
from folio.tui.app import FolioApp
from folio.tui.screens.people.members import MembersScreen
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN
from tests.tui.conftest import settle

SCALE = 1000


@pytest.fixture
def state() -> Iterator[SandboxState]:
    st = SandboxState(clock=Clock(FROZEN_AT), seed=7)
    populate(st, scale=SCALE)
    yield st


class Gate(httpx.AsyncBaseTransport):
    """The link to the sandbox, holding every page of the members after the first until ``open`` is set: what
    the screen shows meanwhile is what it shows before the last page comes."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.open = asyncio.Event()
        self.held = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/members") and "page" in request.url.params:
            self.held += 1
            await self.open.wait()
        return await self.inner.handle_async_request(request)


async def _no_sleep(seconds: float) -> None:
    return None


async def _until(pilot: Pilot[None], ready: Callable[[], object], tries: int = 200) -> None:
    """Let the app work until ``ready()`` (its keys and the first page), a bounded number of rounds: the pages
    after the first are held, so the list cannot complete meanwhile."""
    for _ in range(tries):
        if ready():
            return
        await pilot.pause()


async def test_the_first_members_show_at_once_and_keys_typed_meanwhile_reach_the_filter(
    state: SandboxState, tmp_path: Path
) -> None:
    total = len(state.members[state.demo_org])
    assert total > 10 * PAGE_SIZE
    gate = Gate(SandboxTransport(create_app(state)))
    client = GitBookClient(token=Token(TOKEN), base_url=SANDBOX_URL, transport=gate, retry=RetryPolicy(sleep=_no_sleep))
    local = Local(client, cache_dir=tmp_path / "cache", state_dir=tmp_path / "state")
    local.open_known()
    services = Services(client, where="the test sandbox", local=local)
    try:
        await services.people.access(state.demo_org)  # who the caller is, in the cache (as after the org's screen)
        app = FolioApp(services)
        app.animation_level = "none"
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            screen = MembersScreen(services, state.demo_org, trail=("Northwind Labs",))
            pushed = app.push_screen(screen)
            for key, character in (("slash", "/"), ("z", "z"), ("q", "q")):  # one burst, as a terminal sends it
                app._driver.send_message(events.Key(key, character))  # type: ignore[union-attr]
            await pushed
            browser = screen.panel.browser
            await _until(pilot, lambda: gate.held and browser.list.rows and browser.typed_filter)
            assert app.is_running and app.screen is screen  # the q did not quit
            assert gate.held == 1 and len(browser.list.rows) == PAGE_SIZE  # the first page, the second held
            assert browser.typed_filter == "zq"
            gate.open.set()
            await settle(pilot)
            assert len(browser.list.rows) == total
            assert browser.typed_filter == "zq" and app.screen is screen
    finally:
        local.close()
        await client.aclose()
