"""Ingesting a file of conversations from the TUI: the form asks for the path (checked as you type), reads the file
and says how many conversations it holds (more than ``CONFIRM_ABOVE`` are sent only once confirmed), sends each (each
checked first; a bad one does not stop the others; a lost answer looked for before it is sent again), and the report
says, item by item, what was sent and what was refused and why.

IngestModal         the path -> :class:`~folio.services.insights.conversations.IngestReport` | None; an unreadable
                    file, or a large one not confirmed, keeps the form open with the path and says why
IngestReportModal   one line per item: sent, or refused with why
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from folio.services.errors import Refusal
from folio.services.insights.conversations import (
    CONFIRM_ABOVE,
    IngestOutcome,
    IngestReport,
    check_path,
    count_words,
    needs_confirming,
    read_conversations,
)
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.form import NOT_CHECKED, Field, FormModal
from folio.tui.safe import safe

if TYPE_CHECKING:
    from folio.services.insights.conversations import ConversationsService

__all__ = ["IngestModal", "IngestReportModal", "NotConfirmed", "outcome_line"]


class NotConfirmed(Refusal):
    """A file of more than ``CONFIRM_ABOVE`` conversations whose sending was not confirmed: nothing was sent."""

    def __init__(self, count: int) -> None:
        self.count = count
        super().__init__(self.describe())

    def describe(self) -> str:
        return f"the {count_words(self.count)} of the file were not confirmed"


class IngestModal(FormModal[IngestReport]):
    """The path of a conversations file of organization ``org_id``; sends it and closes with the report."""

    TITLE = "Ingest conversations from a file"
    INTRO = (
        "A JSON file holding one conversation or a list of them, as the API takes them: "
        '{"subject": …, "id": …, "metadata": {"url", "attributes", "createdAt"}, "parts": [{"role", "body"}]}. '
        "Each is checked before it is sent; a bad one does not stop the others. "
        f"More than {CONFIRM_ABOVE} are sent only once you confirm their count."
    )
    FIELDS = (Field("path", "File", placeholder="~/exports/conversations.json"),)
    SEND_LABEL = "Send"
    FAILED = "Nothing was sent"

    def __init__(self, conversations: ConversationsService, org_id: str, *, path: str = "") -> None:
        super().__init__(values={"path": path}, draft=f"ingest:{org_id}", where="conversations")
        self.conversations = conversations
        self.org_id = org_id

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        problem = check_path(str(values.get("path") or ""))
        return {"path": problem} if problem else {}

    async def submit(self, values: Mapping[str, Any]) -> IngestReport:
        path = str(values["path"]).strip()
        self.say(Content("Reading the file…"))
        items = await asyncio.to_thread(read_conversations, path)
        count = len(items)
        if needs_confirming(count):
            question = ConfirmModal(
                f"Send {count_words(count)}?",
                safe(
                    f"{path} holds {count_words(count)}, more than {CONFIRM_ABOVE}. Each is checked, then sent one "
                    "by one; what was sent cannot be taken back.",
                    limit=600,
                ),
                accept_key="y",
                accept_label="Send them",
            )
            if not await self.app.push_screen_wait(question):
                raise NotConfirmed(count)
        self.say(Content(f"Sending {count_words(count)}…"))
        return await self.conversations.ingest(self.org_id, items)

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        # Never reached: a lost answer is one item's outcome in the report, not a failure of the form.
        return NOT_CHECKED


def outcome_line(outcome: IngestOutcome) -> Content:
    """``sent     1. Stuck in a login loop`` / ``refused  2. item 2 — parts: Field required``, the verdict in the
    theme's colour, every server or file string made safe."""
    verdict = ("sent    ", "$text-success") if outcome.sent else ("refused ", "$text-error")
    parts: list[Content | str | tuple[str, str]] = [verdict, f"{outcome.position}. ", safe(outcome.label, limit=120)]
    if outcome.why:
        parts += [" — ", safe(outcome.why, limit=600)]
    return Content.assemble(*parts)


class IngestReportModal(ModalScreen[None]):
    """What became of each item of an ingested file."""

    DEFAULT_CSS = """
    IngestReportModal { align: center middle; }
    IngestReportModal > Vertical { width: 90; max-width: 98%; height: auto; max-height: 90%; border: thick $accent;
                                   padding: 0 1; background: $surface; }
    IngestReportModal .ingest-report--title { text-style: bold; padding: 1 0 0 0; }
    IngestReportModal .ingest-report--items { height: auto; max-height: 16; margin: 1 0; }
    IngestReportModal .ingest-report--item { height: auto; }
    IngestReportModal Horizontal { height: 1; align-horizontal: right; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter", "close", "Close", id="ingest-report.close", tooltip="Close the report"),
    ]

    def __init__(self, report: IngestReport) -> None:
        super().__init__()
        self.report = report

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content(self.report.summary()), classes="ingest-report--title")
            with VerticalScroll(classes="ingest-report--items"):
                for outcome in self.report.outcomes:
                    yield Static(outcome_line(outcome), classes="ingest-report--item")
            with Horizontal():
                yield Button(Content("Close"), id="close", compact=True)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    @property
    def lines(self) -> list[str]:
        """What the report says, item by item, as plain text."""
        return [str(line.render()) for line in self.query(".ingest-report--item").results(Static)]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
