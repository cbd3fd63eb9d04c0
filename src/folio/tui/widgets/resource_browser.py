"""A :class:`~folio.tui.widgets.resource_list.ResourceList` with its column header, a `/` filter (esc clears it
first) and a status line in words: what is loading, what failed, or that the list is empty."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Static

from folio.tui import fresh
from folio.tui.widgets.resource_list import ResourceList
from folio.tui.widgets.rows import Column, Row, render_cells

__all__ = ["ResourceBrowser"]


class ResourceBrowser(Vertical):
    """A ResourceList with its header, a `/` filter (esc clears it) and a status line in words."""

    DEFAULT_CSS = """
    ResourceBrowser { height: 1fr; }
    ResourceBrowser > .resource-browser--header { height: 1; color: $text-muted; text-style: bold; }
    ResourceBrowser > Input { display: none; height: 3; }
    ResourceBrowser.-filtering > Input { display: block; }
    ResourceBrowser > .resource-browser--status { height: auto; max-height: 3; color: $text-muted; }
    ResourceBrowser > .resource-browser--status.-error { color: $error; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "start_filter", "Filter", id="list.filter", tooltip="Filter the rows as you type"),
    ]

    def __init__(
        self,
        columns: Sequence[Column],
        *,
        empty: str = "Nothing here yet.",
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.columns = list(columns)
        self.empty = empty
        self._status: Content | None = None
        self._list = ResourceList(self.columns)
        self._header = Static(classes="resource-browser--header")
        self._status_line = Static(classes="resource-browser--status")
        self._filter: Input | None = None
        self._header_width = -1
        self._status_shown: tuple[str, tuple[object, ...]] | None = None

    def compose(self) -> ComposeResult:
        # The status is in words from the start; the header, which needs the list's width, is drawn on resize.
        # (No on_mount work: the browser is mounted, and filled, before the screen's next frame.)
        self._draw_status()
        if self._filter is not None:
            yield self._filter
        yield self._header
        yield self._list
        yield self._status_line

    @property
    def list(self) -> ResourceList:
        return self._list

    @property
    def filter_box(self) -> Input | None:
        """The `/` filter box if it was made (reading it does not make it, unlike :attr:`filter_input`)."""
        return self._filter

    @property
    def typed_filter(self) -> str:
        """The text typed in the filter box, as typed ("" when the box was never made)."""
        return self._filter.value if self._filter is not None else ""

    @property
    def filter_input(self) -> Input:
        """The `/` filter box. It is made the first time it is needed (`/`, a restored filter), not with the list:
        most lists are never filtered, and the box is a good part of what mounting a list costs."""
        if self._filter is None:
            box = Input(placeholder="Filter: type to narrow, esc to clear", classes="resource-browser--filter")
            # The filter box takes focus only while filtering: hidden, it must not catch the screen's first focus.
            box.can_focus = False
            self._filter = box
            if self.is_mounted and self.is_attached:
                self.mount(box, before=0)
        return self._filter

    def _filter_focused(self) -> bool:
        return self._filter is not None and self._filter.has_focus

    def on_resize(self, event: events.Resize) -> None:
        # After the refresh: a browser in a tab hidden at mount learns the list's width only then.
        self.call_after_refresh(self._draw_header)

    def _draw_header(self) -> None:
        width = max(1, self._list.scrollable_content_region.width or self.size.width)
        if width == self._header_width:
            return  # the same header: nothing to repaint
        self._header_width = width
        # One line high (the CSS above): a new header needs no layout.
        self._header.update(render_cells(self.columns, [c.label for c in self.columns], width), layout=False)

    # -- data ---------------------------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        """False once the browser is being taken down (a load that ends after its screen closed has nowhere to
        put its rows)."""
        return self.is_attached and bool(self.query(ResourceList))

    def restore(self, cursor: str | None, query: str) -> None:
        """Put back a saved filter now and the cursor on row ``cursor`` as soon as that row is loaded."""
        self._pending_cursor = cursor
        if query:
            self.filter_input.value = query
            self.list.filter(query)
        self._apply_pending()

    def _apply_pending(self) -> None:
        key = getattr(self, "_pending_cursor", None)
        if key is not None and self.list.move_to(key):
            self._pending_cursor = None

    def set_rows(self, rows: Iterable[Row], *, keep: str | None = None, staged: bool = True) -> None:
        """Replace the rows. While fresh data replaces a paint from cache (``folio.tui.fresh``), the rows are
        kept until the whole list is in, then swapped at once: the cursor and the filter stay."""
        if not self.alive:
            return  # the screen was left while this list loaded
        revalidation = fresh.staged() if staged else None
        if revalidation is not None:
            revalidation.stage(self, list(rows), replace=True)
            return
        self.list.set_rows(rows, keep=keep)
        self.list.loading = False
        self._apply_pending()
        self._draw_status()

    def append_rows(self, rows: Iterable[Row]) -> None:
        if not self.alive:
            return  # the screen was left while this list loaded
        revalidation = fresh.staged()
        if revalidation is not None:
            revalidation.stage(self, list(rows), replace=False)
            return
        self.list.append_rows(rows)
        self._apply_pending()
        self.list.loading = False
        self._draw_status()

    def set_loading(self, loading: bool = True) -> None:
        """Show the loading indicator while the first page loads (rows already shown stay)."""
        if not self.alive:
            return  # the screen was left while this list loaded
        self.list.loading = loading and not self.list.rows
        self._status = Content("Loading…") if loading else None
        self._status_line.remove_class("-error")
        self._draw_status()

    def set_error(self, message: Content | None) -> None:
        """Say what failed (None clears it); rows already shown stay."""
        if not self.alive:
            return  # the screen was left while this list loaded
        self.list.loading = False
        self._status = message
        self._status_line.set_class(message is not None, "-error")
        self._draw_status()

    def _draw_status(self) -> None:
        lst = self._list
        if self._status is not None:
            self._show_status(self._status)
            return
        shown, total = lst.visible_count, len(lst.rows)
        if total == 0:
            self._show_status(Content(self.empty))
        elif shown == 0:
            query = self._filter.value if self._filter is not None else lst.filter_text
            self._show_status(Content(f"No row matches “{query}” (esc clears the filter)."))
        elif shown < total:
            self._show_status(Content(f"{shown} of {total} shown"))
        else:
            self._show_status(Content(f"{total} {'row' if total == 1 else 'rows'}"))

    def _show_status(self, content: Content) -> None:
        status = self._status_line
        shown = (content.plain, tuple(content.spans))
        if shown == self._status_shown:
            return  # the same words: nothing to repaint
        self._status_shown = shown
        # Words that fit on the one line the status already has change no size: no layout, so no extra frame.
        fits = (
            status.size.height == 1 and "\n" not in content.plain and content.cell_length <= status.content_region.width
        )
        status.update(content, layout=not fits)

    # -- filter -----------------------------------------------------------------------------------------------

    def action_start_filter(self) -> None:
        self.add_class("-filtering")
        box = self.filter_input
        box.can_focus = True
        box.focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.list.filter(event.value)
        self._draw_status()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.list.focus()

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape" and self._filter_focused():
            event.stop()
            event.prevent_default()
            self.filter_input.value = ""
            self.list.filter("")
            self.remove_class("-filtering")
            self.list.focus()
            self.filter_input.can_focus = False
            self._draw_status()
        elif event.key in ("down", "up") and self._filter_focused():
            event.stop()
            self.list.focus()
            self.list.cursor += 1 if event.key == "down" else -1

    def focus_list(self) -> None:
        self.list.focus()
