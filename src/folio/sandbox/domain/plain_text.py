"""Text fields that must hold no control characters (NUL, BEL, ESC, DEL and the C1 range, newlines and tabs
too): the service refuses them with a 400 naming the field."""

from __future__ import annotations

import unicodedata

from folio.sandbox.errors import bad_request

__all__ = ["check_plain"]


def check_plain(value: str, name: str) -> str:
    """``value`` when it holds no control character; a 400 naming ``name`` and the first one otherwise."""
    bad = next((c for c in value if unicodedata.category(c) == "Cc"), None)
    if bad is not None:
        raise bad_request(f"{name} must not contain control characters (U+{ord(bad):04X})")
    return value
