"""The teams of an organization (``:teams [words]``): title, members, spaces, created; ``s`` filters by title on the
service (the words after ``:teams`` too), ``m`` shows only the teams you can manage (the ``owner`` filter: the
teams you own, every team for an admin). ``n`` creates a team (its title checked as you type, members picked from
the organization's), ``e`` renames one, ``D`` deletes one (its title typed); enter opens a team's members."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content

from folio.services import format
from folio.services.errors import ServiceError
from folio.tui import styles_dir
from folio.tui.context import context_of
from folio.tui.declare import Route
from folio.tui.errors import notify_error
from folio.tui.modals.people_forms import CreateTeamModal, RenameTeamModal, TypedConfirm
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.navigation import Ids, remember
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.screens.panel_screen import PanelScreen
from folio.tui.widgets.resource_list import Column, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from folio.models.member import Team
    from folio.services import Services
    from folio.services.people.people import Access

__all__ = ["TeamsPanel", "TeamsScreen", "team_row", "why_not_manage"]

TEAMS = Route(
    kind="teams",
    noun="team list",
    screen="TeamsScreen",
    verbs=("teams",),
    find="organization",
    key="T",
    label="Teams",
    hint="Teams and their members",
    order=20,
    summary="the organization's teams: create, rename, delete; [words] filters by title",
)

COLUMNS = (
    Column("title", "Team"),
    Column("members", "Members", 8, align="right"),
    Column("spaces", "Spaces", 6, align="right"),
    Column("created", "Created", 10),
)


def team_row(team: Team) -> Row:
    """One team's cells, every server string made safe."""
    return Row(
        key=team.id,
        cells=[
            safe(team.title or team.id, limit=80),
            f"{team.members:,}",
            f"{team.spaces:,}",
            format.ago(team.created_at),
        ],
        data=team,
    )


def why_not_manage(team: Team | None, doing: str) -> str | None:
    """Why the caller may not ``doing`` (``rename this team``) for ``team``: its ``permissions`` say so."""
    if team is None:
        return "No team is selected."
    if not team.permissions.admin:
        return f"Only admins of the organization and owners of this team can {doing}."
    return None


