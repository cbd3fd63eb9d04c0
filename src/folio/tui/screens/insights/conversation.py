"""One conversation: its subject, source, impact and times, and three tabs: 1 Conversation (its parts, role and
body, made safe), 2 Metadata (where it happened, when, its attributes), 3 Issues (the issues found in it; enter
opens an issue's cluster)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Header, Static, TabbedContent, TabPane

from folio.services import format
from folio.services.errors import ServiceError
from folio.services.insights.conversations import NOT_OFFERED, ConversationView, NotOfferedHere
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first
from folio.tui.navigation import Open
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.screens.insights.cluster import impact_content
from folio.tui.screens.insights.clusters import ImpactBrowser
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import ResourceList
from folio.tui.widgets.rows import Column, Row

if TYPE_CHECKING:
    from folio.models.conversation import ConversationDetail, ConversationPart, IssueWithConversation
    from folio.services import Services

__all__ = ["ConversationScreen"]

CONVERSATION = Route(
    kind="conversation",
    noun="conversation",
    screen="ConversationScreen",
    ids=("org_id", "conversation_id"),
    order=41,
    summary="a conversation: its parts, metadata and issues",
)

TABS = ("parts", "metadata", "issues")
MAX_BODY = 20_000
METADATA_COLUMNS = (Column("key", "Field", 22), Column("value", "Value"))
ISSUE_COLUMNS = (
    Column("issue", "Issue"),
    Column("impact", "Impact", 6),
    Column("cluster", "Cluster"),
    Column("created", "Created", 10),
)


def _tab_key(key: str, tab: str, label: str) -> Binding:
    return Binding(key, f"show_tab('{tab}')", label, show=False, id=f"conversation.tab-{tab}", tooltip=f"Show {label}")


def part_widgets(part: ConversationPart) -> Vertical:
    """One part: who (its role, and its type when it is not a message) above what they wrote."""
    who = part.role if part.type == "message" else f"{part.role} ({part.type})"
    body = part.text.strip() or "(empty)"
    return Vertical(
        Static(safe(who, limit=60), classes="part--role"),
        Static(safe(body, limit=MAX_BODY, multiline=True), classes="part--body"),
        classes=f"part part--{'user' if part.role == 'user' else 'other'}",
    )


def metadata_rows(detail: ConversationDetail) -> list[Row]:
    """Where and when the conversation happened, and its attributes, as rows of the metadata tab."""
    meta, urls = detail.metadata, detail.conversation.urls
    rows = [
        ("url", "URL", meta.url if meta and meta.url else format.DASH),
        ("started", "Started", format.when(meta.created_at) if meta else format.DASH),
        ("source-url", "Source URL", urls.source if urls and urls.source else format.DASH),
        ("id", "Id", detail.conversation.id),
    ]
    out = [Row(key, [label, safe(value, limit=400)]) for key, label, value in rows]
    for name, value in sorted((meta.attributes if meta else {}).items()):
        out.append(Row(f"attribute:{name}", [safe(name, limit=60), safe(value, limit=400)]))
    return out


class ConversationScreen(FolioScreen):
    """Conversation ``conversation_id`` of organization ``org_id``."""

    org_id: str

    ROUTE: ClassVar[str | None] = CONVERSATION.kind
    CSS_PATH = [styles_dir() / "conversations.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        _tab_key("1", "parts", "Conversation"),
        _tab_key("2", "metadata", "Metadata"),
        _tab_key("3", "issues", "Issues"),
    ]

    def __init__(self, services: Services, org_id: str, conversation_id: str, *, trail: tuple[str, ...] = ()) -> None:
        super().__init__(services, trail=trail)
        self.org_id = org_id
        self.conversation_id = conversation_id
        self.crumb = "Conversation"
        self.view: ConversationView | None = None

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        with Vertical(classes="conversations--head"):
            yield Static(Content("Loading the conversation…"), id="conversation-title", classes="conversations--title")
            yield Static(id="conversation-facts", classes="conversations--facts")
        with TabbedContent(initial="parts", id="conversation-tabs", classes="conversations--tabs"):
            with TabPane("1 Conversation", id="parts"):
                yield VerticalScroll(id="conversation-parts")
            with TabPane("2 Metadata", id="metadata"):
                yield ResourceBrowser(METADATA_COLUMNS, empty="No metadata.", id="conversation-metadata")
            with TabPane("3 Issues", id="issues"):
                yield ImpactBrowser(ISSUE_COLUMNS, empty="No issue was found in it.", id="conversation-issues")
        yield KeysFooter()

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#conversation-tabs", TabbedContent)

    @property
    def parts(self) -> VerticalScroll:
        return self.query_one("#conversation-parts", VerticalScroll)

    @property
    def metadata_list(self) -> ResourceBrowser:
        return self.query_one("#conversation-metadata", ResourceBrowser)

    @property
    def issues_list(self) -> ResourceBrowser:
        return self.query_one("#conversation-issues", ResourceBrowser)

    def on_mount(self) -> None:
        self._draw_sub_title()
        self.parts.focus()
        self.load()

    @work(exclusive=True, group="conversation", exit_on_error=False)
    @cache_first
    async def load(self) -> None:
        self.issues_list.set_loading(True)
        try:
            view = await self.services.conversations.conversation_view(self.org_id, self.conversation_id)
        except NotOfferedHere:
            self._say(Content(NOT_OFFERED))
            for browser in (self.metadata_list, self.issues_list):
                browser.empty = NOT_OFFERED
                browser.set_rows([])
            return
        except ServiceError as exc:
            failed = error_message(exc, doing="Could not load the conversation", hint="Press r to try again.")
            self._say(failed, error=True)
            self.issues_list.set_error(failed)
            return
        await self.show(view)

    def _say(self, message: Content, *, error: bool = False) -> None:
        title = self.query_one("#conversation-title", Static)
        title.update(message)
        title.set_class(error, "-error")

    async def show(self, view: ConversationView) -> None:
        self.view = view
        detail = view.detail
        conversation = detail.conversation
        subject = conversation.subject or "(no subject)"
        self.set_crumb(subject)
        self.remember("conversation", {"org_id": self.org_id, "conversation_id": conversation.id}, subject)
        self._say(safe(subject, limit=300))
        facts = [
            safe(f"source {conversation.source or format.DASH}", limit=80),
            impact_content(conversation.impact),
            Content(f"created {format.stamp(conversation.created_at)}"),
            Content(f"processed {format.stamp(conversation.processed_at, unknown='not yet')}"),
            Content(format.count(len(detail.parts), "part")),
        ]
        self.query_one("#conversation-facts", Static).update(Content(" · ").join(facts))
        await self.parts.remove_children()
        shown: list[Widget] = [part_widgets(p) for p in detail.parts]
        if not shown:
            shown.append(Static(Content("This conversation has no parts.")))
        await self.parts.mount_all(shown)
        self.metadata_list.set_rows(metadata_rows(detail))
        if isinstance(view.issues, Exception):
            hint = "Press r to try again."
            issues = view.issues
            failed = error_message(issues, doing="Could not load its issues", hint=hint)
            self.issues_list.set_error(Content(NOT_OFFERED) if isinstance(issues, NotOfferedHere) else failed)
            return
        self.issues_list.set_loading(False)
        self.issues_list.set_rows([self._issue_row(entry) for entry in view.issues])
        for entry in view.issues:
            cluster = entry.issue.cluster
            if cluster:
                ids = {"org_id": self.org_id, "cluster_id": cluster}
                self.remember("cluster", ids, view.cluster_labels.get(cluster))

    def _issue_row(self, entry: IssueWithConversation) -> Row:
        issue = entry.issue
        labels = self.view.cluster_labels if self.view else {}
        cluster = labels.get(issue.cluster or "", issue.cluster or format.DASH)
        return Row(
            key=issue.id,
            cells=[
                safe(issue.title or issue.id, limit=200),
                issue.impact or format.DASH,
                safe(cluster, limit=200),
                format.ago(issue.created_at),
            ],
            data=entry,
        )

    # -- keys --------------------------------------------------------------------------------------------------

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        if event.resource_list is not self.issues_list.list:
            return
        entry: IssueWithConversation = event.row.data  # type: ignore[assignment]
        cluster = entry.issue.cluster
        if not cluster:
            self.notify("This issue is in no cluster yet.", severity="warning", markup=False)
            return
        label = self.view.cluster_labels.get(cluster) if self.view else None
        self.post_message(Open("cluster", {"org_id": self.org_id, "cluster_id": cluster}, title=label))

    def action_show_tab(self, tab: str) -> None:
        if tab in TABS:
            self.tabs.active = tab

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        active = self.tabs.active
        if active == "metadata":
            self.metadata_list.focus_list()
        elif active == "issues":
            self.issues_list.focus_list()
        else:
            self.parts.focus()

    def current_item(self) -> Item | None:
        if self.is_mounted and self.tabs.active == "issues" and (row := self.issues_list.list.highlighted):
            entry: IssueWithConversation = row.data  # type: ignore[assignment]
            return Item(entry.issue.id, None, "issue")
        urls = self.view.detail.conversation.urls if self.view else None
        return Item(self.conversation_id, urls.source if urls else None, "conversation")

    def action_refresh(self) -> None:
        self.load()
