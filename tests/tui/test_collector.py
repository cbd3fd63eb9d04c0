"""The collector around bulk loads (``folio.tui.collector``): a list given a bulk of rows has them frozen once the
frame that shows them is drawn, a small one is left to the collector, and a list that goes away unfreezes."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from textual.app import App, ComposeResult

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
