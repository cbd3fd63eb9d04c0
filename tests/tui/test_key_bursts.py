"""Keys that come in one burst (pasted, sent by a script, typed ahead while a screen loads: the terminal's driver
reads them in one go) while a list screen's first load is still waiting for its answer: `/` starts the list's
filter even though the list cannot have the focus yet, every key after it lands in the filter, and a `q` or an
`esc` in the burst neither quits nor leaves.

The keys go in as a terminal sends them, all at once (``pilot.press`` waits for the app to go quiet between
keys: no burst); the sandbox's latency holds every answer back for the whole test.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from textual import events
from textual.screen import Screen

from folio.sandbox import SandboxState
from folio.sandbox.faults import Faults
from folio.services import Services
from folio.tui import routes
from folio.tui.app import BURST_GAP, FolioApp
from folio.tui.widgets.resource_browser import ResourceBrowser
from tests.tui.test_faults import busy

LIST_SCREENS = ["organizations", "organization", "members", "teams", "trash", "clusters", "conversations", "specs"]
"""Screens whose first view is a list (those of an organization and the organizations)."""

CHARACTERS = {"/": "slash", "q": "q", "z": "z"}


def opener(kind: str, services: Services, state: SandboxState) -> Callable[[], Screen[Any]]:
    if kind == "organizations":
        from folio.tui.screens.content.organizations import OrganizationsScreen

        return lambda: OrganizationsScreen(services)
    ids = {"org_id": state.demo_org}
    return lambda: routes.build(services, kind, ids, trail=("Northwind Labs",))


def burst(app: FolioApp, typed: str) -> None:
    """``typed`` as a terminal sends it in one read: every key posted before any is handled."""
    assert app._driver is not None
    for character in typed:
        app._driver.send_message(events.Key(CHARACTERS.get(character, character), character))


async def until(check: Callable[[], bool]) -> None:
    """Ordering, not timing: wait for the keys to be handled (the bound only stops a broken build hanging)."""
    for _ in range(500):
        if check():
            return
        await asyncio.sleep(0.01)


async def by_hand(pilot: Any, key: str) -> None:
    """``key`` pressed as a person does: not within a burst of the keys before it."""
    await asyncio.sleep(2 * BURST_GAP)
    await pilot.press(key)


def filtering(screen: Screen[Any]) -> ResourceBrowser | None:
    return next((b for b in screen.query(ResourceBrowser) if b.has_class("-filtering")), None)


@pytest.mark.parametrize("kind", LIST_SCREENS)
async def test_a_burst_typed_while_the_first_load_runs_lands_in_the_filter_and_quits_nothing(
    kind: str, flaky: Services, state: SandboxState, faults: Faults
) -> None:
    faults.latency = 3600.0  # no answer comes back during the test
    app = FolioApp(flaky, start=opener(kind, flaky, state))
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert busy(app), "the screen should be loading"
        burst(app, "/zq")
        await until(lambda: (found := filtering(screen)) is not None and found.typed_filter == "zq")
        browser = filtering(screen)
        assert not app._exit and app.screen is screen  # `q` was typed, not taken as quit
        assert browser is not None and browser.typed_filter == "zq"
        focused = app.focused
        # the keys go on landing there: the box has them, or the list hands them to it (it had the focus already)
        assert focused is browser.filter_box or (
            focused in browser.list.ancestors_with_self and browser.has_class("-typing")
        )
        assert busy(app), "the load ended before the keys were handled"
        await by_hand(pilot, "x")
        assert browser.typed_filter == "zqx"


async def test_a_q_in_a_burst_quits_nothing_and_says_so(flaky: Services, state: SandboxState, faults: Faults) -> None:
    """No `/` first: the keys have nowhere to go while the list loads; the `q` among them is not a quit."""
    faults.latency = 3600.0
    app = FolioApp(flaky, start=opener("members", flaky, state))
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        burst(app, "zq")
        await until(lambda: bool(app._notifications))
        assert not app._exit and app.screen is screen
        said = [str(n.message) for n in app._notifications]
        assert any("not taken as quit" in words for words in said), said
        await by_hand(pilot, "q")  # typed alone: it quits
        await until(lambda: bool(app._exit))
        assert app._exit


async def test_an_esc_in_a_burst_does_not_go_back(flaky: Services, state: SandboxState, faults: Faults) -> None:
    faults.latency = 3600.0
    app = FolioApp(flaky, start=opener("organizations", flaky, state))
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.push_screen(opener("teams", flaky, state)())
        await pilot.pause()
        teams = app.screen
        assert app._driver is not None
        app._driver.send_message(events.Key("z", "z"))
        app._driver.send_message(events.Key("escape", None))
        await until(lambda: bool(app._notifications))
        assert app.screen is teams
        assert any("not taken as go back" in str(n.message) for n in app._notifications)
        await by_hand(pilot, "escape")  # typed alone: back
        assert app.screen is not teams


def test_a_burst_is_faster_than_a_person_types() -> None:
    assert 0.01 <= BURST_GAP <= 0.05  # (people type 80-200 ms apart; a terminal's one read is a few µs)
