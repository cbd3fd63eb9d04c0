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
from folio.tui.textual_private import dom_bindings
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
    ResourceBrowser.-typing > Input { border: tall $accent; }
    ResourceBrowser > .resource-browser--status { height: auto; max-height: 3; color: $text-muted; }
    ResourceBrowser > .resource-browser--status.-error { color: $error; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "start_filter", "Filter", id="list.filter", tooltip="Filter the rows as you type"),
        Binding(
            "escape",
            "clear_filter",
            "Clear filter",
            show=False,
            id="list.clear-filter",
            tooltip="Clear the filter (esc again goes back)",
        ),
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
        self._typing_ahead = False
        """`/` was pressed and its box has not the focus yet: keys typed meanwhile go into the box."""
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

    def on_resource_list_narrowed(self, event: ResourceList.Narrowed) -> None:
        event.stop()
        self.call_after_refresh(self._draw_header)  # (the rows are drawn in the new width: the header too)

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
            self.add_class("-filtering")  # the box shows the words the list is filtered by (esc clears them)
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
        """Show the filter box and type into it. The keys go on reaching the list, which hands them to the box
        (``on_key``): every key typed after `/`, however fast, lands in the box in order, never on the list or
        the screen's keys. Enter keeps the filter and gives the keys back; esc clears it. (A click in the box
        gives it the focus, like any input.)"""
        # Both classes first, and one restyle of the browser once the box is in (not one a class: each restyles
        # the browser and what it holds, on the key's way to its frame).
        self.add_class("-filtering", update=False)
        self._typing(True, update=False)
        box = self.filter_input
        box.can_focus = True
        self.update_node_styles()
        if self.list.loading and not box.has_focus and self.is_attached:
            # The list cannot have the focus while its first page loads (Textual's loading indicator covers it):
            # the box takes it now, not after the keys already typed behind this one (focus() would wait for
            # them), so they land in it, in order, and none reaches the screen or the app (a `q` would quit).
            self.screen.set_focus(box)
            self._typing(False)
        elif not self.list.has_focus and not box.has_focus:
            self.list.focus()

    def _typing(self, on: bool, *, update: bool = True) -> None:
        self._typing_ahead = on
        self.set_class(on, "-typing", update=update)

    def _starts_filter(self, key: str) -> bool:
        return any(b.action == "start_filter" for b in dom_bindings(self).key_to_bindings.get(key, ()))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter":  # esc with a filter typed clears it first; without one it goes back
            return bool(self.typed_filter or self.list.filter_text)
        return True

    def action_clear_filter(self) -> None:
        box = self._filter
        if box is not None:
            box.value = ""
            box.can_focus = False
        self._typing(False)
        self.list.filter("")
        self.remove_class("-filtering")
        self.list.focus()
        self._draw_status()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if event.widget is self._filter:  # clicked into: the box takes its own keys
            self._typing(False)

    def on_paste(self, event: events.Paste) -> None:
        box = self._filter
        if self._typing_ahead and box is not None and not box.has_focus:
            event.stop()
            self._type_into(box, " ".join(event.text.split()))

    def _type_into(self, box: Input, text: str) -> None:
        position = min(box.cursor_position, len(box.value))
        box.value = box.value[:position] + text + box.value[position:]
        box.cursor_position = position + len(text)
        self.list.filter(box.value)
        self._draw_status()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.list.filter(event.value)
        self._draw_status()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.list.want_focus()  # (once it has loaded, if it is still loading)

    def on_key(self, event: events.Key) -> None:
        box = self._filter
        if not self._filter_focused() and not self._typing_ahead and self._starts_filter(event.key):
            # Started here, not by the binding when the key reaches the app: the keys typed after it pass this
            # widget first, and must find the filter started.
            event.stop()
            event.prevent_default()
            self.action_start_filter()
            return
        if self._typing_ahead and box is not None and not box.has_focus and self._typed(box, event):
            event.stop()
            event.prevent_default()
            return
        if event.key == "escape" and self._filter_focused():
            event.stop()
            event.prevent_default()
            self.action_clear_filter()
        elif event.key in ("down", "up") and self._filter_focused():
            event.stop()
            self.list.focus()
            self.list.cursor += 1 if event.key == "down" else -1

    def _typed(self, box: Input, event: events.Key) -> bool:
        """A key while typing into the filter from the list: True when the filter took it."""
        key = event.key
        if event.is_printable and event.character:
            self._type_into(box, event.character)
        elif key == "backspace":
            position = min(box.cursor_position, len(box.value))
            if position:
                box.value = box.value[: position - 1] + box.value[position:]
                box.cursor_position = position - 1
                self.list.filter(box.value)
                self._draw_status()
        elif key in ("left", "right", "home", "end"):
            moves = {"left": -1, "right": 1, "home": -len(box.value), "end": len(box.value)}
            box.cursor_position = max(0, min(len(box.value), box.cursor_position + moves[key]))
        elif key == "enter":
            self._typing(False)  # the filter stays; keys act on the list again
        elif key == "escape":
            self.action_clear_filter()
        else:
            if key in ("up", "down", "pageup", "pagedown", "tab"):
                self._typing(False)  # the list's keys end the typing, and act
            return False
        return True

    def focus_list(self) -> None:
        self.list.want_focus()
