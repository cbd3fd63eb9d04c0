"""The dialogs of a change request's page tree (:mod:`folio.tui.widgets.cr_pages`): each form adds one step to the
plan (nothing is sent: the plan is), the plan itself (``x`` drops a step, ``y`` sends it), and what to do when the
change request moved on since the tree was read.

    step = await app.push_screen_wait(NewPageModal(plan, under_id, "“Installation”"))   # a Step, or None
    answer = await app.push_screen_wait(CrPlanModal(plan, confirm=True))                 # "send" or None
    choice = await app.push_screen_wait(MovedOnModal(moved.describe()))                 # "read", "force" or None

A form's check runs as you type; the plan's own check (:class:`folio.services.review.writing.EditPlan`) runs on
ctrl+s, and its refusal is said in the form, which stays open with what was typed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from folio.services.format import count
from folio.services.review.writing import MAX_FILE_BYTES, slug_problem
from folio.tui.modals.form import Field, FormModal
from folio.tui.safe import safe
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, Row

if TYPE_CHECKING:
    from folio.services.review.writing import EditPlan, Step

__all__ = ["AddFileModal", "CrPlanModal", "MovedOnModal", "NewPageModal", "RenamePageModal"]

TOP = "top"
"""The choice of the new page form that puts it at the top level."""


class NewPageModal(FormModal["Step"]):
    """A title, and where: under the page under the cursor, or at the top level. Dismissed with the step planned."""

    TITLE = "New page"
    INTRO = "Planned, not sent: ctrl+s here adds it to the plan; ctrl+s on the tree sends the plan."
    SEND_LABEL = "Plan it"
    FAILED = "Not planned"

    def __init__(self, plan: EditPlan, under: str | None, under_name: str | None) -> None:
        self.plan, self.under, self.under_name = plan, under, under_name
        super().__init__(values={"where": under or TOP})

    def fields(self) -> Sequence[Field]:
        choices = [("At the top level", TOP)]
        if self.under is not None:
            choices.insert(0, (f"Under {self.under_name}", self.under))
        return (
            Field("title", "Title", placeholder="The page's title (its slug follows from it)"),
            Field("where", "Where", kind="choice", choices=choices),
        )

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        return {} if str(values.get("title") or "").strip() else {"title": "A page needs a title."}

    async def submit(self, values: Mapping[str, Any]) -> Step:
        where = values.get("where")
        under = None if where in (None, TOP) else str(where)
        return self.plan.add_page(str(values["title"]), under=under)


class RenamePageModal(FormModal["Step"]):
    """The page's title and slug, apart (a link page has no slug); dismissed with the rename step planned."""

    TITLE = "Rename the page"
    SEND_LABEL = "Plan it"
    FAILED = "Not planned"
    DEFAULT_CSS = """
    RenamePageModal #rename-url { color: $text-warning; height: auto; }
    """

    def __init__(self, plan: EditPlan, page_id: str, title: str, slug: str | None, kind: str) -> None:
        self.plan, self.page_id, self.old_title, self.old_slug = plan, page_id, title, slug or ""
        self.link = kind == "link"
        values = {"title": title} if self.link else {"title": title, "slug": slug or ""}
        heading = Content.assemble("Rename ", (safe(title, limit=120).plain, "bold"))
        super().__init__(values=values, title=heading)

    def fields(self) -> Sequence[Field]:
        title = Field("title", "Title")
        if self.link:
            return (title,)
        return (title, Field("slug", "Slug", hint="One part of the page's URL: changing it changes the URL"))

    def compose_intro(self) -> ComposeResult:
        words = "A link page has no slug: only its title changes." if self.link else ""
        yield Static(Content(words), id="rename-url")

    @on(Input.Changed)
    def _slug_changed(self, event: Input.Changed) -> None:
        if self.link:
            return
        slug = str(self.values().get("slug") or "")
        warning = self.query_one("#rename-url", Static)
        if slug != self.old_slug:
            warning.update(
                Content(
                    f"The slug changes: the page's URL ends in /{slug} instead of /{self.old_slug}; links to the "
                    "old URL break."
                )
            )
        else:
            warning.update(Content(""))

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        problems: dict[str, str] = {}
        if not str(values.get("title") or "").strip():
            problems["title"] = "A page needs a title."
        slug = values.get("slug")
        if slug is not None and slug != self.old_slug:
            problem = slug_problem(str(slug))
            if problem:
                problems["slug"] = problem
        return problems

    async def submit(self, values: Mapping[str, Any]) -> Step:
        title = str(values["title"]).strip()
        slug = values.get("slug")
        new_title = title if title != self.old_title else None
        new_slug = str(slug) if slug is not None and slug != self.old_slug else None
        return self.plan.rename(self.page_id, title=new_title, slug=new_slug)


