"""An organization's collections and spaces as one tree that can be rearranged, and the writes on collections
(spec 2.5, 4.7): create, rename and describe, default role, delete, transfer, and moving a space or a collection
with its ``parent`` and ``position``.

The tree (:class:`ContentTree`) is a :class:`~folio.services.sites.structure.Layout` of keys: ``c:<id>`` for a
collection, ``s:<id>`` for a space, and :data:`LOOSE` for the spaces in no collection (the organization's root,
shown last). Under a parent the collections come first, then the spaces, each in the order the service lists
them: the lists say nothing of how spaces and collections interleave, so a move keeps spaces among spaces and
collections among collections (the position it sends names a neighbour of the same kind, or says "after the
collections" / "before the spaces").

    tree = content_tree(build_tree(collections, spaces))
    found = content_spots(tree, "s:abc")                  # where the space may land, in the order of the rows
    move = placement(tree, "s:abc")                       # after it was placed: parent, before / after
    await service.move(move)

No Textual here.
"""

from __future__ import annotations

from collections.abc import Collection as Many
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from folio.api.errors import Conflict, NotFound
from folio.api.resources.collections import COLLECTION_DESCRIPTION_MAX, COLLECTION_TITLE_MAX
from folio.models.common import ROLES
from folio.models.space import ContentPointer
from folio.services import format
from folio.services.reconcile import send_or_read
from folio.services.sites.structure import Layout, Spot

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.organization import Organization
    from folio.models.space import Collection, SpaceSummary
    from folio.services import Services
    from folio.services.browse import CollectionNode, OrgTree

__all__ = [
    "DEFAULT_LEVELS",
    "LOOSE",
    "CollectionsService",
    "ContentTree",
    "Placement",
    "check_collection",
    "content_spots",
    "content_tree",
    "delete_consequence",
    "into_collection",
    "out_of_collection",
    "placement",
    "visible_rows",
]

LOOSE = "loose"
"""The key of the "Not in a collection" node: the organization's root, for spaces."""
DEFAULT_LEVELS: tuple[tuple[str, str], ...] = (
    ("inherit: as the organization says", "inherit"),
    *((role, role) for role in ROLES),
)
"""The default roles a collection (or a space) may give members, as ``(label, value)``."""

Kind = Literal["space", "collection"]


def is_collection(key: str | None) -> bool:
    return key is not None and key.startswith("c:")


def is_space(key: str | None) -> bool:
    return key is not None and key.startswith("s:")


@dataclass
class ContentTree:
    """Who is where (``layout``), and the collection or space of each key."""

    layout: Layout = field(default_factory=Layout)
    collections: dict[str, Collection] = field(default_factory=dict)
    spaces: dict[str, SpaceSummary] = field(default_factory=dict)

    def name(self, key: str | None) -> str:
        """``collection “Guides”``, ``space “User Guide”``, ``the root``."""
        if key is None or key == LOOSE:
            return "the root (no collection)"
        if is_collection(key):
            c = self.collections[key]
            return f"collection “{c.title or c.id}”"
        s = self.spaces[key]
        return f"space “{s.title or s.id}”"

    def collection_id(self, key: str | None) -> str | None:
        """The collection id a parent key stands for (None: the root)."""
        return self.collections[key].id if is_collection(key) and key in self.collections else None

    def collections_in(self, parent: str | None, *, leaving: str | None = None) -> int:
        """How many collections ``parent`` holds (``leaving`` not counted)."""
        return sum(1 for k in self.layout.kids(parent) if is_collection(k) and k != leaving)

    def spaces_under(self, key: str) -> int:
        """Spaces in ``key`` and every collection under it."""
        return sum(1 if is_space(kid) else self.spaces_under(kid) for kid in self.layout.kids(key))

    def collections_under(self, key: str) -> int:
        """Collections under ``key`` at any depth."""
        return sum(1 + self.collections_under(kid) for kid in self.layout.kids(key) if is_collection(kid))


