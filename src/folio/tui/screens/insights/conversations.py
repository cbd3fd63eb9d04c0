"""The conversations ingested into an organization (``:conversations``): subject, source, impact (in the theme's
colours), created, processed. ``f`` cycles the source filter (every source seen, then all again), ``i`` ingests
a file of conversations (the path in a form, then a report item by item), enter opens one."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Static

from folio.services import format
from folio.services.insights.conversations import NOT_OFFERED, IngestReport, NotOfferedHere, next_source
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.modals.ingest import IngestModal, IngestReportModal
from folio.tui.navigation import Ids
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.screens.insights.clusters import ImpactBrowser
from folio.tui.screens.panel_screen import PanelScreen
from folio.tui.widgets.resource_panel import ResourcePanel
from folio.tui.widgets.rows import Column, Row

if TYPE_CHECKING:
    from folio.models.conversation import Conversation
    from folio.services import Services

__all__ = ["ConversationsPanel", "ConversationsScreen", "conversation_row"]

CONVERSATIONS = Route(
    kind="conversations",
    noun="conversations",
    plural="conversations",
    screen="ConversationsScreen",
    verbs=("conversations", "conv"),
    find="organization",
    key="V",
    label="Conversations",
    hint="Readers' conversations with support and the assistant",
    order=40,
    summary="the organization's ingested conversations, by source; i ingests a file",
)

COLUMNS = (
    Column("subject", "Subject"),
    Column("source", "Source", 14),
    Column("impact", "Impact", 6),
    Column("created", "Created", 10),
    Column("processed", "Processed", 9),
)


def conversation_row(conversation: Conversation) -> Row:
    """One conversation's row, every server string made safe."""
    return Row(
        key=conversation.id,
        cells=[
            safe(conversation.subject or "(no subject)", limit=200),
            safe(conversation.source or format.DASH, limit=40),
            conversation.impact or format.DASH,
            format.ago(conversation.created_at),
            format.ago(conversation.processed_at, unknown="not yet"),
        ],
        data=conversation,
    )


class ConversationsPanel(ResourcePanel["Conversation"]):
    """The organization's conversations with their keys."""

    org_id: str

    COLUMNS = COLUMNS
    EMPTY = "No conversations yet. Press i to ingest a file of them."
    NOUN = "conversation"
    FAILED = "Could not load the conversations"
    ROUTE = "conversation"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "f", "cycle_source", "Source", id="conversations.source", tooltip="Show one source, the next, then all"
        ),
        Binding("i", "ingest", "Ingest", id="conversations.ingest", tooltip="Send the conversations of a JSON file"),
    ]

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.source: str | None = None
        self.known_sources: set[str] = set()
        """Every source seen in the lists loaded (what ``f`` cycles through)."""
        self.not_offered = False

    def hint(self) -> str:
        if self.not_offered:
            return ""  # the list's status line says it, once
        shown = f"Source: {self.source}" if self.source else "All sources"
        following = next_source(self.source, sorted(self.known_sources))
        cycle = f"f shows {following}" if following else ("f shows all" if self.source else "f: no source seen yet")
        return f"{shown} ({cycle}) · i ingests a file · / filters"

    def empty_text(self) -> str:
        if self.not_offered:
            return NOT_OFFERED
        if self.source:
            return f"No conversation from {self.source}. Press f for the next source."
        return self.EMPTY

    async def fetch(self) -> AsyncIterator[Sequence[Conversation]]:
        try:
            async for page in self.services.conversations.conversation_pages(self.org_id, source=self.source):
                yield page
        except NotOfferedHere:
            self.not_offered = True
            self.browser.empty = NOT_OFFERED
            self.draw_hint()

    def compose(self) -> ComposeResult:
        yield Static(Content(self.hint()), classes="resource-panel--hint")
        yield ImpactBrowser(self.COLUMNS, empty=self.empty_text())  # the base's browser, impact in colour

    def arrived(self, page: Sequence[Conversation]) -> None:
        before = len(self.known_sources)
        self.known_sources.update(c.source for c in page if c.source)
        if len(self.known_sources) != before:
            self.draw_hint()

    def row(self, conversation: Conversation) -> Row:
        return conversation_row(conversation)

    def opens(self, conversation: Conversation) -> tuple[Ids, str] | None:
        return {"org_id": self.org_id, "conversation_id": conversation.id}, conversation.subject or conversation.id

    def item_of(self, conversation: Conversation) -> Item | None:
        urls = conversation.urls
        return Item(conversation.id, urls.source if urls else None, "conversation")

    def why_not(self, action: str) -> str | None:
        if action in ("cycle_source", "ingest") and self.not_offered:
            return NOT_OFFERED
        if action == "cycle_source" and not self.known_sources:
            return "No source is known yet: no conversation was listed."
        return None

    # -- actions -------------------------------------------------------------------------------------------------

    def action_cycle_source(self) -> None:
        self.source = next_source(self.source, sorted(self.known_sources))
        self.draw_hint()
        self.reload()

    def action_ingest(self) -> None:
        self.app.push_screen(IngestModal(self.services.conversations, self.org_id), self._ingested)

    def _ingested(self, report: IngestReport | None) -> None:
        if report is None:
            return
        self.notify(report.summary(), severity="information" if report.all_sent else "warning", markup=False)
        self.app.push_screen(IngestReportModal(report))
        if report.sent:
            self.reload()


class ConversationsScreen(PanelScreen[ConversationsPanel]):
    """``:conversations [words]``: the conversations of organization ``org_id`` (the list opens filtered by the
    words)."""

    org_id: str

    ROUTE: ClassVar[str | None] = CONVERSATIONS.kind
    CSS_PATH = [styles_dir() / "conversations.tcss"]
    PANEL = ConversationsPanel
    CRUMB = "Conversations"
