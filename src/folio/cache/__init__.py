"""Folio's local storage, in SQLite files per account: the response cache (disposable, bounded, LRU) and the
local state (drafts, outbox, session: the user's work, which ``folio cache clear`` keeps).

Nothing here raises for a storage problem: a damaged file is moved aside and rebuilt, an unusable one leaves its
store running disabled (the cache) or on a JSON file and memory (the state), and ``problem`` says so in words.
This package imports only the standard library and :mod:`folio.config.paths`.
"""

from typing import TYPE_CHECKING

from folio.cache.accounts import account_id, lookup, remember
from folio.cache.responses import CachedResponse, CacheInfo, ResponseCache
from folio.cache.state import Draft, LocalState, OutboxItem, OutboxState, StateInfo

if TYPE_CHECKING:
    from folio.cache.report import clear_all, describe

__all__ = [
    "CacheInfo",
    "CachedResponse",
    "Draft",
    "LocalState",
    "OutboxItem",
    "OutboxState",
    "ResponseCache",
    "StateInfo",
    "account_id",
    "clear_all",
    "describe",
    "lookup",
    "remember",
]


def __getattr__(name: str) -> object:
    # ``folio cache info | clear`` only: a start of the TUI does not import the report
    if name in ("clear_all", "describe"):
        from folio.cache import report

        return getattr(report, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
