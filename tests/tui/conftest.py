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

from folio.api import GitBookClient
from folio.services import Services
from folio.tui.app import FolioApp


@pytest.fixture
def services(client: GitBookClient) -> Services:
    return Services(client, where="the test sandbox")


async def _no_sleep(seconds: float) -> None:
    return None


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
