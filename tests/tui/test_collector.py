"""The collector around bulk loads (``folio.tui.collector``): a list given a bulk of rows has them frozen once the
frame that shows them is drawn, a small one is left to the collector, and a list that goes away unfreezes."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pytest
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from folio.services import Services
from folio.tui import collector
from folio.tui.app import FolioApp
from folio.tui.collector import BULK
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, Row


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


class ListApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ResourceBrowser([Column("title", "Title")])


def rows(count: int) -> list[Row]:
    return [Row(f"r{n}", [f"Row {n}"]) for n in range(count)]


async def test_a_bulk_of_rows_is_frozen_after_its_frame_and_unfrozen_when_its_list_goes() -> None:
    app = ListApp()
    async with app.run_test() as pilot:
        browser = app.query_one(ResourceBrowser)
        browser.set_rows(rows(BULK - 1))
        await pilot.pause()
        assert gc.get_freeze_count() == 0  # a small list: the collector's own pace

        browser.set_rows(rows(BULK))
        assert gc.get_freeze_count() == 0  # not in the middle of the load: after the frame that shows it
        await pilot.pause()
        frozen = gc.get_freeze_count()
        assert frozen > 0

        browser.list.append_rows(rows(BULK))  # the next page of a long list: frozen too
        await pilot.pause()
        assert gc.get_freeze_count() > frozen

        await browser.remove()
        await pilot.pause()
        assert gc.get_freeze_count() == 0  # what the list held can be collected again


def passes_during() -> tuple[list[int], object]:
    """The generations of the collector's passes from now on, and the callback to take out of ``gc.callbacks``."""
    generations: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            generations.append(info["generation"])

    gc.callbacks.append(seen)
    return generations, seen


@pytest.mark.parametrize("collected_since", [False, True])
async def test_a_release_owes_one_full_pass_unless_one_was_made_since(collected_since: bool) -> None:
    """After a list that held a bulk goes, the next bulk's settling walks the whole heap once (what the list held
    goes then), unless a full pass since the release (Python's own, or gc.collect()) did: a second walk finds
    nothing the first did not, and it cost the next list's first frame 40-140 ms (#15)."""
    app = ListApp()
    async with app.run_test() as pilot:
        browser = app.query_one(ResourceBrowser)
        browser.set_rows(rows(BULK))
        await pilot.pause()
        await browser.remove()
        await pilot.pause()
        if collected_since:
            gc.collect()
        generations, seen = passes_during()
        try:
            again = ResourceBrowser([Column("title", "Title")])
            await app.screen.mount(again)
            again.set_rows(rows(BULK))
            await pilot.pause()
            await pilot.pause()
        finally:
            gc.callbacks.remove(seen)
        assert gc.get_freeze_count() > 0  # settled: frozen
        assert (2 in generations) is not collected_since, generations


# -- no pass before the first frame ------------------------------------------------------------------------------


@pytest.fixture
def collector_on() -> Iterator[None]:
    assert gc.isenabled()
    yield
    collector.start_drawn()
    gc.enable()


def test_a_start_holds_the_collector_and_gives_it_back_once(collector_on: None) -> None:
    collector.hold_for_start()
    assert not gc.isenabled()
    collector.start_drawn()
    assert gc.isenabled()
    gc.disable()  # turned off by someone else since: not this module's to turn on
    collector.start_drawn()
    assert not gc.isenabled()
    gc.enable()


def test_a_collector_already_off_is_left_to_whoever_turned_it_off(collector_on: None) -> None:
    gc.disable()
    collector.hold_for_start()
    collector.start_drawn()
    assert not gc.isenabled()
    gc.enable()


class Probe(Screen[None]):
    def __init__(self) -> None:
        super().__init__()
        self.collecting_at_mount: bool | None = None

    def compose(self) -> ComposeResult:
        yield Static("first screen")

    def on_mount(self) -> None:
        self.collecting_at_mount = gc.isenabled()


async def test_the_app_gives_the_collector_back_once_its_first_frame_is_drawn(
    collector_on: None, services: Services
) -> None:
    collector.hold_for_start()
    probe = Probe()
    app = FolioApp(services, start=lambda: probe)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert probe.collecting_at_mount is False  # the first screen was built with no pass ...
        assert app.first_frame_drawn and gc.isenabled()  # ... and its first frame gave the collector back
        for _ in range(3):
            await pilot.pause()
        assert gc.get_freeze_count() > 0  # what the start made is frozen: no later full pass walks it


async def test_an_app_started_without_the_hold_leaves_the_collector_as_it_is(services: Services) -> None:
    app = FolioApp(services, start=Probe)
    async with app.run_test() as pilot:
        for _ in range(4):
            await pilot.pause()
        assert app.first_frame_drawn and gc.isenabled() and gc.get_freeze_count() == 0


def test_a_start_that_ends_before_its_first_frame_gives_the_collector_back(
    collector_on: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from folio import cli

    seen: list[bool] = []
    switch: list[float] = []
    before = sys.getswitchinterval()

    async def never_drawn(self: FolioApp, **kwargs: object) -> None:
        seen.append(gc.isenabled())
        switch.append(sys.getswitchinterval())

    monkeypatch.setattr(FolioApp, "run_async", never_drawn)
    assert cli.main(["--demo", "--no-cache"]) == 0
    assert seen == [False] and gc.isenabled()
    # Textual's writer thread gets the interpreter sooner while the TUI runs (frames reach the terminal sooner)
    assert switch == [cli.SWITCH_INTERVAL] and before > cli.SWITCH_INTERVAL
    assert sys.getswitchinterval() == before
