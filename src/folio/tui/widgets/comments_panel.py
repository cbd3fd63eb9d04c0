"""The Comments tab of a space or a change request: a :class:`ResourcePanel` other screens embed.

Comments are grouped by page, then by the block they target, one row each (first line of the body, author,
age, replies, reactions, status). ``f`` cycles open / resolved / all (filtered here, no new request), enter
opens the thread, ``c`` comments on a page picked from the content's pages (the cursor starts on the page of
the highlighted row), ``x`` resolves (on a resolved comment: reopens), ``r`` reloads. It loads the first time it
is shown (a tab never opened costs nothing), and again when it is back in view after a write changed its comments
or its content's pages (``services.changes``: a reply in a thread, a merge).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message

from folio.models.comment import Comment
from folio.services.errors import ServiceError
from folio.services.review.comments import (
    STATUSES,
    CommentList,
    Queued,
    Status,
    age,
    first_line,
    may,
    plain_markdown,
)
from folio.services.review.comments import reactions_summary as summary
from folio.tui.errors import notify_error
from folio.tui.modals.page_picker import WHOLE, PagePickerModal
from folio.tui.modals.reaction import shown
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.navigation import Ids
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.widgets.diff_comment import BlockCommentModal, Target
from folio.tui.widgets.focus_hold import HoldsFocus
from folio.tui.widgets.resource_list import Column, ResourceList, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from folio.services import Services
    from folio.services.review.detached import Detached

__all__ = ["BlockHead", "CommentsPanel", "PageHead", "PagePickerModal"]

COLUMNS = [
    Column("body", "Comment"),
    Column("author", "Author", 14),
    Column("age", "Age", 10, align="right"),
    Column("replies", "Re", 3, align="right"),
    Column("reactions", "Reactions", 10),
    Column("status", "Status", 8),
]
UNKNOWN_BLOCK = "¶ A block of this page"
"""A commented block whose text is not (or no longer) in its page: said in words, never by its node id."""


@dataclass(frozen=True)
class PageHead:
    """The row above a page's comments (``page_id`` :data:`WHOLE`: the whole space or change request)."""

    page_id: str
    title: str
    count: int


@dataclass(frozen=True)
class BlockHead:
    """The row above the comments on one block of a page: the block's first words when they are known."""

    page_id: str
    node_id: str
    label: str


Entry = PageHead | BlockHead | Comment
"""One row of the panel."""


def block_under(row: Row | None) -> str | None:
    """The block (node id) the highlighted row stands for: a block's header row, or a comment on a block."""
    if row is None:
        return None
    if isinstance(row.data, BlockHead):
        return row.data.node_id
    if isinstance(row.data, Comment) and row.data.target.node is not None:
        return row.data.target.node.id
    return None


def page_under(row: Row | None) -> str | None:
    """The page the highlighted row belongs to (None: the whole content, or no row)."""
    data = row.data if row is not None else None
    if isinstance(data, Comment):
        return data.page_id
    if isinstance(data, PageHead | BlockHead):
        return data.page_id or None
    return None


def entries(listing: CommentList, status: Status, detached: dict[str, Detached] | None = None) -> list[Entry]:
    """The rows of ``listing`` shown for ``status``: each page's header, its blocks' headers, the comments. A
    block that is gone from its page (``detached``, by comment id) says so, with its text as it was."""
    out: list[Entry] = []
    for group in listing.groups(status):
        out.append(PageHead(group.page_id or WHOLE, group.title, group.count))
        for block in group.blocks:
            if block.node_id is not None:
                label = block.label if block.text else UNKNOWN_BLOCK
                gone = next((detached[c.id] for c in block.comments if detached and c.id in detached), None)
                label = gone.label() if gone is not None else label
                out.append(BlockHead(group.page_id or WHOLE, block.node_id, label))
            out.extend(block.comments)
    return out


