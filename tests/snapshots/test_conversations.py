"""The conversation screens pinned as SVG: the issues clusters (with their sparklines) and one cluster at 80x24 and
160x50, the conversations list at both sizes, one conversation (seeded sandbox, frozen clock, no animation).
Update with ``pytest tests/snapshots/test_conversations.py --snapshot-update`` only after looking at the report."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxState, SandboxTransport
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.screens.cluster import ClusterScreen
from folio.tui.screens.clusters import ClustersScreen
from folio.tui.screens.conversation import ConversationScreen
from folio.tui.screens.conversations import ConversationsScreen
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN
from tests.services.test_conversations_service import cluster_id, link_change_request

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]
TRAIL = ("Northwind Labs",)


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


async def _no_sleep(seconds: float) -> None:
    return None


def _app(sandbox: Any, start: Callable[[Services], Screen[Any]]) -> FolioApp:
    # Built here, not with the async `client` fixture: snap_compare runs the app on its own event loop.
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(sandbox),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    services = Services(client, where="the demo sandbox")
    app = FolioApp(services, start=lambda: start(services))
    app.animation_level = "none"
    return app


def _after(*keys: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    async def run(pilot: Pilot[None]) -> None:
        for key in ("", *keys):
            if key:
                await pilot.press(key)
            await pilot.pause()
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()

    return run


@pytest.mark.parametrize("size", SIZES)
def test_clusters(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    start = _app(app, lambda services: ClustersScreen(services, state.demo_org, trail=TRAIL))
    assert snap_compare(start, terminal_size=size, run_before=_after())


@pytest.mark.parametrize("size", SIZES)
def test_cluster(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    cid = cluster_id(state, "Login loops after SSO redirect")
    start = _app(app, lambda services: ClusterScreen(services, state.demo_org, cid, trail=TRAIL))
    assert snap_compare(start, terminal_size=size, run_before=_after())


def test_cluster_issues(snap_compare: Any, app: Any, state: SandboxState) -> None:
    cid = cluster_id(state, "Login loops after SSO redirect")
    start = _app(app, lambda services: ClusterScreen(services, state.demo_org, cid, trail=TRAIL))
    assert snap_compare(start, terminal_size=(80, 24), run_before=_after("2"))


def test_cluster_change_requests(snap_compare: Any, app: Any, state: SandboxState) -> None:
    cid = cluster_id(state, "Login loops after SSO redirect")
    link_change_request(state, cid)
    start = _app(app, lambda services: ClusterScreen(services, state.demo_org, cid, trail=TRAIL))
    assert snap_compare(start, terminal_size=(80, 24), run_before=_after("3"))


@pytest.mark.parametrize("size", SIZES)
def test_conversations(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    start = _app(app, lambda services: ConversationsScreen(services, state.demo_org, trail=TRAIL))
    assert snap_compare(start, terminal_size=size, run_before=_after())


def test_conversation(snap_compare: Any, app: Any, state: SandboxState) -> None:
    cid = next(c["id"] for c in state.conversations.values() if c["subject"] == "Stuck in a login loop")
    start = _app(app, lambda services: ConversationScreen(services, state.demo_org, cid, trail=TRAIL))
    assert snap_compare(start, terminal_size=(80, 24), run_before=_after())
