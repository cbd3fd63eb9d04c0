"""The rows of the organization's collections tree (:mod:`folio.tui.widgets.collections_tree`): how a tree of
collections and spaces becomes indented rows, and a tree laid out ahead of showing it (in a thread, for a large
organization)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from textual.content import Content

from folio.services.content.collections import LOOSE, ContentTree, visible_rows
from folio.tui.safe import safe
from folio.tui.widgets.resource_list import Column, Row

if TYPE_CHECKING:
    from folio.services.browse import OrgTree

__all__ = ["COLUMNS", "GRAB_KEYS", "HELD", "OPEN", "SHUT", "Prepared", "tree_rows", "visibility_words"]

OPEN, SHUT, HELD = "▾", "▸", "➜ "
GRAB_KEYS = "↑↓ < > move · enter drops · esc puts back"

COLUMNS = (
    Column("title", "Collection / space"),
    Column("kind", "Kind", 13),
    Column("crs", "Open CRs", 8, align="right"),
    Column("updated", "Updated", 10),
)


def visibility_words(visibility: str) -> str:
    """``share-link`` -> ``share link``: a space's visibility as a person reads it."""
    return visibility.replace("-", " ")


def _spaces(n: int) -> str:
    return f"{n} space{'' if n == 1 else 's'}"


def tree_rows(
    tree: ContentTree,
    collapsed: set[str],
    age: Callable[[datetime | None], str],
    held: str | None = None,
) -> list[Row]:
    """The rows of ``tree``, depth first: each collection, then its collections, then its spaces. Rows under a
    collection whose key is in ``collapsed`` are left out (but ``held``, the row in hand, shows where it is)."""
    rows: list[Row] = []
    for key, depth in visible_rows(tree, collapsed, held):
        mark = HELD if key == held else ""
        if key in tree.spaces:
            space = tree.spaces[key]
            crs = str(space.change_requests_open or "")
            named = safe(space.title or space.id, limit=120)
            visibility, updated = visibility_words(space.visibility), age(space.updated_at)
            cells: list[Content | str] = [Content(mark) + named if mark else named, visibility, crs, updated]
            # (the row makes its filter text when asked; a held row's says what it said without the mark)
            search = f"{named.plain} {visibility} {crs} {updated}".lower() if mark else ""
            rows.append(Row(key, cells, search=search, indent=depth, style="bold" if mark else "", data=space))
            continue
        shut = SHUT if key in collapsed else OPEN
        if key == LOOSE:
            title: Content = Content(f"{shut} Not in a collection")
            data = None
        else:
            collection = tree.collections[key]
            title, data = Content(f"{mark}{shut} ") + safe(collection.title or collection.id, limit=120), collection
        rows.append(Row(key, [title, _spaces(tree.spaces_under(key)), "", ""], indent=depth, style="bold", data=data))
    return rows


@dataclass(frozen=True)
class Prepared:
    """A tree laid out ahead of showing it (:meth:`CollectionsTree.prepare`)."""

    tree: OrgTree
    content: ContentTree
    age: Callable[[datetime | None], str]
    collapsed: frozenset[str]
    rows: list[Row]
