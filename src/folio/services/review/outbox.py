"""The outbox: comments, replies, reactions and resolves made offline, kept in the account's local state and sent
in the order they were made once Folio is back online.

    outbox = outbox_of(services)                 # None without local state (then writes offline just fail)
    report = await outbox.flush(progress)        # sends what waits, in order; report.summary says what happened

Never twice: before an item is sent its note becomes :data:`ATTEMPTED` (committed first). An item found with that
note may have reached the service on an earlier try whose answer was lost (a dropped connection, a crash), so it
is looked for before it goes again: a comment or reply by the signed-in user with the same text on the same target,
posted after the item was queued (give or take :data:`CLOCK_SKEW` between this machine's clock and the
service's); a reaction already there; a thread already resolved or reopened. Found, it counts as sent.

A transport failure (or the rate limit, a 5xx, a refused token) stops the flush: the rest stays queued in order.
An item that can no longer apply (its thread or page deleted, its change request merged or archived, any other
4xx) is marked ``stuck`` with a note in words and kept for the user to read and discard; the flush goes on.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from folio.api import errors
from folio.cache import OutboxItem

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.cache import LocalState
    from folio.services import Services

__all__ = [
    "ATTEMPTED",
    "CLOCK_SKEW",
    "KINDS",
    "FlushReport",
    "OutboxItem",
    "OutboxService",
    "Progress",
    "Queued",
    "outbox_of",
    "target_key",
]

Kind = Literal["comment", "reply", "reaction", "resolve"]
KINDS: tuple[Kind, ...] = ("comment", "reply", "reaction", "resolve")
ATTEMPTED = "Sent once without an answer: Folio looks for it on the service before sending it again."
"""The note of an item whose send was started: it may have reached the service."""
CLOCK_SKEW = 15 * 60.0
"""Seconds a matching comment may seem to predate its queued item (this machine's clock ahead of the service's)."""

Step = Literal["sending", "sent", "found", "stuck", "stopped"]
Progress = Callable[[OutboxItem, Step], None]
"""Told about each item as the flush goes: ``sending``, then ``sent``, ``found`` (already on the service),
``stuck`` (the note says why) or ``stopped`` (left queued: the report's ``stopped`` says why)."""


@dataclass(frozen=True)
class Queued:
    """What a write returns when Folio is offline and it went into the outbox instead (item ``id``)."""

    id: int
    where: str
    message: ClassVar[str] = "Queued in the outbox: it goes out when Folio is back online."


@dataclass
class FlushReport:
    """What one flush did: items ``sent``, ``found`` already on the service, newly ``stuck``; how many are
    ``left`` queued, and why the flush ``stopped`` early (None: it went through)."""

    sent: list[OutboxItem] = field(default_factory=list)
    found: list[OutboxItem] = field(default_factory=list)
    stuck: list[OutboxItem] = field(default_factory=list)
    left: int = 0
    stopped: str | None = None

    @property
    def done(self) -> int:
        return len(self.sent) + len(self.found)

    @property
    def summary(self) -> str:
        """One or two sentences for a notification (empty when there was nothing to send)."""
        parts: list[str] = []
        if self.done:
            already = f" ({len(self.found)} had already reached it)" if self.found else ""
            parts.append(f"Outbox: {self.done} sent{already}.")
        if self.stuck:
            parts.append(f"{len(self.stuck)} can no longer be sent: they are kept in the outbox with the reason.")
        if self.stopped:
            parts.append(f"{self.left} still waiting: {self.stopped}")
        return " ".join(parts)


def target_key(space_id: str, change_request: str | int | None = None, **parts: str | None) -> str:
    """``space/s1/cr/7/comment/c1``: what an item is about, in the order the parts are given (None skipped)."""
    key = f"space/{space_id}" + (f"/cr/{change_request}" if change_request is not None else "")
    return key + "".join(f"/{name}/{value}" for name, value in parts.items() if value is not None)


_shared: weakref.WeakKeyDictionary[Services, OutboxService] = weakref.WeakKeyDictionary()


def outbox_of(services: Services) -> OutboxService | None:
    """The one outbox of ``services`` (so two flushes never run at once), or None without local data."""
    if services.local is None:
        return None
    found = _shared.get(services)
    if found is None:
        found = _shared[services] = OutboxService(services.client, services)
    return found


class _Stop(Exception):
    """Ends the flush; ``reached``: the item's send may have got to the service (keep :data:`ATTEMPTED`)."""

    def __init__(self, why: str, *, reached: bool) -> None:
        super().__init__(why)
        self.why = why
        self.reached = reached


class _Unsure(Exception):
    """Whether an earlier try reached the service cannot be told: the item is kept as stuck with ``note``."""

    def __init__(self, note: str) -> None:
        super().__init__(note)
        self.note = note


class OutboxService:
    """Queue, list, send and discard the writes made offline (see the module docstring)."""

    def __init__(self, client: GitBookClient, services: Services) -> None:
        self._client = client
        self._services = services
        self._lock = asyncio.Lock()

    @property
    def state(self) -> LocalState | None:
        """The account's local state (read each time: it changes when the account is confirmed)."""
        local = self._services.local
        return local.state if local is not None else None

    @property
    def available(self) -> bool:
        return self.state is not None

    @property
    def offline(self) -> str | None:
        """Why Folio is offline (``"asked"``, ``"network"``), or None."""
        return self._client.offline_reason

    @property
    def busy(self) -> bool:
        """A flush is under way."""
        return self._lock.locked()

    def queue(self, kind: str, target: str, payload: dict[str, Any], where: str) -> int:
        """Keep a write to send later (``payload`` JSON: ids, markdown, emoji, flags); returns its id."""
        if kind not in KINDS:
            raise ValueError(f"the outbox does not send {kind!r} (only {', '.join(KINDS)})")
        state = self.state
        if state is None:
            raise errors.Offline("Folio is offline and has no local storage to keep this until it is back online.")
        return state.enqueue(kind, target, payload, where=where)

    def items(self) -> list[OutboxItem]:
        """Every item, oldest first."""
        state = self.state
        return state.outbox() if state is not None else []

    def waiting(self) -> int:
        return sum(1 for item in self.items() if item.state == "queued")

    def discard(self, id: int) -> None:
        """Drop a stuck item (the user read why it cannot be sent). Queued items are not discarded here."""
        state = self.state
        item = next((i for i in self.items() if i.id == id), None)
        if state is None or item is None:
            return
        if item.state == "queued":
            raise ValueError("only an item that can no longer be sent is discarded; this one still waits")
        state.remove(id)

    # -- sending -------------------------------------------------------------------------------------------

    async def flush(self, progress: Progress | None = None) -> FlushReport:
        """Send every queued item in order (see the module docstring). Never raises for the service's answers."""
        report = FlushReport()
        state = self.state
        if state is None or not any(item.state == "queued" for item in state.outbox()):
            return report
        async with self._lock:
            items = [item for item in state.outbox() if item.state == "queued"]
            stopped = await self._ready()
            changes: dict[tuple[str, str], str | None] = {}
            for item in items:
                if stopped is None:
                    if progress is not None:
                        progress(item, "sending")
                    try:
                        step, note = await self._one(state, item, changes)
                    except _Stop as stop:
                        stopped = stop.why
                        if not stop.reached and item.note != ATTEMPTED:
                            state.mark(item.id, "queued", "")
                    else:
                        done = item._replace(state="stuck" if step == "stuck" else "sent", note=note)
                        {"sent": report.sent, "found": report.found, "stuck": report.stuck}[step].append(done)
                        if progress is not None:
                            progress(done, step)
                        continue
                report.left += 1
                if progress is not None:
                    progress(item, "stopped")
            report.stopped = stopped
        return report

    async def _ready(self) -> str | None:
        """None when writes can go out now, else why not."""
        if self._client.offline_reason == "asked":
            return "Folio was started offline (--offline): nothing is sent until it runs online."
        if self._client.offline_reason and not await self._client.probe_online():
            return "the service still cannot be reached."
        return None

    async def _one(
        self, state: LocalState, item: OutboxItem, changes: dict[tuple[str, str], str | None]
    ) -> tuple[Literal["sent", "found", "stuck"], str]:
        """Send (or find) one item; raises :class:`_Stop` to end the flush."""
        attempted = item.note == ATTEMPTED
        marked = False
        try:
            p = item.payload
            if item.kind not in KINDS or not isinstance(p.get("space"), str):
                return self._stuck(state, item, f"Folio cannot read this queued {item.kind!r} item; it was not sent.")
            gone = await self._change_request_gone(p["space"], p.get("change_request"), changes)
            if gone is not None:
                return self._stuck(state, item, gone)
            if attempted:
                there = await self._already_there(item)
                if self._client.offline_reason:  # the answers may have come from the cache: trust none of them
                    raise _Stop("Folio went offline.", reached=False)
                if there:
                    self._sent(state, item)
                    return "found", "It had already reached the service: not sent again."
            if self._client.offline_reason:
                raise _Stop("Folio went offline.", reached=False)
            state.mark(item.id, "queued", ATTEMPTED)
            marked = True
            await self._send(item)
        except _Unsure as unsure:
            return self._stuck(state, item, unsure.note)
        except (KeyError, TypeError, ValueError):
            return self._stuck(state, item, "The queued item is damaged (a field is missing); it was not sent.")
        except errors.ApiError as exc:
            if _stops(exc):
                raise _Stop(_why(exc), reached=marked and _may_have_reached(exc)) from None
            return self._stuck(state, item, _stuck_note(item, exc))
        self._sent(state, item)
        return "sent", ""

    @staticmethod
    def _sent(state: LocalState, item: OutboxItem) -> None:
        state.mark(item.id, "sent", "")
        state.remove(item.id)

    @staticmethod
    def _stuck(state: LocalState, item: OutboxItem, note: str) -> tuple[Literal["stuck"], str]:
        state.mark(item.id, "stuck", note)
        return "stuck", note

    async def _change_request_gone(
        self, space_id: str, cr: str | int | None, seen: dict[tuple[str, str], str | None]
    ) -> str | None:
        """Why the change request an item is on no longer takes it (merged, archived, deleted), else None."""
        if cr is None:
            return None
        key = (space_id, str(cr))
        if key not in seen:
            try:
                found = await self._client.change_requests.get(space_id, cr)
            except errors.NotFound:
                seen[key] = "The change request no longer exists: this was not sent."
            else:
                status = found.status
                seen[key] = (
                    f"Change request #{found.number} was {status}: this no longer applies, so it was not sent."
                    if status in ("merged", "archived")
                    else None
                )
        return seen[key]

    async def _send(self, item: OutboxItem) -> None:
        p, comments = item.payload, self._client.comments
        space, cr = p["space"], p.get("change_request")
        if item.kind == "comment":
            await comments.create(space, p["markdown"], change_request=cr, page=p.get("page"), node=p.get("node"))
        elif item.kind == "reply":
            await comments.reply(space, p["comment"], p["markdown"], change_request=cr)
        elif item.kind == "reaction":
            emoji = [str(p["emoji"])]
            added, removed = (None, emoji) if p.get("remove") else (emoji, None)
            if p.get("reply"):
                await comments.update_reply(
                    space, p["comment"], p["reply"], change_request=cr, added_reactions=added, removed_reactions=removed
                )
            else:
                await comments.update(
                    space, p["comment"], change_request=cr, added_reactions=added, removed_reactions=removed
                )
        else:
            await comments.update(space, p["comment"], change_request=cr, resolved=bool(p["resolved"]))

    async def _already_there(self, item: OutboxItem) -> bool:
        """Whether an earlier try of ``item`` reached the service (see the module docstring)."""
        p, comments = item.payload, self._client.comments
        space, cr = p["space"], p.get("change_request")
        me = (await self._services.me()).id
        if item.kind == "resolve":
            comment = await comments.get(space, p["comment"], change_request=cr)
            return comment.resolved == bool(p["resolved"])
        if item.kind == "reaction":
            if p.get("reply"):
                post: Any = await comments.get_reply(space, p["comment"], p["reply"], change_request=cr)
            else:
                post = await comments.get(space, p["comment"], change_request=cr)
            reaction = post.reaction(p["emoji"])
            return (reaction is not None and reaction.by(me)) != bool(p.get("remove"))
        found: object | None
        if item.kind == "reply":
            try:
                found = await self._services.comments.find_reply(
                    space, p["comment"], str(p["markdown"]), change_request=cr, since=item.created_at
                )
            except errors.NotFound:
                await comments.get(space, p["comment"], change_request=cr)  # a deleted thread: NotFound again
                raise _Unsure(
                    "The reply may have been posted, and this service does not list the replies of space comments,"
                    " so it was not sent again: look at the thread, then discard this item."
                ) from None
        else:
            found = await self._services.comments.find_comment(
                space,
                str(p["markdown"]),
                change_request=cr,
                page=p.get("page"),
                node=p.get("node"),
                since=item.created_at,
            )
        return found is not None


# -- what a failure means ---------------------------------------------------------------------------------------


def _stops(exc: errors.ApiError) -> bool:
    """Whether an error ends the flush (the rest waits) rather than making this one item stuck."""
    if isinstance(exc, errors.StatusError):
        status = exc.status or 0
        return status in (401, 429) or not 400 <= status < 500
    return not isinstance(exc, errors.InvalidRequest)


def _may_have_reached(exc: errors.ApiError) -> bool:
    if isinstance(exc, errors.TransportError):
        return exc.may_have_reached
    if isinstance(exc, errors.StatusError):
        return (exc.status or 0) >= 500  # 401 and 429 were refused before anything was done
    return isinstance(exc, errors.ResponseError)  # a 2xx we could not read: it was probably done


def _why(exc: errors.ApiError) -> str:
    if isinstance(exc, errors.Offline):
        return "Folio went offline."
    if isinstance(exc, errors.TransportError):
        return "the connection to the service failed; the rest goes out next time."
    if isinstance(exc, errors.RateLimited):
        return "the service asks to slow down (rate limit); the rest goes out next time."
    if isinstance(exc, errors.Unauthorized):
        return "the token was refused; check it with: folio auth status."
    return f"the service failed ({exc.message}); the rest goes out next time."


_GONE: dict[str, str] = {
    "comment": "The space, change request or page it was on is gone: the comment was not sent.",
    "reply": "The thread was deleted: the reply was not sent.",
    "reaction": "The comment or reply was deleted: the reaction was not sent.",
    "resolve": "The thread was deleted: it was not {verb}.",
}


def _stuck_note(item: OutboxItem, exc: errors.ApiError) -> str:
    if isinstance(exc, errors.NotFound) and not isinstance(exc, errors.NotOffered):
        verb = "resolved" if item.payload.get("resolved") else "reopened"
        return _GONE.get(item.kind, "It is gone from the service: not sent.").format(verb=verb)
    if isinstance(exc, errors.Forbidden):
        return "You may no longer do this there (the service said 403): not sent."
    status = f" ({exc.status})" if exc.status else ""
    return f"The service refused it{status}: {exc.message}"
