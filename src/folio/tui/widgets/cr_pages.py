"""A change request's pages as a tree you edit: new pages, renames, moves, deletions, reverts to main and files,
gathered in one plan (``services.writing.plan``) and sent as one revision. The tab "5 Pages" of the change
request screen holds it.

    pages = CrPages(services, space_id, id="cr-pages")   # then pages.load(cr) when its tab is first shown

Nothing is sent one edit at a time: each key adds a step to the plan (checked at once: a refusal is said in words
and nothing is added), and the tree shows the planned result (a page the plan adds is marked ``new``, one it moves,
renames, deletes or reverts says so). Keys on a page: ``n`` new page (under it or at the top level: the form asks),
``e`` rename (title and slug apart; a new slug changes the page's URL), ``space`` picks it up to move it (the grab
of :mod:`folio.tui.widgets.tree_grab`: ``up``/``down`` through the places it may land, ``<``/``>`` out of its
parent or into the page above it, ``enter`` or ``space`` drops it, ``esc`` puts it back), ``D`` delete (type its
title), ``v`` revert to main (asks), ``f`` a local file into the batch (its markdown link shown and copied),
``E`` edit its text (posts :class:`CrPages.EditPage`: the screen opens the editor). ``P`` shows the plan (a step
can be dropped there), ``ctrl+s`` shows it and sends it once confirmed. When the change request moved on since the
tree was read, it says so and offers to read the tree again (the plan is re-applied on it, and the steps that no
longer apply are named) or to send anyway. ``esc`` with steps planned asks before they are dropped; answering no
keeps them. After a send the tree is read again and :class:`CrPages.Sent` is posted (the screen reloads).

A key that cannot act says why (a link page has no slug; nothing is planned; "It is merged: its pages cannot
change"): the keys are never greyed out, since a greyed key would fall through to the screen's key of the same
letter (``P`` holds comments there, ``e`` edits the description).

The planned tree itself (:func:`planned`, :func:`page_spots`, :func:`replay`) is plain Python: no Textual.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from folio.models.content_changes import DeletePage, InsertFiles, InsertPage, RevertPage, UpdatePage
from folio.services.errors import Invalid, ServiceError
from folio.services.format import count
from folio.services.review.writing import MovedOn
from folio.services.sites.structure import Layout, Spot
from folio.tui.errors import error_message
from folio.tui.safe import safe
from folio.tui.widgets.focus_hold import HoldsFocus
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row
from folio.tui.widgets.tree_grab import Declined, TreeGrab

if TYPE_CHECKING:
    from folio.models.change_request import ChangeRequest
    from folio.services import Services
    from folio.services.review.writing import EditPlan, Sent

__all__ = ["CrPages", "Node", "Planned", "page_spots", "plan_at", "planned", "replay"]

NEW = "new-"
"""The key of a row the plan adds: ``new-<step index>`` (it has no page id until it is sent)."""
GRAB_KEYS = "up/down move · < out · > in · enter drops · esc puts back"
EDITABLE = ("draft", "open")


# --- the planned tree (no Textual) -------------------------------------------------------------------------------


@dataclass
class Node:
    """A row of the planned tree: a page as the plan leaves it."""

    key: str
    title: str
    slug: str | None
    kind: str
    page_id: str | None
    """None for a page the plan adds."""
    marks: list[str] = field(default_factory=list)

    @property
    def new(self) -> bool:
        return self.page_id is None

    def mark(self, word: str) -> None:
        if word not in self.marks:
            self.marks.append(word)


@dataclass
class Planned:
    """The change request's tree as the plan leaves it: who is where (a :class:`Layout`, so the grab can move
    rows in it), each row's node, the pages the plan deletes (still shown, marked) and the files it adds."""

    layout: Layout
    nodes: dict[str, Node]
    gone: set[str] = field(default_factory=set)
    files: list[str] = field(default_factory=list)

    def can_hold(self, key: str | None) -> bool:
        """Whether a page may be moved into ``key`` (None: the top level): a page that is there, not a link."""
        if key is None:
            return True
        node = self.nodes[key]
        return not node.new and node.kind != "link" and key not in self.gone

    def name(self, key: str | None) -> str:
        return "the top level" if key is None else f"“{self.nodes[key].title or 'Untitled'}”"

    def subtree(self, key: str) -> list[str]:
        out: list[str] = []
        for kid in self.layout.kids(key):
            out += [kid, *self.subtree(kid)]
        return out


