"""A :class:`~folio.tui.widgets.resource_browser.ResourceBrowser` that keeps the focus while it loads, for the
long lists a user filters at once (the spaces of an organization, its change request inbox).

Textual's loading indicator makes a widget unfocusable: a list opened by its tab key while its first page loads
(``2/guide`` typed in one burst over a large organization) could not take the focus, and every key after the tab's
number was lost. This browser says "Loading…" in its status line only, so its list takes the focus, and the keys
typed, at once. Its list (:class:`UncoveredList`) is never covered by the indicator at all: covering mounts a
widget and uncovering removes it, and the app waits for a removal before it reads the next key (a load started
while ``2/s`` was typed held the ``s`` back a tenth of a second).

The keys typed after ``/`` cost as little as they can: the filter box is made once the list is on screen (not by
the ``/``, where its mount delayed the first keys typed into it), and a key typed from the list filters the rows
once (the box's change that follows finds them filtered already; a change overtaken by a later key is skipped).
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.widgets import Input

from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList

__all__ = ["FocusableBrowser", "UncoveredList"]


class UncoveredList(ResourceList):
    """A ResourceList that shows no loading indicator (its browser says "Loading…" in words): ``loading`` may be
    set, nothing is mounted or removed for it."""

    def set_loading(self, loading: bool) -> None:
        return


class FocusableBrowser(ResourceBrowser):
    """A ResourceBrowser whose list stays focusable while it loads (the status line says it loads), with its
    filter box made ahead of the ``/``."""

    def __init__(self, columns: Sequence[Column], *, empty: str = "Nothing here yet.", id: str | None = None) -> None:
        super().__init__(columns, empty=empty, id=id)
        self._list = UncoveredList(self.columns)

    def on_mount(self) -> None:
        self.call_after_refresh(self._make_filter_box)

    def _make_filter_box(self) -> None:
        if self.is_attached and self.filter_box is None:
            self.filter_input  # noqa: B018 (made and mounted, hidden until /)

    def set_loading(self, loading: bool = True) -> None:
        super().set_loading(loading)
        self.list.loading = False

    def on_input_changed(self, event: Input.Changed) -> None:
        box = self.filter_box
        if box is None or event.input is not box:
            return
        if event.value != box.value:  # overtaken by a later key: its own change follows
            event.stop()
            event.prevent_default()  # (not the base's, which filters every row again)
        elif event.value.lower().strip() == self.list.filter_text:  # the rows are filtered for it already
            event.stop()
            event.prevent_default()
            self._draw_status()
