"""One issues cluster: what it is about (icon, impact, muted, counts, sources), its 13-week pulse drawn large
(Textual's ``Sparkline``) with the trend in words, and three tabs: 1 Summary (the cluster's summary document,
rendered safely), 2 Issues (each with its conversation: enter opens the conversation), 3 Change requests (those
linked to the cluster: enter opens one straight into review). ``m`` mutes or unmutes it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Header, Sparkline, Static, TabbedContent, TabPane

from folio.services import format
from folio.services.errors import ServiceError
from folio.services.insights.conversations import NOT_OFFERED, ClusterView, NotOfferedHere, describe_sources, trend
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.errors import error_message, notify_error
from folio.tui.fresh import cache_first
from folio.tui.navigation import Open
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.screens.insights.clusters import IMPACT_COLOURS, ImpactBrowser
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.markdown_view import SafeMarkdown
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import ResourceList
from folio.tui.widgets.rows import Column, Row

if TYPE_CHECKING:
    from folio.models.change_request import ChangeRequest
    from folio.models.conversation import IssuesCluster, IssueWithConversation
    from folio.services import Services

__all__ = ["ClusterScreen", "impact_content"]

CLUSTER = Route(
    kind="cluster",
    noun="issues cluster",
    screen="ClusterScreen",
    ids=("org_id", "cluster_id"),
    order=31,
    summary="an issues cluster: summary, pulse, issues with their conversations, linked change requests",
)

TABS = ("summary", "issues", "change-requests")
ISSUE_COLUMNS = (
    Column("issue", "Issue"),
    Column("impact", "Impact", 6),
    Column("conversation", "Conversation"),
    Column("source", "Source", 14),
    Column("created", "Created", 10),
)
CR_COLUMNS = (
    Column("title", "Change request"),
    Column("space", "Space", 18),
    Column("status", "Status", 8),
    Column("updated", "Updated", 10),
)


def impact_content(impact: str | None, suffix: str = " impact") -> Content:
    """``high impact`` in the theme's colour of that impact."""
    if impact is None:
        return Content("impact not given")
    colour = IMPACT_COLOURS.get(impact)
    return Content.styled(f"{impact}{suffix}", f"${colour}") if colour else Content(f"{impact}{suffix}")


def _tab_key(key: str, tab: str, label: str) -> Binding:
    return Binding(key, f"show_tab('{tab}')", label, show=False, id=f"cluster.tab-{tab}", tooltip=f"Show {label}")


def issue_row(entry: IssueWithConversation) -> Row:
    issue, conversation = entry.issue, entry.conversation
    subject = (conversation.subject or conversation.id) if conversation else (issue.conversation or format.DASH)
    return Row(
        key=issue.id,
        cells=[
            safe(issue.title or issue.id, limit=200),
            issue.impact or format.DASH,
            safe(subject, limit=200),
            safe(conversation.source if conversation and conversation.source else format.DASH, limit=40),
            format.ago(issue.created_at),
        ],
        data=entry,
    )


def change_request_row(cr: ChangeRequest, space: str) -> Row:
    return Row(
        key=cr.id,
        cells=[
            safe(cr.title, limit=200),
            safe(space, limit=80),
            safe(cr.status, limit=20),
            format.ago(cr.updated_at),
        ],
        style="dim" if cr.status in ("merged", "archived") else "",
        data=cr,
    )


