"""Every way a call to the service can fail, as one small tree.

    ApiError                      base: method, path, status (when there was one), message in plain words
    ├── InvalidRequest            caught before sending: a limit or pattern of the spec (field, problem, limit)
    ├── TransportError            the request did not complete: connection refused, reset, dropped
    │   └── RequestTimeout        connect, read or overall timeout
    ├── NotCached                 a cache-only read (first paint) of something never seen
    ├── Offline                   offline: not seen before, or a write that cannot be sent now
    ├── ResponseError             the service answered something we cannot use: malformed JSON, wrong shape
    └── StatusError               the service answered with an error status and (usually) its own message
        ├── BadRequest            400
        ├── Unauthorized          401  the token is missing, wrong or expired
        ├── Forbidden             403
        ├── NotFound              404
        │   └── NotOffered        this service does not offer the operation at all (not the resource missing)
        ├── Conflict              409
        ├── PreconditionFailed    412
        ├── Unprocessable         422
        ├── RateLimited           429  with ``retry_after`` seconds when the service said
        └── ServerError           5xx

No error ever carries the token: messages are built from the method, the path (no query string) and the
service's own words, which are cut to a sane length.
"""

from __future__ import annotations

import math
import time

__all__ = [
    "ApiError",
    "BadRequest",
    "Conflict",
    "Forbidden",
    "InvalidRequest",
    "NotCached",
    "NotFound",
    "NotOffered",
    "Offline",
    "PreconditionFailed",
    "RateLimited",
    "RequestTimeout",
    "ResponseError",
    "ServerError",
    "StatusError",
    "TransportError",
    "Unauthorized",
    "Unprocessable",
    "status_error",
    "wait_words",
]

_MAX_MESSAGE = 500


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _MAX_MESSAGE else text[: _MAX_MESSAGE - 1] + "…"


class ApiError(Exception):
    """Base of every error the API layer raises."""

    default_message = "The request failed."

    def __init__(
        self,
        message: str | None = None,
        *,
        method: str = "",
        path: str = "",
        status: int | None = None,
    ) -> None:
        self.message = _clip(message or self.default_message)
        self.method = method
        self.path = path
        self.status = status
        super().__init__(self.describe())

    def describe(self) -> str:
        """One line a person can read: what failed, where, and what the service said."""
        where = f"{self.method} {self.path}".strip()
        status = f" ({self.status})" if self.status else ""
        message = self.message.rstrip(".") if where else self.message  # "…service — GET /orgs", not "service. —"
        return f"{message}{status}" + (f" — {where}" if where else "")


class InvalidRequest(ApiError):
    """A value breaks a limit or pattern of the spec; nothing was sent."""

    def __init__(self, field: str, problem: str, limit: str, *, method: str = "", path: str = "") -> None:
        self.field = field
        self.problem = problem
        self.limit = limit
        super().__init__(f"{field}: {problem} ({limit})", method=method, path=path)


class TransportError(ApiError):
    default_message = "Could not reach the service."
    may_have_reached = True
    """False when the request cannot have reached the service (no connection was made): safe to send again."""


class RequestTimeout(TransportError):
    default_message = "The service did not answer in time."


class NotCached(ApiError):
    """A read asked of the cache only (a first paint, or offline) that was never seen before."""

    default_message = "Not in the local cache."


class Offline(ApiError):
    """Folio is offline (``--offline``, or the network is down): reads come from the cache, writes wait."""

    default_message = "Folio is offline: this was not seen before, and changes cannot be sent now."


class ResponseError(ApiError):
    default_message = "The service answered with something Folio could not read."


class StatusError(ApiError):
    default_message = "The service refused the request."

    def __init__(
        self,
        message: str | None = None,
        *,
        method: str = "",
        path: str = "",
        status: int | None = None,
        code: str | int | None = None,
    ) -> None:
        self.code = code
        super().__init__(message, method=method, path=path, status=status)


class BadRequest(StatusError):
    default_message = "The service rejected the request as invalid."


class Unauthorized(StatusError):
    default_message = "The token was refused: it is missing, wrong or expired."


