"""What every screen shares: the header with its breadcrumb trail, the footer, and the keys that work
everywhere (esc back, - previous, r refresh, o / y / Y for the URL and id of what is under the cursor).

A screen names its route (``ROUTE``, ``folio.tui.routes``: how the session and the go-to build it again) and its
own crumb (``crumb``), and is given its parent's trail; it says what is under the cursor by overriding
:meth:`FolioScreen.current_item`, and reloads in :meth:`FolioScreen.action_refresh`. Loaded things it wants
reachable from the command palette it hands to :meth:`FolioScreen.remember`; an action that cannot act now says
why in :meth:`FolioScreen.why_not`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, NamedTuple, Self

from textual import events, on
from textual.binding import Binding, BindingType
from textual.screen import Screen

from folio.tui import navigation
from folio.tui.actions import Explains
from folio.tui.clipboard import copy
from folio.tui.context import Context, context_of
from folio.tui.fresh import describe_age
from folio.tui.navigation import Ids
from folio.tui.restore import restore_view
from folio.tui.safe import safe
from folio.tui.textual_private import css_update_count

if TYPE_CHECKING:
    from folio.services import Services
    from folio.tui.declare import Route

__all__ = ["CRUMB", "FolioScreen", "Item"]

CRUMB = "\u203a"


class Item(NamedTuple):  # (defined before the first frame: see folio.cache.records)
    """What is under the cursor: its id, its web URL (if any) and a name for messages."""

    id: str
    url: str | None = None
    kind: str = "item"


class FolioScreen(Screen[None], Explains):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="screen.back", tooltip="Back to the screen before"),
        Binding(
            "minus",
            "app.previous_screen",
            "Previous",
            show=False,
            id="screen.previous",
            tooltip="Return to where you were before the last jump",
        ),
        Binding("r", "refresh", "Refresh", id="screen.refresh", tooltip="Load this screen again"),
        Binding("o", "show_url", "URL", id="screen.url", tooltip="Show and copy the web URL of the selection"),
        Binding("y", "copy_id", "Copy id", show=False, id="screen.copy-id", tooltip="Copy the id of the selection"),
        Binding(
            "Y", "copy_url", "Copy URL", show=False, id="screen.copy-url", tooltip="Copy the web URL of the selection"
        ),
    ]

    ROUTE: ClassVar[str | None] = None
    """The kind of this screen's route (``folio.tui.routes``): the session and the go-to build it from its ids."""

    revisit_due: bool = False
    """Set by the app when it pushes this screen back after it was left: :meth:`revisit` runs after its frame."""

    crumb: str = ""
    """This screen's segment of the breadcrumb trail (set by the subclass or its constructor)."""

    sweeps: ClassVar[bool] = False
    """Whether ``:sweep`` walks this screen's review (a change request's)."""

    org_id: str | None = None
    """The organization this screen is of (None: none, like the organizations list): the context's organization
    in view, and the one ``:members`` and the other screens of an organization open for."""

    space_id: str | None = None
    """The space this screen is of, if any: the one ``:cr <number>`` looks in."""

    def __init__(self, services: Services, *, trail: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.services = services
        self.parent_trail = trail

    @property
    def context(self) -> Context:
        """What the app hands its screens (``folio.tui.context``): services, account, organization in view,
        navigation."""
        found = context_of(self)
        if found is None:
            raise RuntimeError(f"{type(self).__name__} runs in Folio's app only")
        return found

    @classmethod
    def from_route(
        cls, route: Route, services: Services, ids: Ids, *, title: str | None, trail: tuple[str, ...]
    ) -> Self:
        """The screen of ``route`` for ``ids`` (``folio.tui.routes.build``): the route's ids in their order, then
        the optional ones given, by name, and ``title`` if the route says the screen takes it."""
        given = {name: ids[name] for name in route.optional if ids.get(name) is not None}
        if route.titled:
            given["title"] = title
        return cls(services, *(ids[name] for name in route.ids), trail=trail, **given)  # type: ignore[call-arg]

    @property
    def trail(self) -> tuple[str, ...]:
        """The breadcrumb segments down to this screen (server strings are made safe when drawn)."""
        return (*self.parent_trail, self.crumb) if self.crumb else self.parent_trail

    def set_crumb(self, crumb: str) -> None:
        """Name this screen in the trail (``Northwind Labs``, ``#12 Fix typos``) once it is known."""
        self.crumb = safe(crumb, limit=60).plain
        self._draw_sub_title()

    @on(events.ScreenSuspend)
    def _note_styles(self) -> None:
        self._styled_for = css_update_count(self.app)  # (a theme, a CSS reload changes it)

    @on(events.ScreenResume)
    def _keep_styles(self, event: events.ScreenResume) -> None:
        """Back on screen (a child closed, or kept and opened again): its widgets kept their styles, and only a
        change of the app's CSS while it was away (a theme) needs every node styled again (Textual restyles at
        every resume: 20-40 ms for a screen of lists, most of a reopen). Runs before Textual's own handler."""
        if self.__dict__.get("_styled_for") == css_update_count(self.app):
            event.refresh_styles = False

    def on_screen_resume(self) -> None:
        self._draw_sub_title()
        restore_view(self)
        if self.revisit_due:
            self.revisit_due = False
            self.call_after_refresh(self._revisit_after_paint)  # (it is on screen now: after its first frame)

    def _revisit_after_paint(self) -> None:
        if self.is_current and self.services.connection.may_refresh():
            self.revisit()

    def show_age(self, key: str, stored_at: float | None) -> None:
        """A load of this screen shows data cached at ``stored_at`` (None: it is fresh now); the header says
        how old the oldest shown data is (``folio.tui.fresh``)."""
        ages: dict[str, float] = self.__dict__.setdefault("_ages", {})
        if stored_at is None:
            ages.pop(key, None)
        else:
            ages[key] = stored_at
        self._draw_sub_title()

    def _draw_sub_title(self) -> None:
        ages: dict[str, float] = self.__dict__.get("_ages", {})
        age = describe_age(min(ages.values())) if ages else ""
        self.sub_title = f" {CRUMB} ".join(self.trail) + (f"  ({age})" if age else "")

    def organization_in_view(self) -> str | None:
        """The organization this screen shows or is of (the organizations list: the one under the cursor)."""
        return self.org_id

    @property
    def org_trail(self) -> tuple[str, ...]:
        """The trail of a screen opened for :meth:`organization_in_view` (``:members`` from here)."""
        return self.trail

    # -- what is selected ----------------------------------------------------------------------------------

    def current_item(self) -> Item | None:
        """The resource under the cursor (or the screen's own resource). Screens override this."""
        return None

    def remember(self, kind: str, ids: Ids, title: str | None) -> None:
        """Make a loaded resource reachable from the command palette's go-to (``kind``: a route's)."""
        navigation.remember(self, kind, ids, title)

    # -- shared actions ----------------------------------------------------------------------------------------

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 2:  # the default screen stays below the first real one
            self.app.pop_screen()

    def action_refresh(self) -> None:
        """Reload; screens override it."""

    def revisit(self) -> None:
        """Opened again after it was left: the app kept this screen alive and pushed it back as it was (see
        ``folio.tui.app.navigation``); read the data again, as a new screen would after its cached paint. By
        default the screen's refresh (``r``)."""
        self.action_refresh()

    def action_copy_id(self) -> None:
        item = self.current_item()
        copy(self.app, item.id if item else None, what="id")

    def action_copy_url(self) -> None:
        item = self.current_item()
        copy(self.app, item.url if item else None, what="URL", url=True)

    def action_show_url(self) -> None:
        item = self.current_item()
        copy(self.app, item.url if item else None, what="URL", url=True)
