"""What visitors see of a site: the published structure as a tree with each section's and site space's
published URL, and under it a summary of the editable structure to compare with; and the pane that shows it
beside the editable structure.

    SitePublishedView(services, org_id, site_id)   .reload()  .use_share_key(key)  .current
    PublishedBeside(structure_widget, published_view)   .toggle()  .published_visible
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from folio.services.errors import ServiceError
from folio.services.sites.sites import OutlineNode, outline, structure_summary
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first
from folio.tui.safe import safe
from folio.tui.widgets.site_structure_view import OutlineTree

if TYPE_CHECKING:
    from folio.services import Services
    from folio.services.sites.sites import PublishedView

__all__ = ["WIDE", "PublishedBeside", "SitePublishedView"]

WIDE = 120
"""From this many columns the published view sits beside the structure; below, it takes the structure's place
when asked for."""


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
    @cache_first
    async def load(self) -> None:
        try:
            view = await self.services.sites.published(self.org_id, self.site_id, share_key=self.share_key)
        except ServiceError as exc:
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


class PublishedBeside(Horizontal):
    """The editable structure (``structure``) with the published view beside it: side by side from :data:`WIDE`
    columns; narrower, the published view is shown in the structure's place while toggled on. ``toggle()`` shows
    or hides it at any width."""

    DEFAULT_CSS = """
    PublishedBeside { height: 1fr; }
    PublishedBeside > * { width: 1fr; }
    PublishedBeside > SitePublishedView { display: none; border-left: vkey $primary; padding-left: 1; }
    PublishedBeside.-published > SitePublishedView { display: block; }
    PublishedBeside.-published.-alone > SitePublishedView { border-left: none; padding-left: 0; }
    PublishedBeside.-published.-alone > .published-beside--structure { display: none; }
    """

    def __init__(self, structure: Widget, published: SitePublishedView, *, id: str | None = None) -> None:
        super().__init__(id=id)
        structure.add_class("published-beside--structure")
        self.structure, self.published = structure, published
        self.shown: bool | None = None
        """Asked for (``toggle``) against what the width says, or None: as the width says."""

    def compose(self) -> ComposeResult:
        yield self.structure
        yield self.published

    @property
    def wide(self) -> bool:
        return self.screen.size.width >= WIDE

    @property
    def published_visible(self) -> bool:
        return self.wide if self.shown is None else self.shown

    def on_mount(self) -> None:
        self.lay_out()

    def on_resize(self, event: events.Resize) -> None:
        self.lay_out()

    def lay_out(self) -> None:
        """Show what the width and ``shown`` say; the focus leaves a view that is hidden."""
        visible, alone = self.published_visible, self.published_visible and not self.wide
        focused = self.app.focused
        lost = focused is not None and (
            (not visible and self.published in focused.ancestors_with_self)
            or (alone and self.structure in focused.ancestors_with_self)
        )
        self.set_class(visible, "-published")
        self.set_class(alone, "-alone")
        if lost:
            self.focus_structure()

    def toggle(self) -> bool:
        """Show the published view if it is hidden, else hide it; the focus follows. Returns whether it shows."""
        show = not self.published_visible
        self.shown = None if show == self.wide else show  # back to what the width says: it follows it again
        self.lay_out()
        return show

    def focus_structure(self) -> None:
        """Focus the structure (the published view when the structure is not shown)."""
        if self.has_class("-alone"):
            self.published.outline_tree.focus()
            return
        focusable = [w for w in self.structure.query("*") if w.focusable]
        if focusable:
            focusable[0].focus()
