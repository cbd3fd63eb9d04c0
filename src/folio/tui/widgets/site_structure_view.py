"""A site's structure as a read-only tree: groups, sections and their site spaces, external links.

OutlineTree         a Tree of :class:`folio.services.sites.site_rules.OutlineNode`, labels made safe (never markup);
                    the published view uses it too, with each item's published URL
SiteStructureView   the Structure tab when the structure editor is not installed: loads the site's
                    structure and shows it, read-only
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode

from folio.services.errors import ServiceError
from folio.services.sites.sites import OutlineNode, outline, structure_summary
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first
from folio.tui.safe import safe

if TYPE_CHECKING:
    from folio.services import Services

__all__ = ["OutlineTree", "SiteStructureView", "node_label"]

_KIND_MARK = {
    "site-section-group": "▤ ",
    "site-section": "§ ",
    "site-space": "· ",
    "site-external-link": "↗ ",
}


def node_label(node: OutlineNode, *, url: bool) -> Text:
    """A node's one-line label: kind mark, title, notes, and (``url``) its published URL; plain text only."""
    label = Text(no_wrap=True, end="")
    label.append(_KIND_MARK.get(node.kind, "? "), style="dim")
    label.append(safe(node.title or node.id, limit=140).plain, style="bold" if node.kind != "site-space" else "")
    for note in node.notes:
        label.append(f"  [{safe(note, limit=120).plain}]", style="italic dim")
    if url and node.url:
        label.append("  " + safe(node.url, limit=300).plain, style="dim")
    elif url and node.kind in ("site-section", "site-space"):
        label.append("  no published URL", style="dim")
    return label


class OutlineTree(Tree[OutlineNode]):
    """A read-only outline of a site's structure; each node's data is its :class:`OutlineNode`."""

    # Long labels (a URL beside each title) scroll sideways with left/right, without a scrollbar: at some
    # widths its one-cell thumb was a stray block under the tree.
    DEFAULT_CSS = """
    OutlineTree { height: 1fr; background: $surface; scrollbar-size-horizontal: 0; }
    """

    def __init__(self, *, urls: bool = False, id: str | None = None) -> None:
        super().__init__(Text("Site"), id=id)
        self.urls = urls
        self.show_root = True

    def show(self, root_label: str, nodes: Sequence[OutlineNode], *, root: OutlineNode | None = None) -> None:
        """Replace the tree with ``nodes`` under a root named ``root_label``, everything expanded."""
        cursor = self.cursor_node.data.id if self.cursor_node and self.cursor_node.data else None
        self.clear()
        self.root.set_label(Text(safe(root_label, limit=140).plain, style="bold"))
        self.root.data = root
        self._add(self.root, nodes)
        self.root.expand_all()
        if cursor is not None:
            self.call_after_refresh(self._move_to, cursor)

    def _add(self, parent: TreeNode[OutlineNode], nodes: Sequence[OutlineNode]) -> None:
        for node in nodes:
            label = node_label(node, url=self.urls)
            if node.children:
                self._add(parent.add(label, node, expand=True), node.children)
            else:
                parent.add_leaf(label, node)

    def _move_to(self, item_id: str) -> None:
        for line in range(self.last_line + 1):
            node = self.get_node_at_line(line)
            if node is not None and node.data is not None and node.data.id == item_id:
                self.move_cursor(node, animate=False)
                return

    @property
    def current(self) -> OutlineNode | None:
        node = self.cursor_node
        return node.data if node is not None else None


class SiteStructureView(Vertical):
    """The site's structure, read-only (the Structure tab without the structure editor)."""

    DEFAULT_CSS = """
    SiteStructureView { height: 1fr; }
    SiteStructureView > .structure-view--summary { height: auto; color: $text-muted; }
    SiteStructureView > .structure-view--summary.-error { color: $text-error; }
    """

    def __init__(self, services: Services, org_id: str, site_id: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.services = services
        self.org_id = org_id
        self.site_id = site_id
        self.site_title = "Site"

    def compose(self) -> ComposeResult:
        yield Static(Content("Loading the structure…"), classes="structure-view--summary")
        yield OutlineTree(id="structure-tree")

    @property
    def outline_tree(self) -> OutlineTree:
        return self.query_one(OutlineTree)

    @property
    def current(self) -> OutlineNode | None:
        return self.outline_tree.current

    def set_site_title(self, title: str) -> None:
        """Name the tree's root after the site (the structure itself does not carry the title)."""
        self.site_title = title
        self.outline_tree.root.set_label(Text(safe(title, limit=140).plain, style="bold"))

    def on_mount(self) -> None:
        self.reload()

    def reload(self) -> None:
        self.load()

    def _say(self, text: Content, *, error: bool = False) -> None:
        summary = self.query_one(".structure-view--summary", Static)
        summary.update(text)
        summary.set_class(error, "-error")

    @work(exclusive=True, group="site-structure-view", exit_on_error=False)
    @cache_first
    async def load(self) -> None:
        try:
            structure = await self.services.sites.structure(self.org_id, self.site_id)
        except ServiceError as exc:
            self._say(
                error_message(exc, doing="Could not load the structure", hint="Press r to try again."), error=True
            )
            return
        self._say(Content(f"Read-only · {structure_summary(structure)}"))
        self.outline_tree.show(self.site_title, outline(structure))
