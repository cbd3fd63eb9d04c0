"""``:trash``: the organization's spaces deleted in the last 7 days, with the time each has left before it is
removed for good, soonest first; ``u`` restores the one under the cursor (an admin's right).

The API lists no deleted spaces, so the trash shows those Folio knows of in the organization (seen in a list, or
deleted through Folio) that the service now says are deleted: the line above the list says so.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Hashable, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.binding import Binding, BindingType

from folio.services import format
from folio.services.content.space import space_label
from folio.services.content.trash import restorable_until, time_left
from folio.services.errors import ServiceError
from folio.tui.declare import Route
from folio.tui.errors import error_message
from folio.tui.navigation import Ids
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.screens.panel_screen import PanelScreen
from folio.tui.widgets.resource_list import Column, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from folio.models.space import Space
    from folio.services import Services

__all__ = ["TrashPanel", "TrashScreen", "trash_row"]

TRASH = Route(
    kind="trash",
    noun="trash",
    plural="trash",
    screen="TrashScreen",
    verbs=("trash",),
    find="organization",
    key="X",
    label="Trash",
    hint="Deleted spaces, restorable for 7 days",
    order=70,
    summary="the organization's deleted spaces, restorable for 7 days: u restores one",
)

COLUMNS = (
    Column("title", "Space"),
    Column("deleted", "Deleted", 10),
    Column("left", "Left", 12),
    Column("until", "Restorable until", 20),
)


def trash_row(space: Space) -> Row:
    """A deleted space: its title, when it was deleted, how long it has left and until when."""
    until = restorable_until(space)
    title = space_label(space)
    return Row(
        space.id,
        [
            safe(title or space.id, limit=200),
            format.ago(space.deleted_at),
            time_left(until, format.now()),
            format.stamp(until),
        ],
        data=space,
    )


class TrashPanel(ResourcePanel["Space"]):
    """The organization's deleted spaces that can still be restored."""

    org_id: str

    COLUMNS = COLUMNS
    EMPTY = (
        "No deleted space here. The service does not list deleted spaces: this shows the ones Folio saw in the "
        "organization that are deleted now (restorable for 7 days)."
    )
    NOUN = "deleted space"
    FAILED = "Could not gather the deleted spaces"
    ROUTE = "space"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "restore", "Restore", id="trash.restore",
                tooltip="Bring the space under the cursor back into the organization"),
    ]  # fmt: skip

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.restoring: set[str] = set()

    def topics(self) -> tuple[Hashable, ...]:
        return (("trash", self.org_id), ("spaces", self.org_id))

    def hint(self) -> str:
        if not self.items:
            return "Deleted spaces Folio saw here, restorable for 7 days · u restores"
        return f"{format.count(len(self.items), 'deleted space')} Folio saw here · soonest to go first · u restores"

    async def fetch(self) -> AsyncIterator[Sequence[Space]]:
        yield await self.services.trash.deleted_spaces(self.org_id)

    def row(self, space: Space) -> Row:
        return trash_row(space)

    def opens(self, space: Space) -> tuple[Ids, str] | None:
        return {"space_id": space.id}, space.title or space.id

    def item_of(self, space: Space) -> Item | None:
        return Item(space.id, space.urls.app if space.urls else None, "space")

    def loaded(self, items: list[Space], *, complete: bool) -> None:
        super().loaded(items, complete=complete)
        self.draw_hint()

    def why_not(self, action: str) -> str | None:
        if action != "restore":
            return None
        space = self.current
        if space is None:
            return "No deleted space is selected."
        if space.id in self.restoring:
            return f"“{safe(space.title, limit=60).plain}” is being restored."
        if space.permissions is not None and not space.permissions.admin:
            return "Only an admin of the organization can restore a space."
        return None

    def action_restore(self) -> None:
        space = self.current
        if space is None or self.why_not("restore"):
            return
        self.restoring.add(space.id)
        self.screen.refresh_bindings()
        self.restore(space)

    @work(group="trash-restore", exit_on_error=False)
    async def restore(self, space: Space) -> None:
        name = safe(space.title or space.id, limit=80).plain
        try:
            await self.services.trash.restore(space)
        except ServiceError as exc:
            self.notify(error_message(exc, doing=f"“{name}” was not restored").plain, severity="error", markup=False)
            return
        finally:
            self.restoring.discard(space.id)
        self.items = [s for s in self.items if s.id != space.id]
        self.browser.set_rows([trash_row(s) for s in self.items], staged=False)
        self.draw_hint()
        self.screen.refresh_bindings()
        self.notify(f"“{name}” restored: it is back in the organization.", markup=False)


class TrashScreen(PanelScreen[TrashPanel]):
    """The organization's deleted spaces; ``u`` restores one; ``:trash old`` opens them filtered by "old"."""

    org_id: str

    ROUTE: ClassVar[str | None] = TRASH.kind
    PANEL = TrashPanel
    CRUMB = "Trash"
