"""What the public description calls an emoji (``format: emoji``, at most 50 characters): "Unicode codepoint or
character of the emoji". Shared by the client's checks and the sandbox.

    is_emoji("🎉")            True: the character
    is_emoji("1f389")         True: its code point, in hex (a sequence joined by ``-``: ``1f468-200d-1f469``)
    is_emoji("hello")         False
    as_character("1f389")     "🎉": what a screen shows for either form
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["EMOJI_FORMAT", "as_character", "is_emoji"]

EMOJI_FORMAT = "an emoji character such as 🎉, or its code point such as 1f389"
"""The format in words, for the messages that refuse something else."""

_CODE_POINTS = re.compile(r"[0-9a-fA-F]{2,6}(?:-[0-9a-fA-F]{2,6})*")
_JOINING = {"\u200d", "\ufe0e", "\ufe0f", "\u20e3"}
"""Zero-width joiner, the text and emoji variation selectors, the keycap mark."""
_KEYCAP_BASES = set("0123456789#*")
_PUNCTUATION = {"\u203c", "\u2049", "\u3030", "\u303d"}
"""Emoji that Unicode files as punctuation: ‼ ⁉ 〰 〽."""


def _tag(char: str) -> bool:
    return 0xE0020 <= ord(char) <= 0xE007F  # the tag letters of a subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿)


def _emoji_chars(text: str) -> bool:
    """Every character belongs to an emoji (a symbol, a skin tone, a joiner or selector, a keycap's base before
    its mark) and at least one is a symbol."""
    symbols = 0
    for at, char in enumerate(text):
        category = unicodedata.category(char)
        if category == "So" or char in _PUNCTUATION or (category == "Sk" and 0x1F3FB <= ord(char) <= 0x1F3FF):
            symbols += 1
        elif char in _KEYCAP_BASES:
            rest = text[at + 1 : at + 3]
            if not (rest.startswith("\u20e3") or rest == "\ufe0f\u20e3"):
                return False
            symbols += 1
        elif char not in _JOINING and not _tag(char):
            return False
    return symbols > 0


def is_emoji(text: str) -> bool:
    """Whether ``text`` is an emoji as the service takes it: its character(s), or its code point(s) in hex."""
    if not text or len(text) > 50:
        return False
    if _CODE_POINTS.fullmatch(text):
        try:
            chars = "".join(chr(int(part, 16)) for part in text.split("-"))
        except ValueError:  # past U+10FFFF
            return False
        return _emoji_chars(chars)
    return _emoji_chars(text)


def as_character(text: str) -> str:
    """The emoji as a character, to show: a code point (``1f389``, ``1f468-200d-1f469``) becomes its characters;
    anything else (a character already, or not an emoji at all) is returned as it is."""
    if _CODE_POINTS.fullmatch(text) and is_emoji(text):
        return "".join(chr(int(part, 16)) for part in text.split("-"))
    return text
