"""The one owner of freshness: whether a read goes to the local cache first, whether Folio is offline, whether
the service's rate limit holds back refreshes nobody asked for, and the probe that finds the service again.

Screens ask ``services.connection`` (typed), never the HTTP client:

    connection.reads_cache_first      a cache is kept and Folio is online: a load paints from the cache first
    connection.keeps_cache            a local response cache is in use (False with --no-cache)
    connection.offline_reason         None, "asked" (--offline) or "network" (the link dropped)
    connection.may_refresh()          a refresh nobody asked for may go now (online, rate limit not spent)
    await connection.probe()          while the link is down: ask the service again (True: back online)
    connection.subscribe(callback)    told of every change of ``offline_reason``
    with connection.cache_only(): ... reads inside answer from the cache only (a miss raises, never the network)
    with connection.freshness() as seen: ... ``seen.from_cache`` / ``seen.oldest`` of the answers read inside
    connection.is_cache_only()        inside such a block (a first paint) or not

The client may not exist yet: a start paints its first frame from the cache before the HTTP stack is imported
(``folio.services.Services`` builds the client when it is first used and hands it to :meth:`Connection.attach`).
Until then Folio is online, nothing is rate limited, and a cache is kept when the launcher said so. This module
imports ``folio.api`` (httpx, pydantic) only when a read is made, for the same reason.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from folio.api.caching import Freshness
    from folio.api.client import GitBookClient

__all__ = ["Connection"]

log = logging.getLogger(__name__)

Listener = Callable[[str | None], None]
CACHING = "folio.api.caching"


class Connection:
    """The state of the link to the service and of the local cache, over one client (or, before it is built,
    over what the launcher knows: whether a cache is kept)."""

    def __init__(self, client: GitBookClient | None = None, *, keeps_cache: bool = False) -> None:
        self._client: GitBookClient | None = None
        self._keeps_cache = keeps_cache
        self._listeners: list[Listener] = []
        if client is not None:
            self.attach(client)

    def attach(self, client: GitBookClient) -> None:
        """The client is built: from now on every answer is its own."""
        self._client = client
        client.on_offline_change = self._changed
        if client.offline_reason is not None:
            self._changed(client.offline_reason)

    # -- what screens ask -----------------------------------------------------------------------------------

    @property
    def offline_reason(self) -> str | None:
        """Why reads come from the cache only: ``"asked"`` (``--offline``), ``"network"``, or None (online)."""
        return self._client.offline_reason if self._client is not None else None

    @property
    def offline(self) -> bool:
        return self.offline_reason is not None

    @property
    def keeps_cache(self) -> bool:
        """A local response cache answers reads (``--no-cache`` turns it off)."""
        return self._client.store is not None if self._client is not None else self._keeps_cache

    @property
    def reads_cache_first(self) -> bool:
        """A load paints from the cache before it asks the service: a cache is kept and Folio is online
        (offline, every read comes from the cache anyway)."""
        return self.keeps_cache and not self.offline

    @property
    def paints_from_cache(self) -> bool:
        """A screen's first frame can wait for a cached paint: a cache is kept, or Folio is offline."""
        return self.keeps_cache or self.offline

    def may_refresh(self) -> bool:
        """Whether a refresh nobody asked for may go out now (online, and the service's rate limit not spent)."""
        return self._client.may_refresh() if self._client is not None else True

    async def probe(self) -> bool:
        """While the link is down, ask the service again; True when it answers (Folio is then online)."""
        client = self._client
        if client is None or client.offline_reason != "network":
            return client is None or client.offline_reason is None
        return await client.probe_online()

    # -- being told -------------------------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(reason)`` whenever Folio goes offline or back online; returns the unsubscribe."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def _changed(self, reason: str | None) -> None:
        for listener in list(self._listeners):
            try:
                listener(reason)
            except Exception:  # one listener's bug must not stop the others being told
                log.exception("an offline listener failed")

    # -- how a load reads -------------------------------------------------------------------------------------

    @staticmethod
    def cache_only() -> AbstractContextManager[None]:
        """Reads inside answer from the local cache only (a miss raises ``NotCached``); writes are refused."""
        from folio.api.caching import cached_only

        return cached_only()

    @staticmethod
    def freshness() -> AbstractContextManager[Freshness]:
        """Collect when each cached answer read inside was stored (``seen.oldest``, ``seen.from_cache``)."""
        from folio.api.caching import freshness

        return freshness()

    @staticmethod
    def is_cache_miss(exc: BaseException) -> bool:
        """A read of the cache pass found nothing: not a failure to show (the fresh read comes next)."""
        if "folio.api.errors" not in sys.modules:
            return False  # no read was made, so nothing can have missed
        from folio.api.errors import NotCached

        return isinstance(exc, NotCached)

    @staticmethod
    def is_cache_only() -> bool:
        """Whether this code runs inside :meth:`cache_only` (a first paint from the cache)."""
        caching = sys.modules.get(CACHING)
        return bool(caching is not None and caching.is_cached_only())
