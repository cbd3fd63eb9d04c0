"""One organization: its collections as a tree, its spaces, its change request inbox and its sites, in tabs.

Keys 1 to 4 switch tabs; enter opens the space or change request under the cursor (the space and change request
screens are imported when first opened); in the inbox, s / a / m / u change the filter; r reloads every tab.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Header, TabbedContent, TabPane

from folio.services.browse import build_tree
from folio.tui import styles_dir
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.widgets.change_request_inbox import ChangeRequestInbox
from folio.tui.widgets.collections_tree import CollectionsTree, visibility_words
from folio.tui.widgets.resource_list import Column, ResourceBrowser, ResourceList, Row
from folio.tui.widgets.sites_panel import SitesPanel

if TYPE_CHECKING:
    from folio.models.organization import Organization
    from folio.models.space import Collection, Space
    from folio.services import Services

__all__ = ["TABS", "OrganizationScreen"]

TABS = ("collections", "spaces", "change-requests", "sites")
KINDS = {
    "organization": "organization",
    "collection": "collection",
    "space": "space",
    "change-request": "change request",
    "site": "site",
}
SPACE_COLUMNS = (
    Column("title", "Space"),
    Column("visibility", "Visibility", 13),
    Column("collection", "Collection", 14),
    Column("updated", "Updated", 9),
    Column("crs", "Open CRs", 8, align="right"),
)
NO_SPACES = "This organization has no spaces yet."
INBOX_ACTIONS = ("inbox_status", "inbox_toggle")


def _tab_binding(key: str, tab: str, label: str) -> Binding:
    return Binding(
        key, f"show_tab('{tab}')", label, show=False, id=f"organization.tab-{tab}", tooltip=f"Show the {label.lower()}"
    )


class OrganizationScreen(FolioScreen):
    """The organization ``org_id``; ``title`` names it in the trail until it is loaded."""

    SESSION: ClassVar[tuple[str, tuple[str, ...]] | None] = ("organization", ("org_id",))
    """How the session rebuilds this screen (``folio.tui.session``)."""

    CSS_PATH = [styles_dir() / "organization.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        _tab_binding("1", "collections", "Collections"),
        _tab_binding("2", "spaces", "Spaces"),
        _tab_binding("3", "change-requests", "Change requests"),
        _tab_binding("4", "sites", "Sites"),
        Binding("s", "inbox_status", "Status", id="organization.inbox-status",
                tooltip="Show the next status: draft, open, archived, merged, every status"),
        Binding("a", "inbox_toggle('awaiting_me')", "Awaiting me", id="organization.inbox-awaiting-me",
                tooltip="Only the change requests whose review is asked of you (again: all)"),
        Binding("m", "inbox_toggle('mine')", "Mine", id="organization.inbox-mine",
                tooltip="Only the change requests you created (again: all)"),
        Binding("u", "inbox_toggle('outdated')", "Outdated", id="organization.inbox-outdated",
                tooltip="Only the change requests behind their space's content (again: all)"),
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
        self.spaces: list[Space] = []

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        with TabbedContent(id="organization-tabs"):
            with TabPane("Collections", id="collections"):
                yield CollectionsTree(id="organization-tree")
            with TabPane("Spaces", id="spaces"):
                yield ResourceBrowser(SPACE_COLUMNS, empty=NO_SPACES, id="organization-spaces")
            with TabPane("Change requests", id="change-requests"):
                yield ChangeRequestInbox(self.services, self.org_id, id="organization-inbox")
            with TabPane("Sites", id="sites"):
                yield SitesPanel(self.services, self.org_id, id="organization-sites")
        yield Footer()

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

    def on_mount(self) -> None:
        self.set_crumb(self.crumb)
        self.content_tree.focus_list()
        self.load_content()
        self.inbox.reload()
        self.load_organization()

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
        a failure is said in each list's status line and what was shown stays."""
        tree, spaces = self.content_tree, self.spaces_list
        for browser in (tree, spaces):
            browser.set_error(None)
            browser.set_loading(True)
        browse = self.services.browse
        collections_failed: Exception | None = None
        try:
            self.collections = await browse.collections(self.org_id)
        except Exception as exc:
            collections_failed = exc
        titles = {c.id: c.title or c.id for c in self.collections}
        keep = spaces.list.highlighted.key if spaces.list.highlighted else None
        loaded: list[Space] = []
        first = True
        try:
            async for page in browse.spaces_pages(self.org_id):
                loaded.extend(page)
                rows = [self._space_row(space, titles) for space in page]
                if first:
                    self.spaces, first = loaded, False
                    spaces.set_rows(rows, keep=keep)
                else:
                    spaces.append_rows(rows)
                if collections_failed is None:
                    tree.show(build_tree(self.collections, loaded), browse.age)
                for space in page:
                    self.remember("space", space.id, space.title or space.id, self._opener(space.id, space.title))
        except Exception as exc:
            for browser in (tree, spaces):
                browser.set_error(error_message(exc, doing="Could not load the spaces", hint="Press r to try again."))
            return
        self.spaces = loaded
        spaces.set_loading(False)
        tree.set_loading(False)
        if collections_failed is not None:
            tree.set_error(
                error_message(collections_failed, doing="Could not load the collections", hint="Press r to try again.")
            )
        self.inbox.set_space_titles({space.id: space.title or space.id for space in loaded})

    def _space_row(self, space: Space, collections: dict[str, str]) -> Row:
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

    @on(ChangeRequestInbox.Loaded)
    def _remember_change_requests(self, event: ChangeRequestInbox.Loaded) -> None:
        for cr in event.change_requests:
            self.remember("change-request", cr.id, cr.title, self._cr_opener(cr.space, cr.id))

    # -- opening ---------------------------------------------------------------------------------------------

    # The space and change request screens are imported when first opened: the organization screen opens
    # without their modules (and the models and widgets they bring).

    def _opener(self, space_id: str, title: str) -> Callable[[], Screen[Any]]:
        def open_space() -> Screen[Any]:
            screen: Any = import_module("folio.tui.screens.space").SpaceScreen
            return screen(self.services, space_id, title=title, trail=self.trail)  # type: ignore[no-any-return]

        return open_space

    def _cr_opener(self, space_id: str, cr_id: str) -> Callable[[], Screen[Any]]:
        def open_change_request() -> Screen[Any]:
            screen: Any = import_module("folio.tui.screens.change_request").ChangeRequestScreen
            return screen(self.services, space_id, cr_id, trail=self.trail)  # type: ignore[no-any-return]

        return open_change_request

    def _push(self, opener: Callable[[], Screen[Any]], what: str) -> None:
        try:
            screen = opener()
        except ModuleNotFoundError as exc:
            if not (exc.name or "").startswith("folio.tui.screens"):
                raise
            self.notify(f"This build of Folio cannot open a {what} yet.", severity="warning", markup=False)
            return
        self.app.push_screen(screen)

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        data: Any = event.row.data
        kind = getattr(data, "object", None)
        if kind == "space":
            self._push(self._opener(data.id, data.title), "space")
        elif kind == "change-request":
            self._push(self._cr_opener(data.space, data.id), "change request")
        elif event.resource_list is self.content_tree.list:
            self.content_tree.toggle(event.row.key)
        # a site: nothing yet

    def current_item(self) -> Item | None:
        browser = {
            "collections": self.content_tree,
            "spaces": self.spaces_list,
            "change-requests": self.inbox.browser,
            "sites": self.sites.browser,
        }.get(self.tabs.active)
        row = browser.list.highlighted if browser is not None else None
        data: Any = row.data if row is not None else self.organization
        if data is None:
            return None if row is not None else Item(self.org_id, None, "organization")
        urls = getattr(data, "urls", None)
        url = (urls.app or urls.published) if urls is not None else None
        return Item(data.id, url, KINDS.get(getattr(data, "object", ""), "item"))

    # -- actions ---------------------------------------------------------------------------------------------

    def action_refresh(self) -> None:
        self.load_content()
        self.inbox.forget_verdicts()
        self.inbox.reload()
        self.sites.reload()
        self.load_organization()

    def action_show_tab(self, tab: str) -> None:
        if tab in TABS:
            self.tabs.active = tab
            self._focus_tab(tab)

    @on(TabbedContent.TabActivated)
    def _tab_shown(self, event: TabbedContent.TabActivated) -> None:
        self._focus_tab(self.tabs.active)
        self.refresh_bindings()

    def _focus_tab(self, tab: str) -> None:
        browser = {"collections": self.content_tree, "spaces": self.spaces_list}.get(tab)
        if browser is None:
            browser = self.inbox.browser if tab == "change-requests" else self.sites.browser
        browser.focus_list()
        if tab == "change-requests":
            self.inbox.call_after_refresh(self.inbox.read_verdicts)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in INBOX_ACTIONS:
            tabs = self.query(TabbedContent)
            return bool(tabs) and tabs.first().active == "change-requests"
        return True

    def action_inbox_status(self) -> None:
        self.inbox.cycle_status()

    def action_inbox_toggle(self, switch: str) -> None:
        self.inbox.toggle(switch)
