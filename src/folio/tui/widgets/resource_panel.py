"""The base of every "list of one resource": a screen declares its columns, how a page of items is fetched through
a service, how an item becomes a row and which route a row opens; the panel does the rest.

    class TeamsPanel(ResourcePanel[Team]):
        COLUMNS = (Column("title", "Team"), Column("members", "Members", 8, align="right"))
        EMPTY = "No teams yet. Press n to create one."
        NOUN, ROUTE = "team", "team"

        def fetch(self) -> AsyncIterator[Sequence[Team]]:
            return self.services.people.teams_pages(self.org_id)

        def row(self, team: Team) -> Row:
            return Row(team.id, [safe(team.title), format.count(team.members, "member")], data=team)

        def opens(self, team: Team) -> tuple[Ids, str] | None:
            return {"org_id": self.org_id, "team_id": team.id}, team.title

What it does for every panel: a cache-first paint with the age in the header (``folio.tui.fresh``), the first
page shown as soon as it arrives and the rest appended, loading / empty / error states in words (``r`` retries),
``/`` filter (esc clears it first), ``enter`` opens the row's route (an ``Open`` message: no screen is imported
here), ``o`` / ``y`` / ``Y`` through :meth:`item_of`, the go-to of every row loaded, and actions that say why they
cannot act now (:meth:`why_not`: the footer greys them, the key says why).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Hashable, Sequence
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.dom import NoScreen
from textual.widgets import Static

from folio.tui.actions import Explains
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first
from folio.tui.navigation import Ids, Open, remember
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row

if TYPE_CHECKING:
    from folio.services import Services
    from folio.tui.screens.base import Item

__all__ = ["ResourcePanel"]

T = TypeVar("T")


class ResourcePanel(Vertical, Explains, Generic[T]):
    """A list of one resource, loaded through a service. Subclasses set the class variables and override
    :meth:`fetch` and :meth:`row`; :meth:`opens`, :meth:`item_of`, :meth:`hint` and :meth:`why_not` as needed."""

    DEFAULT_CSS = """
    ResourcePanel { height: 1fr; }
    ResourcePanel > .resource-panel--hint { height: 1; color: $text-muted; }
    """

    COLUMNS: ClassVar[Sequence[Column]] = ()
    EMPTY: ClassVar[str] = "Nothing here yet."
    NOUN: ClassVar[str] = "item"
    PLURAL: ClassVar[str] = ""
    FAILED: ClassVar[str] = ""
    """How a failed load begins (default ``Could not load the <plural>``)."""
    ROUTE: ClassVar[str | None] = None
    """The route (``folio.tui.routes``) a row opens with enter; None: enter does nothing here."""
    LOAD_ON_MOUNT: ClassVar[bool] = True
    """Load when mounted (False: the host starts the first load, e.g. once it knows what the rows need)."""
    LOAD_ON_SHOW: ClassVar[bool] = False
    """Load the first time the panel is shown rather than when it mounts (a tab never opened costs nothing)."""

    def __init__(self, services: Services, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.services = services
        self.items: list[T] = []
        self.failed: Content | None = None
        """What the last load said went wrong (None: it worked)."""
        self._started = False
        self._mounted_once = False
        self._keep: str | None = None
        self._seen: tuple[int, ...] = ()

    @property
    def plural(self) -> str:
        return self.PLURAL or self.NOUN + "s"

    # -- what a subclass says ----------------------------------------------------------------------------------

    def fetch(self) -> AsyncIterator[Sequence[T]]:
        """The items, a page at a time (an async iterator of lists)."""
        raise NotImplementedError

    def row(self, item: T) -> Row:
        """One item's row; every server string made safe (``folio.tui.safe``)."""
        raise NotImplementedError

    def opens(self, item: T) -> tuple[Ids, str] | None:
        """The ids of :attr:`ROUTE`'s screen for ``item``, and its title (None: it opens nothing)."""
        return None

    def item_of(self, item: T) -> Item | None:
        """The id and web URL of ``item`` for ``o`` / ``y`` / ``Y``."""
        return None

    def topics(self) -> tuple[Hashable, ...]:
        """What writes this list shows (``services.changes`` topics, e.g. ``("change-requests", org_id)``): when a
        write elsewhere bumps one, the list loads again as soon as its screen is back in view."""
        return ()

    def hint(self) -> str | Content:
        """One line above the list (active filters, what keys do); empty hides the line."""
        return ""

    def empty_text(self) -> str:
        """What the list says when it has no row (default :attr:`EMPTY`; a filter may say what it filtered)."""
        return self.EMPTY

    def failed_doing(self) -> str:
        """How a failed load begins: :attr:`FAILED`, or ``Could not load the <plural>``."""
        return self.FAILED or f"Could not load the {self.plural}"

    def arrived(self, page: Sequence[T]) -> None:
        """A page of items is on screen (after it was shown)."""

    # -- the list ----------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        hint = self.hint()
        named = self.id is not None  # the session finds the list by its id; tests and styles the hint by its own
        yield Static(
            hint if isinstance(hint, Content) else Content(hint),
            classes="resource-panel--hint",
            id=f"{self.id}-summary" if named else None,
        )
        yield ResourceBrowser(self.COLUMNS, empty=self.empty_text(), id=f"{self.id}-list" if named else None)

    @property
    def browser(self) -> ResourceBrowser:
        return self.query_one(ResourceBrowser)

    @property
    def current(self) -> T | None:
        row = self.browser.list.highlighted
        return row.data if row is not None else None  # type: ignore[return-value]

    def current_item(self) -> Item | None:
        item = self.current
        return self.item_of(item) if item is not None else None

    def apply_words(self, words: str) -> None:
        """Filter the list by ``words`` (typed after the screen's ``:`` verb, or saved by the session): the list's
        filter as you type, by default (its box shown, holding them); a panel whose service searches (the members)
        overrides it."""
        self.browser.restore(None, words)

    def words(self) -> str:
        """The words the list is filtered by now (what :meth:`apply_words` was given, or typed after ``/``)."""
        return self.browser.typed_filter

    def draw_hint(self) -> None:
        hint = self.hint()
        text = hint if isinstance(hint, Content) else Content(hint)
        for line in self.query(".resource-panel--hint").results(Static):  # none once the screen is taken down
            line.update(text)
            line.display = bool(text.plain)

    def on_mount(self) -> None:
        # Textual calls this for each class that defines on_mount, and subclasses may call it too: once is enough.
        if self._mounted_once:
            return
        self._mounted_once = True
        self.draw_hint()
        if self.topics():
            self.app.screen_change_signal.subscribe(self, self._screen_changed)
        if self.LOAD_ON_MOUNT and not self.LOAD_ON_SHOW and not self._started:
            self.reload()

    def _versions(self) -> tuple[int, ...]:
        return tuple(self.services.changes.version(topic) for topic in self.topics())

    def _screen_changed(self, screen: object) -> None:
        """Back in view: load again if a write changed what this list shows since it loaded."""
        if screen is self.screen and self._started and self._versions() != self._seen:
            self.reload()

    def on_show(self) -> None:
        if self.LOAD_ON_SHOW and not self._started:
            self.reload()

    def reload_if_started(self) -> None:
        """Load again if the panel has loaded before (``r`` on a screen whose tab was never shown does not)."""
        if self._started:
            self.reload()

    def reload(self, *, keep: str | None = None) -> None:
        """Load again (``keep``: the row key the cursor should end on; by default the row under it now)."""
        if keep is None and self.is_mounted:
            row = self.browser.list.highlighted
            keep = row.key if row is not None else None
        self._started = True
        self._keep = keep
        self._seen = self._versions()  # what this load shows: a write after it is what a later resume reloads for
        self.load()

    @work(exclusive=True, group="resource-panel", exit_on_error=False)
    @cache_first
    async def load(self) -> None:
        keep = self._keep  # not an argument: a load is "the same load" for the cache-first pass, wherever it keeps
        browser = self.browser
        browser.empty = self.empty_text()
        browser.set_error(None)
        browser.set_loading(True)
        items: list[T] = []
        first = True
        try:
            async for page in self.fetch():
                rows = [self.row(item) for item in page]
                if first:
                    browser.set_rows(rows, keep=keep)
                    first = False
                else:
                    browser.append_rows(rows)
                items.extend(page)
                self.items = items
                self.arrived(page)
        # broad: the last resort of every list's load (fetch and row are each panel's own): a bug of ours is logged
        # (error_message -> error_text) and said in the list, which would otherwise stay "Loading…"
        except Exception as exc:
            self.failed = error_message(exc, doing=self.failed_doing(), hint="Press r to try again.")
            browser.set_error(self.failed)
            self.loaded(items, complete=False)
            return
        self.failed = None
        if first:
            browser.set_rows([], keep=keep)
        browser.set_loading(False)
        if keep is not None and (browser.list.highlighted is None or browser.list.cursor == 0):
            browser.list.move_to(keep)
        self.loaded(items, complete=True)

    def loaded(self, items: list[T], *, complete: bool) -> None:
        """The load ended (``complete``: every page came): keep the items, offer them to the go-to."""
        self.items = items
        if self.ROUTE is not None:
            for item in items:
                target = self.opens(item)
                if target is not None:
                    remember(self, self.ROUTE, target[0], target[1])
        try:
            self.screen.refresh_bindings()
        except NoScreen:  # taken down while loading
            return

    # -- keys --------------------------------------------------------------------------------------------------

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        self.screen.refresh_bindings()

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        item: T = event.row.data  # type: ignore[assignment]
        target = self.opens(item) if self.ROUTE is not None else None
        if target is None or self.ROUTE is None:
            self.notify(f"A {self.NOUN} opens nothing more here.", timeout=3, markup=False)
            return
        ids, title = target
        self.post_message(Open(self.ROUTE, ids, title=title))

    def needs_current(self, action: str) -> str | None:
        """The reason an action on the row under the cursor cannot act: there is no row."""
        return f"No {self.NOUN} is selected." if self.current is None else None
