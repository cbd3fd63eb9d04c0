"""The lists of a space screen's tabs, each a :class:`ResourcePanel` that loads the first time its tab is shown:

FilesPanel            the space's files (name, type, size, dimensions); enter shows the file's URL
LinksPanel            the links of its pages, broken ones marked; ``b`` only the broken ones
ChangeRequestsPanel   its change requests by status (``s`` cycles); enter opens one
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message

from folio.models.change_request import ChangeRequest
from folio.services.content.space import (
    CR_STATUSES,
    FileEntry,
    LinkEntry,
    LinksReport,
    PageEntry,
    change_request_cells,
    next_cr_status,
)
from folio.services.errors import ServiceError
from folio.tui.navigation import Ids
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.widgets.resource_list import Column, ResourceList, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from folio.services import Services

__all__ = ["ChangeRequestsPanel", "FilesPanel", "LinksPanel"]

FILE_COLUMNS = (
    Column("name", "Name"),
    Column("type", "Type", 16),
    Column("size", "Size", 9, align="right"),
    Column("dims", "Dimensions", 11),
)
LINK_COLUMNS = (
    Column("status", "Status", 8),
    Column("target", "Target"),
    Column("kind", "Kind", 4),
    Column("used", "Used on", 20),
)
CR_COLUMNS = (
    Column("number", "#", 4, align="right"),
    Column("subject", "Subject"),
    Column("status", "Status", 8),
    Column("author", "Author", 14),
    Column("updated", "Updated", 10),
    Column("comments", "Comments", 8, align="right"),
)


def _row(key: str, cells: tuple[str, ...], data: object, style: str = "") -> Row:
    return Row(key, [safe(cell, limit=300) for cell in cells], style=style, data=data)


class _SpacePanel(ResourcePanel["object"]):
    LOAD_ON_SHOW = True

    def __init__(self, services: Services, space_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.space_id = space_id


class FilesPanel(_SpacePanel):
    COLUMNS = FILE_COLUMNS
    EMPTY = "This space has no files."
    NOUN = "file"

    async def fetch(self) -> AsyncIterator[Sequence[FileEntry]]:
        yield await self.services.space.files(self.space_id)

    def row(self, file: object) -> Row:
        assert isinstance(file, FileEntry)
        return _row(file.id, file.cells, file)

    def item_of(self, file: object) -> Item | None:
        return Item(file.id, file.url, "file") if isinstance(file, FileEntry) else None

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        self.screen.action_show_url()  # type: ignore[attr-defined]  # a file opens nothing more: its URL is shown

    @property
    def files(self) -> list[FileEntry] | None:
        return [f for f in self.items if isinstance(f, FileEntry)] if self._started and not self.failed else None


class LinksPanel(_SpacePanel):
    """The links; ``known`` gives the pages and files the screen already read (naming targets costs nothing)."""

    COLUMNS = LINK_COLUMNS
    EMPTY = "The pages of this space link to nothing."
    NOUN = "link"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "broken_only", "Broken", id="space.broken-only",
                tooltip="Show only the broken links, or all the links again"),
    ]  # fmt: skip

    def __init__(
        self,
        services: Services,
        space_id: str,
        known: Callable[[], tuple[Sequence[PageEntry] | None, Sequence[FileEntry] | None]],
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(services, space_id, id=id)
        self.known = known
        self.broken_only = False
        self.report: LinksReport | None = None

    def hint(self) -> str:
        report = self.report
        if report is None:
            return "Loading the links…"
        if not report.offered:
            return "This service does not offer the links list."
        which = "only the broken ones (b shows all)" if self.broken_only else "b shows only the broken ones"
        return f"{report.summary} · {which}"

    async def fetch(self) -> AsyncIterator[Sequence[LinkEntry]]:
        pages, files = self.known()
        report = await self.services.space.links(self.space_id, pages=pages or None, files=files)
        self.report = report
        self.browser.display = report.offered
        self.draw_hint()
        yield [link for link in report.links if link.broken or not self.broken_only]

    def row(self, link: object) -> Row:
        assert isinstance(link, LinkEntry)
        broken = f"bold {self.app.get_css_variables().get('text-error', 'red')}"
        return _row(link.key, link.cells, link, broken if link.broken else "")

    def item_of(self, link: object) -> Item | None:
        return Item(link.target or link.label, link.url, "link") if isinstance(link, LinkEntry) else None

    def why_not(self, action: str) -> str | None:
        if action == "broken_only" and (self.report is None or not self.report.offered):
            return "This service does not offer the links list." if self.report else "The links are loading."
        return None

    def action_broken_only(self) -> None:
        self.broken_only = not self.broken_only
        report = self.report
        if report is None:
            return
        links = [link for link in report.links if link.broken or not self.broken_only]
        self.browser.set_rows([self.row(link) for link in links], staged=False)
        self.draw_hint()

    @dataclass
    class Follow(Message):
        """Enter on a link: the screen follows it to its page (or says why not)."""

        link: LinkEntry

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        link = event.row.data
        if isinstance(link, LinkEntry):
            self.post_message(self.Follow(link))


class ChangeRequestsPanel(_SpacePanel):
    COLUMNS = CR_COLUMNS
    EMPTY = "No change request here."
    NOUN = "change request"
    ROUTE = "change-request"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "cycle_status", "Status", id="space.cr-status",
                tooltip="Show the change requests of the next status: open, draft, archived, merged, all"),
        Binding("n", "new_change_request", "New", id="space.cr-new",
                tooltip="Start a change request on this space (subject, description); it opens once made"),
    ]  # fmt: skip

    def __init__(self, services: Services, space_id: str, *, id: str | None = None) -> None:
        super().__init__(services, space_id, id=id)
        self.status = CR_STATUSES[0]
        self.overlaps: dict[str, list[int]] = {}
        """Open change request id -> the numbers of the open ones editing the same pages (services.forecast)."""

    def topics(self) -> tuple[Hashable, ...]:
        return (("change-requests", self.space_id),)

    def hint(self) -> Content:
        what = "All change requests" if self.status == "all" else f"{self.status.capitalize()} change requests"
        overlap = " · \u21c4 edits pages another open one edits" if self.overlaps else ""  # its Checks tab says which
        return Content(f"{what} · s shows {next_cr_status(self.status)}{overlap}")

    def failed_doing(self) -> str:
        return f"Could not load the {self.status} change requests"

    async def fetch(self) -> AsyncIterator[Sequence[ChangeRequest]]:
        crs = await self.services.space.change_requests(self.space_id, self.status)
        try:  # the conflict forecast: open change requests editing the same pages are marked (services.forecast)
            self.overlaps = await self.services.forecast.overlapping(self.space_id, crs) if crs else {}
        except ServiceError:  # a mark the list can do without (a cache pass's miss, a change list that failed)
            self.overlaps = {}
        self.draw_hint()
        yield crs

    def row(self, cr: object) -> Row:
        assert isinstance(cr, ChangeRequest)
        cells = change_request_cells(cr)
        if cr.id in self.overlaps:
            cells = (cells[0], f"\u21c4 {cells[1]}", *cells[2:])  # edits pages another open one edits
        return _row(cr.id, cells, cr)

    def opens(self, cr: object) -> tuple[Ids, str] | None:
        if not isinstance(cr, ChangeRequest):
            return None
        return {"space_id": self.space_id, "ref": cr.id}, f"#{cr.number} {cr.subject or 'Untitled'}"

    def item_of(self, cr: object) -> Item | None:
        if not isinstance(cr, ChangeRequest):
            return None
        return Item(cr.id, cr.urls.app if cr.urls else None, "change request")

    def action_cycle_status(self) -> None:
        self.status = next_cr_status(self.status)
        self.draw_hint()
        self.reload()

    def action_new_change_request(self) -> None:
        from folio.tui.modals.change_request_forms import start_change_request  # the form loads when first used

        start_change_request(self, self.services, self.space_id)
