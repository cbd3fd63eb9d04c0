"""Stale-while-revalidate for every load of every screen: what was seen before paints at once, fresh data
replaces it when it arrives.

A screen's (or a widget's) load method is an ordinary worker body that reads through the services and shows
what it got. ``@cache_first`` (under ``@work``) runs that body twice the first time it is called with given
arguments: once with reads answered by the local cache only (no network: a miss ends that pass quietly, a hit
paints), then for real. The second pass's rows go to lists through :func:`staged`: while a cached paint is on
screen, a paged list gathers the fresh pages and swaps them in whole at the end, so the cursor stays on its row
and the filter stays typed. The screen's header says how old a cached paint is until the fresh data is in
(``cached 5m ago``), or that Folio is offline.

Later calls (``r``, a changed filter) read the service directly: what is on screen is already the best paint.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from textual.dom import NoScreen

from folio.services import format
from folio.services.connection import Connection

__all__ = [
    "Revalidation",
    "cache_first",
    "cache_pass_done",
    "connection_of",
    "describe_age",
    "is_cached_only",
    "reads_cache_first",
    "staged",
]

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Awaitable[None]])


class Revalidation:
    """The fresh rows of lists painted from cache, kept until the load is done, then swapped in whole."""

    def __init__(self) -> None:
        self._rows: dict[int, tuple[Any, list[Any]]] = {}

    def stage(self, target: Any, rows: list[Any], *, replace: bool) -> None:
        _, kept = self._rows.setdefault(id(target), (target, []))
        if replace:
            kept.clear()
        kept.extend(rows)

    def flush(self) -> None:
        for target, rows in self._rows.values():
            target.set_rows(rows, staged=False)
        self._rows.clear()


_revalidation: ContextVar[Revalidation | None] = ContextVar("folio_revalidation", default=None)


def staged() -> Revalidation | None:
    """The revalidation in progress (a list should stage its fresh rows in it), or None: show rows now."""
    return _revalidation.get()


def describe_age(stored_at: float | None, now: float | None = None) -> str:
    """``cached just now``, ``cached 5 min ago``: :func:`folio.services.format.cached_age`."""
    return format.cached_age(stored_at, now)


def connection_of(owner: Any) -> Connection | None:
    """The connection (``services.connection``) of a screen, a widget or the app; None for a bare test app."""
    services = getattr(owner, "services", None)
    if services is None:
        app = getattr(owner, "app", None)
        services = getattr(app, "services", None)
    connection = getattr(services, "connection", None)
    return connection if isinstance(connection, Connection) else None


def _screen(owner: Any) -> Any:
    try:
        return owner if hasattr(owner, "show_age") else getattr(owner, "screen", None)
    except NoScreen:  # a widget not mounted (any more) has no screen
        return None


def _show_age(owner: Any, key: tuple[str, str, str], stored_at: float | None) -> None:
    show = getattr(_screen(owner), "show_age", None)
    if callable(show):
        show(f"{id(owner)}:{key}", stored_at)


def reads_cache_first(owner: Any) -> bool:
    """Whether a ``@cache_first`` load of ``owner`` reads the cache before the service (a cache is kept and the
    client is online; offline, every read comes from the cache anyway)."""
    connection = connection_of(owner)
    return connection is not None and connection.reads_cache_first


def is_cached_only() -> bool:
    """Whether this runs inside the cache pass of a ``@cache_first`` load (a first paint)."""
    return Connection.is_cache_only()


def _key(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, str, str]:
    return (name, repr(args), repr(sorted(kwargs.items())))


def _done(owner: Any) -> set[tuple[str, str, str]]:
    done: set[tuple[str, str, str]] = owner.__dict__.setdefault("_fresh_done", set())
    return done


def cache_pass_done(owner: Any, method_name: str, stored_at: float | None, *args: Any, **kwargs: Any) -> None:
    """The cache pass of ``owner``'s ``@cache_first`` load ``method_name`` (called with ``args``) was done by other
    means (the first frame, read from the cache before the HTTP client exists): that load's next call goes to the
    service at once. ``stored_at``: when what was painted was stored, which the screen's header says until the
    fresh data is in (None: the cache had nothing to paint)."""
    key = _key(method_name, args, kwargs)
    _done(owner).add(key)
    if stored_at is not None:
        _show_age(owner, key, stored_at)


def cache_first(method: F) -> F:
    """Run a load body from the cache first (once per arguments), then from the service. Put it under ``@work``."""

    @functools.wraps(method)
    async def run(self: Any, *args: Any, **kwargs: Any) -> None:
        key = _key(method.__name__, args, kwargs)
        done = _done(self)
        painted = False
        if reads_cache_first(self) and key not in done:
            with Connection.cache_only(), Connection.freshness() as seen:
                try:
                    await method(self, *args, **kwargs)
                except Exception:  # the body says its own errors; a cache pass that fails only paints nothing
                    log.debug("cache pass of %s failed", method.__name__, exc_info=True)
            painted = seen.from_cache
            if painted:
                _show_age(self, key, seen.oldest)
        revalidation = Revalidation() if painted else None
        token = _revalidation.set(revalidation)
        try:
            with Connection.freshness() as live:
                await method(self, *args, **kwargs)
            if revalidation is not None:
                revalidation.flush()
        except asyncio.CancelledError:
            # A newer load took over (an exclusive worker): this one's age must not stay in the header.
            if painted:
                _show_age(self, key, None)
            raise
        finally:
            _revalidation.reset(token)
        done.add(key)
        _show_age(self, key, live.oldest)

    return run  # type: ignore[return-value]
