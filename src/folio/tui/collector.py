"""The garbage collector around bulk loads: the one place Folio calls ``gc.freeze`` (PERFORMANCE.md, #15).

    bulk_loaded(widget, count)   # a list's rows, a site's structure, a long diff: just put in place
    bulk_released(widget)        # the widget that held it is going away

Python's collector walks every live object it tracks at each full pass, and when a pass falls is up to the count
of allocations: with 10,000 rows and their models alive, passes of 100-250 ms landed in the middle of a key. What a
bulk load leaves is long-lived by nature, so once the frame that shows it is drawn, what it left over is collected
and the rest frozen (``gc.freeze``): later passes skip it. The pass costs what was made since the last freeze, not
the whole heap. When a widget that held a bulk load goes away, everything is unfrozen (``gc.unfreeze``), so what it
held is collected by the collector's next full pass instead of being kept for good; the next load freezes again.

Widgets say what they hold; this module decides what the collector does with it.
"""

from __future__ import annotations

import gc
from typing import Any
from weakref import WeakSet

__all__ = ["BULK", "bulk_loaded", "bulk_released"]

BULK = 1_000
"""Rows (nodes, lines) from which a load is bulk: below, the collector's own pace is fine."""

_pending: WeakSet[Any] = WeakSet()
"""Apps with a settling already asked for (several loads in one frame settle once)."""


def bulk_loaded(node: Any, count: int) -> None:
    """``count`` long-lived items were just put in place by ``node`` (a widget): once the next frame is drawn,
    collect what the load left behind and freeze the rest."""
    if count < BULK:
        return
    try:
        app = node.app
    except Exception:  # not in an app (yet, or any more): nothing to settle for
        return
    if app in _pending:
        return
    _pending.add(app)
    app.call_after_refresh(_settle, app)


def bulk_released(node: Any) -> None:
    """A widget that held a bulk load is going away: let the collector see everything again."""
    gc.unfreeze()


def _settle(app: Any) -> None:
    _pending.discard(app)
    gc.collect()
    gc.freeze()
