"""Submitting a review: approve or request changes, with an optional comment (a
:class:`~folio.tui.modals.form.FormModal`).

No verdict is chosen until the user chooses one: ``a`` approves, ``c`` requests changes (while the choice has
focus), tab goes to the comment, ctrl+s or f2 sends, esc closes (``keep`` is given the comment, and the draft
keeps it, so reopening brings it back). ``submit(status, comment)`` sends; a failure is shown in the form and the
comment stays. When the answer was lost, ``find(status, since)`` looks for the review on the service before it can
be sent again (``since``: when the send began). Dismissed with the verdict sent.

``held``: the comments of a pending review, listed above the verdict (they go first, in that order, with it).
``missing()``: what approving still waits for (``[review] approve_requires``), looked up when the dialog opens;
while anything is missing, approving is refused with the reason and requesting changes still goes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import RadioButton, Static, TextArea

from folio.services import format
from folio.services.errors import ServiceError
from folio.tui.errors import error_message
from folio.tui.modals.form import NOT_CHECKED, Field, FormModal
from folio.tui.safe import safe

__all__ = ["VERDICTS", "ReviewModal"]

VERDICTS = ("approved", "changes-requested")
_LABELS = {"approved": "Approve (a)", "changes-requested": "Request changes (c)"}


class ReviewModal(FormModal[str]):
    """``push_screen(ReviewModal("Review #12", submit))``; dismisses with the verdict sent, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "pick('approved')", "Approve", id="review.approve", tooltip="Approve the change request"),
        Binding(
            "c", "pick('changes-requested')", "Request changes", id="review.request-changes", tooltip="Ask for changes"
        ),
    ]
    SEND_LABEL = "Send review"
    FIELDS = (
        Field("verdict", "Verdict", kind="choice", choices=[(_LABELS[v], v) for v in VERDICTS]),
        Field("comment", "Comment", kind="text", height=6, hint="Optional"),
    )
    FAILED = "Review not sent"
    DEFAULT_CSS = """
    ReviewModal .review--held { height: auto; max-height: 4; color: $text-muted; }
    ReviewModal .review--missing { height: auto; max-height: 3; color: $text-warning; display: none; }
    """

    def __init__(
        self,
        title: Content | str,
        submit: Callable[[str, str], Awaitable[object]],
        *,
        status: str | None = None,
        comment: str = "",
        keep: Callable[[str], None] | None = None,
        find: Callable[[str, datetime], Awaitable[object | None]] | None = None,
        draft: str | None = None,
        where: str = "",
        held: Sequence[tuple[str, str]] = (),
        missing: Callable[[], Awaitable[list[str]]] | None = None,
    ) -> None:
        self._submit = submit
        self._find = find
        self.held = list(held)
        """``(where, text)`` of each comment of the pending review, in the order they go."""
        self._missing = missing
        self.missing: list[str] | None = [] if missing is None else None
        """What approving waits for (None: still being looked up)."""
        self.began: datetime | None = None
        """When the last send began: a review of the same verdict made since then is the one sent."""
        self.keep = keep
        values = {"verdict": status if status in VERDICTS else None, "comment": comment}
        super().__init__(values=values, draft=draft, where=where, title=title)

    # the draft is the comment alone: a verdict is chosen afresh each time
    def _draft_of(self, values: Mapping[str, Any]) -> str:
        return str(values.get("comment") or "")

    def _restore_draft(self, saved: str) -> None:
        self._fill({"comment": saved})

    @property
    def status(self) -> str | None:
        return self.values()["verdict"]  # type: ignore[no-any-return]

    @property
    def comment(self) -> str:
        return self.query_one("#field-comment", TextArea).text

    def fields(self) -> Sequence[Field]:
        if self.held or self._missing is not None:  # the lines above the verdict take the comment's room at 24 rows
            return (self.FIELDS[0], replace(self.FIELDS[1], height=4))
        return self.FIELDS

    def compose_intro(self) -> ComposeResult:
        if self.held:
            n = len(self.held)
            count = f"{n} comment goes" if n == 1 else f"{n} comments go"
            lines = [Content(f"Your pending review: {count} first, in this order:")]
            for number, (where, text) in enumerate(self.held[: 3 if n == 3 else 2], 1):
                lines.append(Content.assemble(f" {number}. ", safe(where, limit=30), ": ", safe(text, limit=50)))
            if n > 3:
                lines.append(Content(f" \u2026 and {n - 2} more (H on the change request lists them)"))
            yield Static(Content("\n").join(lines), classes="review--held")
        yield Static(classes="review--missing")

    def on_mount(self) -> None:
        super().on_mount()
        if self._missing is not None and self.missing is None:
            self._look_up_missing()

    @work(exclusive=True, group="review-missing", exit_on_error=False)
    async def _look_up_missing(self) -> None:
        assert self._missing is not None
        line = self.query_one(".review--missing", Static)
        try:
            self.missing = await self._missing()
        except ServiceError as exc:  # the rules cannot be checked: approving waits (requesting changes still goes)
            self.missing = ["Folio could not check them; close with esc and try again."]
            line.update(error_message(exc, doing="Could not check what approving requires", brief=True))
            line.display = True
            self.live_check()
            return
        if self.missing:
            line.update(safe("Approving waits for: " + " ".join(self.missing), limit=600))
            line.display = True
        self.live_check()

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        if values.get("verdict") not in VERDICTS:
            return {"verdict": "Choose a verdict first: a approves, c requests changes."}
        if values.get("verdict") == "approved":
            if self.missing is None:
                return {"verdict": "Checking what approving requires (config.toml's [review])…"}
            if self.missing:
                return {"verdict": "Not yet: see above (c requests changes)."}
        return {}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick":  # letters belong to the comment while it has focus
            return not isinstance(self.focused, TextArea)
        return True

    def action_pick(self, status: str) -> None:
        for button in self.query(RadioButton):
            button.value = button.name == status

    async def submit(self, values: Mapping[str, Any]) -> str:
        status = str(values["verdict"])
        self.began = format.now()
        await self._submit(status, str(values.get("comment") or ""))
        return status

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        """The verdict, when the service has the review whose answer was lost (None: it was not made)."""
        if self._find is None:
            return NOT_CHECKED
        status = str(values["verdict"])
        found = await self._find(status, self.began or format.now())
        return status if found is not None else None

    def action_cancel(self) -> None:
        if self.keep is not None:
            self.keep(self.comment)
        super().action_cancel()
