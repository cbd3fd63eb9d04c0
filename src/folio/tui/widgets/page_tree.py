"""A space's page tree as an indented list (a :class:`ResourceBrowser`, so it draws only the rows on screen and
has the `/` filter): group pages and link pages are marked as such."""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content

from folio.models.emoji import as_character
from folio.services.content.space import PageEntry
from folio.tui.safe import safe
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, Row

__all__ = ["PageRow", "PageTree", "page_label", "page_row"]

COLUMNS = (Column("title", "Pages"),)


def page_label(entry: PageEntry) -> Content:
    """The page's tree guide and title, with what kind it is when it is not a plain document:
    ``▸ More (group)``, ``├ ↗ Status page (link)``."""
    page = entry.page
    title = safe(page.title or page.id, limit=120).plain
    if page.emoji:
        title = f"{safe(as_character(page.emoji), limit=8).plain} {title}"
    if entry.kind == "group":
        title = f"▸ {title} (group)"
    elif entry.kind == "link":
        title = f"↗ {title} (link)"
    elif entry.kind != "document":
        title = f"{title} ({safe(entry.kind, limit=20).plain})"
    if page.hidden:
        title += " (hidden)"
    return Content(entry.guide + title)


class PageRow(Row):
    """A page's row. Its label (cleaning the title, the kind, the guide) is made the first time the row is drawn or
    searched, not when the tree is set: a tree of thousands of pages shows one screenful."""

    __slots__ = ("_cells", "_entry", "_search")

    def __init__(self, entry: PageEntry) -> None:  # no super().__init__: cells and search are made on demand
        self.key = entry.page.id
        self.style = "dim" if entry.page.hidden else ""
        self.indent = 0
        self.data = entry
        self._entry = entry
        self._cells: Sequence[Content | str] | None = None
        self._search: str | None = None

    @property  # type: ignore[override]
    def cells(self) -> Sequence[Content | str]:
        if self._cells is None:
            self._cells = [page_label(self._entry)]
        return self._cells

    @cells.setter
    def cells(self, cells: Sequence[Content | str]) -> None:
        self._cells = cells

    @property  # type: ignore[override]
    def search(self) -> str:
        if self._search is None:
            label = self.cells[0]
            plain = label.plain if isinstance(label, Content) else label
            entry = self._entry
            self._search = f"{plain.removeprefix(entry.guide)} {entry.page.path or ''}".lower()
        return self._search

    @search.setter
    def search(self, search: str) -> None:
        self._search = search


def page_row(entry: PageEntry) -> Row:
    return PageRow(entry)


class PageTree(ResourceBrowser):
    """The tree of pages; ``entry`` is the page under the cursor."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(COLUMNS, empty="This space has no pages yet.", id=id, classes=classes)

    def set_pages(self, entries: Sequence[PageEntry], *, keep: str | None = None) -> None:
        self.set_rows([PageRow(e) for e in entries], keep=keep)

    @property
    def entry(self) -> PageEntry | None:
        row = self.list.highlighted
        return row.data if row is not None and isinstance(row.data, PageEntry) else None
