"""The session: which screens were open (with their tab, the row under the cursor and the filter typed), saved
in the account's local state as the user moves, so a Folio reopened after a dropped SSH connection (or a kill)
comes back where it was. A clean quit (``q``) clears it: the next start opens on the organizations.

A screen takes part by naming itself and the constructor arguments that rebuild it in ``SESSION``, e.g.
``SESSION = ("space", ("space_id",))``; :func:`snapshot` reads them, :func:`rebuild` calls the constructors.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.screen import Screen

    from folio.services import Services

__all__ = ["rebuild", "restore_view", "snapshot"]

log = logging.getLogger(__name__)
VERSION = 1


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
    """The screens of ``stack`` that can be rebuilt (the first one, the organizations, always can)."""
    entries = []
    for screen in stack:
        spec = getattr(screen, "SESSION", None)
        if spec is None:
            continue
        name, fields = spec
        args = {field: getattr(screen, field, None) for field in fields}
        entries.append({"screen": name, "args": args, "crumb": getattr(screen, "crumb", ""), **_view(screen)})
    return {"version": VERSION, "screens": entries}


def rebuild(services: Services, data: dict[str, Any]) -> list[Screen[Any]]:
    """The screens of a saved session, trails and all (an entry Folio cannot rebuild ends the list there)."""
    from folio.tui.screens.change_request import ChangeRequestScreen
    from folio.tui.screens.organization import OrganizationScreen
    from folio.tui.screens.site import SiteScreen
    from folio.tui.screens.space import SpaceScreen
    from folio.tui.screens.thread import ThreadScreen

    if data.get("version") != VERSION:
        return []
    screens: list[Screen[Any]] = []
    trail: tuple[str, ...] = ("Organizations",)
    for entry in data.get("screens", []):
        name, args = entry.get("screen"), dict(entry.get("args") or {})
        try:
            screen: Screen[Any]
            if name == "organizations":
                continue
            if name == "organization":
                screen = OrganizationScreen(services, args["org_id"], title=entry.get("crumb") or None, trail=trail)
            elif name == "space":
                screen = SpaceScreen(services, args["space_id"], title=entry.get("crumb") or None, trail=trail)
            elif name == "change-request":
                screen = ChangeRequestScreen(services, args["space_id"], args["ref"], trail=trail)
            elif name == "thread":
                screen = ThreadScreen(
                    services,
                    args["space_id"],
                    args["comment_id"],
                    change_request=args.get("change_request"),
                    trail=trail,
                )
            elif name == "site":
                screen = SiteScreen(services, args["org_id"], args["site_id"], trail=trail)
            else:
                break
        except (KeyError, TypeError):
            log.warning("a saved screen could not be rebuilt: %s", name)
            break
        setattr(screen, "_folio_restore", entry)  # noqa: B010 (any screen class)
        crumb = entry.get("crumb") or getattr(screen, "crumb", "")
        trail = (*trail, crumb) if crumb else trail
        screens.append(screen)
    return screens


def restore_view(screen: Screen[Any]) -> None:
    """Put back the saved tab, filter and row of a rebuilt screen (the row once its list has loaded)."""
    from textual.widgets import TabbedContent

    from folio.tui.widgets.resource_list import ResourceBrowser

    entry: dict[str, Any] | None = getattr(screen, "_folio_restore", None)
    if not entry:
        return
    screen._folio_restore = None  # type: ignore[attr-defined]
    if entry.get("tab"):
        try:
            screen.query(TabbedContent).first().active = entry["tab"]
        except Exception:
            log.debug("saved tab %r is gone", entry.get("tab"))
    if entry.get("list"):
        try:
            browser = screen.query_one(f"#{entry['list']}", ResourceBrowser)
        except Exception:
            return
        browser.restore(entry.get("cursor"), entry.get("filter") or "")
