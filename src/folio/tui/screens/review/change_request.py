"""One change request, for keyboard review: the overview, the changed pages with their diffs, the comments,
and the decisions (review, merge, update from main) from any tab.

    ChangeRequestScreen(services, space_id, 12)            # by number, or by id

Keys (binding ids ``change-request.*``, ``change_request_keys``): 1/2/3/4 tabs; R review; m merge; u update from
main; p PDF link; t subject; d description (e in $EDITOR); S status. The changes tab adds its own (see
``ChangesPane``). A key that cannot act says why; the footer shows the most useful keys of the tab that fit, ``?``
all of them. The decisions are ``change_request_decisions``: each ends in a message saying what happened (or what
failed) and reloads the screen; a write elsewhere to this space's change requests or comments reloads it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.content import Content
from textual.css.query import NoMatches
from textual.widgets import Header, Static, TabbedContent, TabPane

from folio.services.errors import ServiceError
from folio.services.review.authoring import REVIEW_REQUESTS_NOT_OFFERED
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first
from folio.tui.screens.base import CRUMB, Item
from folio.tui.screens.review.change_request_decisions import Decisions, edit_in_editor
from folio.tui.screens.review.change_request_keys import BINDINGS as KEYS
from folio.tui.screens.review.change_request_keys import fit_footer, order_for, why_cannot
from folio.tui.screens.review.change_request_review import ReviewSweep
from folio.tui.screens.review.change_request_reviewers import asked_of
from folio.tui.screens.review.change_request_since import SINCE_BINDINGS, SinceReview
from folio.tui.textual_private import binding_chain
from folio.tui.widgets.change_overview import SIDE_BY_SIDE_MIN, ChangeOverview, ChangesPane
from folio.tui.widgets.focus_hold import HoldsFocus
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.review_bar import ReviewBar
from folio.tui.widgets.review_checks import ReviewChecks

if TYPE_CHECKING:
    from textual import events
    from textual.binding import ActiveBinding

    from folio.models.change_request import ChangeRequest
    from folio.services import Services
    from folio.services.review.review import Overview

__all__ = ["ChangeRequestScreen", "edit_in_editor"]

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


class ChangeRequestScreen(Decisions, SinceReview, ReviewSweep):
    """A change request by id or number; its crumb is ``#<number> <subject>``."""

    space_id: str

    ROUTE: ClassVar[str | None] = CHANGE_REQUEST.kind
    AUTO_FOCUS = "#cr-overview"  # (the first focusable is the tabs: a push would focus them, not the overview)

    CSS_PATH = [styles_dir() / "change_request.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [*KEYS, *SINCE_BINDINGS]

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
        return [self.changes, *comments, self.checks]

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
