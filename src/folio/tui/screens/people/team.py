"""One team: a line about it (members, spaces, created, whether you manage it), then its members with their
team role (:mod:`folio.tui.screens.people.team_members`: adding, removing and changing roles, one at a time or marked,
in one request)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Header, Static

from folio.services import format
from folio.services.errors import ServiceError
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.screens.panel_screen import PanelScreen
from folio.tui.screens.people.team_members import TeamMembersPanel
from folio.tui.widgets.footer import KeysFooter

if TYPE_CHECKING:
    from folio.models.member import Team
    from folio.services import Services

__all__ = ["TeamMembersPanel", "TeamScreen"]

TEAM = Route(
    kind="team",
    noun="team",
    screen="TeamScreen",
    ids=("org_id", "team_id"),
    titled=True,
    order=21,
    summary="a team's members and their team role; add and remove one or many at once",
)


class TeamScreen(PanelScreen[TeamMembersPanel]):
    """The team ``team_id`` of organization ``org_id`` (its scope): a line about the team above its members'
    panel (``compose`` puts it there); ``title``, the team's, is the crumb until the team has loaded."""

    org_id: str
    team_id: str

    ROUTE: ClassVar[str | None] = TEAM.kind
    CSS_PATH = [styles_dir() / "people.tcss"]
    PANEL = TeamMembersPanel
    CRUMB = "Team"

    def __init__(
        self, services: Services, org_id: str, team_id: str, *, title: str | None = None, trail: tuple[str, ...] = ()
    ) -> None:
        super().__init__(services, org_id, team_id, title=title, trail=trail)
        self.team: Team | None = None
        self.seen = services.changes.version(("team", team_id))

    def make_panel(self) -> TeamMembersPanel:
        return TeamMembersPanel(self.services, self.org_id, self.team_id, id="team-members")  # (#team-summary: ours)

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static(Content("Loading the team…"), id="team-summary")
        yield self.make_panel()
        yield KeysFooter()

    def on_mount(self) -> None:  # PanelScreen's runs too (Textual calls both)
        self.panel.on_write = self._team_changed
        self.load()

    def _team_changed(self) -> None:
        """The panel changed the team's members: its line (the member count) loads again."""
        self.load()

    def on_screen_resume(self) -> None:  # FolioScreen's runs too (Textual calls both)
        if self.services.changes.version(("team", self.team_id)) != self.seen:
            self.action_refresh()

    @work(exclusive=True, group="team", exit_on_error=False)
    @cache_first
    async def load(self) -> None:
        line = self.query_one("#team-summary", Static)
        self.seen = self.services.changes.version(("team", self.team_id))
        try:
            team = await self.services.people.team(self.org_id, self.team_id)
        except ServiceError as exc:
            line.update(error_message(exc, doing="Could not load the team", hint="Press r to try again."))
            return
        self.team = team
        self.panel.team = team
        self.set_crumb(team.title or team.id)
        self.remember("team", {"org_id": self.org_id, "team_id": team.id}, team.title)
        manage = "you manage its members" if team.permissions.admin else "only its owners and admins manage it"
        first = Content.assemble(
            (safe(team.title or team.id, limit=80).plain, "bold"),
            f" · {format.count(team.members, 'member')} · {format.count(team.spaces, 'space')}",
        )
        line.update(Content("\n").join([first, Content(f"Created {format.when(team.created_at)} · {manage}")]))
        self.refresh_bindings()

    def current_item(self) -> Item | None:
        return self.panel.current_item() or Item(self.team_id, None, "team")

    def action_refresh(self) -> None:
        self.load()
        self.panel.reload()
