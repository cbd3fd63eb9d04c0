"""The plain records the stores hand out: what a cache hit is, what a draft or an outbox item is, and the
counts ``info()`` reports."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

__all__ = ["CacheInfo", "CachedResponse", "Draft", "OutboxItem", "OutboxState", "StateInfo"]

OutboxState = Literal["queued", "sent", "stuck"]


@dataclass(frozen=True)
class CachedResponse:
    """A stored body and when it was stored (``time.time()``), so a screen can show its age."""

    body: bytes
    stored_at: float


@dataclass(frozen=True)
class CacheInfo:
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


@dataclass(frozen=True)
class Draft:
    """Text typed for ``key`` (what it is for, e.g. ``comment:space/s1/cr/c1/page/p1``); ``where`` says it in
    words (``a comment on #12 "Fix typos"``), so a message can tell the user where their text is."""

    key: str
    text: str
    where: str
    saved_at: float


@dataclass(frozen=True)
class OutboxItem:
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


@dataclass(frozen=True)
class StateInfo:
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
