"""What the space screen shows beside its lists:

FileDetail       under the files list: the file under the cursor (type, size, dimensions) and where it is used
                 (its backlinks: which pages of which spaces reference it)
RevisionPanel    the space's current revision (id, when, its Git commit where synced) and its pages, any of them
                 shown; ``c`` compares it with a change request's content (the review's diff), ``p`` goes back
PageLinksModal   the links one page makes, broken ones marked (as the links tab does for the whole space)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from folio.services.content.space import FileEntry, LinksReport, PageEntry
from folio.services.content.space_admin import FileUses, RevisionFacts
from folio.services.errors import ServiceError
from folio.services.review.diff import diff_markdown
from folio.services.review.review import ChangeSet, PageChange
from folio.services.sites.site_rules import Choice
from folio.tui.actions import Explains
from folio.tui.errors import error_message
from folio.tui.modals.site_forms import ChoiceModal
from folio.tui.safe import safe
from folio.tui.widgets.diff_view import DiffView
from folio.tui.widgets.markdown_view import sanitize_markdown
from folio.tui.widgets.page_tree import PageTree
from folio.tui.widgets.page_view import PageView
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row

if TYPE_CHECKING:
    from folio.services import Services

__all__ = ["FileDetail", "PageLinksModal", "RevisionPanel"]

SEP = " \u203a "
USES_SHOWN = 4
"""Backlinks listed under a file (the count says how many more)."""


class FileDetail(Static):
    """The file under the cursor of the files list, and where it is used (read once per file)."""

    def __init__(self, services: Services, space_id: str, *, id: str | None = None) -> None:
        super().__init__(Content("Move the cursor to a file to see where it is used."), id=id)
        self.services = services
        self.space_id = space_id
        self.file: FileEntry | None = None
        self.uses: dict[str, FileUses] = {}
        self.failed: dict[str, Content] = {}

    def show_file(self, file: FileEntry | None) -> None:
        self.file = file
        self._draw()
        if file is not None and file.id not in self.uses:
            self.load(file)

    @work(exclusive=True, group="file-uses", exit_on_error=False)
    async def load(self, file: FileEntry) -> None:
        try:
            self.uses[file.id] = await self.services.space_admin.file_uses(self.space_id, file.id)
            self.failed.pop(file.id, None)
        except ServiceError as exc:
            self.failed[file.id] = error_message(exc, doing="Could not read where it is used", hint="r tries again.")
        if self.file is not None and self.file.id == file.id:
            self._draw()

    def forget(self) -> None:
        """Read the backlinks again when next shown (``r``)."""
        self.uses.clear()
        self.failed.clear()

    def _draw(self) -> None:
        file = self.file
        if file is None:
            self.update(Content("No file is selected."))
            return
        head = safe(f"“{file.name}” · {file.type} · {file.size} · {file.dimensions}", limit=200).stylize("bold")
        uses = self.uses.get(file.id)
        if file.id in self.failed:
            self.update(Content("\n").join([head, self.failed[file.id]]))
            return
        if uses is None:
            self.update(Content("\n").join([head, Content("Looking for where it is used…")]))
            return
        lines = [head, Content(uses.summary + (":" if uses.uses else ""))]
        for use in uses.uses[:USES_SHOWN]:
            where = f"{use.space}{SEP}{use.page}" if use.page else use.space
            lines.append(safe(f"  • {where}" + (f"  ({use.path})" if use.path else ""), limit=200))
        if len(uses.uses) > USES_SHOWN:
            lines.append(Content(f"  … and {len(uses.uses) - USES_SHOWN} more"))
        self.update(Content("\n").join(lines))


CHANGE_COLUMNS = (Column("kind", "Change", 10), Column("title", "Page"))


class RevisionPanel(Vertical, Explains):
    """The space's current revision: facts, pages (enter or the cursor shows one), and ``c`` to compare it with a
    change request's content (``p`` shows the revision's pages again)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "compare", "Compare", id="space.revision-compare",
                tooltip="Compare this revision with a change request's content"),
        Binding("p", "pages", "Pages", id="space.revision-pages", tooltip="Show the revision's pages again"),
    ]  # fmt: skip

    def __init__(self, services: Services, space_id: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.services = services
        self.space_id = space_id
        self.facts: RevisionFacts | None = None
        self.changes: ChangeSet | None = None
        self._started = False

    def compose(self) -> ComposeResult:
        yield Static(Content("Loading the revision…"), id="revision-facts")
        with Horizontal(id="revision-body"):
            yield PageTree(id="revision-pages")
            yield ResourceBrowser(CHANGE_COLUMNS, empty="No page differs.", id="revision-changes")
            with Vertical(id="revision-right"):
                yield PageView(id="revision-page")
                yield Static(id="revision-diff-title")
                yield DiffView(id="revision-diff")
        yield Static(id="revision-hint")

    def on_mount(self) -> None:
        self._mode(compare=False, focus=False)

    def on_show(self) -> None:
        if not self._started:
            self.reload()

    @property
    def pages(self) -> PageTree:
        return self.query_one("#revision-pages", PageTree)

    @property
    def changed(self) -> ResourceBrowser:
        return self.query_one("#revision-changes", ResourceBrowser)

    def focus_current(self) -> None:
        """Give the focus to the list shown (the revision's pages, or the pages that differ)."""
        (self.changed if self.changes is not None else self.pages).focus_list()

    def _mode(self, *, compare: bool, focus: bool = True) -> None:
        for name in ("#revision-pages", "#revision-page"):
            self.query_one(name).display = not compare
        for name in ("#revision-changes", "#revision-diff-title", "#revision-diff"):
            self.query_one(name).display = compare
        hint = "c compares with a change request" if not compare else "p shows the revision's pages again"
        self.query_one("#revision-hint", Static).update(Content(hint))
        if focus:
            self.focus_current()
            self.screen.refresh_bindings()

    def why_not(self, action: str) -> str | None:
        if action == "compare" and self.facts is None:
            return "The revision is not loaded yet."
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pages":
            return self.changes is not None  # only while a comparison is shown
        return super().check_action(action, parameters)

    # -- the revision -----------------------------------------------------------------------------------------

    def reload(self) -> None:
        self._started = True
        self.load()

    @work(exclusive=True, group="revision", exit_on_error=False)
    async def load(self) -> None:
        facts_line = self.query_one("#revision-facts", Static)
        self.pages.set_loading(True)
        try:
            facts = await self.services.space_admin.revision(self.space_id)
        except ServiceError as exc:
            message = error_message(exc, doing="Could not load the revision", hint="Press r to try again.")
            facts_line.update(message)
            self.pages.set_error(message)
            return
        self.facts = facts
        facts_line.update(Content("\n").join(safe(line, limit=300) for line in facts.lines()))
        self.pages.set_loading(False)
        self.pages.set_pages(facts.pages)
        self.screen.refresh_bindings()

    @on(ResourceList.Highlighted, "#revision-pages ResourceList")
    def _page_highlighted(self, event: ResourceList.Highlighted) -> None:
        entry = event.row.data if event.row is not None else None
        if isinstance(entry, PageEntry):
            self.show_page(entry)

    @on(ResourceList.Selected, "#revision-pages ResourceList")
    def _page_selected(self, event: ResourceList.Selected) -> None:
        event.stop()

    def show_page(self, entry: PageEntry) -> None:
        view = self.query_one("#revision-page", PageView)
        if not view.show_entry(entry):
            self._read_page(entry)

    @work(exclusive=True, group="revision-page", exit_on_error=False)
    async def _read_page(self, entry: PageEntry) -> None:
        view, facts = self.query_one("#revision-page", PageView), self.facts
        if facts is None:
            return
        try:
            markdown = await self.services.space_admin.revision_markdown(self.space_id, facts.id, entry)
        except ServiceError as exc:
            view.set_status(error_message(exc, doing="Could not read the page"), error=True)
            return
        view.show_document(entry.page, markdown)

    # -- compared with a change request -----------------------------------------------------------------------

    def action_pages(self) -> None:
        self.changes = None
        self._mode(compare=False)

    def action_compare(self) -> None:
        self.run_worker(self._compare(), group="revision-compare", exclusive=True, exit_on_error=False)

    async def _compare(self) -> None:
        try:
            crs = await self.services.space.change_requests(self.space_id, "all")
        except ServiceError as exc:
            self.notify(error_message(exc, doing="Could not list the change requests").plain, markup=False)
            return
        active = [cr for cr in crs if cr.is_active]
        if not active:
            self.notify("No open or draft change request to compare with.", markup=False)
            return
        choices = [Choice(cr.id, f"{cr.title} ({cr.status})") for cr in active]
        picked = await self.app.push_screen_wait(
            ChoiceModal("Compare the current revision with…", choices, _nothing, help="enter picks")
        )
        cr = next((c for c in active if c.id == picked), None)
        if cr is None:
            return
        self.query_one("#revision-diff-title", Static).update(Content("Reading both contents…"))
        try:
            self.changes = await self.services.space_admin.compare(self.space_id, cr)
        except ServiceError as exc:
            self.notify(error_message(exc, doing=f"Could not compare with {cr.title}").plain, markup=False)
            return
        rows = [Row(p.id, [p.label, safe(p.title, limit=120)], indent=p.depth, data=p) for p in self.changes.changed]
        self.changed.set_rows(rows, staged=False)
        self._mode(compare=True)
        self._show_change(self.changes.changed[0] if self.changes.changed else None)

    @on(ResourceList.Highlighted, "#revision-changes ResourceList")
    def _change_highlighted(self, event: ResourceList.Highlighted) -> None:
        page = event.row.data if event.row is not None else None
        self._show_change(page if isinstance(page, PageChange) else None)

    @on(ResourceList.Selected, "#revision-changes ResourceList")
    def _change_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        self.query_one("#revision-diff", DiffView).focus()

    def _show_change(self, page: PageChange | None) -> None:
        changes, view = self.changes, self.query_one("#revision-diff", DiffView)
        title = self.query_one("#revision-diff-title", Static)
        if changes is None:
            return
        head = safe(f"Current revision → {changes.cr.title}", limit=160).stylize("bold")
        if page is None:
            title.update(head)
            view.show(None, "The change request's pages are the same as the current revision's.")
            return
        diff = diff_markdown(_clean(page.before), _clean(page.after))
        title.update(Content.assemble(head, " · ", safe(page.path or page.title, limit=80), f" · {page.label}"))
        if diff.changed:
            view.show(diff)
        else:
            view.show(None, f"No change to this page's text ({page.label}).")


def _clean(text: str | None) -> str | None:
    return None if text is None else sanitize_markdown(text)


async def _nothing(value: str) -> None:
    """The picker only picks; the comparison is read once it is closed."""


LINK_COLUMNS = (Column("status", "Status", 8), Column("target", "Target"), Column("kind", "Kind", 5))


def _status(broken: bool, status: str) -> str:
    return "✗ broken" if broken else status


class PageLinksModal(ModalScreen[None]):
    """The links of one page (``report``), broken ones marked; esc closes."""

    DEFAULT_CSS = """
    PageLinksModal { align: center middle; }
    PageLinksModal > Vertical { width: 90; max-width: 98%; height: 80%; border: thick $accent; padding: 0 1;
                                background: $surface; }
    PageLinksModal .page-links--title { text-style: bold; height: auto; }
    PageLinksModal .page-links--help { color: $text-muted; height: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="page-links.close", tooltip="Close the page's links"),
    ]

    def __init__(self, page: PageEntry, report: LinksReport) -> None:
        super().__init__()
        self.page = page
        self.report = report

    def compose(self) -> ComposeResult:
        title = safe(self.page.page.title or self.page.page.id, limit=80)
        summary = self.report.summary if self.report.offered else "this service does not list a page's links"
        with Vertical():
            yield Static(Content.assemble("Links of “", title, f"” · {summary}"), classes="page-links--title")
            yield ResourceBrowser(LINK_COLUMNS, empty="This page links to nothing.", id="page-links")
            yield Static(Content("esc closes"), classes="page-links--help")

    def on_mount(self) -> None:
        browser = self.query_one("#page-links", ResourceBrowser)
        broken = f"bold {self.app.get_css_variables().get('text-error', 'red')}"
        rows: Sequence[Row] = [
            Row(
                f"{n}:{link.key}",
                [
                    safe(cell, limit=300)
                    for cell in (("✗ broken" if link.broken else link.status), link.label, link.kind)
                ],
                style=broken if link.broken else "",
                data=link,
            )
            for n, link in enumerate(self.report.links)
        ]
        browser.set_rows(rows, staged=False)
        browser.focus_list()

    def action_close(self) -> None:
        self.dismiss(None)
