"""Markdown from the service, shown safely: escape sequences and controls removed first (``safe``), links never
launched — an https link is copied and shown, anything else is only shown."""

from __future__ import annotations

from textual.widgets import Markdown

from folio.tui.safe import safe

__all__ = ["MAX_MARKDOWN", "SafeMarkdown", "sanitize_markdown"]

MAX_MARKDOWN = 200_000
"""A page longer than this is cut (with a note): no screen may take long to render."""


def sanitize_markdown(text: str | None) -> str:
    cleaned = safe(text or "", limit=MAX_MARKDOWN, multiline=True).plain
    if text and len(text) > MAX_MARKDOWN:
        cleaned += "\n\n*(The rest of this page is too long to show here.)*"
    return cleaned


class SafeMarkdown(Markdown):
    def __init__(self, markdown: str | None = None, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(sanitize_markdown(markdown), id=id, classes=classes, open_links=False)

    def show(self, markdown: str | None) -> None:
        """Replace what is shown (sanitized)."""
        self.update(sanitize_markdown(markdown))

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        href = safe(event.href, limit=500).plain
        if href.startswith("https://"):
            self.app.copy_to_clipboard(href)
            self.notify(f"Copied link: {href}", markup=False)
        else:
            self.notify(f"Link not opened: {href}", markup=False)
