"""The organization screen's one load of its content: the collections, then the spaces a page at a time, read once
per visit and shown in both content tabs (the tree and the spaces list, ``organization_lists``), mixed into
:class:`~folio.tui.screens.content.organization.OrganizationScreen`.

It is built for an organization of 10,000 spaces and more: pages of :data:`PAGE_LIMIT` (the API's most), each
page's rows appended to the spaces list in one go, the tree built from the whole list once the first page is in
and again at the end (each build is of the whole tree: once per page would grow with the square of the pages),
the rows of a large page and the tree's layout worked out in a thread, so keys typed while it loads act at once.
The spaces' rows are built whether the spaces tab is mounted or not, and kept: a tab mounted later is given
them as they are. From the cache, only what the first frame shows is worked out on the loop; what follows that
frame goes to a thread as from the service.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from functools import partial
from typing import TYPE_CHECKING, TypeVar, cast

from textual import work
from textual.content import Content

from folio.services.browse import build_tree
from folio.services.errors import ServiceError
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first, is_cached_only, staged
from folio.tui.screens.content.organization_lists import CollectionsPanel, ContentPanel, SpacesPanel, space_row
from folio.tui.widgets.change_request_inbox import ChangeRequestInbox
from folio.tui.widgets.collections_tree import CollectionsTree, Prepared
from folio.tui.widgets.resource_list import Row

if TYPE_CHECKING:
    from folio.models.space import Collection, SpaceSummary
    from folio.tui.screens.content.organization import OrganizationScreen

__all__ = ["CONTENT_TABS", "PAGE_LIMIT", "ContentLoading", "ahead"]

T = TypeVar("T")

CONTENT_TABS = ("collections", "spaces")
"""The tabs :meth:`ContentLoading.load_content` fills."""
PAGE_LIMIT = 1000
"""Spaces per request: the most the API gives (10,000 spaces in ten requests)."""
ASIDE = 500
"""Rows worked out in a thread past this many (a page's rows, the tree's), so keys typed meanwhile act at once."""
TREE_EVERY = 2.0
"""While the spaces come, the tree is built again at most this often (seconds), besides the first page and the end."""
FIRST_PAINT = 200
"""From the cache, the first frame waits for this many spaces (more than a screen shows), the rest follow it."""
REMEMBER_STEP = 500
"""The go-to is given the spaces loaded this many at a time, the loop taking keys between."""


_END = object()


async def ahead(pages: AsyncIterator[T]) -> AsyncIterator[T]:
    """``pages``, the next one asked for as soon as one is given: its request and the service's time overlap the
    work on the one given (its rows, the tree, the frame). One page at most is read ahead."""
    read = aiter(pages)

    async def step() -> object:
        try:
            return await anext(read)
        except StopAsyncIteration:
            return _END

    coming = asyncio.create_task(step())  # (a copy of the context: a cache-only read stays one)
    try:
        while (page := await coming) is not _END:
            coming = asyncio.create_task(step())
            yield cast("T", page)
    finally:
        coming.cancel()  # (the reader stopped early: the page coming is not wanted)


class ContentLoading:
    """The one content load (see the module's docstring)."""

    collections: list[Collection]
    spaces: list[SpaceSummary]
    _content_loading: bool
    _content_errors: dict[str, Content]
    _space_titles: dict[str, str] | None
    _space_rows: list[Row] | None = None
    _tree_draws = 0
    """How many times the tree was laid out (a layout finished after a later one began is not shown)."""
    """The spaces list's rows of :attr:`spaces`, built by the load (None: not built; a list being loaded grows)."""
    _painted: tuple[list[Collection], list[list[SpaceSummary]]] | None = None
    """The collections and the pages of spaces the cache pass showed (the fresh read compares its pages)."""

    def _org(self) -> OrganizationScreen:
        return cast("OrganizationScreen", self)

    def _panel(self, tab: str) -> ContentPanel | None:
        panel = self._org()._mounted(tab)
        return panel if isinstance(panel, ContentPanel) and panel.is_attached else None

    def _tree(self) -> CollectionsTree | None:
        panel = self._panel("collections")
        return panel.content_tree if isinstance(panel, CollectionsPanel) else None

    def _content_panels(self) -> list[ContentPanel]:
        return [panel for tab in CONTENT_TABS if (panel := self._panel(tab)) is not None]

    @work(exclusive=True, group="organization-content", exit_on_error=False)
    @cache_first
    async def load_content(self) -> None:
        """Read the collections, then the spaces page by page: the spaces tab and the tree grow as pages come;
        a failure is said in each list's status line and what was shown stays. A content tab mounted while this
        runs is given every row loaded so far at the next page (and what was shown before, at once)."""
        org = self._org()
        cache_pass = is_cached_only()
        try:
            await self._load_content(cache_pass)
        finally:
            org._content_painted.set()
            if not cache_pass or self.spaces:
                org._content_shown.set()

    async def _load_content(self, cache_pass: bool) -> None:
        """The body of :meth:`load_content`; ``cache_pass``: this pass reads the cache only, before the first
        frame (no loading indicator the frame would not show; a miss says nothing, the fresh read comes next)."""
        org = self._org()
        if not cache_pass:
            # The fresh read after a cached paint sends its requests once that paint is on screen.
            await org._first_frame.wait()
            org.content_seen = org.content_versions()  # a write after this is what a return reloads for
        self._content_loading = True
        self._content_errors = {}
        for panel in self._content_panels():
            panel.browser.set_error(None)
            if not cache_pass:
                panel.browser.set_loading(True)
        browse = org.services.browse
        collections_failed: Exception | None = None
        try:
            self.collections = await browse.collections(org.org_id)
        except ServiceError as exc:
            collections_failed = exc
        titles = {c.id: c.title or c.id for c in self.collections}
        make = partial(space_row, titles=titles, age=browse.age)
        shown = self._panel("spaces")
        keep = shown.list.highlighted.key if shown is not None and shown.list.highlighted else None
        loaded: list[SpaceSummary] = []
        rows: list[Row] = []  # the rows of ``loaded``, page for page
        fed: set[int] = set()  # the spaces lists given their first rows: the next pages are appended
        tree_drawn = 0.0  # when the tree was last built (0: not yet in this load)
        # A fresh read over a cached paint that finds the very pages the cache had changes nothing on screen:
        # no row is built again while the pages are the same (a return visit to 10,000 spaces).
        painted = self._painted if not cache_pass and staged() is not None else None
        same = painted is not None and painted[0] == self.collections
        pages: list[list[SpaceSummary]] = []
        self._painted = (list(self.collections), pages) if cache_pass else None
        split = False

        async def spaces_pages() -> AsyncIterator[list[SpaceSummary]]:
            """The pages; from the cache, a big first page in two: the first frame waits for its first rows only.
            From the service, the next page is asked for while one is worked on (``ahead``)."""
            nonlocal split
            read = browse.spaces_pages(org.org_id, limit=PAGE_LIMIT)
            async for page in read if cache_pass else ahead(read):
                if cache_pass and not loaded and len(page) > FIRST_PAINT:
                    split = True
                    yield page[:FIRST_PAINT]
                    yield page[FIRST_PAINT:]
                else:
                    yield page

        try:
            async for page in spaces_pages():
                pages.append(page)
                if same and painted is not None:
                    if len(pages) <= len(painted[1]) and page == painted[1][len(pages) - 1]:
                        loaded.extend(page)
                        continue  # what the cache showed: nothing to build (the cached list stays in use)
                    same = False  # from here on, the rows are built (those before this page too)
                    rows = await self._rows_of(loaded, make)
                    tree_drawn = 0.0
                page_rows = await self._rows_of(page, make)
                if self.spaces is not loaded:  # the first page built: the lists show this load from now on
                    self.spaces, self._space_rows = loaded, rows
                loaded.extend(page)  # (the spaces and their rows grow together: a tab mounted now is given both)
                rows.extend(page_rows)
                spaces = self._panel("spaces")
                if isinstance(spaces, SpacesPanel):
                    spaces.collection_titles = titles
                    if id(spaces) in fed:
                        spaces.browser.append_rows(page_rows)
                    else:
                        spaces.browser.set_rows(rows, keep=keep)
                        fed.add(id(spaces))
                now = time.monotonic()
                if collections_failed is None and self._tree() is not None and now - tree_drawn >= TREE_EVERY:
                    await self._redraw_tree(loaded, wait=False)
                    tree_drawn = now
                org._content_painted.set()
                if cache_pass:  # the next cached pages are read once the first is on screen
                    await org._first_frame.wait()
        except ServiceError as exc:
            if cache_pass:  # not seen before: the fresh read is next
                for panel in self._content_panels():
                    panel.browser.set_loading(True)
                return
            message = error_message(exc, doing="Could not load the spaces", hint="Press r to try again.")
            self._content_loading = False
            self._content_errors = dict.fromkeys(CONTENT_TABS, message)
            for panel in self._content_panels():
                panel.failed = message
                panel.browser.set_error(message)
            return
        # Seen here: deleted later (by anyone), the trash finds it; a fresh read keeps them for a later run too.
        org.services.trash.saw(org.org_id, loaded)
        if not cache_pass:
            org.services.trash.keep(org.org_id)
        if split and len(pages) > 1:  # the fresh read compares whole pages with the cache's
            pages[0:2] = [pages[0] + pages[1]]
        if same and painted is not None and len(pages) != len(painted[1]):  # fewer pages than the cache had
            same = False
            rows = await self._rows_of(loaded, make)
            self.spaces, self._space_rows = loaded, rows
            for panel in self._content_panels():
                if isinstance(panel, SpacesPanel):
                    panel.browser.set_rows(rows, keep=keep)
                    fed.add(id(panel))
        if not same:
            self.spaces = loaded
        if same:
            fed.update(id(panel) for panel in self._content_panels())  # the cached rows stay
        elif collections_failed is None and self._tree() is not None:
            await self._redraw_tree(loaded, wait=not cache_pass)  # (the fresh read follows a cached one at once)
        self._content_loading = False
        if collections_failed is not None and not cache_pass:
            self._content_errors["collections"] = error_message(
                collections_failed, doing="Could not load the collections", hint="Press r to try again."
            )
        for tab in CONTENT_TABS:
            mounted = self._panel(tab)
            if mounted is None:
                continue
            panel = mounted
            if isinstance(panel, SpacesPanel) and id(panel) not in fed:  # mounted during the last page
                panel.collection_titles = titles
                panel.browser.set_rows(self._space_rows or [], keep=keep)
            # (collections not seen before: the tree waits for the fresh read)
            panel.browser.set_loading(tab == "collections" and collections_failed is not None and cache_pass)
            panel.failed = self._content_errors.get(tab)
            if panel.failed is not None:
                panel.browser.set_error(panel.failed)
            panel.items = self.spaces
        org.refresh_bindings()
        if same and self._space_titles is not None:
            return  # what the cached pass offered the go-to and named in the inbox is what the service has
        self._space_titles = {space.id: space.title or space.id for space in loaded}
        inbox = org._mounted("change-requests")
        if isinstance(inbox, ChangeRequestInbox) and inbox.is_attached:
            inbox.set_space_titles(self._space_titles)
        for start in range(0, len(loaded), REMEMBER_STEP):  # the go-to offers every space loaded
            if start:
                await asyncio.sleep(0)
            for space in loaded[start : start + REMEMBER_STEP]:
                org.remember("space", {"space_id": space.id}, space.title or space.id)

    async def _rows_of(self, spaces: list[SpaceSummary], make: Callable[[SpaceSummary], Row]) -> list[Row]:
        """The spaces list's rows of ``spaces``: in a thread when they are many, unless the first frame waits
        for them (a cached paint)."""
        if len(spaces) > ASIDE and self._org()._first_frame.is_set():
            items = list(spaces)
            return await asyncio.to_thread(lambda: [make(space) for space in items])
        return [make(space) for space in spaces]

    async def _redraw_tree(self, spaces: list[SpaceSummary], *, wait: bool) -> None:
        """Draw the tree of ``spaces``; a large one after the first frame is laid out by a worker of its own
        unless ``wait``: the load goes on with its next page meanwhile (the latest layout begun is the one shown)."""
        if not wait and len(spaces) > ASIDE and self._org()._first_frame.is_set():
            self._org().run_worker(self._draw_tree(spaces), group="organization-tree", exit_on_error=False)
        else:
            await self._draw_tree(spaces)

    async def _draw_tree(self, spaces: list[SpaceSummary]) -> None:
        """Lay the whole tree out (in a thread when it is large: the UI loop keeps taking keys), then show it,
        unless a later call drew it meanwhile."""
        tree = self._tree()
        if tree is None:
            return
        self._tree_draws += 1
        drawing = self._tree_draws
        collections, shown = list(self.collections), list(spaces)
        age = self._org().services.browse.age
        prepare: Callable[[], Prepared] = lambda: tree.prepare(build_tree(collections, shown), age)  # noqa: E731
        aside = len(shown) > ASIDE and self._org()._first_frame.is_set()  # (a cached paint waits for it)
        prepared = await asyncio.to_thread(prepare) if aside else prepare()
        if self._tree() is tree and self._tree_draws == drawing:
            tree.show_prepared(prepared)

    def _show_content(self, tab: str) -> None:
        """Show what is loaded (and how its load goes) in the content tab ``tab``, just mounted: the spaces'
        rows as the load built them, the tree laid out in a thread when it is large."""
        panel = self._panel(tab)
        if panel is None:
            return
        if isinstance(panel, CollectionsPanel):
            if self.spaces and "collections" not in self._content_errors:
                self._org().run_worker(self._draw_tree(self.spaces), group="organization-tree", exit_on_error=False)
        elif isinstance(panel, SpacesPanel) and self.spaces:
            panel.collection_titles = {c.id: c.title or c.id for c in self.collections}
            rows = self._space_rows
            if rows is not None and len(rows) == len(self.spaces):  # (else the load gives them at its next page)
                panel.browser.set_rows(rows, staged=False)
        if tab in self._content_errors:
            panel.browser.set_error(self._content_errors[tab])
        elif self._content_loading:
            panel.browser.set_loading(True)
