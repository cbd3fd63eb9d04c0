"""The issues clusters of an organization (``:clusters``): label, icon, impact (in the theme's colours), muted,
the 13-week pulse as a sparkline, issues and conversations, sources, last update. ``s`` cycles the sort (latest
update, impact, the last 4 weeks' pulse), ``h`` hides the muted ones, ``m`` mutes or unmutes, enter opens one.

Also here, for the other conversation screens: :class:`ImpactBrowser`, a resource browser whose impact column is
coloured with the theme's variables (``$text-error`` high, ``$text-warning`` medium, ``$text-success`` low).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.color import Color, ColorParseError
from textual.content import Content
from textual.strip import Strip
from textual.widgets import Static

from folio.services import format
from folio.services.errors import ServiceError
from folio.services.insights.conversations import (
    NOT_OFFERED,
    ClusterSort,
    NotOfferedHere,
    describe_sources,
    next_sort,
    sort_label,
    sparkline,
    trend,
)
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.errors import notify_error
from folio.tui.navigation import Ids
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.screens.panel_screen import PanelScreen
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import ResourceList
from folio.tui.widgets.resource_panel import ResourcePanel
from folio.tui.widgets.rows import Column, Row, column_span, layout

if TYPE_CHECKING:
    from textual.widget import Widget

    from folio.models.conversation import IssuesCluster
    from folio.services import Services

__all__ = ["ClustersPanel", "ClustersScreen", "ImpactBrowser", "cluster_facts", "cluster_row"]

CLUSTERS = Route(
    kind="clusters",
    noun="issues clusters",
    plural="issues clusters",
    screen="ClustersScreen",
    verbs=("clusters",),
    find="organization",
    key="C",
    label="Issue clusters",
    hint="What readers ask about, grouped",
    order=30,
    summary="the organization's issues clusters: impact, 13-week pulse, mute",
)

IMPACT_COLOURS = {"high": "text-error", "medium": "text-warning", "low": "text-success"}
"""The theme variable each impact is drawn in."""

COLUMNS = (
    Column("label", "Cluster", title=True),  # (the icon is a name, not a picture: the preview's facts say it)
    Column("impact", "Impact", 6),
    Column("muted", "Muted", 5),
    Column("pulse", "13-week pulse", 13),
    Column("issues", "Iss", 3, align="right"),
    Column("conversations", "Conv", 4, align="right"),
    Column("sources", "Sources"),
    Column("updated", "Updated", 10),
)


class ImpactList(ResourceList):
    """A resource list that draws the cells of its ``impact`` column in the theme's colour of that impact (not
    on the cursor's row, nor on a dimmed row)."""

    def __init__(self, columns: Sequence[Column], *, impact: str = "impact") -> None:
        super().__init__(columns)
        self.impact_index = [c.key for c in self.columns].index(impact)
        self._impact_styles: tuple[str, dict[str, Style]] | None = None

    def impact_styles(self) -> dict[str, Style]:
        """The style of each impact in the theme in force (worked out again when the theme changes)."""
        theme = self.app.theme
        if self._impact_styles is None or self._impact_styles[0] != theme:
            variables = self.app.get_css_variables()
            styles: dict[str, Style] = {}
            for impact, variable in IMPACT_COLOURS.items():
                try:
                    styles[impact] = Style(color=Color.parse(variables[variable]).rich_color)
                except (KeyError, ColorParseError):
                    continue  # a theme without this variable: the impact is drawn plainly
            self._impact_styles = (theme, styles)
        return self._impact_styles[1]

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        position = round(self.scroll_y) + y
        visible = self._visible  # the base's positions on screen -> indices in rows
        if position == self.cursor or not 0 <= position < len(visible):
            return strip
        row = self.rows[visible[position]]
        cells = row.cells
        if row.style == "dim" or self.impact_index >= len(cells):
            return strip
        cell = cells[self.impact_index]
        style = self.impact_styles().get(cell.plain if isinstance(cell, Content) else cell)
        if style is None:
            return strip
        start, end = column_span(layout(self.columns, strip.cell_length), self.impact_index)
        if start == end:  # left out on a narrow line
            return strip
        left, middle, right = strip.divide([start, end, strip.cell_length])
        coloured = Strip([Segment(s.text, (s.style or Style()) + style, s.control) for s in middle], middle.cell_length)
        return Strip.join([left, coloured, right])


class ImpactBrowser(ResourceBrowser):
    """A resource browser over an :class:`ImpactList`."""

    def __init__(self, columns: Sequence[Column], *, empty: str = "Nothing here yet.", id: str | None = None) -> None:
        super().__init__(columns, empty=empty, id=id)
        self._list = ImpactList(self.columns)


def cluster_row(cluster: IssuesCluster) -> Row:
    """One cluster's row, every server string made safe; a muted cluster is dimmed."""
    stats = cluster.stats
    return Row(
        key=cluster.id,
        cells=[
            safe(cluster.label or cluster.id, limit=200),
            cluster.impact or format.DASH,
            "muted" if cluster.muted else "",
            sparkline(cluster.pulse),
            f"{stats.issues:,}" if stats else format.DASH,
            f"{stats.conversations:,}" if stats else format.DASH,
            safe(describe_sources(cluster.sources) or format.DASH, limit=200),
            format.ago(cluster.updated_at),
        ],
        style="dim" if cluster.muted else "",
        data=cluster,
    )


def cluster_facts(cluster: IssuesCluster) -> str:
    """``icon moon · low impact · muted · 2 issues from 2 conversations · intercom 1, zendesk 1 · up 40 % over
    4 weeks`` (not yet made safe)."""
    stats = cluster.stats
    parts = [
        f"icon {cluster.icon or format.DASH}",
        f"{cluster.impact} impact" if cluster.impact else "impact not given",
        "muted" if cluster.muted else "not muted",
    ]
    if stats is not None:
        parts.append(f"{format.count(stats.issues, 'issue')} from {format.count(stats.conversations, 'conversation')}")
    if cluster.sources:
        parts.append(describe_sources(cluster.sources))
    parts.append(trend(cluster.pulse))
    return " · ".join(parts)


