"""The limits and patterns of the spec (sections 2 and 8), checked before a request is sent.

Each check raises :class:`folio.api.errors.InvalidRequest` naming the field, the value's problem and the limit.
The same functions serve the TUI's forms through the services layer, so a form says what is wrong as you type.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from folio.api.errors import InvalidRequest

__all__ = [
    "LIST_LIMIT_MAX",
    "PATTERNS",
    "check_int_range",
    "check_length",
    "check_pattern",
    "check_uri",
    "check_weekly_pulse",
]

LIST_LIMIT_MAX = 1000

PATTERNS: dict[str, str] = {
    "openapi.slug": r"^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$",
    "site.hostname": r"^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$",
    "site.proxy": r"^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$",
    "subdomain": r"^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$",
}


def check_length(field: str, value: str | None, *, min: int = 0, max: int | None = None) -> None:
    """A string's length within ``min..max`` (None passes: the caller decides whether null is allowed)."""
    if value is None:
        return
    if not isinstance(value, str):
        raise InvalidRequest(field, f"must be text, not {type(value).__name__}", "string")
    n = len(value)
    if max is None:
        limit = f"at least {min} characters"
    elif min:
        limit = f"{min}..{max} characters"
    else:
        limit = f"at most {max} characters"
    if n < min:
        raise InvalidRequest(field, "is empty" if n == 0 else f"is too short ({n} characters)", limit)
    if max is not None and n > max:
        raise InvalidRequest(field, f"is too long ({n} characters)", limit)


def check_pattern(field: str, value: str | None, pattern_name: str, *, max: int | None = None) -> None:
    if value is None:
        return
    if max is not None:
        check_length(field, value, max=max)
    if not re.fullmatch(PATTERNS[pattern_name], value):
        raise InvalidRequest(
            field, f"{value[:60]!r} has a form the service does not accept", f"pattern {PATTERNS[pattern_name]}"
        )


def check_uri(field: str, value: str | None, *, max: int = 2048) -> None:
    if value is None:
        return
    check_length(field, value, min=1, max=max)
    parts = urlsplit(value)
    if not parts.scheme or not (parts.netloc or parts.scheme in ("mailto", "data")):
        raise InvalidRequest(field, f"{value[:60]!r} is not an absolute URI", f"uri, at most {max} characters")


def check_int_range(field: str, value: int | None, *, min: int | None = None, max: int | None = None) -> None:
    if value is None:
        return
    if (min is not None and value < min) or (max is not None and value > max):
        raise InvalidRequest(field, f"{value} is out of range", f"{min}..{max}")


def check_weekly_pulse(field: str, value: Sequence[float] | None) -> None:
    if value is not None and len(value) != 13:
        raise InvalidRequest(field, f"has {len(value)} numbers", "exactly 13 numbers")


def check_one_of(field: str, value: str | None, allowed: Sequence[str]) -> None:
    if value is not None and value not in allowed:
        raise InvalidRequest(field, f"{value!r} is not a known value", "one of " + ", ".join(allowed))
