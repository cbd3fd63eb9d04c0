"""The organization's content as a tree: nested collections, their spaces under them, then the spaces that are in
no collection under one "Not in a collection" node.

It is a :class:`~folio.tui.widgets.resource_list.ResourceBrowser` whose rows are indented (not a Textual
``Tree``): only the rows on screen are drawn, so an organization with thousands of spaces opens at once, and the
``/`` filter and the list keys work as in every other list. Enter on a collection row folds or unfolds it
(:meth:`CollectionsTree.toggle`); the screen opens spaces.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from textual.content import Content

from folio.tui.safe import safe
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, Row

if TYPE_CHECKING:
    from folio.models.space import SpaceSummary
    from folio.services.browse import CollectionNode, OrgTree

__all__ = ["LOOSE", "CollectionsTree", "tree_rows", "visibility_words"]

LOOSE = "loose"
"""The key of the "Not in a collection" row."""
OPEN, SHUT = "▾", "▸"

COLUMNS = (
    Column("title", "Collection / space"),
    Column("kind", "Kind", 13),
    Column("crs", "Open CRs", 8, align="right"),
    Column("updated", "Updated", 9),
)


def visibility_words(visibility: str) -> str:
    """``share-link`` -> ``share link``: a space's visibility as a person reads it."""
    return visibility.replace("-", " ")


def _space_row(space: SpaceSummary, depth: int, age: Callable[[datetime | None], str]) -> Row:
    title = safe(space.title or space.id, limit=120)
    return Row(
        key=f"s:{space.id}",
        cells=[title, visibility_words(space.visibility), str(space.change_requests_open or ""), age(space.updated_at)],
        indent=depth,
        data=space,
    )


def tree_rows(tree: OrgTree, collapsed: set[str], age: Callable[[datetime | None], str]) -> list[Row]:
    """The rows of ``tree``, depth first: each collection, then its collections, then its spaces. Rows under a
    collection whose key is in ``collapsed`` are left out."""
    rows: list[Row] = []

    def add(node: CollectionNode, depth: int) -> None:
        key = f"c:{node.collection.id}"
        shut = key in collapsed
        count = node.space_count()
        title = safe(node.collection.title or node.collection.id, limit=120)
        rows.append(
            Row(
                key=key,
                cells=[
                    Content(f"{SHUT if shut else OPEN} ") + title,
                    f"{count} space{'' if count == 1 else 's'}",
                    "",
                    "",
                ],
                indent=depth,
                style="bold",
                data=node.collection,
            )
        )
        if shut:
            return
        for child in node.children:
            add(child, depth + 1)
        rows.extend(_space_row(space, depth + 1, age) for space in node.spaces)

    for root in tree.roots:
        add(root, 0)
    if tree.loose:
        shut = LOOSE in collapsed
        count = len(tree.loose)
        rows.append(
            Row(
                key=LOOSE,
                cells=[
                    f"{SHUT if shut else OPEN} Not in a collection",
                    f"{count} space{'' if count == 1 else 's'}",
                    "",
                    "",
                ],
                style="bold",
            )
        )
        if not shut:
            rows.extend(_space_row(space, 1, age) for space in tree.loose)
    return rows


class CollectionsTree(ResourceBrowser):
    """Collections and their spaces, indented; :meth:`show` draws a tree, :meth:`toggle` folds a collection."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(COLUMNS, empty="This organization has no collections or spaces yet.", id=id, classes=classes)
        self.org_tree: OrgTree | None = None
        self.collapsed: set[str] = set()
        self._age: Callable[[datetime | None], str] = lambda when: ""

    def show(self, tree: OrgTree, age: Callable[[datetime | None], str]) -> None:
        """Draw ``tree`` (the cursor stays on the row it was on); ``age`` says how long ago a time was."""
        self.org_tree = tree
        self._age = age
        self.set_rows(tree_rows(tree, self.collapsed, age))

    def toggle(self, key: str) -> bool:
        """Fold or unfold the collection (or the "Not in a collection" node) of row ``key``; False when the row
        is a space."""
        if self.org_tree is None or not (key.startswith("c:") or key == LOOSE):
            return False
        self.collapsed.symmetric_difference_update({key})
        self.set_rows(tree_rows(self.org_tree, self.collapsed, self._age), keep=key)
        return True
