"""A large organization (the sandbox's generated one, 1,500 spaces and more): keys typed while its spaces load
reach the spaces tab's filter, every one, in order (issue 15: "the first burst of typed filter text was lost")."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from textual import events

from folio.sandbox import SandboxState
from folio.sandbox.clock import Clock
from folio.sandbox.seed import populate
from folio.services import Services
from folio.tui.read_ahead import ahead
from folio.tui.screens.content.organization import OrganizationScreen
from tests.conftest import FROZEN_AT
from tests.tui.conftest import settle

SCALE = 1500
CHARACTERS = {"slash": "/", "space": " "}


@pytest.fixture
def state() -> Iterator[SandboxState]:
    st = SandboxState(clock=Clock(FROZEN_AT), seed=7)
    populate(st, scale=SCALE)
    yield st


def _largest(state: SandboxState) -> tuple[str, int]:
    counts = Counter(s["organization"] for s in state.spaces.values() if not s.get("deletedAt"))
    return counts.most_common(1)[0]


async def test_keys_typed_while_a_large_list_loads_reach_the_filter_in_order(
    open_app: Any, services: Services, state: SandboxState
) -> None:
    org, count = _largest(state)
    assert count > SCALE  # more than one page of the largest the API gives (1,000)
    async with open_app(size=(100, 30)) as (app, pilot):
        screen = OrganizationScreen(services, org, title="Large")
        pushed = app.push_screen(screen)  # the keys come before it is even mounted
        # One burst, as a terminal delivers it: no wait between the keys (Pilot's press waits for idle).
        typed = ["2", "slash", "g", "e", "n", "space", "1", "2", "backspace", "3"]
        for key in typed:
            app._driver.send_message(events.Key(key, key if len(key) == 1 else CHARACTERS.get(key)))  # type: ignore[union-attr]
        rows_when_typed = len(screen.spaces)  # the spaces read so far
        await pushed
        await settle(pilot)
        assert rows_when_typed < count, "the keys were typed while the spaces were still loading"
        assert screen.tabs.active == "spaces"
        assert screen.spaces_list.typed_filter == "gen 13"
        assert screen.content_tree.typed_filter == ""  # the tab left behind took none of them
        assert len(screen.spaces_list.list.rows) == count
        shown = [str(row.cells[0]).lower() for row in screen.spaces_list.list.visible_rows]
        assert shown and all("gen" in title or "13" in title for title in shown)


async def test_a_tab_whose_list_is_loading_takes_the_focus_and_the_keys_after_its_number(
    open_app: Any, services: Services, state: SandboxState
) -> None:
    """The spaces and the inbox mounted and loading (as while a large organization loads): 2 or 3 typed, then
    keys at once: the list takes the focus though it loads, and the keys reach its filter, not its switches."""
    org, _ = _largest(state)
    async with open_app(size=(100, 30)) as (app, pilot):
        screen = OrganizationScreen(services, org, title="Large")
        await app.push_screen(screen)
        await settle(pilot)
        for tab, keys, text in (("spaces", ["2", "slash", "g", "e", "n"], "gen"),
                                ("change-requests", ["3", "slash", "a", "m", "s"], "ams")):  # fmt: skip
            await pilot.press("1")
            browser = screen._browser(tab)
            assert browser is not None
            browser.set_rows([], staged=False)
            browser.set_loading(True)  # a first load under way: no row yet
            for key in keys:  # one burst
                app._driver.send_message(events.Key(key, key if len(key) == 1 else CHARACTERS.get(key)))  # type: ignore[union-attr]
            await settle(pilot)
            assert screen.tabs.active == tab
            assert browser.list.has_focus
            assert browser.typed_filter == text
            await pilot.press("enter")  # the filter kept; the keys act on the list again
        assert screen.inbox.inbox == type(screen.inbox.inbox)()  # a, m, s were text: no switch was flipped
        assert screen.content_tree.typed_filter == ""


async def test_the_next_page_is_asked_for_while_one_is_worked_on() -> None:
    """``ahead``: the pages in order, the next one read while the one given is worked on (one at most), an error
    said where the page would have been, and a reader that stops early leaves no read going."""
    asked: list[int] = []
    going: list[int] = []

    async def pages(count: int, fail_at: int | None = None, delay: float = 0) -> AsyncIterator[int]:
        for n in range(count):
            asked.append(n)
            going.append(n)
            try:
                await asyncio.sleep(delay)
                if n == fail_at:
                    raise ValueError(f"page {n}")
            finally:
                going.remove(n)
            yield n

    got: list[int] = []
    async for page in ahead(pages(4)):
        await asyncio.sleep(0.01)  # working on it: the next is read meanwhile
        assert asked == list(range(min(page + 2, 4)))  # this one and the next, no further
        got.append(page)
    assert got == [0, 1, 2, 3]

    asked.clear()
    with pytest.raises(ValueError, match="page 2"):
        async for page in ahead(pages(5, fail_at=2)):
            got.append(page)

    asked.clear()
    async with asyncio.timeout(5):
        reading = ahead(pages(10, delay=0.2))
        async for page in reading:
            await asyncio.sleep(0.01)  # (the next read has begun, and is still going)
            if page == 1:
                assert going == [2]
                break
        await reading.aclose()  # (what the end of an async for over a generator does, later)
        await asyncio.sleep(0.01)
    assert asked == [0, 1, 2] and going == []  # the page read ahead was let go