def _index_in_layout(tree: Planned, parent: str | None, at: int | None, item: str) -> int:
    """Where position ``at`` (counted among the pages there, as the service counts them) is in ``parent``'s row
    list (which still shows the deleted ones), ``item`` left out."""
    kids = [k for k in tree.layout.kids(parent) if k != item]
    live = [n for n, k in enumerate(kids) if k not in tree.gone]
    if at is None or at >= len(live):
        return len(kids)
    return live[at]


def plan_at(tree: Planned, parent: str | None, index: int, item: str) -> int:
    """The service's position for row index ``index`` of ``parent`` (``item`` left out): deleted pages are not
    counted, the service no longer has them."""
    kids = [k for k in tree.layout.kids(parent) if k != item]
    return sum(1 for k in kids[:index] if k not in tree.gone)


def planned(plan: EditPlan) -> Planned:
    """The tree the plan's steps make of the tree it was read on (a revert stays where it is: where main has the
    page is known only once it is sent)."""
    layout, nodes = Layout(), {}
    parents: list[str] = []
    for entry in plan.pages:
        page = entry.page
        del parents[entry.depth :]
        layout.add(parents[-1] if parents else None, page.id)
        parents.append(page.id)
        nodes[page.id] = Node(page.id, page.title or "Untitled", page.slug, str(page.type or "document"), page.id)
    tree = Planned(layout, nodes)
    for n, step in enumerate(plan.steps):
        change = step.change
        if isinstance(change, InsertPage):
            key = f"{NEW}{n}"
            into = change.into if change.into in nodes else None
            layout.add(into, key)
            nodes[key] = Node(key, change.title or "Untitled", change.slug, "document", None, ["new"])
        elif isinstance(change, UpdatePage):
            node = nodes.get(change.page)
            if node is None:
                continue
            given = change.model_fields_set
            if "title" in given and change.title:
                node.title = change.title
            if "slug" in given:
                node.slug = change.slug
            if given & {"title", "slug"}:
                node.mark("renamed")
            if "into" in given:
                into = change.into if change.into in nodes else None
                layout.place(change.page, into, _index_in_layout(tree, into, change.at, change.page))
                node.mark("moved")
        elif isinstance(change, DeletePage) and change.page in nodes:
            for key in [change.page, *tree.subtree(change.page)]:
                tree.gone.add(key)
                nodes[key].mark("deleted")
        elif isinstance(change, RevertPage) and change.page in nodes:
            nodes[change.page].mark("revert")
        elif isinstance(change, InsertFiles):
            tree.files += [f.name for f in change.files]
    return tree


def page_spots(tree: Planned, item: str) -> list[Spot]:
    """Every place ``item`` may land, in the order of the tree's rows (inside a page before after it): at the top
    level or under any page that is there and not a link, never under itself."""
    layout = tree.layout
    out: list[Spot] = []
    line = 0

    def visit(parent: str | None, depth: int) -> None:
        nonlocal line
        kids = [k for k in layout.kids(parent) if k != item]
        allowed = tree.can_hold(parent)
        for n, kid in enumerate(kids):
            if allowed:
                out.append(Spot(parent, n, depth, line))
            line += 1
            visit(kid, depth + 1)
        if allowed:
            out.append(Spot(parent, len(kids), depth, line))

    visit(None, 0)
    return out


