"""One space, in tabs: its pages (the tree and the page shown; ``l`` lists a page's links), files (with where the
one under the cursor is used), links (broken ones marked), change requests, comments and the current revision
(compared with a change request's content). A line under the header says how the space is set up (visibility,
edit mode, Git sync, language, open change requests and comments). Each list loads in a worker of its own the
first time its tab is shown; ``r`` reloads the space and the tab in front, and a write to its comments or change
requests (here or on a screen above) reloads the line's counts. ``ctrl+f`` searches the space; a search hit opens
its page at its section. The space is changed from here: ``e`` edit, ``L`` lock or unlock, ``d`` duplicate, ``t``
transfer, ``D`` delete (``folio.tui.screens.content.space_changes``); ``E`` edits the page in ``$EDITOR`` into a
change request (``folio.tui.page_edit``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Header, Static, TabbedContent, TabPane

from folio.services.content.space import FileEntry, LinksReport, PageEntry, SpaceService, deleted_note, space_label
from folio.services.content.space_admin import space_header
from folio.services.errors import ServiceError
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.errors import error_message, notify_error
from folio.tui.fresh import cache_first
from folio.tui.navigation import Open
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.screens.content.space_changes import SPACE_ACTIONS, SpaceChanges, space_why_not
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.page_tree import PageTree
from folio.tui.widgets.page_view import PageView
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import ResourceList, Row
from folio.tui.widgets.resource_panel import ResourcePanel
from folio.tui.widgets.space_extras import FileDetail, PageLinksModal, RevisionPanel
from folio.tui.widgets.space_panels import ChangeRequestsPanel, FilesPanel, LinksPanel

if TYPE_CHECKING:
    from folio.models.space import Space
    from folio.services import Services

__all__ = ["SpaceScreen"]

SPACE = Route(
    kind="space",
    noun="space",
    screen="SpaceScreen",
    ids=("space_id",),
    optional=("page_id", "anchor"),
    verbs=("space",),
    find="title",
    titled=True,
    order=20,
    summary="a space: pages, files, links, change requests, comments",
)

TABS = ("tab-pages", "tab-files", "tab-links", "tab-crs", "tab-comments", "tab-revision")
NARROW = 70
GONE = "Deleted: restore it (:trash, u) to see its pages."
"""Below this many columns the page tree sits above the page instead of beside it."""


def _tab_binding(key: str, tab: str, label: str, tooltip: str) -> Binding:
    return Binding(key, f"show_tab('{tab}')", label, show=False, id=f"space.{tab}", tooltip=tooltip)


class SpaceScreen(FolioScreen, SpaceChanges):
    """A space's pages, files, links, change requests and comments."""

    space_id: str

    ROUTE: ClassVar[str | None] = SPACE.kind

    CSS_PATH = [styles_dir() / "space.tcss"]
    AUTO_FOCUS = "#space-tree ResourceList"
    BINDINGS: ClassVar[list[BindingType]] = [
        _tab_binding("1", "tab-pages", "Pages", "Show the page tree and the page"),
        _tab_binding("2", "tab-files", "Files", "Show the space's files"),
        _tab_binding("3", "tab-links", "Links", "Show the links of the space's pages"),
        _tab_binding("4", "tab-crs", "Change requests", "Show the space's change requests"),
        _tab_binding("5", "tab-comments", "Comments", "Show the space's comments"),
        _tab_binding("6", "tab-revision", "Revision", "Show the current revision; compare it with a change request"),
        Binding("space", "show_page", "Show page", show=False, id="space.show-page",
                tooltip="Show the page under the cursor"),
        Binding("ctrl+f", "search_space", "Search", show=False, priority=True, id="space.search",
                tooltip="Search this space's pages (the hit opens at its section)"),
        Binding("l", "page_links", "Page links", show=False, id="space.page-links",
                tooltip="The links of the page under the cursor, broken ones marked"),
        Binding("E", "edit_page", "Edit page", id="space.edit-page",
                tooltip="Edit the page's markdown in $EDITOR and send it into a change request"),
        Binding("e", "edit_space", "Edit", id="space.edit",
                tooltip="Edit the title, emoji, default role, language and merge rules"),
        Binding("L", "lock_space", "Lock", id="space.lock", tooltip="Lock every edit, or unlock (live editing)"),
        Binding("d", "duplicate_space", "Duplicate", show=False, id="space.duplicate",
                tooltip="Duplicate the space (the copy opens)"),
        Binding("t", "transfer_space", "Transfer", show=False, id="space.transfer",
                tooltip="Transfer it to another organization and/or collection"),
        Binding("D", "delete_space", "Delete", show=False, id="space.delete",
                tooltip="Delete the space (type its title; restorable for 7 days)"),
    ]  # fmt: skip

    def __init__(
        self,
        services: Services,
        space_id: str,
        *,
        title: str | None = None,
        trail: tuple[str, ...] = (),
        page_id: str | None = None,
        anchor: str | None = None,
    ) -> None:
        super().__init__(services, trail=trail)
        self.space_id = space_id
        self.page_id = page_id
        """The page to show first (a search hit opens its page)."""
        self.hit_anchor = anchor
        """The section of that page to scroll to (a search hit's), until another page is shown."""
        self._seen: tuple[int, ...] = self._versions()
        # Until the Services container has a `space` property, the screen makes its own over the client.
        self.spaces: SpaceService = services.space
        self.space: Space | None = None
        self.pages: list[PageEntry] = []
        self._loaded: set[str] = set()
        self.set_crumb(title or "Space")

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static(Content("Loading the space…"), id="space-facts")
        with TabbedContent(id="space-tabs", initial="tab-pages"):
            with TabPane("1 Pages", id="tab-pages"), Horizontal(id="space-pages"):
                yield PageTree(id="space-tree")
                yield PageView(id="space-page")
            with TabPane("2 Files", id="tab-files"):
                yield FilesPanel(self.services, self.space_id, id="space-files")
                yield FileDetail(self.services, self.space_id, id="space-file-detail")
            with TabPane("3 Links", id="tab-links"):
                yield LinksPanel(self.services, self.space_id, self._known, id="space-links")
            with TabPane("4 Change requests", id="tab-crs"):
                yield ChangeRequestsPanel(self.services, self.space_id, id="space-crs")
            with TabPane("5 Comments", id="tab-comments"):
                yield self._comments_panel()
            with TabPane("6 Revision", id="tab-revision"):
                yield RevisionPanel(self.services, self.space_id, id="space-revision")
        yield KeysFooter()

    def _comments_panel(self) -> Widget:
        from folio.tui.widgets.comments_panel import CommentsPanel  # imported when the screen is built

        panel: Widget = CommentsPanel(self.services, self.space_id)
        panel.id = "space-comments"
        return panel

    # -- parts ----------------------------------------------------------------------------------------------

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#space-tabs", TabbedContent)

    @property
    def page_tree(self) -> PageTree:
        return self.query_one("#space-tree", PageTree)

    @property
    def page_view(self) -> PageView:
        return self.query_one("#space-page", PageView)

    def panel(self, name: str) -> ResourcePanel[Any]:
        return self.query_one(f"#space-{name}", ResourcePanel)

    def browser(self, name: str) -> ResourceBrowser:
        return self.panel(name).browser

    @property
    def files(self) -> list[FileEntry] | None:
        return self.query_one("#space-files", FilesPanel).files

    @property
    def links(self) -> LinksReport | None:
        return self.query_one("#space-links", LinksPanel).report

    def _known(self) -> tuple[list[PageEntry] | None, list[FileEntry] | None]:
        """What the links panel can name targets with, without reading it again."""
        return self.pages or None, self.files

    # -- loading --------------------------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.load_space()
        self._load_tab("tab-pages")

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < NARROW, "-narrow")

    def _load_tab(self, tab: str, *, again: bool = False) -> None:
        self._loaded.add(tab)
        if tab == "tab-pages":
            self.load_pages()
        elif tab in ("tab-files", "tab-links", "tab-crs") and again:
            self.panel(tab.removeprefix("tab-")).reload_if_started()
        elif tab == "tab-revision" and again:
            self.query_one(RevisionPanel).reload()
        elif tab == "tab-files" and again:
            self.query_one(FileDetail).forget()
        elif tab == "tab-comments" and again:  # the panel loads itself when it mounts
            panel = self._comments()
            reload = getattr(panel, "action_reload", None) or getattr(panel, "load", None)
            if callable(reload):
                reload()

    def _comments(self) -> Widget | None:
        return next(iter(self.query("#space-comments")), None)

    @staticmethod
    def _begin(browser: ResourceBrowser) -> None:
        browser.set_error(None)
        browser.set_loading(True)

    def _failed(self, browser: ResourceBrowser, exc: Exception, doing: str) -> None:
        if self.space is not None and self.space.deleted:  # the service refuses a deleted space's content
            browser.set_error(Content(GONE))
            return
        browser.set_error(error_message(exc, doing=doing, hint="Press r to try again."))

    def _done(self, browser: ResourceBrowser, rows: list[Row], tab: str) -> None:
        browser.set_loading(False)
        browser.set_rows(rows)
        self._focus_if_lost(tab)

    def _focus_if_lost(self, tab: str) -> None:
        """After a load, give the list the focus unless the user has it somewhere in the tab."""
        pane = self.tabs.active_pane
        if self.tabs.active == tab and (self.focused is None or pane not in self.focused.ancestors):
            self._focus_tab(tab)

    @work(exclusive=True, group="space-info", exit_on_error=False)
    @cache_first
    async def load_space(self) -> None:
        self._seen = self._versions()  # a write after this read is what makes the counts stale
        facts = self.query_one("#space-facts", Static)
        try:
            space = await self.spaces.space(self.space_id)
        except ServiceError as exc:
            if self.space is not None:  # keep the facts shown; say what failed
                notify_error(self, exc, doing="Could not reload the space")
            else:
                facts.update(error_message(exc, doing="Could not load the space", hint="Press r to try again."))
                facts.add_class("-error")
            return
        was_gone = self.space is not None and self.space.deleted
        self.space = space
        facts.remove_class("-error")
        gone = deleted_note(space)
        if was_gone and not gone:  # restored meanwhile (the trash): its content can be read again
            self._loaded = set()
            self._load_tab(self.tabs.active, again=True)
            if self.tabs.active != "tab-pages":
                self.load_pages()
        facts.update(safe(f"{gone} (:trash restores it)" if gone else space_header(space), limit=300))
        facts.set_class(gone is not None, "-error")
        if space.organization:  # seen here: if it is deleted (now or later), its organization's trash finds it
            self.services.trash.saw(space.organization, [space])
        if gone and not self.pages:  # its pages could not be read, or will not be: say why in words
            self.page_tree.set_loading(False)
            self.page_tree.set_error(Content(GONE))
        label = space_label(space)
        self.set_crumb(label)
        self.remember("space", {"space_id": self.space_id}, label)

    @work(exclusive=True, group="space-pages", exit_on_error=False)
    @cache_first
    async def load_pages(self) -> None:
        tree = self.page_tree
        self._begin(tree)
        try:
            entries = await self.spaces.pages(self.space_id)
        except ServiceError as exc:
            self._failed(tree, exc, "Could not load the pages")
            return
        self.pages = entries
        tree.set_loading(False)
        tree.set_pages(entries)
        self._focus_if_lost("tab-pages")
        wanted = self.page_view.page_id or self.page_id
        shown = next((e for e in entries if e.page.id == wanted), None)
        if shown is not None and self.page_id == shown.page.id:
            self.page_tree.list.move_to(shown.page.id)
        first = shown or next((e for e in entries if e.kind == "document"), entries[0] if entries else None)
        if first is not None:
            self.show_entry(first)

    def _versions(self) -> tuple[int, ...]:
        """Where the writes to this space's comments and change requests, and to spaces (a move, a delete, a
        restore), are at (``services.changes``)."""
        changes = self.services.changes
        topics = [(topic, self.space_id) for topic in ("comments", "change-requests")]
        return (*(changes.version(t) for t in topics), changes.version(("spaces",)))

    def _reload_if_written(self) -> None:
        if self._versions() != self._seen:
            self.load_space()  # the header counts open comments and change requests, and says a space deleted

    def on_screen_resume(self) -> None:
        self._reload_if_written()  # back from a thread or a change request where a write changed the counts

    def on_comments_panel_counted(self) -> None:
        self._reload_if_written()  # a comment posted, resolved or reopened on the comments tab

    def show_entry(self, entry: PageEntry) -> None:
        """Show a page on the right: a group's pages and a link's target are said, a document is read (at the
        search hit's section when it is the hit's page)."""
        if entry.page.id != self.page_id:
            self.hit_anchor = None  # another page: the hit's section is done with
        if not self.page_view.show_entry(entry):
            self.load_page(entry, self.hit_anchor)

    @work(exclusive=True, group="space-page", exit_on_error=False)
    @cache_first
    async def load_page(self, entry: PageEntry, anchor: str | None = None) -> None:
        title = safe(entry.page.title or entry.page.id, limit=80).plain
        if entry.page.markdown is None:
            self.page_view.set_status(Content(f"Loading “{title}”…"))
        try:
            markdown = await self.spaces.page_markdown(self.space_id, entry.page)
        except ServiceError as exc:
            self.page_view.set_status(error_message(exc, doing=f"Could not load “{title}”"), error=True)
            return
        self.page_view.show_document(entry.page, markdown, section=anchor)

    # -- what is selected ---------------------------------------------------------------------------------------

    def current_item(self) -> Item | None:
        tab = self.tabs.active
        if tab == "tab-pages":
            entry = self.page_tree.entry
            if entry is not None:
                return Item(entry.page.id, entry.url, "page")
        elif tab in ("tab-files", "tab-links", "tab-crs"):
            item = self.panel(tab.removeprefix("tab-")).current_item()
            if item is not None:
                return item
        elif tab == "tab-revision":
            revision = self.query_one(RevisionPanel).facts
            if revision is not None:
                return Item(revision.id, revision.url, "revision")
        elif tab == "tab-comments":
            current = getattr(self._comments(), "current_item", None)
            item = current() if callable(current) else None
            if isinstance(item, Item):
                return item
        if self.space is not None:
            return Item(self.space.id, self.space.urls.app if self.space.urls else None, "space")
        return None

    # -- actions ------------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        tabs = self.query("#space-tabs")  # asked before mount and while the screen goes away too
        tab = tabs.first(TabbedContent).active if tabs else ""
        if action in ("show_page", "page_links"):
            return tab == "tab-pages"
        if action == "edit_page":
            return tab == "tab-pages" and (None if self.why_not(action) else True)
        if action in SPACE_ACTIONS:
            return None if self.why_not(action) else True
        return True

    def why_not(self, action: str) -> str | None:
        if action == "edit_page":
            return self._edit_why_not()
        return space_why_not(self.space, action)

    # -- a page in $EDITOR (E) ----------------------------------------------------------------------------------

    def _page_to_edit(self) -> PageEntry | None:
        """The page shown when the focus is on it, else the page under the tree's cursor."""
        view = self.page_view
        focused = self.focused
        if focused is not None and (focused is view or view in focused.ancestors) and view.page_id is not None:
            shown = next((e for e in self.pages if e.page.id == view.page_id), None)
            if shown is not None:
                return shown
        return self.page_tree.entry

    def _edit_why_not(self) -> str | None:
        if self.space is not None and self.space.deleted:
            return "The space is deleted: restore it (:trash, u) to edit its pages."
        entry = self._page_to_edit()
        if entry is None:
            return "The pages are still loading." if not self.pages else "No page is under the cursor."
        if entry.kind == "link":
            return "This page is a link to elsewhere: it has no text to edit."
        if entry.kind == "group":
            return "A group has no text of its own: edit one of its pages."
        return None

    def action_edit_page(self) -> None:
        entry = self._page_to_edit()
        if entry is not None and self._edit_why_not() is None:
            self._edit_page(entry.page.id)

    @work(exclusive=True, group="space-page-edit", exit_on_error=False)
    async def _edit_page(self, page_id: str) -> None:
        from folio.tui.page_edit import edit_page  # the editor's dialogs load when first used

        await edit_page(self, self.space_id, page_id)

    def action_page_links(self) -> None:
        entry = self.page_tree.entry
        if entry is not None:
            self._page_links(entry)

    @work(exclusive=True, group="space-page-links", exit_on_error=False)
    async def _page_links(self, entry: PageEntry) -> None:
        try:
            report = await self.services.space_admin.page_links(
                self.space_id, entry.page.id, pages=self.pages, files=self.files
            )
        except ServiceError as exc:
            notify_error(self, exc, doing="Could not read the page's links")
            return
        await self.app.push_screen_wait(PageLinksModal(entry, report))

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        if event.resource_list is self.browser("files").list:
            data = event.row.data if event.row is not None else None
            self.query_one(FileDetail).show_file(data if isinstance(data, FileEntry) else None)

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if event.tabbed_content is not self.tabs:
            return  # a tabbed widget inside a tab
        tab = event.pane.id or ""
        if tab not in self._loaded:
            self._load_tab(tab)
        self._focus_tab(tab)
        self.refresh_bindings()

    def _focus_tab(self, tab: str) -> None:
        if tab == "tab-pages":
            self.page_tree.focus_list()
        elif tab in ("tab-files", "tab-links", "tab-crs"):
            self.browser(tab.removeprefix("tab-")).focus_list()
        elif tab == "tab-revision":
            self.query_one(RevisionPanel).focus_current()
        else:
            pane = self.tabs.get_pane(tab)
            target = next((w for w in self.focus_chain if pane in w.ancestors), None)
            if target is not None:
                target.focus()

    def action_search_space(self) -> None:
        self.post_message(Open("space-search", {"space_id": self.space_id}))

    def action_show_tab(self, tab: str) -> None:
        if tab in TABS:
            self.tabs.active = tab

    def action_refresh(self) -> None:
        tab = self.tabs.active
        self._loaded = set()  # the other tabs load again when shown
        self.load_space()
        self._load_tab(tab, again=True)

    def action_show_page(self) -> None:
        entry = self.page_tree.entry
        if entry is not None:
            self.show_entry(entry)

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        data = event.row.data
        if isinstance(data, PageEntry):
            self.show_entry(data)

    def on_links_panel_follow(self, event: LinksPanel.Follow) -> None:
        link = event.link
        entry = next((e for e in self.pages if link.kind == "page" and e.page.id == link.target), None)
        if entry is None:
            what = "This link is broken: its target is missing." if link.broken else "Folio does not open links."
            self.notify(f"{what} o copies an https target.", markup=False)
            return
        self.tabs.active = "tab-pages"
        self.page_tree.list.move_to(entry.page.id)
        self.show_entry(entry)
