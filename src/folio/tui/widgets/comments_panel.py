"""The Comments tab of a space or a change request: a widget other screens embed.

Comments are grouped by page, then by the block they target, one row each (first line of the body, author,
age, replies, reactions, status). ``f`` cycles open / resolved / all (filtered here, no new request), enter
opens the thread, ``c`` comments on a page picked from the content's pages (the cursor starts on the page of
the highlighted row), ``x`` resolves or reopens, ``r`` reloads. Everything loads in workers of the widget, the
first time the panel is shown (a tab never opened costs nothing).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from folio.models.comment import Comment
from folio.services.comments import (
    STATUSES,
    CommentList,
    PageChoice,
    Queued,
    Status,
    age,
    first_line,
    may,
    plain_markdown,
)
from folio.services.comments import reactions_summary as summary
from folio.tui.errors import error_message, notify_error
from folio.tui.fresh import cache_first
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.navigation import Open
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row

if TYPE_CHECKING:
    from folio.services import Services

__all__ = ["CommentsPanel", "PagePickerModal"]

COLUMNS = [
    Column("body", "Comment"),
    Column("author", "Author", 16),
    Column("age", "Age", 4, align="right"),
    Column("replies", "Re", 3, align="right"),
    Column("reactions", "Reactions", 10),
    Column("status", "Status", 8),
]
WHOLE = ""
"""The page id of the picker's first row: the whole space or change request."""


def block_under(row: Row | None) -> str | None:
    """The block (node id) the highlighted row stands for: a block's header row, or a comment on a block."""
    if row is None:
        return None
    if row.key.startswith("block:"):
        return row.key.removeprefix("block:")
    if isinstance(row.data, Comment) and row.data.target.node is not None:
        return row.data.target.node.id
    return None


