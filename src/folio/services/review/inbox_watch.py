"""The inbox across every organization of the account: read as pages (the ``:inbox`` screen) and watched (``folio
watch``, and the TUI while it is open), announcing each new thing once.

    watch = InboxWatch(services)                   # remembers in services.local's state (else in memory)
    for said in await watch.poll():                # one look: what is new since the last one
        print(said.line)
    async for said in watch.run():                 # forever: a look every ``interval`` seconds
        ...

A look asks, for every organization of the account: the change requests awaiting the user's review (open or draft),
the user's own that were merged (the most recently updated page), and, on the user's open change requests and those
awaiting them that have open comments, the user's threads (one request per such change request): a thread with
more replies from others than before is announced. What is announced is a key in the local state's ``announced``
table (``review:<cr>``, ``merged:<cr>``, ``reply:<comment>:<replies from others>``), so a restart, or the TUI and
``folio watch`` running side by side on one account, say it once.

The first look at an organization (a fresh install, an organization joined since) announces nothing: what is there
already is recorded as seen (``seeded:<org>``), else a first start would say every open review request at once.

Politeness: a look is at most 3 list requests per organization plus one per change request with open comments that
is the user's or awaits them; looks are ``interval`` seconds apart (60 by default, at least 15). A 429 waits what the
service asked (``Retry-After``) and at least twice the last wait, up to :data:`MOST_BACKOFF`; another failure waits
an interval more, doubling likewise; a good look goes back to the interval. While the client says refreshing by
itself must wait (offline, or the rate limit's remaining requests spent), no look goes out. The client sends no
cache validators (no ETag / If-None-Match: neither ``folio.api`` nor the sandbox has them), so each look reads the
lists in full: the first page of each, mostly.
"""

from __future__ import annotations

import asyncio
import re
import time
import unicodedata
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, Protocol

from folio.services.browse import InboxFilter
from folio.services.errors import Refusal

if TYPE_CHECKING:
    from folio.models.change_request import ChangeRequestSummary
    from folio.models.comment import Comment
    from folio.models.organization import Organization
    from folio.services import Services

__all__ = [
    "MOST_BACKOFF",
    "Announcement",
    "InboxWatch",
    "MemorySeen",
    "Problem",
    "Seen",
    "inbox_pages",
    "space_titles",
    "terminal_notification",
]

Kind = Literal["review", "merged", "reply"]
MOST_BACKOFF = 1800.0
"""The longest wait between two looks after failures (seconds): half an hour."""
ACTIVE = ("draft", "open")
MERGED_PAGE = 20
"""The user's merged change requests read per look: the most recently updated (a merge updates it)."""


class Seen(Protocol):
    """Where what was announced is remembered (``folio.cache.LocalState`` is one)."""

    def announced(self, keys: Iterable[str]) -> set[str]: ...

    def mark_announced(self, keys: Iterable[str]) -> set[str]: ...


class MemorySeen:
    """What was announced, for this run only (no local state: ``--no-cache``)."""

    def __init__(self) -> None:
        self.keys: set[str] = set()

    def announced(self, keys: Iterable[str]) -> set[str]:
        return self.keys.intersection(keys)

    def mark_announced(self, keys: Iterable[str]) -> set[str]:
        new = set(keys) - self.keys
        self.keys.update(new)
        return new


@dataclass(frozen=True)
class Announcement:
    """Something new in the inbox, said once. Every text is the server's (plain: the caller makes it safe)."""

    key: str
    kind: Kind
    org: str
    """The organization's title."""
    space_id: str
    change_request: str
    """The change request's id."""
    title: str
    """``#12 Fix typos``."""
    url: str | None = None
    who: str = ""
    """Who asked for the review, or replied (the latest of them)."""
    comment: str | None = None
    """The thread's id (a reply)."""

    @property
    def words(self) -> str:
        """What happened in words: ``Review asked of you by Emeka: #12 Fix typos (Northwind Labs)``."""
        if self.kind == "review":
            text = f"Review asked of you{f' by {self.who}' if self.who else ''}: {self.title}"
        elif self.kind == "merged":
            text = f"Merged: your {self.title}"
        else:
            text = f"{self.who or 'Someone'} replied on your thread in {self.title}"
        return f"{text} ({self.org})"

    @property
    def line(self) -> str:
        """:attr:`words` and the link: ``folio watch``'s line."""
        return self.words + (f" {self.url}" if self.url else "")


@dataclass(frozen=True)
class Problem:
    """A look that failed: what went wrong in words, and how long until the next one."""

    words: str
    wait: float