class ClustersPanel(ResourcePanel["IssuesCluster"]):
    """The organization's issues clusters with their keys."""

    org_id: str

    COLUMNS = COLUMNS
    EMPTY = "No issues clusters yet: they form as conversations are ingested (i on :conversations)."
    NOUN = "cluster"
    FAILED = "Could not load the issues clusters"
    ROUTE = "cluster"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "s",
            "cycle_sort",
            "Sort",
            id="clusters.sort",
            tooltip="Sort by latest update, impact, or the 4 weeks' pulse",
        ),
        Binding("h", "toggle_muted", "Hide muted", id="clusters.hide-muted", tooltip="Hide or show the muted clusters"),
        Binding(
            "m",
            "mute",
            "Mute",
            id="clusters.mute",
            tooltip="Mute or unmute: a muted cluster prompts no change requests",
        ),
    ]

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.sort: ClusterSort = "updated"
        self.hide_muted = False
        self.not_offered = False
        self.muting: set[str] = set()
        """The clusters whose mute or unmute is being sent (a second press waits for the first answer)."""

    def hint(self) -> str:
        if self.not_offered:
            return ""  # the list's status line says it, once
        muted = "muted hidden (h shows them)" if self.hide_muted else "h hides muted"
        return f"Sorted {sort_label(self.sort)} (s sorts) · {muted} · m mutes · / filters"

    def empty_text(self) -> str:
        if self.not_offered:
            return NOT_OFFERED
        if self.hide_muted:
            return "No cluster that is not muted. Press h to show the muted ones."
        return self.EMPTY

    async def fetch(self) -> AsyncIterator[Sequence[IssuesCluster]]:
        try:
            async for page in self.services.conversations.cluster_pages(
                self.org_id, sort=self.sort, hide_muted=self.hide_muted
            ):
                yield page
        except NotOfferedHere:
            self.not_offered = True
            self.browser.empty = NOT_OFFERED
            self.draw_hint()

    def compose(self) -> ComposeResult:
        yield Static(Content(self.hint()), classes="resource-panel--hint")
        yield ImpactBrowser(self.COLUMNS, empty=self.empty_text())  # the base's browser, impact in colour

    def row(self, cluster: IssuesCluster) -> Row:
        return cluster_row(cluster)

    def opens(self, cluster: IssuesCluster) -> tuple[Ids, str] | None:
        return {"org_id": self.org_id, "cluster_id": cluster.id}, cluster.label or cluster.id

    def item_of(self, cluster: IssuesCluster) -> Item | None:
        return Item(cluster.id, None, "cluster")

    def why_not(self, action: str) -> str | None:
        if action in ("cycle_sort", "toggle_muted", "mute") and self.not_offered:
            return NOT_OFFERED
        if action == "mute":
            cluster = self.current
            if cluster is not None and cluster.id in self.muting:
                return "The last change to this cluster is still being sent."
            return self.needs_current(action)
        return None

    # -- actions -------------------------------------------------------------------------------------------------

    def action_cycle_sort(self) -> None:
        self.sort = next_sort(self.sort)
        self.draw_hint()
        self.reload()

    def action_toggle_muted(self) -> None:
        self.hide_muted = not self.hide_muted
        self.draw_hint()
        self.reload()

    def action_mute(self) -> None:
        cluster = self.current
        if cluster is not None and cluster.id not in self.muting:
            self.muting.add(cluster.id)
            self.screen.refresh_bindings()
            self._set_muted(cluster, not cluster.muted)

    @work(exclusive=False, group="clusters-mute", exit_on_error=False)
    async def _set_muted(self, cluster: IssuesCluster, muted: bool) -> None:
        name = safe(cluster.label or cluster.id, limit=120).plain
        try:
            now = await self.services.conversations.set_muted(self.org_id, cluster.id, muted)
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not {'mute' if muted else 'unmute'} the cluster {name}")
            return
        finally:
            self.muting.discard(cluster.id)
            if self.is_attached:  # not when its screen was left meanwhile
                self.screen.refresh_bindings()
        if now.muted:
            hidden = " (hidden: h shows the muted ones)" if self.hide_muted else ""
            self.notify(f"Muted: {name}. It prompts no change requests now{hidden}.", markup=False)
        else:
            self.notify(f"Unmuted: {name}. It may prompt change requests again.", markup=False)
        self.reload(keep=cluster.id)


class ClustersScreen(PanelScreen[ClustersPanel]):
    """``:clusters [words]``: the issues clusters of organization ``org_id`` (the list opens filtered by the
    words), with a line under the list that tells the highlighted cluster in full (its label, icon, impact,
    counts, sources and trend)."""

    org_id: str

    ROUTE: ClassVar[str | None] = CLUSTERS.kind
    CSS_PATH = [styles_dir() / "conversations.tcss"]
    PANEL = ClustersPanel
    CRUMB = "Issues clusters"

    def below(self) -> Iterable[Widget]:
        yield Static(id="clusters-preview", classes="conversations--preview")

    @property
    def preview(self) -> Static:
        return self.query_one("#clusters-preview", Static)

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        cluster: IssuesCluster | None = event.row.data if event.row is not None else None  # type: ignore[assignment]
        if cluster is None:
            self.preview.update(Content(""))
            return
        label = safe(cluster.label or cluster.id, limit=200).plain
        self.preview.update(safe(f"{label} · {cluster_facts(cluster)}", limit=600))
