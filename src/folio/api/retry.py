"""When a failed request may be sent again, and how long to wait first.

Retries are decided per operation, not per HTTP method: a read may always be sent again; a write is sent again
only when it cannot have reached the service (the connection was never made) or the service said it did not act
(429). A write whose response was lost is never blindly repeated: the caller gets the error and decides (the
services layer reconciles by looking for the result before trying again).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime

import httpx

__all__ = ["RetryPolicy", "parse_wait"]

# Raised before any byte of the request could reach the service: safe to retry any operation.
NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
RETRYABLE_STATUS_FOR_READS = frozenset({500, 502, 503, 504})


@dataclass
class RetryPolicy:
    attempts: int = 4
    """Total attempts, the first included."""
    base_delay: float = 0.25
    max_delay: float = 8.0
    max_rate_limit_wait: float = 60.0
    """A 429 asking to wait longer than this is raised at once, with its wait, for the caller to show."""
    rate_limit_delay: float = 1.0
    """The first wait after a 429 that says nothing of when to come back; doubled at each further one (1, 2, 4 s),
    up to ``max_delay``. Seconds, not the quarter seconds of :meth:`backoff`: a service that refuses for being
    asked too often is not helped by being asked again at once."""
    sleep: Callable[[float], Awaitable[None]] = field(default=asyncio.sleep)
    rng: random.Random = field(default_factory=random.Random)

    def backoff(self, attempt: int) -> float:
        """Full-jitter exponential backoff for the given (1-based) failed attempt."""
        cap = min(self.max_delay, self.base_delay * (2 ** (attempt - 1)))
        return self.rng.uniform(0, cap)

    def rate_limit_backoff(self, attempt: int) -> float:
        """The wait after the given (1-based) 429 without ``Retry-After``: ``rate_limit_delay`` doubled at each
        attempt (1, 2, 4 s), give or take a fifth (so clients limited together do not come back together), and
        never more than ``max_delay``."""
        step = self.rate_limit_delay * 2.0 ** (attempt - 1)
        return min(self.max_delay, step * self.rng.uniform(0.8, 1.2))


def parse_wait(headers: httpx.Headers, now: float | None = None) -> float | None:
    """Seconds to wait from ``Retry-After`` (seconds or an HTTP date) or ``X-RateLimit-Reset`` (an epoch time in
    seconds or milliseconds, or a delay in seconds when small)."""
    now = time.time() if now is None else now
    retry_after = headers.get("retry-after")
    if retry_after:
        try:
            return max(0.0, float(retry_after))
        except ValueError:
            try:
                return max(0.0, parsedate_to_datetime(retry_after).timestamp() - now)
            except (TypeError, ValueError):
                pass
    reset = headers.get("x-ratelimit-reset")
    if reset:
        try:
            value = float(reset)
        except ValueError:
            return None
        if value > 1e12:  # milliseconds since the epoch
            value /= 1000
        if value > 1e9:  # seconds since the epoch
            return max(0.0, value - now)
        return max(0.0, value)
    return None
