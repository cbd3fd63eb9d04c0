"""The sites of an organization, as the organization screen's Sites tab shows them: a list (title, visibility,
published, site spaces, where it is served) filtered by title (``/``) and by published state (``p`` cycles all,
published, unpublished); ``n`` creates a site, ``D`` deletes one after its title is typed, enter opens it.

    SitesPanel(services, org_id)      a ResourcePanel: .reload()  .browser  .current  .current_item()
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.content import Content

from folio.models.site import Site
from folio.services.errors import ServiceError
from folio.services.sites.sites import next_published_filter, published_filter_label
from folio.tui.context import context_of
from folio.tui.errors import notify_error
from folio.tui.modals.site_forms import CreateSiteModal, TypedConfirmModal
from folio.tui.navigation import Ids, remember
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.widgets.resource_list import Column, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
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


class SitesPanel(ResourcePanel["Site"]):
    """The organization's sites with their keys; embeds in any FolioScreen (the host's ``r`` calls
    :meth:`reload`, its ``current_item`` may ask :meth:`current_item`)."""

    COLUMNS = COLUMNS
    EMPTY = "This organization has no sites yet. Press n to create one."
    NOUN = "site"
    ROUTE = "site"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_site", "New site", id="sites.new", tooltip="Create a site (unpublished)"),
        Binding("D", "delete_site", "Delete", id="sites.delete", tooltip="Delete the site (type its title)"),
        Binding("p", "cycle_published", "Published", id="sites.published", tooltip="Show all, published, unpublished"),
    ]

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.published: bool | None = None

    @property
    def sites(self) -> list[Site]:
        return self.items

    def hint(self) -> str:
        label = published_filter_label(self.published)
        nxt = published_filter_label(next_published_filter(self.published)).lower()
        return f"{label} · p shows {nxt} · / filters"

    async def fetch(self) -> AsyncIterator[Sequence[Site]]:
        yield await self.services.sites.list(self.org_id, published=self.published)

    def row(self, site: Site) -> Row:
        return site_row(site)

    def opens(self, site: Site) -> tuple[Ids, str] | None:
        return {"org_id": self.org_id, "site_id": site.id}, site.title or site.id

    def item_of(self, site: Site) -> Item | None:
        url = site.published_url or (site.urls.app if site.urls else None)
        return Item(site.id, url, "site")

    def why_not(self, action: str) -> str | None:
        if action == "delete_site":
            site = self.current
            if site is None:
                return "No site is selected."
            if site.permissions is not None and not site.permissions.admin:
                return "Only an admin of this site can delete it."
        return None

    # -- actions -------------------------------------------------------------------------------------------------

    def action_cycle_published(self) -> None:
        self.published = next_published_filter(self.published)
        self.draw_hint()
        self.reload()

    def action_new_site(self) -> None:
        self.app.push_screen(CreateSiteModal(self.services.sites, self.org_id), self._created)

    def _created(self, site: Site | None) -> None:
        if site is None:
            return
        self.notify(f"Site created (unpublished): {safe(site.title, limit=128).plain}", markup=False)
        remember(self, "site", {"org_id": self.org_id, "site_id": site.id}, site.title)
        if self.published is True:  # a new site is unpublished: show it
            self.published = None
            self.draw_hint()
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
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not delete the site {name}")
            return
        self.notify(f"Site deleted: {name}", markup=False)
        context = context_of(self)
        if context is not None:  # the palette no longer offers it
            context.forget("site", {"org_id": self.org_id, "site_id": site.id})
        self.reload()
