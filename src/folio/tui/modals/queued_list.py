"""A modal list of writes that wait on this machine: the outbox (``modals/outbox.py``) and a pending review's held
comments (``modals/pending_review.py``).

    class OutboxModal(QueuedListModal):
        PART = "outbox"                      # its parts' classes: outbox--status, outbox--detail, …
        COLUMNS = (...)
        HELP = "j/k move · s sends now · …"
        def heading(self) -> Content: ...
        def _show(self) -> None: ...         # set_rows on self.list, then self.show_status(...) and self.draw_detail()
        def detail(self) -> Content: ...     # what is shown below the list for the highlighted row

Above the list, a title and a status line; then the columns' header (drawn again when the width changes); below,
the highlighted row's detail and a line of keys. A subclass binds ``esc`` to ``close`` (with its own binding id).
Each part carries a shared class (``queued--status``) styled here and the subclass's own (``outbox--status``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from folio.tui.widgets.resource_list import Column, ResourceList, render_cells

__all__ = ["QueuedListModal"]


class QueuedListModal(ModalScreen[None]):
    """A list of queued writes with its status and detail (see the module docstring)."""

    DEFAULT_CSS = """
    QueuedListModal { align: center middle; }
    QueuedListModal > Vertical { width: 100; max-width: 98%; height: 80%; border: thick $accent; padding: 0 1;
                                 background: $surface; }
    QueuedListModal .queued--title { text-style: bold; padding: 1 0 0 0; }
    QueuedListModal .queued--status { height: auto; color: $text-muted; }
    QueuedListModal .queued--header { height: 1; color: $text-muted; text-style: bold; }
    QueuedListModal ResourceList { height: 1fr; min-height: 3; }
    QueuedListModal .queued--detail { height: auto; max-height: 8; border-top: solid $panel; }
    QueuedListModal .queued--help { height: 1; color: $text-muted; }
    """
    PART: ClassVar[str] = "queued"
    """The prefix of this list's own classes (``outbox`` gives ``outbox--status``…) and of its list's id."""
    COLUMNS: ClassVar[Sequence[Column]] = ()
    HELP: ClassVar[str] = ""
    """The line of keys below the list."""

    def heading(self) -> Content:
        """The title above the list."""
        return Content("")

    def detail(self) -> Content:
        """What is shown below the list for the highlighted row (subclasses say)."""
        return Content("")

    def _show(self) -> None:
        """Fill the list and the status line (subclasses)."""

    def _part_classes(self, part: str) -> str:
        return f"queued--{part} {self.PART}--{part}"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.heading(), classes=self._part_classes("title"))
            yield Static(classes=self._part_classes("status"))
            yield Static(classes=self._part_classes("header"))
            yield ResourceList(self.COLUMNS, id=f"{self.PART}-list")
            yield Static(classes=self._part_classes("detail"))
            yield Static(Content(self.HELP), classes=self._part_classes("help"))

    @property
    def list(self) -> ResourceList:
        return self.query_one(f"#{self.PART}-list", ResourceList)

    def on_mount(self) -> None:
        self._show()
        self.list.focus()

    def on_resize(self) -> None:
        self.call_after_refresh(self._draw_header)

    def _draw_header(self) -> None:
        width = max(1, self.list.scrollable_content_region.width or self.list.size.width)
        labels = [c.label for c in self.COLUMNS]
        self.query_one(".queued--header", Static).update(render_cells(self.COLUMNS, labels, width))

    def show_status(self, text: str) -> None:
        """The status line, then the header, the detail and the keys drawn again (after the rows changed)."""
        self.query_one(".queued--status", Static).update(Content(text))
        self._draw_header()
        self.draw_detail()
        self.refresh_bindings()

    def draw_detail(self) -> None:
        self.query_one(".queued--detail", Static).update(self.detail())

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        event.stop()
        self.draw_detail()
        self.refresh_bindings()

    def action_close(self) -> None:
        self.dismiss(None)
