"""The first screen: the organizations the signed-in user belongs to; enter opens one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from folio.tui import styles_dir
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first, describe_age
from folio.tui.safe import safe

if TYPE_CHECKING:
    from folio.models.organization import Organization
    from folio.services.browse import BrowseService

__all__ = ["OrganizationsScreen", "organization_row"]

UNKNOWN = "—"
COLUMNS = (
    ("Organization", "title"),
    ("Plan", "plan"),
    ("Type", "type"),
    ("Members", "members"),
    ("Created", "created"),
)


def _words(value: str | None) -> str | None:
    """``pro_2024`` -> ``Pro``, ``nonProfit`` -> ``Non profit``: enumerations as a person reads them."""
    if not value:
        return None
    base = value.rsplit("_", 1)[0] if value.rsplit("_", 1)[-1].isdigit() else value
    spaced = "".join(f" {c.lower()}" if c.isupper() else c for c in base).replace("_", " ").replace("-", " ")
    spaced = " ".join(spaced.split())
    return spaced[:1].upper() + spaced[1:]


def _cell(value: Content | str) -> Text:
    # DataTable (Textual 8.2) measures a Content cell as one column wide, so cells are Rich Text, built from
    # the plain text (never from markup).
    return Text(value.plain if isinstance(value, Content) else value, no_wrap=True, overflow="ellipsis")


def organization_row(org: Organization) -> tuple[Text, ...]:
    """The cells of one organization, every server string made safe."""
    kind = _words(org.type)
    if kind and org.community_type:
        kind = f"{kind} ({(_words(org.community_type) or '').lower().replace(' ', '-')})"
    # The organization resource carries no member count; billing.paidMembers is the nearest (absent for
    # callers who may not see billing, shown as a dash).
    members = org.billing.paid_members if org.billing else None
    return (
        _cell(safe(org.title or org.id, limit=80)),
        _cell(safe(_words(org.plan), limit=30) if org.plan else UNKNOWN),
        _cell(safe(kind, limit=40) if kind else UNKNOWN),
        _cell(f"{members:,.0f}" if members is not None else UNKNOWN),
        _cell(org.created_at.date().isoformat() if org.created_at else UNKNOWN),
    )


class OrganizationsScreen(Screen[None]):
    """Lists the user's organizations: loaded in a worker, refreshed with ``r``, opened with enter; empty and
    failed states are said in words."""

    SESSION: ClassVar[tuple[str, tuple[str, ...]] | None] = ("organizations", ())
    """How the session rebuilds this screen (``folio.tui.session``)."""

    CSS_PATH = [styles_dir() / "organizations.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "r",
            "refresh",
            "Refresh",
            id="organizations.refresh",
            tooltip="Load the list of organizations again",
        ),
        Binding(
            "j",
            "cursor_down",
            "Down",
            show=False,
            id="organizations.cursor_down",
            tooltip="Move to the next organization",
        ),
        Binding(
            "k",
            "cursor_up",
            "Up",
            show=False,
            id="organizations.cursor_up",
            tooltip="Move to the previous organization",
        ),
    ]

    def __init__(self, browse: BrowseService, *, initial: str | None = None) -> None:
        super().__init__()
        self.browse = browse
        self.initial = initial
        self.organizations: list[Organization] = []
        self.sub_title = "Organizations"

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        with Vertical(id="organizations-body"):
            yield Static(id="organizations-summary")
            yield Static(id="organizations-message")
            yield DataTable(id="organizations-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def show_age(self, key: str, stored_at: float | None) -> None:
        """The list was painted from data cached at ``stored_at`` (None: it is fresh): say so in the header."""
        age = describe_age(stored_at)
        self.sub_title = "Organizations" + (f"  ({age})" if age else "")

    @property
    def table(self) -> DataTable[Text]:
        return self.query_one("#organizations-table", DataTable)

    def on_mount(self) -> None:
        for label, key in COLUMNS:
            self.table.add_column(label, key=key)
        self.load()

    # -- loading ----------------------------------------------------------------------------------

    @work(exclusive=True, group="orgs", exit_on_error=False)
    @cache_first
    async def load(self) -> None:
        """Read the organizations and show them, or say why not."""
        self._say(None)
        self.table.display = True
        self.table.loading = True
        self._summary(f"Loading organizations from {self.browse.where}…")
        try:
            organizations = await self.browse.organizations()
        except Exception as exc:
            self._first_screen_shown()
            self.table.loading = False
            self.table.clear()
            self.table.display = False
            self.organizations = []
            self._summary("")
            self._say(
                error_message(exc, doing="Could not load your organizations", hint="Press r to try again."),
                error=True,
            )
            return
        self.table.loading = False
        self._show(organizations)
        self._first_screen_shown()

    def _first_screen_shown(self) -> None:
        """Tell the app the first screen has its answer (the app waits for it before less urgent requests)."""
        shown = getattr(self.app, "first_screen_shown", None)
        if callable(shown):
            shown()

    def _show(self, organizations: list[Organization]) -> None:
        self.organizations = organizations
        table = self.table
        previous = self._current_id() or self.initial
        table.clear()
        for org in organizations:
            table.add_row(*organization_row(org), key=org.id)
            self._remember(org)
        count = len(organizations)
        noun = "organization" if count == 1 else "organizations"
        self._summary(f"{count} {noun} on {self.browse.where}")
        if not organizations:
            table.display = False
            self._say(
                Content(
                    "You are not a member of any organization yet. Create or join one on GitBook, "
                    "then press r to refresh."
                )
            )
            return
        table.display = True
        ids = [org.id for org in organizations]
        if previous in ids:
            table.move_cursor(row=ids.index(previous), animate=False)
        table.focus()

    def _current_id(self) -> str | None:
        table = self.table
        if not self.organizations or table.row_count == 0:
            return None
        row = table.cursor_row
        return self.organizations[row].id if 0 <= row < len(self.organizations) else None

    def _summary(self, text: str) -> None:
        self.query_one("#organizations-summary", Static).update(safe(text, limit=200))

    def _say(self, message: Content | None, *, error: bool = False) -> None:
        widget = self.query_one("#organizations-message", Static)
        widget.update(message or Content(""))
        widget.display = message is not None
        widget.set_class(error, "-error")

    # -- opening ----------------------------------------------------------------------------------

    def _opener(self, org: Organization) -> Any:
        def open_organization() -> Screen[Any]:
            from folio.tui.screens.organization import OrganizationScreen

            services: Any = getattr(self.app, "services", None)
            trail = ("Organizations",)
            return OrganizationScreen(services, org.id, title=org.title or org.id, trail=trail)

        return open_organization

    def _remember(self, org: Organization) -> None:
        """Make the organization reachable from the command palette's go-to."""
        remember = getattr(self.app, "remember", None)
        if callable(remember):
            remember("organization", org.id, org.title or org.id, self._opener(org))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click on the selected row) opens the organization."""
        event.stop()
        row = event.cursor_row
        if 0 <= row < len(self.organizations):
            self.app.push_screen(self._opener(self.organizations[row])())

    # -- actions ----------------------------------------------------------------------------------

    def action_refresh(self) -> None:
        self.load()

    def action_cursor_down(self) -> None:
        self.table.action_cursor_down()

    def action_cursor_up(self) -> None:
        self.table.action_cursor_up()
