"""The one door every server string goes through on its way to the screen.

A title, a name or a message from the service is data, never markup and never terminal control: ``safe()``
returns a :class:`~textual.content.Content` built from the plain text (so ``[@click=app.quit]`` is shown, not
run), with terminal escape sequences (CSI, OSC including hyperlinks and clipboard writes, DCS, APC...), C0
and C1 control characters, bidirectional overrides and other invisible format characters removed, newlines
folded to spaces (unless ``multiline``), and the length capped.
"""

from __future__ import annotations

import re
import unicodedata

from textual.content import Content

__all__ = ["ELLIPSIS", "safe"]

ELLIPSIS = "…"

# Escape sequences, 7-bit (ESC ...) and 8-bit (C1) introducers. String-type sequences (OSC, DCS, SOS, PM, APC)
# run to their terminator (BEL or ST) or, when unterminated, to the end of the text: all of it is payload.
_SEQUENCES = re.compile(
    r"""
      (?:\x1b\[|\x9b) [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]?               # CSI
    | (?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]) .*? (?:\x07|\x1b\\|\x9c|\Z)   # OSC DCS SOS PM APC
    | \x1b [\x20-\x2f]* [\x30-\x7e]?                                       # other ESC, lone ESC
    """,
    re.VERBOSE | re.DOTALL,
)
_NEWLINES = re.compile(r"\r\n|[\r\n\x0b\x0c\x85\u2028\u2029]")
_WHITESPACE_RUN = re.compile(r"[ \t]*\n[ \t\n]*")
# Characters removed outright: C0 and C1 controls (newline and tab are dealt with apart), DEL, and the
# invisible format characters (category Cf: bidi embeddings, overrides and isolates, zero-width characters,
# soft hyphen, byte order mark, tag characters...). Lone surrogates cannot be written to a terminal at all.
_REMOVED_CATEGORIES = {"Cc", "Cf", "Cs"}
_KEPT_CONTROLS = {"\n", "\t"}


def _clean(char: str) -> str:
    if char in _KEPT_CONTROLS:
        return char
    if unicodedata.category(char) in _REMOVED_CATEGORIES:
        return "\ufffd" if unicodedata.category(char) == "Cs" else ""
    return char


def _needs_char_pass(text: str) -> bool:
    return not text.isascii() or any(c < " " or c == "\x7f" for c in text)


def safe(text: str | None, *, limit: int = 2000, multiline: bool = False) -> Content:
    """``text`` (any string from the service) as plain, inert, bounded :class:`Content` for a widget."""
    if text is None:
        return Content("")
    if not isinstance(text, str):
        text = str(text)
    limit = max(1, limit)
    # Read only what can matter: a megabyte of title is not shown, and the sequences removed from what is read
    # can only shorten it.
    budget = limit * 4 + 256
    clipped = len(text) > budget
    if clipped:
        text = text[:budget]
    text = _SEQUENCES.sub("", text)
    text = _NEWLINES.sub("\n", text)
    if _needs_char_pass(text):
        text = "".join(_clean(c) for c in text)
    text = text.replace("\t", "    " if multiline else " ")
    if multiline:
        text = "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")
    else:
        text = _WHITESPACE_RUN.sub(" ", text).strip()
    if len(text) > limit or clipped:
        text = text[: limit - 1].rstrip() + ELLIPSIS
    return Content(text)
