"""The organization's content tabs as resource panels: the collections tree and the spaces list.

Both show what one load of the organization's collections and spaces read (the screen's ``load_content``: read
once per visit, not once per tab), so neither fetches on its own: the screen's load feeds them (``LOAD_ON_MOUNT``
is off, and ``r`` asks the screen to read again). What the panel base gives them is the rest: the list and its
states in words, the ``/`` filter, ``enter`` opening the row's route (a space; a collection row folds or unfolds),
``o`` / ``y`` / ``Y`` through :meth:`item_of`, and the go-to of every space loaded.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.content import Content

from folio.models.space import Collection, SpaceSummary
from folio.tui.navigation import Ids, Open
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.widgets.collections_tree import CollectionsTree, visibility_words
from folio.tui.widgets.loading_browser import FocusableBrowser
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from folio.services import Services

__all__ = ["NO_SPACES", "SPACE_COLUMNS", "CollectionsPanel", "ContentPanel", "SpacesPanel", "item_of", "space_row"]

SPACE_COLUMNS = (
    Column("title", "Space"),
    Column("visibility", "Visibility", 13),
    Column("collection", "Collection", 14),
    Column("updated", "Updated", 10),
    Column("crs", "Open CRs", 8, align="right"),
)
NO_SPACES = "This organization has no spaces yet."


def space_row(item: SpaceSummary, titles: dict[str, str], age: Callable[[datetime | None], str]) -> Row:
    """The spaces list's row of ``item`` (``titles``: collection id -> title; ``age``: how long ago a time was).
    It needs no widget: the organization's load builds the rows of thousands of spaces in a thread, whether
    the spaces tab is mounted yet or not."""
    # A cell is kept as safe()'s plain text (a Content costs about 200 bytes more a row).
    title = safe(item.title or item.id, limit=120).plain
    visibility = visibility_words(item.visibility)
    collection = _collection_cell(titles.get(item.parent or "", ""))
    updated = age(item.updated_at)
    crs = str(item.change_requests_open)
    # What the filter matches, worked out here (in the thread that builds thousands of rows), not on the UI loop
    # at the first key typed in the filter.
    search = f"{title} {visibility} {collection.plain} {updated} {crs}".lower()
    return Row(key=item.id, cells=[title, visibility, collection, updated, crs], search=search, data=item)


@lru_cache(maxsize=1024)
def _collection_cell(title: str) -> Content:
    """The Collection cell (the same few titles on thousands of rows: one Content each)."""
    return safe(title, limit=60)


def item_of(data: Any) -> Item | None:
    """The id and web URL of a space or collection (``o`` / ``y`` / ``Y``)."""
    if data is None:
        return None
    urls = getattr(data, "urls", None)
    url = (urls.app or urls.published) if urls is not None else None
    return Item(data.id, url, str(getattr(data, "object", "") or "item").replace("-", " "))


class ContentPanel(ResourcePanel[SpaceSummary]):
    """A tab fed by the organization's one content load: ``r`` (and a reload) asks the screen to read again."""

    NOUN = "space"
    ROUTE = "space"
    FAILED = "Could not load the spaces"
    LOAD_ON_MOUNT = False

    def __init__(self, services: Services, reload: Callable[[], object], *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self._read_again = reload
        self._kind: type | None = None
        """The type of the row under the cursor when the footer last drew its keys."""

    _composed: ResourceBrowser | None = None
    """The list this panel composed (the screen reads it at every key and bindings update: no query)."""

    @property
    def browser(self) -> ResourceBrowser:
        return self._composed if self._composed is not None else super().browser

    def reload(self, *, keep: str | None = None) -> None:
        self._started = True
        self._read_again()

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        # Instead of the base's (which asks the footer to draw its keys again at every move): the keys offered
        # depend only on what kind of row is under the cursor (a space, a collection, none). A filter typed over
        # 10,000 rows moves the cursor at every key; the footer redrawn each time cost a frame or more per key.
        event.prevent_default()
        kind = type(event.row.data) if event.row is not None else None
        if kind is not self._kind:
            self._kind = kind
            self.screen.refresh_bindings()

    @property
    def list(self) -> ResourceList:
        return self.browser.list

    def opens(self, item: SpaceSummary) -> tuple[Ids, str] | None:
        return {"space_id": item.id}, item.title or item.id

    def item_of(self, item: SpaceSummary) -> Item | None:
        return item_of(item)


class SpacesPanel(ContentPanel):
    """Every space of the organization, one row each."""

    COLUMNS = SPACE_COLUMNS
    EMPTY = NO_SPACES

    def __init__(self, services: Services, reload: Callable[[], object], *, id: str | None = None) -> None:
        super().__init__(services, reload, id=id)
        self.collection_titles: dict[str, str] = {}
        """Collection id -> title, for the Collection column (set by the load before the rows are built)."""

    def compose(self) -> ComposeResult:
        # (no hint line; the list keeps the id the session and the tests know it by)
        self._composed = FocusableBrowser(self.COLUMNS, empty=self.empty_text(), id="organization-spaces")
        yield self._composed

    def row(self, item: SpaceSummary) -> Row:
        return space_row(item, self.collection_titles, self.services.browse.age)


class CollectionsPanel(ContentPanel):
    """The collections, their spaces under them (:class:`CollectionsTree`); enter on a collection folds it."""

    NOUN = "collection or space"
    PLURAL = "collections and spaces"

    _tree: CollectionsTree | None = None

    def compose(self) -> ComposeResult:
        self._composed = self._tree = CollectionsTree(id="organization-tree")
        yield self._tree

    @property
    def content_tree(self) -> CollectionsTree:
        return self._tree if self._tree is not None else self.query_one(CollectionsTree)

    def item_of(self, item: SpaceSummary) -> Item | None:
        return item_of(item)

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        event.prevent_default()  # not the base's: a collection row folds, it opens nothing
        data = event.row.data
        if isinstance(data, SpaceSummary):
            self.post_message(Open("space", {"space_id": data.id}, title=data.title))
        elif isinstance(data, Collection) or data is None:
            self.content_tree.toggle(event.row.key)
