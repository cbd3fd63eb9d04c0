"""The merge pre-flight (issue 16): before ``m`` merges, a checklist of what the service will check (the merge
rules) and what a careful reviewer would (up to date, open comments, viewed pages, broken links), each line ✓ or
✗ with the key that fixes it.

    choice = await ask_before_merge(app, services.preflight, space_id, cr)
    # "merge": confirmed (typed when a line failed); a fix ("ask_reviewers", "comments"...): run FIX_ACTIONS[it]

All ✓: ``y`` merges (one confirmation, as before). Any ✗, or checks that could not run: ``y`` asks to type the
change request's number (or ``merge``) first. Lines Folio cannot evaluate say "checked by the service".
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from folio.services.errors import ServiceError
from folio.tui import styles_dir
from folio.tui.actions import Explains
from folio.tui.errors import error_message
from folio.tui.modals.site_forms import TypedConfirmModal
from folio.tui.safe import safe

if TYPE_CHECKING:
    from folio.models.change_request import ChangeRequest
    from folio.services.review.preflight import Check, Preflight, PreflightService

__all__ = ["FIX_ACTIONS", "MergeAnywayModal", "PreflightModal", "ask_before_merge", "checklist"]

FIX_ACTIONS: dict[str, str] = {
    "ask_reviewers": "ask_reviewers",
    "update_from_main": "update_from_main",
    "comments": "tab('comments')",
    "changes": "tab('changes')",
    "edit_subject": "edit_subject",
    "edit_description": "edit_description",
}
"""A line's fix -> the change request screen's action that makes it."""
FIX_KEYS: dict[str, tuple[str, str]] = {
    "ask_reviewers": ("a", "ask for a review"),
    "update_from_main": ("u", "update from main"),
    "comments": ("3", "open the threads"),
    "changes": ("2", "the changes"),
    "edit_subject": ("t", "edit the subject"),
    "edit_description": ("d", "edit the description"),
}
"""A fix -> its key in the checklist (the change request screen's key for the same thing) and what it does."""


def _mark(check: Check) -> tuple[str, str]:
    if check.ok is None:
        return "?", "$text-muted"
    return ("✓", "$text-success") if check.ok else ("✗", "$text-error bold")


def _line(check: Check) -> Content:
    mark, style = _mark(check)
    parts: list[Content | tuple[str, str] | str] = [(f" {mark} ", style), safe(check.label, limit=200)]
    if check.ok is False and check.fix in FIX_KEYS:
        key, does = FIX_KEYS[check.fix]
        parts += ["  ", (key, "bold $accent"), (f" {does}", "$text-muted")]
    if check.detail:
        parts += ["\n     ", (safe(check.detail, limit=300).plain, "$text-muted")]
    return Content.assemble(*parts)


def checklist(flight: Preflight) -> Content:
    """The lines of the checklist: the merge rules first (the service enforces them), then the reviewer's own."""
    rules = [c for c in flight.checks if c.rule]
    own = [c for c in flight.checks if not c.rule]
    heading = f"Merge rules of {flight.source}"
    if flight.bypass:
        heading += " (you may bypass them)"
    lines: list[Content] = [Content.styled(heading, "bold")]
    lines += [_line(c) for c in rules]
    lines.append(Content.styled("Before merging", "bold"))
    lines += [_line(c) for c in own]
    return Content("\n").join(lines)


class PreflightModal(ModalScreen[str | None], Explains):
    """The checklist of a change request, read when it opens. Dismisses with ``"merge"`` (``y``), a fix's name
    (its key), or None (``esc``/``n``)."""

    CSS_PATH = [styles_dir() / "preflight.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "merge", "Merge", id="preflight.merge", tooltip="Merge (asks to type it when a line fails)"),
        Binding("a", "fix('ask_reviewers')", "Ask", id="preflight.ask", tooltip="Ask members to review it"),
        Binding("u", "fix('update_from_main')", "Update", id="preflight.update", tooltip="Update it from main"),
        Binding("3", "fix('comments')", "Threads", id="preflight.comments", tooltip="Open the comments tab"),
        Binding("2", "fix('changes')", "Changes", id="preflight.changes", tooltip="Open the changes tab"),
        Binding("t", "fix('edit_subject')", "Subject", id="preflight.subject", tooltip="Edit the subject"),
        Binding("d", "fix('edit_description')", "Description", id="preflight.description", tooltip="Edit it"),
        Binding("escape,n", "cancel", "Cancel", id="preflight.cancel", tooltip="Do not merge"),
    ]

    def __init__(self, title: Content, check: Callable[[], Awaitable[Preflight]]) -> None:
        super().__init__()
        self.title_text = title
        self._check = check
        self.flight: Preflight | None = None
        self.failed: Content | None = None
        self.checked = asyncio.Event()
        """Set once the checks ran (or failed): what the lines say is final."""

    def compose(self) -> ComposeResult:
        with Vertical(id="preflight"):
            yield Static(self.title_text, id="preflight-title")
            with VerticalScroll(id="preflight-lines"):
                yield Static(Content("Checking the merge rules, reviews, comments, viewed pages and links…"))
            yield Static(id="preflight-verdict")
            yield Static(Content("y merge · esc cancel"), id="preflight-help")

    def on_mount(self) -> None:
        self.query_one("#preflight-lines").focus()
        self._run()

    @work(exclusive=True, exit_on_error=False)
    async def _run(self) -> None:
        try:
            await self._show()
        finally:
            self.checked.set()

    async def _show(self) -> None:
        try:
            flight = await self._check()
        except ServiceError as exc:
            self.failed = error_message(exc, doing="Could not run the checks", brief=True)
            self.query_one("#preflight-lines Static", Static).update(self.failed)
            self._verdict(Content("Nothing was checked: merging anyway asks you to type it first."), bad=True)
            return
        self.flight = flight
        self.query_one("#preflight-lines Static", Static).update(checklist(flight))
        failing = len(flight.failing)
        if failing:
            said = f"{failing} check{'s' if failing != 1 else ''} failed: fix them with the keys shown, or merge"
            self._verdict(Content(f"{said} anyway (you will be asked to type it)."), bad=True)
        else:
            self._verdict(Content("Every check passes. Press y to merge."), bad=False)
        keys = sorted({c.fix for c in flight.failing if c.fix}, key=list(FIX_KEYS).index)
        fixes = " · ".join(f"{FIX_KEYS[k][0]} {FIX_KEYS[k][1]}" for k in keys)
        self.query_one("#preflight-help", Static).update(
            Content(" · ".join(filter(None, ["y merge", fixes, "esc cancel"])))
        )
        self.refresh_bindings()

    def _verdict(self, text: Content, *, bad: bool) -> None:
        widget = self.query_one("#preflight-verdict", Static)
        widget.update(text)
        widget.set_class(bad, "-bad")

    @property
    def confirmed_once(self) -> bool:
        """Whether ``y`` alone merges: the checks ran and none failed."""
        return self.flight is not None and self.flight.passed

    def why_not(self, action: str) -> str | None:
        if action in ("fix", "merge") and self.flight is None and self.failed is None:
            return "The checks are still running."
        return None

    def action_fix(self, fix: str) -> None:
        if self.flight is None or not any(c.fix == fix for c in self.flight.failing):
            key = FIX_KEYS.get(fix, ("", "this"))[0]
            self.notify(f"No failing check needs {key} here.", markup=False, severity="warning")
            return
        self.dismiss(fix)

    def action_merge(self) -> None:
        self.dismiss("merge")

    def action_cancel(self) -> None:
        self.dismiss(None)


class MergeAnywayModal(TypedConfirmModal):
    """The second confirmation of a merge with failing checks: type the change request's number or ``merge``."""

    def __init__(self, cr: ChangeRequest, failing: int) -> None:
        number = str(cr.number)
        what = f"{failing} check{'s' if failing != 1 else ''} failed" if failing else "Nothing could be checked"
        super().__init__(
            Content.assemble(f"Merge #{number} anyway?"),
            number,
            body=Content(f"{what}. The service may still refuse a merge its rules do not allow."),
            action="Merge",
        )
        self.accepted = {number, f"#{number}", "merge"}

    def compose(self) -> ComposeResult:
        with Vertical(classes="site-form site-form--danger"):
            yield Static(self.title_text, classes="site-form--title")
            yield Static(self.body_text, classes="site-form--body")
            yield Static(
                Content.assemble(
                    "Type ", (self.expected, "bold"), " or ", ("merge", "bold"), " to confirm, then enter."
                )
            )
            yield Input(id="confirm-text", compact=True, placeholder="type it here")
            yield Static(classes="site-form--problem")
            yield Static(Content("enter: merge · esc: cancel"), classes="site-form--help")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip().lower() in self.accepted:
            self.dismiss(True)
            return
        self.query_one(".site-form--problem", Static).update(
            Content(f"Nothing was merged: type {self.expected} or merge exactly, or press esc.")
        )


async def ask_before_merge(app: App[Any], preflight: PreflightService, space_id: str, cr: ChangeRequest) -> str | None:
    """The checklist, then (when a check failed or none ran) the typed confirmation: ``"merge"`` when the merge is
    confirmed, a fix's name when its key was pressed, None when cancelled."""
    title = Content.assemble(
        "Merge ", (f"#{cr.number} ", "bold"), safe(cr.subject or "Untitled", limit=80), " into main?"
    )
    modal = PreflightModal(title, lambda: preflight.check(space_id, cr.id))
    choice: str | None = await app.push_screen_wait(modal)
    if choice != "merge" or modal.confirmed_once:
        return choice
    failing = len(modal.flight.failing) if modal.flight is not None else 0
    typed: bool | None = await app.push_screen_wait(MergeAnywayModal(cr, failing))
    return "merge" if typed else None
