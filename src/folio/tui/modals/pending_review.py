"""The comments of a pending review, listed together in the order they will be sent with the verdict.

    app.push_screen(PendingReviewModal(services, space_id, cr_id, title="#12 Fix typos"))

j/k move, e edits the highlighted comment's text, d drops it (asks first), P holds (or stops holding) new comments,
esc closes. The verdict (R on the change request) sends them all, first, in this order. Every change is written
to the local state at once (``services.pending_review``), so closing loses nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.content import Content

from folio.services.review.comments import age, first_line
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.queued_list import QueuedListModal
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.safe import safe
from folio.tui.widgets.resource_list import Column, ResourceList, Row

if TYPE_CHECKING:
    from folio.services import Services
    from folio.services.review.pending_review import HeldComment

__all__ = ["PendingReviewModal"]

COLUMNS = [
    Column("n", "#", 3, align="right"),
    Column("kind", "Kind", 7),
    Column("text", "Comment"),
    Column("where", "Where", 20),
    Column("age", "Written", 10, align="right"),
]


class PendingReviewModal(QueuedListModal):
    """The held comments of one change request (see the module docstring)."""

    DEFAULT_CSS = """
    PendingReviewModal > Vertical { width: 110; }
    PendingReviewModal .pending--detail { max-height: 6; }
    """
    PART = "pending"
    COLUMNS = COLUMNS
    HELP = "j/k move · e edits · d drops · P holds or stops · esc closes"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "edit", "Edit", id="pending.edit", tooltip="Change the text of the highlighted comment"),
        Binding("d", "drop", "Drop", id="pending.drop", tooltip="Drop the highlighted comment (asks first)"),
        Binding("P", "hold", "Hold", id="pending.toggle", tooltip="Hold new comments, or stop holding them"),
        Binding("escape", "close", "Close", id="pending.close", tooltip="Close the list"),
    ]

    def __init__(self, services: Services, space_id: str, cr_id: str, *, title: str = "") -> None:
        super().__init__()
        self.services = services
        self.space_id = space_id
        self.cr_id = cr_id
        self.title_text = title
        self.items: list[HeldComment] = []

    def heading(self) -> Content:
        return Content.assemble("Pending review of ", safe(self.title_text or "this change request", limit=80))

    # -- drawing -----------------------------------------------------------------------------------------------

    def _show(self, keep: int | None = None) -> None:
        review = self.services.pending_review.get(self.space_id, self.cr_id)
        self.items = review.items
        now = self.services.comments.clock()
        rows = [
            Row(
                str(n),
                [
                    str(n + 1),
                    item.kind,
                    safe(first_line(item.markdown, 200), limit=200),
                    safe(item.where, limit=120),
                    age(datetime.fromtimestamp(item.created_at, UTC), now),
                ],
                data=n,
            )
            for n, item in enumerate(self.items)
        ]
        self.list.set_rows(rows, keep=str(keep) if keep is not None else None)
        n = len(self.items)
        count = f"{n} comment{'s' if n != 1 else ''}"
        if review.holding and n:
            status = f"{count} held; what you write here now is held too."
        elif n:
            status = f"{count} held; new comments go out at once (P holds them)."
        elif review.holding:
            status = "Nothing is held yet: the comments and replies you write on this change request now are."
        else:
            status = "Nothing is held. P holds the comments you write from now on, until your verdict."
        if n:
            status += " Your review (R) sends them first, in this order."
        if not self.services.pending_review.kept:
            status += " No local data is kept here: they last until Folio quits."
        self.show_status(status)

    @property
    def highlighted(self) -> tuple[int, HeldComment] | None:
        row = self.list.highlighted
        if row is None or not isinstance(row.data, int) or not 0 <= row.data < len(self.items):
            return None
        return row.data, self.items[row.data]

    def detail(self) -> Content:
        found = self.highlighted
        if found is None:
            return Content("")
        item = found[1]
        return Content("\n").join([safe(item.where, limit=200), safe(item.markdown.strip(), limit=400)])

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        self.action_edit()

    # -- actions -----------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("edit", "drop"):
            return self.highlighted is not None or None
        return True

    def action_hold(self) -> None:
        review = self.services.pending_review.toggle(self.space_id, self.cr_id)
        self.notify(
            "Holding your comments until your verdict." if review.holding else "New comments go out at once.",
            markup=False,
        )
        self._show()

    def action_edit(self) -> None:
        if (found := self.highlighted) is not None:
            self._edit(*found)

    @work(exclusive=True, group="pending-edit", exit_on_error=False)
    async def _edit(self, index: int, item: HeldComment) -> None:
        async def save(text: str) -> None:
            self.services.pending_review.edit(self.space_id, self.cr_id, index, text)

        modal = TextEntryModal(f"Held {item.kind}: {first_line(item.where, 60)}", save, text=item.markdown)
        if await self.app.push_screen_wait(modal) is not None:
            self._show(keep=index)

    def action_drop(self) -> None:
        if (found := self.highlighted) is not None:
            self._drop(*found)

    @work(exclusive=True, group="pending-drop", exit_on_error=False)
    async def _drop(self, index: int, item: HeldComment) -> None:
        body = Content("\n").join([safe(item.where, limit=200), safe(first_line(item.markdown, 200), limit=200)])
        question = ConfirmModal("Drop this held comment? It will not be sent.", body, accept_label="Drop")
        if not await self.app.push_screen_wait(question):
            return
        self.services.pending_review.remove(self.space_id, self.cr_id, index)
        self._show(keep=max(0, index - 1))
        self.notify(f"Dropped: {safe(first_line(item.markdown, 60), limit=60).plain}", markup=False)
