"""The members of one team, as the team screen lists them: name, email, team role (owner or member), role in the
organization. ``n`` adds a member (by email, or picked), ``e`` changes a team role, ``D`` removes a member; marked
with ``space`` (``*``: all shown), ``a`` adds several, ``x`` removes the marked and ``e`` sets their team role,
each in one request (``PUT .../members``). Only admins of the organization and owners of the team change its
members: the panel asks the team's ``permissions`` (:attr:`TeamMembersPanel.team`, set by the screen)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content

from folio.services import format
from folio.services.errors import ServiceError
from folio.services.people.people_plan import member_name, role_name, team_role_value
from folio.services.sites.site_rules import Choice
from folio.tui.errors import notify_error
from folio.tui.fresh import is_cached_only
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.people_forms import AddTeamMemberModal, AddTeamMembersModal
from folio.tui.modals.site_forms import ChoiceModal
from folio.tui.navigation import Ids
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.screens.people.members_common import Marking, you_first
from folio.tui.widgets.resource_list import Column, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from folio.models.member import Team, TeamMemberEntry
    from folio.services import Services

__all__ = ["TeamMembersPanel"]

COLUMNS = (
    Column("mark", " ", 1),
    Column("name", "Name"),
    Column("email", "Email"),
    Column("team-role", "Team role", 9),
    Column("role", "Org role", 8),
)
TEAM_ROLE_CHOICES = [Choice("owner", "owner: manages the team's members"), Choice("member", "member")]


def _name(entry: TeamMemberEntry) -> str:
    return safe(member_name(entry.organization), limit=80).plain


class TeamMembersPanel(Marking["TeamMemberEntry"], ResourcePanel["TeamMemberEntry"]):
    """The members of team ``team_id``; ``team`` (set by the screen once loaded) says what the caller may do."""

    org_id: str

    COLUMNS = COLUMNS
    EMPTY = "This team has no members yet. Press n to add one, a to add several."
    NOUN = "member"
    ROUTE = "member"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "add", "Add", id="team.add", tooltip="Add a member, by email or picked from the organization"),
        Binding("e", "team_role", "Team role", id="team.role", tooltip="Change the team role (of the marked: at once)"),
        Binding("D", "remove", "Remove", id="team.remove", tooltip="Remove the member from the team"),
        Binding("space", "mark", "Mark", id="team.mark", tooltip="Mark or unmark the member, for a bulk change"),
        Binding("a", "add_many", "Add several", id="team.add-many", tooltip="Add several members in one request"),
        Binding("x", "remove_marked", "Remove marked", id="team.remove-marked", tooltip="Remove the marked at once"),
        Binding(
            "asterisk",
            "mark_all",
            "Mark all",
            show=False,
            id="team.mark-all",
            tooltip="Mark every member shown (again: unmark them)",
        ),
    ]

    def __init__(self, services: Services, org_id: str, team_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.team_id = team_id
        self.team: Team | None = None
        self.on_write: Callable[[], None] | None = None
        """Called after each change the panel made (the screen reloads its line about the team)."""
        self.marks: dict[str, TeamMemberEntry] = {}
        known = services.people.known_access(org_id)
        self.me: str | None = known.user_id if known is not None else None
        """The signed-in user's id (their row says "(you)"), once known."""

    def hint(self) -> str:
        if self.marks:
            return f"{len(self.marks)} marked: x removes them, e sets their team role, in one request"
        return "space marks · n adds one · a adds several"

    async def fetch(self) -> AsyncIterator[Sequence[TeamMemberEntry]]:
        people = self.services.people
        if self.me is None and not is_cached_only():
            self.me = (await people.access(self.org_id)).user_id
        async for page in people.team_member_pages(self.org_id, self.team_id):
            yield page

    def row(self, entry: TeamMemberEntry) -> Row:
        member = entry.organization
        return Row(
            key=member.id,
            cells=[
                self.mark_cell(member.id),
                you_first(member.id, self.me) + safe(member.user.display_name or member.id, limit=80),
                safe(member.user.email or "", limit=120),
                entry.team.role,
                role_name(member.role),
            ],
            data=entry,
        )

    def opens(self, entry: TeamMemberEntry) -> tuple[Ids, str] | None:
        return {"org_id": self.org_id, "user_id": entry.organization.id}, member_name(entry.organization)

    def item_of(self, entry: TeamMemberEntry) -> Item | None:
        return Item(entry.organization.id, None, "member")

    def loaded(self, items: list[TeamMemberEntry], *, complete: bool) -> None:
        self.keep_marks({e.organization.id: e for e in items})
        super().loaded(items, complete=complete)
        self.draw_hint()

    # -- what may be done --------------------------------------------------------------------------------------

    def _why_not_manage(self) -> str | None:
        if self.team is None:
            return "The team is not loaded yet."
        if not self.team.permissions.admin:
            return "Only admins of the organization and owners of this team can change its members."
        return None

    def why_not(self, action: str) -> str | None:
        if action in ("add", "add_many"):
            return self._why_not_manage()
        if action in ("remove_marked",) and not self.marks:
            return "No member is marked: space marks one, * marks all shown."
        if action == "team_role" and self.marks:
            return self._why_not_manage()
        if action in ("team_role", "remove", "mark") and self.current is None:
            return "No member is selected."
        if action in ("team_role", "remove", "remove_marked"):
            return self._why_not_manage()
        if action == "mark_all" and not self.browser.list.visible_count:
            return "No member is shown."
        return None

    def after_write(self, keep: str | None = None) -> None:
        """A change was made: load the members again, and the team's line (its member count moved)."""
        self.reload(keep=keep)
        if self.on_write is not None:
            self.on_write()

    # -- one member --------------------------------------------------------------------------------------------

    def _in_team(self) -> set[str]:
        return {e.organization.id for e in self.items}

    def action_add(self) -> None:
        def added(name: str | None) -> None:
            if name is not None:
                self.notify(f"{safe(name, limit=80).plain} was added to the team.", markup=False)
                self.after_write()

        modal = AddTeamMemberModal(self.services.people, self.org_id, self.team_id, leave_out=self._in_team())
        self.app.push_screen(modal, added)

    def action_team_role(self) -> None:
        people = self.services.people
        if self.marks:
            marked = list(self.marks.values())

            async def submit_all(value: str) -> None:
                role = team_role_value(value)
                await people.change_team_members(
                    self.org_id, self.team_id, roles={e.organization.id: role for e in marked}
                )

            def all_done(value: str | None) -> None:
                if value is not None:
                    self.notify(f"{format.count(len(marked), 'member')} now {value} of the team.", markup=False)
                    self.clear_marks()
                    self.after_write()

            title = Content(f"Team role of the {format.count(len(marked), 'marked member')}")
            self.app.push_screen(ChoiceModal(title, TEAM_ROLE_CHOICES, submit_all), all_done)
            return
        entry = self.current
        if entry is None:
            return
        current = entry.team.role

        async def submit(value: str) -> None:
            if value != current:
                await people.set_team_role(self.org_id, self.team_id, entry.organization.id, team_role_value(value))

        def done(value: str | None) -> None:
            if value is None:
                return
            if value == current:
                self.notify(f"{_name(entry)} is already {current}: nothing changed.", markup=False)
                return
            self.notify(f"{_name(entry)} is now {value} of the team (was {current}).", markup=False)
            self.after_write(keep=entry.organization.id)

        title = Content.assemble("Team role of ", (_name(entry), "bold"))
        self.app.push_screen(ChoiceModal(title, TEAM_ROLE_CHOICES, submit, current=current), done)

    def action_remove(self) -> None:
        entry = self.current
        if entry is None:
            return
        title = Content.assemble("Remove ", (_name(entry), "bold"), " from the team?")
        body = "They stay in the organization; they lose what the team gave them access to."

        def confirmed(ok: bool | None) -> None:
            if ok:
                self.run_worker(self._remove(entry), group="team-remove", exit_on_error=False)

        self.app.push_screen(ConfirmModal(title, body, accept_key="y", accept_label="Remove"), confirmed)

    async def _remove(self, entry: TeamMemberEntry) -> None:
        try:
            await self.services.people.remove_team_member(self.org_id, self.team_id, entry.organization.id)
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not remove {_name(entry)} from the team")
            return
        self.notify(f"{_name(entry)} was removed from the team.", markup=False)
        self.marks.pop(entry.organization.id, None)
        self.after_write()

    # -- in bulk -----------------------------------------------------------------------------------------------

    def action_mark(self) -> None:
        self.toggle_mark()

    def action_mark_all(self) -> None:
        self.mark_all()

    def action_add_many(self) -> None:
        def added(count: int | None) -> None:
            if count:
                self.notify(f"{format.count(count, 'member')} added to the team in one request.", markup=False)
                self.after_write()

        modal = AddTeamMembersModal(self.services.people, self.org_id, self.team_id, leave_out=self._in_team())
        self.app.push_screen(modal, added)

    def action_remove_marked(self) -> None:
        marked = list(self.marks.values())
        if not marked:
            return
        names = ", ".join(_name(e) for e in marked[:5]) + (", …" if len(marked) > 5 else "")
        title = Content(f"Remove the {format.count(len(marked), 'marked member')} from the team?")
        body = Content(f"{names}. They stay in the organization. One request removes them all.")

        def confirmed(ok: bool | None) -> None:
            if ok:
                self.run_worker(self._remove_marked(marked), group="team-remove", exit_on_error=False)

        self.app.push_screen(ConfirmModal(title, body, accept_key="y", accept_label="Remove"), confirmed)

    async def _remove_marked(self, marked: list[TeamMemberEntry]) -> None:
        ids = [e.organization.id for e in marked]
        try:
            await self.services.people.change_team_members(self.org_id, self.team_id, remove=ids)
        except ServiceError as exc:
            notify_error(self, exc, doing="Could not remove the marked members (none was removed)")
            return
        self.notify(f"{format.count(len(ids), 'member')} removed from the team.", markup=False)
        self.clear_marks()
        self.after_write()
