"""The garbage collector around bulk loads: the one place Folio calls ``gc.freeze`` (PERFORMANCE.md, #15).

    hold_for_start()             # the command line, before the TUI is imported: no pass until the first frame
    start_drawn(app)             # the first frame is on the terminal: passes again, and the start is frozen
    started(app)                 # the app's first screen has drawn what it loaded: the start is over
    bulk_loaded(widget, count)   # a list's rows, a site's structure, a long diff: just put in place
    bulk_released(widget)        # the widget that held it is going away

Python's collector walks every live object it tracks at each full pass, and when a pass falls is up to the count
of allocations: with 10,000 rows and their models alive, passes of 100-250 ms landed in the middle of a key. What a
bulk load leaves is long-lived by nature, so once the frame that shows it is drawn, what it left over is collected
and the rest frozen (``gc.freeze``): later passes skip it. The pass costs what was made since the last freeze, not
the whole heap.

Before the first frame there is no pass at all (:func:`hold_for_start`, :func:`start_drawn`): a start makes what
lives on (the modules, the app, its first screen) and little garbage, and Python's own passes over it, some 110
young and 10 middle ones, took about 16 ms of a 300 ms start (``tests/bench/bench_startup.py``).

The policy, pass by pass (:func:`plan`):

- **The start** (imports, the app, its first screen) is long-lived too, and the largest part of the heap: walking
  it cost 60-100 ms, the first time a large organization's page settled or when Python's own full pass fell while
  its pages streamed in. Nothing walks it: once the first frame is drawn (:func:`start_drawn` asks
  :func:`started`; an app started without the command line's hold, as tests start theirs, at its first bulk
  load's settling), only the young generations are collected and everything is frozen. What garbage the old
  generation held then (a few thousand objects) stays until the next release.
- **A bulk load settling** with the start frozen: a full pass, over what came since the last freeze only (a page
  of 1,000 rows and what drew it: about 1 ms), then a freeze.
- **A release**: when a widget that held a bulk load goes away, everything is unfrozen (``gc.unfreeze``), so what it
  held can be collected; the next settling owes a full pass over the whole heap, once, after a frame, and freezes
  again. A full pass made since the release (Python's own, or an explicit ``gc.collect()``) has paid it: the
  settling then collects the young generations only, as a second walk of the whole heap would find nothing the
  first did not (40 ms at 2,500 pages, 140 ms at 25,000: it fell in the next list's first frame).

Widgets and the app say what they hold and when the start is over; this module decides what the collector does.
"""

from __future__ import annotations

import gc
from enum import Enum
from typing import Any
from weakref import WeakSet

__all__ = ["BULK", "Pass", "bulk_loaded", "bulk_released", "hold_for_start", "plan", "start_drawn", "started"]

BULK = 1_000
"""Rows (nodes, lines) from which a load is bulk: below, the collector's own pace is fine."""


class Pass(Enum):
    """What a settling asks of the collector before it freezes."""

    YOUNG = 1
    """Collect the young generations only (``gc.collect(1)``): the old one is frozen without being walked."""
    FULL = 2
    """A full pass (``gc.collect()``) over what is not frozen."""


def plan(*, frozen: bool, owed: bool) -> Pass:
    """The pass a settling makes: ``frozen``, something is frozen (the start, earlier loads); ``owed``, a release
    unfroze the heap and what it held is still to be collected."""
    if owed or frozen:
        return Pass.FULL  # a release's objects go once; else the part since the last freeze, small
    return Pass.YOUNG  # nothing frozen yet: the whole heap, the start's, is long-lived; walking it is the pause


_pending: WeakSet[Any] = WeakSet()
"""Apps with a settling already asked for (several loads in one frame settle once)."""
_frozen = False
"""Whether this module froze the heap and has not unfrozen it since (``gc.get_freeze_count()`` walks the frozen
objects: 10 ms at 300,000)."""
_owed_at: int | None = None
"""A release unfroze the heap and the next settling owes a full pass: Python's full passes (:func:`_full_passes`)
at that release (None: nothing owed)."""
_held = False
"""This module turned the collector off for a start (:func:`hold_for_start`) and has not turned it on since."""


def hold_for_start() -> None:
    """No collector pass until the first frame is drawn (:func:`start_drawn`); nothing is changed when the
    collector is off already (whoever turned it off turns it on)."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def start_drawn(app: Any = None) -> None:
    """The first frame is on the terminal (``app``'s), or the start ended without one (no ``app``): the collector
    runs again if :func:`hold_for_start` turned it off, and what the start made is frozen once ``app``'s next
    frame is drawn (:func:`started`). Once: later calls do nothing. (An app started without the hold, as tests
    start theirs, leaves the collector as it is: the start is frozen at its first bulk load, if any.)"""
    global _held
    if _held:
        _held = False
        gc.enable()
        if app is not None:
            started(app)


def started(app: Any) -> None:
    """The start is over (:func:`start_drawn`: its first frame is drawn): once the next frame is drawn, freeze
    what it made (its imports, the app, the first screen) without walking it."""
    _ask(app)


def bulk_loaded(node: Any, count: int) -> None:
    """``count`` long-lived items were just put in place by ``node`` (a widget): once the next frame is drawn,
    collect what the load left behind and freeze the rest."""
    if count < BULK:
        return
    try:
        app = node.app
    except RuntimeError:  # Textual's NoActiveAppError: not in an app (yet, or any more): nothing to settle for
        return
    _ask(app)


def bulk_released(node: Any) -> None:
    """A widget that held a bulk load is going away: let the collector see everything again."""
    global _frozen, _owed_at
    gc.unfreeze()
    _frozen, _owed_at = False, _full_passes()


def _full_passes() -> int:
    """How many full passes Python has made in this process (its own and ``gc.collect()``'s)."""
    return int(gc.get_stats()[-1]["collections"])


def _ask(app: Any) -> None:
    if app in _pending:
        return
    _pending.add(app)
    app.call_after_refresh(_settle, app)


def _settle(app: Any) -> None:
    global _frozen, _owed_at
    _pending.discard(app)
    owed = _owed_at == _full_passes()  # (a full pass since the release paid what it owed)
    if plan(frozen=_frozen, owed=owed) is Pass.FULL:
        gc.collect()
    else:
        gc.collect(1)
    gc.freeze()
    _frozen, _owed_at = True, None
