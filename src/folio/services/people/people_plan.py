"""The pure part of the people screens: role names as a person reads them, the team title limit, and the plan of
a bulk role change (who goes from what to what, how many admins remain) with the outcome of applying it.

    plan = plan_roles(marked_members, "edit", admins_now=2)
    plan.problem            # None, or why it must not be sent ("No admin would remain ...")
    plan.changes            # promotions to admin first, demotions of admins last

A plan is applied in the order of :attr:`RolePlan.changes`: new admins are made before any admin is demoted, so a
plan stopped half-way by a refusal never leaves the organization with fewer admins than the plan meant.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from folio.models.common import ROLES, Role, TeamRole

if TYPE_CHECKING:
    from folio.models.member import Member

__all__ = [
    "GUEST",
    "ROLE_FILTERS",
    "ROLE_NAMES",
    "ROLE_WORDS",
    "SELF_DEMOTION",
    "SELF_REMOVAL",
    "TEAM_TITLE_MAX",
    "YOU",
    "YOU_FIRST",
    "PlanOutcome",
    "RoleChange",
    "RolePlan",
    "check_team_title",
    "member_name",
    "next_role_filter",
    "plan_roles",
    "role_filter_label",
    "role_name",
    "role_value",
    "takes_my_admin",
    "team_role_value",
]

GUEST = "guest"
"""How a member without a role (``role`` null) is named."""
ROLE_NAMES: tuple[str, ...] = (*ROLES, GUEST)
"""Every role a member may be given, most powerful first, then ``guest``."""
ROLE_WORDS: dict[str, str] = {
    "admin": "administrate content: create and delete spaces, manage members and teams",
    "create": "create content",
    "review": "review content",
    "edit": "edit live content or change requests",
    "comment": "access content and discussions",
    "read": "access content, no updates",
    GUEST: "no role in the organization: only what is shared with them",
}
"""What each role lets a member do (spec 2.1), for the role pickers."""
TEAM_TITLE_MAX = 64
YOU = " (you)"
"""What follows the signed-in user's name in a plan and on their own screen."""
YOU_FIRST = "(you) "
"""What comes before the signed-in user's name in a table's name cell (first: a narrow column cuts the end)."""
SELF_DEMOTION = "This takes away your own admin role: you could not undo it."
"""What a change that demotes the signed-in admin says before it is sent (and what is typed to confirm it)."""
SELF_REMOVAL = "This removes you from the organization: you could not undo it."


def role_name(role: Role | None) -> str:
    """``admin`` ... ``read``, or ``guest`` for a member without a role."""
    return role or GUEST


def role_value(name: str) -> Role | None:
    """The role to send for a name of :data:`ROLE_NAMES` (``guest`` -> None); ValueError for anything else."""
    if name == GUEST:
        return None
    for role in ROLES:
        if role == name:
            return role
    raise ValueError(f"not a role: {name!r}")


def team_role_value(name: str | None) -> TeamRole:
    """``owner`` for ``owner``, ``member`` for anything else (the safe default of a team role)."""
    return "owner" if name == "owner" else "member"


def member_name(member: Member) -> str:
    """The name a member is shown by: their display name, else their email, else their id (not made safe)."""
    return member.user.display_name or member.user.email or member.id


def takes_my_admin(member_id: str, before: Role | None, after: Role | None, me: str | None) -> bool:
    """Whether giving ``after`` to the member ``member_id`` (now ``before``) takes away the admin role of the
    signed-in user ``me`` (None: not known, so not them)."""
    return me is not None and member_id == me and before == "admin" and after != "admin"


def check_team_title(title: str) -> str | None:
    """Why ``title`` is not a team title the service accepts (1..64 characters), or None."""
    length = len(title)
    if length == 0:
        return "A team needs a title (1 to 64 characters)."
    if length > TEAM_TITLE_MAX:
        return f"At most {TEAM_TITLE_MAX} characters: this title has {length}."
    if not title.strip():
        return "A title of spaces only is not a title."
    return None


