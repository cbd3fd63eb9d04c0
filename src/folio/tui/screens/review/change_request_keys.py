"""The keys of the change request screen: its bindings, why each decision cannot be taken now, and which keys the
footer shows (the most useful ones of the tab in view that fit the terminal's width; ``?`` lists them all).

    why_cannot(cr, "merge")      # "Only an open change request can be merged; this one is merged."
    fit_footer(app, bindings, order_for("changes", wide=False), width=80)
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from textual.binding import Binding, BindingType

from folio.services.review.review import next_status

if TYPE_CHECKING:
    from textual.binding import ActiveBinding

    from folio.models.change_request import ChangeRequest

__all__ = ["BINDINGS", "NEEDS_CR", "fit_footer", "order_for", "why_cannot"]

NEEDS_CR = {
    "review",
    "ask_reviewers",
    "withdraw_reviewer",
    "merge",
    "update_from_main",
    "pdf",
    "edit_subject",
    "edit_description",
    "edit_in_editor",
    "cycle_status",
    "sweep",
    "toggle_pending",
    "pending_list",
}
"""The actions that act on the change request itself (they wait for it to load)."""


def _binding(key: str, action: str, label: str, name: str, tooltip: str) -> Binding:
    # Not shown by default: the footer picks what fits (fit_footer), `?` lists every one.
    return Binding(key, action, label, show=False, id=f"change-request.{name}", tooltip=tooltip)


BINDINGS: list[BindingType] = [
    _binding("1", "tab('overview')", "Overview", "tab-overview", "Show the overview"),
    _binding("2", "tab('changes')", "Changes", "tab-changes", "Show the changed pages and their diffs"),
    _binding("3", "tab('comments')", "Comments", "tab-comments", "Show the comments"),
    _binding("4", "tab('checks')", "Checks", "tab-checks", "Show the review lint and the overlapping change requests"),
    _binding("5", "tab('pages')", "Pages", "tab-pages", "Show the pages as a tree you edit, sent as one revision"),
    _binding("R", "review", "Review", "review", "Approve or request changes, with a comment"),
    _binding("m", "merge", "Merge", "merge", "Merge into the space's main content (asks first)"),
    _binding("u", "update_from_main", "Update", "update", "Bring main's changes into it (asks first)"),
    _binding("p", "pdf", "PDF", "pdf", "Show and copy a link to the content as PDF"),
    _binding("t", "edit_subject", "Subject", "edit-subject", "Edit the subject"),
    _binding("d", "edit_description", "Description", "edit-description", "Edit the description here"),
    _binding("e", "edit_in_editor", "Editor", "editor", "Edit the description in $EDITOR"),
    _binding("S", "cycle_status", "Status", "status", "Change the status: draft, open, archived (asks first)"),
    _binding("a", "ask_reviewers", "Reviewers", "ask-reviewers", "Ask members of the organization to review it"),
    _binding("A", "withdraw_reviewer", "Unask", "withdraw-reviewer", "Stop asking someone to review it (pick whom)"),
    _binding("space", "sweep", "Sweep", "sweep", "Walk the review: the next unviewed page, then its open threads"),
    _binding("P", "toggle_pending", "Hold", "pending", "Hold your comments as a pending review, for your verdict"),
    _binding("H", "pending_list", "Held", "pending-list", "List the comments held for your verdict"),
    Binding(
        "V",
        "since_review",
        "Since review",
        show=True,  # the footer offers it where it fits, only while it can act (fit_footer)
        id="change-request.since-review",
        tooltip="Show only what changed since your last review (again: every change)",
    ),
]


def why_cannot(cr: ChangeRequest | None, action: str, *, failed: bool = False) -> str | None:
    """Why ``action`` cannot act on ``cr`` now, in a sentence (None: it can). ``failed``: the last load failed."""
    if action not in NEEDS_CR:
        return None
    if cr is None:
        return "The change request did not load: press r to try again." if failed else "It is still loading."
    status = cr.status
    if action == "review" and not cr.is_active:
        return "It is merged: nothing to review." if status == "merged" else f"It is {status}: S opens it again."
    if action in ("sweep", "toggle_pending") and not cr.is_active:
        return f"It is {status}: there is no review to {'sweep' if action == 'sweep' else 'hold comments for'}."
    if action in ("ask_reviewers", "withdraw_reviewer") and not cr.is_active:
        return f"It is {status}: nobody can review it now."
    if action == "merge" and not cr.is_active:
        return f"Only an open change request can be merged; this one is {status}."
    if action == "update_from_main":
        if not cr.is_active:
            return f"It is {status}: there is nothing to update."
        if not cr.outdated:
            return "This change request is up to date with main."
    if action == "cycle_status" and next_status(status) is None:
        return f"A {status} change request keeps its status."
    return None


# --- the footer -------------------------------------------------------------------------------------------------

FIRST = ("app.help", "screen.back")
"""Always first: how to see every key, and how to leave."""
BY_TAB: dict[str, tuple[str, ...]] = {
    "overview": (
        "change-request.review",
        "change-request.merge",
        "change-request.update",
        "change-request.status",
        "change-request.edit-subject",
        "change-request.edit-description",
        "change-request.pdf",
        "change-request.ask-reviewers",
        "change-request.withdraw-reviewer",
        "screen.refresh",
        "change-request.pending",
    ),
    "changes": (
        "change-request.next-change",
        "change-request.viewed",
        "change-request.comment",
        "change-request.review",
        "change-request.sweep",
        "change-request.edit-page",
        "change-request.merge",
        "change-request.update",
        "change-request.wrap",
        "change-request.suggest",
        "change-request.next-unviewed",
        "list.filter",
        "screen.refresh",
    ),
    "comments": (
        "comments.new",
        "comments.resolve",
        "comments.reopen",
        "list.open",
        "change-request.review",
        "change-request.merge",
        "change-request.update",
        "comments.filter",
        "comments.refresh",
        "change-request.pending",
    ),
    "checks": (
        "list.open",
        "change-request.review",
        "change-request.merge",
        "change-request.update",
        "list.filter",
        "screen.refresh",
    ),
    "pages": (
        "cr-pages.new",
        "cr-pages.rename",
        "cr-pages.grab",
        "cr-pages.delete",
        "cr-pages.plan",
        "cr-pages.send",
        "cr-pages.revert",
        "cr-pages.file",
        "cr-pages.edit",
        "cr-pages.reread",
    ),
}
PALETTE = 15
"""Columns the footer keeps for its ``^p Commands`` key."""


def order_for(tab: str, *, wide: bool) -> tuple[str, ...]:
    """The binding ids the footer of ``tab`` offers, most useful first (``wide``: side by side is possible)."""
    order = FIRST + BY_TAB.get(tab, ())
    if tab == "changes" and wide:  # side by side only where it can be: the third key of the changes tab
        return (*order[:4], "change-request.layout", *order[4:])
    return order


def fit_footer(app: Any, bindings: dict[str, ActiveBinding], order: tuple[str, ...], width: int) -> dict[str, Any]:
    """``bindings`` with ``show`` set on those the footer has room for: the ids of ``order`` first (in that
    order), then the other bindings shown by default. A key that cannot act now is left to ``?`` (pressed, it
    says why): the footer offers what can be done."""
    rank = {binding_id: n for n, binding_id in enumerate(order)}
    offered = [
        (key, active)
        for key, active in bindings.items()
        if active.enabled and not active.binding.system and (active.binding.id in rank or active.binding.show)
    ]
    offered.sort(key=lambda item: rank.get(item[1].binding.id or "", len(rank)))
    room = width - PALETTE
    shown: set[str] = set()
    for key, active in offered:
        cost = cell_len(app.get_key_display(active.binding)) + cell_len(active.binding.description) + 3
        if cost <= room:
            shown.add(key)
            room -= cost
    return {
        key: active
        if (key in shown) == active.binding.show
        else active._replace(binding=replace(active.binding, show=key in shown))
        for key, active in bindings.items()
    }
