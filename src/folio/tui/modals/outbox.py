"""The outbox: what was written offline and waits to be sent, as one batch the user can read and act on.

    app.push_screen(OutboxModal(services))           # j/k move, s sends now, d discards a stuck item, esc closes
    await flush_outbox(app, services)                # back online: send what waits, and say what happened

Each row is one item in the order it was made: its kind, where it goes (in words), its state (waiting, sending,
sent, stuck) and its age; below the list, the highlighted item's text and note (why it is stuck, or that it is
checked on the service before it goes again). Everything that came from the service goes through ``safe``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widget import Widget

from folio.services.review.comments import age, first_line
from folio.services.review.outbox import FlushReport, OutboxItem, OutboxService, Step, outbox_of
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.queued_list import QueuedListModal
from folio.tui.safe import safe
from folio.tui.widgets.resource_list import Column, ResourceList, Row

if TYPE_CHECKING:
    from folio.services import Services

__all__ = ["OutboxModal", "flush_outbox"]

COLUMNS = (
    Column("kind", "Kind", 9),
    Column("where", "Where"),
    Column("state", "State", 9),
    Column("age", "Age", 10, align="right"),  # ("30 min ago")
)
STATE_WORDS = {"queued": "waiting", "sent": "sent", "stuck": "stuck"}


def kind_words(item: OutboxItem) -> str:
    if item.kind == "resolve":
        return "resolve" if item.payload.get("resolved") else "reopen"
    if item.kind == "reaction" and item.payload.get("remove"):
        return "unreact"
    return item.kind


async def flush_outbox(target: App[Any] | Widget, services: Services) -> FlushReport | None:
    """Send what waits in the outbox (the app calls this when Folio is back online) and notify ``target`` of
    what happened. None when there is no outbox, nothing waits, or Folio runs offline as asked (``--offline``)."""
    outbox = outbox_of(services)
    if outbox is None or outbox.offline == "asked" or not outbox.waiting():
        return None
    report = await outbox.flush()
    if report.summary:
        trouble = bool(report.stuck or report.stopped)
        target.notify(report.summary, title="Outbox", severity="warning" if trouble else "information", markup=False)
    return report


class OutboxModal(QueuedListModal):
    """``app.push_screen(OutboxModal(services))``: the batch of writes made offline (see the module docstring)."""

    PART = "outbox"
    COLUMNS = COLUMNS
    HELP = "j/k move · s sends now · d discards a stuck item · esc closes"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "send", "Send now", id="outbox.send", tooltip="Send what waits in the outbox now"),
        Binding("d", "discard", "Discard", id="outbox.discard", tooltip="Drop the highlighted stuck item"),
        Binding("escape", "close", "Close", id="outbox.close", tooltip="Close the outbox"),
    ]

    def __init__(self, services: Services) -> None:
        super().__init__()
        self.services = services
        self.outbox: OutboxService | None = outbox_of(services)
        self.known: dict[int, OutboxItem] = {}
        """Every item seen while open, in order: the ones sent from here stay listed as sent."""
        self.sending: int | None = None
        self.report: FlushReport | None = None

    def heading(self) -> Content:
        return Content("Outbox")

    # -- drawing -------------------------------------------------------------------------------------------

    def _show(self) -> None:
        current = {item.id: item for item in self.outbox.items()} if self.outbox is not None else {}
        for id in [id for id, item in self.known.items() if id not in current and item.state != "sent"]:
            del self.known[id]  # discarded
        self.known.update(current)
        self.list.set_rows([self._row(item) for item in self.known.values()])
        self.show_status(self._status())

    def _row(self, item: OutboxItem) -> Row:
        now = self.services.comments.clock()
        when = datetime.fromtimestamp(item.created_at, UTC)
        state = "sending…" if item.id == self.sending else STATE_WORDS.get(item.state, item.state)
        style = "dim" if item.state == "sent" else "bold" if item.state == "stuck" else ""
        cells: list[Content | str] = [
            kind_words(item),
            safe(item.where or item.target, limit=200),
            state,
            age(when, now),
        ]
        return Row(str(item.id), cells, style=style, data=item.id)

    def _status(self) -> str:
        items = list(self.known.values())
        waiting = sum(1 for i in items if i.state == "queued")
        stuck = sum(1 for i in items if i.state == "stuck")
        if self.outbox is None or not self.outbox.available:
            text = "There is no outbox: Folio keeps no local data for this account."
        elif not items:
            text = "The outbox is empty: what you write offline waits here until Folio is back online."
        elif self.sending is not None:
            text = "Sending, in the order it was written…"
        else:
            counts = f"{waiting} waiting · {stuck} stuck"
            reason = self.outbox.offline
            if reason == "asked":
                text = f"{counts}. Folio runs offline (--offline): nothing is sent until it runs online."
            elif reason:
                text = f"{counts}. The service cannot be reached: they go out when it answers (s tries now)."
            else:
                text = f"{counts}. s sends now." if waiting else counts + "."
            if self.report is not None and self.report.summary:
                text = f"{self.report.summary} {text}"
        return text

    @property
    def highlighted(self) -> OutboxItem | None:
        row = self.list.highlighted
        return self.known.get(row.data) if row is not None and isinstance(row.data, int) else None

    def detail(self) -> Content:
        item = self.highlighted
        detail = Content("")
        if item is not None:
            text = item.payload.get("markdown")
            parts: list[Content] = [safe(item.where or item.target, limit=300)]
            if isinstance(text, str):
                parts.append(Content("“") + safe(first_line(text, 200), limit=200) + Content("”"))
            if item.note:
                parts.append(safe(item.note, limit=400))
            detail = Content("\n").join(parts)
        return detail

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()  # enter shows nothing more than the detail below the list

    # -- actions -------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "send":
            outbox = self.outbox
            ready = outbox is not None and outbox.offline != "asked" and self.sending is None
            return (ready and any(i.state == "queued" for i in self.known.values())) or None
        if action == "discard":
            item = self.highlighted
            return (item is not None and item.state == "stuck" and self.sending is None) or None
        return True

    def action_send(self) -> None:
        if self.check_action("send", ()):
            self._send()

    @work(exclusive=True, group="outbox-send", exit_on_error=False)
    async def _send(self) -> None:
        assert self.outbox is not None

        def progress(item: OutboxItem, step: Step) -> None:
            self.sending = item.id if step == "sending" else None
            self.known[item.id] = item
            self._show()

        try:
            self.report = await self.outbox.flush(progress)
        finally:
            self.sending = None
            self._show()
        if self.report.summary:
            trouble = bool(self.report.stuck or self.report.stopped)
            self.notify(
                self.report.summary, title="Outbox", severity="warning" if trouble else "information", markup=False
            )

    def action_discard(self) -> None:
        item = self.highlighted
        if item is not None and item.state == "stuck":
            self._discard(item)

    @work(exclusive=True, group="outbox-discard", exit_on_error=False)
    async def _discard(self, item: OutboxItem) -> None:
        assert self.outbox is not None
        body = safe(item.where or item.target, limit=200)
        if item.note:
            body += Content("\n") + safe(item.note, limit=300)
        question = ConfirmModal("Discard this item? It will not be sent.", body, accept_key="y", accept_label="Discard")
        if not await self.app.push_screen_wait(question):
            return
        self.outbox.discard(item.id)
        self.known.pop(item.id, None)
        self._show()
        self.notify(f"Discarded: {safe(item.where or kind_words(item), limit=80).plain}", markup=False)
