"""The session: which screens were open (with their tab, the row under the cursor and the filter typed), saved
in the account's local state as the user moves, so a Folio reopened after a dropped SSH connection (or a kill)
comes back where it was. A clean quit (``q``) clears it: the next start opens on the organizations.

A screen takes part by naming its route (``ROUTE = "space"``, ``folio.tui.routes``): :func:`snapshot` saves the
route's ids (the screen's attributes of those names), :func:`rebuild` builds the screens from their routes.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.screen import Screen

    from folio.services import Services

__all__ = ["rebuild", "snapshot"]

log = logging.getLogger(__name__)
VERSION = 1


class Make(Protocol):
    """Builds the screen of a route (``routes.build`` without its services, or the app's ``screen_for``)."""

    def __call__(
        self, kind: str, ids: dict[str, Any], *, title: str | None = None, trail: tuple[str, ...] = ()
    ) -> Screen[Any]: ...


def _view(screen: Screen[Any]) -> dict[str, Any]:
    """The screen's active tab, and the row and filter of the list that has (or last had) the focus.

    The widgets are found by their CSS type names, so saving the first screen's session does not import the
    list and tab modules it does not use (the first frame waits for what runs before it)."""
    view: dict[str, Any] = {}
    tabs: Any = screen.query("TabbedContent")
    if tabs:
        view["tab"] = tabs.first().active
    browsers: list[Any] = list(screen.query("ResourceBrowser"))
    focused = screen.focused
    chosen = next((b for b in browsers if focused is not None and b in focused.ancestors_with_self), None)
    if chosen is None:
        chosen = next((b for b in browsers if b.display and b.list.rows), None)
    if chosen is not None and chosen.id:
        row = chosen.list.highlighted
        view["list"] = chosen.id
        view["cursor"] = row.key if row is not None else None
        view["filter"] = chosen.typed_filter
    return view


def snapshot(stack: list[Screen[Any]]) -> dict[str, Any]:
    """The screens of ``stack`` that can be rebuilt (the first one, the organizations, always is: not saved)."""
    from folio.tui.routes import route

    entries = []
    for screen in stack:
        found = route(getattr(screen, "ROUTE", None) or "")
        if found is None or not found.session:
            continue
        args = {field: getattr(screen, field, None) for field in (*found.ids, *found.optional)}
        # an optional id the screen does not keep under its name (``anchor`` is a Textual method): not saved
        args = {field: value for field, value in args.items() if value is None or isinstance(value, str | int)}
        entries.append({"screen": found.kind, "args": args, "crumb": getattr(screen, "crumb", ""), **_view(screen)})
    return {"version": VERSION, "screens": entries}


def rebuild(services: Services, data: dict[str, Any], make: Make | None = None) -> list[Screen[Any]]:
    """The screens of a saved session, trails and all (an entry Folio cannot rebuild ends the list there).
    ``make(kind, ids, title=, trail=)`` builds each (the app's ``screen_for``, which keeps it for a reopen);
    by default ``routes.build``."""
    from functools import partial

    from folio.tui.routes import build, route

    if make is None:
        make = partial(build, services)

    if data.get("version") != VERSION:
        return []
    screens: list[Screen[Any]] = []
    trail: tuple[str, ...] = ("Organizations",)
    for entry in data.get("screens", []):
        name, args = entry.get("screen"), dict(entry.get("args") or {})
        if name == "organizations":
            continue  # the first screen, which the app opens itself (sessions saved before routes named it)
        if route(name or "") is None:
            break
        try:
            screen: Screen[Any] = make(name, args, title=entry.get("crumb") or None, trail=trail)
        except (KeyError, TypeError):
            log.warning("a saved screen could not be rebuilt: %s", name)
            break
        setattr(screen, "_folio_restore", entry)  # noqa: B010 (any screen class)
        crumb = entry.get("crumb") or getattr(screen, "crumb", "")
        trail = (*trail, crumb) if crumb else trail
        screens.append(screen)
    return screens
