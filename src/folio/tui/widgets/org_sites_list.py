"""A read-only list of an organization's published sites (title, visibility, published, site spaces).

A stand-in for the sites panel of the sites screen (``folio.tui.widgets.sites_panel.SitesPanel``), with the
same constructor, ``OrgSitesList(services, org_id)``: it loads itself, page by page, and :meth:`reload` reads the
list again. Enter on a site does nothing yet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical

from folio.tui.errors import error_message
from folio.tui.safe import safe
from folio.tui.widgets.resource_list import Column, ResourceBrowser, Row

if TYPE_CHECKING:
    from folio.models.site import Site
    from folio.services import Services

__all__ = ["OrgSitesList", "site_row"]

COLUMNS = (
    Column("title", "Site"),
    Column("visibility", "Visibility", 13),
    Column("published", "Published", 9),
    Column("spaces", "Spaces", 6, align="right"),
)


def site_row(site: Site) -> Row:
    return Row(
        key=site.id,
        cells=[
            safe(site.title or site.id, limit=120),
            safe(site.visibility.replace("-", " "), limit=30),
            "yes" if site.published else "no",
            str(site.site_spaces),
        ],
        data=site,
    )


class OrgSitesList(Vertical):
    """The sites of organization ``org_id``, loaded in a worker of their own."""

    DEFAULT_CSS = """
    OrgSitesList { height: 1fr; }
    """

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.services = services
        self.org_id = org_id
        self.sites: list[Site] = []

    def compose(self) -> ComposeResult:
        yield ResourceBrowser(COLUMNS, empty="This organization publishes no sites yet.")

    @property
    def browser(self) -> ResourceBrowser:
        return self.query_one(ResourceBrowser)

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        self.load()

    @property
    def current(self) -> Site | None:
        row = self.browser.list.highlighted
        return row.data if row is not None else None  # type: ignore[return-value]

    @work(exclusive=True, group="org-sites", exit_on_error=False)
    async def load(self) -> None:
        browser = self.browser
        browser.set_error(None)
        browser.set_loading(True)
        loaded: list[Site] = []
        first = True
        try:
            async for page in self.services.browse.sites_pages(self.org_id):
                loaded.extend(page)
                if first:
                    self.sites = loaded
                    browser.set_rows(site_row(site) for site in page)
                    first = False
                else:
                    browser.append_rows(site_row(site) for site in page)
        except Exception as exc:
            browser.set_error(error_message(exc, doing="Could not load the sites", hint="Press r to try again."))
            return
        browser.set_loading(False)
