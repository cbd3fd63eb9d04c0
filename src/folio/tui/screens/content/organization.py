"""One organization: its collections as a tree, its spaces, its change request inbox and its sites, in tabs.

Keys 1 to 4 switch tabs (the keys typed right after reach the tab's list); enter opens the space or change request
under the cursor; in the inbox, s / a / m / u change the filter; r reloads every tab; ctrl+f searches the
organization; n e D t d l and the tree's grab change content (``organization_content``). The collections and
the spaces are read once per visit and shown in both content tabs (``organization_load``, ``organization_lists``).

A screen visited before opens from the cache at once, so its first frame must be cheap: only the tab shown (the
first, or the one a restored session names) is composed, and the screen's first frame waits for that tab's paint
from the cache (a sqlite read); the other content tab is mounted after that frame, the inbox and the sites once
the content is shown (their loads would compete with it, and with the keys typed meanwhile), each at once when
its number is typed.
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
from textual.widgets import Header, Input, TabbedContent, TabPane

from folio.services.errors import ServiceError
from folio.tui import routes, styles_dir
from folio.tui.declare import Route
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first, connection_of, reads_cache_first
from folio.tui.navigation import Open
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.screens.content.organization_content import ContentActions
from folio.tui.screens.content.organization_lists import (
    NO_SPACES,
    SPACE_COLUMNS,
    CollectionsPanel,
    SpacesPanel,
    item_of,
)
from folio.tui.screens.content.organization_load import CONTENT_TABS, ContentLoading
from folio.tui.widgets.change_request_inbox import ChangeRequestInbox
from folio.tui.widgets.collections_tree import CollectionsTree
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_panel import ResourcePanel
from folio.tui.widgets.sites_panel import SitesPanel

if TYPE_CHECKING:
    from folio.models.organization import Organization
    from folio.models.space import Collection, SpaceSummary
    from folio.services import Services

__all__ = ["CONTENT_TABS", "NO_SPACES", "SPACE_COLUMNS", "TABS", "OrganizationScreen"]

ORGANIZATION = Route(
    kind="organization",
    noun="organization",
    screen="OrganizationScreen",
    ids=("org_id",),
    verbs=("org", "orgs", "organization", "organisation"),
    find="title",
    titled=True,
    order=10,
    summary="an organization: its collections, spaces, change request inbox and sites",
)

TABS = ("collections", "spaces", "change-requests", "sites")
TAB_LABELS = {"collections": "Collections", "spaces": "Spaces", "change-requests": "Change requests", "sites": "Sites"}
PAINT_WAIT = 1.0
"""At most this long (seconds) the first frame waits for the cached rows of the tab shown."""


def _tab_binding(key: str, tab: str, label: str) -> Binding:
    # priority: taken when the app reads the key, so the keys typed after it reach the tab's list (a key that
    # is not taken here, while a filter is typed, goes on to the list: see ``check_action``)
    return Binding(key, f"show_tab('{tab}')", label, show=False, priority=True, id=f"organization.tab-{tab}",
                   tooltip=f"Show the {label.lower()}")  # fmt: skip


class OrganizationScreen(FolioScreen, ContentActions, ContentLoading):
    """The organization ``org_id``; ``title`` names it in the trail until it is loaded."""

    org_id: str

    ROUTE: ClassVar[str | None] = ORGANIZATION.kind

    CSS_PATH = [styles_dir() / "organization.tcss"]
    AUTO_FOCUS = "ResourceList"
    """The list of the tab shown (the only one composed) has the focus from the first frame."""
    BINDINGS: ClassVar[list[BindingType]] = [
        _tab_binding("1", "collections", "Collections"),
        _tab_binding("2", "spaces", "Spaces"),
        _tab_binding("3", "change-requests", "Change requests"),
        _tab_binding("4", "sites", "Sites"),
        Binding("slash", "filter", "Filter", show=False, priority=True, id="organization.filter",
                tooltip="Filter the rows of the tab shown as you type"),
        # priority: the lists take ctrl+f as page down; on this screen it is the search
        Binding("ctrl+f", "search", "Search", show=False, priority=True, id="organization.search",
                tooltip="Search the organization's pages (:search)"),
        *(
            Binding(r.key, f"open_area('{r.kind}')", r.label, show=False, id=f"organization.open-{r.kind}",
                    tooltip=r.key_hint)
            for r in routes.shortcuts()
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
        self._content_shown = asyncio.Event()
        """Set once a pass of :meth:`load_content` showed every row it had (a cache hit, or the fresh read), or
        failed: the inbox and the sites are mounted, and loaded, after it (``_fill_tabs``)."""
        self._tabs: TabbedContent | None = None
        self._first_frame = asyncio.Event()
        """Set after the frame the cached paint is shown in (the fresh read after it waits for it)."""
        self._content_loading = False
        self._content_errors: dict[str, Content] = {}
        """The status line of each content tab that failed to load (a tab mounted later says it too)."""
        self._space_titles: dict[str, str] | None = None
        self.content_seen: tuple[int, ...] | None = None
        """The writes' versions when the spaces were last read (``content_versions``; None: not read yet)."""
        self._resumed = False

    def compose(self) -> ComposeResult:
        shown = self._first_tab()
        yield Header(icon="")
        self._tabs = TabbedContent(id="organization-tabs", initial=shown)
        with self._tabs:
            for tab in TABS:
                with TabPane(f"{TABS.index(tab) + 1} {TAB_LABELS[tab]}", id=tab):
                    if tab == shown:
                        yield self._tab_widget(tab)
        yield KeysFooter()

    def _first_tab(self) -> str:
        """The tab shown first: the one a restored session names (``folio.tui.session``), else the first."""
        entry: dict[str, Any] = getattr(self, "_folio_restore", None) or {}
        tab = entry.get("tab")
        return tab if tab in TABS else TABS[0]

    def _tab_widget(self, tab: str) -> Widget:
        widget: Widget
        if tab == "collections":
            widget = CollectionsPanel(self.services, self.load_content, id="organization-content")
        elif tab == "spaces":
            widget = SpacesPanel(self.services, self.load_content, id="organization-spaces-panel")
        elif tab == "change-requests":
            widget = ChangeRequestInbox(self.services, self.org_id, id="organization-inbox")
        else:
            widget = SitesPanel(self.services, self.org_id, id="organization-sites")
        self._widgets[tab] = widget
        return widget

    @property
    def tabs(self) -> TabbedContent:
        return self._tabs if self._tabs is not None else self.query_one(TabbedContent)

    def tabs_attached(self) -> bool:
        """Whether the tabs are there to ask (``check_action`` is asked before mount and while the screen goes
        away too; a query for them walked every widget of the screen, at every bindings update)."""
        return self._tabs is not None and self._tabs.is_attached

    @property
    def content_tree(self) -> CollectionsTree:
        return self.query_one(CollectionsTree)

    @property
    def spaces_list(self) -> ResourceBrowser:
        return self.query_one(SpacesPanel).browser

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

    @on(events.ScreenResume)
    def _back_on_screen(self, event: events.ScreenResume) -> None:
        # Runs before FolioScreen's handlers and Textual's own (this class is first in the MRO): on the first resume
        # the screen's widgets were styled as they mounted a moment ago, and styling them all again would only delay
        # the first frame.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False
        self._reload_if_written()

    async def _fill_tabs(self) -> None:
        """Mount the tabs not shown yet, one at a time, their loads starting then: the other content tab first
        (the same load feeds it), the inbox and the sites once the content is shown (they would compete with it
        for the loop and the service: a key typed meanwhile, the spaces' pages, waited behind their mounts and
        their hundreds of rows). A tab asked for (its number) is mounted at once (``_ensure``)."""
        for tab in CONTENT_TABS:
            await self._ensure(tab)
        await self._content_shown.wait()
        for tab in TABS:
            await asyncio.sleep(0)  # the keys and frames waiting go first
            await self._ensure(tab)

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
        except ServiceError as exc:
            if not self.named:
                self.notify(error_message(exc, doing="Could not read the organization").plain, severity="error",
                            title="Error", markup=False)  # fmt: skip
            return
        if not self.named:
            self.named = True
            self.set_crumb(self.organization.title or self.org_id)

    # -- opening (each tab's panel opens its rows: an Open message; a collection row folds) --------------------

    def _browser(self, tab: str) -> ResourceBrowser | None:
        """The list of ``tab`` (None while the tab is not mounted)."""
        widget = self._mounted(tab)
        return widget.browser if isinstance(widget, ResourcePanel) else None

    def current_item(self) -> Item | None:
        widget = self._mounted(self.tabs.active)
        if isinstance(widget, ResourcePanel) and widget.browser.list.highlighted is not None:
            return widget.current_item()  # the tab's own (an inbox row links as the inbox does)
        browser = self._browser(self.tabs.active)
        row = browser.list.highlighted if browser is not None else None
        data: Any = row.data if row is not None else self.organization
        if data is None:
            return None if row is not None else Item(self.org_id, None, "organization")
        return item_of(data)

    def content_versions(self) -> tuple[int, ...]:
        """Where the writes to this organization's spaces, collections and trash are at (``services.changes``)."""
        changes, org = self.services.changes, self.org_id
        return tuple(changes.version(t) for t in (("spaces",), ("spaces", org), ("collections", org), ("trash", org)))

    def _reload_if_written(self) -> None:
        """Back from a screen that deleted, restored, moved or made a space or a collection: read them again."""
        if self.content_seen is not None and self.content_versions() != self.content_seen:
            self.content_seen = self.content_versions()
            self.load_content()

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

    def action_search(self) -> None:
        """ctrl+f: the organization's search (as ``:search`` opens it)."""
        self.post_message(Open("search", {"org_id": self.org_id}, jump=False))

    def action_open_area(self, kind: str) -> None:
        """Open one of the organization's other screens (members, teams, settings…)."""
        self.post_message(Open(kind, {"org_id": self.org_id}, jump=False))

    def _typing(self) -> bool:
        """A filter is being typed (its box, or the keys going to it from the list): digits and / are text."""
        focused = self.focused
        if focused is None or isinstance(focused, Input):
            return focused is not None
        # (the tabs' lists, not a query of the screen: this is asked at every key and bindings update)
        return any(browser.has_class("-typing") for browser in map(self._browser, list(self._ready)) if browser)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("show_tab", "filter") and self._typing():
            return False  # the key is text for the filter: it goes on to the list
        if action == "filter":
            browser = self._browser(self.tabs.active) if self.tabs_attached() else None
            return browser is not None and self.focused is browser.list
        return super().check_action(action, parameters)

    def action_filter(self) -> None:
        """/ starts the filter of the tab shown at once (as its list would, but before the keys after it are
        read: ``2/guide`` in one burst types ``guide``)."""
        browser = self._browser(self.tabs.active)
        if browser is not None:
            browser.action_start_filter()

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
        # At once, not after the queued messages (``focus()``): the keys typed right after the tab's number
        # (``2/guide``) are queued already, and must reach this list.
        if not browser.list.has_focus and not (browser.filter_box is not None and browser.filter_box.has_focus):
            self.set_focus(browser.list)
        if tab == "change-requests":
            self.inbox.call_after_refresh(self.inbox.read_verdicts)
