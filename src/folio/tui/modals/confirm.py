"""A yes/no question whose accept key differs from the key that asked (so a double press never confirms)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

__all__ = ["ConfirmModal"]


class ConfirmModal(ModalScreen[bool]):
    """``await app.push_screen_wait(ConfirmModal("Merge #12?", accept_key="y"))`` -> True or False.

    ``accept_key`` (default ``y``) confirms, ``n`` and ``esc`` cancel. The caller picks an accept key other than
    the key that opened the question."""

    DEFAULT_CSS = """
    ConfirmModal { align: center middle; }
    ConfirmModal > Vertical { width: 64; max-width: 95%; height: auto; border: thick $warning; padding: 1 2;
                              background: $surface; }
    ConfirmModal .confirm--title { text-style: bold; }
    ConfirmModal .confirm--body { margin: 1 0; }
    ConfirmModal Horizontal { height: auto; align-horizontal: right; }
    ConfirmModal Button { margin-left: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,n", "cancel", "Cancel", id="confirm.cancel", tooltip="Do nothing"),
    ]

    def __init__(
        self, title: Content | str, body: Content | str = "", *, accept_key: str = "y", accept_label: str = "Yes"
    ) -> None:
        super().__init__()
        self.title_text = title if isinstance(title, Content) else Content(title)
        self.body_text = body if isinstance(body, Content) else Content(body)
        self.accept_key = accept_key
        self.accept_label = accept_label

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, classes="confirm--title")
            if self.body_text.plain:
                yield Static(self.body_text, classes="confirm--body")
            yield Static(Content(f"Press {self.accept_key} to confirm, n or esc to cancel."))
            with Horizontal():
                yield Button(Content(f"{self.accept_label} ({self.accept_key})"), variant="warning", id="accept")
                yield Button(Content("Cancel (n)"), id="cancel")

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    def on_key(self, event: object) -> None:
        key = getattr(event, "key", None)
        if key == self.accept_key:
            getattr(event, "stop", lambda: None)()
            self.dismiss(True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "accept")

    def action_cancel(self) -> None:
        self.dismiss(False)
