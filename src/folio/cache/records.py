"""The plain records the stores hand out: what a cache hit is, what a draft or an outbox item is, and the
counts ``info()`` reports.

Named tuples, not dataclasses: a start imports this module before its first frame, and a frozen dataclass costs
about 0.7 ms to define (its methods are compiled from source) where a named tuple costs 0.1 ms. They are immutable
and compare by value all the same; ``record._replace(...)`` makes a changed copy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, NamedTuple

__all__ = ["CacheInfo", "CachedResponse", "Draft", "OutboxItem", "OutboxState", "StateInfo"]

OutboxState = Literal["queued", "sent", "stuck"]


class CachedResponse(NamedTuple):
    """A stored body and when it was stored (``time.time()``), so a screen can show its age."""

    body: bytes
    stored_at: float


class CacheInfo(NamedTuple):
    """What ``folio cache info`` and the status bar show about one account's response cache."""

    path: Path
    entries: int
    bytes: int
    """The bodies' total size; the file is somewhat larger (``file_bytes``, with its WAL)."""
    file_bytes: int
    max_bytes: int
    journal_mode: str
    oldest: float | None
    """The ``stored_at`` of the oldest entry, ``None`` when empty."""
    newest: float | None
    problem: str | None


class Draft(NamedTuple):
    """Text typed for ``key`` (what it is for, e.g. ``comment:space/s1/cr/c1/page/p1``); ``where`` says it in
    words (``a comment on #12 "Fix typos"``), so a message can tell the user where their text is."""

    key: str
    text: str
    where: str
    saved_at: float


class OutboxItem(NamedTuple):
    """A write made offline, waiting to be sent (``queued``), sent, or no longer applicable (``stuck``: ``note``
    says why; kept and shown, never dropped silently)."""

    id: int
    kind: str
    target: str
    payload: dict[str, Any]
    where: str
    created_at: float
    state: OutboxState
    note: str = ""


class StateInfo(NamedTuple):
    """Counts of one account's local state, for ``folio cache info`` and the status bar."""

    path: Path
    drafts: int
    outbox: int
    queued: int
    stuck: int
    session: bool
    journal_mode: str
    fallback: Path | None
    """The JSON file holding drafts the database could not take, when there are any."""
    problem: str | None
