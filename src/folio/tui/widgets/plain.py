"""How a field draws the server's exact value: each control or invisible format character as a visible
mark of the same length (the value itself stays exact, so saving it changes nothing), so nothing in it reaches
the terminal as a control sequence. Every form's one-line fields use :data:`shown_plainly`, its text fields
:class:`PlainTextArea`."""

from __future__ import annotations

import unicodedata
from typing import ClassVar

from rich.highlighter import Highlighter
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import TextArea

from folio.tui.safe import ZWJ

__all__ = ["PlainTextArea", "marked", "shown_plainly"]

_MARKS = {"\x7f": "\u2421"}


def _mark(char: str, before: str, after: str) -> str:
    """What is drawn for ``char`` of a field's value: itself, or a visible mark of the same length."""
    if char == ZWJ and unicodedata.category(before or " ") == "So" and unicodedata.category(after or " ") == "So":
        return char  # joins two emoji
    if unicodedata.category(char) not in ("Cc", "Cf", "Cs"):
        return char
    if char < " ":
        return chr(0x2400 + ord(char))  # the control pictures: ␛ ␇ ␉ ␊ …
    return _MARKS.get(char, "\ufffd")


def marked(plain: str) -> str:
    """``plain`` as drawn: each control or invisible format character as a visible mark, one for one."""
    if plain.isascii() and plain.isprintable():
        return plain
    return "".join(_mark(c, plain[i - 1] if i else "", plain[i + 1 : i + 2]) for i, c in enumerate(plain))


class _ShownPlainly(Highlighter):
    """A one-line field's value as drawn: control and invisible format characters as visible marks, one for one,
    so the cursor stays where it is and nothing reaches the terminal as control."""

    def highlight(self, text: Text) -> None:
        plain = text.plain
        shown = marked(plain)
        if shown is not plain:
            text.plain = shown


shown_plainly = _ShownPlainly()
"""The highlighter of the forms' one-line fields (see the module's docstring)."""


class PlainTextArea(TextArea):
    """A text field that edits the exact value and draws each line with its control and invisible format
    characters as marks (a pasted or served ``ESC ]0;…`` shows as ``␛]0;…``, never reaches the terminal)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Textual binds this to alt+delete only, which many terminals (and tmux) do not send.
        Binding(
            "ctrl+delete",
            "delete_word_right",
            "Delete word",
            show=False,
            id="text.delete-word-right",
            tooltip="Delete from the cursor to the end of the word",
        ),
    ]

    def get_line(self, line_index: int) -> Text:
        # The document's line, marked before Rich sees it (Rich's Text drops BEL, BS, VT, FF and CR, which would
        # put the cursor off by as many cells).
        return Text(marked(self.document.get_line(line_index)), end="", no_wrap=True)
