"""Submitting a review: approve or request changes, with an optional comment (a
:class:`~folio.tui.modals.form.FormModal`).

No verdict is chosen until the user chooses one: ``a`` approves, ``c`` requests changes (while the choice has
focus), tab goes to the comment, ctrl+s or f2 sends, esc closes (``keep`` is given the comment, and the draft
keeps it, so reopening brings it back). ``submit(status, comment)`` sends; a failure is shown in the form and the
comment stays. When the answer was lost, ``find(status, since)`` looks for the review on the service before it can
be sent again (``since``: when the send began). Dismissed with the verdict sent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import RadioButton, TextArea

from folio.services import format
from folio.tui.modals.form import NOT_CHECKED, Field, FormModal

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
    ) -> None:
        self._submit = submit
        self._find = find
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
        return self.FIELDS

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        if values.get("verdict") not in VERDICTS:
            return {"verdict": "Choose a verdict first: a approves, c requests changes."}
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
