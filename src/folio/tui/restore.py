"""Putting back what a rebuilt screen showed (``folio.tui.session`` saved it): the tab, the filter and the row.
Apart from the session module, so a screen can call it without importing the routes that build screens."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.screen import Screen

__all__ = ["restore_view"]

log = logging.getLogger(__name__)


def restore_view(screen: Screen[Any]) -> None:
    """Put back the saved tab, filter and row of a rebuilt screen (the row once its list has loaded)."""
    entry: dict[str, Any] | None = getattr(screen, "_folio_restore", None)
    if not entry:
        return
    from textual.css.query import QueryError
    from textual.widgets import TabbedContent  # (not before the first frame when nothing is restored)

    from folio.tui.widgets.resource_browser import ResourceBrowser

    screen._folio_restore = None  # type: ignore[attr-defined]
    if entry.get("tab"):
        try:
            screen.query(TabbedContent).first().active = entry["tab"]
        except (QueryError, ValueError):  # no tabs here any more, or not that one
            log.debug("saved tab %r is gone", entry.get("tab"))
    if entry.get("list"):
        try:
            browser = screen.query_one(f"#{entry['list']}", ResourceBrowser)
        except QueryError:
            return
        browser.restore(entry.get("cursor"), entry.get("filter") or "")
