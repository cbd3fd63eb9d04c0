"""A second start (issue 15): the organization list is painted from the account's cache before the HTTP client is
built, and the service's answer replaces it; the demo paints its last run's list the same way, and once its new
sandbox has answered nothing of that run is left on screen or in the cache."""

from __future__ import annotations

import argparse
import asyncio
import json
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest

from folio import cli
from folio.cli_tui import Launcher
from folio.config.settings import Settings
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.services import Services
from folio.tui.app import FolioApp
from tests.conftest import SANDBOX_URL, TOKEN
from tests.tui.conftest import settle
from tests.tui.test_hostile import frame_text


def _args(**given: Any) -> argparse.Namespace:
    base = {"demo": False, "profile": None, "token": None, "base_url": None, "no_cache": False, "offline": False}
    return argparse.Namespace(**{**base, **given})


class Start:
    """One start of Folio as ``folio.cli_tui.run_tui`` makes it, with the frame that was on screen when the HTTP
    client was built (None: it was built before the app ran)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.launcher = Launcher(args, None, Settings.load())
        self.services = self.launcher.services_for("demo" if args.demo else None, first=True)
        self.built_under: str | None = None
        self.app: FolioApp | None = None
        build: Callable[[], Any] = self.services._connect  # type: ignore[assignment]
        connect = self.services.connect

        def seen() -> str | None:
            return frame_text(self.app.screen) if self.app is not None and self.app.is_running else None

        def watched() -> Any:
            if threading.current_thread() is threading.main_thread():  # built on the loop (else: connect() saw)
                self.built_under = seen()
            return build()

        async def watched_connect() -> None:
            if not self.services.connected and self.built_under is None:
                self.built_under = seen()
            await connect()

        self.services._connect = watched
        self.services.connect = watched_connect  # type: ignore[method-assign]

    @asynccontextmanager
    async def run(self) -> AsyncIterator[tuple[FolioApp, Any]]:
        assert not self.services.connected, "the launcher built the client before the app ran"
        app = self.app = FolioApp(self.services, restore=True, accounts=self.launcher)
        app.animation_level = "none"
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                await settle(pilot)
                yield app, pilot
        finally:
            await self.services.aclose()
            if self.services.local is not None:
                self.services.local.close()


@pytest.fixture
def served(state: SandboxState, monkeypatch: pytest.MonkeyPatch) -> SandboxState:
    """``folio --base-url`` reaches this sandbox (the command line's transport seam)."""
    app = create_app(state)
    monkeypatch.setattr(cli, "transport_factory", lambda base_url: SandboxTransport(app))
    return state


def demo_org(state: SandboxState) -> dict[str, Any]:
    return state.orgs[state.demo_org]


async def test_a_second_start_paints_the_cached_list_before_the_client_then_the_services(served: SandboxState) -> None:
    args = _args(base_url=SANDBOX_URL, token=TOKEN)
    first = Start(args)
    async with first.run() as (app, _):
        title = demo_org(served)["title"]
        assert title in frame_text(app.screen)
        assert first.built_under is not None and title not in first.built_under  # nothing cached: it waited
    demo_org(served)["title"] = "Renamed Since Yesterday"

    second = Start(args)
    async with second.run() as (app, _):
        assert second.built_under is not None, "the client was built before the first frame"
        assert title in second.built_under and "cached" in second.built_under  # the cache's row, and its age
        assert "Refresh" in frame_text(app.screen)  # the footer's keys, built after the first frame
        shown = frame_text(app.screen)
        assert "Renamed Since Yesterday" in shown and title not in shown and "cached" not in shown
        assert [org.title for org in app.screen.organizations][:1] == ["Renamed Since Yesterday"]  # type: ignore[attr-defined]


async def test_the_demo_paints_its_last_run_until_its_new_sandbox_answers_and_forgets_the_rest() -> None:
    args = _args(demo=True)
    first = Start(args)
    async with first.run() as (app, _):
        local = first.services.local
        assert local is not None and local.cache is not None and local.account is not None
    # What the last run wrote stays in its cache: a title it changed, and a space only that run had.
    again = Start(args)
    local = again.services.local
    assert local is not None and local.cache is not None
    hit = local.cache.get("GET /orgs")
    assert hit is not None
    page = json.loads(hit.body)
    real = page["items"][0]["title"]
    page["items"][0]["title"] = "Written In The Last Run"
    local.cache.put("GET /orgs", json.dumps(page).encode())
    local.cache.put("GET /spaces/only-in-the-last-run", b'{"id": "only-in-the-last-run"}')

    async with again.run() as (app, _):
        assert again.built_under is not None and "Written In The Last Run" in again.built_under
        shown = frame_text(app.screen)
        assert real in shown and "Written In The Last Run" not in shown
        assert local.cache is not None and local.cache.get("GET /spaces/only-in-the-last-run") is None
        kept = local.cache.get("GET /orgs")
        assert kept is not None and b"Written In The Last Run" not in kept.body  # this run's answer, for the next

    third = Start(args)
    async with third.run() as (app, _):
        assert third.built_under is not None and real in third.built_under


async def test_no_cache_kept_waits_for_the_service(served: SandboxState) -> None:
    start = Start(_args(base_url=SANDBOX_URL, token=TOKEN, no_cache=True))
    async with start.run() as (app, _):
        assert start.services.local is None
        assert start.built_under is not None and demo_org(served)["title"] not in start.built_under
        assert demo_org(served)["title"] in frame_text(app.screen)


def test_services_need_a_client_or_a_way_to_build_one() -> None:
    with pytest.raises(ValueError, match="connect"):
        Services(where="somewhere")
    with pytest.raises(ValueError, match="where"):
        Services(connect=lambda: None)  # type: ignore[arg-type,return-value]


async def test_closing_services_never_built_builds_nothing() -> None:
    def never() -> Any:
        raise AssertionError("built")

    services = Services(where="somewhere", connect=never)
    await services.aclose()
    assert not services.connected


async def test_connect_builds_the_client_in_a_thread_once(client: Any, tmp_path: Any) -> None:
    import threading

    from folio.services.local import Local

    threads: list[int] = []

    def build() -> Any:
        threads.append(threading.get_ident())
        return client

    local = Local(cache_dir=tmp_path / "cache", state_dir=tmp_path / "state", base_url=client.base_url, secret="t")
    services = Services(where="somewhere", connect=build, local=local)
    await services.connect()
    await services.connect()
    assert threads != [threading.get_ident()] and len(threads) == 1
    assert services.connected and services.client is client and local.client is client and client.store is not None
    assert services.connection.keeps_cache
    local.close()


async def test_a_client_built_on_the_loop_meanwhile_wins_and_the_threads_is_closed(tmp_path: Any) -> None:
    import threading

    from folio.api import GitBookClient

    release = threading.Event()
    built: list[GitBookClient] = []

    def build() -> GitBookClient:
        if threading.current_thread() is not threading.main_thread():
            release.wait(5)
        made = GitBookClient(token="t", base_url="https://example.test")
        built.append(made)
        return made

    services = Services(where="somewhere", connect=build)
    waiting = asyncio.ensure_future(services.connect())
    await asyncio.sleep(0)
    first = services.client  # something that could not wait: built on the loop
    release.set()
    await waiting
    assert services.client is first and len(built) == 2
    assert built[1]._http.is_closed and not first._http.is_closed
    await services.aclose()