def content_tree(org: OrgTree) -> ContentTree:
    """The layout of an organization's tree: collections (then their collections, then their spaces), and the
    spaces in no collection under :data:`LOOSE`, last at the root."""
    tree = ContentTree()

    def add(node: CollectionNode, parent: str | None) -> None:
        key = f"c:{node.collection.id}"
        tree.collections[key] = node.collection
        tree.layout.add(parent, key)
        tree.layout.children.setdefault(key, [])
        for child in node.children:
            add(child, key)
        for space in node.spaces:
            tree.spaces[f"s:{space.id}"] = space
            tree.layout.add(key, f"s:{space.id}")

    for root in org.roots:
        add(root, None)
    tree.layout.add(None, LOOSE)
    tree.layout.children.setdefault(LOOSE, [])
    for space in org.loose:
        tree.spaces[f"s:{space.id}"] = space
        tree.layout.add(LOOSE, f"s:{space.id}")
    return tree


def _container(key: str) -> bool:
    return key == LOOSE or is_collection(key)


def _shown(tree: ContentTree, key: str, held: str | None) -> bool:
    """The "Not in a collection" node shows when it holds spaces, or while a space is in hand (to land there)."""
    return key != LOOSE or bool(tree.layout.kids(LOOSE)) or is_space(held)


def visible_rows(tree: ContentTree, collapsed: Many[str] = (), held: str | None = None) -> list[tuple[str, int]]:
    """The rows the tree shows, as (key, depth), depth first. A folded collection hides what it holds, except the
    node in hand (``held``) when it was put there: it shows just under the folded row."""
    out: list[tuple[str, int]] = []
    layout = tree.layout

    def visit(parent: str | None, depth: int) -> None:
        for kid in layout.kids(parent):
            if not _shown(tree, kid, held):
                continue
            out.append((kid, depth))
            if not _container(kid):
                continue
            if kid in collapsed:
                if held is not None and layout.parent.get(held) == kid:
                    out.append((held, depth + 1))
                    if _container(held) and held not in collapsed:
                        visit(held, depth + 2)
            else:
                visit(kid, depth + 1)

    visit(None, 0)
    return out


def content_spots(tree: ContentTree, item: str, collapsed: Many[str] = ()) -> list[Spot]:
    """Every place ``item`` may land, in the order of the rows (deeper first where gaps coincide): a space among
    the spaces of any collection or of the root; a collection among the collections of the root or of any
    collection but itself and those under it. A folded collection offers one spot: at its end."""
    layout, space = tree.layout, is_space(item)
    out: list[Spot] = []
    line = 0

    def holds(parent: str | None) -> bool:
        return (parent is not None and _container(parent)) if space else (parent is None or is_collection(parent))

    def first(parent: str | None) -> int:
        return tree.collections_in(parent, leaving=item) if space else 0

    def last(parent: str | None, kids: list[str]) -> int:
        return len(kids) if space else tree.collections_in(parent, leaving=item)

    def visit(parent: str | None, depth: int) -> None:
        nonlocal line
        kids = [k for k in layout.kids(parent) if k != item]
        ok = holds(parent)
        low, high = first(parent), last(parent, kids)
        for n, kid in enumerate(kids):
            if ok and low <= n <= high:
                out.append(Spot(parent, n, depth, line))
            if not _shown(tree, kid, item):
                continue
            line += 1
            if not _container(kid):
                continue
            if kid in collapsed:
                if holds(kid):
                    inside = [k for k in layout.kids(kid) if k != item]
                    out.append(Spot(kid, last(kid, inside), depth + 1, line))
            else:
                visit(kid, depth + 1)
        if ok and low <= len(kids) <= high:
            out.append(Spot(parent, len(kids), depth, line))

    visit(None, 0)
    return out


def out_of_collection(tree: ContentTree, item: str) -> tuple[str | None, int] | None:
    """Where ``item`` goes out of its collection: a collection just after it in the collection above; a space
    among the first spaces of the collection above (of the root for a top-level collection). None: it is at the
    root already."""
    layout = tree.layout
    parent = layout.parent.get(item)
    if parent is None or parent == LOOSE:
        return None
    outer = layout.parent.get(parent)
    if is_space(item):
        target = LOOSE if outer is None else outer
        return target, tree.collections_in(target, leaving=item)
    index = [k for k in layout.kids(outer) if k != item].index(parent)
    return outer, index + 1


