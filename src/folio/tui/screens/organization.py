"""One organization: its collections as a tree, its spaces, its change request inbox and its sites, in tabs.

Keys 1 to 4 switch tabs; enter opens the space or change request under the cursor; in the inbox, s / a / m / u
change the filter; r reloads every tab; n e D t d l and the tree's grab change content (``organization_content``).

A screen visited before opens from the cache at once, so its first frame must be cheap: only the tab shown (the
first, or the one a restored session names) is composed, and the screen's first frame waits for that tab's paint
from the cache (a sqlite read); the other tabs are mounted, and their loads started, after that frame (or at once
when one is asked for).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Footer, Header, TabbedContent, TabPane

from folio.services.browse import build_tree
from folio.tui import styles_dir
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first, connection_of, is_cached_only, reads_cache_first
from folio.tui.navigation import Open
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.screens.organization_areas import AREAS
from folio.tui.screens.organization_content import ContentActions
from folio.tui.widgets.change_request_inbox import ChangeRequestInbox
from folio.tui.widgets.collections_tree import CollectionsTree, visibility_words
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row
from folio.tui.widgets.sites_panel import SitesPanel

if TYPE_CHECKING:
    from folio.models.organization import Organization
    from folio.models.space import Collection, SpaceSummary
    from folio.services import Services

__all__ = ["TABS", "OrganizationScreen"]

TABS = ("collections", "spaces", "change-requests", "sites")
TAB_LABELS = {"collections": "Collections", "spaces": "Spaces", "change-requests": "Change requests", "sites": "Sites"}
CONTENT_TABS = ("collections", "spaces")
"""The tabs :meth:`OrganizationScreen.load_content` fills."""
PAINT_WAIT = 1.0
"""At most this long (seconds) the first frame waits for the cached rows of the tab shown."""
SPACE_COLUMNS = (
    Column("title", "Space"),
    Column("visibility", "Visibility", 13),
    Column("collection", "Collection", 14),
    Column("updated", "Updated", 9),
    Column("crs", "Open CRs", 8, align="right"),
)
NO_SPACES = "This organization has no spaces yet."


def _tab_binding(key: str, tab: str, label: str) -> Binding:
    return Binding(
        key, f"show_tab('{tab}')", label, show=False, id=f"organization.tab-{tab}", tooltip=f"Show the {label.lower()}"
    )


class OrganizationScreen(ContentActions, FolioScreen):
    """The organization ``org_id``; ``title`` names it in the trail until it is loaded."""

    ROUTE: ClassVar[str | None] = "organization"

    CSS_PATH = [styles_dir() / "organization.tcss"]
    AUTO_FOCUS = "ResourceList"
    """The list of the tab shown (the only one composed) has the focus from the first frame."""
    BINDINGS: ClassVar[list[BindingType]] = [
        _tab_binding("1", "collections", "Collections"),
        _tab_binding("2", "spaces", "Spaces"),
        _tab_binding("3", "change-requests", "Change requests"),
        _tab_binding("4", "sites", "Sites"),
        *(
            Binding(key, f"open_area('{kind}')", label, show=False, id=f"organization.open-{kind}", tooltip=tooltip)
            for key, kind, label, tooltip in AREAS
        ),
    ]  # fmt: skip

    def __init__(
        self, services: Services, org_id: str, *, title: str | None = None, trail: tuple[str, ...] = ()
    ) -> None:
        super().__init__(services, trail=trail)
        self.org_id = org_id
        self.named = title is not None
        self.crumb = safe(title or "Organization", limit=60).plain
        self.organization: Organization | None = None
        self.collections: list[Collection] = []
        self.spaces: list[SpaceSummary] = []
        self._ready: set[str] = set()
        """The tabs whose widget is mounted and started."""
        self._widgets: dict[str, Widget] = {}
        """The widget of each tab composed or mounted so far."""
        self._mounting: dict[str, Awaitable[None]] = {}
        self._content_painted = asyncio.Event()
        """Set once a pass of :meth:`load_content` showed its first rows or ended."""
        self._first_frame = asyncio.Event()
        """Set after the frame the cached paint is shown in (the fresh read after it waits for it)."""
        self._content_loading = False
        self._content_errors: dict[str, Content] = {}
        """The status line of each content tab that failed to load (a tab mounted later says it too)."""
        self._space_titles: dict[str, str] | None = None
        self._resumed = False

    def compose(self) -> ComposeResult:
        shown = self._first_tab()
        yield Header(icon="")
        with TabbedContent(id="organization-tabs", initial=shown):
            for tab in TABS:
                with TabPane(TAB_LABELS[tab], id=tab):
                    if tab == shown:
                        yield self._tab_widget(tab)
        yield Footer()

    def _first_tab(self) -> str:
        """The tab shown first: the one a restored session names (``folio.tui.session``), else the first."""
        entry: dict[str, Any] = getattr(self, "_folio_restore", None) or {}
        tab = entry.get("tab")
        return tab if tab in TABS else TABS[0]

    def _tab_widget(self, tab: str) -> Widget:
        widget: Widget
        if tab == "collections":
            widget = CollectionsTree(id="organization-tree")
        elif tab == "spaces":
            widget = ResourceBrowser(SPACE_COLUMNS, empty=NO_SPACES, id="organization-spaces")
        elif tab == "change-requests":
            widget = ChangeRequestInbox(self.services, self.org_id, id="organization-inbox")
        else:
            widget = SitesPanel(self.services, self.org_id, id="organization-sites")
        self._widgets[tab] = widget
        return widget

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one(TabbedContent)

    @property
    def content_tree(self) -> CollectionsTree:
        return self.query_one(CollectionsTree)

    @property
    def spaces_list(self) -> ResourceBrowser:
        return self.query_one("#organization-spaces", ResourceBrowser)

    @property
    def inbox(self) -> ChangeRequestInbox:
        return self.query_one(ChangeRequestInbox)

    @property
    def sites(self) -> SitesPanel:
        return self.query_one(SitesPanel)

    def _mounted(self, tab: str) -> Any:
        """The widget of ``tab`` once it is mounted and started (None before)."""
        return self._widgets.get(tab) if tab in self._ready else None

    async def on_mount(self) -> None:
        self.set_crumb(self.crumb)
        shown = self.tabs.active
        self._ready.add(shown)
        connection = connection_of(self)
        paints_from_cache = connection is not None and connection.paints_from_cache
        if not reads_cache_first(self):  # no cache pass to paint first: the fresh read need not wait for a frame
            self._first_frame.set()
        self.load_content()  # its data feeds two tabs, the inbox's space names and the palette
        if not self.named:  # the trail names the organization: the first frame needs it
            self.load_organization()
        self._started(shown)
        if shown in CONTENT_TABS and paints_from_cache:
            # The first frame shows the cached rows, not an empty list: reading the cache is a local read (it
            # ends at its first page shown, or at a miss); the bound only guards against a load that never ran.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._content_painted.wait(), PAINT_WAIT)
        browser = self._browser(shown)
        if browser is not None and not browser.list.has_focus:
            self._focus_tab(shown)
        self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self) -> None:
        self._first_frame.set()
        if self.named:
            self.load_organization()
        self.run_worker(self._fill_tabs(), group="organization-tabs", exit_on_error=False)
        if self.services.ping and not self.services.connection.offline:
            # "last seen" counts time spent in Folio (at most once an hour; never in the way of the screen)
            self.run_worker(self.services.people.ping_if_due(self.org_id), group="ping", exit_on_error=False)

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Textual's own handler: on the first resume the screen's widgets were styled as they mounted
        # a moment ago, and styling them all again would only delay the first frame.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    async def _fill_tabs(self) -> None:
        """Mount the tabs not shown yet (their loads start then)."""
        await asyncio.gather(*(self._ensure(tab) for tab in TABS))

    async def _ensure(self, tab: str) -> None:
        """Mount the widget of ``tab`` and start it, unless it is there already; return when it is ready."""
        if tab in self._ready:
            return
        mounting = self._mounting.get(tab)
        if mounting is None:
            panes = self.query(f"TabPane#{tab}").results(TabPane)
            pane = next(panes, None)
            if pane is None or not pane.is_attached:
                return  # the screen is being taken down
            mounting = self._mounting[tab] = pane.mount(self._tab_widget(tab))
        await mounting
        if tab not in self._ready and self._widgets[tab].is_attached:
            self._ready.add(tab)
            self._started(tab)

    def _started(self, tab: str) -> None:
        """``tab``'s widget was just mounted: show what is loaded already, or start its own load."""
        widget = self._mounted(tab)
        if tab in CONTENT_TABS:
            self._show_content(tab)
        elif isinstance(widget, ChangeRequestInbox):
            if self._space_titles is not None:
                widget.space_titles = self._space_titles
            widget.reload()
        # the sites panel loads when it is mounted

    # -- loading ---------------------------------------------------------------------------------------------

    @work(exclusive=True, group="organization-title", exit_on_error=False)
    @cache_first
    async def load_organization(self) -> None:
        """Read the organization itself: its name for the trail (when not given) and its URL."""
        try:
            self.organization = await self.services.browse.organization(self.org_id)
        except Exception as exc:
            if not self.named:
                self.notify(error_message(exc, doing="Could not read the organization").plain, severity="error",
                            title="Error", markup=False)  # fmt: skip
            return
        if not self.named:
            self.named = True
            self.set_crumb(self.organization.title or self.org_id)

    @work(exclusive=True, group="organization-content", exit_on_error=False)
    @cache_first
    async def load_content(self) -> None:
        """Read the collections, then the spaces page by page: the spaces tab and the tree grow as pages come;
        a failure is said in each list's status line and what was shown stays. A content tab mounted while this
        runs is given every row loaded so far at the next page (and what was shown before, at once)."""
        try:
            await self._load_content(is_cached_only())
        finally:
            self._content_painted.set()

    async def _load_content(self, cache_pass: bool) -> None:
        """The body of :meth:`load_content`; ``cache_pass``: this pass reads the cache only, before the first
        frame (no loading indicator the frame would not show; a miss says nothing, the fresh read comes next)."""
        if not cache_pass:
            # The fresh read after a cached paint sends its requests once that paint is on screen.
            await self._first_frame.wait()
        self._content_loading = True
        self._content_errors = {}
        for browser in self._content_browsers():
            browser.set_error(None)
            if not cache_pass:
                browser.set_loading(True)
        browse = self.services.browse
        collections_failed: Exception | None = None
        try:
            self.collections = await browse.collections(self.org_id)
        except Exception as exc:
            collections_failed = exc
        titles = {c.id: c.title or c.id for c in self.collections}
        shown = self._mounted("spaces")
        keep = shown.list.highlighted.key if shown is not None and shown.list.highlighted else None
        loaded: list[SpaceSummary] = []
        rows: list[Row] = []
        fed: set[ResourceBrowser] = set()  # the spaces lists given their first rows: the next pages are appended
        first = True
        try:
            async for page in browse.spaces_pages(self.org_id):
                loaded.extend(page)
                page_rows = [self._space_row(space, titles) for space in page]
                rows.extend(page_rows)
                if first:
                    self.spaces, first = loaded, False
                spaces: ResourceBrowser | None = self._mounted("spaces")
                if spaces is not None and spaces in fed:
                    spaces.append_rows(page_rows)
                elif spaces is not None:
                    spaces.set_rows(list(rows), keep=keep)
                    fed.add(spaces)
                tree: CollectionsTree | None = self._mounted("collections")
                if collections_failed is None and tree is not None:
                    tree.show(build_tree(self.collections, loaded), browse.age)
                for space in page:
                    self.remember("space", {"space_id": space.id}, space.title or space.id)
                self._content_painted.set()
                if cache_pass:  # the next cached pages are read once the first is on screen
                    await self._first_frame.wait()
        except Exception as exc:
            if cache_pass:  # not seen before: the fresh read is next
                for browser in self._content_browsers():
                    browser.set_loading(True)
                return
            message = error_message(exc, doing="Could not load the spaces", hint="Press r to try again.")
            self._content_loading = False
            self._content_errors = dict.fromkeys(CONTENT_TABS, message)
            for browser in self._content_browsers():
                browser.set_error(message)
            return
        self.spaces = loaded
        self._content_loading = False
        if collections_failed is not None and not cache_pass:
            self._content_errors["collections"] = error_message(
                collections_failed, doing="Could not load the collections", hint="Press r to try again."
            )
        for tab in CONTENT_TABS:
            browser = self._mounted(tab)
            if browser is not None:
                # (collections not seen before: the tree waits for the fresh read)
                browser.set_loading(tab == "collections" and collections_failed is not None and cache_pass)
                if tab in self._content_errors:
                    browser.set_error(self._content_errors[tab])
        self._space_titles = {space.id: space.title or space.id for space in loaded}
        inbox: ChangeRequestInbox | None = self._mounted("change-requests")
        if inbox is not None and inbox.is_attached:
            inbox.set_space_titles(self._space_titles)

    def _content_browsers(self) -> list[ResourceBrowser]:
        return [browser for tab in CONTENT_TABS if (browser := self._mounted(tab)) is not None]

    def _show_content(self, tab: str) -> None:
        """Show what is loaded (and how its load goes) in the content tab ``tab``, just mounted."""
        browser = self._mounted(tab)
        if browser is None:
            return
        if isinstance(browser, CollectionsTree):
            if self.spaces and "collections" not in self._content_errors:
                browser.show(build_tree(self.collections, self.spaces), self.services.browse.age)
        elif self.spaces:
            titles = {c.id: c.title or c.id for c in self.collections}
            browser.set_rows([self._space_row(space, titles) for space in self.spaces], staged=False)
        if tab in self._content_errors:
            browser.set_error(self._content_errors[tab])
        elif self._content_loading:
            browser.set_loading(True)

    def _space_row(self, space: SpaceSummary, collections: dict[str, str]) -> Row:
        return Row(
            key=space.id,
            cells=[
                safe(space.title or space.id, limit=120),
                visibility_words(space.visibility),
                safe(collections.get(space.parent or "", ""), limit=60),
                self.services.browse.age(space.updated_at),
                str(space.change_requests_open),
            ],
            data=space,
        )

    # -- opening (the space and change request screens are routes: imported when first opened) -------------

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        data: Any = event.row.data
        kind = getattr(data, "object", None)
        if kind == "space":
            self.post_message(Open("space", {"space_id": data.id}, title=data.title))
        elif kind == "change-request":
            self.post_message(Open("change-request", {"space_id": data.space, "ref": data.id}))
        elif event.resource_list is self.content_tree.list:
            self.content_tree.toggle(event.row.key)
        # a site: nothing yet

    def _browser(self, tab: str) -> ResourceBrowser | None:
        """The list of ``tab`` (None while the tab is not mounted)."""
        widget = self._mounted(tab)
        return widget.browser if isinstance(widget, (ChangeRequestInbox, SitesPanel)) else widget

    def current_item(self) -> Item | None:
        browser = self._browser(self.tabs.active)
        row = browser.list.highlighted if browser is not None else None
        data: Any = row.data if row is not None else self.organization
        if data is None:
            return None if row is not None else Item(self.org_id, None, "organization")
        urls = getattr(data, "urls", None)
        url = (urls.app or urls.published) if urls is not None else None
        return Item(data.id, url, str(getattr(data, "object", "") or "item").replace("-", " "))

    # -- actions ---------------------------------------------------------------------------------------------

    def action_refresh(self) -> None:
        self.load_content()
        inbox: ChangeRequestInbox | None = self._mounted("change-requests")
        if inbox is not None:  # (a tab not mounted yet loads when it is)
            inbox.forget_verdicts()
            inbox.reload()
        sites: SitesPanel | None = self._mounted("sites")
        if sites is not None:
            sites.reload()
        self.load_organization()

    def action_open_area(self, kind: str) -> None:
        """Open one of the organization's other screens (members, teams, settings…)."""
        self.post_message(Open(kind, {"org_id": self.org_id}, jump=False))

    async def action_show_tab(self, tab: str) -> None:
        if tab in TABS:
            self.tabs.active = tab
            await self._ensure(tab)
            self._focus_tab(tab)

    @on(TabbedContent.TabActivated)
    async def _tab_shown(self, event: TabbedContent.TabActivated) -> None:
        tab = self.tabs.active
        await self._ensure(tab)
        if self.tabs.active == tab:
            self._focus_tab(tab)
        self.refresh_bindings()

    def _focus_tab(self, tab: str) -> None:
        browser = self._browser(tab)
        if browser is None:
            return
        browser.focus_list()
        if tab == "change-requests":
            self.inbox.call_after_refresh(self.inbox.read_verdicts)
