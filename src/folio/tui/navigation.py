"""How anything below the app asks to open a screen, or makes a loaded thing reachable, without importing a
screen: it names a route's kind and the ids its screen is built from (``folio.tui.routes``).

    self.post_message(Open("space", {"space_id": space.id}, title=space.title))   # enter on a row
    remember(self, "space", {"space_id": space.id}, space.title)                   # the palette's go-to, :space

The app handles :class:`Open` (it bubbles up from any widget or screen) and builds the screen from its route,
with the breadcrumb trail of the screen it came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual.message import Message

__all__ = ["Ids", "Open", "key_of", "remember"]

Ids = Mapping[str, Any]
"""The ids a route's screen is built from (``{"space_id": "..."}``; a title query for the screens that take one)."""


class Open(Message):
    """Open the screen of ``kind`` for ``ids`` on top of the one in view (``jump``: as a go-to, which ``-``
    undoes). ``title`` names it in the trail until it is loaded."""

    def __init__(self, kind: str, ids: Ids | None = None, title: str | None = None, jump: bool = False) -> None:
        # (an __init__ of its own, as Textual's messages have: a dataclass costs ~0.4 ms before the first frame)
        super().__init__()
        self.kind = kind
        self.ids: Ids = {} if ids is None else ids
        self.title = title
        self.jump = jump


def key_of(ids: Ids) -> str:
    """The key a loaded thing is remembered by: its ids joined (``space-id``, ``space-id/12``)."""
    return "/".join(str(value) for value in ids.values() if value is not None)


def remember(owner: Any, kind: str, ids: Ids, title: str | None) -> None:
    """Make a loaded thing reachable from the palette's go-to and the command line (``owner``: a screen or a
    widget of the app; a test app without the go-to ignores it)."""
    from folio.tui.context import context_of

    context = context_of(owner)
    if context is not None:
        trail = tuple(getattr(getattr(owner, "screen", None), "trail", ()) or ())
        context.remember(kind, dict(ids), title or key_of(ids), trail)
