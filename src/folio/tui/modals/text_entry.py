"""Asks for text (a comment, a reply, a subject, a description) and sends it, keeping it when sending fails.

The modal owns the send: it calls ``submit(text)``; when that raises, the error is shown in words inside the
modal and the text stays, so nothing typed is lost; on success the modal closes with the text. ``check(text)``
(optional) says what is wrong before sending (a limit of the spec), as the user types.

With a ``draft`` key (and the account's local state, ``services.local.state``), every change is saved as a
draft as it is typed, the draft comes back when the same entry is opened again, and it is removed only once the
service accepted the text. Closing with esc keeps it.
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
from textual.widgets import Button, Input, Static, TextArea

from folio.tui.errors import error_message
from folio.tui.modals.drafts import DraftSlot

__all__ = ["TextEntryModal"]


class TextEntryModal(ModalScreen[str | None]):
    DEFAULT_CSS = """
    TextEntryModal { align: center middle; }
    TextEntryModal > Vertical { width: 90; max-width: 98%; height: auto; max-height: 95%; border: thick $accent;
                                padding: 0 1; background: $surface; }
    TextEntryModal .entry--title { text-style: bold; padding: 1 0 0 0; }
    TextEntryModal TextArea { height: 12; min-height: 4; }
    TextEntryModal .entry--problem { color: $error; height: auto; }
    TextEntryModal .entry--help { color: $text-muted; height: auto; }
    TextEntryModal Horizontal { height: auto; align-horizontal: right; }
    TextEntryModal Button { margin-left: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+s,f2",
            "send",
            "Send",
            id="entry.send",
            tooltip="Send (ctrl+s, or f2 where ctrl+s is taken)",
            priority=True,
        ),
        Binding("escape", "cancel", "Cancel", id="entry.cancel", tooltip="Close without sending"),
    ]

    def __init__(
        self,
        title: Content | str,
        submit: Callable[[str], Awaitable[object]],
        *,
        text: str = "",
        multiline: bool = True,
        check: Callable[[str], str | None] | None = None,
        send_label: str = "Send",
        draft: str | None = None,
        where: str = "",
    ) -> None:
        super().__init__()
        self.slot = DraftSlot(draft, where, text)
        self.title_text = title if isinstance(title, Content) else Content(title)
        self.submit = submit
        self.initial = text
        self.multiline = multiline
        self.check = check
        self.send_label = send_label
        self.sending = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, classes="entry--title")
            if self.multiline:
                yield TextArea(self.initial, id="entry-text", soft_wrap=True, tab_behavior="focus")
            else:
                yield Input(self.initial, id="entry-text")
            yield Static(classes="entry--problem")
            yield Static(
                Content("ctrl+s or f2 sends · esc closes (the text is kept until sent)"), classes="entry--help"
            )
            with Horizontal():
                yield Button(Content(self.send_label), variant="primary", id="send")
                yield Button(Content("Cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one("#entry-text").focus()
        restored = self.slot.restore(self.app)
        if restored is not None:
            widget = self.query_one("#entry-text")
            if isinstance(widget, TextArea):
                widget.load_text(restored)
                widget.move_cursor(widget.document.end)
            else:
                widget.value = restored  # type: ignore[attr-defined]
            self._problem(Content("Your unsent draft is back (esc keeps it, sending removes it)."))

    def save_draft(self) -> None:
        """Keep what is typed now (each change calls it; so does a hang-up of the terminal)."""
        if self.is_mounted:
            self.slot.save(self.app, self.text)

    @property
    def text(self) -> str:
        widget = self.query_one("#entry-text")
        return widget.text if isinstance(widget, TextArea) else widget.value  # type: ignore[attr-defined,no-any-return]

    def _problem(self, message: Content | str | None) -> None:
        problem = self.query_one(".entry--problem", Static)
        problem.update(message if isinstance(message, Content) else Content(message or ""))

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self.save_draft()
        self._live_check()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.save_draft()
        self._live_check()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_send()

    def _live_check(self) -> None:
        self._problem(self.check(self.text) if self.check else None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "send":
            self.action_send()
        else:
            self.action_cancel()

    def action_send(self) -> None:
        if self.sending:
            return
        text = self.text
        problem = self.check(text) if self.check else None
        if problem:
            self._problem(problem)
            return
        self._send(text)

    @work(exclusive=True, group="entry-send", exit_on_error=False)
    async def _send(self, text: str) -> None:
        self.sending = True
        self._problem(Content("Sending…"))
        self.query_one("#send", Button).disabled = True
        try:
            await self.submit(text)
        except Exception as exc:
            self._problem(
                error_message(
                    exc,
                    doing="Not sent",
                    hint=self.slot.kept_where(self.app, "Your text is kept; fix it or try again."),
                )
            )
            return
        finally:
            self.sending = False
            self.query_one("#send", Button).disabled = False
        self.slot.drop(self.app)
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
