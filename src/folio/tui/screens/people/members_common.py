"""What the members list, a member's screen and a team's screen share: marks on rows (``space`` marks one, ``*``
marks every row shown) and the actions on one member (change the role, make an SSO member, remove), each ending
in a visible success or failure message.

    class MembersPanel(Marking[Member], ResourcePanel[Member]): ...
    change_role(self, people, org_id, member, done=lambda m: self.reload(keep=m.id))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

from textual.content import Content

from folio.services.errors import ServiceError
from folio.services.people.people_plan import (
    ROLE_NAMES,
    ROLE_WORDS,
    SELF_DEMOTION,
    SELF_REMOVAL,
    YOU,
    YOU_FIRST,
    member_name,
    role_name,
    role_value,
    takes_my_admin,
)
from folio.services.sites.site_rules import Choice
from folio.tui.errors import notify_error
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.people_forms import TypedConfirm
from folio.tui.modals.site_forms import ChoiceModal
from folio.tui.safe import safe

if TYPE_CHECKING:
    from textual.widget import Widget

    from folio.models.member import Member
    from folio.services.people.people import PeopleService
    from folio.tui.widgets.resource_list import Row

__all__ = [
    "MARK",
    "Marking",
    "change_role",
    "confirm_self",
    "name_of",
    "remove_member",
    "set_sso",
    "you",
    "you_first",
]

MARK = "*"
"""The mark of a marked row (ASCII: one cell in every terminal, unlike ● whose width is ambiguous)."""
T = TypeVar("T")


def name_of(member: Member) -> str:
    """The member's name, made safe, as plain text for messages."""
    return safe(member_name(member), limit=80).plain


def you(user_id: str, me: str | None) -> str:
    """`` (you)`` after the signed-in user's own name, else nothing."""
    return YOU if me is not None and user_id == me else ""


def you_first(user_id: str, me: str | None) -> str:
    """``(you) `` before the signed-in user's own name in a table's cell (a narrow column cuts the end), else
    nothing."""
    return YOU_FIRST if me is not None and user_id == me else ""


def confirm_self(owner: Widget, member: Member, sentence: str, action: str, then: Callable[[], object]) -> None:
    """Say ``sentence`` (the change takes away the caller's own admin role, or removes them) and ask for their
    email typed; ``then()`` only when it was."""
    expected = member.user.email or member_name(member)
    noun = "email" if member.user.email else "name"
    title = Content.assemble((sentence, "bold"))
    body = "Another admin could give it back; you could not. Type your own email to go on."

    def confirmed(ok: bool | None) -> None:
        if ok:
            then()
        else:
            owner.notify("Nothing was sent: your own role is as it was.", markup=False)

    owner.app.push_screen(TypedConfirm(title, expected, noun=noun, body=body, action=action), confirmed)


class Marking(Generic[T]):
    """Marks on the rows of a :class:`~folio.tui.widgets.resource_panel.ResourcePanel` whose first column is the
    mark. The panel's :meth:`row` puts :meth:`mark_cell` first; :meth:`loaded` keeps the marks of rows still
    there (with their fresh data)."""

    marks: dict[str, T]

    def mark_cell(self, key: str) -> str:
        return MARK if key in self.marks else " "

    @property
    def marked(self) -> list[T]:
        return list(self.marks.values())

    def _set_mark(self, row: Row, on: bool) -> None:
        if on:
            self.marks[row.key] = row.data  # type: ignore[assignment]
        else:
            self.marks.pop(row.key, None)
        cells = list(row.cells)
        cells[0] = MARK if on else " "
        row.cells = cells

    def toggle_mark(self) -> None:
        """Mark or unmark the row under the cursor, and move down one row."""
        browser = self.browser  # type: ignore[attr-defined]
        row = browser.list.highlighted
        if row is None:
            return
        self._set_mark(row, row.key not in self.marks)
        browser.list.refresh()
        browser.list.action_cursor_down()
        self.marks_changed()

    def mark_all(self) -> None:
        """Mark every row shown (the filter's); when they all are marked already, unmark them."""
        browser = self.browser  # type: ignore[attr-defined]
        shown = browser.list.visible_rows
        on = not all(r.key in self.marks for r in shown)
        for row in shown:
            self._set_mark(row, on)
        browser.list.refresh()
        self.marks_changed()

    def clear_marks(self) -> None:
        browser = self.browser  # type: ignore[attr-defined]
        for row in browser.list.rows:
            if row.key in self.marks:
                self._set_mark(row, False)
        self.marks.clear()
        browser.list.refresh()
        self.marks_changed()

    def keep_marks(self, items: dict[str, T]) -> None:
        """After a load: the marks of rows still there, with their fresh data."""
        self.marks = {key: items[key] for key in self.marks if key in items}

    def marks_changed(self) -> None:
        """Say how many are marked (the hint line), and what the keys do now."""
        self.draw_hint()  # type: ignore[attr-defined]
        self.screen.refresh_bindings()  # type: ignore[attr-defined]


