"""A published site's structure as an editable tree: moves, what may go where, the operations a move takes on this
service, the published URLs a plan moves, and :class:`StructureService`, which sends them step by step.

    tree = await service.load(org_id, site_id)          # GET .../structure (+ the site, for its published URL)
    move = step(tree, tree.layout, section_id, +1)      # one landing spot down (None: nowhere to go)
    plan = build_plan(tree, confirmed, [move], service.offered)
    await service.apply(tree, confirmed, plan.moves, progress)   # stops at the first failure: StepFailed

Sections, groups and external links are siblings at the root or in a group; a section's children are its site
spaces (in a site without sections the site spaces sit at the root). Sibling order changes through the
structure sort (the deprecated section move where the sort is not offered, the site space move for site
spaces); a section changes group through its update (``siteSectionGroupId``; the add-to-group operation where
the update is not offered), a group through ``parentSectionGroupId``. A site space never leaves its section.
The default section is the site's named one, else the first in order; a section's default site space likewise:
a reorder can move published URLs. Node ids are the service's ids (unique across kinds in practice).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from folio.api import limits
from folio.api.errors import InvalidRequest, NotOffered
from folio.models.site_structure import (
    SiteExternalLink,
    SiteSection,
    SiteSectionGroup,
    SiteSectionsStructure,
    SiteSpace,
)

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.site import Site
    from folio.models.site_structure import SiteStructure

__all__ = [
    "EDITABLE",
    "GROUP",
    "LINK",
    "SECTION",
    "SPACE",
    "EditFailed",
    "Layout",
    "Move",
    "Node",
    "Offered",
    "Operation",
    "Plan",
    "Spot",
    "StepFailed",
    "StructureService",
    "StructureTree",
    "Unsupported",
    "build_plan",
    "build_tree",
    "field_problems",
    "into_group",
    "operations",
    "out_of_group",
    "simulate",
    "spots",
    "step",
]

GROUP, SECTION, SPACE, LINK = "site-section-group", "site-section", "site-space", "site-external-link"
NOUNS = {GROUP: "group", SECTION: "section", SPACE: "site space", LINK: "link"}
EDITABLE: dict[str, tuple[str, ...]] = {
    SECTION: ("title", "path", "icon", "description", "condition", "default"),
    GROUP: ("title", "icon"),
    SPACE: ("path", "condition", "hidden", "default"),
}
"""The fields the service lets change, by kind (a site space's title is its space's; links have no update)."""
_LENGTHS = {"path": (1, 100), "icon": (0, 50), "description": (0, 256), "condition": (0, 1024)}
NULLABLE = ("icon", "description", "condition")
"""Fields an empty value removes (sent as null)."""


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


@dataclass(slots=True)
class Spot:
    """Where a moving item may land: ``index`` in ``parent``; ``line`` is the row of the gap in the tree drawn
    without the item, ``depth`` the depth the item would have. (Not frozen: hundreds are made per move.)"""

    parent: str | None
    index: int
    depth: int
    line: int


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


# --- what may go where ------------------------------------------------------------------------------------------


def spots(tree: StructureTree, item: str, layout: Layout | None = None) -> list[Spot]:
    """Every place ``item`` may land, in the order of the tree's rows (deeper first where gaps coincide):
    sections and groups at the root or in any group but their own; site spaces and links among their
    siblings."""
    layout = layout or tree.layout
    nodes, home, children = tree.nodes, layout.parent[item], layout.children
    free = nodes[item].kind in (SECTION, GROUP)
    out: list[Spot] = []
    line = 0

    def size(key: str) -> int:
        kids = children.get(key, ())
        total = len(kids)
        for kid in kids:
            if kid in children:
                total += size(kid)
        return total

    def visit(parent: str | None, depth: int) -> None:
        # Only groups (and the home of a site space) hold spots: a section's site spaces are counted, not walked.
        nonlocal line
        kids = [k for k in children.get(parent, ()) if k != item]
        allowed = (parent is None or nodes[parent].kind == GROUP) if free else parent == home
        for n, kid in enumerate(kids):
            if allowed:
                out.append(Spot(parent, n, depth, line))
            line += 1
            if kid in children:
                if nodes[kid].kind == GROUP or kid == home:
                    visit(kid, depth + 1)
                else:
                    line += size(kid)
        if allowed:
            out.append(Spot(parent, len(kids), depth, line))

    visit(None, 0)
    return out


def spot_index(found: Sequence[Spot], parent: str | None, index: int) -> int | None:
    return next((n for n, s in enumerate(found) if s.parent == parent and s.index == index), None)


def _to(layout: Layout, item: str, spot: Spot | None) -> Move | None:
    if spot is None:
        return None
    parent, index = layout.position(item)
    if (spot.parent, spot.index) == (parent, index):
        return None
    return Move(item, parent, index, spot.parent, spot.index)


def step(tree: StructureTree, layout: Layout, item: str, delta: int) -> Move | None:
    """One landing spot up (-1) or down (+1), into and out of groups on the way; None at either end."""
    found = spots(tree, item, layout)
    at = spot_index(found, *layout.position(item))
    if at is None or not 0 <= at + delta < len(found):
        return None
    return _to(layout, item, found[at + delta])


def out_of_group(tree: StructureTree, layout: Layout, item: str) -> Move | None:
    """Out of the group holding ``item``, just after it."""
    parent = layout.parent[item]
    if parent is None or tree.nodes[parent].kind != GROUP or tree.nodes[item].kind not in (SECTION, GROUP):
        return None
    outer, index = layout.position(parent)
    found = spots(tree, item, layout)
    at = spot_index(found, outer, index + 1)
    return _to(layout, item, found[at] if at is not None else None)


def into_group(tree: StructureTree, layout: Layout, item: str) -> Move | None:
    """Into the group just above ``item`` (at its end), else the one just below (at its start)."""
    if tree.nodes[item].kind not in (SECTION, GROUP):
        return None
    parent, index = layout.position(item)
    kids = [k for k in layout.kids(parent) if k != item]
    found = spots(tree, item, layout)
    for neighbour, end in ((index - 1, True), (index, False)):
        if 0 <= neighbour < len(kids) and tree.nodes[kids[neighbour]].kind == GROUP:
            group = kids[neighbour]
            at = spot_index(found, group, len(layout.kids(group)) if end else 0)
            return _to(layout, item, found[at] if at is not None else None)
    return None


# --- operations -------------------------------------------------------------------------------------------------


@dataclass
class Offered:
    """What this service offers, learned as it answers (NotOffered turns a flag off for the client's life)."""

    sort: bool = True
    section_group_update: bool = True
    add_to_group: bool = True
    site_space_move: bool = True


@dataclass(frozen=True)
class Operation:
    """One request: ``verb`` is sort, update-section, update-group, add-to-group, move-site-space or
    move-section; ``parent`` for the first three updates, ``before``/``after`` (kind, id) for the reorders."""

    verb: str
    item: str
    kind: str
    parent: str | None = None
    before: tuple[str, str] | None = None
    after: tuple[str, str] | None = None

    def describe(self, tree: StructureTree) -> str:
        what = tree.name(self.item)
        where = (
            f"before {tree.name(self.before[1])}"
            if self.before
            else f"after {tree.name(self.after[1])}"
            if self.after
            else "to the end"
        )
        return {
            "sort": f"Sort {what} {where} (structure sort)",
            "move-section": f"Move {what} {where} (section move, deprecated)",
            "move-site-space": f"Move {what} {where} (site space move)",
            "update-section": f"Put {what} in {tree.name(self.parent)} (section update)",
            "update-group": f"Put {what} in {tree.name(self.parent)} (group update)",
            "add-to-group": f"Add {what} to {tree.name(self.parent)} (add a section to a group)",
        }[self.verb]


class Unsupported(Exception):
    """A move this service has no operation for."""

    def describe(self) -> str:
        return str(self)


def operations(tree: StructureTree, layout: Layout, move: Move, offered: Offered) -> list[Operation]:
    """The requests that make ``move`` on this service, from ``layout`` (where the item is now)."""
    item, node = move.id, tree.nodes[move.id]
    kind = node.kind
    ops: list[Operation] = []
    siblings = layout.kids(move.to_parent)
    if layout.parent[item] != move.to_parent:
        if kind == SECTION and offered.section_group_update:
            ops.append(Operation("update-section", item, kind, parent=move.to_parent))
        elif kind == SECTION and move.to_parent is not None and offered.add_to_group:
            ops.append(Operation("add-to-group", item, kind, parent=move.to_parent))
        elif kind == GROUP:
            ops.append(Operation("update-group", item, kind, parent=move.to_parent))
        elif kind == SPACE:
            raise Unsupported("A site space stays in its section: the service has no operation to move it out.")
        else:
            raise Unsupported(f"This service offers no operation to put a {node.noun} in {tree.name(move.to_parent)}.")
        siblings = [*siblings, item]
    rest = [k for k in siblings if k != item]
    target = [*rest[: move.to_index], item, *rest[move.to_index :]]
    if target == siblings:
        return ops
    after = target[move.to_index - 1] if move.to_index > 0 else None
    before = target[move.to_index + 1] if move.to_index + 1 < len(target) else None
    ptr = (tree.nodes[before].kind, before) if before else None
    aptr = (tree.nodes[after].kind, after) if after and not before else None
    if kind == SPACE and offered.site_space_move:
        ops.append(Operation("move-site-space", item, kind, before=ptr, after=aptr))
    elif offered.sort:
        ops.append(Operation("sort", item, kind, before=ptr, after=aptr))
    elif kind == SECTION and (before is None or tree.nodes[before].kind == SECTION):
        ops.append(Operation("move-section", item, kind, before=ptr, after=None if ptr else aptr))
    elif kind == SECTION and after and tree.nodes[after].kind == SECTION:
        ops.append(Operation("move-section", item, kind, after=(SECTION, after)))
    elif kind == SPACE:
        raise Unsupported(
            f"This service offers neither the site space move nor the structure sort: {tree.name(item)} keeps "
            "its place among its section's site spaces."
        )
    elif kind != SECTION:
        raise Unsupported(
            f"This service offers no structure sort, the only operation that reorders a {node.noun}: "
            f"{tree.name(item)} keeps its place."
        )
    else:
        raise Unsupported(
            f"This service offers no structure sort, and the deprecated section move cannot place "
            f"{tree.name(item)} next to a {tree.nodes[before or item].noun}."
        )
    return ops


def simulate(layout: Layout, op: Operation) -> None:
    """What a successful ``op`` did to the service's structure."""
    item = op.item
    if op.verb in ("update-section", "update-group", "add-to-group"):
        layout.place(item, op.parent, len([k for k in layout.kids(op.parent) if k != item]))
        return
    parent = layout.parent[item]
    rest = [k for k in layout.kids(parent) if k != item]
    index = len(rest)
    if op.before:
        index = rest.index(op.before[1])
    elif op.after:
        index = rest.index(op.after[1]) + 1
    layout.place(item, parent, index)


# --- plans ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UrlChange:
    """A published URL a plan moves: ``title`` names the node (“section “A””); None: no URL."""

    id: str
    title: str
    old: str | None
    new: str | None


@dataclass
class PlanStep:
    move: Move
    label: str
    operations: list[Operation]
    problem: str | None = None


@dataclass
class Plan:
    """What a batch of moves sends, step by step, and every published URL it moves."""

    steps: list[PlanStep]
    urls: list[UrlChange]
    published: bool

    @property
    def moves(self) -> list[Move]:
        return [s.move for s in self.steps]

    @property
    def sendable(self) -> bool:
        return all(s.problem is None for s in self.steps)


def describe_move(tree: StructureTree, layout: Layout, move: Move) -> str:
    """``Move section “A” to group “G”, before section “B”`` (``layout``: before the move)."""
    rest = [k for k in layout.kids(move.to_parent) if k != move.id]
    near = f"before {tree.name(rest[move.to_index])}" if move.to_index < len(rest) else "at the end"
    if move.to_parent != layout.parent.get(move.id):
        return f"Move {tree.name(move.id)} to {tree.name(move.to_parent)}, {near}"
    if move.to_index >= len(rest):
        near = f"to the end of {tree.name(move.to_parent)}"
    return f"Move {tree.name(move.id)} {near}"


def build_plan(tree: StructureTree, start: Layout, moves: Sequence[Move], offered: Offered) -> Plan:
    """The steps of ``moves`` replayed from ``start`` (the service's structure), with the URLs that move."""
    layout = start.copy()
    steps: list[PlanStep] = []
    for move in moves:
        label = describe_move(tree, layout, move)
        try:
            ops = operations(tree, layout, move, offered)
            problem = None
        except Unsupported as exc:
            ops, problem = [], str(exc)
        steps.append(PlanStep(move, label, ops, problem))
        layout.apply(move)
    _, old = tree.resolve(start)
    _, new = tree.resolve(layout)
    urls = [
        UrlChange(key, tree.name(key), old.get(key), new.get(key))
        for key in (k for k in start.walk() if k in old or k in new)
        if old.get(key) != new.get(key)
    ]
    return Plan(steps, urls, tree.base_url is not None)


# --- limits -----------------------------------------------------------------------------------------------------


def field_problems(kind: str, values: dict[str, Any]) -> dict[str, str]:
    """What breaks the spec's limits in ``values`` (field -> problem in words), before anything is sent; None
    (and so an empty icon, description or condition) removes the value."""
    out: dict[str, str] = {}
    for name, value in values.items():
        bounds = ((1, 100) if kind == GROUP else (2, 128)) if name == "title" else _LENGTHS.get(name)
        if bounds is None or (value is None and name in NULLABLE) or not isinstance(value, str | None):
            continue
        try:
            limits.check_length(name, value or "", min=bounds[0], max=bounds[1])
        except InvalidRequest as exc:
            out[name] = f"{exc.problem} ({exc.limit})"
    return out


# --- applying ---------------------------------------------------------------------------------------------------


class StepFailed(Exception):
    """Step ``index`` of a run failed; ``stranded`` when part of it stayed on the service."""

    def __init__(self, index: int, move: Move, cause: BaseException, *, stranded: bool = False) -> None:
        self.index, self.move, self.cause, self.stranded = index, move, cause, stranded
        self.status = getattr(cause, "status", None)
        super().__init__(self.describe())

    def describe(self) -> str:
        describe = getattr(self.cause, "describe", None)
        text = describe() if callable(describe) else f"{type(self.cause).__name__}: {self.cause}"
        if self.stranded:
            text += " Part of this step stayed on the service; press r to reload the structure."
        return str(text)


Progress = Callable[[int, int, str], None]
"""``progress(done, total, label)``: called before each step and once at the end."""


class StructureService:
    """Reads a site's structure and sends its changes, learning what this service offers as it goes."""

    def __init__(self, client: GitBookClient) -> None:
        self.client = client
        self.offered = Offered()

    async def load(self, org_id: str, site_id: str) -> StructureTree:
        site, structure = await asyncio.gather(
            self.client.sites.get(org_id, site_id), self.client.sites.structure(org_id, site_id)
        )
        return build_tree(org_id, site_id, site, structure)

    async def spaces(self, org_id: str) -> list[tuple[str, str]]:
        """The organization's spaces as (id, title), by title: what a new section or site space can show."""
        found = await self.client.spaces.summaries(org_id, limit=1000).collect()
        return sorted(((s.id, s.title or s.id) for s in found if not s.deleted), key=lambda p: p[1].lower())

    # -- moves ---------------------------------------------------------------------------------------------------

    async def apply(
        self, tree: StructureTree, layout: Layout, moves: Sequence[Move], progress: Progress | None = None
    ) -> int:
        """Send ``moves`` in order; ``layout`` (the service's structure) follows each request that succeeds.
        Raises :class:`StepFailed` at the first failure, after taking back the part of that step that was sent."""
        total = len(moves)
        for n, move in enumerate(moves):
            if progress:
                progress(n, total, describe_move(tree, layout, move))
            start = layout.position(move.id)
            try:
                await self._move(tree, layout, move.id, move.to_parent, move.to_index)
            except Exception as exc:
                stranded = False
                if layout.position(move.id) != start:
                    try:
                        await self._move(tree, layout, move.id, *start)
                    except Exception:
                        stranded = True
                raise StepFailed(n, move, exc, stranded=stranded) from exc
        if progress:
            progress(total, total, "Done")
        return total

    async def undo(
        self, tree: StructureTree, layout: Layout, moves: Sequence[Move], progress: Progress | None = None
    ) -> int:
        """Take back ``moves`` (already applied), last first."""
        return await self.apply(tree, layout, [m.inverse() for m in reversed(moves)], progress)

    async def _move(self, tree: StructureTree, layout: Layout, item: str, parent: str | None, index: int) -> None:
        # Re-planned after every answer: a NotOffered turns to the next way of doing the rest of the move.
        while True:
            here, at = layout.position(item)
            ops = operations(tree, layout, Move(item, here, at, parent, index), self.offered)
            if not ops:
                return
            try:
                await self._send(tree, ops[0])
            except NotOffered:
                if not self._learn(ops[0].verb):
                    raise
                continue
            simulate(layout, ops[0])

    def _learn(self, verb: str) -> bool:
        flags = {
            "sort": "sort",
            "update-section": "section_group_update",
            "add-to-group": "add_to_group",
            "move-site-space": "site_space_move",
        }
        name = flags.get(verb)
        if name is None or not getattr(self.offered, name):
            return False
        setattr(self.offered, name, False)
        return True

    async def _send(self, tree: StructureTree, op: Operation) -> None:
        c, org, site = self.client, tree.org_id, tree.site_id
        before = op.before[1] if op.before else None
        after = op.after[1] if op.after else None
        if op.verb == "sort":
            await c.sites.sort_structure(org, site, (op.kind, op.item), before=op.before, after=op.after)
        elif op.verb == "move-site-space":
            await c.site_spaces.move(org, site, op.item, before=before, after=after)
        elif op.verb == "move-section":
            await c.site_sections.move(org, site, op.item, before=before, after=after)
        elif op.verb == "update-group":
            await c.sites.update_section_group(org, site, op.item, parent=op.parent)
        elif op.verb == "add-to-group":
            await c.sites.add_section_to_group(org, site, str(op.parent), op.item)
        else:
            answer = await c.site_sections.update(org, site, op.item, section_group=op.parent)
            if answer.section_group != op.parent:  # an older service ignores siteSectionGroupId
                raise NotOffered("The section update did not change the section's group.")

    # -- edits, new items, removals ------------------------------------------------------------------------------

    async def edit(self, tree: StructureTree, item: str, changes: dict[str, Any]) -> None:
        """Send a node's changed fields (the update of its kind), then ``default`` (the site's or the section's
        update). Raises :class:`EditFailed` naming what was saved when only part went through."""
        node, c, org, site = tree.nodes[item], self.client, tree.org_id, tree.site_id
        fields = {k: v for k, v in changes.items() if k != "default"}
        if fields and node.kind == SECTION:
            await c.site_sections.update(org, site, item, **fields)
        elif fields and node.kind == GROUP:
            await c.sites.update_section_group(org, site, item, **fields)
        elif fields and node.kind == SPACE:
            await c.site_spaces.update(org, site, item, **fields)
        elif fields:
            raise Unsupported(f"This service offers no update of a {node.noun}.")
        if not changes.get("default"):
            return
        try:
            owner = tree.layout.parent[item]
            if node.kind == SECTION:
                await c.sites.update(org, site, default_site_section=item)
            elif owner is None:
                await c.sites.update(org, site, default_site_space=item)
            else:
                await c.site_sections.update(org, site, owner, default_site_space=item)
        except Exception as exc:
            if not fields:
                raise
            raise EditFailed(exc, tuple(fields)) from exc

    async def create_section(
        self, tree: StructureTree, space_id: str, *, title: str | None, icon: str | None, group: str | None
    ) -> str:
        section = await self.client.site_sections.create(
            tree.org_id, tree.site_id, space_id, title=title, icon=icon, section_group=group
        )
        return section.id

    async def create_group(
        self, tree: StructureTree, title: str, *, icon: str | None, sections: Sequence[str], parent: str | None
    ) -> str:
        group = await self.client.sites.create_section_group(
            tree.org_id, tree.site_id, title, icon=icon, sections=list(sections) or None, parent=parent
        )
        return group.id

    async def create_site_space(self, tree: StructureTree, space_id: str, *, section: str | None) -> str:
        ss = await self.client.site_spaces.create(tree.org_id, tree.site_id, space_id, section_id=section)
        return ss.id

    async def delete(self, tree: StructureTree, item: str, kind: str | None = None) -> None:
        """Remove a node (``kind`` when the tree no longer holds it): a section with its site spaces, a group
        leaving its children in its place."""
        kind = kind or tree.nodes[item].kind
        c, org, site = self.client, tree.org_id, tree.site_id
        if kind == SECTION:
            await c.site_sections.delete(org, site, item)
        elif kind == GROUP:
            await c.sites.delete_section_group(org, site, item)
        elif kind == SPACE:
            await c.site_spaces.delete(org, site, item)
        else:
            raise Unsupported(f"This service offers no removal of a {NOUNS.get(kind, 'item')}.")


class EditFailed(Exception):
    """The fields of an edit were saved (``applied``), its default was not."""

    def __init__(self, cause: BaseException, applied: tuple[str, ...]) -> None:
        self.cause, self.applied = cause, applied
        self.status = getattr(cause, "status", None)
        super().__init__(self.describe())

    def describe(self) -> str:
        describe = getattr(self.cause, "describe", None)
        text = describe() if callable(describe) else str(self.cause)
        return f"{text} (saved: {', '.join(self.applied)}; not saved: default)"
