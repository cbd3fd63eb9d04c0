"""The change request screen's review sweep and pending review (a part of ``ChangeRequestScreen``).

``space`` on the changes tab (or ``:sweep``) walks the review in order: the next changed page not viewed yet
(leaving a page marks it viewed), then the open threads on it (each opens; esc comes back, space goes on), then the
next page; the line under the header shows a progress bar. ``P`` holds the comments and replies written on this
change request as a pending review (``services.pending_review``: kept on this machine), ``H`` lists them, and the
verdict (``R``) sends them first, in order. ``review_extras`` gives the review dialog the held comments and what
approving still waits for (``[review] approve_requires``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.widgets import TabbedContent

from folio.services.errors import ServiceError
from folio.services.review.comments import first_line, plain_markdown
from folio.services.review.sweep import Stop, Sweep, missing, plan
from folio.tui.errors import notify_error
from folio.tui.navigation import Open
from folio.tui.screens.base import FolioScreen
from folio.tui.widgets.review_bar import ReviewBar

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from folio.models.change_request import ChangeRequest
    from folio.services import Services
    from folio.tui.widgets.change_overview import ChangesPane

__all__ = ["ReviewSweep", "review_extras"]


def _pane(screen: FolioScreen) -> ChangesPane | None:
    from folio.tui.widgets.change_overview import ChangesPane

    found = screen.query("#cr-changes")
    pane = found.first() if found else None
    return pane if isinstance(pane, ChangesPane) else None


def _missing_for(
    services: Services, space_id: str, cr: ChangeRequest, pane: ChangesPane | None
) -> Callable[[], Awaitable[list[str]]]:
    async def look() -> list[str]:
        changes = pane.change_set if pane is not None else None
        if changes is None or changes.cr.revision != cr.revision:
            changes = await services.review.changes(space_id, cr)
        viewed = pane.viewed if pane is not None else services.review.viewed.viewed(cr.id, cr.revision or "")
        listing = await services.comments.load(space_id, change_request=cr.id)
        me = listing.me.id if listing.me is not None else None
        return missing(services.approve_requires, changes.changed, viewed, listing.comments, me)

    return look


def review_extras(screen: FolioScreen, space_id: str, cr: ChangeRequest) -> dict[str, Any]:
    """What the review dialog of ``cr`` shows besides the verdict: the held comments of the pending review (sent
    first, in order) and, when config.toml requires anything of an approval, how to look up what is missing."""
    services = screen.services
    held = [(item.where, first_line(item.markdown, 80)) for item in services.pending_review.get(space_id, cr.id).items]
    extras: dict[str, Any] = {"held": held}
    if services.approve_requires:
        extras["missing"] = _missing_for(services, space_id, cr, _pane(screen))
    return extras


class ReviewSweep(FolioScreen):
    """Mixed into ``ChangeRequestScreen`` after its first base: the sweep, ``P`` and ``H``."""

    sweeps: ClassVar[bool] = True

    space_id: str
    cr: ChangeRequest | None
    sweep: Sweep | None = None
    _stop_words: str = ""
    _thread_texts: dict[str, str] = {}  # replaced whole at each sweep, never changed in place

    # -- the line under the header -----------------------------------------------------------------------------

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

    def on_screen_resume(self) -> None:
        self.show_review_bar()  # back from a thread where a reply was held (runs once per class: harmless twice)

    def on_changes_pane_progress(self) -> None:
        self.show_review_bar()  # the change request (re)loaded: its pending review is known

    # -- the sweep ---------------------------------------------------------------------------------------------

    def action_sweep(self) -> None:
        self._sweep_step()

    @work(exclusive=True, group="change-request-sweep", exit_on_error=False)
    async def _sweep_step(self) -> None:
        pane, cr = _pane(self), self.cr
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

    # -- the pending review ------------------------------------------------------------------------------------

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
