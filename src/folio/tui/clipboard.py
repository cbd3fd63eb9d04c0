"""Copying ids and URLs: through the terminal (OSC 52, which works over SSH), never by launching anything."""

from __future__ import annotations

from typing import Any

from textual.app import App

from folio.tui.safe import safe

__all__ = ["copy", "is_https"]


def is_https(url: str | None) -> bool:
    return bool(url) and url.strip().lower().startswith("https://") and " " not in url.strip()  # type: ignore[union-attr]


def copy(app: App[Any], text: str | None, *, what: str, url: bool = False) -> bool:
    """Copy ``text`` to the clipboard and say so; a URL is copied only when it is https (otherwise shown)."""
    if not text:
        app.notify(f"There is no {what} to copy here.", severity="warning", markup=False)
        return False
    shown = safe(text, limit=300).plain
    if url and not is_https(shown):
        app.notify(f"Not copied (only https links are): {shown}", severity="warning", markup=False)
        return False
    app.copy_to_clipboard(shown)
    app.notify(f"Copied {what}: {shown}", markup=False)
    return True