# -- actions on one member ---------------------------------------------------------------------------------------


def change_role(
    owner: Widget,
    people: PeopleService,
    org_id: str,
    member: Member,
    done: Callable[[Member], None],
    *,
    me: str | None = None,
) -> None:
    """Pick ``member``'s new role (the current one marked) and send it; the picker says a refusal and stays. A
    role that takes away the caller's own admin role (``me``: their id) is sent only once their email is typed."""
    current = role_name(member.role)
    choices = [Choice(name, f"{name}: {ROLE_WORDS[name]}") for name in ROLE_NAMES]
    name = name_of(member)
    changed: list[Member] = []
    held: list[str] = []
    """A role that demotes the caller: not sent by the picker, but once typed (after it closes)."""

    async def submit(value: str) -> None:
        if value == current:
            return
        if takes_my_admin(member.id, member.role, role_value(value), me):
            await people.check_role(org_id, member, role_value(value))  # the only admin: said here, in the picker
            held.append(value)
            return
        changed.append(await people.set_role(org_id, member, role_value(value)))

    async def send_held(value: str) -> None:
        try:
            updated = await people.set_role(org_id, member, role_value(value), confirmed_self=True)
        except ServiceError as exc:
            notify_error(owner, exc, doing="Your role was not changed")
            return
        owner.notify(f"You are now {value} (were {current}).", markup=False)
        done(updated)

    def closed(value: str | None) -> None:
        if value is None:
            return
        if held:
            confirm_self(
                owner,
                member,
                SELF_DEMOTION,
                f"Make me {value}",
                lambda: owner.run_worker(send_held(held[0]), group="member-role", exit_on_error=False),
            )
            return
        if not changed:
            owner.notify(f"{name} is already {current}: nothing changed.", markup=False)
            return
        owner.notify(f"{name} is now {value} (was {current}).", markup=False)
        done(changed[0])

    title = Content.assemble("Role of ", (name + you(member.id, me), "bold"))
    help_text = "The role decides what they may do in every space of the organization."
    if me is not None and member.id == me and member.role == "admin":
        help_text = f"This is you: any role but admin asks first. {SELF_DEMOTION} It is sent once you type your email."
    owner.app.push_screen(ChoiceModal(title, choices, submit, current=current, help=help_text), closed)


def set_sso(owner: Widget, people: PeopleService, org_id: str, member: Member, done: Callable[[Member], None]) -> None:
    """Ask, then make ``member`` an SSO member."""
    name = name_of(member)
    title = Content.assemble("Make ", (name, "bold"), " an SSO member?")
    body = "They will sign in to this organization through its single sign-on provider."

    async def send() -> None:
        try:
            updated = await people.set_sso(org_id, member.id)
        except ServiceError as exc:
            notify_error(owner, exc, doing=f"Could not make {name} an SSO member")
            return
        owner.notify(f"{name} is now an SSO member.", markup=False)
        done(updated)

    def confirmed(ok: bool | None) -> None:
        if ok:
            owner.run_worker(send(), group="member-sso", exit_on_error=False)

    owner.app.push_screen(ConfirmModal(title, body, accept_key="y", accept_label="Make SSO member"), confirmed)


def remove_member(
    owner: Widget,
    people: PeopleService,
    org_id: str,
    member: Member,
    done: Callable[[Member], None],
    *,
    me: str | None = None,
) -> None:
    """Ask for ``member``'s email typed out, then remove them from the organization (``me``: the caller's id; their
    own removal says what it takes away). What is true after a lost answer is what is said."""
    name = name_of(member)
    mine = me is not None and member.id == me
    expected = member.user.email or member_name(member)
    noun = "email" if member.user.email else "name"
    title = Content.assemble("Remove ", (name + you(member.id, me), "bold"), " from the organization?")
    body = "They lose access to its spaces and leave its teams. They can be invited again later."
    if mine:
        own = f"{SELF_DEMOTION} " if member.role == "admin" else ""
        body = f"{own}{SELF_REMOVAL} Only another admin could invite you again."

    async def send() -> None:
        try:
            outcome = await people.remove_member(org_id, member, confirmed_self=mine)
        except ServiceError as exc:
            notify_error(owner, exc, doing=f"Could not remove {name}")
            return
        if outcome == "already gone":
            owner.notify(f"{name} is no longer in the organization: they were removed already.", markup=False)
        else:
            owner.notify(f"{name} was removed from the organization.", markup=False)
        done(member)

    def confirmed(ok: bool | None) -> None:
        if ok:
            owner.run_worker(send(), group="member-remove", exit_on_error=False)

    owner.app.push_screen(TypedConfirm(title, expected, noun=noun, body=body, action="Remove"), confirmed)
