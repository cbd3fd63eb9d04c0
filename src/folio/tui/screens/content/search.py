"""Searching content: ``:search <words>`` over the organization in view (results by space, then page, then the
matching section), or over one space (``space-search``). A query box at the top searches as you type (after a
short pause; keys are never held up), ``up`` in it recalls earlier searches of the organization, and the words
are checked against the spec's 512 characters before anything is sent. Under the results, the section under
the cursor is shown with the words highlighted (spans added to plain text: nothing from the server is markup).
``enter`` opens the page in its space, at the section; reaching the last row loads the next page of results.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.timer import Timer
from textual.widgets import Header, Input, Label, Static

from folio.services import format
from folio.services.content.search import SearchPage, SpaceHits, check_words, merge_pages
from folio.services.errors import ServiceError
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.errors import error_message
from folio.tui.safe import safe
from folio.tui.screens.base import CRUMB, FolioScreen, Item
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import ResourceList, Row
from folio.tui.widgets.search_results import COLUMNS, MORE, QueryBox, Target, highlighted, result_rows

if TYPE_CHECKING:
    from folio.services import Services

__all__ = ["DEBOUNCE", "SearchScreen", "SpaceSearchScreen"]

SEARCH = Route(
    kind="search",
    noun="search",
    plural="searches",
    screen="SearchScreen",
    verbs=("search", "find"),
    find="organization",
    key="F",
    label="Search",
    hint="Search the organization's pages",
    order=40,
    summary="the organization's pages that match [words], by space and section; enter opens one",
)

SPACE_SEARCH = Route(
    kind="space-search",
    noun="space search",
    plural="space searches",
    screen="SpaceSearchScreen",
    ids=("space_id",),
    optional=("words",),
    go_to=False,
    order=41,
    summary="a space's pages that match the words typed, by section; enter opens one",
)

DEBOUNCE = 0.3
"""Seconds of quiet in the query box before the words typed are searched."""


class SearchScreen(FolioScreen):
    """The organization's content that matches the words typed, by space, page and section.

    A documented subclass of :class:`FolioScreen`, not a :class:`~folio.tui.screens.panel_screen.PanelScreen`:
    its ``words`` are the service's query, not a filter of a loaded list, and its shape is not one resource panel.
    The query box above the results searches as you type (debounced, checked against the spec's limit, with the
    organization's earlier searches on ``up``); a page of results is merged into the groups already shown (a space
    met again on the next page takes its new pages under its row, not a second row), and the next page loads from
    the last row; the section under the cursor is previewed below. A :class:`ResourcePanel` appends the pages of
    one fetch, row by row, and filters them with ``/``: none of that fits. What it shares with every screen:
    ``words`` (the one name: the ``:search`` words, the ones the session saves and a restored screen searches
    again) and ``self.context`` to open what enter chooses.
    """

    org_id: str

    ROUTE: ClassVar[str | None] = SEARCH.kind
    CSS_PATH = [styles_dir() / "search.tcss"]
    AUTO_FOCUS = "QueryBox"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "edit_words", "Search", id="search.edit", tooltip="Change the words searched for"),
    ]
    SCOPE = "in this organization"

    def __init__(self, services: Services, org_id: str, *, words: str = "", trail: tuple[str, ...] = ()) -> None:
        super().__init__(services, trail=trail)
        self.org_id = org_id
        self.words = words
        """The words of the results shown (or being searched): the session keeps them."""
        self.groups: list[SpaceHits] = []
        self.next_page: str | None = None
        self.searched = False
        self.problem: str | None = None
        self._timer: Timer | None = None
        self._typed = False
        self.crumb = "Search"

    # -- what differs between an organization's search and a space's -------------------------------------------

    @property
    def history_scope(self) -> str:
        return self.org_id

    @property
    def with_spaces(self) -> bool:
        return True

    async def fetch(self, words: str, page: str | None) -> SearchPage:
        return await self.services.search.organization(self.org_id, words, page=page)

    # -- building ----------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        with Horizontal(id="search-bar"):
            yield Label(Content("Search"), id="search-label")
            yield QueryBox(self.words, self.services.search.history.lines(self.history_scope), id="search-query")
        yield Static(id="search-hint")
        yield ResourceBrowser(COLUMNS, empty="", id="search-results")
        yield Static(id="search-preview")
        yield KeysFooter()

    def on_mount(self) -> None:
        self._draw_sub_title()
        if self.words:
            self.services.search.history.add(self.history_scope, self.words)
            self.box.reset_recall()
            self.search_now(self.words)
        else:
            self.say(Content("Type the words to look for: the results come as you type."))
            self.preview(None)

    @property
    def box(self) -> QueryBox:
        return self.query_one(QueryBox)

    @property
    def browser(self) -> ResourceBrowser:
        return self.query_one("#search-results", ResourceBrowser)

    def say(self, text: Content, *, error: bool = False) -> None:
        hint = self.query_one("#search-hint", Static)
        hint.update(text)
        hint.set_class(error, "-error")

    def focus_results(self) -> None:
        self.browser.focus_list()

    def on_query_box_leave(self, event: QueryBox.Leave) -> None:
        event.stop()
        self.focus_results()

    # -- typing ------------------------------------------------------------------------------------------------

    @on(Input.Changed, "#search-query")
    def typed(self, event: Input.Changed) -> None:
        event.stop()
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        words = event.value
        if words == self.words and not self.problem:
            return  # back to the words shown (or the box filled when the screen opened)
        self.browser.list.forget_focus()  # typing on: the results asked for by enter are not where the keys go
        self._typed = True
        self.problem = check_words(words) if words.strip() else None
        if self.problem is not None:
            self.say(safe(self.problem, limit=300), error=True)
            return
        if not words.strip():
            self.say(Content("Type the words to look for: the results come as you type."))
            return
        self._timer = self.set_timer(DEBOUNCE, lambda: self.search_now(words))

    @on(Input.Submitted, "#search-query")
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        words = event.value
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        problem = check_words(words)
        if problem is not None:
            self.problem = problem
            self.say(safe(problem, limit=300), error=True)
            return
        self.services.search.history.add(self.history_scope, words)
        self.box.reset_recall()
        if words != self.words or not self.searched:
            self.search_now(words)
        self.focus_results()

    def search_now(self, words: str) -> None:
        """Send the search for ``words`` now (checked first: a refused one sends nothing and says why)."""
        self._timer = None
        problem = check_words(words)
        self.problem = problem
        if problem is not None:
            self.say(safe(problem, limit=300), error=True)
            return
        self.words = words
        self.say(highlighted(f"Searching for “{words}”…", words, limit=600))
        self.browser.set_loading(True)
        self.load(words)

    # -- loading -----------------------------------------------------------------------------------------------

    @work(exclusive=True, group="search", exit_on_error=False)
    async def load(self, words: str) -> None:
        try:
            page = await self.fetch(words, None)
        except ServiceError as exc:
            self.browser.set_error(error_message(exc, doing="Could not search", hint="Press r to try again."))
            self.say(highlighted(f"Searching for “{words}” failed.", words, limit=600), error=True)
            return
        if words != self.words:
            return  # a newer search took over
        self.searched = True
        self.groups = [g for g in page.spaces if g.pages]
        self.next_page = page.next
        self.show_rows(keep=None)
        self.browser.set_loading(False)
        self.draw_summary()
        if not self._typed and self.groups:
            self.focus_results()  # opened with words: the results are what the user came for

    @work(exclusive=True, group="search-more", exit_on_error=False)
    async def load_more(self) -> None:
        words, cursor = self.words, self.next_page
        if cursor is None:
            return
        self.say(highlighted(f"Loading more results for “{words}”…", words, limit=600))
        try:
            page = await self.fetch(words, cursor)
        except ServiceError as exc:
            retry = "Press enter on the last row to try again."
            self.say(error_message(exc, doing="Could not load more results", hint=retry), error=True)
            return
        if words != self.words or cursor != self.next_page:
            return
        first_new = len(self.browser.list.rows) - 1
        self.groups = merge_pages(self.groups, [g for g in page.spaces if g.pages])
        self.next_page = page.next
        self.show_rows(keep=None)
        self.browser.list.cursor = max(0, first_new)
        self.draw_summary()

    def show_rows(self, *, keep: str | None) -> None:
        browser = self.browser
        browser.empty = f"Nothing matches “{safe(self.words, limit=80).plain}” {self.SCOPE}."
        rows = result_rows(self.groups, with_spaces=self.with_spaces, more=self.next_page is not None)
        browser.set_rows(rows, keep=keep, staged=False)
        if keep is None:
            first = next((i for i, r in enumerate(rows) if isinstance(r.data, Target) and r.data.kind != "space"), 0)
            browser.list.cursor = first
        self.preview(browser.list.highlighted)

    def draw_summary(self) -> None:
        words = self.words
        if not self.groups:
            self.say(highlighted(f"Nothing matches “{words}” {self.SCOPE}. Try other words.", words, limit=700))
            return
        pages = sum(len(g.pages) for g in self.groups)
        sections = sum(len(p.sections) for g in self.groups for p in g.pages)
        parts = [format.count(len(self.groups), "space")] if self.with_spaces else []
        parts += [format.count(pages, "page"), format.count(sections, "section")]
        more = " so far" if self.next_page else ""
        keys = "enter opens · s edits the words"
        self.say(highlighted(f"{', '.join(parts)}{more} for “{words}” · {keys}", words, limit=900))

    # -- the row under the cursor ------------------------------------------------------------------------------

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        self.preview(event.row)
        if event.row is not None and event.row.key == MORE:
            self.load_more()

    def preview(self, row: Row | None) -> None:
        pane = self.query_one("#search-preview", Static)
        target = row.data if row is not None else None
        if not isinstance(target, Target) or target.kind == MORE:
            pane.update(Content(""))
            pane.display = False
            return
        pane.display = True
        words = self.words
        trail = [target.space_title or target.space_id] if self.with_spaces else []
        if target.page is not None:
            trail += [*target.page.ancestors, target.page.title or target.page.id]
        parts = [highlighted(f" {CRUMB} ".join(trail), words, limit=400, style="bold")]
        section = target.section
        if section is not None:
            parts += [Content("\n"), highlighted(f"§ {section.title}", words, limit=300, style="bold")]
            if section.body:
                parts += [Content("\n"), highlighted(section.body, words, limit=1200)]
        elif target.kind == "space":
            parts.append(Content(f"\n{format.count(len(self._group(target).pages), 'matching page')}"))
        pane.update(Content.assemble(*parts))

    def _group(self, target: Target) -> SpaceHits:
        return next((g for g in self.groups if g.id == target.space_id), SpaceHits(target.space_id, ""))

    def current_target(self) -> Target | None:
        row = self.browser.list.highlighted
        return row.data if row is not None and isinstance(row.data, Target) else None

    def current_item(self) -> Item | None:
        target = self.current_target()
        if target is None or target.kind == MORE:
            return None
        if target.section is not None:
            return Item(target.section.id, target.section.url, "section")
        if target.page is not None:
            return Item(target.page.id, target.page.url, "page")
        return Item(target.space_id, None, "space")

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        target = event.row.data
        if not isinstance(target, Target):
            return
        if target.kind == MORE:
            self.load_more()
            return
        self.services.search.history.add(self.history_scope, self.words)
        self.box.reset_recall()
        ids: dict[str, str] = {"space_id": target.space_id}
        if target.page is not None:
            ids["page_id"] = target.page.id
        if target.section is not None and target.section.anchor:
            ids["anchor"] = target.section.anchor
        self.context.open("space", ids, title=target.space_title or None)

    # -- keys --------------------------------------------------------------------------------------------------

    def action_edit_words(self) -> None:
        self.box.focus()

    def action_refresh(self) -> None:
        if self.words and check_words(self.words) is None:
            self.search_now(self.words)


class SpaceSearchScreen(SearchScreen):
    """One space's pages that match the words typed, by page and section (the space search endpoint)."""

    org_id: str
    space_id: str

    ROUTE: ClassVar[str | None] = SPACE_SEARCH.kind
    SCOPE = "in this space"

    def __init__(self, services: Services, space_id: str, *, words: str = "", trail: tuple[str, ...] = ()) -> None:
        super().__init__(services, "", words=words, trail=trail)
        self.space_id = space_id
        self.space_title = ""

    @property
    def history_scope(self) -> str:
        return self.org_id or f"space:{self.space_id}"

    @property
    def with_spaces(self) -> bool:
        return False

    def on_mount(self) -> None:
        super().on_mount()
        self.load_space()

    @work(group="search-space", exit_on_error=False)
    async def load_space(self) -> None:
        """The space's title (for the crumb) and organization (whose earlier searches ``up`` recalls)."""
        try:
            space = await self.services.space.space(self.space_id)
        except ServiceError:  # the search works without them: the crumb and the history stay general
            return
        self.space_title = space.title
        self.set_crumb(f"Search in {space.title or 'the space'}")
        if space.organization:
            self.org_id = space.organization
            self.box.history = self.services.search.history.lines(self.history_scope)
            if self.words:
                self.services.search.history.add(self.history_scope, self.words)
            self.box.reset_recall()

    async def fetch(self, words: str, page: str | None) -> SearchPage:
        return await self.services.search.space(self.space_id, words, title=self.space_title, page=page)