class ClusterScreen(FolioScreen):
    """Issues cluster ``cluster_id`` of organization ``org_id``."""

    org_id: str

    ROUTE: ClassVar[str | None] = CLUSTER.kind
    CSS_PATH = [styles_dir() / "conversations.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "m", "mute", "Mute", id="cluster.mute", tooltip="Mute or unmute: a muted cluster prompts no change requests"
        ),
        _tab_key("1", "summary", "Summary"),
        _tab_key("2", "issues", "Issues"),
        _tab_key("3", "change-requests", "Change requests"),
    ]

    def __init__(self, services: Services, org_id: str, cluster_id: str, *, trail: tuple[str, ...] = ()) -> None:
        super().__init__(services, trail=trail)
        self.org_id = org_id
        self.cluster_id = cluster_id
        self.crumb = "Cluster"
        self.view: ClusterView | None = None
        self.not_offered = False
        self.sending = False

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        with Vertical(id="cluster-head", classes="conversations--head"):
            yield Static(Content("Loading the cluster…"), id="cluster-title", classes="conversations--title")
            yield Static(id="cluster-facts", classes="conversations--facts")
            with Horizontal(id="cluster-pulse-row"):
                yield Sparkline([], id="cluster-pulse")
                yield Static(id="cluster-trend")
        with TabbedContent(initial="summary", id="cluster-tabs", classes="conversations--tabs"):
            with TabPane("1 Summary", id="summary"), VerticalScroll(id="cluster-summary-scroll"):
                yield SafeMarkdown(id="cluster-summary")
            with TabPane("2 Issues", id="issues"):
                yield ImpactBrowser(ISSUE_COLUMNS, empty="No issues in this cluster.", id="cluster-issues")
            with TabPane("3 Change requests", id="change-requests"):
                yield ResourceBrowser(
                    CR_COLUMNS, empty="No change request is linked to this cluster.", id="cluster-change-requests"
                )
        yield KeysFooter()

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#cluster-tabs", TabbedContent)

    @property
    def issues_list(self) -> ResourceBrowser:
        return self.query_one("#cluster-issues", ResourceBrowser)

    @property
    def change_requests_list(self) -> ResourceBrowser:
        return self.query_one("#cluster-change-requests", ResourceBrowser)

    def on_mount(self) -> None:
        self._draw_sub_title()
        self.query_one("#cluster-summary-scroll").focus()
        self.load()

    # -- loading -----------------------------------------------------------------------------------------------

    @work(exclusive=True, group="cluster", exit_on_error=False)
    @cache_first
    async def load(self) -> None:
        for browser in (self.issues_list, self.change_requests_list):
            browser.set_error(None)
            browser.set_loading(True)
        try:
            view = await self.services.conversations.cluster_view(self.org_id, self.cluster_id)
        except NotOfferedHere:
            self.not_offered = True
            self._say(Content(NOT_OFFERED))
            for browser in (self.issues_list, self.change_requests_list):
                browser.empty = NOT_OFFERED
                browser.set_rows([])
            self.refresh_bindings()
            return
        except ServiceError as exc:
            failed = error_message(exc, doing="Could not load the cluster", hint="Press r to try again.")
            self._say(failed, error=True)
            for browser in (self.issues_list, self.change_requests_list):
                browser.set_error(failed)
            return
        self.show(view)

    def _say(self, message: Content, *, error: bool = False) -> None:
        title = self.query_one("#cluster-title", Static)
        title.update(message)
        title.set_class(error, "-error")

    def show(self, view: ClusterView) -> None:
        self.view = view
        cluster = view.cluster
        label = cluster.label or cluster.id
        self.set_crumb(label)
        self.remember("cluster", {"org_id": self.org_id, "cluster_id": cluster.id}, label)
        self._say(safe(label, limit=300))
        self._show_facts(cluster)
        self.query_one("#cluster-summary", SafeMarkdown).show(
            (cluster.summary.plain_text() if cluster.summary else "").strip() or "*This cluster has no summary.*"
        )
        self._fill(self.issues_list, view.issues, issue_row, "Could not load the cluster's issues")
        titles = view.space_titles
        self._fill(
            self.change_requests_list,
            view.change_requests,
            lambda cr: change_request_row(cr, titles.get(cr.space, cr.space)),
            "Could not load the linked change requests",
        )
        if isinstance(view.issues, list):
            for entry in view.issues:
                if entry.conversation is not None:
                    ids = {"org_id": self.org_id, "conversation_id": entry.conversation.id}
                    self.remember("conversation", ids, entry.conversation.subject)
        self.refresh_bindings()

    def _show_facts(self, cluster: IssuesCluster) -> None:
        stats = cluster.stats
        facts = [
            safe(f"icon {cluster.icon or format.DASH}", limit=80),
            impact_content(cluster.impact),
            Content("muted: prompts no change requests" if cluster.muted else "not muted"),
        ]
        if stats is not None:
            counted = f"{format.count(stats.issues, 'issue')} from {format.count(stats.conversations, 'conversation')}"
            facts.append(Content(counted))
        if cluster.sources:
            facts.append(safe(f"sources: {describe_sources(cluster.sources)}", limit=300))
        facts.append(Content(f"updated {format.ago(cluster.updated_at)}"))
        self.query_one("#cluster-facts", Static).update(Content(" · ").join(facts))
        self.query_one("#cluster-pulse", Sparkline).data = list(cluster.pulse)
        weekly = ", ".join(f"{v:g}" for v in cluster.pulse[-4:])
        words = f"13-week pulse\n{trend(cluster.pulse)}\nlast 4 weeks: {weekly}"
        self.query_one("#cluster-trend", Static).update(Content(words))

    @staticmethod
    def _fill(
        browser: ResourceBrowser, found: Sequence[Any] | Exception, row: Callable[[Any], Row], doing: str
    ) -> None:
        if isinstance(found, Exception):
            hint = "Press r to try again."
            text = (
                Content(NOT_OFFERED)
                if isinstance(found, NotOfferedHere)
                else error_message(found, doing=doing, hint=hint)
            )
            browser.set_error(text)
            return
        browser.set_loading(False)
        browser.set_rows([row(item) for item in found])

    # -- keys --------------------------------------------------------------------------------------------------

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        data = event.row.data
        if event.resource_list is self.issues_list.list:
            entry: IssueWithConversation = data  # type: ignore[assignment]
            conversation = entry.conversation
            conversation_id = conversation.id if conversation else entry.issue.conversation
            if not conversation_id:
                self.notify("This issue names no conversation.", severity="warning", markup=False)
                return
            title = conversation.subject if conversation else None
            self.post_message(
                Open("conversation", {"org_id": self.org_id, "conversation_id": conversation_id}, title=title)
            )
        elif event.resource_list is self.change_requests_list.list:
            cr: ChangeRequest = data  # type: ignore[assignment]
            self.post_message(Open("change-request", {"space_id": cr.space, "ref": cr.number}, title=cr.title))

    def action_show_tab(self, tab: str) -> None:
        if tab in TABS:
            self.tabs.active = tab

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        active = self.tabs.active
        if active == "issues":
            self.issues_list.focus_list()
        elif active == "change-requests":
            self.change_requests_list.focus_list()
        else:
            self.query_one("#cluster-summary-scroll").focus()

    def why_not(self, action: str) -> str | None:
        if action == "mute":
            if self.not_offered:
                return NOT_OFFERED
            if self.view is None:
                return "The cluster is still loading."
            if self.sending:
                return "The last change is still being sent."
        return None

    def action_mute(self) -> None:
        if self.view is not None and not self.sending:
            self._set_muted(self.view.cluster, not self.view.cluster.muted)

    @work(exclusive=True, group="cluster-mute", exit_on_error=False)
    async def _set_muted(self, cluster: IssuesCluster, muted: bool) -> None:
        name = safe(cluster.label or cluster.id, limit=120).plain
        self.sending = True
        self.refresh_bindings()
        try:
            now = await self.services.conversations.set_muted(self.org_id, cluster.id, muted)
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not {'mute' if muted else 'unmute'} the cluster {name}")
            return
        finally:
            self.sending = False
            self.refresh_bindings()
        if self.view is not None:
            self.view.cluster = now
            self._show_facts(now)
        word = "Muted" if now.muted else "Unmuted"
        self.notify(f"{word}: {name}.", markup=False)

    def current_item(self) -> Item | None:
        active = self.tabs.active if self.is_mounted else "summary"
        if active == "issues" and (row := self.issues_list.list.highlighted) is not None:
            entry: IssueWithConversation = row.data  # type: ignore[assignment]
            urls = entry.conversation.urls if entry.conversation else None
            return Item(entry.issue.id, urls.source if urls else None, "issue")
        if active == "change-requests" and (row := self.change_requests_list.list.highlighted) is not None:
            cr: ChangeRequest = row.data  # type: ignore[assignment]
            return Item(cr.id, cr.urls.app if cr.urls else None, "change request")
        return Item(self.cluster_id, None, "cluster")

    def action_refresh(self) -> None:
        self.load()
