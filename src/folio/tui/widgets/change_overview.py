"""The bodies of a change request's first two tabs. Every server string goes through ``safe``.

ChangeOverview   subject, status and people, reviewers and their verdicts, what it changes, the description
ChangesPane      the changed pages (a ResourceBrowser) beside the diff of the one under the cursor (DiffView),
                 with the review keys: layout, wrap, next change, viewed marks, next unviewed, only changed pages,
                 c: a comment on the block under the diff's cursor (``diff_comment``), E: the page in $EDITOR, and
                 i: suggest a change at the diff's line (``folio.tui.page_edit``)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from folio.services import format
from folio.services.review.diff import MarkdownDiff, PageMove, diff_markdown, page_moves
from folio.tui.actions import Explains
from folio.tui.safe import safe
from folio.tui.widgets.diff_comment import comment_from_diff
from folio.tui.widgets.diff_view import DiffView
from folio.tui.widgets.focus_hold import HoldsFocus
from folio.tui.widgets.markdown_view import SafeMarkdown, sanitize_markdown
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row

if TYPE_CHECKING:
    from textual import events

    from folio.models.change_request import ChangeRequest
    from folio.services.review.diff import DiffLine
    from folio.services.review.review import ChangeSet, Overview, PageChange, Reviewer
    from folio.services.review.viewed import ViewedMarks

__all__ = ["SIDE_BY_SIDE_MIN", "ChangeOverview", "ChangesPane", "when"]

STATUS_STYLE = {
    "open": "$text-success bold",
    "draft": "$text-muted bold",
    "merged": "$text-accent bold",
    "archived": "$text-muted bold",
}
VERDICT = {
    "approved": ("\u2713 approved", "$text-success"),
    "changes-requested": ("\u2717 changes requested", "$text-error"),
    "requested": ("\u2026 review requested", "$text-warning"),
}


def when(moment: datetime | None) -> str:
    """A time in a detail pane: absolute, in UTC (``2026-10-20 11:24 UTC``), or a dash."""
    return format.stamp(moment)


def _reviewer_line(reviewer: Reviewer) -> Content:
    label, style = VERDICT[reviewer.verdict]
    parts: list[str | Content | tuple[str, str]] = ["  ", safe(reviewer.name, limit=60), "  ", (label, style)]
    notes = [when(reviewer.at)]
    if reviewer.outdated:
        notes.append("on an earlier revision")
    if reviewer.previous:
        notes.append("asked again after " + reviewer.previous.replace("-", " "))
    parts.append(("  " + " \u00b7 ".join(notes), "$text-muted"))
    if reviewer.comment:
        parts += ["\n    \u201c", safe(reviewer.comment, limit=300), "\u201d"]
    return Content.assemble(*parts)


class ChangeOverview(VerticalScroll, can_focus=True):
    """Shows an :class:`~folio.services.review.review.Overview`; keys scroll it (it takes focus)."""

    DEFAULT_CSS = """
    ChangeOverview { height: 1fr; padding: 0 1; }
    ChangeOverview > Static { height: auto; }
    ChangeOverview > .overview--section { margin-top: 1; text-style: bold; color: $text-primary; }
    ChangeOverview > SafeMarkdown { height: auto; margin: 0; padding: 0; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="overview-subject")
        yield Static(id="overview-meta")
        yield Static(Content("Reviewers"), classes="overview--section")
        yield Static(id="overview-reviewers")
        yield Static(Content("Changes"), classes="overview--section")
        yield Static(id="overview-changes")
        yield Static(Content("Description"), classes="overview--section")
        yield SafeMarkdown(id="overview-description")

    def show(self, overview: Overview) -> None:
        cr = overview.cr
        self.query_one("#overview-subject", Static).update(
            Content.assemble((f"#{cr.number} ", "bold"), safe(cr.subject or "Untitled", limit=200).stylize("bold"))
        )
        author = (cr.created_by.display_name or cr.created_by.id) if cr.created_by else "someone"
        meta: list[str | Content | tuple[str, str]] = [
            (cr.status.capitalize(), STATUS_STYLE.get(cr.status, "bold")),
            " \u00b7 by ",
            safe(author, limit=60),
            f" \u00b7 created {when(cr.created_at)} \u00b7 updated {when(cr.updated_at)}",
        ]
        if cr.merged_at:
            merger = (cr.merged_by.display_name or cr.merged_by.id) if cr.merged_by else "someone"
            meta += [f" \u00b7 merged {when(cr.merged_at)} by ", safe(merger, limit=60)]
        if cr.comments:
            meta.append(f" \u00b7 {cr.comments} open comment{'s' if cr.comments != 1 else ''}")
        self.query_one("#overview-meta", Static).update(Content.assemble(*meta))
        reviewers = [_reviewer_line(r) for r in overview.reviewers]
        asked = any(r.verdict == "requested" for r in overview.reviewers)
        if not overview.requests_offered:
            note = "This service does not offer asking for reviewers."
        else:
            note = "a asks a member to review" + (", A stops asking one." if asked else ".")
        reviewers.append(Content.styled(("  " if reviewers else "  No reviewers yet. ") + note, "$text-muted"))
        self.query_one("#overview-reviewers", Static).update(Content("\n").join(reviewers))
        self.query_one("#overview-changes", Static).update(self._changes(overview))
        text = cr.description.plain_text() if cr.description else ""
        self.query_one("#overview-description", SafeMarkdown).show(text.strip() or "*No description.*")

    @staticmethod
    def _changes(overview: Overview) -> Content:
        counts = overview.counts
        if not counts and not overview.more:
            return Content("  No changes yet.")
        words = ", ".join(
            f"{n} page{'s' if n != 1 else ''} {word}" if word != "other" else f"{n} other change{'s' * (n != 1)}"
            for word, n in counts.items()
        )
        lines = [Content("  " + words + (f" (and {overview.more} more)" if overview.more else ""))]
        for change in overview.changes[:12]:
            kind = change.type.replace("page_", "").replace("_", " ")
            lines.append(Content.assemble((f"    {kind:<9}", "$text-muted"), safe(change.subject, limit=100)))
        if len(overview.changes) > 12:
            lines.append(Content(f"    \u2026 and {len(overview.changes) - 12} more (see the Changes tab)"))
        return Content("\n").join(lines)