def replay(old: EditPlan, new: EditPlan) -> list[str]:
    """Apply ``old``'s steps, in order, to ``new`` (a plan on the tree read again); the steps that no longer apply
    are left out and said, each with why."""
    lost: list[str] = []
    for step in old.steps:
        change = step.change
        try:
            if isinstance(change, InsertPage):
                markdown = change.document.markdown or ""
                new.add_page(change.title or "", under=change.into, markdown=markdown)
            elif isinstance(change, UpdatePage):
                given = change.model_fields_set
                if given & {"title", "slug"}:
                    title = change.title if "title" in given else None
                    slug = change.slug if "slug" in given else None
                    new.rename(change.page, title=title, slug=slug)
                if "into" in given:
                    new.move(change.page, into=change.into, at=change.at)
            elif isinstance(change, DeletePage):
                new.delete(change.page)
            elif isinstance(change, RevertPage):
                new.revert(change.page)
            elif isinstance(change, InsertFiles):
                # The file as read then (nothing in the tree to check it against). Within the 50 changes a batch
                # holds: the plan read again has at most the steps of the old one.
                new.steps.append(step)
        except Invalid as exc:
            lost.append(f"{step.words}: {exc}")
    return lost


# --- the widget ----------------------------------------------------------------------------------------------

COLUMNS = (
    Column("title", "Page", title=True),
    Column("slug", "Slug", 18),
    Column("plan", "Planned", 16, style="bold yellow"),
)


class PagesList(ResourceList):
    """The tree's rows; while a page is in hand the cursor keys and enter move and drop it."""

    ALLOW_SELECT = False

    def __init__(self, host: CrPages) -> None:
        super().__init__(COLUMNS)
        self.host = host

    def action_cursor_down(self) -> None:
        self.host.shift(1) if self.host.grab else super().action_cursor_down()

    def action_cursor_up(self) -> None:
        self.host.shift(-1) if self.host.grab else super().action_cursor_up()

    def action_select(self) -> None:
        if self.host.grab:
            self.host.drop()
        else:
            self.host.note("enter does nothing here: space picks the page up to move it, e renames it, E edits it.")


class PagesBrowser(ResourceBrowser):
    def __init__(self, host: CrPages) -> None:
        super().__init__(COLUMNS, empty="This change request has no pages.", id="cr-pages-list")
        self._list = PagesList(host)


def _binding(key: str, action: str, label: str, name: str, tooltip: str, *, show: bool = True) -> Binding:
    return Binding(key, action, label, show=show, id=f"cr-pages.{name}", tooltip=tooltip)