class CommentsPanel(ResourcePanel[Entry], HoldsFocus):
    """``CommentsPanel(services, space_id, change_request=None)``: the comments of a space or a change
    request (its id or number). Posts :class:`CommentsPanel.Counted` after each load."""

    COLUMNS = COLUMNS
    NOUN = "comment"
    FAILED = "Could not load the comments"
    ROUTE = "thread"
    LOAD_ON_SHOW = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "f", "cycle_filter", "Open/all", id="comments.filter", tooltip="Show the open, resolved or all comments"
        ),
        Binding("c", "new_comment", "Comment", id="comments.new", tooltip="Comment on a page of this content"),
        # One key, two bindings: the footer says what x does to the highlighted comment (check_action hides one).
        Binding("x", "resolve", "Resolve", id="comments.resolve", tooltip="Resolve the highlighted comment"),
        Binding("x", "reopen", "Reopen", id="comments.reopen", tooltip="Reopen the highlighted resolved comment"),
        Binding("r", "reload", "Refresh", show=False, id="comments.refresh", tooltip="Load the comments again"),
    ]

    @dataclass
    class Counted(Message):
        """The comments were (re)loaded: how many are open and resolved (for a tab's label, a summary)."""

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
        super().__init__(services, id=id, classes=classes)
        self.space_id = space_id
        self.change_request = change_request
        self.status: Status = "open"
        self.listing: CommentList | None = None
        self.detached: dict[str, Detached] = {}
        """The comments whose block is gone from their page (by comment id), found after each load."""
        self._cursor_on: str | None = None

    # -- what it shows -------------------------------------------------------------------------------------------

    def held_list(self) -> ResourceList:
        return self.browser.list

    def topics(self) -> tuple[Hashable, ...]:
        return (("comments", self.space_id), ("pages", self.space_id))

    async def fetch(self) -> AsyncIterator[Sequence[Entry]]:
        listing = await self.services.comments.load(self.space_id, change_request=self.change_request)
        if self.listing is not None:  # the blocks' words found before stay until they are looked up again
            listing.block_texts = {**self.listing.block_texts, **listing.block_texts}
        self.listing = listing
        self.browser.empty = self.empty_text()
        yield entries(listing, self.status, self.detached)

    def row(self, entry: Entry) -> Row:
        if isinstance(entry, PageHead):
            title = safe(entry.title, limit=120).plain
            return Row(f"page:{entry.page_id}", [f"{title} ({entry.count})"], style="bold", data=entry)
        if isinstance(entry, BlockHead):
            return Row(f"block:{entry.node_id}", [safe(entry.label, limit=120)], indent=1, style="italic", data=entry)
        c = entry
        author = c.posted_by.display_name or c.posted_by.id if c.posted_by else "—"
        cells: list[Content | str] = [
            safe(first_line(plain_markdown(c.text)) or "(no text)", limit=200),
            safe(author, limit=60),
            age(c.posted_at, self.services.comments.clock()),
            str(c.replies) if c.replies else "",
            safe(shown(summary(c.reactions)), limit=60),
            "resolved" if c.resolved else safe(c.status, limit=20),
        ]
        depth = 2 if c.target.node is not None else 1
        return Row(c.id, cells, indent=depth, style="dim" if c.resolved else "", data=c)

    def opens(self, entry: Entry) -> tuple[Ids, str] | None:
        if not isinstance(entry, Comment):
            return None
        ids = {"space_id": self.space_id, "comment_id": entry.id, "change_request": self.change_request}
        return ids, first_line(plain_markdown(entry.text), 60) or "Comment"

    def item_of(self, entry: Entry) -> Item | None:
        if not isinstance(entry, Comment):
            return None
        return Item(entry.id, (entry.urls.app or entry.urls.location) if entry.urls else None, "comment")

    def hint(self) -> str:
        listing = self.listing
        if listing is None:
            return ""
        shown_now, total = listing.count(self.status), listing.count("all")
        return (
            f"{listing.count('open')} open · {listing.count('resolved')} resolved · "
            f"showing {self.status} ({shown_now} of {total}) · f changes"
        )

    def empty_text(self) -> str:
        listing, where = self.listing, "change request" if self.change_request is not None else "space"
        if listing is None or listing.count("all") == 0:
            return f"No comments in this {where} yet. Press c to comment on a page."
        return f"No {self.status} comments. Press f to show the others, c to comment."

    @property
    def highlighted(self) -> Comment | None:
        current = self.current
        return current if isinstance(current, Comment) else None

    # -- loading -------------------------------------------------------------------------------------------------

    def on_show(self) -> None:
        focused = self.screen.focused
        if focused is None or self not in focused.ancestors:
            self.take_focus()  # the tab's keys are the list's from now, loaded or not

    def reload(self, *, keep: str | None = None) -> None:
        row = self.browser.list.highlighted if self.is_mounted else None
        self._cursor_on = keep or (row.key if row is not None else None)
        super().reload(keep=keep)

    def loaded(self, items: list[Entry], *, complete: bool) -> None:
        super().loaded(items, complete=complete)
        listing = self.listing
        if listing is None or self.failed is not None:
            self.hand_over()
            return
        self.draw_hint()
        lst = self.browser.list
        if self._cursor_on is None or not lst.move_to(self._cursor_on):  # the first comment, not a page's name
            first = next((r.key for r in lst.visible_rows if isinstance(r.data, Comment)), None)
            if first is not None:
                lst.move_to(first)
        self.hand_over()
        if self.screen.focused is None and self.display:
            self.browser.focus_list()
        self.post_message(self.Counted(self, listing.count("open"), listing.count("resolved")))
        if complete:
            self._find_blocks(listing)

    @work(exclusive=True, group="comments-panel-blocks", exit_on_error=False)
    async def _find_blocks(self, listing: CommentList) -> None:
        """The words of the commented blocks, looked up once the list is shown (a page read each)."""
        try:
            found = await self.services.comments.block_texts(
                self.space_id, listing.comments, change_request=self.change_request
            )
        except ServiceError:  # the blocks stay named in general words: the list is useful already
            found = {}
        try:
            detached = await self.services.detached.check(
                self.space_id, listing.comments, change_request=str(self.change_request or "") or None
            )
        except ServiceError:  # detached blocks then read as blocks of the page: the list is useful already
            detached = {}
        if (found or detached != self.detached) and listing is self.listing:
            listing.block_texts.update(found)
            self.detached = detached
            self._show()

    def _show(self) -> None:
        """Draw the loaded comments again (another filter, the blocks' words), the cursor kept where it can be."""
        listing = self.listing
        if listing is None:
            return
        self.items = entries(listing, self.status, self.detached)
        self.browser.empty = self.empty_text()
        rows = [self.row(entry) for entry in self.items]
        current = self.browser.list.highlighted
        keep = current.key if current is not None and any(r.key == current.key for r in rows) else None
        if keep is None:  # the highlighted comment is filtered out: the first comment shown
            keep = next((r.key for r in rows if isinstance(r.data, Comment)), None)
        self.browser.set_rows(rows, keep=keep, staged=False)
        self.draw_hint()

    # -- opening -------------------------------------------------------------------------------------------------

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        # Textual runs ResourcePanel's handler after this one (it opens a comment's thread) unless stopped here.
        if not isinstance(event.row.data, Comment):  # a page's or a block's name opens nothing
            event.stop()
            event.prevent_default()

    # -- actions -------------------------------------------------------------------------------------------------

    def why_not(self, action: str) -> str | None:
        if action in ("resolve", "reopen"):
            comment = self.highlighted
            if comment is None:
                return "No comment is selected: move to one (a page's name is not a comment)."
            if not may(comment, "reply"):
                return "You may not resolve or reopen this comment."
        if action == "new_comment" and self.listing is None:
            return "The comments are still loading." if self.failed is None else "The comments did not load: press r."
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        comment = self.highlighted
        if action in ("resolve", "reopen") and comment is not None and comment.resolved != (action == "reopen"):
            return False  # the other meaning of x
        return super().check_action(action, parameters)

    def action_reload(self) -> None:
        self.reload()

    def action_cycle_filter(self) -> None:
        self.status = STATUSES[(STATUSES.index(self.status) + 1) % len(STATUSES)]
        self._show()

    def action_resolve(self) -> None:
        if (comment := self.highlighted) is not None and not comment.resolved:
            self._set_resolved(comment, True)

    def action_reopen(self) -> None:
        if (comment := self.highlighted) is not None and comment.resolved:
            self._set_resolved(comment, False)

    def _wrote(self, message: str) -> None:
        """A write here is done: say so, and have every list of this space's comments load again."""
        self.services.changes.bump(("comments", self.space_id))
        self.notify(message, markup=False)
        self.reload()

    @work(exclusive=True, group="comments-panel-resolve", exit_on_error=False)
    async def _set_resolved(self, comment: Comment, resolved: bool) -> None:
        verb = "resolve" if resolved else "reopen"
        try:
            result = await self.services.comments.set_resolved(
                self.space_id, comment.id, resolved, change_request=self.change_request
            )
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not {verb} the comment")
            return
        if isinstance(result, Queued):
            self.notify(result.message, markup=False)
            return
        self._wrote(f"Comment {verb}{'d' if resolved else 'ed'}: {first_line(comment.text, 60)}")

    def action_new_comment(self) -> None:
        if self.listing is not None:
            self._new_comment(self.listing)

    @work(exclusive=True, group="comments-panel-new", exit_on_error=False)
    async def _new_comment(self, listing: CommentList) -> None:
        row = self.browser.list.highlighted
        current = page_under(row)
        # On a block (its header row, or a comment on it) the new comment goes on that block; elsewhere the
        # user picks the page.
        node = block_under(row)
        if node is not None and current is not None:
            target: str | None = current
            title = f"this block of {safe(listing.page_title(current), limit=60).plain}"
        else:
            node = None
            whole = "The whole change request" if self.change_request is not None else "The whole space"
            picker = PagePickerModal(listing.pages, whole=whole, current=current, changed=listing.changed)
            page = await self.app.push_screen_wait(picker)
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

        draft = f"comment:{self.space_id}/{self.change_request or '-'}/{target or '-'}/{node or '-'}"
        text = listing.block_texts.get(node) if node is not None else None
        modal: TextEntryModal
        if node is not None and text:  # the block's words quoted above the box, as from the diff
            block = Target(target, listing.page_title(target), node, text)
            modal = BlockCommentModal(block, send, find_sent=find, draft=draft)
        else:
            modal = TextEntryModal(
                f"New comment on {title}",
                send,
                find_sent=find,
                send_label="Post",
                draft=draft,
                where=f"a new comment on {title}",
            )
        sent = await self.app.push_screen_wait(modal)
        if sent is None:
            return
        if queued:
            self.notify(queued[-1].message, markup=False)  # held or queued: each says which
            return
        self.status = "open" if self.status == "resolved" else self.status
        self._wrote(f"Comment posted on {title}")