class TeamsPanel(ResourcePanel["Team"]):
    """The teams of ``org_id``; ``title`` starts a title filter on the service."""

    org_id: str

    COLUMNS = COLUMNS
    EMPTY = "This organization has no teams yet. Press n to create one."
    NOUN = "team"
    ROUTE = "team"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_team", "New team", id="teams.new", tooltip="Create a team, optionally with members"),
        Binding("e", "rename", "Rename", id="teams.rename", tooltip="Rename the team"),
        Binding("D", "delete", "Delete", id="teams.delete", tooltip="Delete the team (type its title)"),
        Binding("s", "search", "Title", id="teams.search", tooltip="Show the teams whose title has these words"),
        Binding(
            "m", "mine", "Mine", id="teams.mine", tooltip="Show only the teams you can manage (own), or every team"
        ),
    ]

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.title_filter: str | None = None
        """The service's title filter in force (``s``, or the words after ``:teams``)."""
        self.mine = False
        self.access: Access | None = services.people.known_access(org_id)
        self.seen = services.changes.version(("teams", org_id))

    def empty_text(self) -> str:
        """What the empty list says: which filter emptied it, or how to create the first team."""
        if self.title_filter or self.mine:
            return "No team matches. s changes the title filter, m shows every team."
        return self.EMPTY

    def hint(self) -> str:
        parts = ["Teams you manage" if self.mine else "All teams"]
        if self.title_filter:
            parts.append(f"titled “{safe(self.title_filter, limit=40).plain}”")
        parts.append("s title · m " + ("every team" if self.mine else "yours") + " · n new")
        return " · ".join(parts)

    async def fetch(self) -> AsyncIterator[Sequence[Team]]:
        people = self.services.people
        self.access = await people.access(self.org_id, fresh=True)
        owner = self.access.user_id if self.mine else None
        self.browser.empty = self.empty_text()
        async for page in people.team_pages(self.org_id, title=self.title_filter, owner=owner):
            yield page

    def row(self, team: Team) -> Row:
        return team_row(team)

    def opens(self, team: Team) -> tuple[Ids, str] | None:
        return {"org_id": self.org_id, "team_id": team.id}, team.title or team.id

    def item_of(self, team: Team) -> Item | None:
        return Item(team.id, None, "team")

    def loaded(self, items: list[Team], *, complete: bool) -> None:
        super().loaded(items, complete=complete)
        self.draw_hint()

    def reload(self, *, keep: str | None = None) -> None:
        # What is loaded now is what a write made so far: a return to this screen need not load it again.
        self.seen = self.services.changes.version(("teams", self.org_id))
        super().reload(keep=keep)

    def reload_if_changed(self) -> None:
        if self.services.changes.version(("teams", self.org_id)) != self.seen:
            self.reload()

    def apply_words(self, words: str) -> None:
        """The words after ``:teams`` (or saved by the session) filter the teams by title on the service."""
        title = words.strip() or None
        if title == self.title_filter:
            return
        self.title_filter = title
        self.draw_hint()
        if self.is_mounted:
            self.reload()

    def words(self) -> str:
        """The title filter in force: what the session saves."""
        return self.title_filter or ""

    def why_not(self, action: str) -> str | None:
        if action == "new_team":
            if self.access is None:
                return "Still finding out what you may do here: wait for the list to load."
            return self.access.why_not_admin("create teams")
        if action == "rename":
            return why_not_manage(self.current, "rename this team")
        if action == "delete":
            return why_not_manage(self.current, "delete this team")
        return None

    # -- actions -----------------------------------------------------------------------------------------------

    def action_mine(self) -> None:
        self.mine = not self.mine
        self.draw_hint()
        self.reload()

    def action_search(self) -> None:
        async def ask(text: str) -> None:
            return None

        def searched(text: str | None) -> None:
            if text is None:
                return
            self.title_filter = text.strip() or None
            self.draw_hint()
            self.reload()

        modal = TextEntryModal(
            "Teams whose title has (empty: every team)",
            ask,
            text=self.title_filter or "",
            multiline=False,
            send_label="Filter",
            allow_empty=True,
        )
        self.app.push_screen(modal, searched)

    def action_new_team(self) -> None:
        modal = CreateTeamModal(
            self.services.people, self.org_id, draft=f"team-new:{self.org_id}", where="a new team's title"
        )
        self.app.push_screen(modal, self._created)

    def _created(self, team: Team | None) -> None:
        if team is None:
            return
        self.notify(
            f"Team created: {safe(team.title, limit=80).plain} ({format.count(team.members, 'member')})", markup=False
        )
        remember(self, "team", {"org_id": self.org_id, "team_id": team.id}, team.title)
        self.title_filter = None
        self.draw_hint()
        self.reload(keep=team.id)

    def action_rename(self) -> None:
        team = self.current
        if team is None:
            return

        def renamed(updated: Team | None) -> None:
            if updated is None:
                return
            self.notify(
                f"Team renamed: {safe(team.title, limit=80).plain} \u2192 {safe(updated.title, limit=80).plain}",
                markup=False,
            )
            self.reload(keep=updated.id)

        self.app.push_screen(RenameTeamModal(self.services.people, self.org_id, team), renamed)

    def action_delete(self) -> None:
        team = self.current
        if team is None:
            return
        title = Content.assemble("Delete the team ", (safe(team.title, limit=80).plain, "bold"), "?")
        body = Content(
            f"Its {format.count(team.members, 'member')} stay in the organization; "
            "what the team gave them access to, they lose."
        )

        def confirmed(ok: bool | None) -> None:
            if ok:
                self.run_worker(self._delete(team), group="teams-delete", exit_on_error=False)

        self.app.push_screen(TypedConfirm(title, team.title or team.id, noun="title", body=body), confirmed)

    async def _delete(self, team: Team) -> None:
        name = safe(team.title, limit=80).plain
        try:
            await self.services.people.delete_team(self.org_id, team.id)
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not delete the team {name}")
            return
        self.notify(f"Team deleted: {name}", markup=False)
        context = context_of(self)
        if context is not None:  # the palette no longer offers it
            context.forget("team", {"org_id": self.org_id, "team_id": team.id})
        self.reload()


class TeamsScreen(PanelScreen[TeamsPanel]):
    """The teams of organization ``org_id``; ``words`` (from ``:teams docs``) filter them by title on the service
    (:meth:`TeamsPanel.apply_words`)."""

    org_id: str

    ROUTE: ClassVar[str | None] = TEAMS.kind
    CSS_PATH = [styles_dir() / "people.tcss"]
    PANEL = TeamsPanel
    CRUMB = "Teams"

    def make_panel(self) -> TeamsPanel:
        panel = super().make_panel()
        if self.words:  # given before its first load: one load, the search (not every team, then the search)
            panel.apply_words(self.words)
        return panel

    def on_screen_resume(self) -> None:  # FolioScreen's runs too (Textual calls both)
        self.panel.reload_if_changed()
