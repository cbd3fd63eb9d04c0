"""The tree of a site's structure: its nodes, who is where (:class:`Layout`), a :class:`Move` from one place to
another, and the defaults and published URLs that follow from the order.

Sections, groups and external links are siblings at the root or in a group; a section's children are its site
spaces (in a site without sections the site spaces sit at the root). The default section is the site's named one,
else the first in order; a section's default site space likewise: a reorder can move published URLs. Node ids
are the service's ids (unique across kinds in practice).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from folio.models.site_structure import (
    SiteExternalLink,
    SiteSection,
    SiteSectionGroup,
    SiteSectionsStructure,
    SiteSpace,
)

if TYPE_CHECKING:
    from folio.models.site import Site
    from folio.models.site_structure import SiteStructure

__all__ = ["GROUP", "LINK", "NOUNS", "SECTION", "SPACE", "Layout", "Move", "Node", "StructureTree", "build_tree"]

GROUP, SECTION, SPACE, LINK = "site-section-group", "site-section", "site-space", "site-external-link"
NOUNS = {GROUP: "group", SECTION: "section", SPACE: "site space", LINK: "link"}


@dataclass
class Node:
    """One item of the tree: a group, a section, a site space or an external link."""

    id: str
    kind: str
    title: str
    path: str = ""
    icon: str | None = None
    description: str | None = None
    condition: str | None = None
    hidden: bool = False
    space: str | None = None
    link: str | None = None

    @property
    def noun(self) -> str:
        return NOUNS.get(self.kind, "item")


@dataclass(frozen=True)
class Move:
    """``id`` goes from ``from_index`` in ``from_parent`` to ``to_index`` in ``to_parent`` (indices as they are
    before and after the move; None is the root)."""

    id: str
    from_parent: str | None
    from_index: int
    to_parent: str | None
    to_index: int

    def inverse(self) -> Move:
        return Move(self.id, self.to_parent, self.to_index, self.from_parent, self.from_index)


@dataclass
class Layout:
    """Who is where: each parent's children in order (None: the root) and each item's parent."""

    children: dict[str | None, list[str]] = field(default_factory=dict)
    parent: dict[str, str | None] = field(default_factory=dict)

    def copy(self) -> Layout:
        return Layout({k: list(v) for k, v in self.children.items()}, dict(self.parent))

    def kids(self, parent: str | None) -> list[str]:
        return self.children.get(parent, [])

    def add(self, parent: str | None, item: str) -> None:
        self.children.setdefault(parent, []).append(item)
        self.parent[item] = parent

    def position(self, item: str) -> tuple[str | None, int]:
        parent = self.parent[item]
        return parent, self.children[parent].index(item)

    def place(self, item: str, parent: str | None, index: int) -> None:
        self.children[self.parent[item]].remove(item)
        self.children.setdefault(parent, []).insert(index, item)
        self.parent[item] = parent

    def apply(self, move: Move) -> None:
        self.place(move.id, move.to_parent, move.to_index)

    def remove(self, item: str, *, keep_children: bool = False) -> list[str]:
        """Take ``item`` out; its children take its place (``keep_children``) or go with it. Returns what left."""
        parent, index = self.position(item)
        self.children[parent].remove(item)
        kids = self.children.pop(item, [])
        del self.parent[item]
        if keep_children:
            self.children[parent][index:index] = kids
            for kid in kids:
                self.parent[kid] = parent
            return [item]
        gone = [item]
        for kid in kids:
            self.children.setdefault(item, []).append(kid)
            gone += self.remove(kid)
        self.children.pop(item, None)
        return gone

    def rows(self) -> list[tuple[str, int]]:
        """Every item depth first as (id, depth): the tree's rows."""
        out: list[tuple[str, int]] = []
        children = self.children

        def visit(parent: str | None, depth: int) -> None:
            for kid in children.get(parent, ()):
                out.append((kid, depth))
                if kid in children:
                    visit(kid, depth + 1)

        visit(None, 0)
        return out

    def walk(self) -> Iterator[str]:
        return (item for item, _ in self.rows())


