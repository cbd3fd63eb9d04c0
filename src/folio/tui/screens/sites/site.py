"""One site: its settings (edited one field at a time, limits checked before sending), its structure with what
visitors see of it beside it (published URLs, a share key for share-link sites), and its adaptive content
schema.

The published view is not a tab of its own: it sits beside the structure it mirrors (side by side from 120
columns; narrower, ``p`` shows it in the structure's place), and reads again after every change the structure
editor makes, so a move is checked against what visitors will see without leaving the tab."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Header, Static, TabbedContent, TabPane

from folio.services.errors import ServiceError
from folio.services.sites.sites import Setting, check_setting, settings
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first
from folio.tui.modals.site_forms import ChoiceModal
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.widgets.adaptive_schema import AdaptiveSchemaEditor
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row
from folio.tui.widgets.site_published import PublishedBeside, SitePublishedView
from folio.tui.widgets.site_structure_view import SiteStructureView

if TYPE_CHECKING:
    from folio.models.site import Site
    from folio.models.site_structure import SiteStructure
    from folio.services import Services

__all__ = ["SiteScreen"]

SITE = Route(
    kind="site",
    noun="site",
    screen="SiteScreen",
    ids=("org_id", "site_id"),
    verbs=("site",),
    find="title",
    order=10,
    summary="a docs site: settings, structure, adaptive content",
)

TABS = ("settings", "structure", "adaptive")
SETTING_COLUMNS = (Column("setting", "Setting", 20), Column("value", "Value"))
DEFAULTS = ("defaultSiteSection", "defaultSiteSpace")
SEEN_BY_VISITORS = ("title", "visibility", "proxy", "basename", *DEFAULTS)


class _SettingList(ResourceList):
    """The settings' rows: enter edits the setting under the cursor (and the footer says so)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Edit", id="site.setting-enter", tooltip="Edit the setting under the cursor"),
    ]


class _SettingsBrowser(ResourceBrowser):
    """The settings list with its header and status line, its rows edited by enter."""

    def __init__(self, *, id: str) -> None:
        super().__init__(SETTING_COLUMNS, empty="No settings to show.", id=id)
        self._list = _SettingList(self.columns)


def _tab_key(key: str, tab: str, label: str) -> Binding:
    return Binding(key, f"show_tab('{tab}')", label, show=False, id=f"site.tab-{tab}", tooltip=f"Show {label}")