class InboxWatch:
    """Looks at the account's inbox; see the module. ``seen`` defaults to the account's local state once the user
    is known (memory without one); ``sleep`` and ``clock`` are seams for tests."""

    def __init__(
        self,
        services: Services,
        *,
        interval: float = 60.0,
        seen: Seen | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.services = services
        self.interval = interval
        self._seen = seen
        self._sleep = sleep
        self._clock = clock
        self.failures = 0
        self.last_wait = 0.0
        self.seeded: list[str] = []
        """The organizations the looks so far saw for the first time (nothing of theirs was announced); the caller
        may say so, and empty it."""

    def _store(self) -> Seen:
        if self._seen is None:
            local = self.services.local
            state = local.state if local is not None else None  # (opened for the user once /user answered)
            self._seen = state if state is not None else MemorySeen()
        return self._seen

    async def poll(self) -> list[Announcement]:
        """One look at every organization: what is new since the last look, each said once. Raises what the
        service raised (``ServiceError``); an organization that fails stops the look (the next one asks again)."""
        me = await self.services.me()
        seen = self._store()
        new: list[Announcement] = []
        for org in await self.services.browse.organizations():
            found = await self._look(org, me.id)
            seeded = f"seeded:{org.id}"
            first = not seen.announced([seeded])
            # Recorded before they are said, and said only by whoever recorded them (the TUI and folio watch may
            # look at once): once, never twice.
            recorded = seen.mark_announced([*(a.key for a in found), seeded])
            if first:
                self.seeded.append(org.id)
                continue
            fresh = {a.key: a for a in found if a.key in recorded}
            new.extend([await self._asker(a, me.id) for a in fresh.values()])
        return new

    async def run(self) -> AsyncIterator[Announcement | Problem]:
        """Look now, then every ``interval`` seconds (longer after failures: see the module), forever; yields each
        announcement, and a :class:`Problem` for a look that failed."""
        from folio.api.errors import ApiError, RateLimited

        while True:
            if not self.services.connection.may_refresh():
                await self._sleep(self.interval)
                continue
            try:
                found = await self.poll()
            except RateLimited as exc:
                wait = self.backoff(exc.retry_after)
                yield Problem(f"{exc.describe().rstrip('.')}. The next look is in {wait:.0f} s.", wait)
            except (ApiError, Refusal) as exc:
                wait = self.backoff(None)
                yield Problem(f"{exc.describe().rstrip('.')}. The next look is in {wait:.0f} s.", wait)
            else:
                self.failures, wait = 0, self.interval
                for said in found:
                    yield said
            self.last_wait = wait
            await self._sleep(wait)

    def backoff(self, asked: float | None) -> float:
        """The wait after a failed look: what the service asked, and at least the interval doubled per failure in a
        row (interval x2, x4, ...), never more than :data:`MOST_BACKOFF` unless the service asked for more."""
        self.failures += 1
        doubled = min(MOST_BACKOFF, self.interval * 2.0**self.failures)
        return max(doubled, asked or 0.0)

    async def _asker(self, said: Announcement, me: str) -> Announcement:
        """A new review request, with who asked (one request; left unnamed when it cannot be read)."""
        from folio.services.errors import ServiceError

        if said.kind != "review":
            return said
        try:
            asked = self.services.client.reviews.requested_reviewers(said.space_id, said.change_request)
            async for reviewer in asked:
                if reviewer.reviewer_id == me and reviewer.requested_by is not None:
                    by = reviewer.requested_by
                    return replace(said, who=by.display_name or by.id)
        except ServiceError:
            pass
        return said

    # -- one organization --------------------------------------------------------------------------------------

    async def _look(self, org: Organization, me: str) -> list[Announcement]:
        crs = self.services.client.change_requests
        name = org.title or org.id
        found: list[Announcement] = []
        awaiting = await crs.summaries_for_organization(org.id, status=list(ACTIVE), requested_reviewer=me).collect()
        for cr in awaiting:
            found.append(_about("review", f"review:{cr.id}", cr, name))
        merged = await crs.summaries_for_organization(org.id, status="merged", creator=me, limit=MERGED_PAGE).collect(
            MERGED_PAGE
        )
        for cr in merged:
            found.append(_about("merged", f"merged:{cr.id}", cr, name))
        mine = await crs.summaries_for_organization(org.id, status=list(ACTIVE), creator=me).collect()
        threads = {cr.id: cr for cr in [*mine, *awaiting] if cr.comments}
        for cr in threads.values():
            async for comment in self.services.client.comments.list(
                cr.space, change_request=cr.id, authors=[me], status="open"
            ):
                said = _reply(comment, cr, name, me)
                if said is not None:
                    found.append(said)
        return found


def _url(cr: ChangeRequestSummary) -> str | None:
    return (cr.urls.app or cr.urls.location) if cr.urls else None


def _about(kind: Kind, key: str, cr: ChangeRequestSummary, org: str, *, who: str = "") -> Announcement:
    return Announcement(key, kind, org, cr.space, cr.id, cr.title, _url(cr), who)


def _reply(comment: Comment, cr: ChangeRequestSummary, org: str, me: str) -> Announcement | None:
    """The announcement of the replies from others on the user's thread ``comment`` (None: there are none)."""
    if comment.posted_by is None or comment.posted_by.id != me:
        return None
    mine = sum(r.count for r in comment.repliers if r.user.id == me)
    others = [r for r in comment.repliers if r.user.id != me]
    count = max(0, comment.replies - mine)
    if not count:
        return None
    latest = max(others, key=lambda r: r.updated_at.timestamp() if r.updated_at else 0.0, default=None)
    who = (latest.user.display_name or latest.user.id) if latest is not None else ""
    url = (comment.urls.app or comment.urls.location) if comment.urls else _url(cr)
    return Announcement(
        f"reply:{comment.id}:{count}", "reply", org, cr.space, cr.id, cr.title, url, who, comment=comment.id
    )


# -- saying it to a terminal -------------------------------------------------------------------------------------

OSC9_PROGRAMS = ("iTerm.app", "WezTerm", "ghostty")
"""``TERM_PROGRAM`` values of terminals that show ``OSC 9`` as a desktop notification."""


def terminal_notification(title: str, text: str, environ: Mapping[str, str]) -> str:
    """What to write to the terminal for a notification: ``OSC 9`` (iTerm2, WezTerm, Ghostty, Windows Terminal),
    kitty's ``OSC 99``, ``OSC 777`` (VTE terminals, foot, urxvt), else the bell (also inside tmux or screen, which
    would swallow the others). ``text`` is made plain first: no escape or control characters, at most 200."""
    plain = _plain(text)
    program, term = environ.get("TERM_PROGRAM", ""), environ.get("TERM", "")
    if environ.get("TMUX") or term.startswith("screen") or term.startswith("tmux"):
        return "\a"
    if program in OSC9_PROGRAMS or environ.get("WT_SESSION"):
        return f"\x1b]9;{_plain(title)}: {plain}\x07"
    if term == "xterm-kitty" or environ.get("KITTY_WINDOW_ID"):
        return f"\x1b]99;;{_plain(title)}: {plain}\x1b\\"
    if environ.get("VTE_VERSION") or term.startswith(("foot", "rxvt")):
        return f"\x1b]777;notify;{_plain(title).replace(';', ',')};{plain}\x07"
    return "\a"


_ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(\x07|\x1b\\)?|.)?")


