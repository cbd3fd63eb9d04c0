"""A space's page tree as an indented list (a :class:`ResourceBrowser`, so it draws only the rows on screen and
has the `/` filter): group pages and link pages are marked as such."""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content

from folio.services.space import PageEntry
from folio.tui.safe import safe
from folio.tui.widgets.resource_list import Column, ResourceBrowser, Row

__all__ = ["PageTree", "page_label", "page_row"]

COLUMNS = (Column("title", "Pages"),)


def page_label(entry: PageEntry) -> Content:
    """The page's tree guide and title, with what kind it is when it is not a plain document:
    ``▸ More (group)``, ``├ ↗ Status page (link)``."""
    page = entry.page
    title = safe(page.title or page.id, limit=120).plain
    if page.emoji:
        title = f"{safe(page.emoji, limit=8).plain} {title}"
    if entry.kind == "group":
        title = f"▸ {title} (group)"
    elif entry.kind == "link":
        title = f"↗ {title} (link)"
    elif entry.kind != "document":
        title = f"{title} ({safe(entry.kind, limit=20).plain})"
    if page.hidden:
        title += " (hidden)"
    return Content(entry.guide + title)


def page_row(entry: PageEntry) -> Row:
    label = page_label(entry)
    search = f"{label.plain.removeprefix(entry.guide)} {entry.page.path or ''}".lower()
    style = "dim" if entry.page.hidden else ""
    return Row(entry.page.id, [label], search=search, style=style, data=entry)


class PageTree(ResourceBrowser):
    """The tree of pages; ``entry`` is the page under the cursor."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(COLUMNS, empty="This space has no pages yet.", id=id, classes=classes)

    def set_pages(self, entries: Sequence[PageEntry], *, keep: str | None = None) -> None:
        self.set_rows((page_row(e) for e in entries), keep=keep)

    @property
    def entry(self) -> PageEntry | None:
        row = self.list.highlighted
        return row.data if row is not None and isinstance(row.data, PageEntry) else None
