"""How the client reads through a local response cache, without knowing what the cache is.

The client takes any :class:`ResponseStore` (``folio.cache.ResponseCache`` is the product's; tests may pass a
dict-backed one). Every successful GET is stored under :func:`cache_key`; every successful write invalidates the
entries of the path it changed. Two context managers decide how a read is answered:

- normally a GET goes to the network and, when the network is down and the answer was seen before, the cached
  answer is returned and the client turns offline (``client.offline``) until a probe finds the service again;
- inside ``with cached_only():`` a GET is answered from the store or raises :class:`folio.api.errors.NotCached`,
  never touching the network: a screen's first paint.

Inside ``with freshness() as seen:`` the time each cached answer was stored is collected in ``seen.stored``, so
a screen can say how old what it shows is (``seen.oldest``). Context variables flow into the tasks a load starts.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlencode

__all__ = [
    "CachedBody",
    "Freshness",
    "ResponseStore",
    "cache_key",
    "cached_only",
    "freshness",
    "is_cached_only",
    "record_stored",
]


class CachedBody(Protocol):
    @property
    def body(self) -> bytes: ...

    @property
    def stored_at(self) -> float: ...


class ResponseStore(Protocol):
    """What the client needs of a response cache. Implementations never raise."""

    def get(self, key: str) -> CachedBody | None: ...

    def put(self, key: str, body: bytes) -> None: ...

    def invalidate(self, path: str) -> int: ...


def cache_key(path: str, params: dict[str, Any] | None) -> str:
    """``GET /spaces/s1/pages`` or ``GET /orgs/o1/spaces?limit=100&page=x``: the query sorted, so the same
    request always finds the same entry."""
    if not params:
        return f"GET {path}"
    pairs: list[tuple[str, Any]] = []
    for name in sorted(params):
        value = params[name]
        if isinstance(value, list | tuple):
            pairs.extend((name, item) for item in value)
        else:
            pairs.append((name, value))
    return f"GET {path}?{urlencode(pairs)}"


_cached_only: ContextVar[bool] = ContextVar("folio_cached_only", default=False)


@contextmanager
def cached_only() -> Iterator[None]:
    """Reads inside answer from the cache only (a miss raises NotCached); writes are refused."""
    token = _cached_only.set(True)
    try:
        yield
    finally:
        _cached_only.reset(token)


def is_cached_only() -> bool:
    return _cached_only.get()


@dataclass
class Freshness:
    """The store times of the cached answers a load used (empty: everything came from the service)."""

    stored: list[float] = field(default_factory=list)

    @property
    def from_cache(self) -> bool:
        return bool(self.stored)

    @property
    def oldest(self) -> float | None:
        return min(self.stored) if self.stored else None


_freshness: ContextVar[Freshness | None] = ContextVar("folio_freshness", default=None)


@contextmanager
def freshness() -> Iterator[Freshness]:
    seen = Freshness()
    token = _freshness.set(seen)
    try:
        yield seen
    finally:
        _freshness.reset(token)


def record_stored(stored_at: float) -> None:
    seen = _freshness.get()
    if seen is not None:
        seen.stored.append(stored_at)
