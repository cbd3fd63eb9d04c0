"""The dialogs of a page edited in ``$EDITOR`` (``folio.tui.page_edit``).

PageSendModal   what your edit changes (the diff of the markdown) and where it goes: this change request, a new
                one (its subject asked, prefilled) or one of your open ones (picked); ctrl+s sends, ctrl+e opens
                the editor again, esc closes (the edit stays a draft)
MovedOnModal    the change request (or main) moved on since the page was read: what happened, their text beside
                yours; r rebases (the editor opens on their text with your changes carried over), f sends yours
                anyway, esc closes (the edit stays a draft)

    choice = await app.push_screen_wait(PageSendModal(page, text, yours=load_mine, subject="Edit Install"))
    answer = await app.push_screen_wait(MovedOnModal(moved, text))     # "rebase", "force" or None

Every text from the service is shown through ``safe`` (the diffs' through ``sanitize_markdown``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, RadioButton, RadioSet, Static
from textual.widgets.option_list import Option

from folio.services.errors import ServiceError
from folio.services.review.authoring import check_subject
from folio.services.review.diff import MarkdownDiff, diff_markdown
from folio.services.review.rebase import conflict_marks
from folio.tui.actions import Explains
from folio.tui.errors import error_message
from folio.tui.safe import safe
from folio.tui.widgets.diff_view import DiffView
from folio.tui.widgets.markdown_view import sanitize_markdown

if TYPE_CHECKING:
    from folio.models.change_request import ChangeRequest
    from folio.services.review.writing import EditedPage, MovedOn

__all__ = ["Destination", "MovedOnModal", "PageSendModal", "SendChoice", "shown_diff"]

Destination = Literal["here", "new", "yours"]
SIDE_BY_SIDE_MIN = 120
"""Columns the terminal needs for a side-by-side diff (the changes tab's measure; below it the diff is unified)."""


@dataclass(frozen=True)
class SendChoice:
    """How the send dialog closed: ``edit`` (open the editor again), or a destination: ``into`` a change request
    (its id: this one or one of yours), or a new change request titled ``subject``."""

    kind: Literal["here", "new", "yours", "edit"]
    into: str | None = None
    subject: str | None = None


def shown_diff(before: str | None, after: str | None) -> MarkdownDiff:
    """The diff of two markdown texts, made safe to draw (control and escape characters gone)."""
    return diff_markdown(
        None if before is None else sanitize_markdown(before), None if after is None else sanitize_markdown(after)
    )


def _cr_label(cr: ChangeRequest) -> Content:
    return Content.assemble(
        (f"#{cr.number} ", "bold"), safe(cr.subject or "Untitled", limit=60), (f"  {cr.status}", "$text-muted")
    )


class WhereChoice(RadioSet):
    """The destinations: the arrows choose at once (no space or enter needed after them)."""

    def action_next_button(self) -> None:
        super().action_next_button()
        self.action_toggle_button()

    def action_previous_button(self) -> None:
        super().action_previous_button()
        self.action_toggle_button()


class PageSendModal(ModalScreen[SendChoice | None]):
    """The diff of your edit and where it goes; dismissed with a :class:`SendChoice`, or None (esc)."""

    DEFAULT_CSS = """
    PageSendModal { align: center middle; }
    PageSendModal > Vertical { width: 110; max-width: 98%; height: 98%; border: thick $accent; padding: 0 1;
                               background: $surface; }
    PageSendModal .page-send--title { height: auto; max-height: 2; text-style: bold; }
    PageSendModal .page-send--summary { height: 1; color: $text-muted; }
    PageSendModal DiffView { height: 1fr; min-height: 3; }
    PageSendModal .page-send--label { height: 1; margin-top: 1; }
    PageSendModal RadioSet { width: 100%; height: auto; layout: horizontal; border: none; padding: 0; }
    PageSendModal RadioSet:focus { border: none; background: $boost; }
    PageSendModal RadioSet > RadioButton { width: auto; margin-right: 2; }
    PageSendModal Input { height: 3; }
    PageSendModal OptionList { height: auto; max-height: 5; }
    PageSendModal .page-send--problem { height: auto; max-height: 3; color: $text-error; }
    PageSendModal .page-send--problem.-note { color: $text-warning; }
    PageSendModal .page-send--help { height: 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s,f2", "send", "Send", priority=True, id="page-edit.send",
                tooltip="Send the edit where chosen (ctrl+s, or f2)"),
        Binding("ctrl+e", "edit_again", "Editor", priority=True, id="page-edit.editor",
                tooltip="Open the editor again on your text"),
        Binding("escape", "cancel", "Close", id="page-edit.cancel",
                tooltip="Close without sending: your edit stays a draft (E on the page offers it again)"),
    ]  # fmt: skip

    def __init__(
        self,
        page: EditedPage,
        text: str,
        *,
        yours: Callable[[], Awaitable[list[ChangeRequest]]],
        subject: str,
        start: Destination = "here",
        closed: str | None = None,
        problem: Content | None = None,
    ) -> None:
        """``yours`` reads your open change requests of the space; ``closed``: why the change request the page was
        read from cannot take the edit; ``problem``: what the last send said went wrong."""
        super().__init__()
        self.page = page
        self.text = text
        self.diff = shown_diff(page.markdown, text)
        self._yours = yours
        self.subject = subject
        self.here = page.change_request is not None and closed is None
        self.closed = closed
        self.start: Destination = start if start != "here" or self.here else "new"
        self.problem = problem
        self.mine: list[ChangeRequest] | None = None
        self._lasting = False

    def compose(self) -> ComposeResult:
        page = self.page
        with Vertical():
            title = Content.assemble("Your edit of “", safe(page.title, limit=80), f"” ({page.where})")
            yield Static(title, classes="page-send--title")
            yield Static(Content(self.diff.summary), classes="page-send--summary")
            yield DiffView(id="page-send-diff")
            yield Static(Content("Send it into a change request (← → choose):"), classes="page-send--label")
            with WhereChoice(id="page-send-where"):
                if page.change_request is not None:
                    label = f"this one (#{page.number})"
                    yield RadioButton(label, value=self.start == "here", disabled=not self.here, id="to-here")
                yield RadioButton("a new one", value=self.start == "new", id="to-new")
                yield RadioButton("one of your open ones", value=self.start == "yours", id="to-yours")
            yield Input(self.subject, placeholder="The new change request's subject", id="page-send-subject")
            yield OptionList(id="page-send-yours")
            yield Static(classes="page-send--problem", id="page-send-problem")
            yield Static(
                Content("ctrl+s send · ctrl+e edit again · tab move · esc close (kept as a draft)"),
                classes="page-send--help",
            )

    def on_mount(self) -> None:
        view = self.query_one(DiffView)
        view.side_by_side = self.app.size.width >= SIDE_BY_SIDE_MIN
        view.show(self.diff, "Your text is the page's text: nothing would change.")
        self._show_where()
        if self.problem is not None:
            self._say(self.problem, lasting=True)
        elif self.closed:
            self._say(Content(self.closed), error=False, lasting=True)
        self.query_one(RadioSet).focus()

    # -- where it goes ---------------------------------------------------------------------------------------

    @property
    def where(self) -> Destination:
        pressed = self.query_one(RadioSet).pressed_button
        name = (pressed.id or "").removeprefix("to-") if pressed is not None else self.start
        return name if name in ("here", "new", "yours") else self.start  # type: ignore[return-value]

    @on(RadioSet.Changed)
    def _where_changed(self) -> None:
        self._show_where()
        if not self._lasting:
            self._say(None)  # what the last choice could not do: a new choice answers it

    def _show_where(self) -> None:
        where = self.where
        self.query_one("#page-send-subject", Input).display = where == "new"
        self.query_one("#page-send-yours", OptionList).display = where == "yours"
        if where == "yours" and self.mine is None:
            self._load_yours()

    @work(exclusive=True, group="page-send-yours", exit_on_error=False)
    async def _load_yours(self) -> None:
        listing = self.query_one("#page-send-yours", OptionList)
        listing.clear_options()
        listing.add_option(Option(Content("Reading your open change requests…"), disabled=True))
        try:
            mine = await self._yours()
        except ServiceError as exc:
            listing.clear_options()
            self._say(error_message(exc, doing="Could not read your open change requests", brief=True))
            return
        self.mine = mine
        listing.clear_options()
        if not mine:
            listing.add_option(
                Option(Content("You have no draft or open change request in this space."), disabled=True)
            )
            return
        listing.add_options([Option(_cr_label(cr), id=cr.id) for cr in mine])
        listing.highlighted = 0

    @on(Input.Changed, "#page-send-subject")
    def _subject_changed(self, event: Input.Changed) -> None:
        problem = check_subject(event.value)
        if problem or not self._lasting:
            self._say(Content(problem) if problem else None)

    def _say(self, message: Content | None, *, error: bool = True, lasting: bool = False) -> None:
        """Show ``message`` under the choice (``lasting``: what the last send said, kept until the next one)."""
        self._lasting = lasting and message is not None
        widget = self.query_one("#page-send-problem", Static)
        widget.update(message or Content(""))
        widget.set_class(not error, "-note")

    # -- keys ------------------------------------------------------------------------------------------------

    def _choice(self) -> SendChoice | str:
        """What ctrl+s sends, or why it cannot."""
        marks = conflict_marks(self.text)
        if marks:
            return (
                f"Your text still holds {marks} conflict mark{'s' if marks != 1 else ''} (<<<<<<< yours … "
                ">>>>>>> theirs): ctrl+e opens the editor to keep what should stay."
            )
        where = self.where
        if where == "here":
            if not self.here:
                return self.closed or "Choose where to send it."
            return SendChoice("here", into=self.page.change_request)
        if where == "new":
            subject = self.query_one("#page-send-subject", Input).value
            problem = check_subject(subject)
            return problem if problem else SendChoice("new", subject=subject.strip())
        listing = self.query_one("#page-send-yours", OptionList)
        if self.mine is None:
            return "Your open change requests are still being read."
        option = listing.highlighted_option if listing.highlighted is not None else None
        if option is None or option.id is None:
            return "You have no open change request here: send it into a new one."
        return SendChoice("yours", into=option.id)

    def action_send(self) -> None:
        choice = self._choice()
        if isinstance(choice, str):
            self._say(Content(choice))
            return
        self.dismiss(choice)

    def action_edit_again(self) -> None:
        self.dismiss(SendChoice("edit"))

    def action_cancel(self) -> None:
        self.dismiss(None)


class MovedOnModal(ModalScreen[str | None], Explains):
    """Someone changed the page since you read it: their text (-) against yours (+). Dismissed with ``rebase``,
    ``force`` or None."""

    DEFAULT_CSS = """
    MovedOnModal { align: center middle; }
    MovedOnModal > Vertical { width: 110; max-width: 98%; height: 98%; border: thick $warning; padding: 0 1;
                              background: $surface; }
    MovedOnModal .moved--title { height: auto; max-height: 4; text-style: bold; }
    MovedOnModal .moved--label { height: 1; color: $text-muted; }
    MovedOnModal DiffView { height: 1fr; min-height: 3; }
    MovedOnModal .moved--help { height: auto; max-height: 4; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rebase", "Rebase", id="page-edit.rebase",
                tooltip="Open the editor on their text with your changes carried over (places both changed marked)"),
        Binding("f", "force", "Send anyway", id="page-edit.force",
                tooltip="Send your text as it is: their change to this page is replaced"),
        Binding("escape", "cancel", "Close", id="page-edit.moved-cancel",
                tooltip="Close without sending: your edit stays a draft"),
    ]  # fmt: skip

    def __init__(self, moved: MovedOn, mine: str) -> None:
        super().__init__()
        self.moved = moved
        self.mine = mine

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content(self.moved.describe()), classes="moved--title")
            if self.moved.theirs is not None:
                label = "Their text now (-) against yours (+):"
            else:
                label = "The page is not there any more:"
            yield Static(Content(label), classes="moved--label")
            yield DiffView(id="moved-diff")
            rebase = (
                "r: the editor opens on their text with your changes carried over (places both changed are marked)"
                if self.moved.theirs is not None
                else "r: not possible (no text of theirs to carry your edit onto)"
            )
            yield Static(
                Content(f"{rebase} · f: send yours anyway (it replaces their text) · esc: not sent, kept as a draft"),
                classes="moved--help",
            )

    def on_mount(self) -> None:
        view = self.query_one(DiffView)
        view.side_by_side = self.app.size.width >= SIDE_BY_SIDE_MIN
        if self.moved.theirs is None:
            view.show(None, "The page was deleted there: sending anyway asks the service to write it again.")
        else:
            view.show(shown_diff(self.moved.theirs, self.mine), "Their text is the same as yours.")
        view.focus()

    def why_not(self, action: str) -> str | None:
        if action == "rebase" and self.moved.theirs is None:
            return "The page was deleted there: there is no text of theirs to carry your edit onto."
        return None

    def action_rebase(self) -> None:
        if self.why_not("rebase") is None:
            self.dismiss("rebase")

    def action_force(self) -> None:
        self.dismiss("force")

    def action_cancel(self) -> None:
        self.dismiss(None)
