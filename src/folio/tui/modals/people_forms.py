"""The forms of the members and teams screens; each sends itself and keeps what was typed when sending fails.

CreateTeamModal      a title (1..64 checked as you type) and, optionally, members picked from a list -> Team
RenameTeamModal      a team's title, opened with the exact title the service gave -> Team
AddTeamMemberModal   one member by email (or id) or picked from a list, with their team role -> the name added
AddTeamMembersModal  several members picked from a list, added in one request -> how many were added
TypedConfirm         "type the member's email (the team's title) to confirm" -> bool
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from textual import work
from textual.content import Content
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

from folio.services.errors import ServiceError
from folio.services.people.people_plan import check_team_title, member_name, team_role_value
from folio.tui.errors import error_message
from folio.tui.modals.form import Field, FormModal
from folio.tui.modals.site_forms import TypedConfirmModal
from folio.tui.safe import safe

if TYPE_CHECKING:
    from folio.models.member import Member, Team
    from folio.services.people.people import PeopleService

__all__ = ["AddTeamMemberModal", "AddTeamMembersModal", "CreateTeamModal", "RenameTeamModal", "TypedConfirm"]

T = TypeVar("T")


def member_label(member: Member) -> Content:
    """``Ada Okafor <ada@northwind.dev>`` as safe content."""
    email = member.user.email
    name = member_name(member)
    return safe(f"{name} <{email}>" if email and email != name else name, limit=100)


TypedConfirm = TypedConfirmModal
"""Kept under the name the people screens use: the base names what must be typed (``noun``)."""


class PickingForm(FormModal[T], Generic[T]):
    """A form with a list of the organization's members to pick from (space toggles), loaded when it opens;
    ``leave_out``: user ids not offered (already in the team)."""

    DEFAULT_CSS = """
    PickingForm .people-form--pick-label { color: $text-muted; margin-top: 1; height: 1; }
    PickingForm SelectionList { height: auto; max-height: 10; }
    """
    PICK_LABEL = "Members (space picks; optional)"

    def __init__(
        self,
        people: PeopleService,
        org_id: str,
        *,
        leave_out: Collection[str] = (),
        values: Mapping[str, Any] | None = None,
        draft: str | None = None,
        where: str = "",
        title: Content | str | None = None,
    ) -> None:
        super().__init__(values=values, draft=draft, where=where, title=title)
        self.people = people
        self.org_id = org_id
        self.leave_out = set(leave_out)
        self.picker: SelectionList[str] = SelectionList[str](id="field-members", compact=True)
        self.members: dict[str, Member] = {}

    def on_mount(self) -> None:
        fields = self.query_one(".form--fields")
        fields.mount(
            Static(Content(self.PICK_LABEL), classes="people-form--pick-label"),
            self.picker,
            Static(classes="form--field-problem", id="problem-members"),
        )
        super().on_mount()
        if not self.fields():
            self.picker.focus()
        self.load_members()

    @work(exclusive=True, group="people-form-members", exit_on_error=False)
    async def load_members(self) -> None:
        self.picker.loading = True
        try:
            members = await self.people.members(self.org_id)
        except ServiceError as exc:
            self.say(error_message(exc, doing="Could not load the members to pick from"))
            return
        finally:
            self.picker.loading = False
        offered = [m for m in members if m.id not in self.leave_out]
        offered.sort(key=lambda m: member_name(m).lower())
        self.members = {m.id: m for m in offered}
        self.picker.add_options([Selection(member_label(m), m.id) for m in offered])
        if offered and self.picker.highlighted is None:
            self.picker.highlighted = 0

    @property
    def picked(self) -> list[str]:
        """The user ids picked, in the list's order."""
        return list(self.picker.selected)

    def values(self) -> dict[str, Any]:
        out = super().values()
        out["members"] = self.picked
        return out

    def show_problems(self, problems: Mapping[str, str]) -> None:
        super().show_problems(problems)
        line = self.query_one("#problem-members", Static)
        problem = problems.get("members")
        line.update(safe(problem, limit=300) if problem else Content(""))
        line.display = bool(problem)

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[str]) -> None:
        event.stop()
        self.touched = True
        self.live_check()