def into_collection(tree: ContentTree, item: str) -> tuple[str | None, int] | None:
    """Where ``item`` goes into the collection next to it: a space into the last collection beside it (the
    nearest above it), at the end; a collection into the one just above it (at the end of its collections), else
    the one just below (at their start). None: no collection is next to it."""
    layout = tree.layout
    parent = layout.parent.get(item)
    if is_space(item):
        beside = [k for k in layout.kids(None if parent == LOOSE else parent) if is_collection(k)]
        if not beside:
            return None
        target = beside[-1]
        return target, len([k for k in layout.kids(target) if k != item])
    siblings = [k for k in layout.kids(parent) if is_collection(k)]
    index = siblings.index(item)
    if index > 0:
        above = siblings[index - 1]
        return above, tree.collections_in(above, leaving=item)
    if index + 1 < len(siblings):
        return siblings[index + 1], 0
    return None


@dataclass(frozen=True)
class Placement:
    """A move as the service takes it: the space or collection ``id``, its new ``parent`` (a collection id; None:
    the root) and its neighbour (``before`` it or ``after`` it; neither: alone there)."""

    kind: Kind
    id: str
    parent: str | None
    before: ContentPointer | None = None
    after: ContentPointer | None = None

    def body(self) -> dict[str, Any]:
        """What the request sends, as JSON (for tests and the debug log)."""
        out: dict[str, Any] = {"parent": self.parent}
        position = {
            side: pointer.model_dump(mode="json", exclude_none=True)
            for side, pointer in (("before", self.before), ("after", self.after))
            if pointer is not None
        }
        if position:
            out["position"] = position
        return out


def _pointer(tree: ContentTree, key: str) -> ContentPointer:
    if is_collection(key):
        return ContentPointer.to_collection(tree.collections[key].id)
    return ContentPointer.to_space(tree.spaces[key].id)


def placement(tree: ContentTree, item: str) -> Placement:
    """The move that puts ``item`` where the layout now has it: next to a neighbour of its own kind, else after
    the collections (a space) or before the spaces (a collection) of its new parent."""
    parent = tree.layout.parent[item]
    kids = tree.layout.kids(parent)
    same = [k for k in kids if is_space(k) == is_space(item) and k != LOOSE]
    index = same.index(item)
    kind: Kind = "space" if is_space(item) else "collection"
    ident = tree.spaces[item].id if is_space(item) else tree.collections[item].id
    target = tree.collection_id(parent)
    if index + 1 < len(same):
        return Placement(kind, ident, target, before=_pointer(tree, same[index + 1]))
    if index > 0:
        return Placement(kind, ident, target, after=_pointer(tree, same[index - 1]))
    others = [k for k in kids if k != LOOSE and k not in same]
    if others and kind == "space":
        return Placement(kind, ident, target, after=_pointer(tree, others[-1]))
    if others:
        return Placement(kind, ident, target, before=_pointer(tree, others[0]))
    return Placement(kind, ident, target)


def check_collection(values: Mapping[str, Any]) -> dict[str, str]:
    """The spec's limits on a collection's fields: ``{field: problem}``."""
    problems: dict[str, str] = {}
    title = str(values.get("title") or "")
    if "title" in values:
        if not title.strip():
            problems["title"] = f"A collection needs a title (1 to {COLLECTION_TITLE_MAX} characters)."
        elif len(title) > COLLECTION_TITLE_MAX:
            problems["title"] = f"At most {COLLECTION_TITLE_MAX} characters: this title has {len(title)}."
    description = str(values.get("description") or "")
    if len(description) > COLLECTION_DESCRIPTION_MAX:
        problems["description"] = f"At most {COLLECTION_DESCRIPTION_MAX} characters: this has {len(description)}."
    level = values.get("default_level")
    if level is not None and level not in {value for _, value in DEFAULT_LEVELS}:
        problems["default_level"] = "Pick one of the roles offered."
    return problems


