"""The organization's change request inbox: every space's change requests in one list, with a filter bar.

The filter (:class:`folio.services.browse.InboxFilter`) is changed by the screen's keys through
:meth:`ChangeRequestInbox.cycle_status` and :meth:`ChangeRequestInbox.toggle`; each change reloads the list page
by page. Review verdicts cost one request per change request, so they are read only for the rows on screen, when
they come into view (a cell shows ``…`` until then).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from folio.services.browse import InboxFilter, Verdicts
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first, is_cached_only
from folio.tui.safe import safe
from folio.tui.widgets.resource_list import Column, ResourceBrowser, ResourceList, Row

if TYPE_CHECKING:
    from folio.models.change_request import ChangeRequest
    from folio.services import Services

__all__ = ["ChangeRequestInbox"]

COLUMNS = (
    Column("title", "Change request"),
    Column("space", "Space", 12),
    Column("status", "Status", 8),
    Column("author", "Author", 10),
    Column("updated", "Updated", 7),
    Column("comments", "Cmts", 4, align="right"),
    Column("reviews", "Review", 6),
)
UNKNOWN = "…"
CONCURRENT_REVIEW_READS = 6


class ChangeRequestInbox(Vertical):
    """The filter bar and the list of change requests of organization ``org_id``."""

    @dataclass
    class Loaded(Message):
        """A page of change requests arrived (the screen makes them reachable from the palette)."""

        inbox: ChangeRequestInbox
        change_requests: list[ChangeRequest]

        @property
        def control(self) -> ChangeRequestInbox:
            return self.inbox

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.services = services
        self.org_id = org_id
        self.inbox = InboxFilter()
        self.change_requests: list[ChangeRequest] = []
        self.space_titles: dict[str, str] = {}
        self.verdicts: dict[str, Verdicts | None] = {}
        """Change request id -> its verdicts (None: they could not be read)."""
        self._asked: set[str] = set()
        self._verdict_problem: Content | None = None

    def compose(self) -> ComposeResult:
        yield Static(classes="inbox--filters")
        yield ResourceBrowser(COLUMNS, empty="No change requests.", classes="inbox--list")

    @property
    def browser(self) -> ResourceBrowser:
        return self.query_one(ResourceBrowser)

    def on_mount(self) -> None:
        self._draw_filters()
        lists = self.query(ResourceList)
        if lists:  # (none when the screen was left while this inbox was mounted)
            self.watch(lists.first(), "scroll_y", self._scrolled, init=False)

    # -- the filter ------------------------------------------------------------------------------------------

    def cycle_status(self) -> None:
        self.inbox = self.inbox.next_status()
        self.reload()

    def toggle(self, switch: str) -> None:
        """Flip ``awaiting_me``, ``mine`` or ``outdated`` and reload."""
        self.inbox = self.inbox.toggled(switch)
        self.reload()

    def _draw_filters(self) -> None:
        parts: list[Content | str | tuple[str, str]] = [
            ("Showing ", "dim"),
            (self.inbox.describe(), "bold"),
            ("   s status · a awaiting me · m mine · u outdated", "dim"),
        ]
        if self._verdict_problem is not None:
            parts += ["\n", self._verdict_problem]
        for bar in self.query(".inbox--filters").results(Static):  # none once the screen is taken down
            bar.update(Content.assemble(*parts))

    # -- loading -----------------------------------------------------------------------------------------------

    def reload(self) -> None:
        self._draw_filters()
        self.load()

    @work(exclusive=True, group="inbox", exit_on_error=False)
    @cache_first
    async def load(self) -> None:
        """Read the change requests the filter lets through, page by page; failures are said in the list's
        status line and what was shown stays."""
        browser = self.browser
        inbox = self.inbox
        browser.empty = f"No change requests match: {inbox.describe()}."
        browser.set_error(None)
        browser.set_loading(True)
        keep = browser.list.highlighted.key if browser.list.highlighted else None
        loaded: list[ChangeRequest] = []
        first = True
        try:
            me = (await self.services.me()).id if inbox.needs_me else None
            async for page in self.services.browse.change_request_pages(self.org_id, inbox, me=me):
                loaded.extend(page)
                rows = [self._row(cr) for cr in page]
                if first:
                    self.change_requests = loaded
                    browser.set_rows(rows, keep=keep)
                    first = False
                else:
                    browser.append_rows(rows)
                if page:
                    self.post_message(self.Loaded(self, page))
                self.call_after_refresh(self.read_verdicts)
        except Exception as exc:
            browser.set_error(
                error_message(exc, doing="Could not load the change requests", hint="Press r to try again.")
            )
            return
        browser.set_loading(False)
        if keep is not None and (browser.list.highlighted is None or browser.list.cursor == 0):
            browser.list.move_to(keep)

    def set_space_titles(self, titles: dict[str, str]) -> None:
        """Name the spaces of the rows (the screen loads the spaces); rows shown are redrawn."""
        self.space_titles = titles
        if self.change_requests:
            self.browser.list.set_rows([self._row(cr) for cr in self.change_requests])

    def _row(self, cr: ChangeRequest) -> Row:
        verdicts = self.verdicts.get(cr.id, UNKNOWN)
        author = cr.created_by.display_name or cr.created_by.id if cr.created_by else ""
        return Row(
            key=cr.id,
            cells=[
                safe(cr.title, limit=120),
                safe(self.space_titles.get(cr.space, cr.space), limit=60),
                safe(cr.status, limit=20),
                safe(author, limit=60),
                self.services.browse.age(cr.updated_at),
                str(cr.comments),
                "—" if verdicts is None else str(verdicts),
            ],
            style="dim" if cr.status in ("archived", "merged") else "",
            data=cr,
        )

    # -- verdicts, for the rows on screen -------------------------------------------------------------------

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        self.read_verdicts()

    def on_resize(self) -> None:
        self.call_after_refresh(self.read_verdicts)

    def _scrolled(self, value: float) -> None:
        self.read_verdicts()

    def read_verdicts(self) -> None:
        """Ask for the verdicts of the rows on screen not asked for yet (nothing while the inbox is hidden, or
        once its screen is being taken down)."""
        lists = self.query(ResourceList)
        if not lists:
            return
        lst = lists.first()
        height = lst.scrollable_content_region.height
        if not self.is_mounted or height <= 0 or not self.display:
            return
        top = round(lst.scroll_y)
        wanted: list[ChangeRequest] = [
            row.data  # type: ignore[misc]
            for row in lst.visible_rows[top : top + height]
            if row.key not in self._asked and row.data is not None
        ]
        if wanted:
            self._asked.update(cr.id for cr in wanted)
            self._read_verdicts(wanted)

    @work(group="inbox-verdicts", exit_on_error=False)
    @cache_first
    async def _read_verdicts(self, wanted: list[ChangeRequest]) -> None:
        gate = asyncio.Semaphore(CONCURRENT_REVIEW_READS)
        failures: list[BaseException] = []
        cache_pass = is_cached_only()

        async def one(cr: ChangeRequest) -> None:
            async with gate:
                try:
                    self.verdicts[cr.id] = await self.services.browse.verdicts(cr.space, cr.id)
                except Exception as exc:
                    self.verdicts[cr.id] = None
                    if not cache_pass:  # a review not cached yet is read in the pass after: nothing to say
                        failures.append(exc)

        await asyncio.gather(*(one(cr) for cr in wanted))
        self._verdict_problem = (
            error_message(failures[0], doing="Could not read some reviews", hint="Press r to try again.")
            if failures
            else self._verdict_problem
        )
        by_id = {cr.id: cr for cr in wanted}
        for row in self.browser.list.rows:
            if row.key in by_id:
                row.cells = self._row(by_id[row.key]).cells
        self.browser.list.refresh()
        self._draw_filters()

    def forget_verdicts(self) -> None:
        """Drop what is known of the verdicts (a refresh reads them again)."""
        self.workers.cancel_group(self, "inbox-verdicts")
        self.verdicts.clear()
        self._asked.clear()
        self._verdict_problem = None
