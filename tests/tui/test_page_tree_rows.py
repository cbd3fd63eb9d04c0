"""The pages tree makes a page's label when the row is first drawn or searched: the rows say the same as rows made
up front, a big tree labels only what is on screen, and the filter still finds any page."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult

from folio.models.common import Page
from folio.services.content.space import PageEntry, flatten_pages
from folio.tui.widgets import page_tree
from folio.tui.widgets.page_tree import PageRow, PageTree, page_label
from folio.tui.widgets.resource_list import Row


def pages() -> list[Page]:
    return [
        Page(id="intro", title="Introduction", path="intro"),
        Page(
            id="more",
            title="More",
            type="group",
            pages=[
                Page(id="status", title="Status page", type="link", href="https://status.example.com"),
                Page(id="secret", title="Drafts", path="more/drafts", hidden=True, emoji="1f4dd"),
                Page(id="computed", title="Generated", type="computed", path="more/generated"),
                Page(id="odd", title="\x1b[31mAlert\x07 [b]x[/b]", path="more/odd"),
            ],
        ),
    ]


def eager(entry: PageEntry) -> Row:
    """The row as it was made before labels were made on demand."""
    label = page_label(entry)
    search = f"{label.plain.removeprefix(entry.guide)} {entry.page.path or ''}".lower()
    return Row(entry.page.id, [label], search=search, style="dim" if entry.page.hidden else "", data=entry)


def test_a_page_row_says_what_a_row_made_up_front_says() -> None:
    for entry in flatten_pages(pages()):
        row, expected = PageRow(entry), eager(entry)
        assert (row.key, row.style, row.indent, row.data) == (expected.key, expected.style, 0, entry)
        assert [str(c) for c in row.cells] == [str(c) for c in expected.cells]
        assert row.search == expected.search


def test_a_page_row_can_be_given_its_cells() -> None:
    row = PageRow(flatten_pages(pages())[0])
    row.cells = ["Renamed"]
    assert row.cells == ["Renamed"] and row.search == "renamed intro"


def big_tree(chapters: int) -> list[PageEntry]:
    return flatten_pages(
        Page(
            id=f"c{c}",
            title=f"Chapter {c}",
            type="group",
            pages=[Page(id=f"p{c}-{p}", title=f"Page {c}.{p}", path=f"c{c}/p{p}") for p in range(9)],
        )
        for c in range(chapters)
    )


class Host(App[None]):
    def __init__(self, entries: list[PageEntry]) -> None:
        super().__init__()
        self.entries = entries

    def compose(self) -> ComposeResult:
        yield PageTree()

    def on_mount(self) -> None:
        tree = self.query_one(PageTree)
        tree.set_pages(self.entries)
        tree.focus_list()


async def test_a_big_tree_labels_only_the_pages_on_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    labelled: list[str] = []

    def counting(entry: PageEntry) -> Any:
        labelled.append(entry.page.id)
        return page_label(entry)

    monkeypatch.setattr(page_tree, "page_label", counting)
    entries = big_tree(250)  # 2,500 pages
    app = Host(entries)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        tree = app.query_one(PageTree)
        assert len(tree.list.rows) == 2_500
        assert 0 < len(labelled) <= 20 and set(labelled) <= {e.page.id for e in entries[:20]}
        await pilot.press("end")
        await pilot.pause()
        assert tree.entry is not None and tree.entry.page.id == "p249-8"
        assert len(labelled) <= 40


async def test_the_filter_finds_a_page_never_drawn() -> None:
    app = Host(big_tree(250))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("/", *"c200/p7")
        await pilot.pause()
        tree = app.query_one(PageTree)
        assert [r.key for r in tree.list.visible_rows] == ["p200-7"]
        assert tree.entry is not None and tree.entry.page.id == "p200-7"