def delete_consequence(spaces: int, collections: int) -> str:
    """What deleting a collection does to what it holds, in words."""
    parts = []
    if collections:
        parts.append(f"the {format.count(collections, 'collection')} inside it are deleted with it")
    if spaces:
        parts.append(
            f"its {format.count(spaces, 'space')} are deleted too (each can be restored for 7 days, then it is "
            "removed for good; a restored space comes back outside any collection)"
        )
    if not parts:
        return "It holds no space and no collection."
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


class CollectionsService:
    """The writes on an organization's collections, and the moves of its spaces and collections."""

    def __init__(self, client: GitBookClient, services: Services | None = None) -> None:
        self._client = client
        self._services = services

    def _changed(self, *org_ids: str | None) -> None:
        if self._services is not None:
            for org_id in org_ids:
                self._services.changes.bump(("spaces",), ("spaces", org_id), ("collections", org_id))

    async def create(self, org_id: str, title: str, *, parent: str | None = None) -> Collection:
        made = await self._client.collections.create(org_id, title=title, parent=parent)
        self._changed(org_id)
        return made

    async def find(self, org_id: str, title: str, *, parent: str | None = None, known: Many[str] = ()) -> Any:
        """A collection titled ``title`` under ``parent`` that is not one of ``known`` (the ids there were
        before a create whose answer was lost), or None."""
        found = await self._client.collections.list(org_id, limit=1000).collect()
        return next((c for c in found if c.title == title and c.parent == parent and c.id not in known), None)

    async def collections(self, org_id: str) -> list[Collection]:
        return await self._client.collections.list(org_id, limit=1000).collect()

    async def get(self, collection_id: str) -> Collection:
        return await self._client.collections.get(collection_id)

    async def update(self, collection: Collection, changes: Mapping[str, Any]) -> Collection:
        """Send the fields that changed (``title``, ``description``, ``default_level``)."""
        sent = await self._client.collections.update(collection.id, **dict(changes))
        self._changed(collection.organization)
        return sent

    async def delete(self, collection: Collection) -> bool:
        """Delete it (and what it holds: see :func:`delete_consequence`). False when it was gone already."""
        existed = await self._client.collections.delete(collection.id)
        self._changed(collection.organization)
        return existed

    async def transfer(self, collection: Collection, org_id: str) -> Collection:
        """Move it to organization ``org_id``; after a lost answer (or a 409: it is there already) the collection
        is read, and found there it is what is returned (see :mod:`folio.services.reconcile`)."""

        async def read() -> Collection | None:
            now = await self._client.collections.get(collection.id)
            return now if now.organization == org_id else None

        moved = await send_or_read(
            lambda: self._client.collections.transfer(collection.id, organization=org_id),
            read,
            refused=(Conflict,),
            what="the collection",
        )
        self._changed(collection.organization, org_id)
        return moved

    async def move(self, move: Placement, org_id: str | None = None) -> None:
        """Send a move of a space or a collection; after a lost answer (or a 409: it is there already) the
        organization's tree is read and the move is done when the item is where it was sent."""
        resource = self._client.spaces if move.kind == "space" else self._client.collections

        async def send() -> bool:
            await resource.move(move.id, parent=move.parent, before=move.before, after=move.after)
            return True

        async def read() -> bool | None:
            from folio.services.content.placed import placed_now

            return True if await placed_now(self._client, move, org_id) else None

        await send_or_read(send, read, refused=(Conflict,), what="the organization's tree")
        self._changed(org_id)

    async def organizations(self, leaving: str) -> list[Organization]:
        """The organizations the caller belongs to, other than ``leaving``: where a transfer can go (the service
        says whether the caller's role there lets it)."""
        found = await self._client.organizations.list().collect()
        return [org for org in found if org.id != leaving]

    async def exists(self, collection_id: str) -> bool:
        try:
            await self._client.collections.get(collection_id)
        except NotFound:
            return False
        return True
