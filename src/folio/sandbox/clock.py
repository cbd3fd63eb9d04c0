"""The sandbox's clock: real time by default; tests freeze it and move it by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class Clock:
    def __init__(self, frozen_at: datetime | None = None) -> None:
        self._frozen = frozen_at

    def now(self) -> datetime:
        return self._frozen if self._frozen is not None else datetime.now(UTC)

    def freeze(self, at: datetime | None = None) -> None:
        self._frozen = at or datetime.now(UTC)

    def advance(self, **delta: float) -> None:
        """Move a frozen clock forward (``advance(days=8)``); freezes a running one first."""
        self._frozen = self.now() + timedelta(**delta)

    def iso(self, at: datetime | None = None) -> str:
        """``at`` (default now) in the wire's ISO 8601 form, milliseconds and ``Z``."""
        value = (at or self.now()).astimezone(UTC)
        return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
