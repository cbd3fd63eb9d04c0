"""The one formatter of times, ages and counts: every screen says "5 min ago" the same way.

    ago(moment)            ``just now``, ``5 min ago``, ``3 h ago``, ``2 d ago``, ``3 wk ago``, ``4 mo ago``
    stamp(moment)          ``2026-10-31 21:00 UTC`` (absolute: detail panes, ``o``)
    when(moment)           ``2026-10-31 21:00 UTC (5 min ago)``: both, for a detail line
    cached_age(stored_at)  ``cached 5 min ago`` (a screen painted from the local cache)
    span(seconds)          ``7 days``, ``5 h``, ``less than an hour``: a time still ahead, to the nearest unit
    count(n, "space")      ``1 space``, ``2,300 spaces``

Lists show relative times, detail panes absolute ones. :func:`now` is the clock all of them read; tests freeze it
with ``monkeypatch.setattr("folio.services.format.now", ...)`` (``folio.services.browse.now`` is the same clock).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from functools import lru_cache

__all__ = ["DASH", "ago", "cached_age", "count", "now", "plural", "span", "stamp", "when"]

DASH = "\u2014"
"""What a cell shows for a time (or a count) the service did not give."""

_STEPS = (
    (60 * 60, 60, "min"),
    (60 * 60 * 24, 60 * 60, "h"),
    (60 * 60 * 24 * 14, 60 * 60 * 24, "d"),
    (60 * 60 * 24 * 61, 60 * 60 * 24 * 7, "wk"),
    (60 * 60 * 24 * 365, 60 * 60 * 24 * 30, "mo"),
)


def now() -> datetime:
    """The current time (UTC)."""
    return datetime.now(UTC)


def _seconds(moment: datetime, at: datetime) -> float:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return (at - moment).total_seconds()


def _relative(seconds: float) -> str:
    if seconds < 60:
        return "just now"
    for limit, size, unit in _STEPS:
        if seconds < limit:
            return _words(int(seconds // size), unit)
    return _words(int(seconds // (60 * 60 * 24 * 365)), "yr")


@lru_cache(maxsize=1024)
def _words(count: int, unit: str) -> str:
    """``3 d ago``: one string for every row of a list that says it (a list of 10,000 spaces says a few hundred)."""
    return f"{count} {unit} ago"


def ago(moment: datetime | None, at: datetime | None = None, *, unknown: str = DASH) -> str:
    """How long before ``at`` (default: :func:`now`) ``moment`` was; a time after ``at`` is ``just now``."""
    if moment is None:
        return unknown
    return _relative(max(0.0, _seconds(moment, at if at is not None else now())))


def stamp(moment: datetime | None, *, unknown: str = DASH) -> str:
    """``2026-10-31 21:00 UTC``: UTC, so every machine shows the same."""
    if moment is None:
        return unknown
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def when(moment: datetime | None, at: datetime | None = None, *, unknown: str = DASH) -> str:
    """``2026-10-31 21:00 UTC (5 min ago)``."""
    if moment is None:
        return unknown
    return f"{stamp(moment)} ({ago(moment, at)})"


def cached_age(stored_at: float | None, at: float | None = None) -> str:
    """``cached just now``, ``cached 5 min ago``: how old a cached paint is (empty when it is fresh)."""
    if stored_at is None:
        return ""
    seconds = max(0.0, (at if at is not None else time.time()) - stored_at)
    return f"cached {_relative(seconds)}"


def span(seconds: float) -> str:
    """``7 days``, ``1 day``, ``5 h``, ``less than an hour``: how long is still ahead, to the NEAREST day (from a
    day on) or hour, so a 10-day certificate read a second after it was made is ``10 days`` (not ``9``) and a
    space deleted just now has ``7 days`` of its 7 (not ``6``). Under a day it counts hours: the last day is the
    one where a day more or less matters."""
    hours = round(max(0.0, seconds) / 3600)
    if hours >= 24:
        days = max(1, round(seconds / 86_400))
        return f"{days} {plural(days, 'day')}"
    return f"{hours} h" if hours else "less than an hour"


def plural(n: int | float, noun: str, nouns: str | None = None) -> str:
    """``space`` or ``spaces`` for ``n``."""
    return noun if n == 1 else (nouns or noun + "s")


def count(n: int | float | None, noun: str, nouns: str | None = None, *, unknown: str = DASH) -> str:
    """``1 space``, ``2,300 spaces``, ``2.5 seats`` (a number the service sent with a fraction keeps it)."""
    if n is None:
        return unknown
    number = f"{n:,.0f}" if float(n).is_integer() else f"{n:,}"
    return f"{number} {plural(n, noun, nouns)}"
