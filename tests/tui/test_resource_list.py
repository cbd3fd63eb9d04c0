"""The virtual list every screen uses: rows drawn on demand, the cursor, the `/` filter, paging in, and the
words it shows when empty, filtered to nothing, loading or failed."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.content import Content
from textual.widgets import Button, Static

from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row, layout, render_cells
from folio.tui.widgets.rows import TITLE_ROOM

COLUMNS = [Column("title", "Title"), Column("n", "N", width=6, align="right")]


def rows(n: int, start: int = 0) -> list[Row]:
    return [Row(f"k{i}", (Content(f"Item {i:06d}"), str(i))) for i in range(start, start + n)]


class Host(App[None]):
    selected: ClassVar[list[str]] = []

    def __init__(self, initial: list[Row]) -> None:
        super().__init__()
        self.initial = initial
        self.highlights: list[str | None] = []
        self.selected = []

    def compose(self) -> ComposeResult:
        yield ResourceBrowser(COLUMNS, empty="No items in this test.")

    def on_mount(self) -> None:
        browser = self.query_one(ResourceBrowser)
        browser.set_rows(self.initial)
        browser.focus_list()

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        self.highlights.append(event.row.key if event.row else None)

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        self.selected.append(event.row.key)


def status(app: Host) -> str:
    return str(app.query_one(".resource-browser--status", Static).render())


def test_layout_shares_what_fixed_columns_leave() -> None:
    cols = [Column("a", "A"), Column("b", "B", width=10), Column("c", "C")]
    widths = layout(cols, 41)
    assert widths[1] == 10 and sum(widths) + 2 == 41 and widths[0] >= widths[2]


def test_a_narrow_line_keeps_room_for_the_title_and_leaves_out_the_last_columns() -> None:
    from folio.tui.widgets.space_panels import CR_COLUMNS

    widths = layout(CR_COLUMNS, 56)  # a space's change requests at 60 columns, inside the panel's frame
    by_key = dict(zip([c.key for c in CR_COLUMNS], widths, strict=True))
    assert by_key["subject"] >= TITLE_ROOM  # (it had 7)
    assert by_key["number"] == 4 and by_key["status"] == 8  # the columns before the title stay, whole
    assert by_key["comments"] == 0 and by_key["updated"] == 0  # the last ones gave way first
    assert sum(w + 1 for w in widths if w) - 1 == 56
    line = render_cells(CR_COLUMNS, ["12", "Fix the typos in the guide", "open", "Ada", "2 d ago", "3"], 56)
    assert line.plain.startswith("  12 Fix the typos in the guide") and "2 d ago" not in line.plain
    assert len(line.plain) == 56 and "  " not in line.plain.rstrip()[5:32]  # no gap left by a column left out
    assert layout(CR_COLUMNS, 120) == [4, 71, 8, 14, 10, 8]  # wide: as before (the title has its share)


def test_the_title_takes_its_room_from_another_flexible_column_first() -> None:
    cols = [Column("name", "Name"), Column("email", "E-mail"), Column("role", "Role", 7)]
    assert layout(cols, 60) == [26, 25, 7]  # room enough: an even share, as before
    assert layout(cols, 40) == [TITLE_ROOM, 11, 7]  # the e-mail gives the title room (it had 16) ...
    assert layout(cols, 38) == [TITLE_ROOM, 9, 7]
    assert layout(cols, 36) == [TITLE_ROOM, 15, 0]  # ... down to its floor: then the fixed role goes
    assert layout(cols, 24) == [24, 0, 0]  # then the e-mail
    marked = [Column("icon", "Icon"), Column("label", "Label", title=True), Column("n", "N", 4)]
    assert layout(marked, 40) == [14, TITLE_ROOM, 4]  # a column marked as the title, not the first flexible
    assert layout(marked, 30) == [9, TITLE_ROOM, 0]  # (the columns before it stay)


def test_cells_are_cut_with_an_ellipsis_and_never_parsed() -> None:
    line = render_cells(COLUMNS, ["[@click=app.quit]" + "x" * 50, "7"], 30)
    assert line.plain.startswith("[@click=app.quit]") and "…" in line.plain
    assert len(line.plain) == 30 and line.plain.endswith("     7")


async def test_keys_move_the_cursor_and_enter_selects() -> None:
    app = Host(rows(50))
    async with app.run_test(size=(60, 12)) as pilot:
        lst = app.query_one(ResourceList)
        await pilot.press("j", "j", "down")
        assert lst.highlighted is not None and lst.highlighted.key == "k3"
        await pilot.press("G")
        assert lst.highlighted.key == "k49"
        await pilot.press("g", "pagedown")
        assert lst.cursor > 3
        await pilot.press("k", "enter")
        assert app.selected == [lst.highlighted.key]
        assert app.highlights[-1] == lst.highlighted.key


async def test_filter_narrows_keeps_the_cursor_row_and_says_so() -> None:
    app = Host(rows(30))
    async with app.run_test(size=(60, 14)) as pilot:
        lst = app.query_one(ResourceList)
        await pilot.press("/", "0", "0", "0", "0", "1")
        await pilot.pause()
        assert {r.key for r in lst.visible_rows} == {"k1"} | {f"k{i}" for i in range(10, 20)}
        assert "shown" in status(app)
        await pilot.press("z", "z")
        await pilot.pause()
        assert lst.visible_rows == [] and "No row matches" in status(app)
        await pilot.press("escape")
        await pilot.pause()
        assert len(lst.visible_rows) == 30 and lst.has_focus


async def test_a_hundred_thousand_rows_draw_only_what_is_visible() -> None:
    app = Host(rows(100_000))
    async with app.run_test(size=(60, 20)) as pilot:
        lst = app.query_one(ResourceList)
        await pilot.press("G")
        await pilot.pause()
        assert lst.highlighted is not None and lst.highlighted.key == "k99999"
        assert lst.virtual_size.height == 100_000
        text = "".join(s.text for s in lst.render_line(lst.scrollable_content_region.height - 1))
        assert "Item 099999" in text


async def test_pages_appended_keep_the_cursor_and_empty_says_so_in_words() -> None:
    app = Host([])
    async with app.run_test(size=(60, 12)) as pilot:
        browser = app.query_one(ResourceBrowser)
        assert status(app) == "No items in this test."
        browser.set_loading()
        await pilot.pause()
        assert status(app) == "Loading…"
        browser.append_rows(rows(3))
        browser.set_loading(False)
        await pilot.press("j")
        browser.append_rows(rows(3, start=3))
        await pilot.pause()
        lst = browser.list
        assert lst.highlighted is not None and lst.highlighted.key == "k1" and len(lst.rows) == 6
        browser.set_error(Content("Could not load: boom"))
        await pilot.pause()
        assert status(app) == "Could not load: boom" and len(lst.rows) == 6


async def test_click_moves_and_double_click_opens() -> None:
    app = Host(rows(10))
    async with app.run_test(size=(60, 14)) as pilot:
        lst = app.query_one(ResourceList)
        offset: Any = (2, 2)
        await pilot.click(ResourceList, offset=offset)
        assert lst.cursor == 2
        await pilot.click(ResourceList, offset=offset, times=2)
        assert app.selected == ["k2"]


async def test_the_header_follows_the_rows_width_when_the_scrollbar_comes_and_goes() -> None:
    app = Host([Row(key="a", cells=["a", "1"])])
    async with app.run_test(size=(60, 12)) as pilot:
        browser = app.query_one(ResourceBrowser)
        await pilot.pause()

        def widths() -> tuple[int, int]:
            header = browser.query_one(".resource-browser--header", Static)
            return len(str(header.render())), browser.list.scrollable_content_region.width

        wide, _ = widths()
        assert widths() == (wide, wide)
        browser.append_rows([Row(key=str(n), cells=[str(n), "1"]) for n in range(50)])  # a scrollbar comes
        await pilot.pause()
        await pilot.pause()
        header, rows = widths()
        assert rows < wide and header == rows
        browser.set_rows([Row(key="a", cells=["a", "1"])])  # and goes
        await pilot.pause()
        await pilot.pause()
        assert widths() == (wide, wide)


class Loading(App[None]):
    """A button before the list: the focus is there when the list cannot take it."""

    def compose(self) -> ComposeResult:
        yield Button("Elsewhere", id="elsewhere")
        yield Button("Other", id="other")
        yield ResourceBrowser(COLUMNS, empty="No items in this test.")

    def on_mount(self) -> None:
        self.query_one(ResourceBrowser).set_loading(True)


async def test_a_focus_asked_while_the_list_loads_lands_when_it_is_loaded() -> None:
    """A screen's first focus asked while its first load runs went to another widget for good (the site's tabs,
    the search's box): the list takes it once its indicator goes, unless the user moved the focus meanwhile."""
    app = Loading()
    async with app.run_test() as pilot:
        browser = app.query_one(ResourceBrowser)
        await pilot.pause()
        assert browser.list.loading
        browser.focus_list()
        await pilot.pause()
        assert app.focused is app.query_one("#elsewhere")  # (Textual: a loading widget cannot have the focus)
        browser.set_rows([Row(key=k, cells=[k, "1"]) for k in "abc"])
        await pilot.pause()
        await pilot.pause()
        assert app.focused is browser.list
        await pilot.press("j")
        assert browser.list.highlighted is not None and browser.list.highlighted.key == "b"

        browser.set_rows([])
        browser.set_loading(True)
        await pilot.pause()
        app.query_one("#elsewhere", Button).focus()
        await pilot.pause()
        browser.focus_list()
        app.query_one("#other", Button).focus()  # the user went elsewhere meanwhile
        await pilot.pause()
        browser.set_rows([Row(key="a", cells=["a", "1"])])
        await pilot.pause()
        await pilot.pause()
        assert app.focused is app.query_one("#other")