@dataclass(frozen=True)
class RoleChange:
    """One member's role, before and after."""

    user_id: str
    name: str
    email: str | None
    before: Role | None
    after: Role | None

    def describe(self) -> str:
        """``Ada Okafor: admin → edit`` (not made safe: the caller does)."""
        return f"{self.name}: {role_name(self.before)} \u2192 {role_name(self.after)}"


@dataclass(frozen=True)
class RolePlan:
    """Giving ``role`` to the marked members: the changes to send, who already has it, and the admins."""

    role: Role | None
    changes: tuple[RoleChange, ...]
    unchanged: tuple[str, ...]
    """The names of the marked members who already have the role (nothing is sent for them)."""
    admins_now: int
    """The organization's admins when the plan was made (every admin, not only the marked ones)."""
    me: str | None = None
    """The signed-in user's id (None: not known): their own row says so, and their own demotion is said."""

    @property
    def demotes_me(self) -> RoleChange | None:
        """The change that takes away the signed-in user's own admin role, if the plan holds one."""
        return next((c for c in self.changes if takes_my_admin(c.user_id, c.before, c.after, self.me)), None)

    @property
    def admins_after(self) -> int:
        gained = sum(1 for c in self.changes if c.after == "admin")
        lost = sum(1 for c in self.changes if c.before == "admin")
        return self.admins_now + gained - lost

    @property
    def problem(self) -> str | None:
        """Why the plan must not be sent, or None."""
        if not self.changes:
            return f"Nothing to change: every marked member is already {role_name(self.role)}."
        if self.admins_after < 1:
            return (
                "No admin would remain: an organization needs at least one. "
                "Unmark an admin, or make another member an admin first."
            )
        return None


def plan_roles(members: Sequence[Member], role: Role | None, *, admins_now: int, me: str | None = None) -> RolePlan:
    """The plan of giving ``role`` to ``members`` (``admins_now``: the organization's admins today; ``me``: the
    signed-in user's id). New admins come first and demoted admins last, so a plan stopped half-way keeps at least
    the admins it meant to; the signed-in user's own demotion comes last of all."""
    changes: list[RoleChange] = []
    unchanged: list[str] = []
    for member in members:
        if member.role == role:
            unchanged.append(member_name(member))
            continue
        changes.append(RoleChange(member.id, member_name(member), member.user.email, member.role, role))
    changes.sort(
        key=lambda c: (c.after != "admin", c.before == "admin", takes_my_admin(c.user_id, c.before, c.after, me))
    )
    return RolePlan(role, tuple(changes), tuple(unchanged), admins_now, me)


@dataclass
class PlanOutcome:
    """What applying a plan did: the changes made, the one the service refused (and why), the ones not tried."""

    plan: RolePlan
    done: list[RoleChange] = field(default_factory=list)
    refused: RoleChange | None = None
    error: BaseException | None = None
    not_tried: list[RoleChange] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.refused is None and len(self.done) == len(self.plan.changes)

    def headline(self) -> str:
        """``All 3 changes made.`` / ``Stopped: 1 of 3 changes made.`` (the refusal is said apart)."""
        total = len(self.plan.changes)
        if self.complete:
            return "The change was made." if total == 1 else f"All {total} changes made."
        return f"Stopped: {len(self.done)} of {total} changes made."


ROLE_FILTERS: tuple[str | None, ...] = (None, *ROLE_NAMES)
"""The members list's role filter, in the order ``f`` steps through it (None: every role)."""


def next_role_filter(current: str | None) -> str | None:
    """The filter after ``current`` in :data:`ROLE_FILTERS` (after ``guest`` comes every role again)."""
    index = ROLE_FILTERS.index(current) if current in ROLE_FILTERS else -1
    return ROLE_FILTERS[(index + 1) % len(ROLE_FILTERS)]


def role_filter_label(role: str | None) -> str:
    """``All roles``, ``Role admin``, ``Guests``: the role filter in words."""
    if role is None:
        return "All roles"
    return "Guests" if role == GUEST else f"Role {role}"
