"""Changes since your last review, on the change request screen: the overview's line ("3 pages changed since you
reviewed on <date>"), the changes tab showing only those changes (``V`` toggles), and why ``V`` cannot act.

The change request screen mixes :class:`SinceReview` in after its screen base and calls :meth:`show_changes`
where it shows the loaded changes. What changed is :mod:`folio.services.review.since_review`; the changes tab shows its
change set in the same page list and diff view. Pages whose change came from main say so (``main``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Static, TabPane

from folio.services import format
from folio.services.errors import ServiceError
from folio.tui.screens.base import FolioScreen

if TYPE_CHECKING:
    from folio.models.change_request import ChangeRequest
    from folio.services.review.review import ChangeSet
    from folio.services.review.since_review import Since
    from folio.tui.widgets.change_overview import ChangesPane

__all__ = ["FROM_MAIN", "SINCE_BINDINGS", "SinceReview"]

log = logging.getLogger(__name__)

FROM_MAIN = "from main"
"""The change kind a page whose change came from main (an update) gets in the since-your-review view."""

SINCE_BINDINGS: list[BindingType] = [
    Binding(
        "V",
        "since_review",
        "Since review",
        show=True,  # the footer offers it where it fits, only while it can act (fit_footer)
        id="change-request.since-review",
        tooltip="Show only what changed since your last review (again: every change)",
    )
]


class SinceReview(FolioScreen):
    """The change request screen's "since your last review" (mixed in after its screen base)."""

    space_id: str
    since: Since | None = None
    since_mode: bool = False
    """Whether the changes tab shows only the changes since the last review."""
    all_changes: ChangeSet | None = None

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
            action_tab = getattr(self, "action_tab", None)
            if callable(action_tab):
                action_tab("changes")

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

    # -- what it says -------------------------------------------------------------------------------------------

    def _changes_pane(self) -> ChangesPane | None:
        found = self.query("#cr-changes")
        return found.first() if found else None  # type: ignore[return-value]

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