class AddFileModal(FormModal["tuple[Step, str]"]):
    """A local path; its size is checked as you type. Dismissed with the step planned and its markdown link."""

    TITLE = "Add a file"
    INTRO = (
        f"An image or attachment from this machine, at most {MAX_FILE_BYTES:,} bytes (1 MiB), sent with the plan. "
        "A page links it as ./<its name>: the link is shown and copied."
    )
    SEND_LABEL = "Plan it"
    FAILED = "Not planned"

    def fields(self) -> Sequence[Field]:
        return (Field("path", "Path", placeholder="~/Pictures/diagram.png"),)

    def __init__(self, plan: EditPlan) -> None:
        self.plan = plan
        super().__init__()

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        text = str(values.get("path") or "").strip()
        if not text:
            return {"path": "Give the path of a file."}
        path = Path(text).expanduser()
        try:
            size = path.stat().st_size if path.is_file() else None
        except OSError:
            size = None
        if size is not None and size > MAX_FILE_BYTES:
            return {"path": f"{path.name} is {size:,} bytes: at most {MAX_FILE_BYTES:,} (1 MiB)."}
        return {}

    async def submit(self, values: Mapping[str, Any]) -> tuple[Step, str]:
        return self.plan.add_file(str(values["path"]).strip())


COLUMNS = (Column("n", "#", 3, align="right"), Column("what", "What the plan does", title=True))