class SiteScreen(FolioScreen):
    """A site of organization ``org_id`` in three tabs: Settings, Structure (with the published view beside it),
    Adaptive content."""

    org_id: str

    ROUTE: ClassVar[str | None] = SITE.kind
    AUTO_FOCUS = "#site-settings _SettingList"
    """The settings list from the start, and again when its loading indicator goes (a focus asked for while it
    loads is lost: Textual's loading widgets cannot be focused, and the tabs had it)."""

    CSS_PATH = [styles_dir() / "site.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "e",
            "edit_setting",
            "Edit",
            show=False,  # the footer shows enter, which does the same
            id="site.edit-setting",
            tooltip="Edit the setting under the cursor",
        ),
        Binding(
            "p",
            "toggle_published",
            "Published",
            id="site.published",
            tooltip="Show or hide what visitors see beside the structure (in its place below 120 columns)",
        ),
        Binding(
            "s",
            "share_key",
            "Share key",
            id="site.share-key",
            tooltip="Give the share key of a share-link site, to see its published URLs",
        ),
        _tab_key("1", "settings", "Settings"),
        _tab_key("2", "structure", "Structure"),
        _tab_key("3", "adaptive", "Adaptive content"),
    ]

    def __init__(self, services: Services, org_id: str, site_id: str, *, trail: tuple[str, ...] = ()) -> None:
        super().__init__(services, trail=trail)
        self.org_id = org_id
        self.site_id = site_id
        self.crumb = "Site"
        self.site: Site | None = None
        self.structure: SiteStructure | None = None

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        with TabbedContent(initial="settings", id="site-tabs"):
            with TabPane("1 Settings", id="settings"):
                yield Static(Content("Loading the site…"), id="site-summary")
                yield _SettingsBrowser(id="site-settings")
                yield Static(id="site-setting-help")
            with TabPane("2 Structure", id="structure"):
                # Mounted when the tab is first shown: the editor and the published view load only when wanted.
                yield Static(Content("Loading the structure…"), id="structure-placeholder")
            with TabPane("3 Adaptive content", id="adaptive"):
                yield AdaptiveSchemaEditor(self.services, self.org_id, self.site_id, id="site-adaptive")
        yield KeysFooter()

    def _mount_structure(self) -> None:
        """Put the structure editor (or the read-only view) and the published view in their tab, once."""
        if self.query("#site-structure"):
            return
        widget = self._structure_widget()
        if isinstance(widget, SiteStructureView) and self.site is not None:
            widget.site_title = self.site.title
        published = SitePublishedView(self.services, self.org_id, self.site_id, id="site-published")
        self.query_one("#structure-placeholder", Static).remove()
        self.query_one("#structure", TabPane).mount(PublishedBeside(widget, published, id="structure-split"))
        self.call_after_refresh(self._focus_tab, "structure")

    def _structure_widget(self) -> Widget:
        from folio.tui.widgets.structure_editor import StructureEditor  # (the editor's modules: when a site opens)

        editor: Widget = StructureEditor(self.services, self.org_id, self.site_id)
        editor.id = editor.id or "site-structure"
        return editor

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#site-tabs", TabbedContent)

    @property
    def settings_list(self) -> ResourceBrowser:
        return self.query_one("#site-settings", ResourceBrowser)

    @property
    def published_view(self) -> SitePublishedView | None:
        """The published view (None until the Structure tab was first shown)."""
        views = self.query(SitePublishedView)
        return views.first() if views else None

    @property
    def split(self) -> PublishedBeside | None:
        splits = self.query(PublishedBeside)
        return splits.first() if splits else None

    def on_mount(self) -> None:
        self._draw_sub_title()
        self.settings_list.focus_list()
        self.load()

    # -- loading -----------------------------------------------------------------------------------------------------

    @work(exclusive=True, group="site", exit_on_error=False)
    @cache_first
    async def load(self) -> None:
        browser = self.settings_list
        browser.set_error(None)
        browser.set_loading(True)
        try:
            site, structure = await self.services.sites.overview(self.org_id, self.site_id)
        except ServiceError as exc:
            browser.set_error(error_message(exc, doing="Could not load the site", hint="Press r to try again."))
            return
        self.structure = structure
        self._show_site(site)

    def _show_site(self, site: Site) -> None:
        self.site = site
        self.set_crumb(site.title or site.id)
        self.remember("site", {"org_id": self.org_id, "site_id": site.id}, site.title)
        where = site.published_url or "not published"
        summary = f"{site.title} · {site.type} site · {site.visibility} · {where} · {site.site_spaces} site spaces"
        self.query_one("#site-summary", Static).update(safe(summary, limit=400))
        structure_view = self._structure_view()
        if structure_view is not None:
            structure_view.set_site_title(site.title)
        browser = self.settings_list
        browser.set_loading(False)
        browser.set_rows(self._setting_row(s) for s in settings(site, self.structure))
        self._show_help(browser.list.highlighted)
        self.refresh_bindings()

    @staticmethod
    def _setting_row(setting: Setting) -> Row:
        return Row(key=setting.key, cells=[setting.label, safe(setting.value, limit=300)], data=setting)

    def _show_help(self, row: Row | None) -> None:
        setting: Setting | None = row.data if row is not None else None  # type: ignore[assignment]
        text = f"{setting.label}: {setting.help} Enter edits it." if setting else ""
        self.query_one("#site-setting-help", Static).update(safe(text, limit=400))

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        if event.resource_list is self.settings_list.list:
            self._show_help(event.row)

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        if event.resource_list is self.settings_list.list:
            event.stop()
            self._edit(event.row.data)  # type: ignore[arg-type]

    # -- editing a setting ---------------------------------------------------------------------------------------------

    def action_edit_setting(self) -> None:
        row = self.settings_list.list.highlighted
        if row is not None:
            self._edit(row.data)  # type: ignore[arg-type]

    def _edit(self, setting: Setting) -> None:
        key, sites = setting.key, self.services.sites

        async def submit(value: str) -> None:
            await self._saved(setting, await sites.update_setting(self.org_id, self.site_id, key, value), value)

        async def find_sent(value: str) -> Site | None:
            """A change whose answer was lost: the site read again, if it holds the value now."""
            site = await sites.find_setting(self.org_id, self.site_id, key, value)
            if site is not None:
                await self._saved(setting, site, value)
            return site

        title = Content.assemble("Edit ", (setting.label, "bold"), f" · {setting.help}")
        if setting.kind == "text":
            self.app.push_screen(
                TextEntryModal(
                    title,
                    submit,
                    text=setting.current or "",
                    multiline=False,
                    check=lambda text: check_setting(key, text),
                    send_label="Save",
                    # What is typed is kept (esc, a failed send, a hang-up) until the service has it.
                    draft=f"site-setting:{self.org_id}/{self.site_id}/{key}",
                    where=f"the {setting.label.lower()} of the site {self.site.title if self.site else self.site_id}",
                    find_sent=find_sent,
                )
            )
        elif not setting.choices:
            self.notify(f"{setting.label}: there is nothing to choose from.", severity="warning", markup=False)
        else:
            modal = ChoiceModal(title, setting.choices, submit, current=setting.current, find_sent=find_sent)
            self.app.push_screen(modal)

    async def _saved(self, setting: Setting, site: Site, value: str) -> None:
        """The service has the setting: show the site as it now is, and what depends on the setting."""
        key = setting.key
        if key in DEFAULTS:
            self.structure = await self.services.sites.structure(self.org_id, self.site_id)
        self._show_site(site)
        shown = next((s.value for s in settings(site, self.structure) if s.key == key), value)
        self.notify(f"{setting.label} saved: {safe(shown, limit=200).plain}", markup=False)
        if key in SEEN_BY_VISITORS:
            self._reload_published()
        if key in DEFAULTS:  # the structure editor marks the defaults (★)
            self._reload_structure()

    # -- tabs, share key, what is selected --------------------------------------------------------------------------

    def action_show_tab(self, tab: str) -> None:
        if tab in TABS:
            self.tabs.active = tab

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        if self.tabs.active == "structure":
            self._mount_structure()
        self._focus_tab(self.tabs.active)
        self.refresh_bindings()

    def _focus_tab(self, tab: str) -> None:
        if tab == "settings":
            self.settings_list.focus_list()
        elif tab == "adaptive":
            self.query_one(AdaptiveSchemaEditor).text_area.focus()
        elif self.split is not None:
            self.split.focus_structure()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        in_structure = self.is_mounted and self.tabs.active == "structure" and self.split is not None
        if action == "toggle_published":
            return in_structure
        if action == "share_key":
            if not in_structure or self.split is None or not self.split.published_visible:
                return False
            return True if self.site is not None and self.site.visibility == "share-link" else None
        if action == "edit_setting":
            return self.is_mounted and self.tabs.active == "settings"
        return True

    def action_toggle_published(self) -> None:
        split = self.split
        if split is not None:
            split.toggle()
            self.refresh_bindings()

    def on_structure_editor_changed(self, event: Message) -> None:
        """A change reached the service: what visitors see is read again, to show where it landed, and so are
        the settings (a move can change the default section or site space)."""
        self._reload_published()
        self.load()

    def _reload_published(self) -> None:
        view = self.published_view
        if view is not None:
            view.reload()

    def action_share_key(self) -> None:
        view = self.published_view
        if view is None:
            return
        self.app.push_screen(
            TextEntryModal(
                Content("Share key (from the site's share link): the published URLs will carry it"),
                view.use_share_key,
                text=view.share_key or "",
                multiline=False,
                send_label="Use",
            ),
            lambda key: self.notify("Published URLs now carry the share key.", markup=False) if key else None,
        )

    def _structure_view(self) -> SiteStructureView | None:
        views = self.query(SiteStructureView)
        return views.first() if views else None

    def current_item(self) -> Item | None:
        active = self.tabs.active if self.is_mounted else "settings"
        split, focused = self.split, self.app.focused
        if active == "structure" and split is not None:
            if focused is not None and split.published in focused.ancestors_with_self:
                node = split.published.current
                if node is not None:
                    return Item(node.id, node.url, node.kind)
            elif isinstance(split.structure, SiteStructureView):
                node = split.structure.current
                if node is not None:
                    return Item(node.id, node.url, node.kind)
            else:
                current_item = getattr(split.structure, "current_item", None)
                item = current_item() if callable(current_item) else None
                if isinstance(item, Item):
                    return item
        site = self.site
        if site is None:
            return None
        return Item(site.id, site.published_url or (site.urls.app if site.urls else None), "site")

    def action_refresh(self) -> None:
        self.load()
        self._reload_published()
        self.query_one(AdaptiveSchemaEditor).reload()
        self._reload_structure()

    def _reload_structure(self) -> None:
        structure = self.query("#site-structure")
        reload = getattr(structure.first(), "reload", None) if structure else None
        if callable(reload):
            result = reload()
            if inspect.isawaitable(result):  # the structure editor's reload is a coroutine
                self.run_worker(result, group="site-structure", exclusive=True, exit_on_error=False)
