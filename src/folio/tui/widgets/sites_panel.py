"""The sites of an organization, as the organization screen's Sites tab shows them: a list (title, visibility,
published, site spaces, where it is served) filtered by title (``/``) and by published state (``p`` cycles all,
published, unpublished); ``n`` creates a site, ``D`` deletes one after its title is typed, enter opens it.

    SitesPanel(services, org_id)      .reload()  .browser  .current  .current_item()
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from folio.services.sites import next_published_filter, published_filter_label
from folio.tui.errors import error_message, notify_error
from folio.tui.fresh import cache_first
from folio.tui.modals.site_forms import CreateSiteModal, TypedConfirmModal
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.widgets.resource_list import Column, ResourceBrowser, ResourceList, Row

if TYPE_CHECKING:
    from folio.models.site import Site
    from folio.services import Services

__all__ = ["SitesPanel", "site_row"]

COLUMNS = (
    Column("title", "Site"),
    Column("visibility", "Visibility", 12),
    Column("published", "Published", 9),
    Column("spaces", "Spaces", 6, align="right"),
    Column("where", "Hostname / URL"),
)


def site_row(site: Site) -> Row:
    """One site's cells, every server string made safe."""
    where = site.published_url or site.hostname or (f"/{site.basename}" if site.basename else "—")
    return Row(
        key=site.id,
        cells=[
            safe(site.title or site.id, limit=128),
            safe(site.visibility, limit=20),
            "yes" if site.published else "no",
            str(site.site_spaces),
            safe(where, limit=200),
        ],
        data=site,
    )


class SitesPanel(Vertical):
    """The organization's sites with their keys; embeds in any FolioScreen (the host's ``r`` calls
    :meth:`reload`, its ``current_item`` may ask :meth:`current_item`)."""

    DEFAULT_CSS = """
    SitesPanel { height: 1fr; }
    SitesPanel > .sites-panel--filter { height: 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_site", "New site", id="sites.new", tooltip="Create a site (unpublished)"),
        Binding("D", "delete_site", "Delete", id="sites.delete", tooltip="Delete the site (type its title)"),
        Binding("p", "cycle_published", "Published", id="sites.published", tooltip="Show all, published, unpublished"),
    ]

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.services = services
        self.org_id = org_id
        self.published: bool | None = None
        self.sites: list[Site] = []

    def compose(self) -> ComposeResult:
        yield Static(classes="sites-panel--filter")
        yield ResourceBrowser(COLUMNS, empty="This organization has no sites yet. Press n to create one.")

    @property
    def browser(self) -> ResourceBrowser:
        return self.query_one(ResourceBrowser)

    @property
    def current(self) -> Site | None:
        row = self.browser.list.highlighted
        return row.data if row is not None else None  # type: ignore[return-value]

    def current_item(self) -> Item | None:
        site = self.current
        if site is None:
            return None
        url = site.published_url or (site.urls.app if site.urls else None)
        return Item(site.id, url, "site")

    def on_mount(self) -> None:
        self._draw_filter()
        self.reload()

    def reload(self, *, keep: str | None = None) -> None:
        self.load(keep)

    def _draw_filter(self) -> None:
        label = published_filter_label(self.published)
        nxt = published_filter_label(next_published_filter(self.published)).lower()
        for line in self.query(".sites-panel--filter").results(Static):  # none once the screen is taken down
            line.update(Content(f"{label} · p shows {nxt} · / filters"))

    # -- loading -------------------------------------------------------------------------------------------------

    @work(exclusive=True, group="sites-panel", exit_on_error=False)
    @cache_first
    async def load(self, keep: str | None = None) -> None:
        browser = self.browser
        browser.set_error(None)
        browser.set_loading(True)
        try:
            sites = await self.services.sites.list(self.org_id, published=self.published)
        except Exception as exc:
            browser.set_error(error_message(exc, doing="Could not load the sites", hint="Press r to try again."))
            return
        self.sites = sites
        browser.set_loading(False)
        browser.set_rows((site_row(s) for s in sites), keep=keep)
        for site in sites:
            self._remember(site)
        self.screen.refresh_bindings()

    def _remember(self, site: Site) -> None:
        remember = getattr(self.app, "remember", None)
        if callable(remember):
            remember("site", site.id, site.title, self._opener(site.id))

    def _opener(self, site_id: str) -> Any:
        from folio.tui.screens.site import SiteScreen

        services, org_id, trail = self.services, self.org_id, tuple(getattr(self.screen, "trail", ()))
        return lambda: SiteScreen(services, org_id, site_id, trail=trail)

    # -- actions -------------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "delete_site":
            site = self.current
            if site is None:
                return False
            if site.permissions is not None and not site.permissions.admin:
                return None
        return True

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        self.screen.refresh_bindings()

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        site: Site = event.row.data  # type: ignore[assignment]
        self.app.push_screen(self._opener(site.id)())

    def action_cycle_published(self) -> None:
        self.published = next_published_filter(self.published)
        self._draw_filter()
        self.reload()

    def action_new_site(self) -> None:
        self.app.push_screen(CreateSiteModal(self.services.sites, self.org_id), self._created)

    def _created(self, site: Site | None) -> None:
        if site is None:
            return
        self.notify(f"Site created (unpublished): {safe(site.title, limit=128).plain}", markup=False)
        self._remember(site)
        if self.published is True:  # a new site is unpublished: show it
            self.published = None
            self._draw_filter()
        self.reload(keep=site.id)

    def action_delete_site(self) -> None:
        site = self.current
        if site is None:
            return
        title = Content.assemble("Delete the site ", (safe(site.title, limit=128).plain, "bold"), "?")
        body = Content(
            "Its sections and site spaces go with it; the spaces themselves stay."
            + (" It is published: visitors lose it now." if site.published else "")
        )
        modal = TypedConfirmModal(title, site.title or site.id, body=body)

        def confirmed(ok: bool | None) -> None:
            if ok:
                self._delete(site)

        self.app.push_screen(modal, confirmed)

    @work(exclusive=False, group="sites-panel-delete", exit_on_error=False)
    async def _delete(self, site: Site) -> None:
        name = safe(site.title, limit=128).plain
        try:
            await self.services.sites.delete(self.org_id, site.id)
        except Exception as exc:
            notify_error(self, exc, doing=f"Could not delete the site {name}")
            return
        self.notify(f"Site deleted: {name}", markup=False)
        loaded = getattr(self.app, "loaded", None)
        if isinstance(loaded, dict):  # the palette no longer offers it
            loaded.pop(("site", site.id), None)
        self.reload()
