"""A :class:`~folio.tui.widgets.resource_browser.ResourceBrowser` that keeps the focus while it loads.

Textual's loading indicator makes a widget unfocusable: a list opened by its tab key while its first page loads
(``2/guide`` typed in one burst over a large organization) could not take the focus, and every key after the tab's
number was lost. This browser says "Loading…" in its status line only, so its list takes the focus, and the keys
typed, at once.
"""

from __future__ import annotations

from folio.tui.widgets.resource_browser import ResourceBrowser

__all__ = ["FocusableBrowser"]


class FocusableBrowser(ResourceBrowser):
    """A ResourceBrowser whose list stays focusable while it loads (the status line says it loads)."""

    def set_loading(self, loading: bool = True) -> None:
        super().set_loading(loading)
        self.list.loading = False
