"""What visitors see of a site: the published structure as a tree with each section's and site space's
published URL, and under it a summary of the editable structure to compare with.

    SitePublishedView(services, org_id, site_id)   .reload()  .use_share_key(key)  .current
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from folio.services.sites import OutlineNode, outline, structure_summary
from folio.tui.errors import error_message
from folio.tui.safe import safe
from folio.tui.widgets.site_structure_view import OutlineTree

if TYPE_CHECKING:
    from folio.services import Services
    from folio.services.sites import PublishedView

__all__ = ["SitePublishedView"]


class SitePublishedView(Vertical):
    """The published profile of a site; ``share_key`` (share-link sites) resolves the published URLs."""

    DEFAULT_CSS = """
    SitePublishedView { height: 1fr; }
    SitePublishedView > .published--summary { height: auto; }
    SitePublishedView > .published--summary.-error { color: $text-error; }
    SitePublishedView > .published--editable { height: auto; color: $text-muted; border-top: solid $primary; }
    """

    def __init__(self, services: Services, org_id: str, site_id: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.services = services
        self.org_id = org_id
        self.site_id = site_id
        self.share_key: str | None = None
        self.view: PublishedView | None = None

    def compose(self) -> ComposeResult:
        yield Static(Content("Loading what visitors see…"), classes="published--summary")
        yield OutlineTree(urls=True, id="published-tree")
        yield Static(classes="published--editable")

    @property
    def outline_tree(self) -> OutlineTree:
        return self.query_one(OutlineTree)

    @property
    def current(self) -> OutlineNode | None:
        return self.outline_tree.current

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        self.load()

    async def use_share_key(self, key: str) -> None:
        """Read the published view with ``key`` (raises when that fails, so a prompt can keep the key)."""
        view = await self.services.sites.published(self.org_id, self.site_id, share_key=key.strip() or None)
        self.share_key = key.strip() or None
        self._show(view)

    @work(exclusive=True, group="site-published", exit_on_error=False)
    async def load(self) -> None:
        try:
            view = await self.services.sites.published(self.org_id, self.site_id, share_key=self.share_key)
        except Exception as exc:
            summary = self.query_one(".published--summary", Static)
            summary.update(error_message(exc, doing="Could not load the published site", hint="Press r to retry."))
            summary.add_class("-error")
            return
        self._show(view)

    def _show(self, view: PublishedView) -> None:
        self.view = view
        site = view.published.site
        url = site.published_url or (site.urls.published if site.urls else None)
        if site.published:
            state = f"Published · {site.visibility} · {url or 'no URL yet'}"
        else:
            state = "Not published yet: the URLs it will have"
        if site.visibility == "share-link":
            state += " · share key " + ("given" if self.share_key else "not given (k)")
        summary = self.query_one(".published--summary", Static)
        summary.remove_class("-error")
        summary.update(safe(f"{state} · Y copies a URL", limit=400))
        root = OutlineNode("site", site.id, site.title, url)
        self.outline_tree.show(f"{site.title}  {url or ''}".strip(), outline(view.published.structure), root=root)
        published = structure_summary(view.published.structure)
        editable = structure_summary(view.editable) if view.editable is not None else "could not be read"
        same = "visitors see the same" if editable == published else f"visitors see {published}"
        self.query_one(".published--editable", Static).update(safe(f"Editable structure: {editable}; {same}."))