class CreateTeamModal(PickingForm["Team"]):
    """A new team of ``org_id``: its title, and members picked from the organization's."""

    TITLE = "New team"
    FIELDS = (Field("title", "Title", placeholder="1 to 64 characters"),)
    SEND_LABEL = "Create"
    FAILED = "Not created"

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        problem = check_team_title(str(values.get("title") or ""))
        return {"title": problem} if problem else {}

    def __init__(self, people: PeopleService, org_id: str, **kwargs: Any) -> None:
        super().__init__(people, org_id, **kwargs)
        self.before: dict[str, set[str]] = {}
        """Title -> the ids of the teams of that title when it was last sent (a lost answer is not found in them)."""

    async def submit(self, values: Mapping[str, Any]) -> Team:
        title = str(values["title"])
        self.before.pop(title, None)
        self.before[title] = await self.people.teams_titled(self.org_id, title)
        return await self.people.create_team(self.org_id, title, values.get("members") or ())

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        title = str(values["title"])
        before = self.before.get(title)
        if before is None:  # the teams of that title could not be read: the create was not sent
            return None
        return await self.people.find_team(self.org_id, title, before=before, members=values.get("members") or ())


class RenameTeamModal(FormModal["Team"]):
    """A team's new title (opened with its exact title)."""

    TITLE = "Rename the team"
    FIELDS = (Field("title", "Title", placeholder="1 to 64 characters"),)
    SEND_LABEL = "Rename"
    FAILED = "Not renamed"

    def __init__(self, people: PeopleService, org_id: str, team: Team) -> None:
        super().__init__(values={"title": team.title}, draft=f"team-title:{team.id}", where="a team's new title")
        self.people = people
        self.org_id = org_id
        self.team = team

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        problem = check_team_title(str(values.get("title") or ""))
        return {"title": problem} if problem else {}

    async def submit(self, values: Mapping[str, Any]) -> Team:
        return await self.people.rename_team(self.org_id, self.team.id, str(values["title"]))

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        team = await self.people.team(self.org_id, self.team.id)
        return team if team.title == values["title"] else None


TEAM_ROLE_CHOICES = (("member", "member"), ("owner: manages the team's members", "owner"))


class AddTeamMemberModal(PickingForm[str]):
    """One member added to a team: typed (an email or a user id) or picked (the first picked wins over the
    typed one), with a team role."""

    TITLE = "Add a member to the team"
    FIELDS = (
        Field("who", "Email", placeholder="someone@example.com, or pick below"),
        Field("role", "Team role", kind="choice", choices=TEAM_ROLE_CHOICES),
    )
    SEND_LABEL = "Add"
    FAILED = "Not added"
    PICK_LABEL = "Or pick a member (space picks one)"

    def __init__(self, people: PeopleService, org_id: str, team_id: str, *, leave_out: Collection[str] = ()) -> None:
        super().__init__(
            people,
            org_id,
            leave_out=leave_out,
            values={"role": "member"},
            draft=f"team-add:{team_id}",
            where="a member to add to a team",
        )
        self.team_id = team_id

    def _who(self, values: Mapping[str, Any]) -> str:
        picked: Sequence[str] = values.get("members") or ()
        return picked[0] if picked else str(values.get("who") or "").strip()

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        picked: Sequence[str] = values.get("members") or ()
        typed = str(values.get("who") or "").strip()
        if len(picked) > 1:
            return {"who": "Pick one member here (a on the team adds several at once)."}
        if not picked and not typed:
            return {"who": "Type an email, or pick a member below."}
        if not picked and "@" not in typed and " " in typed:
            return {"who": "An email (or a user id), without spaces."}
        return {}

    async def submit(self, values: Mapping[str, Any]) -> str:
        who = self._who(values)
        role = team_role_value(values.get("role"))
        await self.people.add_team_member(self.org_id, self.team_id, who, role)
        picked = self.members.get(who)
        return member_name(picked) if picked is not None else who

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        found = await self.people.find_team_member(self.org_id, self.team_id, self._who(values))
        return member_name(found.organization) if found is not None else None


class AddTeamMembersModal(PickingForm[int]):
    """Several members added to a team in one request (``PUT .../members`` with ``add``)."""

    TITLE = "Add members to the team"
    FIELDS = ()
    SEND_LABEL = "Add"
    FAILED = "Not added"
    PICK_LABEL = "Members to add (space picks; ctrl+s adds them all in one request)"

    def __init__(self, people: PeopleService, org_id: str, team_id: str, *, leave_out: Collection[str] = ()) -> None:
        super().__init__(people, org_id, leave_out=leave_out)
        self.team_id = team_id

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        return {} if values.get("members") else {"members": "Pick at least one member (space)."}

    async def submit(self, values: Mapping[str, Any]) -> int:
        chosen = list(values.get("members") or ())
        await self.people.change_team_members(self.org_id, self.team_id, add=chosen)
        return len(chosen)

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        chosen = list(values.get("members") or ())
        for user_id in chosen:
            if await self.people.find_team_member(self.org_id, self.team_id, user_id) is None:
                return None
        return len(chosen)
