"""What Pilot tests of the screens share: services over the seeded sandbox, and an app that opens on a screen.

async def test_x(services, open_app):
    async with open_app(lambda: SpaceScreen(services, space_id)) as (app, pilot):
        await pilot.press("j", "enter")
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.faults import Faults
from folio.services import Services
from folio.tui.app import FolioApp
from tests.conftest import SANDBOX_URL, TOKEN


@pytest.fixture
def services(client: GitBookClient) -> Services:
    return Services(client, where="the test sandbox")


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture
def faults() -> Faults:
    """The sandbox's faults for :func:`flaky` (none yet: a test sets them, also while it runs)."""
    return Faults(seed=3)


@pytest.fixture
async def flaky(state: SandboxState, faults: Faults) -> AsyncIterator[Services]:
    """Services over the seeded sandbox behind ``faults``, retrying at once (no waits between tries)."""
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state, faults=faults)),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    yield Services(client, where="a flaky sandbox")
    await client.aclose()


async def settle(pilot: Pilot[None]) -> None:
    """Let workers finish and the screen redraw."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.fixture
def open_app(services: Services) -> Callable[..., Any]:
    @asynccontextmanager
    async def run(
        start: Callable[[], Screen[Any]] | None = None, size: tuple[int, int] = (80, 24), **kwargs: Any
    ) -> AsyncIterator[tuple[FolioApp, Pilot[None]]]:
        app = FolioApp(services, start=start, **kwargs)
        app.animation_level = "none"
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            yield app, pilot

    return run
