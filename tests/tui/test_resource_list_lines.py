"""How the virtual list draws its lines: exactly what Rich draws for the same cells (so no screen changes look),
kept between paints but never stale (the cursor after a scroll, a row changed in place), and the `/` filter box
made only when it is first needed."""

from __future__ import annotations

import itertools

import pytest
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.app import App, ComposeResult
from textual.content import Content
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Input

from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import (
    Column,
    ResourceList,
    Row,
    layout,
    line_of,
    line_segments,
    render_cells,
)

CONSOLE = Console()
BASE = Style(color="#e0e0e0", bgcolor="#1e1e1e")

COLUMN_SETS = {
    "plain": [Column("title", "Title"), Column("n", "N", 6, align="right")],
    "styled": [
        Column("key", "Key", 9, style="bold"),
        Column("title", "Title"),
        Column("id", "Id", 7, style="dim", align="right"),
        Column("empty", "E", 0, style="italic"),
    ],
    "fixed only": [Column("a", "A", 4, style="underline"), Column("b", "B", 3, align="right", style="bold")],
}
CELLS = [
    ["Getting started", "12"],
    [Content("Über [b]not markup[/b]"), "7"],
    ["\x1b[31mred\x07 and \r\ttabs", ""],
    ["日本語のページ 🎉 wide", "1234567"],
    ["e\u0301 combining", "x"],
    ["", ""],
    ["only one cell"],
]


def reference(columns: list[Column], cells: list[Content | str], width: int, indent: int, style: str) -> Strip:
    """The line as the list drew it before lines were cached: Rich Text, stylized, rendered, over the base."""
    text = render_cells(columns, cells, width, indent)
    if style:
        text.stylize(style)
    segments = [Segment(s.text, BASE + s.style if s.style else BASE) for s in text.render(CONSOLE)]
    return Strip(segments).adjust_cell_length(width, BASE)


def drawn(columns: list[Column], cells: list[Content | str], width: int, indent: int, style: str) -> Strip:
    text, spans, cells_wide = line_of(columns, layout(columns, width), cells, indent, style)
    return Strip(line_segments(text, spans, BASE, CONSOLE.get_style), cells_wide).adjust_cell_length(width, BASE)


@pytest.mark.parametrize("columns", COLUMN_SETS.values(), ids=COLUMN_SETS.keys())
def test_a_line_is_the_line_rich_draws(columns: list[Column]) -> None:
    for cells, width, indent, style in itertools.product(CELLS, (0, 1, 5, 9, 17, 40, 80), (0, 2), ("", "dim", "bold")):
        cells4 = cells * 2 if len(columns) > 2 else cells
        expected = reference(columns, cells4, width, indent, style)
        actual = drawn(columns, cells4, width, indent, style)
        where = f"{cells4!r} width={width} indent={indent} style={style!r}"
        assert list(actual) == list(expected), where
        assert actual.cell_length == expected.cell_length, where


class Host(App[None]):
    def __init__(self, rows: list[Row]) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        yield ResourceBrowser([Column("title", "Title"), Column("n", "N", 5, align="right")])

    def on_mount(self) -> None:
        browser = self.query_one(ResourceBrowser)
        browser.set_rows(self.rows)
        browser.focus_list()


def rows(n: int) -> list[Row]:
    return [Row(f"k{i}", [f"Item {i:03d}", str(i)]) for i in range(n)]


def screen_lines(lst: ResourceList) -> list[tuple[str, bool]]:
    """The list's lines as the screen has them (the paint cache, not a fresh draw): text, and whether bold (the
    cursor's look)."""
    strips = lst.render_lines(Region(0, 0, lst.size.width, lst.size.height))
    return [
        ("".join(s.text for s in strip).strip(), any(bool(s.style and s.style.bold) for s in strip)) for strip in strips
    ]


async def test_the_cursor_shows_where_it_is_in_a_scrolled_list() -> None:
    app = Host(rows(100))
    async with app.run_test(size=(40, 12)) as pilot:
        lst = app.query_one(ResourceList)
        await pilot.press("G")
        await pilot.press("k", "k")
        await pilot.pause()
        assert lst.scroll_y > 0 and lst.highlighted is not None and lst.highlighted.key == "k97"
        bold = [text for text, is_bold in screen_lines(lst) if is_bold]
        assert len(bold) == 1 and bold[0].startswith("Item 097")


async def test_a_row_changed_in_place_shows_once_the_list_is_refreshed() -> None:
    app = Host(rows(20))
    async with app.run_test(size=(40, 12)) as pilot:
        lst = app.query_one(ResourceList)
        await pilot.pause()
        assert screen_lines(lst)[2][0].startswith("Item 002")
        lst.rows[2].cells = ["Renamed row", "2"]
        lst.refresh()
        await pilot.pause()
        assert screen_lines(lst)[2][0].startswith("Renamed row")


async def test_paging_through_and_back_draws_the_same_lines() -> None:
    app = Host(rows(500))
    async with app.run_test(size=(40, 12)) as pilot:
        lst = app.query_one(ResourceList)
        await pilot.pause()
        first = screen_lines(lst)
        await pilot.press("pagedown", "pagedown", "end", "home")
        await pilot.pause()
        assert screen_lines(lst) == first
        await pilot.press("end")
        await pilot.pause()
        text, bold = screen_lines(lst)[-1]
        assert text.startswith("Item 499") and text.endswith(" 499") and bold


async def test_the_filter_box_is_made_when_first_needed_and_filters() -> None:
    app = Host(rows(30))
    async with app.run_test(size=(40, 14)) as pilot:
        browser = app.query_one(ResourceBrowser)
        assert not browser.query(Input)
        await pilot.press("j")
        assert not browser.query(Input) and browser.list.cursor == 1
        await pilot.press("/", "0", "2")
        await pilot.pause()
        # typed through the list into the box (so a burst typed after / never reaches the list's keys)
        assert browser.has_class("-typing") and browser.filter_input.value == "02"
        assert [r.key for r in browser.list.visible_rows] == ["k2"] + [f"k{i}" for i in range(20, 30)]
        await pilot.press("j", "backspace", "left", "1", "enter")  # j is text here; enter keeps the filter
        await pilot.pause()
        assert browser.filter_input.value == "012" and not browser.has_class("-typing")
        await pilot.press("j")  # a key of the list again
        await pilot.pause()
        assert browser.filter_input.value == "012" and browser.list.cursor == 0
        await pilot.press("escape")
        await pilot.pause()
        assert browser.list.visible_count == 30 and browser.list.has_focus and len(browser.query(Input)) == 1


async def test_a_filter_restored_before_the_box_exists_shows_in_it() -> None:
    app = Host(rows(30))
    async with app.run_test(size=(40, 14)) as pilot:
        browser = app.query_one(ResourceBrowser)
        browser.restore("k15", "1")
        await pilot.pause()
        assert browser.filter_input.value == "1" and browser.filter_input in browser.query(Input)
        assert browser.list.highlighted is not None and browser.list.highlighted.key == "k15"
        assert browser.list.visible_count == 12  # k1, k10..k19, k21


def test_an_unmounted_browser_reads_an_empty_filter() -> None:
    browser = ResourceBrowser([Column("title", "Title")])
    assert browser.filter_input.value == ""
