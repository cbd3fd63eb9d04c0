"""Lines finished without Textual's per-line pass, and the scrollbar that keeps its lines (``folio.tui.widgets.
line_api``): what reaches the screen is, to the segment, what Textual's own path gives, in every state a list and a
diff are drawn in; the scrollbar still scrolls by the mouse."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from folio.services.review.diff import diff_markdown
from folio.tui.widgets.diff_view import DiffView
from folio.tui.widgets.line_api import KeptScrollBar, finished_lines
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row

COLUMNS = [Column("title", "Title"), Column("kind", "Kind", 8, style="bold"), Column("n", "N", 5, align="right")]


def rows(count: int) -> list[Row]:
    return [Row(f"r{n}", [f"Row {n}", "space", str(n)], style="dim" if n % 7 == 3 else "") for n in range(count)]


class ListApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ResourceBrowser(COLUMNS)


def textual_lines(widget: Widget, crop: Region) -> list[Strip]:
    """What Textual's own path draws for ``crop`` (its styles cache emptied first: every line drawn anew)."""
    widget._styles_cache.clear()
    return Widget.render_lines(widget, crop)


def ours(widget: Widget, crop: Region) -> list[Strip]:
    widget._styles_cache.clear()
    lines = finished_lines(widget, crop)
    assert lines is not None
    return lines


async def test_the_list_draws_what_textual_draws_in_every_state() -> None:
    app = ListApp()
    async with app.run_test(size=(70, 20)) as pilot:
        browser = app.query_one(ResourceBrowser)
        browser.set_rows(rows(300))
        await pilot.pause()
        lst = browser.list
        full = lst.size.region
        states = [
            lambda: None,  # blurred, the cursor on the first row
            browser.focus_list,
            lambda: setattr(lst, "cursor", 5),
            lambda: setattr(lst, "cursor", 150),  # scrolled: the scrollbar shows, the lines are padded under it
            lambda: lst.filter("row 1"),
            lambda: setattr(app, "theme", "textual-light"),
        ]
        for change in states:
            change()
            await pilot.pause()
            for crop in (full, Region(0, 3, full.width, 4), Region(2, 0, 20, full.height)):
                assert ours(lst, crop) == textual_lines(lst, crop)


async def focused_list(app: ListApp, pilot: Any, count: int) -> ResourceList:
    """The app's list with ``count`` rows, focused and drawn."""
    browser = app.query_one(ResourceBrowser)
    browser.set_rows(rows(count))
    browser.focus_list()
    await pilot.pause()
    return browser.list


async def test_lines_a_refresh_did_not_touch_are_not_drawn_again() -> None:
    app = ListApp()
    async with app.run_test(size=(70, 20)) as pilot:
        lst = await focused_list(app, pilot, 300)
        drawn: list[int] = []
        original = lst.render_line

        def counted(y: int) -> Strip:
            drawn.append(y)
            return original(y)

        lst.render_line = counted  # type: ignore[method-assign]
        await pilot.press("down")
        await pilot.pause()
        assert sorted(set(drawn)) == [0, 1]  # the row the cursor left and the one it reached
        drawn.clear()
        await pilot.press("pagedown")
        await pilot.pause()
        assert len(set(drawn)) == lst.size.height  # a scroll: every line is new


class DiffApp(App[None]):
    def compose(self) -> ComposeResult:
        yield DiffView(cursor=True)


async def test_the_diff_draws_what_textual_draws() -> None:
    before = "\n".join(f"line {n} of the page, as it was" for n in range(400))
    after = "\n".join(
        f"line {n} of the page, {'as it is now' if n % 9 == 0 else 'as it was'}" for n in range(400) if n % 40
    )
    app = DiffApp()
    async with app.run_test(size=(90, 24)) as pilot:
        view = app.query_one(DiffView)
        view.show(diff_markdown(before, after))
        assert isinstance(view.vertical_scrollbar, KeptScrollBar)
        await pilot.pause()
        for change in (
            view.focus,
            lambda: view.action_cursor(3),
            lambda: setattr(view, "side_by_side", True),
            lambda: view.go_to_hunk(4),
            lambda: setattr(view, "wrap", True),
        ):
            change()
            await pilot.pause()
            crop = view.size.region
            assert ours(view, crop) == textual_lines(view, crop)


async def test_the_kept_scrollbar_draws_what_textual_draws_and_scrolls_by_the_mouse() -> None:
    app = ListApp()
    async with app.run_test(size=(70, 20)) as pilot:
        lst = await focused_list(app, pilot, 1000)
        bar = lst.vertical_scrollbar
        assert isinstance(bar, KeptScrollBar) and bar.display
        for cursor in (0, 37, 38, 500, 999, 12):  # the thumb at the top, a step down, the middle, the bottom
            lst.cursor = cursor
            await pilot.pause()
            crop = bar.size.region
            kept = bar.render_lines(crop)
            assert kept == textual_lines(bar, crop)
            assert kept == bar.render_lines(crop)  # the second time from what it kept
        top = round(lst.scroll_y)
        region = bar.region
        await pilot.click(offset=(region.x, region.bottom - 1))  # the track below the thumb: a screen down
        await pilot.pause()
        assert round(lst.scroll_y) > top


async def test_a_scrollbar_whose_lines_differ_is_drawn_the_textual_way() -> None:
    app = ListApp()
    async with app.run_test(size=(70, 20)) as pilot:
        browser = app.query_one(ResourceBrowser)
        browser.set_rows(rows(1000))
        await pilot.pause()
        bar: Any = browser.list.vertical_scrollbar
        bar.styles.border_top = ("solid", "red")  # its first line a border: not the line its content would be
        await pilot.pause()
        crop = bar.size.region
        assert bar.render_lines(crop) == textual_lines(bar, crop)
        assert not bar._reliable
        assert bar.render_lines(crop) == textual_lines(bar, crop)
