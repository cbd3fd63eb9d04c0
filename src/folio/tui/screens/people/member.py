"""One member of an organization: who they are (role, SSO, joined, last seen), the spaces they can reach with
their permission on each (tab 1) and their teams with their role in each (tab 2). ``e`` changes the role, ``O``
makes them an SSO member, ``D`` removes them (their email typed); enter opens the space or team under the
cursor."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Header, Static, TabbedContent, TabPane

from folio.models.emoji import as_character
from folio.services import format
from folio.services.errors import ServiceError
from folio.services.people.people_plan import YOU, member_name, role_name
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first
from folio.tui.navigation import Ids
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.screens.people.members_common import change_role, name_of, remove_member, set_sso
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.resource_list import Column, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from folio.models.member import Member, MemberSpace, MemberTeam
    from folio.services import Services
    from folio.services.people.people import Access

__all__ = ["MemberScreen", "MemberSpacesPanel", "MemberTeamsPanel"]

MEMBER = Route(
    kind="member",
    noun="member",
    screen="MemberScreen",
    ids=("org_id", "user_id"),
    titled=True,
    order=11,
    summary="a member: the spaces they reach with their permission, their teams",
)

TABS = ("spaces", "teams")


class MemberSpacesPanel(ResourcePanel["MemberSpace"]):
    """The spaces a member can reach, with their permission on each."""

    org_id: str

    COLUMNS = (
        Column("space", "Space"),
        Column("permission", "Permission", 10),
        Column("visibility", "Visibility", 12),
        Column("updated", "Updated", 10),
    )
    EMPTY = "This member reaches no space of the organization (a guest sees only what is shared with them)."
    NOUN = "space"
    ROUTE = "space"

    def __init__(self, services: Services, org_id: str, user_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.user_id = user_id

    async def fetch(self) -> AsyncIterator[Sequence[MemberSpace]]:
        async for page in self.services.people.member_space_pages(self.org_id, self.user_id):
            yield page

    def row(self, entry: MemberSpace) -> Row:
        space = entry.space
        title = f"{as_character(space.emoji)} {space.title}" if space.emoji else space.title
        return Row(
            key=space.id,
            cells=[
                safe(title or space.id, limit=120),
                entry.permission,
                safe(space.visibility or format.DASH, limit=20),
                format.ago(space.updated_at),
            ],
            data=entry,
        )

    def opens(self, entry: MemberSpace) -> tuple[Ids, str] | None:
        return {"space_id": entry.space.id}, entry.space.title or entry.space.id

    def item_of(self, entry: MemberSpace) -> Item | None:
        return Item(entry.space.id, entry.space.urls.app if entry.space.urls else None, "space")


class MemberTeamsPanel(ResourcePanel["MemberTeam"]):
    """The member's teams, with their role in each."""

    org_id: str

    COLUMNS = (
        Column("team", "Team"),
        Column("role", "Team role", 9),
        Column("members", "Members", 7, align="right"),
        Column("spaces", "Spaces", 6, align="right"),
    )
    EMPTY = "This member is in no team."
    NOUN = "team"
    ROUTE = "team"

    def __init__(self, services: Services, org_id: str, user_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.user_id = user_id

    async def fetch(self) -> AsyncIterator[Sequence[MemberTeam]]:
        async for page in self.services.people.member_team_pages(self.org_id, self.user_id):
            yield page

    def row(self, entry: MemberTeam) -> Row:
        team = entry.team
        return Row(
            key=team.id,
            cells=[safe(team.title or team.id, limit=80), entry.member.role, f"{team.members:,}", f"{team.spaces:,}"],
            data=entry,
        )

    def opens(self, entry: MemberTeam) -> tuple[Ids, str] | None:
        return {"org_id": self.org_id, "team_id": entry.team.id}, entry.team.title or entry.team.id

    def item_of(self, entry: MemberTeam) -> Item | None:
        return Item(entry.team.id, None, "team")


def summary(member: Member, me: str | None = None) -> Content:
    """Three lines on the member: name (``(you)`` for ``me``, the signed-in user) and email; role, SSO, state;
    joined and last seen."""
    email = member.user.email or "no email"
    name = safe(member_name(member), limit=80).plain + (YOU if me is not None and member.id == me else "")
    first = Content.assemble((name, "bold"), "  ", safe(email, limit=120))
    state = "disabled" if member.disabled else "active"
    second = f"Role {role_name(member.role)} · SSO {'yes' if member.sso else 'no'} · {state}"
    third = f"Joined {format.when(member.joined_at)} · last seen {format.ago(member.last_seen_at, unknown='never')}"
    return Content("\n").join([first, Content(second), Content(third)])


def _tab_key(key: str, tab: str, label: str) -> Binding:
    return Binding(key, f"show_tab('{tab}')", label, show=False, id=f"member.tab-{tab}", tooltip=f"Show {label}")


class MemberScreen(FolioScreen):
    """The member ``user_id`` of organization ``org_id``."""

    org_id: str

    ROUTE: ClassVar[str | None] = MEMBER.kind
    CSS_PATH = [styles_dir() / "people.tcss"]
    AUTO_FOCUS = "ResourceList"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "change_role", "Role", id="member.change-role", tooltip="Change the member's role"),
        Binding("O", "sso", "SSO", id="member.sso", tooltip="Make the member an SSO member"),
        Binding("D", "remove", "Remove", id="member.remove", tooltip="Remove the member (type their email)"),
        _tab_key("1", "spaces", "the spaces"),
        _tab_key("2", "teams", "the teams"),
    ]

    def __init__(
        self, services: Services, org_id: str, user_id: str, *, title: str | None = None, trail: tuple[str, ...] = ()
    ) -> None:
        super().__init__(services, trail=trail)
        self.org_id = org_id
        self.user_id = user_id
        self.crumb = safe(title, limit=60).plain if title else "Member"
        self.member: Member | None = None
        self.access: Access | None = services.people.known_access(org_id)
        self.failed: Content | None = None

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static(Content("Loading the member…"), id="member-summary")
        with TabbedContent(initial="spaces", id="member-tabs"):
            with TabPane("1 Spaces", id="spaces"):
                yield MemberSpacesPanel(self.services, self.org_id, self.user_id, id="member-spaces")
            with TabPane("2 Teams", id="teams"):
                yield MemberTeamsPanel(self.services, self.org_id, self.user_id, id="member-teams")
        yield KeysFooter()

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#member-tabs", TabbedContent)

    @property
    def spaces_panel(self) -> MemberSpacesPanel:
        return self.query_one(MemberSpacesPanel)

    @property
    def teams_panel(self) -> MemberTeamsPanel:
        return self.query_one(MemberTeamsPanel)

    def on_mount(self) -> None:
        self._draw_sub_title()
        self.load()

    @work(exclusive=True, group="member", exit_on_error=False)
    @cache_first
    async def load(self) -> None:
        people = self.services.people
        try:
            self.access = await people.access(self.org_id)
            member = await people.member(self.org_id, self.user_id)
        except ServiceError as exc:
            self.failed = error_message(exc, doing="Could not load the member", hint="Press r to try again.")
            self.query_one("#member-summary", Static).update(self.failed)
            self.refresh_bindings()
            return
        self.failed = None
        self.member = member
        self.set_crumb(member_name(member))
        self.remember("member", {"org_id": self.org_id, "user_id": member.id}, member_name(member))
        self.query_one("#member-summary", Static).update(summary(member, self.me))
        self.refresh_bindings()

    @property
    def me(self) -> str | None:
        """The signed-in user's id, once known."""
        return self.access.user_id if self.access is not None else None

    # -- keys --------------------------------------------------------------------------------------------------

    def why_not(self, action: str) -> str | None:
        if action not in ("change_role", "sso", "remove"):
            return None
        if self.member is None:
            return "The member is not loaded yet." if self.failed is None else "The member could not be loaded."
        if self.access is None:
            return "Still finding out what you may do here."
        doing = {"change_role": "change roles", "remove": "remove members", "sso": "set SSO members"}[action]
        why = self.access.why_not_admin(doing)
        if why is None and action == "sso" and self.member.sso:
            return f"{name_of(self.member)} is already an SSO member."
        return why

    async def action_show_tab(self, tab: str) -> None:
        if tab in TABS:
            self.tabs.active = tab
            self._focus_tab(tab)

    @on(TabbedContent.TabActivated)
    def _tab_shown(self, event: TabbedContent.TabActivated) -> None:
        self._focus_tab(self.tabs.active)

    def _focus_tab(self, tab: str) -> None:
        panel: ResourcePanel[object] = self.spaces_panel if tab == "spaces" else self.teams_panel  # type: ignore[assignment]
        panel.browser.focus_list()
        self.refresh_bindings()

    def current_item(self) -> Item | None:
        panel = self.spaces_panel if self.tabs.active == "spaces" else self.teams_panel
        return panel.current_item() or Item(self.user_id, None, "member")

    def action_refresh(self) -> None:
        self.load()
        self.spaces_panel.reload()
        self.teams_panel.reload()

    def action_change_role(self) -> None:
        if self.member is not None:
            change_role(self, self.services.people, self.org_id, self.member, self._changed, me=self.me)

    def action_sso(self) -> None:
        if self.member is not None:
            set_sso(self, self.services.people, self.org_id, self.member, self._changed)

    def _changed(self, member: Member) -> None:
        self.member = member
        self.query_one("#member-summary", Static).update(summary(member, self.me))
        self.spaces_panel.reload()
        self.refresh_bindings()

    def action_remove(self) -> None:
        if self.member is not None:
            remove_member(self, self.services.people, self.org_id, self.member, self._removed, me=self.me)

    def _removed(self, member: Member) -> None:
        self.context.forget("member", {"org_id": self.org_id, "user_id": member.id})
        self.action_back()
