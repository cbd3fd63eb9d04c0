"""The one door every server string goes through on its way to the screen.

A title, a name or a message from the service is data, never markup and never terminal control: ``safe()``
returns a :class:`~textual.content.Content` built from the plain text (so ``[@click=app.quit]`` is shown, not
run), with terminal escape sequences (CSI, OSC including hyperlinks and clipboard writes, DCS, APC...), C0
and C1 control characters, bidirectional overrides and other invisible format characters removed, newlines
folded to spaces (unless ``multiline``), and the length capped.

Two exceptions keep emoji whole: a zero-width joiner stays where it joins two emoji (``👩‍👩‍👧``, ``🏳️‍🌈``), and
variation selectors (not format characters) stay. A string sequence (OSC, DCS...) left unterminated removes at most
the rest of its line, never the paragraphs after it.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right

from textual.content import Content

__all__ = ["ELLIPSIS", "ZWJ", "safe"]

ELLIPSIS = "…"

# Escape sequences, 7-bit (ESC ...) and 8-bit (C1) introducers. A string-type sequence (OSC, DCS, SOS, PM, APC)
# runs to its terminator (BEL or ST) when one comes on the same line within 4,096 characters (an OSC 8 hyperlink
# with a long address); unterminated, it takes at most 256 characters and never a line break, so a stray
# ``ESC ]`` costs the rest of its line, not the rest of the text. What it leaves is plain text: the introducer
# is gone, and the character pass removes any control left.
_PAYLOAD = "[^\x07\x9c\x1b\r\n\x0b\x0c\x85\u2028\u2029]"
_SEQUENCES = re.compile(
    rf"""
      (?:\x1b\[|\x9b) [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]?                  # CSI
    | (?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])                                # OSC DCS SOS PM APC
      (?: {_PAYLOAD}{{0,4096}}+ (?:\x07|\x1b\\|\x9c)                             #   terminated
        | {_PAYLOAD}{{0,256}} )                                                #   unterminated
    | \x1b [\x20-\x2f]* [\x30-\x7e]?                                          # other ESC, lone ESC
    """,
    re.VERBOSE,
)
_NEWLINES = re.compile(r"\r\n|[\r\n\x0b\x0c\x85\u2028\u2029]")
_WHITESPACE_RUN = re.compile(r"[ \t]*\n[ \t\n]*")
# Characters removed outright: C0 and C1 controls (newline and tab are dealt with apart), DEL, and the
# invisible format characters (category Cf: bidi embeddings, overrides and isolates, zero-width characters,
# soft hyphen, byte order mark, tag characters...). Lone surrogates cannot be written to a terminal at all.
_REMOVED_CATEGORIES = {"Cc", "Cf", "Cs"}
_KEPT_CONTROLS = {"\n", "\t"}


ZWJ = "\u200d"
# Extended_Pictographic (Unicode 15, emoji-data.txt), as (first, last) code points: what a joiner may join.
_PICTOGRAPHIC = (
    (0x00A9, 0x00A9), (0x00AE, 0x00AE), (0x203C, 0x203C), (0x2049, 0x2049), (0x2122, 0x2122),
    (0x2139, 0x2139), (0x2194, 0x2199), (0x21A9, 0x21AA), (0x231A, 0x231B), (0x2328, 0x2328),
    (0x2388, 0x2388), (0x23CF, 0x23CF), (0x23E9, 0x23F3), (0x23F8, 0x23FA), (0x24C2, 0x24C2),
    (0x25AA, 0x25AB), (0x25B6, 0x25B6), (0x25C0, 0x25C0), (0x25FB, 0x25FE), (0x2600, 0x2605),
    (0x2607, 0x2612), (0x2614, 0x2685), (0x2690, 0x2705), (0x2708, 0x2712), (0x2714, 0x2714),
    (0x2716, 0x2716), (0x271D, 0x271D), (0x2721, 0x2721), (0x2728, 0x2728), (0x2733, 0x2734),
    (0x2744, 0x2744), (0x2747, 0x2747), (0x274C, 0x274C), (0x274E, 0x274E), (0x2753, 0x2755),
    (0x2757, 0x2757), (0x2763, 0x2767), (0x2795, 0x2797), (0x27A1, 0x27A1), (0x27B0, 0x27B0),
    (0x27BF, 0x27BF), (0x2934, 0x2935), (0x2B05, 0x2B07), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50),
    (0x2B55, 0x2B55), (0x3030, 0x3030), (0x303D, 0x303D), (0x3297, 0x3297), (0x3299, 0x3299),
    (0x1F000, 0x1F0FF), (0x1F10D, 0x1F10F), (0x1F12F, 0x1F12F), (0x1F16C, 0x1F171), (0x1F17E, 0x1F17F),
    (0x1F18E, 0x1F18E), (0x1F191, 0x1F19A), (0x1F1AD, 0x1F1E5), (0x1F201, 0x1F20F), (0x1F21A, 0x1F21A),
    (0x1F22F, 0x1F22F), (0x1F232, 0x1F23A), (0x1F23C, 0x1F23F), (0x1F249, 0x1F3FA), (0x1F400, 0x1F53D),
    (0x1F546, 0x1F64F), (0x1F680, 0x1F6FF), (0x1F774, 0x1F77F), (0x1F7D5, 0x1F7FF), (0x1F80C, 0x1F80F),
    (0x1F848, 0x1F84F), (0x1F85A, 0x1F85F), (0x1F888, 0x1F88F), (0x1F8AE, 0x1F8FF), (0x1F90C, 0x1F93A),
    (0x1F93C, 0x1F945), (0x1F947, 0x1FAFF), (0x1FC00, 0x1FFFD),
)  # fmt: skip
_PICTOGRAPHIC_FIRSTS = tuple(first for first, _ in _PICTOGRAPHIC)


def _pictographic(char: str) -> bool:
    i = bisect_right(_PICTOGRAPHIC_FIRSTS, ord(char)) - 1
    return i >= 0 and ord(char) <= _PICTOGRAPHIC[i][1]


def _emoji_modifier(char: str) -> bool:
    """What may stand between an emoji and the joiner after it: a variation selector or a skin tone."""
    return char in "\ufe0e\ufe0f" or "\U0001f3fb" <= char <= "\U0001f3ff"


def _joins_emoji(text: str, at: int) -> bool:
    """Whether the joiner at ``text[at]`` stands between two emoji (the first maybe with its modifiers)."""
    if at + 1 >= len(text) or not _pictographic(text[at + 1]):
        return False
    before = at - 1
    while before >= 0 and _emoji_modifier(text[before]):
        before -= 1
    return before >= 0 and _pictographic(text[before])


def _clean(char: str) -> str:
    if char in _KEPT_CONTROLS:
        return char
    if unicodedata.category(char) in _REMOVED_CATEGORIES:
        return "\ufffd" if unicodedata.category(char) == "Cs" else ""
    return char


def _clean_all(text: str) -> str:
    if ZWJ not in text:
        return "".join(_clean(c) for c in text)
    return "".join(c if c == ZWJ and _joins_emoji(text, i) else _clean(c) for i, c in enumerate(text))


def _needs_char_pass(text: str) -> bool:
    return not text.isascii() or any(c < " " or c == "\x7f" for c in text)


def safe(text: str | None, *, limit: int = 2000, multiline: bool = False) -> Content:
    """``text`` (any string from the service) as plain, inert, bounded :class:`Content` for a widget."""
    if text is None:
        return Content("")
    if not isinstance(text, str):
        text = str(text)
    limit = max(1, limit)
    if text.isascii() and text.isprintable() and len(text) <= _budget(limit):
        # The common case (most titles, every id): printable ASCII has no escape, control, tab or line-break
        # character, so only the spaces at its ends and its length can need work: what :func:`_general` makes
        # of it, at a tenth of the cost (a list of 10,000 spaces makes 20,000 of these).
        text = text.rstrip() if multiline else text.strip()
        if len(text) > limit:
            return Content(text[: limit - 1].rstrip() + ELLIPSIS, strip_control_codes=False)
        return Content(text, cell_length=len(text), strip_control_codes=False)
    return _general(text, limit, multiline)


def _budget(limit: int) -> int:
    """How much of a text is read at most: a megabyte of title is not shown, and the sequences removed from
    what is read can only shorten it."""
    return limit * 4 + 256


def _general(text: str, limit: int, multiline: bool) -> Content:
    """:func:`safe` for any string (``limit`` at least 1)."""
    budget = _budget(limit)
    clipped = len(text) > budget
    if clipped:
        text = text[:budget]
    text = _SEQUENCES.sub("", text)
    text = _NEWLINES.sub("\n", text)
    if _needs_char_pass(text):
        text = _clean_all(text)
    text = text.replace("\t", "    " if multiline else " ")
    if multiline:
        text = "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")
    else:
        text = _WHITESPACE_RUN.sub(" ", text).strip()
    if len(text) > limit or clipped:
        # A joiner left at the cut has nothing to join.
        text = text[: limit - 1].rstrip().removesuffix(ZWJ).rstrip() + ELLIPSIS
    return Content(text)
