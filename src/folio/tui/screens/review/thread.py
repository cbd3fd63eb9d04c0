"""A comment thread: the comment and its replies (indented), each with author, time, body and reactions.

j/k (or tab) move between the posts (the arrows scroll); the keys act on the one selected: ``c`` reply,
``e`` edit and ``d`` delete (your own posts only), ``+`` react, ``_`` take your reaction back, ``x`` resolve
the thread (on a resolved one: reopen it; the footer says which). ``s`` suggests a change: the comment's page
opens in ``$EDITOR`` at its block, the edit goes into the change request (a new one when it is merged or
archived, or for a comment on the space), and a reply links it (``folio.tui.page_edit``).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Header, Static

from folio.models.comment import Comment, CommentReply
from folio.services.errors import ServiceError
from folio.services.review.comments import (
    Queued,
    Thread,
    age,
    first_line,
    is_mine,
    may,
    my_reactions,
    reactions_summary,
    stamp,
)
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.errors import error_message, notify_error
from folio.tui.fresh import cache_first
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.reaction import ReactionModal, shown
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.markdown_view import SafeMarkdown
from folio.tui.widgets.review_bar import ReviewBar, sweep_below

if TYPE_CHECKING:
    from datetime import datetime

    from folio.models.common import User
    from folio.services import Services
    from folio.services.review.writing import EditedPage

__all__ = ["Post", "ThreadScreen"]

THREAD = Route(
    kind="thread",
    noun="comment",
    screen="ThreadScreen",
    ids=("space_id", "comment_id"),
    optional=("change_request",),
    go_to=False,
    order=20,
    summary="a comment thread",
)

Posted = Comment | CommentReply


class Post(Vertical, can_focus=True):
    """One comment or reply: who and when, the body as markdown, the reactions."""

    def __init__(self, item: Posted, *, me: User | None, now: datetime) -> None:
        super().__init__(id=f"post-{item.id}", classes="-reply" if isinstance(item, CommentReply) else "-comment")
        self.item = item
        self.mine = is_mine(item, me)
        self.me = me
        self.now = now

    @property
    def is_reply(self) -> bool:
        return isinstance(self.item, CommentReply)

    @property
    def reply_id(self) -> str | None:
        """The reply's id (None for the comment itself): what the service's writes take."""
        return self.item.id if isinstance(self.item, CommentReply) else None

    def compose(self) -> ComposeResult:
        item = self.item
        author = (item.posted_by.display_name or item.posted_by.id) if item.posted_by else "Unknown author"
        parts = [safe(author, limit=60), Content(" (you)" if self.mine else "")]
        when = f" · {stamp(item.posted_at)} · {age(item.posted_at, self.now)}" if item.posted_at else ""
        parts.append(Content(when + (" · edited" if item.edited_at else "")))
        if isinstance(item, Comment):
            if item.resolved:
                by = item.resolved_by.display_name if item.resolved_by else "someone"
                parts += [Content(" · resolved by "), safe(by, limit=60)]
            else:
                parts.append(Content(" · ") + safe(item.status, limit=20))
        yield Static(Content("").join(parts), classes="post--header")
        yield SafeMarkdown(item.text or "*(no text)*", classes="post--body")
        reactions = reactions_summary(item.reactions)
        mine = my_reactions(item, self.me)
        line = f"Reactions: {reactions}" + (f" (yours: {' '.join(mine)})" if mine else "") if reactions else ""
        reactions_line = Static(safe(shown(line), limit=200), classes="post--reactions")
        reactions_line.display = bool(line)
        yield reactions_line


class ThreadScreen(FolioScreen):
    """``ThreadScreen(services, space_id, comment_id, change_request=None, trail=())``. ``changed`` tells the
    screen below that something was written (it reloads its list)."""

    space_id: str

    ROUTE: ClassVar[str | None] = THREAD.kind

    CSS_PATH = [styles_dir() / "comments.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "move(1)", "Next", show=False, id="thread.next", tooltip="Select the next post"),
        Binding("k", "move(-1)", "Previous", show=False, id="thread.previous", tooltip="Select the post before"),
        Binding("c", "reply", "Reply", id="thread.reply", tooltip="Reply to this comment"),
        Binding("e", "edit", "Edit", id="thread.edit", tooltip="Edit your selected comment or reply"),
        Binding("d", "delete", "Delete", id="thread.delete", tooltip="Delete your selected comment or reply"),
        Binding("plus", "react", "React", id="thread.react", tooltip="Add a reaction to the selected post"),
        Binding(
            "underscore",
            "unreact",
            "Unreact",
            id="thread.unreact",
            tooltip="Take back your reaction on the selected post",
        ),
        # One key, two bindings: the footer says what x does to this thread (check_action hides the other).
        Binding("x", "resolve", "Resolve", id="thread.resolve", tooltip="Resolve the thread"),
        Binding("x", "reopen", "Reopen", id="thread.reopen", tooltip="Reopen the resolved thread"),
        Binding("space", "sweep", "Sweep on", id="thread.sweep", tooltip="The review sweep's next step"),
        Binding(
            "s",
            "suggest",
            "Suggest",
            id="thread.suggest",
            tooltip="Edit the comment's page in $EDITOR at its block; a reply links the change request it goes into",
        ),
    ]

    def __init__(
        self,
        services: Services,
        space_id: str,
        comment_id: str,
        *,
        change_request: str | int | None = None,
        trail: tuple[str, ...] = (),
    ) -> None:
        super().__init__(services, trail=trail)
        self.space_id = space_id
        self.comment_id = comment_id
        self.change_request = change_request
        self.thread: Thread | None = None
        self.changed = False
        """True once something was written here: the list below reloads when this screen closes."""
        self.crumb = "Comment"

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield ReviewBar(id="thread-review-bar")
        yield Static(Content("Loading the thread…"), id="thread-where")
        yield Static(id="thread-message")
        yield VerticalScroll(id="thread-posts")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.set_crumb("Comment")
        self._show_sweep()
        self.load()

    def on_screen_resume(self) -> None:
        self._show_sweep()

    def _show_sweep(self) -> None:
        """Opened by a change request's review sweep: its bar, and space goes on (``action_sweep``)."""
        host = sweep_below(self, self.comment_id)
        at = host.sweep_at_thread(self.comment_id) if host is not None else None
        bar = self.query_one("#thread-review-bar", ReviewBar)
        bar.show(at[0] if at else None, None, stop_words=at[1] if at else "")
        self.refresh_bindings()

    def action_sweep(self) -> None:
        """The sweep's next step: back to the change request, which goes on from this thread."""
        host = sweep_below(self, self.comment_id)
        if host is not None:
            self.app.pop_screen()
            host.action_sweep()

    # -- loading -------------------------------------------------------------------------------------------

    @work(exclusive=True, group="thread-load", exit_on_error=False)
    @cache_first
    async def load(self, focus: str | None = None) -> None:
        """Read the thread and show it; ``focus`` (a post id) is selected afterwards."""
        comments = self.services.comments
        selected = focus or (post.item.id if (post := self.selected) else None)
        self._say(None)
        try:
            thread = await comments.thread(self.space_id, self.comment_id, change_request=self.change_request)
        except ServiceError as exc:
            self._say(error_message(exc, doing="Could not load the thread", hint="Press r to try again."))
            return
        self.thread = thread
        author = thread.comment.posted_by.display_name if thread.comment.posted_by else ""
        self.set_crumb(f"Comment by {author}" if author else "Comment")
        self.query_one("#thread-where", Static).update(safe(thread.where, limit=200))
        now = comments.clock()
        posts: list[Static | Post] = [Post(thread.comment, me=thread.me, now=now)]
        posts += [Post(reply, me=thread.me, now=now) for reply in thread.replies]
        if not thread.replies_listed and thread.comment.replies:
            note = f"{thread.comment.replies} replies: this service does not list the replies of space comments."
            posts.append(Static(Content(note), classes="thread--note"))
        elif not thread.replies:
            posts.append(Static(Content("No replies yet. Press c to reply."), classes="thread--note"))
        container = self.query_one("#thread-posts", VerticalScroll)
        await container.remove_children()
        await container.mount_all(posts)
        target = next((p for p in self.posts if p.item.id == selected), None) or self.posts[0]
        target.focus()
        self.refresh_bindings()
        self._look_for_its_block(thread)

    @work(exclusive=True, group="thread-detached", exit_on_error=False)
    async def _look_for_its_block(self, thread: Thread) -> None:
        """A comment on a block its page no longer holds says so under the place line, with the block's text as it
        was and the block most like it now (``services.detached``); a check that fails says nothing."""
        try:
            found = await self.services.detached.check(
                self.space_id, [thread.comment], change_request=str(self.change_request or "") or None
            )
        except ServiceError:
            return
        gone = found.get(thread.comment.id)
        if gone is not None and thread is self.thread:
            line = Content("\n").join([safe(thread.where, limit=200), safe(gone.label(100), limit=260)])
            self.query_one("#thread-where", Static).update(line)

    def _say(self, message: Content | None) -> None:
        widget = self.query_one("#thread-message", Static)
        widget.update(message or Content(""))
        widget.display = message is not None

    @property
    def posts(self) -> list[Post]:
        return list(self.query(Post))

    @property
    def selected(self) -> Post | None:
        node = self.focused
        while node is not None and not isinstance(node, Post):
            node = node.parent if isinstance(node.parent, Widget) else None
        return node

    def current_item(self) -> Item | None:
        post = self.selected
        if post is None:
            return None
        url = (post.item.urls.app or post.item.urls.location) if post.item.urls else None
        return Item(post.item.id, url, "reply" if post.is_reply else "comment")

    def on_descendant_focus(self) -> None:
        self.refresh_bindings()

    # -- actions -------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        thread, post = self.thread, self.selected
        if action in ("resolve", "reopen"):
            resolved = thread is not None and thread.comment.resolved
            return thread is not None and may(thread.comment, "reply") and resolved == (action == "reopen")
        if action == "reply":
            return thread is not None and may(thread.comment, "reply")
        if action in ("edit", "delete"):
            return post is not None and post.mine  # someone else's post: not offered
        if action == "react":
            return post is not None and may(post.item, "reply")
        if action == "unreact":
            return post is not None and bool(my_reactions(post.item, post.me))
        if action == "sweep":
            return sweep_below(self, self.comment_id) is not None  # not opened by a sweep: space is not taken
        if action == "suggest":
            return None if self.why_not(action) else True
        return True

    def why_not(self, action: str) -> str | None:
        if action == "suggest":
            if self.thread is None:
                return "The thread is still loading."
            if self.thread.comment.page_id is None:
                return "This comment is on no page: there is no text to open."
        return None

    def action_refresh(self) -> None:
        self.load()

    def action_move(self, step: int) -> None:
        posts = self.posts
        if not posts:
            return
        current = self.selected
        index = posts.index(current) if current in posts else -step
        posts[max(0, min(len(posts) - 1, index + step))].focus()

    def _done(self, message: str, focus: str | None = None) -> None:
        self.changed = True
        self.services.changes.bump(("comments", self.space_id))
        self.notify(message, markup=False)
        self.load(focus)

    def action_reply(self) -> None:
        self._write_reply()

    @work(exclusive=True, group="thread-write", exit_on_error=False)
    async def _write_reply(self) -> None:
        thread = self.thread
        if thread is None:
            return
        replies: list[CommentReply | Queued] = []
        author = thread.comment.posted_by.display_name if thread.comment.posted_by else "the comment"

        async def send(text: str) -> None:
            replies.append(
                await self.services.comments.reply(
                    self.space_id,
                    self.comment_id,
                    text,
                    change_request=self.change_request,
                    where=f"a reply to {safe(author).plain}",
                )
            )

        began = time.time()

        async def find(text: str) -> object | None:
            found = await self.services.comments.find_reply(
                self.space_id, self.comment_id, text, change_request=self.change_request, since=began
            )
            if found is not None:
                replies.append(found)
            return found

        modal = TextEntryModal(
            f"Reply to {safe(author).plain}",
            send,
            find_sent=find,
            draft=f"reply:{self.space_id}/{self.change_request or '-'}/{self.comment_id}",
            where=f"a reply to {safe(author).plain}",
        )
        if await self.app.push_screen_wait(modal) is not None:
            reply = replies[0] if replies else None
            if isinstance(reply, Queued):
                self._done(reply.message)
            else:
                self._done("Reply posted", reply.id if reply else None)

    def action_edit(self) -> None:
        if (post := self.selected) is not None and post.mine:
            self._edit(post)

    @work(exclusive=True, group="thread-write", exit_on_error=False)
    async def _edit(self, post: Post) -> None:
        kind = "reply" if post.is_reply else "comment"

        async def send(text: str) -> None:
            await self.services.comments.edit(
                self.space_id, self.comment_id, text, reply_id=post.reply_id, change_request=self.change_request
            )

        modal = TextEntryModal(
            f"Edit your {kind}",
            send,
            text=post.item.text,
            send_label="Save",
            draft=f"edit:{self.space_id}/{self.comment_id}/{post.reply_id or '-'}",
            where=f"an edit of your {kind}",
        )
        if await self.app.push_screen_wait(modal) is not None:
            self._done(f"{kind.capitalize()} edited", post.item.id)

    def action_delete(self) -> None:
        if (post := self.selected) is not None and post.mine:
            self._delete(post)

    @work(exclusive=True, group="thread-write", exit_on_error=False)
    async def _delete(self, post: Post) -> None:
        kind = "reply" if post.is_reply else "comment"
        body = safe(first_line(post.item.text, 200))
        if isinstance(post.item, Comment) and post.item.replies:
            body += Content(f"\nIts {post.item.replies} replies are deleted with it.")
        question = ConfirmModal(f"Delete your {kind}?", body, accept_key="y", accept_label="Delete")
        if not await self.app.push_screen_wait(question):
            return
        try:
            await self.services.comments.delete(
                self.space_id, self.comment_id, reply_id=post.reply_id, change_request=self.change_request
            )
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not delete the {kind}")
            return
        if post.is_reply:
            self._done("Reply deleted")
            return
        self.changed = True
        self.services.changes.bump(("comments", self.space_id))
        self.notify("Comment deleted", markup=False)
        if self.app.screen is self:
            self.action_back()

    def action_react(self) -> None:
        if (post := self.selected) is not None:
            self._react(post, remove=False)

    def action_unreact(self) -> None:
        if (post := self.selected) is not None and my_reactions(post.item, post.me):
            self._react(post, remove=True)

    @work(exclusive=True, group="thread-write", exit_on_error=False)
    async def _react(self, post: Post, *, remove: bool) -> None:
        mine = my_reactions(post.item, post.me)
        if remove and len(mine) == 1:
            emoji: str | None = mine[0]
        else:
            picker = ReactionModal(mine, title="Take back which reaction?") if remove else ReactionModal()
            emoji = await self.app.push_screen_wait(picker)
        if emoji is None:
            return
        try:
            reacted = await self.services.comments.react(
                self.space_id,
                self.comment_id,
                emoji,
                remove=remove,
                reply_id=post.reply_id,
                change_request=self.change_request,
            )
        except ServiceError as exc:
            notify_error(self, exc, doing="Could not change your reaction")
            return
        if isinstance(reacted, Queued):
            self._done(reacted.message, post.item.id)
            return
        self._done(f"Reaction {emoji} {'removed' if remove else 'added'}", post.item.id)

    def action_suggest(self) -> None:
        if self.why_not("suggest") is None:
            self._suggest()

    @work(exclusive=True, group="thread-suggest", exit_on_error=False)
    async def _suggest(self) -> None:
        """The comment's page in $EDITOR at its block (``locate_blocks`` places it on the markdown's lines)."""
        from folio.tui.page_edit import suggest  # the editor's dialogs load when first used

        thread = self.thread
        page_id = thread.comment.page_id if thread is not None else None
        if thread is None or page_id is None:
            return
        ref = self.change_request or thread.comment.change_request
        try:
            cr = await self.services.review.change_request(self.space_id, ref) if ref else None
        except ServiceError as exc:
            notify_error(self, exc, doing="Could not read the change request")
            return
        node = thread.comment.target.node.id if thread.comment.target.node else None

        async def line(page: EditedPage) -> int | None:
            if node is None:
                return None
            try:
                blocks = await self.services.comments.page_blocks(
                    self.space_id, page.page_id, page.markdown, change_request=page.change_request
                )
            except ServiceError:
                return None  # the page opens at its top
            return next((b.first for b in blocks or () if b.key == node), None)

        sent = await suggest(self, self.space_id, page_id, cr, line=line, reply_to=self.comment_id)
        if sent is not None:
            self.changed = True
            self.load()

    def action_resolve(self) -> None:
        if self.thread is not None and not self.thread.comment.resolved:
            self._resolve(True)

    def action_reopen(self) -> None:
        if self.thread is not None and self.thread.comment.resolved:
            self._resolve(False)

    @work(exclusive=True, group="thread-write", exit_on_error=False)
    async def _resolve(self, resolved: bool) -> None:
        verb = "resolve" if resolved else "reopen"
        try:
            result = await self.services.comments.set_resolved(
                self.space_id, self.comment_id, resolved, change_request=self.change_request
            )
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not {verb} the thread")
            return
        if isinstance(result, Queued):
            self._done(result.message)
            return
        self._done("Thread resolved" if resolved else "Thread reopened")
