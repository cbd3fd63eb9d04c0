"""The review sweep: one key walks a change request's review in order (the next page not viewed yet, then the
unresolved threads on it, then the next page), and what ``approve`` requires before it is sent.

    stops = plan(changes.changed, viewed, comments)      # pages (not viewed) and open threads, in review order
    sweep = Sweep(stops); sweep.advance()                 # the next stop; sweep.done / sweep.total for the bar
    missing(rules, changes.changed, viewed, comments, me) # ["2 pages not viewed: Linux, Windows", ...]

``config.toml`` can make approving wait for the sweep's work::

    [review]
    approve_requires = ["viewed", "resolved"]   # every changed page viewed, every thread you started resolved

Nothing is required by default; an unknown name is an error that names the known ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from folio.config.settings import SettingsError

if TYPE_CHECKING:
    from folio.config.settings import Settings
    from folio.models.comment import Comment
    from folio.services.review.review import PageChange

__all__ = ["RULES", "Stop", "Sweep", "approve_requires", "missing", "plan"]

Rule = Literal["viewed", "resolved"]
RULES: dict[str, str] = {
    "viewed": "every changed page viewed",
    "resolved": "every thread you started resolved",
}
"""What ``[review] approve_requires`` may name, and what each means."""


@dataclass(frozen=True)
class Stop:
    """One step of the sweep: a changed ``page``, or a ``thread`` (an open comment; ``page_id`` None: on the whole
    change request or on a page that is not changed)."""

    kind: Literal["page", "thread"]
    page_id: str | None
    title: str
    comment_id: str | None = None


def _open(comment: Comment) -> bool:
    return not comment.resolved


def plan(pages: Iterable[PageChange], viewed: set[str], comments: Iterable[Comment]) -> list[Stop]:
    """The sweep's stops in review order: each changed page not viewed yet, followed by the open threads on it
    (oldest first; a viewed page's open threads too), then the open threads on anything else."""
    threads = sorted((c for c in comments if _open(c)), key=lambda c: (c.posted_at is None, c.posted_at, c.id))
    by_page: dict[str | None, list[Comment]] = {}
    for comment in threads:
        by_page.setdefault(comment.page_id, []).append(comment)
    stops: list[Stop] = []
    for page in pages:
        if page.id not in viewed:
            stops.append(Stop("page", page.id, page.title))
        stops += [Stop("thread", page.id, page.title, c.id) for c in by_page.pop(page.id, [])]
    stops += [Stop("thread", None, "", c.id) for rest in by_page.values() for c in rest]
    return stops


class Sweep:
    """Where a sweep is: ``advance()`` gives the next stop (None: done); ``done`` of ``total`` stops reached."""

    def __init__(self, stops: list[Stop]) -> None:
        self.stops = stops
        self.at = -1

    @property
    def total(self) -> int:
        return len(self.stops)

    @property
    def done(self) -> int:
        return min(self.at + 1, self.total)

    @property
    def current(self) -> Stop | None:
        return self.stops[self.at] if 0 <= self.at < self.total else None

    @property
    def finished(self) -> bool:
        return self.at >= self.total

    def advance(self) -> Stop | None:
        self.at = min(self.at + 1, self.total)
        return self.current


def _names(titles: list[str], limit: int = 3) -> str:
    shown = ", ".join(titles[:limit])
    return shown + (f" and {len(titles) - limit} more" if len(titles) > limit else "")


def missing(
    rules: Iterable[str], pages: Iterable[PageChange], viewed: set[str], comments: Iterable[Comment], me: str | None
) -> list[str]:
    """What the required ``rules`` still miss, one sentence each (empty: approving may go)."""
    wanted = set(rules)
    out: list[str] = []
    if "viewed" in wanted:
        unseen = [p.title or "Untitled" for p in pages if p.id not in viewed]
        if unseen:
            n = len(unseen)
            out.append(f"{n} changed page{'s' if n != 1 else ''} not viewed yet: {_names(unseen)} (space sweeps).")
    if "resolved" in wanted:
        mine = [c for c in comments if _open(c) and me is not None and c.posted_by is not None and c.posted_by.id == me]
        if mine:
            n = len(mine)
            out.append(f"{n} thread{'s' if n != 1 else ''} you started {'are' if n != 1 else 'is'} not resolved.")
    return out


def approve_requires(settings: Settings) -> tuple[Rule, ...]:
    """``[review] approve_requires`` of config.toml (none by default). Raises SettingsError for a wrong value."""
    table = settings.extra.get("review", {})
    if not isinstance(table, dict):
        raise SettingsError(f'{settings.path}: [review] must be a table (approve_requires = ["viewed", "resolved"])')
    value = table.get("approve_requires", [])
    known = ", ".join(f'"{name}" ({what})' for name, what in RULES.items())
    if not isinstance(value, list) or not all(isinstance(v, str) and v in RULES for v in value):
        raise SettingsError(f"{settings.path}: review.approve_requires must be a list of: {known}")
    return tuple(dict.fromkeys(value))  # type: ignore[arg-type]
