"""One organization: its collections as a tree, its spaces, its change request inbox and its sites, in tabs.

Keys 1 to 4 switch tabs (the keys typed right after reach the tab's list); enter opens the space or change request
under the cursor; in the inbox, s / a / m / u change the filter; r reloads every tab; ctrl+f searches the
organization. The collections and spaces tabs change content:

    n   a new collection: inside the collection under the cursor, else at the root
    e   edit the collection (title, description, default role) or the space (title, emoji, role, language,
        merge rules) under the cursor
    D   delete it (its title typed; a collection says how many spaces it holds and what becomes of them)
    t   transfer it to another organization (a space: and/or into a collection there)
    d   duplicate the space (the copy opens)      l   lock or unlock the space's editing

The tree's own keys (``space``, arrows, ``<`` ``>``, enter, esc, the mouse) move rows; each drop arrives here as
:class:`~folio.tui.widgets.collections_tree.CollectionsTree.Dropped` and is sent.

A screen visited before opens from the cache at once, so its first frame must be cheap: only the tab shown (the
first, or the one a restored session names) is composed, and the screen's first frame waits for that tab's paint
from the cache (a sqlite read); the other content tab is mounted after that frame, the inbox and the sites once
the content is shown (their loads would compete with it, and with the keys typed meanwhile), each at once when
its number is typed.

The collections and the spaces are read in one load per visit (:meth:`OrganizationScreen.load_content`) and shown
in both content tabs (the panels of ``organization_lists``). It is built for an organization of 10,000 spaces and
more: pages of :data:`PAGE_LIMIT` (the API's most), each page's rows appended to the spaces list in one go, the
tree built from the whole list once the first page is in and again at the end (each build is of the whole tree:
once per page would grow with the square of the pages), the rows of a large page and the tree's layout worked out
in a thread, so keys typed while it loads act at once. The spaces' rows are built whether the spaces tab is
mounted or not, and kept: a tab mounted later is given them as they are. From the cache, only what the first
frame shows is worked out on the loop; what follows that frame goes to a thread as from the service.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Header, Input, TabbedContent, TabPane

from folio.models.space import Collection, SpaceSummary
from folio.services.browse import build_tree
from folio.services.errors import ServiceError
from folio.services.reconcile import NotDone
from folio.tui import routes, styles_dir
from folio.tui.actions import Explains
from folio.tui.declare import Route
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first, connection_of, is_cached_only, reads_cache_first, staged
from folio.tui.modals import content_actions as flows
from folio.tui.navigation import Open
from folio.tui.read_ahead import ahead
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.screens.content.organization_lists import (
    CollectionsPanel,
    ContentPanel,
    SpacesPanel,
    item_of,
    space_row,
)
from folio.tui.widgets.change_request_inbox import ChangeRequestInbox
from folio.tui.widgets.collections_tree import CollectionsTree, Prepared
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Row
from folio.tui.widgets.resource_panel import ResourcePanel
from folio.tui.widgets.sites_panel import SitesPanel

if TYPE_CHECKING:
    from folio.models.organization import Organization
    from folio.services import Services

__all__ = ["CONTENT_TABS", "PAGE_LIMIT", "TABS", "OrganizationScreen"]

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
CONTENT_TABS = ("collections", "spaces")
"""The tabs :meth:`OrganizationScreen.load_content` fills."""
PAGE_LIMIT = 1000
"""Spaces per request: the most the API gives (10,000 spaces in ten requests)."""
ASIDE = 500
"""Rows worked out in a thread past this many (a page's rows, the tree's), so keys typed meanwhile act at once."""
TREE_EVERY = 2.0
"""While the spaces come, the tree is built again at most this often (seconds), besides the first page and the end."""
FIRST_PAINT = 200
"""From the cache, the first frame waits for this many spaces (more than a screen shows), the rest follow it."""
REMEMBER_STEP = 500
"""The go-to is given the spaces loaded this many at a time, the loop taking keys between."""
CONTENT_ACTIONS = ("new_collection", "edit_content", "delete_content", "transfer_content", "duplicate_space",
                   "lock_space")  # fmt: skip


def _tab_binding(key: str, tab: str, label: str) -> Binding:
    # priority: taken when the app reads the key, so the keys typed after it reach the tab's list (a key that
    # is not taken here, while a filter is typed, goes on to the list: see ``check_action``)
    return Binding(key, f"show_tab('{tab}')", label, show=False, priority=True, id=f"organization.tab-{tab}",
                   tooltip=f"Show the {label.lower()}")  # fmt: skip


def _write_binding(key: str, action: str, label: str, name: str, tooltip: str, *, show: bool = True) -> Binding:
    return Binding(key, action, label, show=show, id=f"organization.{name}", tooltip=tooltip)


class _ContentKeys(Explains):
    """The keys of the content writes. A base of their own only for the footer's order: Textual lists a base's
    bindings before the class's own, and the writes (n e D) lead the footer, ahead of the screen's esc and r."""

    BINDINGS: ClassVar[list[BindingType]] = [
        _write_binding("n", "new_collection", "New", "new-collection",
                       "New collection: inside the collection under the cursor, else at the root"),
        _write_binding("e", "edit_content", "Edit", "edit", "Edit the collection or space under the cursor"),
        _write_binding("D", "delete_content", "Delete", "delete", "Delete the collection or space (type its title)"),
        _write_binding("t", "transfer_content", "Transfer", "transfer",
                       "Transfer it to another organization (a space: or into a collection)", show=False),
        _write_binding("d", "duplicate_space", "Duplicate", "duplicate", "Duplicate the space (the copy opens)",
                       show=False),
        _write_binding("l", "lock_space", "Lock", "lock", "Lock the space's editing, or unlock it", show=False),
    ]  # fmt: skip


class OrganizationScreen(FolioScreen, _ContentKeys):
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
        self._space_rows: list[Row] | None = None
        """The spaces list's rows of :attr:`spaces`, built by the load (None: not built; a list being loaded grows)."""
        self._tree_draws = 0
        """How many times the tree was laid out (a layout finished after a later one began is not shown)."""
        self._painted: tuple[list[Collection], list[list[SpaceSummary]]] | None = None
        """The collections and the pages of spaces the cache pass showed (the fresh read compares its pages)."""

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

    # -- the content load (see the module's docstring) ----------------------------------------------------------

    def _panel(self, tab: str) -> ContentPanel | None:
        panel = self._mounted(tab)
        return panel if isinstance(panel, ContentPanel) and panel.is_attached else None

    def _tree(self) -> CollectionsTree | None:
        panel = self._panel("collections")
        return panel.content_tree if isinstance(panel, CollectionsPanel) else None

    def _content_panels(self) -> list[ContentPanel]:
        return [panel for tab in CONTENT_TABS if (panel := self._panel(tab)) is not None]

    @work(exclusive=True, group="organization-content", exit_on_error=False)
    @cache_first
    async def load_content(self) -> None:
        """Read the collections, then the spaces page by page: the spaces tab and the tree grow as pages come;
        a failure is said in each list's status line and what was shown stays. A content tab mounted while this
        runs is given every row loaded so far at the next page (and what was shown before, at once)."""
        cache_pass = is_cached_only()
        try:
            await self._load_content(cache_pass)
        finally:
            self._content_painted.set()
            if not cache_pass or self.spaces:
                self._content_shown.set()

    async def _load_content(self, cache_pass: bool) -> None:
        """The body of :meth:`load_content`; ``cache_pass``: this pass reads the cache only, before the first
        frame (no loading indicator the frame would not show; a miss says nothing, the fresh read comes next)."""
        if not cache_pass:
            # The fresh read after a cached paint sends its requests once that paint is on screen.
            await self._first_frame.wait()
            self.content_seen = self.content_versions()  # a write after this is what a return reloads for
        self._content_loading = True
        self._content_errors = {}
        for panel in self._content_panels():
            panel.browser.set_error(None)
            if not cache_pass:
                panel.browser.set_loading(True)
        browse = self.services.browse
        collections_failed: Exception | None = None
        try:
            self.collections = await browse.collections(self.org_id)
        except ServiceError as exc:
            collections_failed = exc
        titles = {c.id: c.title or c.id for c in self.collections}
        make = partial(space_row, titles=titles, age=browse.age)
        shown = self._panel("spaces")
        keep = shown.list.highlighted.key if shown is not None and shown.list.highlighted else None
        loaded: list[SpaceSummary] = []
        rows: list[Row] = []  # the rows of ``loaded``, page for page
        fed: set[int] = set()  # the spaces lists given their first rows: the next pages are appended
        tree_drawn = 0.0  # when the tree was last built (0: not yet in this load)
        # A fresh read over a cached paint that finds the very pages the cache had changes nothing on screen:
        # no row is built again while the pages are the same (a return visit to 10,000 spaces).
        painted = self._painted if not cache_pass and staged() is not None else None
        same = painted is not None and painted[0] == self.collections
        pages: list[list[SpaceSummary]] = []
        self._painted = (list(self.collections), pages) if cache_pass else None
        split = False

        async def spaces_pages() -> AsyncIterator[list[SpaceSummary]]:
            """The pages; from the cache, a big first page in two: the first frame waits for its first rows only.
            From the service, the next page is asked for while one is worked on (``ahead``)."""
            nonlocal split
            read = browse.spaces_pages(self.org_id, limit=PAGE_LIMIT)
            async for page in read if cache_pass else ahead(read):
                if cache_pass and not loaded and len(page) > FIRST_PAINT:
                    split = True
                    yield page[:FIRST_PAINT]
                    yield page[FIRST_PAINT:]
                else:
                    yield page

        try:
            async for page in spaces_pages():
                pages.append(page)
                if same and painted is not None:
                    if len(pages) <= len(painted[1]) and page == painted[1][len(pages) - 1]:
                        loaded.extend(page)
                        continue  # what the cache showed: nothing to build (the cached list stays in use)
                    same = False  # from here on, the rows are built (those before this page too)
                    rows = await self._rows_of(loaded, make)
                    tree_drawn = 0.0
                page_rows = await self._rows_of(page, make)
                if self.spaces is not loaded:  # the first page built: the lists show this load from now on
                    self.spaces, self._space_rows = loaded, rows
                loaded.extend(page)  # (the spaces and their rows grow together: a tab mounted now is given both)
                rows.extend(page_rows)
                spaces = self._panel("spaces")
                if isinstance(spaces, SpacesPanel):
                    spaces.collection_titles = titles
                    if id(spaces) in fed:
                        spaces.browser.append_rows(page_rows)
                    else:
                        spaces.browser.set_rows(rows, keep=keep)
                        fed.add(id(spaces))
                now = time.monotonic()
                if collections_failed is None and self._tree() is not None and now - tree_drawn >= TREE_EVERY:
                    await self._redraw_tree(loaded, wait=False)
                    tree_drawn = now
                self._content_painted.set()
                if cache_pass:  # the next cached pages are read once the first is on screen
                    await self._first_frame.wait()
        except ServiceError as exc:
            if cache_pass:  # not seen before: the fresh read is next
                for panel in self._content_panels():
                    panel.browser.set_loading(True)
                return
            message = error_message(exc, doing="Could not load the spaces", hint="Press r to try again.")
            self._content_loading = False
            self._content_errors = dict.fromkeys(CONTENT_TABS, message)
            for panel in self._content_panels():
                panel.failed = message
                panel.browser.set_error(message)
            return
        # Seen here: deleted later (by anyone), the trash finds it; a fresh read keeps them for a later run too.
        self.services.trash.saw(self.org_id, loaded)
        if not cache_pass:
            self.services.trash.keep(self.org_id)
        if split and len(pages) > 1:  # the fresh read compares whole pages with the cache's
            pages[0:2] = [pages[0] + pages[1]]
        if same and painted is not None and len(pages) != len(painted[1]):  # fewer pages than the cache had
            same = False
            rows = await self._rows_of(loaded, make)
            self.spaces, self._space_rows = loaded, rows
            for panel in self._content_panels():
                if isinstance(panel, SpacesPanel):
                    panel.browser.set_rows(rows, keep=keep)
                    fed.add(id(panel))
        if not same:
            self.spaces = loaded
        if same:
            fed.update(id(panel) for panel in self._content_panels())  # the cached rows stay
        elif collections_failed is None and self._tree() is not None:
            await self._redraw_tree(loaded, wait=not cache_pass)  # (the fresh read follows a cached one at once)
        self._content_loading = False
        if collections_failed is not None and not cache_pass:
            self._content_errors["collections"] = error_message(
                collections_failed, doing="Could not load the collections", hint="Press r to try again."
            )
        for tab in CONTENT_TABS:
            mounted = self._panel(tab)
            if mounted is None:
                continue
            panel = mounted
            if isinstance(panel, SpacesPanel) and id(panel) not in fed:  # mounted during the last page
                panel.collection_titles = titles
                panel.browser.set_rows(self._space_rows or [], keep=keep)
            # (collections not seen before: the tree waits for the fresh read)
            panel.browser.set_loading(tab == "collections" and collections_failed is not None and cache_pass)
            panel.failed = self._content_errors.get(tab)
            if panel.failed is not None:
                panel.browser.set_error(panel.failed)
            panel.items = self.spaces
        self.refresh_bindings()
        if same and self._space_titles is not None:
            return  # what the cached pass offered the go-to and named in the inbox is what the service has
        self._space_titles = {space.id: space.title or space.id for space in loaded}
        inbox = self._mounted("change-requests")
        if isinstance(inbox, ChangeRequestInbox) and inbox.is_attached:
            inbox.set_space_titles(self._space_titles)
        for start in range(0, len(loaded), REMEMBER_STEP):  # the go-to offers every space loaded
            if start:
                await asyncio.sleep(0)
            for space in loaded[start : start + REMEMBER_STEP]:
                self.remember("space", {"space_id": space.id}, space.title or space.id)

    async def _rows_of(self, spaces: list[SpaceSummary], make: Callable[[SpaceSummary], Row]) -> list[Row]:
        """The spaces list's rows of ``spaces``: in a thread when they are many, unless the first frame waits
        for them (a cached paint)."""
        if len(spaces) > ASIDE and self._first_frame.is_set():
            items = list(spaces)
            return await asyncio.to_thread(lambda: [make(space) for space in items])
        return [make(space) for space in spaces]

    async def _redraw_tree(self, spaces: list[SpaceSummary], *, wait: bool) -> None:
        """Draw the tree of ``spaces``; a large one after the first frame is laid out by a worker of its own
        unless ``wait``: the load goes on with its next page meanwhile (the latest layout begun is the one shown)."""
        if not wait and len(spaces) > ASIDE and self._first_frame.is_set():
            self.run_worker(self._draw_tree(spaces), group="organization-tree", exit_on_error=False)
        else:
            await self._draw_tree(spaces)

    async def _draw_tree(self, spaces: list[SpaceSummary]) -> None:
        """Lay the whole tree out (in a thread when it is large: the UI loop keeps taking keys), then show it,
        unless a later call drew it meanwhile."""
        tree = self._tree()
        if tree is None:
            return
        self._tree_draws += 1
        drawing = self._tree_draws
        collections, shown = list(self.collections), list(spaces)
        age = self.services.browse.age
        prepare: Callable[[], Prepared] = lambda: tree.prepare(build_tree(collections, shown), age)  # noqa: E731
        aside = len(shown) > ASIDE and self._first_frame.is_set()  # (a cached paint waits for it)
        prepared = await asyncio.to_thread(prepare) if aside else prepare()
        if self._tree() is tree and self._tree_draws == drawing:
            tree.show_prepared(prepared)

    def _show_content(self, tab: str) -> None:
        """Show what is loaded (and how its load goes) in the content tab ``tab``, just mounted: the spaces'
        rows as the load built them, the tree laid out in a thread when it is large."""
        panel = self._panel(tab)
        if panel is None:
            return
        if isinstance(panel, CollectionsPanel):
            if self.spaces and "collections" not in self._content_errors:
                self.run_worker(self._draw_tree(self.spaces), group="organization-tree", exit_on_error=False)
        elif isinstance(panel, SpacesPanel) and self.spaces:
            panel.collection_titles = {c.id: c.title or c.id for c in self.collections}
            rows = self._space_rows
            if rows is not None and len(rows) == len(self.spaces):  # (else the load gives them at its next page)
                panel.browser.set_rows(rows, staged=False)
        if tab in self._content_errors:
            panel.browser.set_error(self._content_errors[tab])
        elif self._content_loading:
            panel.browser.set_loading(True)

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
        if action in CONTENT_ACTIONS:
            if not self.tabs_attached() or self.tabs.active not in ("collections", "spaces"):
                return False
            tree = self._tree()
            if tree is not None and tree.grab is not None:
                return False  # the keys of the grab only, while a row is in hand
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

    # -- the content writes (n e D t d l; the tree's drops) -----------------------------------------------------

    def _content_row(self) -> tuple[str, Any] | None:
        """(row key, data) of the row under the cursor in the collections or spaces tab (None: another tab, or
        no row)."""
        tab = self.tabs.active
        widget = self._mounted(tab) if tab in ("collections", "spaces") else None
        row = widget.list.highlighted if widget is not None else None
        return (row.key, row.data) if row is not None else None

    def why_not(self, action: str) -> str | None:
        if action not in CONTENT_ACTIONS:
            return super().why_not(action)
        found = self._content_row()
        if action == "new_collection":
            if self.tabs.active != "collections":
                return "Collections are made in the collections tab (press 1)."
            parent = found[1] if found is not None and isinstance(found[1], Collection) else None
            if parent is not None and parent.permissions is not None and not parent.permissions.create:
                return "Your role does not let you create content in this collection."
            if parent is None and self.organization is not None and not self.organization.permissions.create_content:
                return "Your role does not let you create content in this organization."
            return None
        if found is None or found[1] is None:
            return "Pick a collection or a space first."
        data = found[1]
        if action in ("duplicate_space", "lock_space") and not isinstance(data, SpaceSummary):
            return "Only a space is duplicated or locked: pick a space."
        if isinstance(data, Collection) and data.permissions is not None and not data.permissions.admin:
            return "Only an admin of the collection can change it."
        return None

    def _run(self, flow: Callable[[], Awaitable[Any]], then: Callable[[Any], None] | None = None) -> None:
        async def run() -> None:
            result = await flow()
            if result:
                self.load_content()
                if then is not None:
                    then(result)

        self.run_worker(run(), group="organization-content-write", exit_on_error=False)

    def action_new_collection(self) -> None:
        found = self._content_row()
        parent = found[1] if found is not None and isinstance(found[1], Collection) else None
        known = {c.id for c in self.collections}

        def select(made: Collection) -> None:
            tree = self._tree()
            if tree is not None:
                if parent is not None:
                    tree.collapsed.discard(f"c:{parent.id}")
                tree.restore(f"c:{made.id}", "")

        self._run(lambda: flows.new_collection(self, self.services, self.org_id, parent, known), select)

    def action_edit_content(self) -> None:
        found = self._content_row()
        data = found[1] if found else None
        if isinstance(data, Collection):
            self._run(lambda: flows.edit_collection(self, self.services, data))
        elif isinstance(data, SpaceSummary):
            self._run(lambda: flows.edit_space(self, self.services, data.id))

    def action_delete_content(self) -> None:
        found = self._content_row()
        data = found[1] if found else None
        if isinstance(data, Collection) and found is not None:
            tree = self._tree()
            content = tree.content if tree is not None else None
            spaces = content.spaces_under(found[0]) if content else 0
            inner = content.collections_under(found[0]) if content else 0
            self._run(lambda: flows.delete_collection(self, self.services, data, spaces=spaces, collections=inner))
        elif isinstance(data, SpaceSummary):
            self._run(lambda: flows.delete_space(self, self.services, data.id))

    def action_transfer_content(self) -> None:
        found = self._content_row()
        data = found[1] if found else None
        if isinstance(data, Collection):
            self._run(lambda: flows.transfer_collection(self, self.services, data))
        elif isinstance(data, SpaceSummary):
            self._run(lambda: flows.transfer_space(self, self.services, data.id))

    def action_duplicate_space(self) -> None:
        found = self._content_row()
        if found is not None and isinstance(found[1], SpaceSummary):
            space_id = found[1].id
            self._run(lambda: flows.duplicate_space(self, self.services, space_id))

    def action_lock_space(self) -> None:
        found = self._content_row()
        if found is not None and isinstance(found[1], SpaceSummary):
            space_id = found[1].id
            self._run(lambda: flows.toggle_lock(self, self.services, space_id))

    # -- moves ------------------------------------------------------------------------------------------------

    def on_collections_tree_dropped(self, event: CollectionsTree.Dropped) -> None:
        event.stop()
        self._send_move(event)

    @work(group="organization-move", exit_on_error=False)
    async def _send_move(self, event: CollectionsTree.Dropped) -> None:
        try:
            await self.services.collections.move(event.move, self.org_id)
        except ServiceError as exc:
            # NotDone: the answer was lost and the tree, read again, does not have it there
            title = "Not done" if isinstance(exc, NotDone) else "Refused"
            message = error_message(exc, doing=f"{title}: {event.label}", hint="It is back where it was.")
            event.tree.settle(message)
            self.notify(message.plain, title=title, severity="error", markup=False)
            return
        event.tree.settle(None)
        self.notify(f"Done: {event.label}.", markup=False)
        self.load_content()
