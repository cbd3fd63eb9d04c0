"""One page of a space, shown: its title and path, then its markdown (a document), what it holds (a group) or
where it points (a link, never opened). A line under the title says what is loading or what failed, while
the page shown before stays. A document may be shown at a section (a search hit's anchor): once its headings
are drawn, the one the anchor names is scrolled to the top."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Markdown, Static

from folio.models.common import Page
from folio.services.content.search import section_index
from folio.services.content.space import PageEntry
from folio.tui.clipboard import is_https
from folio.tui.safe import safe
from folio.tui.widgets.markdown_view import SafeMarkdown

__all__ = ["PageView"]

LAYOUT_TRIES = 20
"""How many frames a section waits for its heading to be laid out before it is given up (the page stays at
its top)."""


class PageView(Vertical):
    """Shows one page; ``page_id`` is the page shown (None before the first)."""

    DEFAULT_CSS = """
    PageView { height: 1fr; }
    PageView > .page-view--title { height: auto; max-height: 2; text-style: bold; color: $text-primary; }
    PageView > .page-view--status { height: auto; max-height: 3; color: $text-muted; display: none; }
    PageView > .page-view--status.-error { color: $text-error; }
    PageView > .page-view--note { height: auto; color: $text-muted; display: none; padding: 1 0; }
    PageView > VerticalScroll { height: 1fr; }
    PageView SafeMarkdown { margin: 0; padding: 0; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.page_id: str | None = None
        self.section: str | None = None
        """The anchor of the section the document shown is scrolled to (None: its top)."""

    def compose(self) -> ComposeResult:
        yield Static(Content("Choose a page: enter or space shows it."), classes="page-view--title")
        yield Static(classes="page-view--status")
        yield Static(classes="page-view--note")
        with VerticalScroll(classes="page-view--scroll"):
            yield SafeMarkdown(classes="page-view--markdown")

    @property
    def markdown(self) -> SafeMarkdown:
        return self.query_one(SafeMarkdown)

    @property
    def scroller(self) -> VerticalScroll:
        return self.query_one(".page-view--scroll", VerticalScroll)

    def _title(self, page: Page, kind: str) -> None:
        title = safe(page.title or page.id, limit=120).plain
        where = safe(page.path, limit=120).plain if page.path else ""
        text = f"{title}  ·  /{where}" if where else title
        if kind != "document":
            text = f"{text}  ·  {kind}"
        self.query_one(".page-view--title", Static).update(Content(text))

    def _note(self, text: str | None) -> None:
        note = self.query_one(".page-view--note", Static)
        note.update(Content(text or ""))
        note.display = bool(text)
        self.scroller.display = not text

    def set_status(self, message: Content | None, *, error: bool = False) -> None:
        """Say what is loading or what failed (None clears it); what is shown stays."""
        status = self.query_one(".page-view--status", Static)
        status.update(message or Content(""))
        status.display = message is not None
        status.set_class(error, "-error")

    def show_entry(self, entry: PageEntry) -> bool:
        """Show a group or link page at once; False for a document, whose markdown the caller reads first."""
        if entry.kind == "group":
            self.show_group(entry.page)
        elif entry.kind == "link":
            self.show_link(entry.page)
        else:
            return False
        return True

    def show_document(self, page: Page, markdown: str, *, section: str | None = None) -> None:
        """Show a document, at its top or at the heading of ``section`` (an anchor) once that is drawn."""
        self.page_id = page.id
        self.section = section
        self._title(page, "document")
        self.set_status(None)
        self._note(None if markdown.strip() else "This page is empty.")
        self.markdown.show(markdown)
        self.scroller.scroll_home(animate=False)

    def on_markdown_table_of_contents_updated(self, event: Markdown.TableOfContentsUpdated) -> None:
        """A document's headings are drawn: scroll to the wanted section's. (A document replaced before its
        headings were drawn finds its headings gone, and the next one's update scrolls.)"""
        event.stop()
        anchor, contents = self.section, event.table_of_contents
        if anchor is None or event.markdown is not self.markdown:
            return
        index = section_index((title for _, title, _ in contents), anchor)
        if index is None:
            return
        heading = self.markdown.query(f"#{contents[index][2]}")
        if heading:
            self.call_after_refresh(self._to_top, heading.first(), anchor)

    def _to_top(self, heading: Widget, anchor: str, tries: int = LAYOUT_TRIES) -> None:
        """Scroll ``heading`` to the top once it has a place on screen (a page shown as its screen opens is
        laid out a frame or two after its headings are mounted)."""
        if not heading.is_attached or self.section != anchor:
            return  # another page, or the same page shown again: its own update scrolls
        if heading.region.height == 0 and tries > 0:
            self.call_after_refresh(self._to_top, heading, anchor, tries - 1)
            return
        scroller = self.scroller  # the heading's own line at the top, not the blank margin above it
        scroller.scroll_to(y=scroller.scroll_y + heading.region.y - scroller.content_region.y, animate=False)

    def show_group(self, page: Page) -> None:
        self.page_id = page.id
        self._title(page, "group")
        self.set_status(None)
        self._note(_group_text(page.pages))

    def show_link(self, page: Page) -> None:
        self.page_id = page.id
        self._title(page, "link")
        self.set_status(None)
        href = safe(page.href, limit=300).plain if page.href else ""
        if not href:
            self._note("A link page with no target.")
            return
        copy = "Y copies it." if is_https(href) else "It is not https, so it is not copied."
        self._note(f"A link page. It points to:\n\n  {href}\n\nFolio does not open links. {copy}")


def _group_text(children: Sequence[Page]) -> str:
    if not children:
        return "A group page: it holds no pages yet."
    names = [safe(p.title or p.id, limit=80).plain for p in children[:20]]
    more = len(children) - len(names)
    lines = "\n".join(f"  • {name}" for name in names)
    tail = f"\n  … and {more} more" if more > 0 else ""
    noun = "page" if len(children) == 1 else "pages"
    return f"A group page: it has no text of its own and holds {len(children)} {noun}:\n\n{lines}{tail}"