def _plain(text: str, limit: int = 200) -> str:
    """``text`` without control characters (escape, BEL, newlines: what could end or extend the sequence)."""
    text = _ESCAPES.sub("", text)
    kept = "".join(c if unicodedata.category(c)[0] != "C" else " " for c in text)
    kept = " ".join(kept.split())
    return kept if len(kept) <= limit else kept[: limit - 1] + "…"


# -- the :inbox screen's reads -----------------------------------------------------------------------------------


async def inbox_pages(
    services: Services, inbox: InboxFilter, *, limit: int = 100, orgs: set[str] | None = None
) -> AsyncIterator[Sequence[ChangeRequestSummary]]:
    """The change requests ``inbox`` lets through, of every organization of the account, one page at a time (an
    organization after the other, in the service's order of organizations). ``orgs`` is given the ids of the
    organizations that had some."""
    me = (await services.me()).id if inbox.needs_me else None
    for org in await services.browse.organizations():
        async for page in services.browse.change_request_pages(org.id, inbox, me=me, limit=limit):
            if page and orgs is not None:
                orgs.add(org.id)
            yield page


async def space_titles(services: Services, org_ids: Iterable[str]) -> dict[str, str]:
    """The titles of the spaces of the organizations ``org_ids`` (space id -> title)."""
    titles: dict[str, str] = {}
    for org_id in org_ids:
        async for page in services.browse.spaces_pages(org_id, limit=1000):
            titles.update((space.id, space.title or space.id) for space in page)
    return titles
