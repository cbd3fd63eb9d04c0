"""The conversation screens pinned as SVG: the issues clusters (with their sparklines) and one cluster at 80x24 and
160x50, the conversations list at both sizes, one conversation (seeded sandbox, frozen clock, no animation).
Update with ``pytest tests/snapshots/test_conversations.py --snapshot-update`` only after looking at the report."""

from __future__ import annotations

from typing import Any

import pytest

from folio.sandbox import SandboxState
from folio.tui.screens.insights.cluster import ClusterScreen
from folio.tui.screens.insights.clusters import ClustersScreen
from folio.tui.screens.insights.conversation import ConversationScreen
from folio.tui.screens.insights.conversations import ConversationsScreen
from tests.services.test_conversations_service import cluster_id, link_change_request
from tests.snapshots.support import after, freeze_now, sandbox_app

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]
TRAIL = ("Northwind Labs",)


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    freeze_now(monkeypatch)


@pytest.mark.parametrize("size", SIZES)
def test_clusters(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    start = sandbox_app(app, lambda services: ClustersScreen(services, state.demo_org, trail=TRAIL))
    assert snap_compare(start, terminal_size=size, run_before=after(still=False))


@pytest.mark.parametrize("size", SIZES)
def test_cluster(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    cid = cluster_id(state, "Login loops after SSO redirect")
    start = sandbox_app(app, lambda services: ClusterScreen(services, state.demo_org, cid, trail=TRAIL))
    assert snap_compare(start, terminal_size=size, run_before=after(still=False))


def test_cluster_issues(snap_compare: Any, app: Any, state: SandboxState) -> None:
    cid = cluster_id(state, "Login loops after SSO redirect")
    start = sandbox_app(app, lambda services: ClusterScreen(services, state.demo_org, cid, trail=TRAIL))
    assert snap_compare(start, terminal_size=(80, 24), run_before=after("2", still=False))


def test_cluster_change_requests(snap_compare: Any, app: Any, state: SandboxState) -> None:
    cid = cluster_id(state, "Login loops after SSO redirect")
    link_change_request(state, cid)
    start = sandbox_app(app, lambda services: ClusterScreen(services, state.demo_org, cid, trail=TRAIL))
    assert snap_compare(start, terminal_size=(80, 24), run_before=after("3", still=False))


@pytest.mark.parametrize("size", SIZES)
def test_conversations(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    start = sandbox_app(app, lambda services: ConversationsScreen(services, state.demo_org, trail=TRAIL))
    assert snap_compare(start, terminal_size=size, run_before=after(still=False))


def test_conversation(snap_compare: Any, app: Any, state: SandboxState) -> None:
    cid = next(c["id"] for c in state.conversations.values() if c["subject"] == "Stuck in a login loop")
    start = sandbox_app(app, lambda services: ConversationScreen(services, state.demo_org, cid, trail=TRAIL))
    assert snap_compare(start, terminal_size=(80, 24), run_before=after(still=False))
