"""Pick the page a new comment goes on, or the whole space / change request (the first row); ``/`` filters.

page = await app.push_screen_wait(PagePickerModal(listing.pages, whole="The whole space", current=page_id))

In a change request (``changed``: page id -> what happened to it), the pages it changes come first, marked with
what happened (``• edited``), then the other pages in the content's order.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from folio.services.review.comments import PageChoice
from folio.tui.safe import safe
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row

__all__ = ["WHOLE", "PagePickerModal"]

WHOLE = ""
"""The page id of the picker's first row: the whole space or change request."""


class PagePickerModal(ModalScreen[PageChoice | None]):
    """Pick the page a new comment goes on (or the whole space / change request); ``/`` filters."""

    DEFAULT_CSS = """
    PagePickerModal { align: center middle; }
    PagePickerModal > Vertical { width: 70; max-width: 98%; height: 80%; border: thick $accent; padding: 0 1;
                                 background: $surface; }
    PagePickerModal .picker--title { text-style: bold; padding: 1 0 0 0; }
    PagePickerModal .picker--hint { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="page-picker.cancel", tooltip="Close without picking"),
    ]

    def __init__(
        self,
        pages: list[PageChoice],
        *,
        whole: str,
        current: str | None = None,
        changed: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.changed = {page: words for page, words in (changed or {}).items() if any(p.id == page for p in pages)}
        first = [p for p in pages if p.id in self.changed]
        rest = [p for p in pages if p.id not in self.changed]
        self.choices = [PageChoice(WHOLE, whole), *first, *rest]
        self.current = current or WHOLE

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                Content("Comment on which page? (enter picks, / filters, esc cancels)"), classes="picker--title"
            )
            if self.changed:
                count = len(self.changed)
                yield Static(
                    Content(f"The {count} page{'s' * (count != 1)} this change request changes come first (\u2022)."),
                    classes="picker--hint",
                )
            columns = [Column("change", "Change", width=10), Column("page", "Page")] if self.changed else []
            yield ResourceBrowser(columns or [Column("page", "Page")], empty="This content has no pages.")

    def on_mount(self) -> None:
        browser = self.query_one(ResourceBrowser)
        rows = [self._row(p) for p in self.choices]
        browser.set_rows(rows, keep=self.current)
        browser.focus_list()

    def _row(self, page: PageChoice) -> Row:
        title = safe(page.title, limit=120)
        if not self.changed:
            return Row(page.id, [title], indent=page.depth, data=page)
        words = self.changed.get(page.id)
        mark = f"\u2022 {words}" if words else ""
        # Changed pages are listed apart from their place in the tree: flat; the others keep their indent.
        return Row(page.id, [mark, title], indent=0 if words or page.id == WHOLE else page.depth, data=page)

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        self.dismiss(event.row.data if isinstance(event.row.data, PageChoice) else None)

    def action_cancel(self) -> None:
        self.dismiss(None)
