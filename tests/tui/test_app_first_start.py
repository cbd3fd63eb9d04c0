"""A first start (issue 15): nothing is cached, so the organization list is asked at process start
(``folio.services.first_paint.Prefetch``, in a thread, while the TUI is imported) and the first frame paints its
answer before the HTTP client is built; the client then reads the list again and its models replace the rows.
The server is ``folio sandbox serve`` on a socket (a prefetch goes to the network only, not through a test's
transport); the demo's prefetch is a sandbox seeded in a child process, and its own sandbox is built after."""

from __future__ import annotations

import threading
import urllib.request
from collections.abc import Iterator

import pytest

from folio.models.organization import Organization
from folio.services.first_paint import ORGANIZATIONS_KEY, CachedOrganization, Prefetch
from folio.tui.app import FolioApp
from tests.sandbox import serving
from tests.tui.conftest import settle
from tests.tui.test_app_second_start import Start, _args
from tests.tui.test_hostile import frame_text

TOKEN = "first-start-token-0123456789"
DEMO_TITLE = "Northwind Labs"


@pytest.fixture(scope="module")
def sandbox() -> Iterator[str]:
    with serving.served() as url:
        yield url


async def test_a_first_start_paints_the_prefetched_list_before_the_client_then_the_clients(sandbox: str) -> None:
    start = Start(_args(base_url=sandbox, token=TOKEN))
    prefetch = start.services.prefetch
    assert prefetch is not None, "a first start with nothing cached asks for the list at once"
    assert start.services.local is not None and start.services.cached_organizations() is None
    async with start.run() as (app, _):
        assert start.built_under is not None and DEMO_TITLE in start.built_under  # painted before the client
        assert DEMO_TITLE in frame_text(app.screen)
        orgs = app.screen.organizations  # type: ignore[attr-defined]
        assert orgs and all(isinstance(org, Organization) for org in orgs)  # the client's answer replaced it
        assert not any(isinstance(org, CachedOrganization) for org in orgs)
    assert start.services.prefetch is None  # used once: a later :profile asks as usual

    second = Start(_args(base_url=sandbox, token=TOKEN))
    assert second.services.prefetch is None  # the cache paints a second start
    await second.services.aclose()
    if second.services.local is not None:
        second.services.local.close()


async def test_a_failed_prefetch_leaves_the_client_to_ask_and_to_say_what_is_wrong() -> None:
    with serving.served("--faults", "error_rate=1.0") as url:
        start = Start(_args(base_url=url, token=TOKEN))
        assert start.services.prefetch is not None
        async with start.run() as (app, pilot):
            await pilot.pause(0.5)
            shown = frame_text(app.screen)
            assert "Could not load your organizations" in shown, shown
            assert DEMO_TITLE not in shown and TOKEN not in shown


async def test_the_demos_first_start_paints_the_list_before_its_sandbox_is_built() -> None:
    start = Start(_args(demo=True))
    assert start.services.prefetch is not None
    assert start.services.prefetch.wait(60) is not None  # (answered before the screen: not a race with the test)
    async with start.run() as (app, _):
        assert start.built_under is not None and DEMO_TITLE in start.built_under  # the child's sandbox answered
        orgs = app.screen.organizations  # type: ignore[attr-defined]
        assert orgs and all(isinstance(org, Organization) for org in orgs)  # then the demo's own sandbox


async def test_a_prefetch_still_on_its_way_is_waited_for_with_the_list_loading(sandbox: str) -> None:
    """The screen mounts before the answer: it says the list is loading, builds no client meanwhile, and paints the
    answer when it comes; then the client reads the list."""
    asked = urllib.request.Request(f"{sandbox}/v1/orgs", headers={"Authorization": "Bearer x"})
    with urllib.request.urlopen(asked) as answer:
        body = answer.read()
    gate = threading.Event()

    def ask() -> dict[str, bytes]:
        assert gate.wait(30)
        return {ORGANIZATIONS_KEY: body}

    start = Start(_args(base_url=sandbox, token=TOKEN))
    assert start.services.prefetch is not None and start.services.prefetch.wait(30) is not None
    start.services.prefetch = Prefetch(ask).start()
    app = start.app = FolioApp(start.services, restore=True, accounts=start.launcher)
    app.animation_level = "none"
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause(0.2)
            shown = frame_text(app.screen)
            assert DEMO_TITLE not in shown and "Loading" in shown, shown
            assert not start.services.connected
            gate.set()
            for _ in range(100):
                await pilot.pause(0.05)
                if start.services.connected:
                    break
            assert start.built_under is not None and DEMO_TITLE in start.built_under
            await settle(pilot)
            orgs = app.screen.organizations  # type: ignore[attr-defined]
            assert orgs and all(isinstance(org, Organization) for org in orgs)
    finally:
        await start.services.aclose()
        if start.services.local is not None:
            start.services.local.close()


async def test_a_prefetch_slower_than_its_patience_is_left_to_the_client(sandbox: str) -> None:
    gate = threading.Event()
    late = {ORGANIZATIONS_KEY: b'{"items": [{"id": "late", "title": "A Late Answer"}]}'}

    def ask() -> dict[str, bytes]:
        gate.wait(30)
        return late

    start = Start(_args(base_url=sandbox, token=TOKEN))
    assert start.services.prefetch is not None and start.services.prefetch.wait(30) is not None
    start.services.prefetch = slow = Prefetch(ask, patience=0.1).start()
    try:
        async with start.run() as (app, pilot):
            assert DEMO_TITLE in frame_text(app.screen)  # the client's answer
            gate.set()
            assert slow.wait(30) is not None
            await settle(pilot)
            shown = frame_text(app.screen)
            assert DEMO_TITLE in shown and "A Late Answer" not in shown  # a late prefetch paints nothing
    finally:
        gate.set()


async def test_no_prefetch_through_a_proxy(sandbox: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.invalid:3128")
    proxied = Start(_args(base_url=sandbox, token=TOKEN))
    assert proxied.services.prefetch is None
    await proxied.services.aclose()
    if proxied.services.local is not None:
        proxied.services.local.close()
