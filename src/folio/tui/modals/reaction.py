"""Pick an emoji reaction with one key: ``1``-``6`` for the common ones (or the ones given), esc cancels; and
:func:`shown`, how a reaction is drawn wherever one is shown (the same width for Textual and every terminal)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from folio.services.review.comments import COMMON_REACTIONS
from folio.tui.safe import safe

__all__ = ["COMMON_REACTIONS", "ReactionModal", "shown"]

MAX_CHOICES = 9
SELECTORS = ("\ufe0e", "\ufe0f")
"""The text and emoji variation selectors."""
ZWJ = "\u200d"


def shown(text: str) -> str:
    """``text`` with the variation selectors that change a character's width left out (``❤️`` -> ``❤``).

    A selector that turns a one-cell character into a two-cell emoji is counted by Textual (two cells) and ignored by
    many terminals (one): the rest of the line then moves a cell, and a box's right border is drawn outside it. The
    character alone is one cell for both. A selector inside a joined sequence (before a ZWJ) stays.
    """
    if not any(selector in text for selector in SELECTORS):
        return text
    out: list[str] = []
    for index, char in enumerate(text):
        following = text[index + 1 : index + 2]
        if char in SELECTORS and out and following != ZWJ and cell_len(out[-1] + char) != cell_len(out[-1]):
            continue
        out.append(char)
    return "".join(out)


class ReactionModal(ModalScreen[str | None]):
    """``await app.push_screen_wait(ReactionModal())`` -> the emoji picked, or None.

    ``choices`` (default :data:`COMMON_REACTIONS`, at most nine) are numbered from 1; the number picks."""

    DEFAULT_CSS = """
    ReactionModal { align: center middle; }
    ReactionModal > Vertical { width: auto; min-width: 40; max-width: 95%; height: auto; border: thick $accent;
                               padding: 1 2; background: $surface; }
    ReactionModal .reaction--title { text-style: bold; margin-bottom: 1; }
    ReactionModal Horizontal { height: auto; width: auto; }
    ReactionModal Button { min-width: 8; margin-right: 1; }
    ReactionModal .reaction--help { color: $text-muted; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="reaction.cancel", tooltip="Close without reacting"),
        *(
            Binding(
                str(n),
                f"pick({n - 1})",
                f"Pick {n}",
                show=False,
                id=f"reaction.pick-{n}",
                tooltip=f"Pick the reaction numbered {n}",
            )
            for n in range(1, MAX_CHOICES + 1)
        ),
    ]

    def __init__(self, choices: Sequence[str] = COMMON_REACTIONS, *, title: str = "React with") -> None:
        super().__init__()
        self.choices = list(choices)[:MAX_CHOICES]
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content(self.title_text), classes="reaction--title")
            with Horizontal():
                for n, emoji in enumerate(self.choices, 1):
                    yield Button(Content(f"{n} ") + safe(shown(emoji), limit=8), id=f"reaction-{n}")
            yield Static(Content(f"Press 1-{len(self.choices)} to pick, esc to cancel."), classes="reaction--help")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick" and parameters and isinstance(parameters[0], int):
            return parameters[0] < len(self.choices)
        return True

    def action_pick(self, index: int) -> None:
        if 0 <= index < len(self.choices):
            self.dismiss(self.choices[index])

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_pick(int((event.button.id or "reaction-0").rsplit("-", 1)[1]) - 1)

    def action_cancel(self) -> None:
        self.dismiss(None)