class Forbidden(StatusError):
    default_message = "You do not have permission to do this."


class NotFound(StatusError):
    default_message = "Not found: it may have been deleted or moved."


class NotOffered(NotFound):
    """The service has no such operation (an older or newer service than the spec describes)."""

    default_message = "This service does not offer this operation."


class Conflict(StatusError):
    default_message = "The request conflicts with the current state."


class PreconditionFailed(StatusError):
    default_message = "A precondition of the request failed."


class Unprocessable(StatusError):
    default_message = "The service could not process the request."


class RateLimited(StatusError):
    """429. ``retry_after``: the seconds the service asked to wait (``None`` when it did not say), and
    ``retry_at`` the moment that is (``time.time()``); ``waited``: what the client already waited before giving
    up (set by it). :meth:`describe` says when to try again: "Rate limited by the service: try again in 2 minutes
    (at 21:42)"."""

    default_message = "Too many requests: the service asks to slow down."

    def __init__(self, message: str | None = None, *, retry_after: float | None = None, **kw: object) -> None:
        self.retry_after = retry_after
        self.retry_at = time.time() + retry_after if retry_after is not None else None
        self.waited: tuple[float, ...] = ()
        self.said = bool(message)  # the service's own words (not the default sentence)
        super().__init__(message, **kw)  # type: ignore[arg-type]

    def gave_up_after(self, waits: tuple[float, ...]) -> None:
        """The client waited ``waits`` (seconds) and asked again each time, in vain: the words say so."""
        self.waited = waits
        self.args = (self.describe(),)

    def describe(self) -> str:
        if self.retry_at is not None and self.retry_after is not None:
            when = f"try again in {wait_words(self.retry_after)} (at {_clock(self.retry_at, self.retry_after)})"
        elif self.waited:
            asked = _and([f"{w:.0f} s" if w >= 1 else f"{w:.1f} s" for w in self.waited])
            when = f"it gave no time to wait; asked again after {asked}, in vain. Try again in a few minutes"
        else:
            when = "it gave no time to wait. Try again in a minute or two"
        text = f"Rate limited by the service: {when}"
        said = self.message.rstrip(".") if self.said else ""
        status = f" ({self.status})" if self.status else ""
        if said:
            text += f". The service said: {said}{status}"
        else:
            text += status
        where = f"{self.method} {self.path}".strip()
        return text + (f" — {where}" if where else ".")


class ServerError(StatusError):
    default_message = "The service had an internal error."


_BY_STATUS: dict[int, type[StatusError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    405: NotOffered,
    409: Conflict,
    412: PreconditionFailed,
    422: Unprocessable,
    429: RateLimited,
    501: NotOffered,
}


def status_error(
    status: int,
    message: str | None,
    *,
    method: str,
    path: str,
    code: str | int | None = None,
    retry_after: float | None = None,
) -> StatusError:
    """The error class for an HTTP status, filled in."""
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else StatusError)
    if cls is RateLimited:
        return RateLimited(message, retry_after=retry_after, method=method, path=path, status=status, code=code)
    return cls(message, method=method, path=path, status=status, code=code)


def wait_words(seconds: float) -> str:
    """A wait in words, rounded up (coming back a little late is better than too soon): "45 seconds",
    "2 minutes", "1 hour 5 minutes"."""
    whole = max(1, math.ceil(seconds))
    if whole < 60:
        return _count(whole, "second")
    if whole < 3600:
        return _count(math.ceil(whole / 60), "minute")
    hours, rest = divmod(whole, 3600)
    minutes = math.ceil(rest / 60)
    if minutes == 60:
        hours, minutes = hours + 1, 0
    return _count(hours, "hour") + (f" {_count(minutes, 'minute')}" if minutes else "")


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _clock(at: float, wait: float) -> str:
    """The local time of ``at``: with seconds for a wait under a minute, with the date for one over a day."""
    if wait < 60:
        return time.strftime("%H:%M:%S", time.localtime(at))
    if wait >= 86400:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(at))
    return time.strftime("%H:%M", time.localtime(at))


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"