class PagePickerModal(ModalScreen[PageChoice | None]):
    """Pick the page a new comment goes on (or the whole space / change request); ``/`` filters."""

    DEFAULT_CSS = """
    PagePickerModal { align: center middle; }
    PagePickerModal > Vertical { width: 70; max-width: 98%; height: 80%; border: thick $accent; padding: 0 1;
                                 background: $surface; }
    PagePickerModal .picker--title { text-style: bold; padding: 1 0 0 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="page-picker.cancel", tooltip="Close without picking"),
    ]

    def __init__(self, pages: list[PageChoice], *, whole: str, current: str | None = None) -> None:
        super().__init__()
        self.choices = [PageChoice(WHOLE, whole), *pages]
        self.current = current or WHOLE

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                Content("Comment on which page? (enter picks, / filters, esc cancels)"), classes="picker--title"
            )
            yield ResourceBrowser([Column("page", "Page")], empty="This content has no pages.")

    def on_mount(self) -> None:
        browser = self.query_one(ResourceBrowser)
        rows = [Row(p.id, [safe(p.title, limit=120)], indent=p.depth, data=p) for p in self.choices]
        browser.set_rows(rows, keep=self.current)
        browser.focus_list()

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        self.dismiss(event.row.data if isinstance(event.row.data, PageChoice) else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class CommentsPanel(Widget):
    """``CommentsPanel(services, space_id, change_request=None)``: the comments of a space or a change
    request (its id or number). Posts :class:`CommentsPanel.Counted` after each load."""

    DEFAULT_CSS = """
    CommentsPanel { height: 1fr; }
    CommentsPanel > #comments-summary { height: 1; color: $text-muted; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "f",
            "cycle_filter",
            "Open/resolved/all",
            id="comments.filter",
            tooltip="Show open, resolved or all comments",
        ),
        Binding("c", "new_comment", "Comment", id="comments.new", tooltip="Comment on a page of this content"),
        Binding(
            "x",
            "toggle_resolved",
            "Resolve/reopen",
            id="comments.resolve",
            tooltip="Resolve the highlighted comment, or reopen it",
        ),
        Binding("r", "reload", "Refresh", id="comments.refresh", tooltip="Load the comments again"),
    ]

    @dataclass
    class Counted(Message):
        """The comments were (re)loaded: how many are open and resolved (for a tab's label)."""

        panel: CommentsPanel
        open: int
        resolved: int

        @property
        def control(self) -> CommentsPanel:
            return self.panel

    def __init__(
        self,
        services: Services,
        space_id: str,
        *,
        change_request: str | int | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.services = services
        self.space_id = space_id
        self.change_request = change_request
        self.status: Status = "open"
        self.listing: CommentList | None = None
        self._seen: int | None = None
        """The version of this space's comments when a thread was opened from here (``services.changes``)."""
        self._started = False

    def compose(self) -> ComposeResult:
        yield Static(id="comments-summary")
        yield ResourceBrowser(COLUMNS, empty="Loading…", id="comments-list")

    @property
    def browser(self) -> ResourceBrowser:
        return self.query_one("#comments-list", ResourceBrowser)

    @property
    def highlighted(self) -> Comment | None:
        row = self.browser.list.highlighted
        return row.data if row is not None and isinstance(row.data, Comment) else None

    def current_item(self) -> Item | None:
        """The highlighted comment, for the host screen's o / y / Y."""
        comment = self.highlighted
        if comment is None:
            return None
        return Item(comment.id, (comment.urls.app or comment.urls.location) if comment.urls else None, "comment")

    def on_mount(self) -> None:
        self.app.screen_change_signal.subscribe(self, self._screen_changed)

    def on_show(self) -> None:
        # Loaded when first shown, not when mounted: a host's tab that is never opened costs no request.
        if not self._started:
            self._started = True
            self.load()
        self.call_after_refresh(self._unhide_focus)

    def _unhide_focus(self) -> None:
        # The screen's first focus can land on the browser's hidden filter input; the list is what is meant.
        focused = self.screen.focused
        if focused is None or (focused is self.browser.filter_box and not self.browser.has_class("-filtering")):
            self.browser.focus_list()

    def _screen_changed(self, screen: Screen[object]) -> None:
        """Back on the host screen from a thread opened here: reload if the thread wrote something."""
        if screen is not self.screen or self._seen is None:
            return
        seen, self._seen = self._seen, None
        if self.services.changes.version(("comments", self.space_id)) != seen:
            self.load()

    # -- loading -------------------------------------------------------------------------------------------

    @work(exclusive=True, group="comments-panel-load", exit_on_error=False)
    @cache_first
    async def load(self) -> None:
        """Read the comments and pages, show them, then look up the text of the commented blocks."""
        comments = self.services.comments
        self._started = True
        self.browser.set_loading(True)
        try:
            listing = await comments.load(self.space_id, change_request=self.change_request)
        except Exception as exc:
            self.browser.set_error(error_message(exc, doing="Could not load the comments", hint="Press r to retry."))
            return
        self.listing = listing
        self.browser.set_loading(False)
        self._show()
        self._unhide_focus()
        self.post_message(self.Counted(self, listing.count("open"), listing.count("resolved")))
        try:
            listing.block_texts = await comments.block_texts(
                self.space_id, listing.comments, change_request=self.change_request
            )
        except Exception:  # the node ids stay shown: the list is already useful
            return
        if listing.block_texts:
            self._show()

    def _show(self) -> None:
        listing = self.listing
        if listing is None:
            return
        shown, total = listing.count(self.status), listing.count("all")
        where = "change request" if self.change_request is not None else "space"
        self.query_one("#comments-summary", Static).update(
            Content(
                f"{listing.count('open')} open · {listing.count('resolved')} resolved · "
                f"showing {self.status} ({shown} of {total}) · f changes"
            )
        )
        self.browser.empty = (
            f"No comments in this {where} yet. Press c to comment on a page."
            if total == 0
            else f"No {self.status} comments. Press f to show the others, c to comment."
        )
        rows = self._rows(listing)
        current = self.browser.list.highlighted
        keep = current.key if current is not None and any(r.key == current.key for r in rows) else None
        if keep is None:  # the highlighted comment is filtered out: the first comment shown
            keep = next((r.key for r in rows if isinstance(r.data, Comment)), None)
        self.browser.set_rows(rows, keep=keep)

    def _rows(self, listing: CommentList) -> list[Row]:
        now = self.services.comments.clock()
        rows: list[Row] = []
        for group in listing.groups(self.status):
            title = safe(group.title, limit=120).plain
            rows.append(
                Row(
                    f"page:{group.page_id or WHOLE}",
                    [f"{title} ({group.count})"],
                    style="bold",
                    data=group.page_id or WHOLE,
                )
            )
            for block in group.blocks:
                depth = 1
                if block.node_id is not None:
                    rows.append(
                        Row(
                            f"block:{block.node_id}",
                            [safe(block.label, limit=120).plain],
                            indent=1,
                            style="italic",
                            data=group.page_id or WHOLE,
                        )
                    )
                    depth = 2
                for c in block.comments:
                    author = c.posted_by.display_name or c.posted_by.id if c.posted_by else "—"
                    cells: list[Content | str] = [
                        safe(first_line(plain_markdown(c.text)) or "(no text)", limit=200),
                        safe(author, limit=60),
                        age(c.posted_at, now),
                        str(c.replies) if c.replies else "",
                        safe(summary(c.reactions), limit=60),
                        "resolved" if c.resolved else safe(c.status, limit=20),
                    ]
                    rows.append(Row(c.id, cells, indent=depth, style="dim" if c.resolved else "", data=c))
        return rows

    # -- opening -------------------------------------------------------------------------------------------

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        if not isinstance(event.row.data, Comment):
            return
        event.stop()
        self._seen = self.services.changes.version(("comments", self.space_id))
        ids = {"space_id": self.space_id, "comment_id": event.row.data.id, "change_request": self.change_request}
        self.post_message(Open("thread", ids))

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        self.refresh_bindings()

    # -- actions -------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "toggle_resolved":
            comment = self.highlighted
            return None if comment is None or not may(comment, "reply") else True
        if action == "new_comment":
            return None if self.listing is None else True
        return True

    def action_reload(self) -> None:
        self.load()

    def action_cycle_filter(self) -> None:
        self.status = STATUSES[(STATUSES.index(self.status) + 1) % len(STATUSES)]
        self._show()

    def action_toggle_resolved(self) -> None:
        comment = self.highlighted
        if comment is not None:
            self._set_resolved(comment, not comment.resolved)

    @work(exclusive=True, group="comments-panel-resolve", exit_on_error=False)
    async def _set_resolved(self, comment: Comment, resolved: bool) -> None:
        verb = "resolve" if resolved else "reopen"
        try:
            result = await self.services.comments.set_resolved(
                self.space_id, comment.id, resolved, change_request=self.change_request
            )
        except Exception as exc:
            notify_error(self, exc, doing=f"Could not {verb} the comment")
            return
        if isinstance(result, Queued):
            self.notify(Queued.message, markup=False)
            return
        self.notify(f"Comment {verb}{'d' if resolved else 'ed'}: {first_line(comment.text, 60)}", markup=False)
        self.load()

    def action_new_comment(self) -> None:
        if self.listing is not None:
            self._new_comment(self.listing)

    @work(exclusive=True, group="comments-panel-new", exit_on_error=False)
    async def _new_comment(self, listing: CommentList) -> None:
        row = self.browser.list.highlighted
        current = row.data.page_id if row is not None and isinstance(row.data, Comment) else None
        if row is not None and isinstance(row.data, str):
            current = row.data or None
        # On a block (its header row, or a comment on it) the new comment goes on that block; elsewhere the
        # user picks the page.
        node = block_under(row)
        if node is not None and current is not None:
            target: str | None = current
            title = f"this block of {safe(listing.page_title(current), limit=60).plain}"
        else:
            node = None
            whole = "The whole change request" if self.change_request is not None else "The whole space"
            page = await self.app.push_screen_wait(PagePickerModal(listing.pages, whole=whole, current=current))
            if page is None:
                return
            target = None if page.id == WHOLE else page.id
            title = safe(page.title, limit=80).plain

        queued: list[Queued] = []

        async def send(text: str) -> None:
            posted = await self.services.comments.create(
                self.space_id,
                text,
                change_request=self.change_request,
                page=target,
                node=node,
                where=f"a comment on {title}",
            )
            if isinstance(posted, Queued):
                queued.append(posted)

        began = time.time()

        async def find(text: str) -> object | None:
            return await self.services.comments.find_comment(
                self.space_id, text, change_request=self.change_request, page=target, node=node, since=began
            )

        modal = TextEntryModal(
            f"New comment on {title}",
            send,
            find_sent=find,
            send_label="Post",
            draft=f"comment:{self.space_id}/{self.change_request or '-'}/{target or '-'}/{node or '-'}",
            where=f"a new comment on {title}",
        )
        sent = await self.app.push_screen_wait(modal)
        if sent is None:
            return
        if queued:
            self.notify(Queued.message, markup=False)
            return
        self.notify(f"Comment posted on {title}", markup=False)
        self.status = "open" if self.status == "resolved" else self.status
        self.load()
