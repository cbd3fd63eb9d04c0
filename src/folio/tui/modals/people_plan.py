"""The plan of a bulk role change, shown before anything is sent: who goes from what role to what, how many
admins remain. A plan that leaves no admin (or changes nothing) is refused before sending; an accepted one is
applied one member at a time with its progress shown, stops at the first refusal, and says which changes were
made. The signed-in user's line says "(you)"; a plan that takes away their own admin role says so in a sentence
and is sent only once they type their email. Closes with the :class:`~folio.services.people.people_plan.PlanOutcome`
(None when nothing was sent).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import RadioButton, RadioSet, Static

from folio.services.errors import ServiceError
from folio.services.people.people_plan import (
    ROLE_NAMES,
    SELF_DEMOTION,
    YOU,
    PlanOutcome,
    RolePlan,
    plan_roles,
    role_name,
    role_value,
)
from folio.tui.errors import error_message
from folio.tui.modals.people_forms import TypedConfirm
from folio.tui.safe import safe

if TYPE_CHECKING:
    from folio.models.member import Member
    from folio.services.people.people import PeopleService
    from folio.services.people.people_plan import RoleChange

__all__ = ["RolePlanModal"]


class RolePlanModal(ModalScreen["PlanOutcome | None"]):
    """``push_screen(RolePlanModal(people, org_id, marked), done)``: pick the new role, read the plan, apply it."""

    DEFAULT_CSS = """
    RolePlanModal { align: center middle; }
    RolePlanModal > Vertical { width: 80; max-width: 98%; height: auto; max-height: 98%; border: thick $accent;
                               padding: 0 1; background: $surface; }
    RolePlanModal .plan--title { text-style: bold; }
    RolePlanModal .plan--label { color: $text-muted; margin-top: 1; }
    RolePlanModal RadioSet { layout: horizontal; width: 1fr; height: 1; border: none; padding: 0; }
    RolePlanModal RadioSet > RadioButton { width: auto; margin-right: 2; padding: 0; border: none; }
    RolePlanModal #plan-lines-box { height: auto; max-height: 10; margin-top: 1; }
    RolePlanModal #plan-admins { margin-top: 1; }
    RolePlanModal #plan-problem { color: $text-error; height: auto; }
    RolePlanModal #plan-self { color: $text-warning; text-style: bold; height: auto; display: none; }
    RolePlanModal #plan-progress { height: auto; }
    RolePlanModal .plan--help { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+s,f2",
            "apply",
            "Apply",
            id="role-plan.apply",
            tooltip="Send the plan, one member at a time (ctrl+s, or f2)",
            priority=True,
        ),
        Binding("escape", "close", "Close", id="role-plan.close", tooltip="Close (nothing more is sent)"),
    ]

    def __init__(self, people: PeopleService, org_id: str, members: list[Member], *, me: str | None = None) -> None:
        super().__init__()
        self.people = people
        self.org_id = org_id
        self.members = members
        self.me = me
        """The signed-in user's id (None: not known)."""
        self.role: str | None = None
        """The role name picked (``guest`` included); None until one is picked."""
        self.admins_now: int | None = None
        self.applying = False
        self.outcome: PlanOutcome | None = None
        self.status: dict[str, str] = {}
        """user id -> the mark of its change while applying (done, refused, not tried)."""

    def compose(self) -> ComposeResult:
        count = len(self.members)
        with Vertical():
            yield Static(
                Content(f"Change the role of {count} marked member{'s' if count != 1 else ''}"), classes="plan--title"
            )
            yield Static(Content("New role (←/→ moves, space picks)"), classes="plan--label")
            with RadioSet(id="plan-role", compact=True):
                for name in ROLE_NAMES:
                    yield RadioButton(Content(name), name=name)
            with VerticalScroll(id="plan-lines-box"):
                yield Static(id="plan-lines")
            yield Static(Content("Counting the admins…"), id="plan-admins")
            yield Static(id="plan-self")
            yield Static(id="plan-problem")
            yield Static(id="plan-progress")
            yield Static(Content("ctrl+s applies the plan · esc closes"), classes="plan--help", id="plan-help")

    def on_mount(self) -> None:
        self.query_one("#plan-role", RadioSet).focus()
        self.draw()
        self.count_admins()

    @work(exclusive=True, group="role-plan-admins", exit_on_error=False)
    async def count_admins(self) -> None:
        try:
            self.admins_now = await self.people.admin_count(self.org_id)
        except ServiceError as exc:
            self.query_one("#plan-admins", Static).update(
                error_message(exc, doing="Could not count the admins", hint="Close and try again.")
            )
            return
        self.draw()

    # -- the plan --------------------------------------------------------------------------------------------------

    @property
    def plan(self) -> RolePlan | None:
        if self.role is None or self.admins_now is None:
            return None
        return plan_roles(self.members, role_value(self.role), admins_now=self.admins_now, me=self.me)

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        event.stop()
        if self.applying or self.outcome is not None:
            return
        self.role = event.pressed.name
        self.query_one("#plan-problem", Static).update(Content(""))
        self.draw()

    def _line(self, member: Member, change: RoleChange | None) -> Content:
        name = safe(member.user.display_name or member.user.email or member.id, limit=40).plain
        if self.me is not None and member.id == self.me:
            name = safe(member.user.display_name or member.user.email or member.id, limit=40 - len(YOU)).plain + YOU
        mark = self.status.get(member.id, " ")
        if change is None:
            what = f"already {role_name(member.role)}: nothing sent" if self.role else role_name(member.role)
        else:
            what = f"{role_name(change.before)} \u2192 {role_name(change.after)}"
        return Content(f"{mark} {name:<40} {what}")

    def draw(self) -> None:
        plan = self.plan
        changes = {c.user_id: c for c in plan.changes} if plan is not None else {}
        ordered = [*(c.user_id for c in plan.changes)] if plan is not None else []
        by_id = {m.id: m for m in self.members}
        rest = [m for m in self.members if m.id not in changes]
        lines = [self._line(by_id[u], changes[u]) for u in ordered] + [self._line(m, None) for m in rest]
        self.query_one("#plan-lines", Static).update(Content("\n").join(lines))
        admins = self.query_one("#plan-admins", Static)
        mine = plan.demotes_me if plan is not None else None
        warning = self.query_one("#plan-self", Static)
        warning.display = mine is not None  # (no line at all otherwise)
        if mine is not None:
            warning.update(Content(f"{SELF_DEMOTION} ctrl+s asks for your email typed before anything is sent."))
        if self.admins_now is None:
            return
        if plan is None:
            admins.update(Content(f"Admins now: {self.admins_now}. Pick the new role to see the plan."))
            return
        sent = len(plan.changes)
        admins.update(
            Content(
                f"{sent} change{'s' if sent != 1 else ''} to send · admins now {plan.admins_now}, "
                f"after {plan.admins_after}"
            )
        )

    # -- applying --------------------------------------------------------------------------------------------------

    def action_apply(self) -> None:
        if self.applying:
            return
        if self.outcome is not None:
            self.dismiss(self.outcome)
            return
        problem = self.query_one("#plan-problem", Static)
        plan = self.plan
        if plan is None:
            why = "Pick the new role first." if self.admins_now is not None else "Still counting the admins."
            problem.update(Content(why))
            return
        if plan.problem is not None:
            problem.update(Content(f"Not sent: {plan.problem}"))
            return
        problem.update(Content(""))
        mine = plan.demotes_me
        if mine is None:
            self._apply(plan)
            return
        me = next(m for m in self.members if m.id == mine.user_id)
        expected = me.user.email or mine.name
        title = Content.assemble((SELF_DEMOTION, "bold"))
        body = "Another admin could give it back; you could not. Type your own email to send the plan."

        def typed(ok: bool | None) -> None:
            if ok:
                self._apply(plan, confirmed_self=True)
            else:
                problem.update(Content("Not sent: your email was not typed. Unmark yourself, or press ctrl+s again."))

        noun = "email" if me.user.email else "name"
        self.app.push_screen(TypedConfirm(title, expected, noun=noun, body=body, action="Send the plan"), typed)

    @work(exclusive=True, group="role-plan-apply", exit_on_error=False)
    async def _apply(self, plan: RolePlan, *, confirmed_self: bool = False) -> None:
        self.applying = True
        progress = self.query_one("#plan-progress", Static)
        total = len(plan.changes)

        def step(index: int, change: RoleChange) -> None:
            safe_name = safe(change.name, limit=60).plain
            progress.update(Content(f"Sending {index + 1} of {total}: {safe_name}…"))

        try:
            outcome = await self.people.apply_role_plan(self.org_id, plan, progress=step, confirmed_self=confirmed_self)
        except ServiceError as exc:  # refused whole before sending (the admins changed meanwhile)
            progress.update(error_message(exc, doing="Not sent"))
            self.applying = False
            return
        self.applying = False
        self.outcome = outcome
        for change in outcome.done:
            self.status[change.user_id] = "\u2713"
        if outcome.refused is not None:
            self.status[outcome.refused.user_id] = "\u2717"
        for change in outcome.not_tried:
            self.status[change.user_id] = "\u00b7"
        self.draw()
        progress.update(self.report(outcome))
        self.query_one("#plan-help", Static).update(Content("✓ made · ✗ refused · · not tried — esc or ctrl+s closes"))

    @staticmethod
    def report(outcome: PlanOutcome) -> Content:
        """What was done, in words: the headline, the refusal and why, what was not tried."""
        parts = [outcome.headline()]
        if outcome.refused is not None and outcome.error is not None:
            who = safe(outcome.refused.name, limit=60).plain
            parts.append(error_message(outcome.error, doing=f"{who} was refused").plain)
            if outcome.not_tried:
                names = ", ".join(safe(c.name, limit=40).plain for c in outcome.not_tried)
                parts.append(f"Not tried: {names}.")
        return Content(" ".join(parts))

    def action_close(self) -> None:
        if self.applying:
            self.notify("The plan is being sent: wait for it to stop.", severity="warning", markup=False)
            return
        self.dismiss(self.outcome)
