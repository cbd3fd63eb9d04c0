"""How the screens read through the local cache: the API layer's context managers, offered at the services
layer (the TUI never imports ``folio.api``). See :mod:`folio.api.caching`."""

from folio.api.caching import Freshness, cached_only, freshness, is_cached_only

__all__ = ["Freshness", "cached_only", "freshness", "is_cached_only"]
