"""One change request, for keyboard review: the overview, the changed pages with their diffs, the comments,
and the decisions (review, merge, update from main) from any tab.

    ChangeRequestScreen(services, space_id, 12)            # by number, or by id

Keys (binding ids ``change-request.*``, ``change_request_keys``): 1/2/3/4/5 tabs (5: the pages as a tree you
edit, ``folio.tui.widgets.cr_pages``); R review; m merge; u update from
main; p PDF link; t subject; d description (e in $EDITOR); S status; a / A ask someone to review, or stop asking
(``change_request_reviewers``); V since your last review; space sweep; P hold comments, H list them. The changes
tab adds its own (see ``ChangesPane``). A key that cannot act says why; the footer shows the most useful keys of
the tab that fit, ``?`` all of them. A write elsewhere to this space's change requests or comments reloads it.

The decisions (review, merge, update from main, status, subject and description, here or in ``$EDITOR``, the PDF
link) each ask first where they cannot be undone, then end in a message saying what happened (or what failed) and
reload the screen.

Since your last review: the overview's line ("3 pages changed since you reviewed on <date>"), and ``V`` shows only
those changes in the changes tab (again: every change). What changed is :mod:`folio.services.review.since_review`;
the changes tab shows its change set in the same page list and diff view. Pages whose change came from main say so
(``main``).

The sweep: ``space`` on the changes tab (or ``:sweep``) walks the review in order: the next changed page not viewed
yet (leaving a page marks it viewed), then the open threads on it (each opens; esc comes back, space goes on), then
the next page; the line under the header shows a progress bar. ``P`` holds the comments and replies written on this
change request as a pending review (``services.pending_review``: kept on this machine), ``H`` lists them, and the
verdict (``R``) sends them first, in order; the review dialog shows the held comments and what approving still
waits for (``[review] approve_requires``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.content import Content
from textual.css.query import NoMatches
from textual.widgets import Header, Static, TabbedContent, TabPane

from folio.services import format
from folio.services.errors import ServiceError
from folio.services.review.authoring import REVIEW_REQUESTS_NOT_OFFERED
from folio.services.review.comments import first_line, plain_markdown
from folio.services.review.review import next_status, subject_problem
from folio.services.review.sweep import Stop, Sweep, missing, plan
from folio.tui import styles_dir
from folio.tui.clipboard import copy
from folio.tui.declare import Route
from folio.tui.errors import error_message, notify_error
from folio.tui.external_editor import edit_in_editor
from folio.tui.fresh import cache_first
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.review import ReviewModal
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.navigation import Open
from folio.tui.safe import safe
from folio.tui.screens.base import CRUMB, FolioScreen, Item
from folio.tui.screens.review.change_request_keys import BINDINGS as KEYS
from folio.tui.screens.review.change_request_keys import fit_footer, order_for, why_cannot
from folio.tui.screens.review.change_request_reviewers import asked_of, withdraw_reviewer
from folio.tui.textual_private import binding_chain
from folio.tui.widgets.change_overview import SIDE_BY_SIDE_MIN, ChangeOverview, ChangesPane
from folio.tui.widgets.cr_pages import CrPages
from folio.tui.widgets.focus_hold import HoldsFocus
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.review_bar import ReviewBar
from folio.tui.widgets.review_checks import ReviewChecks

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from datetime import datetime

    from textual import events
    from textual.binding import ActiveBinding

    from folio.models.change_request import ChangeRequest
    from folio.services import Services
    from folio.services.review.review import ChangeSet, Overview
    from folio.services.review.since_review import Since

__all__ = ["FROM_MAIN", "ChangeRequestScreen"]

log = logging.getLogger(__name__)

CHANGE_REQUEST = Route(
    kind="change-request",
    noun="change request",
    screen="ChangeRequestScreen",
    ids=("space_id", "ref"),
    verbs=("cr", "change-request"),
    find="number",
    order=10,
    summary="a change request of the open space, by number: overview, changes, comments",
)

NARROW = 100
"""Below this many columns the page list sits above the diff instead of beside it."""
STATUS_VERBS = {"archived": "Archive", "open": "Open it", "draft": "Make it a draft"}
"""The confirm button of a status change says what it does, not the status it ends in (#14.18)."""
FROM_MAIN = "from main"
"""The change kind a page whose change came from main (an update) gets in the since-your-review view."""


def _missing_for(
    services: Services, space_id: str, cr: ChangeRequest, pane: ChangesPane | None
) -> Callable[[], Awaitable[list[str]]]:
    """How the review dialog looks up what approving ``cr`` still waits for (``[review] approve_requires``)."""

    async def look() -> list[str]:
        changes = pane.change_set if pane is not None else None
        if changes is None or changes.cr.revision != cr.revision:
            changes = await services.review.changes(space_id, cr)
        viewed = pane.viewed if pane is not None else services.review.viewed.viewed(cr.id, cr.revision or "")
        listing = await services.comments.load(space_id, change_request=cr.id)
        me = listing.me.id if listing.me is not None else None
        return missing(services.approve_requires, changes.changed, viewed, listing.comments, me)

    return look


class ChangeRequestScreen(FolioScreen):
    """A change request by id or number; its crumb is ``#<number> <subject>``."""

    space_id: str

    ROUTE: ClassVar[str | None] = CHANGE_REQUEST.kind
    AUTO_FOCUS = "#cr-overview"  # (the first focusable is the tabs: a push would focus them, not the overview)

    CSS_PATH = [styles_dir() / "change_request.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = list(KEYS)

    sweeps: ClassVar[bool] = True
    since: Since | None = None
    """What changed since the reviewer's last review (None: not read, or nothing to compare with)."""
    since_mode: bool = False
    """Whether the changes tab shows only the changes since the last review."""
    all_changes: ChangeSet | None = None
    sweep: Sweep | None = None
    _stop_words: str = ""
    _thread_texts: dict[str, str] = {}  # replaced whole at each sweep, never changed in place

    def __init__(
        self, services: Services, space_id: str, change_request: str | int, *, trail: tuple[str, ...] = ()
    ) -> None:
        super().__init__(services, trail=trail)
        self.space_id = space_id
        self.ref: str | int = change_request
        self.cr: ChangeRequest | None = None
        self.overview: Overview | None = None
        self.review_draft = ""
        self._seen = self._versions()
        self._arriving: HoldsFocus | None = None
        """The pane of the tab just switched to, until the focus is in it (the keys typed meanwhile are its)."""
        self.failed: Content | None = None
        """What the last load said went wrong (None: it worked, or none ended yet)."""
        self.crumb = f"#{change_request}" if isinstance(change_request, int) else "Change request"

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static(id="cr-banner")
        yield Static(id="cr-message")
        yield ReviewBar(id="cr-review-bar")
        with TabbedContent(id="cr-tabs"):
            with TabPane("1 Overview", id="overview"):
                yield ChangeOverview(id="cr-overview")
            with TabPane("2 Changes", id="changes"):
                yield ChangesPane(self.services.review.viewed, id="cr-changes")
            with TabPane("3 Comments", id="comments"):
                placeholder = Static(Content("Loading\u2026"), id="comments-placeholder", classes="message")
                placeholder.can_focus = True  # the tab takes the focus before its comments are there
                yield placeholder
            with TabPane("4 Checks", id="checks"):
                yield ReviewChecks(self.services, self.space_id, id="cr-checks")
            with TabPane("5 Pages", id="pages"):
                yield CrPages(self.services, self.space_id, id="cr-pages")
        yield KeysFooter()

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#cr-tabs", TabbedContent)

    @property
    def changes(self) -> ChangesPane:
        return self.query_one("#cr-changes", ChangesPane)

    @property
    def checks(self) -> ReviewChecks:
        return self.query_one("#cr-checks", ReviewChecks)

    @property
    def pages(self) -> CrPages:
        return self.query_one("#cr-pages", CrPages)

    def on_mount(self) -> None:
        self.sub_title = f" {CRUMB} ".join(self.trail)
        self.query_one("#cr-banner").display = False
        self._say(None)
        self._fit(self.app.size.width)
        self.query_one(ChangeOverview).focus()
        self.load()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width)
        self.refresh_bindings()  # the footer shows what fits the new width

    def _fit(self, width: int) -> None:
        self.set_class(width < NARROW, "-narrow")
        self.changes.fit(width)

    def _say(self, message: Content | None, *, error: bool = False) -> None:
        widget = self.query_one("#cr-message", Static)
        widget.update(message or Content(""))
        widget.display = message is not None
        widget.set_class(error, "-error")

    # -- loading -----------------------------------------------------------------------------------------------

    @work(exclusive=True, group="change-request", exit_on_error=False)
    @cache_first
    async def load(self) -> None:
        """Read the change request with its reviewers and change list, then its pages (what was shown stays
        when that fails)."""
        overview_widget, pages = self.query_one(ChangeOverview), self.changes.pages
        self._seen = self._versions()  # a write after this is what a later look at the topics reloads for
        first = self.overview is None
        overview_widget.loading = first
        pages.set_loading(True)
        try:
            overview = await self.services.review.overview(self.space_id, self.ref)
        except ServiceError as exc:
            overview_widget.loading = False
            pages.set_loading(False)
            self.changes.hand_over()
            self.failed = error_message(exc, doing="Could not load the change request", hint="Press r to try again.")
            self._say(self.failed, error=True)
            self.refresh_bindings()
            return
        overview_widget.loading = False
        self.failed = None
        self._say(None)
        self.overview, self.cr, self.ref = overview, overview.cr, overview.cr.id
        cr = overview.cr
        self.set_crumb(f"#{cr.number} {cr.subject or 'Untitled'}")
        overview_widget.show(overview)
        banner = self.query_one("#cr-banner", Static)
        banner.display = cr.outdated and cr.is_active
        banner.update(Content("Outdated: main content changed since this change request began. Press u to update it."))
        self.remember("change-request", {"space_id": self.space_id, "ref": cr.id}, cr.title)
        self.refresh_bindings()
        if self.checks.loaded or self.tabs.active == "checks":
            self.call_later(self.checks.load, cr)  # checked again, in its own worker (not this load's cache pass)
        self.pages.follow(cr)
        if not self.pages.loaded and self.tabs.active == "pages":
            self.call_later(self.pages.load, cr)
        if first:
            await self._mount_comments(cr.id)
        try:
            changes = await self.services.review.changes(self.space_id, cr)
        except ServiceError as exc:
            pages.set_error(error_message(exc, doing="Could not load the changed pages", hint="Press r to try again."))
            self.changes.hand_over()
            return
        pages.set_error(None)
        await self.show_changes(self.changes, cr, changes)

    async def _mount_comments(self, cr_id: str) -> None:
        placeholder = self.query_one("#comments-placeholder", Static)
        from folio.tui.widgets.comments_panel import CommentsPanel  # (the panel's modules: when its tab first shows)

        waiting = placeholder.has_focus
        await placeholder.remove()
        panel = CommentsPanel(self.services, self.space_id, change_request=cr_id)
        await self.query_one("#comments", TabPane).mount(panel)
        if waiting or self.tabs.active == "comments":
            self._focus_tab("comments")

    # -- what writes elsewhere changed -----------------------------------------------------------------------------

    def _versions(self) -> tuple[int, ...]:
        """Where the writes to this space's change requests and comments are at (``services.changes``)."""
        changes = self.services.changes
        return tuple(changes.version((topic, self.space_id)) for topic in ("change-requests", "comments"))

    def _reload_if_written(self) -> None:
        if self._versions() != self._seen:
            self.load()

    def on_screen_resume(self) -> None:
        self._reload_if_written()  # back from a thread where a reply or a resolve changed the counts
        self.show_review_bar()  # back from a thread where a reply was held

    def on_comments_panel_counted(self) -> None:
        self._reload_if_written()  # a comment posted or resolved on the comments tab: the overview counts it

    def action_refresh(self) -> None:
        self.load()
        for panel in self.query("CommentsPanel"):  # the comments tab reloads itself too
            reload = getattr(panel, "action_reload", None)
            if callable(reload):
                reload()

    # -- tabs, selection, which keys apply ---------------------------------------------------------------------

    def action_tab(self, name: str) -> None:
        self.tabs.active = name
        self._focus_tab(name)  # now, not when the tab says it is shown: the keys typed after the number go there

    @on(TabbedContent.TabActivated, "#cr-tabs")
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self.refresh_bindings()
        holder, focused = self._arriving, self.focused
        if holder is not None and event.pane in holder.ancestors:
            return  # the key that switched to it has sent the focus there already
        if focused is None or event.pane not in focused.ancestors:
            self._focus_tab(event.pane.id or "")  # a tab clicked

    def _tab_of(self, key: str) -> str | None:
        """The tab this screen's binding of ``key`` shows (the config's keymap applied), if it is a tab key."""
        for node, bindings in binding_chain(self):
            if node is self:
                for binding in bindings.key_to_bindings.get(key, ()):
                    if binding.action.startswith("tab('"):
                        return binding.action.removeprefix("tab('").removesuffix("')")
        return None

    def _holders(self) -> list[HoldsFocus]:
        """The tabs' panes that take the keys for their list (a query by a mixin's type would match by name)."""
        comments = [w for w in self.query_one("#comments", TabPane).children if isinstance(w, HoldsFocus)]
        return [self.changes, *comments, self.checks, self.pages]

    def _focus_tab(self, name: str) -> None:
        """Give the tab ``name`` the focus: its list (or, while the list loads, the pane holding its keys)."""
        holder: HoldsFocus | None = None
        if name == "changes":
            holder = self.changes
        elif name == "comments":
            holder = next((w for w in self._holders() if w not in (self.changes, self.checks)), None)
        elif name == "checks":
            holder = self.checks
            if not holder.loaded and self.cr is not None:
                holder.load(self.cr)  # checked the first time the tab is shown (it reads every changed page's links)
        elif name == "pages":
            holder = self.pages
            if not holder.loaded and self.cr is not None:
                holder.load(self.cr)  # read the first time the tab is shown
        for other in self._holders():
            if other is not holder:
                other.let_go()
        self._arriving = holder
        if holder is not None:
            holder.take_focus()
        elif name == "overview":
            self.query_one(ChangeOverview).focus()
        else:
            self.query_one("#comments", TabPane).query("#comments-placeholder").focus()

    def on_key(self, event: events.Key) -> None:
        """A tab's number switches as it passes (not when its binding runs, after the keys typed behind it), and
        a key typed right after it, before the focus got there, is kept for the tab's list."""
        tab = self._tab_of(event.key)
        if tab is not None:
            event.stop()
            event.prevent_default()
            self.action_tab(tab)
            return
        holder = self._arriving
        if holder is None or (self.focused is not None and holder in (self.focused, *self.focused.ancestors)):
            self._arriving = None
            return
        if holder.hold_key(event):
            event.stop()
            event.prevent_default()

    @on(ReviewChecks.ShowPage)
    def _show_checked_page(self, event: ReviewChecks.ShowPage) -> None:
        """Enter on a finding: the changes tab, on that page's diff (all pages listed when it is unchanged)."""
        changes = self.changes
        if changes.change_set is None or changes.change_set.find(event.page_id) is None:
            loading = changes.change_set is None
            gone = f"“{event.title}” is not in this change request."
            self.notify("The changed pages are still loading." if loading else gone, markup=False)
            return
        self.action_tab("changes")
        shown = changes.pages.list.move_to(event.page_id)
        if not shown and changes.only_changed:
            changes.action_toggle_filter()  # an unchanged page (a link to a removed one): list every page
            shown = changes.pages.list.move_to(event.page_id)
        if not shown:
            self.notify(f"“{event.title}” is not in the list shown: esc clears its filter.", markup=False)

    def action_back(self) -> None:
        if self.pages.planned:  # page edits planned and never sent: the pages tab asks before they are dropped
            self.action_tab("pages")
            self.pages.action_leave()
            return
        super().action_back()

    @on(CrPages.Sent)
    def _pages_sent(self, event: CrPages.Sent) -> None:
        self.load()  # a new revision: the overview and the changes tab read it

    @on(CrPages.EditPage)
    def _edit_page(self, event: CrPages.EditPage) -> None:
        self._edit_text(event.page_id)

    @work(exclusive=True, group="pages-edit", exit_on_error=False)
    async def _edit_text(self, page_id: str) -> None:
        """``E`` on the pages tab: the page's text in $EDITOR (``folio.tui.page_edit``), into this change request."""
        from folio.tui.page_edit import edit_page  # the editor's dialogs load when first used

        cr = self.cr
        if cr is None:
            return
        closed = None if cr.is_active else f"#{cr.number} is {cr.status}: its pages cannot change."
        plan = self.pages.plan
        before = cr.revision
        sent = await edit_page(self, self.space_id, page_id, change_request=cr.id, closed=closed)
        if sent is not None and plan is not None and plan.revision == before and sent.change_request.id == cr.id:
            # Our own revision (a page's text) is not a colleague's: the plan's tree is still the tree.
            plan.revision = sent.change_request.revision

    @on(ChangesPane.Progress)
    def _progress(self, event: ChangesPane.Progress) -> None:
        label = f"2 Changes {event.seen}/{event.total} viewed" if event.total else "2 Changes"
        self.tabs.get_tab("changes").label = Content(label)

    def current_item(self) -> Item | None:
        if self.tabs.active == "changes" and (page := self.changes.page) is not None:
            return Item(page.id, page.url, "page")
        if self.tabs.active == "comments":
            for panel in self.query("CommentsPanel"):
                item = getattr(panel, "current_item", lambda: None)()
                if isinstance(item, Item):
                    return item
        if self.tabs.active == "checks" and (item := self.checks.current_item(self.changes.change_set)) is not None:
            return item
        if self.cr is not None:
            return Item(self.cr.id, self.cr.urls.app if self.cr.urls else None, "change request")
        return None

    def why_not(self, action: str) -> str | None:
        """Why a decision cannot be taken on this change request now (its key says so; the footer hides it)."""
        said = self.since_why_not(action) or why_cannot(self.cr, action, failed=self.failed is not None)
        overview = self.overview
        if said is None and overview is not None and action in ("ask_reviewers", "withdraw_reviewer"):
            if not overview.requests_offered:
                return REVIEW_REQUESTS_NOT_OFFERED
            if action == "withdraw_reviewer" and not asked_of(overview):
                return "Nobody is asked to review it now (a asks someone)."
        return said

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """What the footer shows: the most useful keys of the tab in view that fit (``?`` lists every key)."""
        bindings = super().active_bindings
        try:
            tab = self.tabs.active
        except NoMatches:  # not composed yet
            return bindings
        width = self.size.width or self.app.size.width
        return fit_footer(self.app, bindings, order_for(tab, wide=width >= SIDE_BY_SIDE_MIN), width)

    # -- the decisions: each asks first where it cannot be undone, then says what happened and reloads ----------

    def _label_of(self, cr: ChangeRequest) -> Content:
        return Content.assemble((f"#{cr.number} ", "bold"), safe(cr.subject or "Untitled", limit=80))

    def _done(self, message: str, *, warning: bool = False) -> None:
        self.notify(message, markup=False, severity="warning" if warning else "information")
        self.load()

    def _review_extras(self, cr: ChangeRequest) -> dict[str, Any]:
        """What the review dialog of ``cr`` shows besides the verdict: the held comments of the pending review (sent
        first, in order) and, when config.toml requires anything of an approval, how to look up what is missing."""
        services, space_id = self.services, self.space_id
        pending = services.pending_review.get(space_id, cr.id)
        held = [(item.where, first_line(item.markdown, 80)) for item in pending.items]
        extras: dict[str, Any] = {"held": held}
        if services.approve_requires:
            extras["missing"] = _missing_for(services, space_id, cr, self._changes_pane())
        return extras

    def action_review(self) -> None:
        if (cr := self.cr) is None:
            return

        held: list[int] = []

        async def submit(status: str, comment: str) -> None:
            held.append((await self.services.pending_review.send(self.space_id, cr.id)).done)  # first, in order
            await self.services.review.submit(self.space_id, cr.id, status, comment)  # type: ignore[arg-type]

        async def find(status: str, since: datetime) -> object | None:
            return await self.services.review.find_review(self.space_id, cr.id, status, since)  # type: ignore[arg-type]

        def keep(comment: str) -> None:
            self.review_draft = comment

        def sent(status: str | None) -> None:
            if status is not None:
                self.review_draft = ""
                said = "Approved" if status == "approved" else "Asked for changes on"
                n = sum(held)
                self._done(f"{said} #{cr.number}" + (f" with {n} comment{'s' if n != 1 else ''}." if n else "."))

        title = Content.assemble("Review ", self._label_of(cr))
        modal = ReviewModal(
            title,
            submit,
            comment=self.review_draft,
            keep=keep,
            find=find,
            draft=f"review:{self.space_id}/{cr.id}",
            where=f"your review of #{cr.number}",
            **self._review_extras(cr),  # the pending review's comments; what approving waits for
        )
        self.app.push_screen(modal, sent)

    async def _confirm(self, title: Content, body: str, label: str) -> bool:
        modal = ConfirmModal(title, body, accept_key="y", accept_label=label)
        answer: bool | None = await self.app.push_screen_wait(modal)
        return answer is True

    @work(exclusive=True, group="change-request-decide", exit_on_error=False)
    async def _decide(
        self, question: Content, body: str, label: str, send: Callable[[], Awaitable[tuple[str, bool]]], doing: str
    ) -> None:
        """Ask (accept key y), send, then say what happened (a warning when the service reports conflicts)."""
        if not await self._confirm(question, body, label):
            return
        try:
            said, warning = await send()
        except ServiceError as exc:
            notify_error(self, exc, doing=doing)
            return
        self._done(said, warning=warning)

    def action_merge(self) -> None:
        if (cr := self.cr) is not None:
            self._merge(cr)

    @work(exclusive=True, group="change-request-merge", exit_on_error=False)
    async def _merge(self, cr: ChangeRequest) -> None:
        """The pre-flight checklist first (``modals.preflight``: a failing line asks to type the merge); a line's
        fix key runs that fix instead. The service's refusal is said in words."""
        from folio.tui.modals.preflight import FIX_ACTIONS, ask_before_merge

        choice = await ask_before_merge(self.app, self.services.preflight, self.space_id, cr)
        if choice is None:
            return
        if choice != "merge":
            await self.run_action(FIX_ACTIONS[choice])
            return
        try:
            result = await self.services.review.merge(self.space_id, cr.id)
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not merge #{cr.number}")
            return
        if result.conflicts:
            self._done(f"#{cr.number} has conflicts with main: resolve them on GitBook, then merge.", warning=True)
        else:
            self._done(f"Merged #{cr.number} into main (revision {result.revision}).")

    def action_update_from_main(self) -> None:
        if (cr := self.cr) is None:
            return

        async def send() -> tuple[str, bool]:
            result = await self.services.review.update_from_main(self.space_id, cr.id)
            if result.conflicts:
                return f"Updating #{cr.number} from main ran into conflicts: resolve them on GitBook.", True
            return f"Updated #{cr.number} from main (revision {result.revision}).", False

        question = Content.assemble("Update ", self._label_of(cr), " from main?")
        body = "Main's changes since it began are brought in; its own edits win."
        self._decide(question, body, "Update", send, f"Could not update #{cr.number} from main")

    def action_cycle_status(self) -> None:
        if (cr := self.cr) is None or (target := next_status(cr.status)) is None:
            return

        async def send() -> tuple[str, bool]:
            await self.services.review.set_status(self.space_id, cr.id, target)
            return f"#{cr.number} is now {target}.", False

        question = Content.assemble("Change ", self._label_of(cr), f" from {cr.status} to {target}?")
        verb = STATUS_VERBS.get(target, f"Make it {target}")
        self._decide(question, "", verb, send, f"Could not make #{cr.number} {target}")

    def action_ask_reviewers(self) -> None:
        """``a``: pick members and ask them to review (a service without review requests says so)."""
        from folio.tui.modals.change_request_forms import ask_for_reviewers

        if (cr := self.cr) is not None:
            ask_for_reviewers(self, self.services, self.space_id, cr.id, then=self.action_refresh)

    def action_withdraw_reviewer(self) -> None:
        """``A``: pick one of those asked to review; they are no longer asked."""
        if self.overview is not None:
            withdraw_reviewer(self, self.services, self.space_id, self.overview, then=self.load)

    def action_pdf(self) -> None:
        self._pdf()

    @work(exclusive=True, group="change-request-pdf", exit_on_error=False)
    async def _pdf(self) -> None:
        if (cr := self.cr) is None:
            return
        try:
            url = await self.services.review.pdf_url(self.space_id, cr.id)
        except ServiceError as exc:
            notify_error(self, exc, doing="Could not get the PDF link")
            return
        copy(self.app, url, what="PDF link (valid for an hour)", url=True)

    def action_edit_subject(self) -> None:
        if (cr := self.cr) is None:
            return

        async def submit(text: str) -> None:
            await self.services.review.rename(self.space_id, cr.id, text.strip())

        def saved(text: str | None) -> None:
            if text is not None:
                self._done(f"Subject of #{cr.number} saved.")

        modal = TextEntryModal(
            Content.assemble("Subject of ", self._label_of(cr)),
            submit,
            text=cr.subject,
            multiline=False,
            check=subject_problem,
            send_label="Save",
            draft=f"subject:{self.space_id}/{cr.id}",
            where=f"the subject of #{cr.number}",
        )
        self.app.push_screen(modal, saved)

    def _description(self) -> str:
        cr = self.cr
        return cr.description.plain_text() if cr is not None and cr.description else ""

    def action_edit_description(self) -> None:
        self._describe_in_modal(self._description())

    def _describe_in_modal(self, text: str) -> None:
        if (cr := self.cr) is None:
            return

        async def submit(text: str) -> None:
            await self.services.review.describe(self.space_id, cr.id, text)

        def saved(text: str | None) -> None:
            if text is not None:
                self._done(f"Description of #{cr.number} saved.")

        title = Content.assemble("Description of ", self._label_of(cr))
        modal = TextEntryModal(
            title,
            submit,
            text=text,
            send_label="Save",
            draft=f"description:{self.space_id}/{cr.id}",
            where=f"the description of #{cr.number}",
        )
        self.app.push_screen(modal, saved)

    def action_edit_in_editor(self) -> None:
        if self.cr is None:
            return
        before = self._description()
        try:
            text = edit_in_editor(self.app, before)
        except RuntimeError as exc:
            self.notify(f"Description not edited: {exc} Press d to edit it here.", severity="error", markup=False)
            return
        if text.strip() == before.strip():
            self.notify("The description is unchanged; nothing was sent.", markup=False)
            return
        self._send_description(text)

    @work(exclusive=True, group="change-request-decide", exit_on_error=False)
    async def _send_description(self, text: str) -> None:
        if (cr := self.cr) is None:
            return
        try:
            await self.services.review.describe(self.space_id, cr.id, text)
        except ServiceError as exc:
            notify_error(self, exc, doing="Could not save the description")
            self._describe_in_modal(text)  # the edited text is kept there, to send again
            return
        self._done(f"Description of #{cr.number} saved.")

    # -- changes since your last review (V) -----------------------------------------------------------------------

    async def show_changes(self, pane: ChangesPane, cr: ChangeRequest, changes: ChangeSet) -> None:
        """Show ``changes`` at once, then read what the reviewer last saw and say on the overview what changed
        since; in since mode the pane then shows only that. When viewed marks of pages untouched since were carried
        into this revision, the pane reads its marks again."""
        self.all_changes = changes
        if not self.since_mode:
            pane.show(changes)  # now: what changed since may take a read or two more
        try:
            self.since = await self.services.since_review.since(self.space_id, cr)
        except ServiceError:  # the since view is extra: the change request is shown without it
            log.warning("the changes since the last review could not be read", exc_info=True)
            self.since = None
        since = self.since
        if since is not None:
            for page in since.changed:
                if page.id in since.from_main and FROM_MAIN not in page.kinds:
                    page.kinds = (*page.kinds, FROM_MAIN)
        self._since_line()
        if self.since_mode and since is not None and since.changed:
            pane.show(since.changes)
        elif self.since_mode or (since is not None and since.kept - pane.viewed):
            self.since_mode = False
            pane.show(changes)  # out of since mode, or the carried marks to read
        self._since_hint()
        self.refresh_bindings()

    def action_since_review(self) -> None:
        """Only the changes since the last review, or every change again (the line above the list says which)."""
        since, pane = self.since, self._changes_pane()
        if since is None or not since.changed or self.all_changes is None or pane is None:
            return
        self.since_mode = not self.since_mode
        pane.show(since.changes if self.since_mode else self.all_changes)
        self._since_hint()
        self.refresh_bindings()
        tabs = self.query("#cr-tabs")
        if self.since_mode and tabs and getattr(tabs.first(), "active", "") != "changes":
            self.action_tab("changes")

    def since_why_not(self, action: str) -> str | None:
        """Why ``V`` cannot act now (None: it can)."""
        if action != "since_review":
            return None
        if self.all_changes is None:
            return "The changed pages are still loading."
        since = self.since
        if since is None:
            return "You have not reviewed this change request (or marked a page viewed) in an earlier revision."
        if not since.changed:
            return since.summary
        return None

    # -- what the since view says -------------------------------------------------------------------------------

    def _changes_pane(self) -> ChangesPane | None:
        found = self.query("#cr-changes")
        pane = found.first() if found else None
        return pane if isinstance(pane, ChangesPane) else None

    def _since_line(self) -> None:
        """The overview's line under the change request's meta: what changed since the last review."""
        overviews = self.query("#cr-overview")
        if not overviews:
            return
        overview = overviews.first()
        lines = overview.query("#overview-since")
        since = self.since
        if since is None:
            if lines:
                lines.first().display = False
            return
        line = lines.first(Static) if lines else None
        if line is None:
            line = Static(id="overview-since")
            metas = overview.query("#overview-meta")
            if metas:
                overview.mount(line, after=metas.first())
            else:
                overview.mount(line)
        line.display = True
        hint = "  Press V to see only those." if since.changed else ""
        line.update(Content.assemble((since.summary, "$text-warning bold" if since.changed else "$text-muted"), hint))

    def _since_hint(self) -> None:
        """The line above the changes tab's list in since mode: what it shows, and how to see every change."""
        panes = self.query("#changes")
        if not panes:
            return
        tab = panes.first(TabPane)
        hints = tab.query("#since-hint")
        hint = hints.first(Static) if hints else None
        since = self.since
        if not self.since_mode or since is None:
            if hint is not None:
                hint.display = False
            return
        if hint is None:
            hint = Static(id="since-hint")
            tab.mount(hint, before=0)
        hint.display = True
        when = f" on {format.stamp(since.seen.at)}" if since.seen.at else ""
        verb = "reviewed" if since.seen.how == "reviewed" else "last viewed it"
        main = f"; {len(since.from_main)} from main" if since.from_main else ""
        hint.update(
            Content.assemble(
                (f"Since you {verb}{when}: {format.count(len(since.changed), 'page')}{main}.", "$text-warning"),
                ("  V: every change", "$text-muted"),
            )
        )

    # -- the review bar: the sweep's progress and the pending review, under the header -------------------------

    def show_review_bar(self) -> None:
        found = self.query("#cr-review-bar")
        bar = found.first() if found else None
        if not isinstance(bar, ReviewBar):
            return
        pending = self.services.pending_review.get(self.space_id, self.cr.id) if self.cr is not None else None
        sweep = self.sweep if self.sweep is not None and not self.sweep.finished else None
        bar.show(sweep, pending, stop_words=self._stop_words if sweep is not None else "")

    def sweep_at_thread(self, comment_id: str) -> tuple[Sweep, str] | None:
        """The sweep and its stop's words when it stands on the thread ``comment_id`` (that thread's screen shows
        the bar, and its space goes on: ``review_bar.sweep_below``)."""
        sweep = self.sweep
        stop = sweep.current if sweep is not None and not sweep.finished else None
        if sweep is None or stop is None or stop.kind != "thread" or stop.comment_id != comment_id:
            return None
        return sweep, self._stop_words

    def on_changes_pane_progress(self) -> None:
        self.show_review_bar()  # the change request (re)loaded: its pending review is known

    # -- the sweep (space, :sweep) -----------------------------------------------------------------------------

    def action_sweep(self) -> None:
        self._sweep_step()

    @work(exclusive=True, group="change-request-sweep", exit_on_error=False)
    async def _sweep_step(self) -> None:
        pane, cr = self._changes_pane(), self.cr
        if pane is None or cr is None or pane.change_set is None:
            self.notify("The changed pages are still loading: press space again in a moment.", markup=False)
            return
        tabs = self.query_one("#cr-tabs", TabbedContent)
        if tabs.active != "changes":
            tabs.active = "changes"
        sweep = self.sweep
        if sweep is None or sweep.finished:
            try:
                listing = await self.services.comments.load(self.space_id, change_request=cr.id)
            except ServiceError as exc:
                notify_error(self, exc, doing="Could not read the threads to sweep")
                return
            stops = plan(pane.change_set.changed, pane.viewed, listing.comments)
            if not stops:
                self.notify("Nothing to sweep: every changed page is viewed and no thread is open.", markup=False)
                return
            self._thread_texts = {c.id: first_line(plain_markdown(c.text), 50) for c in listing.comments}
            self.sweep = sweep = Sweep(stops)
        else:
            self._leave(pane, sweep.current)
        stop = sweep.advance()
        if stop is None:
            self.sweep = None
            self.notify(f"Sweep done: {sweep.total} stop{'s' if sweep.total != 1 else ''} walked.", markup=False)
        else:
            self._go(pane, cr, stop)
        self.show_review_bar()

    def _leave(self, pane: ChangesPane, stop: Stop | None) -> None:
        """Leaving a page of the sweep: it was read, so it is marked viewed."""
        if stop is None or stop.kind != "page" or stop.page_id is None or stop.page_id in pane.viewed:
            return
        if pane.pages.list.move_to(stop.page_id):
            pane.action_toggle_viewed()

    def _go(self, pane: ChangesPane, cr: ChangeRequest, stop: Stop) -> None:
        if stop.kind == "page":
            self._stop_words = f"page “{stop.title}”"
            if stop.page_id is not None and not pane.pages.list.move_to(stop.page_id):
                self.notify("That page is hidden by the list's filter: clear it (esc) to see it.", markup=False)
            pane.pages.list.focus()
            return
        words = self._thread_texts.get(stop.comment_id or "", "") or "Comment"
        on = f" on “{stop.title}”" if stop.page_id else ""
        self._stop_words = f"thread “{words}”{on}"
        ids = {"space_id": self.space_id, "comment_id": stop.comment_id, "change_request": cr.id}
        self.post_message(Open("thread", ids, title=words))

    # -- the pending review (P, H) -------------------------------------------------------------------------------

    def action_toggle_pending(self) -> None:
        if (cr := self.cr) is None:
            return
        review = self.services.pending_review.toggle(self.space_id, cr.id)
        if review.holding:
            kept = "" if self.services.pending_review.kept else " (Folio keeps no local data: until it quits)"
            said = f"Holding your comments and replies here until your verdict (R sends them){kept}."
        elif review.items:
            said = f"New comments go out at once; the {len(review.items)} held still go with your verdict."
        else:
            said = "No longer holding: comments go out at once."
        self.notify(said, markup=False)
        self.show_review_bar()

    def action_pending_list(self) -> None:
        if (cr := self.cr) is None:
            return
        from folio.tui.modals.pending_review import PendingReviewModal

        title = f"#{cr.number} {cr.subject or 'Untitled'}"
        self.app.push_screen(
            PendingReviewModal(self.services, self.space_id, cr.id, title=title), lambda _: self.show_review_bar()
        )
