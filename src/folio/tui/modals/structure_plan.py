"""The plan of a batch of structure moves (or of one move that changes a default): each step with the requests it
sends on this service, every default it changes and every published URL that moves (old -> new), then applying it
step by step with progress. At the first failure it stops and offers to undo the steps already applied.

    result = await app.push_screen_wait(StructurePlanModal(service, tree, confirmed, plan))

``confirmed`` (the structure as the service holds it) follows every request that succeeds, so when the modal
closes it is what the service holds, whatever happened.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, ProgressBar, Static

from folio.services.errors import ServiceError
from folio.services.format import count
from folio.services.sites.structure import StepFailed
from folio.tui.errors import error_message
from folio.tui.safe import safe
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, Row
from folio.tui.widgets.structure_editor.effects import default_changes
from folio.tui.widgets.structure_editor.lookups import answer_lost

if TYPE_CHECKING:
    from folio.services.sites.structure import Layout, Plan, StructureService, StructureTree

__all__ = ["PlanResult", "StructurePlanModal"]

COLUMNS = (Column("n", "#", 3), Column("what", "What will change"), Column("state", "State", 9))


@dataclass(frozen=True)
class PlanResult:
    """How a plan ended: ``applied`` steps stay on the service (after any undo)."""

    started: bool
    applied: int
    total: int
    undone: bool = False
    error: str | None = None
    lost: bool = False
    """A step's answer was lost: it may have been done all the same (the editor reads the structure again)."""


