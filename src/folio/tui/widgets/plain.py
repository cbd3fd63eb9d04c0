"""How a one-line field draws the server's exact value: each control or invisible format character as a visible
mark of the same length (the value itself stays exact, so saving it changes nothing), so nothing in it reaches
the terminal as a control sequence. Every form's one-line fields use :data:`shown_plainly`."""

from __future__ import annotations

import unicodedata

from rich.highlighter import Highlighter
from rich.text import Text

from folio.tui.safe import ZWJ

__all__ = ["shown_plainly"]

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


class _ShownPlainly(Highlighter):
    """A one-line field's value as drawn: control and invisible format characters as visible marks, one for one,
    so the cursor stays where it is and nothing reaches the terminal as control."""

    def highlight(self, text: Text) -> None:
        plain = text.plain
        if plain.isascii() and plain.isprintable():
            return
        text.plain = "".join(_mark(c, plain[i - 1] if i else "", plain[i + 1 : i + 2]) for i, c in enumerate(plain))


shown_plainly = _ShownPlainly()
"""The highlighter of the forms' one-line fields (see the module's docstring)."""