# --- the changes tab ------------------------------------------------------------------------------------------

SIDE_BY_SIDE_MIN = 120
"""Columns the terminal needs for the side-by-side diff; below it the diff is unified."""
ROOMY = 140
"""Below this many columns a side-by-side diff takes room from the page list (which narrows)."""
SHORT = {"created": "new", "edited": "edit", "moved": "move", "deleted": "del", "from main": "main"}
COLUMNS = (Column("viewed", "\u2713", width=1), Column("change", "Change", width=9), Column("page", "Page"))


def _clean(text: str | None) -> str | None:
    return None if text is None else sanitize_markdown(text)


def _binding(key: str, action: str, label: str, name: str, tooltip: str, *, show: bool = False) -> Binding:
    return Binding(key, action, label, show=show, id=f"change-request.{name}", tooltip=tooltip)


class ChangesPane(Horizontal, HoldsFocus, Explains):
    """The changed pages (left, a ResourceBrowser) and the diff of the one under the cursor (right, a DiffView).

    Its keys work while focus is inside it: s layout, w wrap, n/N and ]c/[c changes, v viewed, U and ]u
    unviewed, f only changed pages, c comment on the block under the diff's cursor (j/k move it in the diff), E
    edit the page in $EDITOR (at the diff's cursor), i suggest there (``s`` is the layout's: a closed change
    request's suggestion goes into a new one).
    "Viewed" marks are read and written through ``marks`` (per change request id and revision); the count is
    posted as :class:`ChangesPane.Progress`. Opened while the pages load, it holds the focus (and the keys typed
    for the list) until they are in (:class:`~folio.tui.widgets.focus_hold.HoldsFocus`).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        _binding("s", "toggle_layout", "Split", "layout", "Unified or side-by-side diff"),
        _binding("w", "toggle_wrap", "Wrap", "wrap", "Wrap long lines of the diff (or scroll them sideways)"),
        _binding("c", "comment", "Comment", "comment", "Comment on the block under the diff's cursor"),
        _binding("n", "change(1)", "Next change", "next-change", "Next change (also ]c)", show=True),
        _binding("N", "change(-1)", "Prev change", "previous-change", "Previous change (also [c)"),
        _binding("right_square_bracket", "prefix(']')", "]c ]u", "next-prefix", "]c next change, ]u next unviewed"),
        _binding("left_square_bracket", "prefix('[')", "[c [u", "previous-prefix", "[c previous change, [u previous"),
        _binding("v", "toggle_viewed", "Viewed", "viewed", "Mark the page viewed (or not)", show=True),
        _binding("U", "unviewed(1)", "Unviewed", "next-unviewed", "The next page not viewed yet (also ]u)"),
        _binding("f", "toggle_filter", "Only changed", "only-changed", "Show only the changed pages, or all"),
        _binding(
            "E",
            "edit_page",
            "Edit page",
            "edit-page",
            "Edit the page in $EDITOR (at the diff's cursor) and send it into this change request",
        ),
        _binding(
            "i",
            "suggest",
            "Suggest",
            "suggest",
            "Suggest a change at the diff's line in $EDITOR: into this change request, or a new one if it is closed",
        ),
    ]

    prefer_side_by_side: ClassVar[bool] = True
    """The layout asked for last (kept for the session); it applies where the terminal is wide enough."""
    prefer_wrap: ClassVar[bool] = False
    """Whether long lines wrap (kept for the session)."""

    @dataclass
    class Progress(Message):
        """How many of the changed pages are marked viewed."""

        pane: ChangesPane
        seen: int
        total: int

        @property
        def control(self) -> ChangesPane:
            return self.pane

    def __init__(self, marks: ViewedMarks, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.marks = marks
        self.change_set: ChangeSet | None = None
        self.viewed: set[str] = set()
        self.only_changed = True
        self.shown: str | None = None
        self._diffs: dict[str, MarkdownDiff] = {}
        self._pending: str | None = None
        self.moves: dict[str, PageMove] = {}
        """The moved pages' parents before and after, by page id (from the change list)."""

    def compose(self) -> ComposeResult:
        yield ResourceBrowser(COLUMNS, empty="This change request changes no page.", id="changes-pages")
        with Vertical(id="changes-diff"):
            yield Static(id="diff-title")
            yield DiffView(cursor=True, space=False, id="diff-view")  # space: the review sweep

    @property
    def pages(self) -> ResourceBrowser:
        return self.query_one("#changes-pages", ResourceBrowser)

    def held_list(self) -> ResourceList:
        return self.pages.list

    @property
    def diff_view(self) -> DiffView:
        return self.query_one("#diff-view", DiffView)

    def fit(self, width: int) -> None:
        """Use side by side where the terminal has room for it (and it is wanted); a side-by-side diff in fewer
        than :data:`ROOMY` columns narrows the page list."""
        self.diff_view.side_by_side = self.prefer_side_by_side and width >= SIDE_BY_SIDE_MIN
        self.diff_view.wrap = self.prefer_wrap
        self.set_class(self.diff_view.side_by_side and width < ROOMY, "-roomy-diff")
        self._title()

    # -- data -------------------------------------------------------------------------------------------------

    def show(self, changes: ChangeSet, moves: dict[str, PageMove] | None = None) -> None:
        """Show a (re)loaded change set: the diffs are computed again, the marks read for its revision. ``moves``
        (default: from the screen's overview, its change list) say where moved pages were and are."""
        if moves is None:
            overview = getattr(self.screen, "overview", None)
            moves = page_moves(getattr(overview, "changes", ()))
        self.moves = moves
        self.change_set = changes
        self._diffs.clear()
        self.shown = None
        self.viewed = self.marks.viewed(changes.cr.id, changes.cr.revision or "")
        self._rows()
        self.hand_over()

    def _rows(self, keep: str | None = None) -> None:
        changes = self.change_set
        if changes is None:
            return
        pages = changes.changed if self.only_changed else changes.pages
        self.pages.empty = "This change request changes no page." if self.only_changed else "It has no pages."
        self.pages.set_rows([self._row(p) for p in pages], keep=keep)
        changed = changes.changed
        self.post_message(self.Progress(self, sum(1 for p in changed if p.id in self.viewed), len(changed)))
        page = self.page
        if page is None or page.id != self.shown:
            self._show_page(page)
        else:
            self._title()

    def _row(self, page: PageChange) -> Row:
        mark = "\u2713" if page.id in self.viewed else ("\u2022" if page.changed else " ")
        title = safe(page.title, limit=120)
        if (move := self.moves.get(page.id)) is not None:  # from where to where, after the title
            places = " \u2192 ".join(safe(p or "top level", limit=40).plain for p in (move.before, move.after))
            title = Content.assemble(title, (f" ({places})", "$text-muted"))
        return Row(
            key=page.id,
            cells=[mark, "+".join(SHORT.get(k, k) for k in page.kinds) or "\u2014", title],
            search=f"{page.title} {page.path} {page.label}".lower(),
            style="" if page.changed else "dim",
            indent=0 if self.only_changed else page.depth,
            data=page,
        )

    @property
    def page(self) -> PageChange | None:
        """The page under the cursor."""
        row = self.pages.list.highlighted
        return row.data if row is not None else None  # type: ignore[return-value]

    def diff(self, page: PageChange) -> MarkdownDiff:
        if page.id not in self._diffs:
            self._diffs[page.id] = diff_markdown(_clean(page.before), _clean(page.after))
        return self._diffs[page.id]

    # -- the diff shown ---------------------------------------------------------------------------------------

    @on(ResourceList.Highlighted)
    def _highlighted(self, event: ResourceList.Highlighted) -> None:
        page: PageChange | None = event.row.data if event.row else None  # type: ignore[assignment]
        if page is None or page.id != self.shown:
            self._show_page(page)

    @on(ResourceList.Selected)
    def _selected(self, event: ResourceList.Selected) -> None:
        self.diff_view.focus()  # enter on a page: read its diff (j/k scroll it, tab goes back to the list)

    def _show_page(self, page: PageChange | None) -> None:
        self.shown = page.id if page else None
        if page is None:
            self.diff_view.show(None, "No page to show.")
        elif (diff := self.diff(page)).changed:
            self.diff_view.show(diff)
        elif not page.document:
            self.diff_view.show(None, "This page has no text of its own (a group or a link).")
        else:
            self.diff_view.show(None, f"No change to this page's text ({page.label}).")
        self._title()

    def _title(self) -> None:
        page = self.change_set.find(self.shown) if self.change_set and self.shown else None
        parts: list[str | Content | tuple[str, str]] = []
        if page is not None:
            parts += [safe(page.path or page.title, limit=80).stylize("bold"), f" \u00b7 {page.label}"]
            if (move := self.moves.get(page.id)) is not None:
                parts.append(f" \u00b7 {safe(move.words(), limit=120).plain}")
            if page.id in self._diffs and self._diffs[page.id].changed:
                parts.append(f" \u00b7 {self._diffs[page.id].summary}")
            for name, (old, new) in page.attributes.items():
                parts += [f" \u00b7 {name}: ", safe(str(old), limit=40), " \u2192 ", safe(str(new), limit=40)]
            parts.append(" \u00b7 ")
        wrapped = ", wrapped" if self.diff_view.wrap else ""
        if self.diff_view.side_by_side:
            parts.append((f"side by side{wrapped}", "$text-muted"))
        elif self.prefer_side_by_side:
            parts.append((f"unified{wrapped} (side by side: {SIDE_BY_SIDE_MIN}+ columns)", "$text-muted"))
        else:
            parts.append((f"unified{wrapped}", "$text-muted"))
        self.query_one("#diff-title", Static).update(Content.assemble(*parts))

    # -- keys -------------------------------------------------------------------------------------------------

    def action_toggle_layout(self) -> None:
        width = self.app.size.width
        type(self).prefer_side_by_side = not self.diff_view.side_by_side
        if self.prefer_side_by_side and width < SIDE_BY_SIDE_MIN:
            self.notify(
                f"Side by side needs {SIDE_BY_SIDE_MIN} columns (this terminal has {width}): the diff stays unified.",
                markup=False,
            )
        self.fit(width)

    def action_toggle_wrap(self) -> None:
        type(self).prefer_wrap = not self.diff_view.wrap
        self.fit(self.app.size.width)

    def why_not(self, action: str) -> str | None:
        if action in ("comment", "edit_page", "suggest"):
            if self.change_set is None:
                return "The changed pages are still loading."
            page = self.change_set.find(self.shown) if self.shown is not None else None
            if page is None:
                return "No page is shown: pick one in the list."
            if action != "comment" and page.after is None:
                return "This change request deletes the page: it has no text to edit."
            if action != "comment" and not page.document:
                return "This page has no text of its own (a group or a link)."
        return None

    def action_edit_page(self) -> None:
        if self.why_not("edit_page") is None:
            self._edit(suggesting=False)

    def action_suggest(self) -> None:
        if self.why_not("suggest") is None:
            self._edit(suggesting=True)

    @work(exclusive=True, group="changes-edit", exit_on_error=False)
    async def _edit(self, *, suggesting: bool) -> None:
        """The page shown, in $EDITOR at the new line under the diff's cursor (``folio.tui.page_edit``)."""
        from folio.tui.page_edit import edit_page, suggest  # the editor's dialogs load when first used

        changes = self.change_set
        page = changes.find(self.shown) if changes is not None and self.shown else None
        if changes is None or page is None:
            return
        cr = getattr(self.screen, "cr", None) or changes.cr  # the screen's: its status as last loaded
        line = self.diff_view.line_at_cursor() if self.diff_view.diff is not None else None
        at = line.new if line is not None else None
        if suggesting:
            await suggest(self.screen, cr.space, page.id, cr, line=at)
            return
        closed = None if cr.is_active else f"#{cr.number} is {cr.status}: its pages cannot change."
        await edit_page(self.screen, cr.space, page.id, change_request=cr.id, line=at, closed=closed)

    def action_comment(self) -> None:
        changes = self.change_set
        page = changes.find(self.shown) if changes is not None and self.shown else None
        services = getattr(self.screen, "services", None)
        if changes is None or page is None or services is None:
            return
        line = self.diff_view.line_at_cursor() if self.diff_view.diff is not None else None
        self._comment(services, changes.cr, page, line)

    @work(exclusive=True, group="changes-comment", exit_on_error=False)
    async def _comment(self, services: Any, cr: ChangeRequest, page: PageChange, line: DiffLine | None) -> None:
        await comment_from_diff(self, services, cr, page, line, _clean(page.after))

    def action_toggle_filter(self) -> None:
        self.only_changed = not self.only_changed
        current = self.page
        self._rows(keep=current.id if current else None)
        self.notify(
            "Only the changed pages." if self.only_changed else "All pages (unchanged ones dimmed).", markup=False
        )

    def action_prefix(self, key: str) -> None:
        self._pending = key

    def on_key(self, event: events.Key) -> None:
        pending, self._pending = self._pending, None
        if pending and event.key in ("c", "u"):
            event.stop()
            event.prevent_default()
            step = 1 if pending == "]" else -1
            if event.key == "c":
                self.action_change(step)
            else:
                self.action_unviewed(step)

    def _rows_from_shown(self, step: int) -> list[PageChange]:
        """The visible pages after (``step`` > 0) or before the one shown, nearest first."""
        pages: list[PageChange] = [r.data for r in self.pages.list.visible_rows]  # type: ignore[misc]
        at = next((i for i, p in enumerate(pages) if p.id == self.shown), -1)
        return pages[at + 1 :] if step > 0 else pages[:at][::-1] if at >= 0 else []

    def _open(self, page: PageChange) -> None:
        self.shown = page.id  # the Highlighted message that follows finds it shown already
        self.pages.list.move_to(page.id)
        self._show_page(page)

    def action_change(self, step: int) -> None:
        """The next (previous) change: in this page's diff, then on the following (preceding) changed pages."""
        if self.diff_view.jump(step):
            return
        for page in self._rows_from_shown(step):
            if page.changed and self.diff(page).hunks:
                self._open(page)
                self.diff_view.go_to_hunk(0 if step > 0 else -1)
                return
        self.notify("No more changes after this one." if step > 0 else "No changes before this one.", markup=False)

    def action_unviewed(self, step: int) -> None:
        """The next (previous) changed page not viewed yet, going round the list."""
        pages: list[PageChange] = [r.data for r in self.pages.list.visible_rows]  # type: ignore[misc]
        at = next((i for i, p in enumerate(pages) if p.id == self.shown), -1)
        for offset in range(1, len(pages) + 1):
            page = pages[(at + offset * step) % len(pages)]
            if page.changed and page.id not in self.viewed:
                self._open(page)
                return
        self.notify("Every changed page is viewed.", markup=False)

    def action_toggle_viewed(self) -> None:
        page, changes = self.page, self.change_set
        if page is None or changes is None:
            return
        try:
            now = self.marks.toggle(changes.cr.id, changes.cr.revision or "", page.id)
        except OSError as exc:
            self.notify(f"Could not save the viewed mark: {exc.strerror or exc}", severity="error", markup=False)
            return
        (self.viewed.add if now else self.viewed.discard)(page.id)
        self._rows(keep=page.id)