class CrPages(Vertical, HoldsFocus):
    """The change request's page tree and the plan of edits to it (see the module's docstring)."""

    DEFAULT_CSS = """
    CrPages { height: 1fr; }
    CrPages > #cr-pages-summary { height: auto; max-height: 3; color: $text-muted; }
    CrPages > #cr-pages-summary.-planned { color: $text-warning; }
    CrPages > #cr-pages-note { height: auto; max-height: 3; display: none; }
    CrPages > #cr-pages-note.-shown { display: block; }
    CrPages > #cr-pages-note.-error { color: $text-error; }
    CrPages > #cr-pages-note.-grab { color: $text-accent; text-style: bold; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        _binding("n", "new_page", "New", "new", "Plan a new page (under this one, or at the top level)"),
        _binding("e", "rename", "Rename", "rename", "Plan a new title or slug for the page"),
        _binding("space", "grab", "Move", "grab", "Pick the page up to move it (space or enter drops it)"),
        _binding("less_than_sign", "nest('out')", "Out", "out", "Out of its parent page", show=False),
        _binding("greater_than_sign", "nest('into')", "Into", "into", "Into the page above it", show=False),
        _binding("D", "delete", "Delete", "delete", "Plan the page's deletion (type its title)"),
        _binding("v", "revert", "Revert", "revert", "Plan reverting the page to main (asks)"),
        _binding("f", "add_file", "File", "file", "Plan a local file into the change request; copies its link"),
        _binding("E", "edit_page", "Edit text", "edit", "Edit the page's text in $EDITOR"),
        _binding("P", "show_plan", "Plan", "plan", "Show the plan (x drops a step)"),
        _binding("ctrl+s", "send", "Send", "send", "Show the plan, then send it as one revision"),
        _binding("r", "reread", "Read again", "reread", "Read the tree again (the plan is kept and re-applied)"),
        _binding("escape", "leave", "Back", "leave", "Put back what you hold; with a plan, ask before leaving"),
    ]

    @dataclass
    class EditPage(Message):
        """``E`` on a page: open its text in the editor (the screen wires it)."""

        pages: CrPages
        page_id: str
        title: str

        @property
        def control(self) -> CrPages:
            return self.pages

    @dataclass
    class Sent(Message):
        """A plan was sent (or found done after a lost answer): the change request has a new revision."""

        pages: CrPages
        sent: Sent

        @property
        def control(self) -> CrPages:
            return self.pages

    def __init__(self, services: Services, space_id: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.services = services
        self.space_id = space_id
        self.cr: ChangeRequest | None = None
        self.plan: EditPlan | None = None
        self.shape: Planned | None = None
        self.grab: TreeGrab | None = None
        self.sending = False
        self.loaded = False
        """A read was asked for (the tab was shown)."""

    def compose(self) -> ComposeResult:
        yield Static(Content("Reading the pages\u2026"), id="cr-pages-summary")
        yield PagesBrowser(self)
        yield Static(id="cr-pages-note")

    def on_mount(self) -> None:
        self.browser.set_loading(True)

    @property
    def browser(self) -> PagesBrowser:
        return self.query_one(PagesBrowser)

    def held_list(self) -> ResourceList:
        return self.browser.list

    @property
    def planned(self) -> int:
        """How many changes are planned and not sent."""
        return len(self.plan.steps) if self.plan is not None else 0

    def on_unmount(self) -> None:
        if self.planned:  # the last resort: the screen went without asking (esc asks first)
            self.app.notify(
                f"{count(self.planned, 'planned page change')} of change request #{self.cr.number if self.cr else '?'} "
                "were dropped, never sent.",
                severity="warning",
                markup=False,
            )

    # -- reading ---------------------------------------------------------------------------------------------

    def follow(self, cr: ChangeRequest) -> None:
        """The screen read the change request (again): its status decides what may change."""
        self.cr = cr

    def load(self, cr: ChangeRequest) -> None:
        """Read the change request's tree (the first time its tab is shown)."""
        self.cr, self.loaded = cr, True
        self._read()

    @work(exclusive=True, group="cr-pages", exit_on_error=False)
    async def _read(self) -> None:
        await self.read_again()

    async def read_again(self) -> bool:
        """Read the tree now; a plan with steps is re-applied on it (those that no longer apply are said).
        False when it could not be read (the plan, if any, stays as it was)."""
        if self.cr is None:
            return False
        self.browser.set_loading(True)
        try:
            plan = await self.services.writing.plan(self.space_id, self.cr.id)
        except ServiceError as exc:
            self.browser.set_error(error_message(exc, doing="Could not read the pages", hint="Press r to try again."))
            if self.plan is None:
                self.query_one("#cr-pages-summary", Static).update(Content("The pages could not be read."))
            self.hand_over()
            return False
        old, self.plan = self.plan, plan
        self.cr = plan.change_request
        self.grab = None
        lost = replay(old, plan) if old is not None and old.steps else []
        self.browser.set_loading(False)
        self.redraw()
        self.hand_over()
        if old is not None and old.steps:
            kept = count(len(plan.steps), "step")
            verb = "applies" if len(plan.steps) == 1 else "apply"
            if lost:
                gone = "; ".join(lost)
                self.note(f"Read again: {kept} of your plan still {verb}. No longer: {gone}", "error")
            else:
                self.note(f"Read again: every step of your plan still applies ({kept}; ctrl+s sends them).")
        return True

    # -- drawing ---------------------------------------------------------------------------------------------

    def redraw(self, keep: str | None = None) -> None:
        plan = self.plan
        if plan is None:
            return
        if self.grab is None or self.shape is None:
            self.shape = planned(plan)
        tree = self.shape
        held = self.grab.item if self.grab is not None else None
        rows = [self._row(tree, key, depth, held) for key, depth in tree.layout.rows()]
        row = self.browser.list.highlighted
        self.browser.set_rows(rows, keep=keep or held or (row.key if row else None), staged=False)
        if keep or held:
            self.browser.list.move_to(keep or held or "")
        self._summarise()

    def _row(self, tree: Planned, key: str, depth: int, held: str | None) -> Row:
        node = tree.nodes[key]
        title = safe(node.title or "Untitled", limit=200).plain
        if node.kind == "link":
            title = f"↗ {title}"
        slug = "(link)" if node.kind == "link" else safe(node.slug or "", limit=100).plain
        marks = list(node.marks)
        if key == held:
            marks.insert(0, "moving")
        style = "bold" if key == held else "strike" if key in tree.gone else ""
        return Row(key, [title, slug, ", ".join(marks)], indent=depth, style=style, data=node)

    def _summarise(self) -> None:
        plan, tree, cr = self.plan, self.shape, self.cr
        line = self.query_one("#cr-pages-summary", Static)
        if plan is None or tree is None or cr is None:
            return
        head = f"#{cr.number} · {count(len(plan.pages), 'page')}"
        if cr.status not in EDITABLE:
            words = f"{head}. It is {cr.status}: its pages cannot change."
        elif not plan.steps:
            words = f"{head} · nothing planned: each edit (n e space D v f) joins one plan"
        else:
            files = f" ({count(len(tree.files), 'file')})" if tree.files else ""
            words = f"{head} · {count(len(plan.steps), 'change')} planned{files}: P shows them, ctrl+s sends them"
        line.update(safe(words, limit=400))
        line.set_class(bool(plan.steps), "-planned")

    def note(self, message: str | Content | None, tone: str = "") -> None:
        """Say something under the tree until the next thing is said (``tone``: ``error`` or ``grab``)."""
        line = self.query_one("#cr-pages-note", Static)
        text = safe(message, limit=900) if isinstance(message, str) else message
        line.update(text or Content(""))
        line.set_class(bool(text and text.plain), "-shown")
        line.set_class(tone == "error", "-error")
        line.set_class(tone == "grab", "-grab")

    def _refuse(self, why: str) -> None:
        self.note(why, "error")
        self.app.bell()

    # -- what can act ----------------------------------------------------------------------------------------

    def _node(self) -> Node | None:
        row = self.browser.list.highlighted
        return row.data if row is not None and isinstance(row.data, Node) else None

    def why_not(self, action: str) -> str | None:
        """Why ``action`` cannot act now, in a sentence (None: it can)."""
        if self.plan is None or self.shape is None:
            return "The pages are still being read." if self.loaded else "The pages are not read yet."
        if action in ("show_plan", "leave", "reread"):
            if action == "show_plan" and not self.plan.steps:
                return "Nothing is planned yet: n, e, space, D, v and f plan changes."
            return None
        if self.sending:
            return "The plan is being sent: wait for its answer."
        cr = self.cr
        if cr is not None and cr.status not in EDITABLE:
            return f"It is {cr.status}: its pages cannot change."
        if action == "send":
            return None if self.plan.steps else "Nothing is planned: there is nothing to send."
        if action in ("new_page", "add_file"):
            return None
        node = self._node()
        if node is None:
            return "No page is under the cursor."
        tree = self.shape
        if node.key in tree.gone:
            return f"“{node.title}” is deleted by this plan: drop that step first (P, then x)."
        if node.new:
            what = "moves" if action in ("grab", "nest") else "changes"
            return f"“{node.title}” is a page this plan adds: it {what} once the plan is sent (or drop its step: P, x)."
        if action == "edit_page" and node.kind == "link":
            return "This page is a link to elsewhere: it has no text to edit."
        if action in ("grab", "nest") and self.browser.list.filter_text:
            return "Clear the filter (esc) first: a move needs every row in view."
        return None

    def _can(self, action: str) -> bool:
        why = self.why_not(action)
        if why is not None:
            self._refuse(why)
        return why is None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Never greyed out: a greyed key would fall through to the screen's key of the same letter. Each action
        # says why it cannot act instead. Only esc is handed on (back) when there is nothing to put back or keep.
        if action == "leave":
            return self.grab is not None or bool(self.plan and self.plan.steps)
        return True

    # -- the grab --------------------------------------------------------------------------------------------

    def pick_up(self) -> bool:
        node = self._node()
        if not self._can("grab") or node is None or self.shape is None:
            return False
        try:
            found = page_spots(self.shape, node.key)
            self.grab = TreeGrab.over(self.shape, node.key, found, name=f"“{node.title}”")
        except Declined as exc:
            self._refuse(str(exc))
            return False
        self.redraw()
        self._describe()
        return True

    def _describe(self) -> None:
        grab, tree = self.grab, self.shape
        if grab is None or tree is None:
            return
        spot = grab.spot
        siblings = [k for k in tree.layout.kids(spot.parent) if k != grab.item]
        near = f"before {tree.name(siblings[spot.index])}" if spot.index < len(siblings) else "at the end"
        where = "at the top level" if spot.parent is None else f"under {tree.name(spot.parent)}"
        self.note(f"Moving {tree.name(grab.item)}: {where}, {near}. {GRAB_KEYS}", "grab")

    def shift(self, delta: int) -> None:
        grab = self.grab
        if grab is not None and self.shape is not None and grab.land(self.shape, grab.at + delta):
            self.redraw()
            self._describe()

    def nest(self, way: str) -> None:
        at_once = self.grab is None
        if at_once and not self.pick_up():
            return
        grab, tree = self.grab, self.shape
        if grab is None or tree is None:
            return
        layout, item = tree.layout, grab.item
        parent = layout.parent[item]
        target: tuple[str | None, int] | None = None
        if way == "out" and parent is not None:
            holder = layout.parent[parent]
            target = (holder, [k for k in layout.kids(holder) if k != item].index(parent) + 1)
        elif way == "into":
            kids = layout.kids(parent)
            above = kids.index(item) - 1
            if above >= 0:
                target = (kids[above], len([k for k in layout.kids(kids[above]) if k != item]))
        landed = grab.land_in(tree, *target) if target is not None else None
        if not landed:
            why = "out of: it is at the top level" if way == "out" else "into: no page above it can hold it"
            if at_once:
                self._cancel()
                self.redraw(keep=item)
            self._refuse(f"Nothing to move {tree.name(item)} {why}.")
            return
        if at_once:
            self.drop()
        else:
            self.redraw()
            self._describe()

    def drop(self) -> None:
        """Leave the page in hand where it is shown: a move step is planned (nothing when it did not move)."""
        grab, tree, plan = self.grab, self.shape, self.plan
        if grab is None or tree is None or plan is None:
            return
        if not grab.moved:
            self._cancel()
            self.redraw(keep=grab.item)
            self.note(f"{tree.name(grab.item)} is back where it was.")
            return
        spot = grab.spot
        at = plan_at(tree, spot.parent, spot.index, grab.item)
        self.grab = None
        try:
            step = plan.move(grab.item, into=spot.parent, at=at)
        except Invalid as exc:
            self.redraw(keep=grab.item)
            self._refuse(f"Not planned: {exc}")
            return
        self.redraw(keep=grab.item)
        self.note(f"Planned: {step.words}.")

    def _cancel(self) -> str | None:
        grab, tree = self.grab, self.shape
        self.grab = None
        if grab is None or tree is None:
            return None
        grab.put_back(tree)
        return grab.item

    # -- the keys ---------------------------------------------------------------------------------------------

    def action_grab(self) -> None:
        self.drop() if self.grab else self.pick_up()

    def action_nest(self, way: str) -> None:
        self.nest(way)

    def action_leave(self) -> None:
        if self.grab is not None:
            item = self._cancel()
            self.redraw(keep=item)
            self.note(f"{self.shape.name(item) if self.shape and item else 'The page'} is back where it was.")
            return
        self._leave()

    @work(exclusive=True, group="cr-pages-ask", exit_on_error=False)
    async def _leave(self) -> None:
        from folio.tui.modals.confirm import ConfirmModal

        plan = self.plan
        if plan is None or not plan.steps:
            return
        steps = count(len(plan.steps), "planned change")
        question = ConfirmModal(
            f"Leave and drop the {steps}?",
            "They were never sent. n keeps them here (ctrl+s sends them, P shows them).",
            accept_key="y",
            accept_label="Drop and leave",
        )
        if await self.app.push_screen_wait(question):
            plan.steps.clear()
            self.redraw()
            from folio.tui.screens.base import FolioScreen

            if isinstance(self.screen, FolioScreen):
                self.screen.action_back()
            return
        self.note(f"Kept: the {steps} (ctrl+s sends them, P shows them).")

    def action_new_page(self) -> None:
        if self._can("new_page"):
            self._ask_new_page()

    @work(exclusive=True, group="cr-pages-ask", exit_on_error=False)
    async def _ask_new_page(self) -> None:
        from folio.tui.modals.cr_pages import NewPageModal

        plan, tree = self.plan, self.shape
        if plan is None or tree is None:
            return
        node = self._node()
        under = node.key if node is not None and tree.can_hold(node.key) else None
        step = await self.app.push_screen_wait(NewPageModal(plan, under, tree.name(under) if under else None))
        self._planned(step)

    def action_rename(self) -> None:
        if self._can("rename"):
            self._ask_rename()

    @work(exclusive=True, group="cr-pages-ask", exit_on_error=False)
    async def _ask_rename(self) -> None:
        from folio.tui.modals.cr_pages import RenamePageModal

        node, plan = self._node(), self.plan
        if node is None or plan is None or node.page_id is None:
            return
        step = await self.app.push_screen_wait(RenamePageModal(plan, node.page_id, node.title, node.slug, node.kind))
        self._planned(step, keep=node.key)

    def action_delete(self) -> None:
        if self._can("delete"):
            self._ask_delete()

    @work(exclusive=True, group="cr-pages-ask", exit_on_error=False)
    async def _ask_delete(self) -> None:
        from folio.tui.modals.site_forms import TypedConfirmModal

        node, plan, tree = self._node(), self.plan, self.shape
        if node is None or plan is None or tree is None or node.page_id is None:
            return
        below = len(tree.subtree(node.key))
        more = f" and its {count(below, 'subpage')}" if below else ""
        confirmed = await self.app.push_screen_wait(
            TypedConfirmModal(
                Content.assemble("Delete ", (safe(node.title, limit=120).plain, "bold"), more, "?"),
                node.title,
                body="Planned, not sent: ctrl+s sends the plan as one revision (P, then x, takes it back).",
                action="Plan the deletion",
            )
        )
        if not confirmed:
            self.note("Nothing was planned.")
            return
        self._plan_now(lambda: plan.delete(node.page_id or ""), keep=node.key)

    def action_revert(self) -> None:
        if self._can("revert"):
            self._ask_revert()

    @work(exclusive=True, group="cr-pages-ask", exit_on_error=False)
    async def _ask_revert(self) -> None:
        from folio.tui.modals.confirm import ConfirmModal

        node, plan = self._node(), self.plan
        if node is None or plan is None or node.page_id is None:
            return
        confirmed = await self.app.push_screen_wait(
            ConfirmModal(
                Content.assemble("Revert ", (safe(node.title, limit=120).plain, "bold"), " to main?"),
                "Its text, title and place become main's again when the plan is sent; a page main does not have "
                "is removed. Planned, not sent: ctrl+s sends the plan.",
                accept_key="y",
                accept_label="Plan the revert",
            )
        )
        if not confirmed:
            self.note("Nothing was planned.")
            return
        self._plan_now(lambda: plan.revert(node.page_id or ""), keep=node.key)

    def action_add_file(self) -> None:
        if self._can("add_file"):
            self._ask_file()

    @work(exclusive=True, group="cr-pages-ask", exit_on_error=False)
    async def _ask_file(self) -> None:
        from folio.tui.clipboard import copy
        from folio.tui.modals.cr_pages import AddFileModal

        plan = self.plan
        if plan is None:
            return
        added = await self.app.push_screen_wait(AddFileModal(plan))
        if added is None:
            self.note("Nothing was planned.")
            return
        step, link = added
        self.redraw()
        self.note(Content.assemble(f"Planned: {step.words}. Paste this into a page's text (copied): ", (link, "bold")))
        copy(self.app, link, what="the markdown link")

    def action_edit_page(self) -> None:
        node = self._node()
        if self._can("edit_page") and node is not None and node.page_id is not None:
            self.post_message(self.EditPage(self, node.page_id, node.title))

    def action_reread(self) -> None:
        if self.sending:
            self._refuse("The plan is being sent: wait for its answer.")
            return
        if self.cr is None:
            self._refuse("The change request is still loading.")
            return
        self.loaded = True
        self._read()

    def action_show_plan(self) -> None:
        if self._can("show_plan"):
            self._show_plan(send=False)

    def action_send(self) -> None:
        if self._can("send"):
            self._show_plan(send=True)

    def _plan_now(self, edit: Any, *, keep: str | None = None) -> None:
        try:
            step = edit()
        except Invalid as exc:
            self._refuse(f"Not planned: {exc}")
            return
        self._planned(step, keep=keep)

    def _planned(self, step: Any, *, keep: str | None = None) -> None:
        if step is None:
            self.note("Nothing was planned.")
            return
        self.redraw(keep=keep)
        self.note(f"Planned: {step.words}. ctrl+s sends the plan, P shows it.")

    # -- the plan and sending it ---------------------------------------------------------------------------

    @work(exclusive=True, group="cr-pages-ask", exit_on_error=False)
    async def _show_plan(self, *, send: bool) -> None:
        from folio.tui.modals.cr_pages import CrPlanModal

        plan = self.plan
        if plan is None:
            return
        before = len(plan.steps)
        answer = await self.app.push_screen_wait(CrPlanModal(plan, confirm=send))
        dropped = before - len(plan.steps)
        self.redraw()
        if answer != "send":
            kept = count(len(plan.steps), "change")
            dropped_words = f"{count(dropped, 'step')} dropped; " if dropped else ""
            if send:
                self.note(f"Not sent: {dropped_words}{kept} still planned.")
            elif dropped:
                self.note(f"{dropped_words}{kept} planned.")
            return
        await self._send(plan)

    async def _send(self, plan: EditPlan) -> None:
        from folio.tui.modals.cr_pages import MovedOnModal

        writing = self.services.writing
        force = False
        while True:
            self.sending = True
            self.note(f"Sending {count(len(plan.steps), 'change')} as one revision\u2026")
            try:
                sent = await writing.send_plan(plan, force=force)
            except MovedOn as moved:
                self.sending = False
                choice = await self.app.push_screen_wait(MovedOnModal(moved.describe()))
                if choice == "force":
                    force = True
                    continue
                if choice == "read":
                    await self.read_again()
                    return
                self.note("Not sent: the plan is kept (ctrl+s to try again, r to read the tree again).")
                return
            except ServiceError as exc:
                self.sending = False
                message = error_message(exc, doing="Not sent", hint="The plan is kept: ctrl+s sends it again.")
                self.note(message, "error")
                self.app.notify(message.plain, title="Not sent", severity="error", markup=False)
                return
            break
        self.sending = False
        self.app.notify(sent.words(), markup=False)
        self.plan = None  # sent: the tree read again holds it
        await self.read_again()
        self.note(sent.words())
        self.post_message(self.Sent(self, sent))
