"""A screen that is one resource panel of an organization: the header with its trail, the panel, what the screen
puts under it, and the footer. The members, teams, OpenAPI specs, translations, issues clusters and conversations
screens are each this, with their panel.

    class TeamsScreen(PanelScreen[TeamsPanel]):
        ROUTE = "teams"
        PANEL = TeamsPanel

        def make_panel(self) -> TeamsPanel:
            return TeamsPanel(self.services, self.org_id, id="teams")
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from textual.widgets import Header

from folio.tui.screens.base import FolioScreen, Item
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.widget import Widget

    from folio.services import Services

__all__ = ["PanelScreen"]

P = TypeVar("P", bound=ResourcePanel[Any])


class PanelScreen(FolioScreen, Generic[P]):
    """The panel ``make_panel()`` builds, for organization ``org_id``; ``initial_filter``: words the list opens
    filtered by (typed after the screen's ``:`` verb)."""

    AUTO_FOCUS = "ResourceList"
    PANEL: ClassVar[type[ResourcePanel[Any]]]
    """The panel's class (to find it once composed)."""

    def __init__(self, services: Services, org_id: str, *, crumb: str, trail: tuple[str, ...] = ()) -> None:
        super().__init__(services, trail=trail)
        self.org_id = org_id
        self.crumb = crumb
        self.initial_filter: str | None = None

    def make_panel(self) -> P:
        """The panel this screen shows (built once, in ``compose``)."""
        raise NotImplementedError

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
        if self.initial_filter:
            self.panel.browser.restore(None, self.initial_filter)

    @property
    def panel(self) -> P:
        return self.query_one(self.PANEL)  # type: ignore[return-value]

    def current_item(self) -> Item | None:
        return self.panel.current_item()

    def action_refresh(self) -> None:
        self.panel.reload()
