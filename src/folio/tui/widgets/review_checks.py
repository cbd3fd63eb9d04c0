"""The checks tab of a change request: the review lint (broken links it introduces, removed pages and files
still linked, empty pages, missing descriptions, very large deletions) and the conflict forecast (the other open
change requests that edit the same pages).

    pane = ReviewChecks(services, space_id, id="cr-checks")
    pane.load(cr)                     # when the tab is first shown, and on r

``enter`` on a finding posts :class:`ReviewChecks.ShowPage` (the screen shows that page's diff on the changes
tab); on a change request, it opens it (``Open("change-request", ...)``).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from folio.services.review.forecast import Forecast, Overlap
from folio.services.review.review_lint import Kind, LintItem, LintReport
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first
from folio.tui.navigation import Open
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.widgets.focus_hold import HoldsFocus
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row

if TYPE_CHECKING:
    from folio.models.change_request import ChangeRequest
    from folio.services import Services
    from folio.services.review.review import ChangeSet

__all__ = ["LABELS", "ReviewChecks", "checks_summary"]

COLUMNS = (
    Column("check", "Check", width=14),
    Column("where", "Page or change request", width=22),
    Column("what", "What"),
)
LABELS = {
    "broken-link": "\u2717 broken link",
    "linked": "! still linked",
    "large-deletion": "! large cut",
    "empty": "! empty page",
    "no-description": "\u00b7 no descr.",
    "overlap": "\u21c4 overlaps",
}
"""The check column, a glyph first (✗ breaks something, ! worth a look, · a detail, ⇄ another change request)."""
NOUNS: dict[Kind, tuple[str, str]] = {
    "broken-link": ("broken link", "broken links"),
    "linked": ("removal still linked", "removals still linked"),
    "large-deletion": ("large deletion", "large deletions"),
    "empty": ("empty page", "empty pages"),
    "no-description": ("page without description", "pages without description"),
}


def checks_summary(report: LintReport | None, forecast: Forecast | None) -> str:
    """The line above the list: the findings counted, then the forecast in a sentence."""
    parts: list[str] = []
    if report is not None:
        counts = [(report.count(kind), words) for kind, words in NOUNS.items()]
        said = [f"{n} {words[n != 1]}" for n, words in counts if n]
        parts.append("Lint: " + (", ".join(said) if said else "nothing found") + ".")
        parts.extend(report.unchecked)
    if forecast is not None:
        parts.append(forecast.summary)
    return " ".join(parts)


class ReviewChecks(Vertical, HoldsFocus):
    """The findings and the overlapping change requests of one change request, in one list."""

    DEFAULT_CSS = """
    ReviewChecks { height: 1fr; }
    ReviewChecks > #checks-summary { height: auto; color: $text-muted; }
    ReviewChecks > #checks-summary.-error { color: $text-error; }
    """

    @dataclass
    class ShowPage(Message):
        """Enter on a finding: show page ``page_id`` in the changes tab."""

        pane: ReviewChecks
        page_id: str
        title: str

        @property
        def control(self) -> ReviewChecks:
            return self.pane

    def __init__(self, services: Services, space_id: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.services = services
        self.space_id = space_id
        self.cr: ChangeRequest | None = None
        self.report: LintReport | None = None
        self.forecast: Forecast | None = None
        self.loaded = False
        """A load was asked for (the tab was shown): ``r`` loads it again."""

    def compose(self) -> ComposeResult:
        # Seen only once the tab is shown, when the checks start (or wait for the change request to load).
        yield Static(Content("Checking this change request\u2026"), id="checks-summary")
        yield ResourceBrowser(
            COLUMNS, empty="Nothing to report: no finding, no overlapping change request.", id="checks-list"
        )

    def on_mount(self) -> None:
        self.browser.set_loading(True)  # until the first check is drawn: not "nothing to report"

    @property
    def browser(self) -> ResourceBrowser:
        return self.query_one("#checks-list", ResourceBrowser)

    def held_list(self) -> ResourceList:
        return self.browser.list

    # -- loading ----------------------------------------------------------------------------------------------

    def load(self, cr: ChangeRequest) -> None:
        """Check ``cr`` (again): the lint and the forecast, read together."""
        self.cr, self.loaded = cr, True
        self._load(cr.id)

    @work(exclusive=True, group="review-checks", exit_on_error=False)
    @cache_first
    async def _load(self, cr_id: str) -> None:
        cr = self.cr
        if cr is None or cr.id != cr_id:
            return
        self.browser.set_loading(True)
        lint, forecast = await asyncio.gather(
            self.services.review_lint.lint(self.space_id, cr),
            self.services.forecast.forecast(self.space_id, cr.id),
            return_exceptions=True,
        )
        problems: list[Content] = []
        for result, doing in (
            (lint, "Could not check the content"),
            (forecast, "Could not read the other change requests"),
        ):
            if isinstance(result, BaseException):
                if self.services.connection.is_cache_miss(result) or not isinstance(result, Exception):
                    raise result  # a cache pass that found nothing: the fresh pass comes next
                problems.append(error_message(result, doing=doing, hint="Press r to try again."))
        self.report = lint if isinstance(lint, LintReport) else self.report
        self.forecast = forecast if isinstance(forecast, Forecast) else self.forecast
        self.show(problems)

    def show(self, problems: list[Content] | None = None) -> None:
        """Draw what was read; ``problems`` say what could not be (the rest is shown all the same)."""
        rows = [self._lint_row(n, item) for n, item in enumerate(self.report.items if self.report else [])]
        rows += [self._overlap_row(o) for o in (self.forecast.overlaps if self.forecast else [])]
        self.browser.set_rows(rows)
        self.browser.set_loading(False)
        summary = self.query_one("#checks-summary", Static)
        words = checks_summary(self.report, self.forecast)
        summary.update(Content("\n").join([*([Content(words)] if words else []), *(problems or [])]))
        summary.set_class(bool(problems), "-error")
        self.hand_over()

    def _lint_row(self, n: int, item: LintItem) -> Row:
        style = "dim" if item.kind == "no-description" else ""  # a detail; the glyphs tell the rest apart
        return Row(
            key=f"lint-{n}",
            cells=[LABELS[item.kind], safe(item.page_title or "Untitled", limit=120), safe(item.text, limit=300)],
            style=style,
            data=item,
        )

    def _overlap_row(self, overlap: Overlap) -> Row:
        cr = overlap.cr
        what = overlap.summary + (
            "; merging this one makes it outdated" if overlap.becomes_outdated else "; it is outdated already"
        )
        return Row(
            key=f"cr-{cr.id}",
            cells=[
                LABELS["overlap"],
                safe(f"#{cr.number} {cr.subject or 'Untitled'}", limit=120),
                safe(what, limit=300),
            ],
            data=overlap,
        )

    def current_item(self, pages: ChangeSet | None) -> Item | None:
        """What ``o``/``y`` act on: the other change request, or the finding's page (its URL from ``pages``)."""
        row = self.browser.list.highlighted
        data = row.data if row is not None else None
        if isinstance(data, Overlap):
            return Item(data.cr.id, data.cr.urls.app if data.cr.urls else None, "change request")
        if isinstance(data, LintItem):
            page = pages.find(data.page_id) if pages is not None else None
            return Item(data.page_id, page.url if page is not None else None, "page")
        return None

    # -- enter --------------------------------------------------------------------------------------------------

    @on(ResourceList.Selected)
    def _selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        data = event.row.data
        if isinstance(data, LintItem):
            self.post_message(self.ShowPage(self, data.page_id, data.page_title))
        elif isinstance(data, Overlap):
            cr = data.cr
            self.post_message(
                Open(
                    "change-request",
                    {"space_id": self.space_id, "ref": cr.id},
                    title=f"#{cr.number} {cr.subject or 'Untitled'}",
                )
            )
