"""The organization's change request inbox: every space's change requests in one list, with a filter bar.

The filter (:class:`folio.services.browse.InboxFilter`) is changed by the screen's keys through
:meth:`ChangeRequestInbox.cycle_status` and :meth:`ChangeRequestInbox.toggle`; each change reloads the list page
by page. Review verdicts cost one request per change request, so they are read only for the rows on screen, when
they come into view (a cell shows ``…`` until then).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Hashable, Sequence
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Static

from folio.models.change_request import ChangeRequestSummary
from folio.services.browse import InboxFilter, Verdicts
from folio.services.errors import ServiceError
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first, is_cached_only
from folio.tui.navigation import Ids, remember
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.widgets.loading_browser import FocusableBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from folio.services import Services

__all__ = ["ChangeRequestInbox"]

COLUMNS = (
    Column("title", "Change request"),
    Column("space", "Space", 12),
    Column("status", "Status", 8),
    Column("author", "Author", 10),
    Column("updated", "Updated", 10),
    Column("comments", "Cmts", 4, align="right"),
    Column("reviews", "Review", 6),
)
UNKNOWN = "…"
KEYS = "   s status · a awaiting me · m mine · u outdated"
KEYS_SHORT = "   s a m u change it"
"""With filters on, the keys are named short so the line fits 80 columns."""
CONCURRENT_REVIEW_READS = 6
RENAME_ASIDE = 500
"""Past this many rows (naming the spaces again, a page), the rows are worked out in a thread."""
PAGE_LIMIT = 1000
"""Change requests per request: the API's most (5,000 in five requests rather than fifty: the service's time
and the client's per request are most of the inbox's load)."""
OFFER_STEP = 500
"""The go-to is given the change requests loaded this many at a time, the loop taking keys between."""


class ChangeRequestInbox(ResourcePanel["ChangeRequestSummary"]):
    """The filter bar and the list of change requests of organization ``org_id``; ``s`` / ``a`` / ``m`` / ``u``
    change the filter."""

    COLUMNS = COLUMNS
    NOUN = "change request"
    ROUTE = "change-request"
    LOAD_ON_MOUNT = False  # the organization screen starts it once it has named the spaces
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "inbox_status", "Status", id="organization.inbox-status",
                tooltip="Show the next status: draft, open, archived, merged, every status"),
        Binding("a", "inbox_toggle('awaiting_me')", "Awaiting me", id="organization.inbox-awaiting-me",
                tooltip="Only the change requests whose review is asked of you (again: all)"),
        Binding("m", "inbox_toggle('mine')", "Mine", id="organization.inbox-mine",
                tooltip="Only the change requests you created (again: all)"),
        Binding("u", "inbox_toggle('outdated')", "Outdated", id="organization.inbox-outdated",
                tooltip="Only the change requests behind their space's content (again: all)"),
    ]  # fmt: skip

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.inbox = InboxFilter()
        self.space_titles: dict[str, str] = {}
        self.verdicts: dict[str, Verdicts | None] = {}
        """Change request id -> its verdicts (None: they could not be read)."""
        self._asked: set[str] = set()
        self._verdict_problem: Content | None = None
        self._built: dict[str, Row] = {}
        """The rows of the page being shown, built ahead (``fetch``)."""

    @property
    def change_requests(self) -> list[ChangeRequestSummary]:
        return self.items

    def compose(self) -> ComposeResult:
        # The base's, with a list that keeps the focus while it loads (3 then keys typed at once reach it).
        yield Static(self.hint(), classes="resource-panel--hint", id=f"{self.id}-summary" if self.id else None)
        yield FocusableBrowser(self.COLUMNS, empty=self.empty_text(), id=f"{self.id}-list" if self.id else None)

    def on_mount(self) -> None:
        lists = self.query(ResourceList)
        if lists:  # (none when the screen was left while this inbox was mounted)
            self.watch(lists.first(), "scroll_y", self._scrolled, init=False)

    # -- the filter ------------------------------------------------------------------------------------------

    def action_inbox_status(self) -> None:
        self.cycle_status()

    def action_inbox_toggle(self, switch: str) -> None:
        self.toggle(switch)

    def cycle_status(self) -> None:
        self.inbox = self.inbox.next_status()
        self.reload()

    def toggle(self, switch: str) -> None:
        """Flip ``awaiting_me``, ``mine`` or ``outdated`` and reload."""
        self.inbox = self.inbox.toggled(switch)
        self.reload()

    def topics(self) -> tuple[Hashable, ...]:
        return (("change-requests",),)

    def hint(self) -> Content:
        parts: list[Content | str | tuple[str, str]] = [
            ("Showing ", "dim"),
            (self.inbox.describe(), "bold"),
            (KEYS if self.inbox == InboxFilter() else KEYS_SHORT, "dim"),
        ]
        if self._verdict_problem is not None:
            parts += ["\n", self._verdict_problem]
        return Content.assemble(*parts)

    def empty_text(self) -> str:
        return f"No change requests match: {self.inbox.describe()}."

    # -- loading -----------------------------------------------------------------------------------------------

    def reload(self, *, keep: str | None = None) -> None:
        self.draw_hint()
        super().reload(keep=keep)

    async def fetch(self) -> AsyncIterator[Sequence[ChangeRequestSummary]]:
        inbox = self.inbox
        me = (await self.services.me()).id if inbox.needs_me else None
        pages = self.services.browse.change_request_pages(self.org_id, inbox, me=me, limit=PAGE_LIMIT)
        async for page in pages:
            if len(page) > RENAME_ASIDE:  # the rows the base asks for next (``row``), worked out in a thread
                self._built = await asyncio.to_thread(partial(self._rows_by_id, list(page)))
            yield page
            self._built = {}
            # From the cache, the pages come without a wait: thousands of change requests would be read and
            # their rows built in one go, the loop taking no key meanwhile (half a second, 5,000 of them).
            await asyncio.sleep(0)

    def _rows_by_id(self, page: list[ChangeRequestSummary]) -> dict[str, Row]:
        return {cr.id: self._row(cr) for cr in page}

    def loaded(self, items: list[ChangeRequestSummary], *, complete: bool) -> None:
        """The base's (offer every change request to the go-to), a few hundred at a time: thousands of them in one
        go held the loop for a tenth of a second."""
        self.items = items
        self._offer(items)
        with contextlib.suppress(Exception):  # (taken down while loading)
            self.screen.refresh_bindings()

    # (a description: Textual's default is the repr of the arguments, thousands of change requests: a quarter second)
    @work(exclusive=True, group="inbox-offer", exit_on_error=False, description="offer the change requests")
    async def _offer(self, items: list[ChangeRequestSummary]) -> None:
        kind = self.ROUTE or "change-request"
        for start in range(0, len(items), OFFER_STEP):
            if start:
                await asyncio.sleep(0)
            for cr in items[start : start + OFFER_STEP]:
                target = self.opens(cr)
                if target is not None:
                    remember(self, kind, *target)

    def arrived(self, page: Sequence[ChangeRequestSummary]) -> None:
        self.call_after_refresh(self.read_verdicts)

    def opens(self, cr: ChangeRequestSummary) -> tuple[Ids, str] | None:
        return {"space_id": cr.space, "ref": cr.id}, cr.title

    def item_of(self, cr: ChangeRequestSummary) -> Item | None:
        url = (cr.urls.app or cr.urls.location) if cr.urls else None
        return Item(cr.id, url, "change request")

    def set_space_titles(self, titles: dict[str, str]) -> None:
        """Name the spaces of the rows (the screen loads the spaces); rows shown are redrawn (thousands of rows
        are worked out in a thread: keys typed meanwhile act at once)."""
        self.space_titles = titles
        if len(self.change_requests) > RENAME_ASIDE:
            self._rename(self.change_requests)
        elif self.change_requests:
            self.browser.list.set_rows([self._row(cr) for cr in self.change_requests])

    @work(exclusive=True, group="inbox-rename", exit_on_error=False, description="name the spaces of the rows")
    async def _rename(self, shown: list[ChangeRequestSummary]) -> None:
        items = list(shown)
        rows = await asyncio.to_thread(lambda: [self._row(cr) for cr in items])
        # (a reload meanwhile, or a page more, brings its own rows)
        if self.change_requests is shown and len(shown) == len(items) and self.is_attached:
            self.browser.list.set_rows(rows)

    def row(self, cr: ChangeRequestSummary) -> Row:
        built = self._built.pop(cr.id, None)  # (a large page's rows, built in a thread by ``fetch``)
        return built if built is not None else self._row(cr)

    def _row(self, cr: ChangeRequestSummary) -> Row:
        verdicts = self.verdicts.get(cr.id, UNKNOWN)
        author = cr.created_by.display_name or cr.created_by.id if cr.created_by else ""
        # (cells as safe()'s plain text; the filter's text is made by the row when a filter first asks, and again
        # after the verdicts change its cells)
        title, space = safe(cr.title, limit=120).plain, safe(self.space_titles.get(cr.space, cr.space), limit=60).plain
        status, who = safe(cr.status, limit=20).plain, safe(author, limit=60).plain
        updated, comments = self.services.browse.age(cr.updated_at), str(cr.comments)
        review = "—" if verdicts is None else str(verdicts)
        return Row(
            key=cr.id,
            cells=[title, space, status, who, updated, comments, review],
            style="dim" if cr.status in ("archived", "merged") else "",
            data=cr,
        )

    # -- verdicts, for the rows on screen -------------------------------------------------------------------

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        super().on_resource_list_highlighted(event)
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
        wanted: list[ChangeRequestSummary] = [
            row.data  # type: ignore[misc]
            for row in lst.visible_rows[top : top + height]
            if row.key not in self._asked and row.data is not None
        ]
        if wanted:
            self._asked.update(cr.id for cr in wanted)
            self._read_verdicts(wanted)

    @work(group="inbox-verdicts", exit_on_error=False, description="read the verdicts of the rows on screen")
    @cache_first
    async def _read_verdicts(self, wanted: list[ChangeRequestSummary]) -> None:
        gate = asyncio.Semaphore(CONCURRENT_REVIEW_READS)
        failures: list[BaseException] = []
        cache_pass = is_cached_only()

        async def one(cr: ChangeRequestSummary) -> None:
            async with gate:
                try:
                    self.verdicts[cr.id] = await self.services.browse.verdicts(cr.space, cr.id)
                except ServiceError as exc:
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
        self.draw_hint()

    def forget_verdicts(self) -> None:
        """Drop what is known of the verdicts (a refresh reads them again)."""
        self.workers.cancel_group(self, "inbox-verdicts")
        self.verdicts.clear()
        self._asked.clear()
        self._verdict_problem = None
