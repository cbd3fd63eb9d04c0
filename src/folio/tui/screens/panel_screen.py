"""The resource screen: one resource panel of a scope (an organization, a space, a spec, a team), with the header
and its trail, what the screen puts under the panel, and the footer. Every list-of-things screen is this, with its
panel: the organizations, members, teams, single sign-on, settings, specs, a spec, clusters, conversations,
translations, trash, a team. Three screens take words and are not lists of one panel, each saying why: the
searches (the words are the service's query, the results grouped by space: ``folio.tui.screens.content.search``)
and the agent (one text: the words are found in it, ``folio.tui.screens.insights.agent``).

    TRASH = Route(kind="trash", noun="trash", screen="TrashScreen", verbs=("trash",), find="organization", ...)

    class TrashScreen(PanelScreen[TrashPanel]):
        ROUTE = TRASH.kind
        PANEL = TrashPanel
        CRUMB = "Trash"

The screen is built from its route's ids, in their order (``TrashScreen(services, org_id)``); each is also an
attribute of the screen of the same name (the session saves them), and ``scope`` holds them all. ``words`` are
the words typed after the screen's ``:`` verb (``:trash old``): the list opens filtered by them, through the
panel's :meth:`~folio.tui.widgets.resource_panel.ResourcePanel.apply_words` (a filter as you type, or the
service's own search where the panel has one); the session saves them and a restored screen applies them again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from textual.widgets import Header

from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.widget import Widget

    from folio.services import Services
    from folio.tui.navigation import Ids

__all__ = ["PanelScreen"]

P = TypeVar("P", bound=ResourcePanel[Any])


class PanelScreen(FolioScreen, Generic[P]):
    """The panel ``make_panel()`` builds, for the scope of the route's ids."""

    AUTO_FOCUS = "ResourceList"
    PANEL: ClassVar[type[ResourcePanel[Any]]]
    """The panel's class: built by :meth:`make_panel`, and found by it once composed."""
    CRUMB: ClassVar[str] = ""
    """The screen's crumb when it is not opened with a title (``Trash``)."""

    def __init__(
        self,
        services: Services,
        *ids: str,
        words: str | None = None,
        title: str | None = None,
        crumb: str | None = None,
        trail: tuple[str, ...] = (),
    ) -> None:
        super().__init__(services, trail=trail)
        names = self.scope_names(len(ids))
        if len(ids) != len(names):
            raise TypeError(f"{type(self).__name__} takes {len(names)} ids ({', '.join(names)}), not {len(ids)}")
        self.scope: Ids = dict(zip(names, ids, strict=True))
        """The route's ids this screen is of (``{"org_id": ...}``)."""
        for name, value in self.scope.items():
            setattr(self, name, value)  # the session saves the route's ids from the attributes of those names
        self.crumb = crumb or (safe(title, limit=60).plain if title else self.CRUMB)
        self._words = words or None

    def scope_names(self, given: int) -> tuple[str, ...]:
        """The names of the route's ids (none for a screen of no scope: the route table is read only when a
        screen has ids to name, so the first screen, the organizations, does not read it before its frame)."""
        if not given:
            return ()
        from folio.tui import routes  # (the route table: read from the screens' modules)

        declared = routes.route(self.ROUTE or "")
        return declared.ids if declared is not None else ("org_id",)

    @property
    def words(self) -> str | None:
        """The words the list is filtered by now (those it opened with until it is mounted)."""
        if not self.is_mounted:
            return self._words
        return self.panel.words() or None

    def make_panel(self) -> P:
        """The panel this screen shows (built once, in ``compose``): by default ``PANEL`` of the services and
        the scope's ids, in the route's order."""
        return self.PANEL(self.services, *self.scope.values(), id=self.ROUTE)  # type: ignore[return-value,call-arg]

    def below(self) -> Iterable[Widget]:
        """What sits under the panel (nothing by default)."""
        return ()

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield self.make_panel()
        yield from self.below()
        yield KeysFooter()

    def on_mount(self) -> None:
        self._draw_sub_title()
        if self._words:
            self.panel.apply_words(self._words)

    @property
    def panel(self) -> P:
        return self.query_one(self.PANEL)  # type: ignore[return-value]

    def current_item(self) -> Item | None:
        return self.panel.current_item()

    def action_refresh(self) -> None:
        self.panel.reload()
