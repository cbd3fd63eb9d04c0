"""Submitting a review: approve or request changes, with an optional comment.

The modal owns the send, like :class:`~folio.tui.modals.text_entry.TextEntryModal`: it calls
``submit(status, comment)``; when that raises, the error is shown in words inside the modal and the comment
stays. On success it closes with the verdict sent. ``a`` / ``c`` pick the verdict (while the choice has
focus), tab goes to the comment, ctrl+s or f2 sends, esc closes (``keep`` is given the comment, so reopening
brings it back).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, RadioButton, RadioSet, Static, TextArea

from folio.tui.errors import error_message
from folio.tui.modals.drafts import DraftSlot

__all__ = ["VERDICTS", "ReviewModal"]

VERDICTS = ("approved", "changes-requested")
_LABELS = {"approved": "Approve (a)", "changes-requested": "Request changes (c)"}


class ReviewModal(ModalScreen[str | None]):
    """``push_screen(ReviewModal("Review #12", submit))``; dismisses with the verdict sent, or None."""

    DEFAULT_CSS = """
    ReviewModal { align: center middle; }
    ReviewModal > Vertical { width: 80; max-width: 98%; height: auto; max-height: 95%; border: thick $accent;
                             padding: 0 1; background: $surface; }
    ReviewModal .review--title { text-style: bold; padding: 1 0 0 0; }
    ReviewModal RadioSet { width: 100%; height: auto; border: none; padding: 0; }
    ReviewModal TextArea { height: 6; min-height: 3; }
    ReviewModal .review--problem { color: $text-error; height: auto; }
    ReviewModal .review--help { color: $text-muted; height: auto; }
    ReviewModal Horizontal { height: auto; align-horizontal: right; }
    ReviewModal Button { margin-left: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+s,f2", "send", "Send", id="review.send", tooltip="Send the review (ctrl+s, or f2)", priority=True
        ),
        Binding(
            "escape", "cancel", "Cancel", id="review.cancel", tooltip="Close without sending (the comment is kept)"
        ),
        Binding("a", "pick('approved')", "Approve", id="review.approve", tooltip="Approve the change request"),
        Binding(
            "c", "pick('changes-requested')", "Request changes", id="review.request-changes", tooltip="Ask for changes"
        ),
    ]

    def __init__(
        self,
        title: Content | str,
        submit: Callable[[str, str], Awaitable[object]],
        *,
        status: str = "approved",
        comment: str = "",
        keep: Callable[[str], None] | None = None,
        draft: str | None = None,
        where: str = "",
    ) -> None:
        super().__init__()
        self.slot = DraftSlot(draft, where, comment)
        self.title_text = title if isinstance(title, Content) else Content(title)
        self.submit = submit
        self.status = status if status in VERDICTS else "approved"
        self.initial = comment
        self.keep = keep
        self.sending = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, classes="review--title")
            with RadioSet(id="review-verdict"):
                for verdict in VERDICTS:
                    yield RadioButton(Content(_LABELS[verdict]), value=verdict == self.status, id=f"verdict-{verdict}")
            yield Static(Content("Comment (optional):"))
            yield TextArea(self.initial, id="review-comment", soft_wrap=True, tab_behavior="focus")
            yield Static(classes="review--problem")
            yield Static(
                Content(
                    "a approve \u00b7 c request changes \u00b7 tab: comment \u00b7 ctrl+s / f2 sends \u00b7 esc closes"
                ),
                classes="review--help",
            )
            with Horizontal():
                yield Button(Content("Send review"), variant="primary", id="send")
                yield Button(Content("Cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one(RadioSet).focus()
        restored = self.slot.restore(self.app)
        if restored is not None:
            self.query_one("#review-comment", TextArea).load_text(restored)
            self._problem(Content("Your unsent review comment is back."))

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self.slot.save(self.app, self.comment)

    @property
    def comment(self) -> str:
        return self.query_one("#review-comment", TextArea).text

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick":  # letters belong to the comment while it has focus
            return not isinstance(self.focused, TextArea)
        return True

    def action_pick(self, status: str) -> None:
        self.query_one(f"#verdict-{status}", RadioButton).value = True
        self.status = status

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        event.stop()
        button_id = event.pressed.id or ""
        self.status = button_id.removeprefix("verdict-") if button_id.startswith("verdict-") else self.status

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "send":
            self.action_send()
        else:
            self.action_cancel()

    def _problem(self, message: Content | str | None) -> None:
        self.query_one(".review--problem", Static).update(
            message if isinstance(message, Content) else Content(message or "")
        )

    def action_send(self) -> None:
        if not self.sending:
            self._send(self.status, self.comment)

    @work(exclusive=True, group="review-send", exit_on_error=False)
    async def _send(self, status: str, comment: str) -> None:
        self.sending = True
        button = self.query_one("#send", Button)
        button.disabled = True
        self._problem(Content("Sending\u2026"))
        try:
            await self.submit(status, comment)
        except Exception as exc:
            self._problem(
                error_message(
                    exc,
                    doing="Review not sent",
                    hint=self.slot.kept_where(self.app, "Your comment is kept; try again."),
                )
            )
            return
        finally:
            self.sending = False
            button.disabled = False
        self.slot.drop(self.app)
        self.dismiss(status)

    def action_cancel(self) -> None:
        if self.keep is not None:
            self.keep(self.comment)
        self.dismiss(None)
