"""The members of an organization (``:members [words]``): every member, page by page, with their role, SSO,
joined and last seen; filtered by role (``f``), searched by name or email on the service (``s``; ``/`` filters the
rows shown), sorted by joined or last seen (``S``). ``e`` changes a role (of the marked members: a plan first),
``O`` makes an SSO member, ``D`` removes one (their email typed), enter opens one. The signed-in user's row says
"(you)" before their name; taking away their own admin role, or removing them, needs their email typed.

The first page shows as soon as it comes and the others are appended (a first paint from the cache is only of
members: who the caller is, read from the cache, paints no row), and the list takes the keys while it loads
(:class:`~folio.tui.widgets.loading_browser.FocusableBrowser`): ``/zq`` typed at once is a filter, never a quit.
``esc`` clears a filter, then a service search, then goes back."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Static

from folio.services import format
from folio.services.people.people_plan import next_role_filter, role_filter_label, role_name
from folio.tui import styles_dir
from folio.tui.context import context_of
from folio.tui.declare import Route
from folio.tui.fresh import is_cached_only
from folio.tui.modals.people_plan import RolePlanModal
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.navigation import Ids, Open
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.screens.panel_screen import PanelScreen
from folio.tui.screens.people.members_common import Marking, change_role, name_of, remove_member, set_sso, you_first
from folio.tui.widgets.loading_browser import FocusableBrowser
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from folio.models.member import Member
    from folio.services import Services
    from folio.services.people.people import Access, MemberSort
    from folio.services.people.people_plan import PlanOutcome

__all__ = ["MembersPanel", "MembersScreen", "member_row"]

MEMBERS = Route(
    kind="members",
    noun="member list",
    screen="MembersScreen",
    verbs=("members", "people"),
    find="organization",
    key="M",
    label="Members",
    hint="Members of the organization: roles, SSO, removal",
    order=10,
    summary="the organization's members: roles (one or a marked set, as a plan), SSO, removal",
)

COLUMNS = (
    Column("mark", " ", 1),
    Column("name", "Name"),
    Column("email", "Email"),
    Column("role", "Role", 7),
    Column("sso", "SSO", 3),
    Column("disabled", "Disabled", 8),
    Column("joined", "Joined", 10),
    Column("seen", "Last seen", 10),
    Column("spaces", "Spaces", 6, align="right"),
    Column("teams", "Teams", 5, align="right"),
)
SORT_WORDS: dict[str, str] = {"joinedAt": "joined, newest first", "lastSeenAt": "last seen, latest first"}


def _number(value: int | None) -> str:
    return format.DASH if value is None else f"{value:,}"


def member_row(member: Member, mark: str = " ", me: str | None = None) -> Row:
    """One member's cells, every server string made safe; ``me`` (the signed-in user's id) is "(you) <name>"."""
    name = safe(member.user.display_name or member.id, limit=80)
    return Row(
        key=member.id,
        cells=[
            mark,
            you_first(member.id, me) + name,
            safe(member.user.email or "", limit=120),
            role_name(member.role),
            "yes" if member.sso else "",
            "disabled" if member.disabled else "",
            format.ago(member.joined_at),
            format.ago(member.last_seen_at),
            _number(member.spaces),
            _number(member.teams),
        ],
        style="dim" if member.disabled else "",
        data=member,
    )


class MembersPanel(Marking["Member"], ResourcePanel["Member"]):
    """The members of ``org_id`` with their keys; ``search`` starts a search on the service."""

    org_id: str

    COLUMNS = COLUMNS
    EMPTY = "No member matches. f changes the role filter, s the search."
    NOUN = "member"
    ROUTE = "member"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "e", "change_role", "Role", id="members.change-role", tooltip="Change the role (of the marked: a plan)"
        ),
        Binding("space", "mark", "Mark", id="members.mark", tooltip="Mark or unmark the member, for a bulk change"),
        Binding("D", "remove", "Remove", id="members.remove", tooltip="Remove the member (type their email)"),
        Binding("O", "sso", "SSO", id="members.sso", tooltip="Make the member an SSO member"),
        Binding("f", "cycle_role", "Role filter", id="members.role-filter", tooltip="Show all, then each role"),
        Binding("s", "search", "Search", id="members.search", tooltip="Search names and emails on the service"),
        Binding("S", "cycle_sort", "Sort", id="members.sort", tooltip="Sort by joined or by last seen"),
        Binding(
            "asterisk",
            "mark_all",
            "Mark all",
            show=False,
            id="members.mark-all",
            tooltip="Mark every member shown (again: unmark them)",
        ),
        Binding("t", "teams", "Teams", show=False, id="members.teams", tooltip="The teams of the organization"),
        Binding(
            "escape",
            "clear_search",
            "Clear search",
            show=False,
            id="members.clear-search",
            tooltip="Clear the service search (esc again goes back)",
        ),
    ]

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.search: str | None = None
        """The service search in force (``s``, or the words after ``:members``)."""
        self.role: str | None = None
        self.sort: MemberSort = "joinedAt"
        self.marks: dict[str, Member] = {}
        self.access: Access | None = services.people.known_access(org_id)
        self.seen = services.changes.version(("members", org_id))
        self._composed: ResourceBrowser | None = None

    @property
    def me(self) -> str | None:
        """The signed-in user's id, once known."""
        return self.access.user_id if self.access is not None else None

    def compose(self) -> ComposeResult:
        hint = self.hint()
        yield Static(Content(hint), classes="resource-panel--hint", id=f"{self.id}-summary" if self.id else None)
        # Focusable while it loads: keys typed before the first page reach the list (a `q` after `/` is text).
        named = f"{self.id}-list" if self.id else None
        self._composed = FocusableBrowser(self.COLUMNS, empty=self.empty_text(), id=named)
        yield self._composed

    @property
    def browser(self) -> ResourceBrowser:
        return self._composed if self._composed is not None else super().browser

    # -- the list ----------------------------------------------------------------------------------------------

    def hint(self) -> str:
        parts = [role_filter_label(self.role)]
        if self.search:
            parts.append(f"“{safe(self.search, limit=40).plain}”")
        if self.sort == "lastSeenAt":
            parts.append("last seen lists only active members")
        else:
            parts.append(SORT_WORDS[self.sort])
        if self.marks:
            parts.append(f"{len(self.marks)} marked: e changes their role")
        else:
            parts.append("f role · s search · S sort")
        return " · ".join(parts)

    async def fetch(self) -> AsyncIterator[Sequence[Member]]:
        people = self.services.people
        if not is_cached_only():
            # Not in a first paint from the cache: who the caller is, read from there, would count as a cached
            # paint though it paints no row, and every fresh page would wait for the last (fresh.staged).
            self.access = await people.access(self.org_id, fresh=True)
        async for page in people.member_pages(self.org_id, role=self.role, search=self.search, sort=self.sort):
            yield page

    def row(self, member: Member) -> Row:
        return member_row(member, self.mark_cell(member.id), self.me)

    def opens(self, member: Member) -> tuple[Ids, str] | None:
        return {"org_id": self.org_id, "user_id": member.id}, member.user.display_name or member.id

    def item_of(self, member: Member) -> Item | None:
        return Item(member.id, None, "member")

    def loaded(self, items: list[Member], *, complete: bool) -> None:
        self.keep_marks({m.id: m for m in items})
        super().loaded(items, complete=complete)
        self.draw_hint()

    def reload(self, *, keep: str | None = None) -> None:
        # What is loaded now is what a write made so far: a return to this screen need not load it again.
        self.seen = self.services.changes.version(("members", self.org_id))
        super().reload(keep=keep)

    def reload_if_changed(self) -> None:
        """Load again when a write elsewhere changed the members since this list was loaded."""
        if self.services.changes.version(("members", self.org_id)) != self.seen:
            self.reload()

    def apply_words(self, words: str) -> None:
        """The words after ``:members`` (or saved by the session) are a search on the service, not a filter of
        the rows shown (``/``)."""
        search = words.strip() or None
        if search == self.search:
            return
        self.search = search
        self.draw_hint()
        if self.is_mounted:
            self.reload()

    def words(self) -> str:
        """The service search in force: what the session saves."""
        return self.search or ""

    # -- what may be done --------------------------------------------------------------------------------------

    def why_not(self, action: str) -> str | None:
        if action in ("change_role", "remove", "sso", "mark"):
            if action == "change_role" and self.marks:
                return self._why_not_admin("change roles")
            member = self.current
            if member is None:
                return "No member is selected."
            if action == "mark":
                return None
            doing = {"change_role": "change roles", "remove": "remove members", "sso": "set SSO members"}[action]
            why = self._why_not_admin(doing)
            if why is None and action == "sso" and member.sso:
                return f"{name_of(member)} is already an SSO member."
            return why
        if action == "mark_all" and not self.browser.list.visible_count:
            return "No member is shown."
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_search":  # esc: a service search is cleared before the screen is left
            return self.search is not None
        return super().check_action(action, parameters)

    def _why_not_admin(self, doing: str) -> str | None:
        if self.access is None:
            return "Still finding out what you may do here: wait for the list to load."
        return self.access.why_not_admin(doing)

    # -- actions -----------------------------------------------------------------------------------------------

    def action_cycle_role(self) -> None:
        self.role = next_role_filter(self.role)
        self.draw_hint()
        self.reload()

    def action_cycle_sort(self) -> None:
        self.sort = "lastSeenAt" if self.sort == "joinedAt" else "joinedAt"
        self.draw_hint()
        self.reload()

    def action_search(self) -> None:
        async def ask(text: str) -> None:
            return None

        def searched(text: str | None) -> None:
            if text is None:
                return
            self.search = text.strip() or None
            self.draw_hint()
            self.reload()

        modal = TextEntryModal(
            "Search members by name or email (empty: everyone)",
            ask,
            text=self.search or "",
            multiline=False,
            send_label="Search",
            allow_empty=True,
        )
        self.app.push_screen(modal, searched)

    def action_clear_search(self) -> None:
        self.search = None
        self.draw_hint()
        self.reload()

    def action_mark(self) -> None:
        self.toggle_mark()

    def action_mark_all(self) -> None:
        self.mark_all()

    def action_teams(self) -> None:
        self.post_message(Open("teams", {"org_id": self.org_id}, title="Teams"))

    def action_change_role(self) -> None:
        people = self.services.people
        if self.marks:
            self.app.push_screen(RolePlanModal(people, self.org_id, self.marked, me=self.me), self._plan_done)
            return
        member = self.current
        if member is not None:
            change_role(self, people, self.org_id, member, lambda m: self.reload(keep=m.id), me=self.me)

    def _plan_done(self, outcome: PlanOutcome | None) -> None:
        if outcome is None:
            return
        made = ", ".join(safe(c.describe(), limit=80).plain for c in outcome.done) or "none"
        if outcome.complete:
            self.notify(f"{outcome.headline()} {made}.", markup=False)
            self.clear_marks()
        else:
            self.notify(f"{outcome.headline()} Made: {made}.", severity="warning", timeout=10, markup=False)
        self.reload()

    def action_sso(self) -> None:
        member = self.current
        if member is not None:
            set_sso(self, self.services.people, self.org_id, member, lambda m: self.reload(keep=m.id))

    def action_remove(self) -> None:
        member = self.current
        if member is not None:
            remove_member(self, self.services.people, self.org_id, member, self._removed, me=self.me)

    def _removed(self, member: Member) -> None:
        self.marks.pop(member.id, None)
        context = context_of(self)
        if context is not None:  # the palette no longer offers them
            context.forget("member", {"org_id": self.org_id, "user_id": member.id})
        self.reload()


class MembersScreen(PanelScreen[MembersPanel]):
    """The members of organization ``org_id``; ``words`` (from ``:members ada``) are a service search
    (:meth:`MembersPanel.apply_words`)."""

    org_id: str

    ROUTE: ClassVar[str | None] = MEMBERS.kind
    CSS_PATH = [styles_dir() / "people.tcss"]
    PANEL = MembersPanel
    CRUMB = "Members"

    def make_panel(self) -> MembersPanel:
        panel = super().make_panel()
        if self.words:  # given before its first load: one load, the search (not every member, then the search)
            panel.apply_words(self.words)
        return panel

    def on_screen_resume(self) -> None:  # FolioScreen's runs too (Textual calls both)
        self.panel.reload_if_changed()