class StructurePlanModal(ModalScreen[PlanResult]):
    """Shows a plan; ``a`` applies it, ``u`` undoes the applied steps after a failure, ``esc`` closes."""

    DEFAULT_CSS = """
    StructurePlanModal { align: center middle; }
    StructurePlanModal > Vertical { width: 96%; height: 96%; border: thick $accent; padding: 0 1;
                                    background: $surface; }
    StructurePlanModal .plan--title { text-style: bold; }
    StructurePlanModal .plan--intro { height: auto; color: $text-warning; }
    StructurePlanModal ProgressBar { height: 1; }
    StructurePlanModal .plan--status { height: auto; max-height: 4; }
    StructurePlanModal .plan--status.-error { color: $error; }
    StructurePlanModal Horizontal { height: auto; align-horizontal: right; }
    StructurePlanModal Button { margin-left: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "apply", "Apply", id="structure-plan.apply", tooltip="Send the steps, in order"),
        Binding("u", "undo", "Undo applied", id="structure-plan.undo", tooltip="Take back the steps applied"),
        Binding("escape", "close", "Close", id="structure-plan.close", tooltip="Close (applied steps stay)"),
    ]

    def __init__(
        self, service: StructureService, tree: StructureTree, confirmed: Layout, plan: Plan, *, intro: str = ""
    ) -> None:
        """``intro``: a line above the steps (why this plan is shown)."""
        super().__init__()
        self.service, self.structure, self.confirmed, self.plan = service, tree, confirmed, plan
        self.intro = intro
        after = confirmed.copy()
        for move in plan.moves:
            after.apply(move)
        self.defaults = default_changes(tree, confirmed, after)
        """What the plan makes (and unmakes) the default, in words."""
        self.states = ["cannot" if s.problem else "to send" for s in plan.steps]
        self.phase = "ready"
        self.applied = 0
        self.lost = False
        self.undone = False
        self.error: str | None = None

    def compose(self) -> ComposeResult:
        steps, requests = len(self.plan.steps), sum(len(s.operations) for s in self.plan.steps)
        with Vertical():
            yield Static(Content(f"Plan: {count(steps, 'move')}, {count(requests, 'request')}"), classes="plan--title")
            if self.intro:
                yield Static(safe(self.intro, limit=600), classes="plan--intro")
            yield ResourceBrowser(COLUMNS, empty="Nothing to send.")
            yield ProgressBar(total=max(1, steps), show_eta=False)
            yield Static(classes="plan--status")
            with Horizontal():
                yield Button(Content("Apply (a)"), variant="primary", id="apply", compact=True)
                yield Button(Content("Undo applied (u)"), variant="warning", id="undo", compact=True)
                yield Button(Content("Close (esc)"), id="close", compact=True)

    def on_mount(self) -> None:
        self._draw()
        if self.plan.sendable:
            self._status(Content("Press a to apply the steps in order, esc to close without sending."))
        else:
            self._status(Content("A step cannot be sent on this service: take it back with z first."), error=True)
        self.query_one(ResourceBrowser).focus_list()

    # -- drawing ---------------------------------------------------------------------------------------------

    def _rows(self) -> list[Row]:
        tree, rows = self.structure, []
        for n, step in enumerate(self.plan.steps):
            rows.append(Row(f"step-{n}", [f"{n + 1}.", safe(step.label, limit=300).plain, self.states[n]]))
            for m, op in enumerate(step.operations):
                rows.append(Row(f"op-{n}-{m}", ["", safe(op.describe(tree), limit=300).plain, ""], indent=1))
            if step.problem:
                rows.append(Row(f"problem-{n}", ["", safe(step.problem, limit=300).plain, ""], indent=1))
        if self.defaults:
            rows.append(Row("defaults", ["", f"Defaults that change: {len(self.defaults)}", ""]))
            for n, words in enumerate(self.defaults):
                rows.append(Row(f"default-{n}", ["", safe(words, limit=300).plain, ""], indent=1))
        urls = self.plan.urls
        if not self.plan.published:
            rows.append(Row("urls", ["", "The site is not published: no published URL moves.", ""]))
        else:
            rows.append(Row("urls", ["", f"Published URLs that move: {len(urls) or 'none'}", ""]))
        for n, change in enumerate(urls):
            # Three lines each, so a whole URL fits at 80 columns: what moves, from where, to where.
            old, new = change.old or "(none)", change.new or "(none)"
            rows.append(Row(f"url-{n}", ["", safe(change.title, limit=300).plain, ""], indent=1))
            rows.append(Row(f"url-{n}-old", ["", safe(f"  {old}", limit=400).plain, ""], indent=1))
            rows.append(Row(f"url-{n}-new", ["", safe(f"  → {new}", limit=400).plain, ""], indent=1))
        return rows

    def _draw(self) -> None:
        self.query_one(ResourceBrowser).set_rows(self._rows())
        self.refresh_bindings()
        apply, undo = self.query_one("#apply", Button), self.query_one("#undo", Button)
        apply.disabled = not self.check_action("apply", ())
        undo.display = self.phase == "failed" and self.applied > 0

    def _status(self, text: Content, *, error: bool = False) -> None:
        status = self.query_one(".plan--status", Static)
        status.update(text)
        status.set_class(error, "-error")

    def _progress(self, done: int, total: int, label: str) -> None:
        self.query_one(ProgressBar).update(total=max(1, total), progress=done)
        for n in range(done):
            if self.states[n] in ("to send", "sending…"):
                self.states[n] = "done"
        if done < total:
            self.states[done] = "sending…"
            self._status(safe(f"Step {done + 1} of {total}: {label}…", limit=300))
        self._draw()

    def _undo_progress(self, done: int, total: int, label: str) -> None:
        self.query_one(ProgressBar).update(total=max(1, total), progress=done)
        for n in range(done):
            self.states[self.applied - 1 - n] = "undone"
        if done < total:
            self._status(safe(f"Undoing {done + 1} of {total}: {label}…", limit=300))
        self._draw()

    # -- actions ---------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "apply":
            return self.phase == "ready" and self.plan.sendable and bool(self.plan.steps)
        if action == "undo":
            return self.phase == "failed" and self.applied > 0
        if action == "close":
            return self.phase not in ("applying", "undoing")
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        {"apply": self.action_apply, "undo": self.action_undo, "close": self.action_close}[str(event.button.id)]()

    def action_apply(self) -> None:
        if self.check_action("apply", ()):
            self._apply()

    def action_undo(self) -> None:
        if self.check_action("undo", ()):
            self._undo()

    def action_close(self) -> None:
        if self.check_action("close", ()):
            started = self.phase != "ready"
            result = PlanResult(started, self.applied, len(self.plan.steps), self.undone, self.error, self.lost)
            self.dismiss(result)

    @work(exclusive=True, group="structure-plan", exit_on_error=False)
    async def _apply(self) -> None:
        self.phase = "applying"
        self._draw()
        total = len(self.plan.steps)
        try:
            self.applied = await self.service.apply(self.structure, self.confirmed, self.plan.moves, self._progress)
        except ServiceError as exc:
            self.applied = exc.index if isinstance(exc, StepFailed) else 0
            self.states[self.applied] = "failed"
            for n in range(self.applied + 1, total):
                self.states[n] = "not sent"
            message = error_message(exc, doing=f"Step {self.applied + 1} failed", brief=True)
            self.error = message.plain
            self.lost = answer_lost(exc)
            done = f"{count(self.applied, 'applied step')} stay on the service"
            if self.lost:
                done += (
                    f"; the answer was lost, so step {self.applied + 1} may have been done all the same: the editor "
                    "reads the structure again when this closes"
                )
            offer = (
                f"Press u to undo the {count(self.applied, 'applied step')}, or esc to keep them."
                if self.applied
                else ""
            )
            self._status(safe(f"{message.plain} Stopped: {done}. {offer}".strip(), limit=800), error=True)
            self.phase = "failed"
        else:
            self.phase = "done"
            self._status(Content(f"All {total} steps applied. Press esc to close."))
        self._draw()

    @work(exclusive=True, group="structure-plan", exit_on_error=False)
    async def _undo(self) -> None:
        self.phase = "undoing"
        self._draw()
        done = self.plan.moves[: self.applied]
        try:
            await self.service.undo(self.structure, self.confirmed, done, self._undo_progress)
        except ServiceError as exc:
            taken = exc.index if isinstance(exc, StepFailed) else 0
            self.applied -= taken
            message = error_message(exc, doing="The undo stopped", hint="Press r in the editor to reload.", brief=True)
            self._status(message, error=True)
            self.phase = "undo-failed"
        else:
            self._undo_progress(len(done), len(done), "")
            self.applied, self.undone, self.phase = 0, True, "undone"
            self._status(Content("The applied steps were undone: the structure is as it was. Press esc to close."))
        self._draw()
