"""A large organization (the sandbox's generated one, 1,500 spaces and more): keys typed while its spaces load
reach the spaces tab's filter, every one, in order (issue 15: "the first burst of typed filter text was lost")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from textual import events

from folio.sandbox import SandboxState
from folio.sandbox.clock import Clock
from folio.sandbox.seed import populate
from folio.services import Services
from folio.tui.screens.organization import OrganizationScreen
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
        shown = [row.cells[0].plain.lower() for row in screen.spaces_list.list.visible_rows]  # type: ignore[union-attr]
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