class CrPlanModal(ModalScreen["str | None"]):
    """The plan's steps, numbered; ``x`` (or ``D``) drops the step under the cursor, ``y`` sends the plan as one
    revision (the caller sends it: dismissed with ``"send"``), ``esc`` closes with the plan kept."""

    DEFAULT_CSS = """
    CrPlanModal { align: center middle; }
    CrPlanModal > Vertical { width: 96%; max-width: 110; height: 90%; border: thick $accent; padding: 0 1;
                             background: $surface; }
    CrPlanModal .plan--title { text-style: bold; }
    CrPlanModal .plan--intro { height: auto; color: $text-muted; }
    CrPlanModal .plan--status { height: auto; max-height: 3; }
    CrPlanModal Horizontal { height: 1; align-horizontal: right; }
    CrPlanModal Button { margin-left: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "send", "Send", id="cr-plan.send", tooltip="Send the plan as one revision"),
        Binding("x,D", "drop", "Drop step", id="cr-plan.drop", tooltip="Take the step under the cursor out"),
        Binding("escape", "close", "Close", id="cr-plan.close", tooltip="Close; the plan is kept"),
    ]

    def __init__(self, plan: EditPlan, *, confirm: bool = False) -> None:
        super().__init__()
        self.plan = plan
        self.confirm = confirm

    def compose(self) -> ComposeResult:
        cr = self.plan.change_request
        with Vertical():
            yield Static(classes="plan--title")
            yield Static(
                safe(
                    f"Change request #{cr.number} “{cr.subject or 'Untitled'}”: all of it in one revision, or "
                    "none of it if the service refuses a step.",
                    limit=400,
                ),
                classes="plan--intro",
            )
            yield ResourceBrowser(COLUMNS, empty="Nothing is planned.")
            yield Static(classes="plan--status")
            with Horizontal():
                yield Button(Content("Send (y)"), variant="primary", id="send", compact=True)
                yield Button(Content("Drop step (x)"), variant="warning", id="drop", compact=True)
                yield Button(Content("Close (esc)"), id="close", compact=True)

    def on_mount(self) -> None:
        self._draw()
        self.query_one(ResourceBrowser).focus_list()

    def _draw(self, keep: int | None = None) -> None:
        lines = self.plan.lines()
        rows = [
            Row(f"step-{n}", [f"{n + 1}.", safe(line.split(". ", 1)[-1], limit=400).plain])
            for n, line in enumerate(lines)
        ]
        browser = self.query_one(ResourceBrowser)
        browser.set_rows(rows, staged=False)
        if keep is not None and rows:
            browser.list.move_to(rows[min(keep, len(rows) - 1)].key)
        steps = count(len(lines), "change")
        self.query_one(".plan--title", Static).update(Content(f"The plan: {steps}, one revision"))
        if not lines:
            words = "Nothing is planned any more: esc closes."
        elif self.confirm:
            words = "Send these changes? y sends them · x drops the step under the cursor · esc keeps planning."
        else:
            words = "x drops the step under the cursor · y sends the plan · esc closes (ctrl+s on the tree sends)."
        self.query_one(".plan--status", Static).update(Content(words))
        self.query_one("#send", Button).disabled = not lines
        self.query_one("#drop", Button).disabled = not lines

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        {"send": self.action_send, "drop": self.action_drop, "close": self.action_close}[str(event.button.id)]()

    def action_send(self) -> None:
        if not self.plan.steps:
            self.notify("Nothing is planned: there is nothing to send.", severity="warning", markup=False)
            return
        self.dismiss("send")

    def action_drop(self) -> None:
        row = self.query_one(ResourceBrowser).list.highlighted
        if row is None:
            self.notify("No step is under the cursor.", severity="warning", markup=False)
            return
        index = int(row.key.removeprefix("step-"))
        step = self.plan.drop(index)
        self.notify(f"Dropped: {step.words}.", markup=False)
        self._draw(keep=index)

    def action_close(self) -> None:
        self.dismiss(None)


class MovedOnModal(ModalScreen["str | None"]):
    """The change request has a newer revision than the tree the plan was made on: ``r`` reads the tree again
    (the plan re-applied on it), ``f`` sends anyway, ``esc`` does neither (the plan is kept)."""

    DEFAULT_CSS = """
    MovedOnModal { align: center middle; }
    MovedOnModal > Vertical { width: 72; max-width: 98%; height: auto; border: thick $warning; padding: 1 2;
                              background: $surface; }
    MovedOnModal .moved--title { text-style: bold; }
    MovedOnModal .moved--body { margin: 1 0; }
    MovedOnModal Horizontal { height: auto; align-horizontal: right; }
    MovedOnModal Button { margin-left: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "choose('read')", "Read again", id="cr-moved.read", tooltip="Read the tree again, plan kept"),
        Binding("f", "choose('force')", "Send anyway", id="cr-moved.force", tooltip="Send the plan as it is"),
        Binding("escape", "choose('')", "Cancel", id="cr-moved.cancel", tooltip="Send nothing; the plan is kept"),
    ]

    def __init__(self, words: str) -> None:
        super().__init__()
        self.words = words

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content("Someone changed this change request"), classes="moved--title")
            yield Static(safe(self.words, limit=600), classes="moved--body")
            yield Static(
                Content(
                    "r reads the tree again and re-applies your plan on it (the steps that no longer apply are "
                    "named) · f sends it anyway · esc sends nothing (the plan is kept)."
                )
            )
            with Horizontal():
                yield Button(Content("Read again (r)"), variant="primary", id="read")
                yield Button(Content("Send anyway (f)"), variant="warning", id="force")
                yield Button(Content("Cancel (esc)"), id="cancel")

    def on_mount(self) -> None:
        self.query_one("#read", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_choose("" if event.button.id == "cancel" else str(event.button.id))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice or None)