@dataclass
class StructureTree:
    """A site's structure as read, plus the named defaults Folio could tell apart from "the first one"."""

    org_id: str
    site_id: str
    title: str
    base_url: str | None
    sections: bool
    nodes: dict[str, Node] = field(default_factory=dict)
    layout: Layout = field(default_factory=Layout)
    default_section: str | None = None
    default_spaces: dict[str | None, str] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(NOUNS, 0)
        for node in self.nodes.values():
            out[node.kind] = out.get(node.kind, 0) + 1
        return out

    def defaults(self, layout: Layout | None = None) -> set[str]:
        """The default section (the named one, else the first in order) and each section's (or the root's)
        default site space (likewise): without walking the whole tree, as it is asked after every move."""
        layout = layout or self.layout
        nodes, out = self.nodes, set()
        for owner, kids in layout.children.items():
            if not kids or (owner is not None and nodes[owner].kind != SECTION):
                continue
            named = self.default_spaces.get(owner)
            if named is not None and layout.parent.get(named) == owner:
                out.add(named)
            else:
                first = next((k for k in kids if nodes[k].kind == SPACE), None)
                if first is not None:
                    out.add(first)
        if self.sections:
            named = self.default_section if self.default_section in layout.parent else None
            stack = list(reversed(layout.kids(None)))
            while named is None and stack:
                key = stack.pop()
                if nodes[key].kind == SECTION:
                    named = key
                elif nodes[key].kind == GROUP:
                    stack.extend(reversed(layout.kids(key)))
            if named is not None:
                out.add(named)
        return out

    def url(self, item: str | None, defaults: set[str], layout: Layout | None = None) -> str | None:
        """The published URL of a section or site space (None: the root; None back when not published)."""
        layout = layout or self.layout
        if item is None:
            return self._join(self.base_url, "")
        node = self.nodes[item]
        if node.kind == SECTION:
            return self._join(self.base_url, "" if item in defaults else node.path)
        if node.kind != SPACE:
            return None
        owner = self.url(layout.parent.get(item), defaults, layout)
        return owner if item in defaults else self._join(owner, node.path)

    def resolve(self, layout: Layout | None = None) -> tuple[set[str], dict[str, str]]:
        """The defaults, and the published URL of every section and site space."""
        layout = layout or self.layout
        defaults = self.defaults(layout)
        urls: dict[str, str] = {}
        for key in layout.parent:
            url = self.url(key, defaults, layout)
            if url is not None:
                urls[key] = url
        return defaults, urls

    @staticmethod
    def _join(base: str | None, path: str) -> str | None:
        if base is None:
            return None
        return base.rstrip("/") + "/" + path.strip("/") if path else base.rstrip("/") + "/"

    def is_default(self, item: str) -> bool:
        return item in self.defaults()

    def default_among(self, item: str) -> str | None:
        """The item that is the default among ``item``'s kind and owner (sections; a section's site spaces)."""
        kind, owner = self.nodes[item].kind, self.layout.parent.get(item)
        for key in self.defaults():
            if self.nodes[key].kind == kind and (kind == SECTION or self.layout.parent.get(key) == owner):
                return key
        return None

    def name(self, item: str | None) -> str:
        if item is None:
            return "the root"
        node = self.nodes[item]
        return f"{node.noun} “{node.title}”"

    def apply_edit(self, item: str, changes: dict[str, Any]) -> dict[str, Any]:
        """Change a node here (not on the service); returns the changes that take it back."""
        node, back = self.nodes[item], {}
        for name, value in changes.items():
            if name in ("default", "_named"):
                owner = SECTION if node.kind == SECTION else self.layout.parent[item]
                named = self.default_section if owner == SECTION else self.default_spaces.get(owner)
                back["_named"] = named
                chosen = item if name == "default" else value
                if owner == SECTION:
                    self.default_section = chosen
                elif chosen is None:
                    self.default_spaces.pop(owner, None)
                else:
                    self.default_spaces[owner] = chosen
            else:
                back[name] = getattr(node, name)
                setattr(node, name, value)
        return back

    def remove(self, item: str) -> None:
        """Take a node out here: a group's children take its place, a section goes with its site spaces."""
        for key in self.layout.remove(item, keep_children=self.nodes[item].kind == GROUP):
            self.nodes.pop(key, None)
            if key == self.default_section:
                self.default_section = None
            self.default_spaces.pop(key, None)


def build_tree(org_id: str, site_id: str, site: Site, structure: SiteStructure) -> StructureTree:
    """The tree of a structure read; a default that is not the first in order is known to be named."""
    base = site.urls.published if site.urls and site.published else None
    tree = StructureTree(org_id, site_id, site.title, base, isinstance(structure, SiteSectionsStructure))
    flagged: dict[str | None, str] = {}

    def add(item: Any, parent: str | None) -> None:
        if isinstance(item, SiteSpace):
            title = item.title or (item.space.title if item.space else "") or item.path
            node = Node(item.id, SPACE, title, item.path, condition=item.condition, hidden=item.hidden)
            node.space = item.space.id if item.space else None
            if item.default:
                flagged[parent] = item.id
        elif isinstance(item, SiteSection):
            node = Node(item.id, SECTION, item.title, item.path, item.icon, item.description, item.condition)
            if item.default:
                flagged[SECTION] = item.id
        elif isinstance(item, SiteSectionGroup):
            node = Node(item.id, GROUP, item.title, icon=item.icon)
        elif isinstance(item, SiteExternalLink):
            node = Node(item.id, LINK, item.title, icon=item.icon, description=item.description, link=item.url)
            node.condition = item.condition
        else:
            node = Node(item.id, str(getattr(item, "object", "") or "item"), getattr(item, "title", "") or item.id)
        tree.nodes[node.id] = node
        tree.layout.add(parent, node.id)
        if isinstance(item, SiteSectionGroup):
            kids = item.children or [s for s in item.sections if not isinstance(s, str)]
            for kid in kids:
                add(kid, item.id)
        elif isinstance(item, SiteSection):
            for ss in item.site_spaces:
                add(ss, item.id)

    for item in structure.structure:
        add(item, None)
    sections = [i for i in tree.layout.walk() if tree.nodes[i].kind == SECTION]
    if flagged.get(SECTION) and sections and flagged[SECTION] != sections[0]:
        tree.default_section = flagged[SECTION]
    for owner, ss in flagged.items():
        if owner != SECTION and tree.layout.kids(owner) and tree.layout.kids(owner)[0] != ss:
            tree.default_spaces[owner] = ss
    return tree
