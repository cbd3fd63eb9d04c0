"""The base of every modal form that sends something: fields checked against the spec's limits as you type,
``ctrl+s`` (or ``f2``) sends, ``esc`` cancels, what was typed kept as a draft (on a failed send, on esc, on a
dropped SSH session) and shown again when the same form is reopened, the server's error in words next to the
field it names, and a lost answer looked for before anything is sent again.

    class TeamForm(FormModal[Team]):
        TITLE = "New team"
        FIELDS = (Field("title", "Title", placeholder="1..64 characters"),)

        def check(self, values): return {"title": "1 to 64 characters"} if not 1 <= len(values["title"]) <= 64 else {}
        async def submit(self, values): return await self.people.create_team(self.org_id, values["title"])
        async def find_sent(self, values): return await self.people.find_team(self.org_id, values["title"])

Fields: ``input`` (one line), ``text`` (a text area), ``choice`` (a radio set: nothing chosen until the user
chooses, unless a value is given), ``check`` (a checkbox), ``select`` (a drop-down). ``values`` opens the form
with the server's exact values (never a cleaned or shortened display copy).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, TypeVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, RadioButton, RadioSet, Select, Static, TextArea

from folio.services.errors import ServiceError
from folio.services.writes import field_of, may_have_reached
from folio.tui.errors import error_message
from folio.tui.modals.drafts import DraftSlot
from folio.tui.safe import safe
from folio.tui.widgets.mentions import Mentions
from folio.tui.widgets.plain import PlainTextArea, shown_plainly

__all__ = ["NOT_CHECKED", "Field", "FormModal"]

T = TypeVar("T")
Kind = Literal["input", "text", "choice", "check", "select"]
HELP = "ctrl+s sends · tab moves · esc closes (what you typed is kept)"
NOT_CHECKED = object()
""":meth:`FormModal.find_sent` returns it when this kind of write cannot be looked for."""


@dataclass(frozen=True)
class Field:
    """One field of a form."""

    name: str
    label: str
    kind: Kind = "input"
    placeholder: str = ""
    choices: Sequence[tuple[str, str]] = ()
    """``(label, value)`` of a ``choice`` or ``select`` field."""
    hint: str = ""
    password: bool = False
    height: int = 8
    """Lines of a ``text`` field."""


class FormModal(ModalScreen[T | None], Mentions, Generic[T]):  # Mentions: @ offers people in text fields
    """A form that sends itself; dismissed with what :meth:`submit` returned, or None when cancelled."""

    DEFAULT_CSS = """
    FormModal { align: center middle; }
    FormModal > Vertical { width: 90; max-width: 98%; height: auto; max-height: 98%; border: thick $accent;
                           padding: 0 1; background: $surface; }
    FormModal > Vertical.-danger { border: thick $error; }
    FormModal .form--title { text-style: bold; padding: 1 0 0 0; }
    FormModal .form--intro { color: $text-muted; height: auto; }
    FormModal .form--fields { height: auto; max-height: 20; }
    FormModal .form--row { height: auto; margin-top: 1; }
    FormModal .form--label { width: 14; color: $text-muted; }
    FormModal .form--row > Input, FormModal .form--row > Select { width: 1fr; }
    FormModal .form--row > RadioSet { width: 1fr; height: auto; border: none; padding: 0; }
    FormModal .form--row > TextArea { width: 1fr; }
    FormModal .form--field-problem { color: $text-error; height: auto; padding-left: 14; display: none; }
    FormModal .form--problem { color: $text-error; height: auto; max-height: 4; }
    FormModal .form--help { color: $text-muted; height: 1; }
    FormModal Horizontal.form--buttons { height: 1; align-horizontal: right; }
    FormModal Button { margin-left: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        # Not a priority binding: ctrl+s then travels behind the keys typed before it, so a send takes the text as
        # typed up to the ctrl+s, never a prefix of it.
        Binding("ctrl+s,f2", "send", "Send", id="form.send", tooltip="Send (ctrl+s, or f2)"),
        Binding("escape", "cancel", "Cancel", id="form.cancel", tooltip="Close; what you typed is kept"),
    ]

    TITLE: ClassVar[str] = ""
    INTRO: ClassVar[str] = ""
    FIELDS: ClassVar[Sequence[Field]] = ()
    SEND_LABEL: ClassVar[str] = "Save"
    FAILED: ClassVar[str] = "Not sent"
    """How a failed send begins (``Not sent: <why>``)."""
    DANGER: ClassVar[bool] = False

    def __init__(
        self,
        *,
        values: Mapping[str, Any] | None = None,
        draft: str | None = None,
        where: str = "",
        title: Content | str | None = None,
    ) -> None:
        super().__init__()
        self.initial: dict[str, Any] = dict(values or {})
        self.slot = DraftSlot(draft, where, self._draft_of(self.initial))
        self.heading = title if title is not None else self.TITLE
        self.sending = False
        self.touched = False
        """Problems show once the user typed or tried to send, not when the form opens."""
        self._mounted_once = False
        self._refused = False
        """The last send was refused for a broken limit (its line stands until the form is fixed)."""

    # -- what a subclass says ----------------------------------------------------------------------------------

    def fields(self) -> Sequence[Field]:
        return self.FIELDS

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        """``{field: problem}`` for what breaks a limit of the spec (checked as you type and before sending)."""
        return {}

    async def submit(self, values: Mapping[str, Any]) -> T:
        raise NotImplementedError

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        """After a lost answer: what was sent, found on the service (None: it was not done, so sending again is
        safe), or :data:`NOT_CHECKED` when this kind of write cannot be looked for."""
        return NOT_CHECKED

    def sent(self, result: T) -> None:
        """The send succeeded (before the form closes with ``result``)."""

    # -- building ----------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(classes="-danger" if self.DANGER else ""):
            heading = self.heading if isinstance(self.heading, Content) else Content(self.heading)
            yield Static(heading, classes="form--title")
            if self.INTRO:
                yield Static(Content(self.INTRO), classes="form--intro")
            yield from self.compose_intro()
            with VerticalScroll(classes="form--fields"):
                for field in self.fields():
                    yield self._row(field)
                    yield Static(classes="form--field-problem", id=f"problem-{field.name}")
            yield Static(classes="form--problem")
            yield Static(
                Content("ctrl+s sends · tab moves · esc closes (what you typed is kept)"), classes="form--help"
            )
            with Horizontal(classes="form--buttons"):
                yield Button(
                    Content(self.SEND_LABEL), variant="error" if self.DANGER else "primary", id="send", compact=True
                )
                yield Button(Content("Cancel"), id="cancel", compact=True)

    def compose_intro(self) -> ComposeResult:
        """Extra widgets above the fields (a block's text, a plan); none by default."""
        yield from ()

    def _row(self, field: Field) -> Widget:
        value = self.initial.get(field.name)
        widget: Widget
        if field.kind == "text":
            widget = PlainTextArea(str(value or ""), id=f"field-{field.name}", soft_wrap=True, tab_behavior="focus")
            widget.styles.height = field.height
        elif field.kind == "choice":
            buttons = [
                RadioButton(safe(label, limit=60), value=value == choice, name=choice, id=f"choice-{field.name}-{i}")
                for i, (label, choice) in enumerate(field.choices)
            ]
            widget = RadioSet(*buttons, id=f"field-{field.name}")
        elif field.kind == "check":
            widget = Checkbox(safe(field.hint or field.label, limit=80), bool(value), id=f"field-{field.name}")
        elif field.kind == "select":
            options = [(safe(label, limit=60), choice) for label, choice in field.choices]
            widget = Select(options, value=value if value is not None else Select.NULL, id=f"field-{field.name}")
        else:
            widget = Input(
                "" if value is None else str(value),
                placeholder=field.placeholder,
                password=field.password,
                id=f"field-{field.name}",
                compact=True,
                highlighter=shown_plainly,  # the exact value, drawn with its control characters as marks
            )
        label = Label(Content(field.label), classes="form--label")
        row = Horizontal(label, widget, classes="form--row", id=f"row-{field.name}")
        if field.hint and field.kind != "check":
            row.tooltip = field.hint
        return row

    def on_mount(self) -> None:
        # Textual calls this for each class that defines on_mount, and subclasses may call it too: once is enough.
        if self._mounted_once:
            return
        self._mounted_once = True
        fields = self.fields()
        if fields:
            self.query_one(f"#field-{fields[0].name}").focus()
        restored = self.slot.restore(self.app)
        if restored is not None:
            self._restore_draft(restored)
            self.say(Content("Your unsent text is back (esc keeps it, sending removes it)."))

    # -- values ------------------------------------------------------------------------------------------------

    def widget(self, name: str) -> Widget:
        return self.query_one(f"#field-{name}")

    def values(self) -> dict[str, Any]:
        """What the form holds now, by field name (text exactly as typed)."""
        out: dict[str, Any] = {}
        for field in self.fields():
            widget = self.widget(field.name)
            if isinstance(widget, TextArea):
                out[field.name] = widget.text
            elif isinstance(widget, Input):
                out[field.name] = widget.value
            elif isinstance(widget, RadioSet):
                pressed = widget.pressed_button
                out[field.name] = pressed.name if pressed is not None else None
            elif isinstance(widget, Checkbox):
                out[field.name] = widget.value
            elif isinstance(widget, Select):
                out[field.name] = None if widget.value is Select.NULL else widget.value
        return out

    def _single_text(self) -> str | None:
        """The name of the form's one text field, when it has only that (its draft is the text itself)."""
        fields = self.fields()
        return fields[0].name if len(fields) == 1 and fields[0].kind in ("input", "text") else None

    def _draft_of(self, values: Mapping[str, Any]) -> str:
        single = self._single_text()
        if single is not None:
            return str(values.get(single) or "")
        kept = {k: v for k, v in values.items() if isinstance(v, str | bool) or v is None}
        return json.dumps(kept, sort_keys=True)

    def _restore_draft(self, saved: str) -> None:
        single = self._single_text()
        if single is not None:
            self._fill({single: saved})
            return
        try:
            data = json.loads(saved)
        except ValueError:
            return
        if isinstance(data, dict):
            self._fill(data)

    def _fill(self, saved: Mapping[str, Any]) -> None:
        for field in self.fields():
            if field.name not in saved:
                continue
            value, widget = saved[field.name], self.widget(field.name)
            if isinstance(widget, TextArea) and isinstance(value, str):
                widget.load_text(value)
                widget.move_cursor(widget.document.end)
            elif (isinstance(widget, Input) and isinstance(value, str)) or (
                isinstance(widget, Checkbox) and isinstance(value, bool)
            ):
                widget.value = value
            elif isinstance(widget, RadioSet):
                for button in widget.query(RadioButton):
                    button.value = button.name == value

    def save_draft(self) -> None:
        """Keep what is typed now (each change calls it; so does esc and a hang-up of the terminal)."""
        if self.is_mounted:
            self.slot.save(self.app, self._draft_of(self.values()))

    # -- saying things -----------------------------------------------------------------------------------------

    def say(self, message: Content | str | None) -> None:
        text = message if isinstance(message, Content) else Content(message or "")
        self.query_one(".form--problem", Static).update(text)

    @property
    def problem_text(self) -> str:
        """Everything the form says is wrong now (the fields' problems, then the general line), as plain text."""
        lines = [str(line.render()) for line in self.query(".form--field-problem").results(Static) if line.display]
        lines.append(str(self.query_one(".form--problem", Static).render()))
        return "\n".join(line for line in lines if line.strip())

    def show_problems(self, problems: Mapping[str, str]) -> None:
        for field in self.fields():
            line = self.query_one(f"#problem-{field.name}", Static)
            problem = problems.get(field.name)
            line.update(safe(problem, limit=300) if problem else Content(""))
            line.display = bool(problem)

    def live_check(self) -> bool:
        problems = self.check(self.values())
        if self.touched:
            self.show_problems(problems)
        return not problems

    @on(Input.Changed)
    @on(TextArea.Changed)
    @on(RadioSet.Changed)
    @on(Checkbox.Changed)
    @on(Select.Changed)
    def _changed(self, event: Any) -> None:
        self.touched = True
        self.save_draft()
        if self.live_check() and self._refused:  # fixed since the refused send: its line is stale
            self._refused = False
            self.say(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_send()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_send() if event.button.id == "send" else self.action_cancel()

    # -- sending -----------------------------------------------------------------------------------------------

    def action_send(self) -> None:
        if self.sending:
            return
        self.touched = True
        values = self.values()  # as typed up to this key: the send takes exactly this
        if not self.live_check():
            self._refuse(self.check(values))
            return
        self._send(values)

    def _refuse(self, problems: Mapping[str, str]) -> None:
        """A send of a form that breaks a limit: nothing is sent; say so, and which fields, next to the send
        (the problems themselves are under their fields), and put the cursor in the first of them. What was
        typed stays as it is."""
        labels = {field.name: field.label for field in self.fields()}
        bad = [labels.get(name, problem) for name, problem in problems.items()]
        first = next(iter(problems), None)
        if first is not None and first in labels:
            widget = self.widget(first)
            self.set_focus(widget)  # (now, and scrolled to: its Focus is queued before the caret's move below)
            if isinstance(widget, Input):  # the caret at the end, nothing selected: the next key does not replace it
                widget.call_later(widget.action_end)
        where = ", ".join(bad) if bad else "the form"
        self.say(Content(f"Not sent: fix {where} (see above). What you typed is kept."))
        self._refused = True
        self.app.bell()

    @work(exclusive=True, group="form-send", exit_on_error=False)
    async def _send(self, values: dict[str, Any]) -> None:
        self.sending = True
        button = self.query_one("#send", Button)
        button.disabled = True
        self.say(Content("Sending…"))
        try:
            result = await self.submit(values)
        except ServiceError as exc:
            found = await self._look_for(exc, values)
            if found is None:
                return
            result = found
        finally:
            self.sending = False
            button.disabled = False
        self.slot.drop(self.app)
        self.sent(result)
        self.dismiss(result)

    async def _look_for(self, exc: Exception, values: dict[str, Any]) -> Any:
        """A send failed: say why; when the answer was lost, look for the write first. Returns what was found
        on the service (the send succeeded after all), or None."""
        self.save_draft()
        if not may_have_reached(exc):
            field = field_of(exc)
            message = error_message(
                exc, doing=self.FAILED, hint="What you typed is kept; fix it or try again.", brief=True
            )
            if field is not None and field.split(".")[0] in {f.name for f in self.fields()}:
                self.show_problems({field.split(".")[0]: message.plain})
                self.say(Content(f"{self.FAILED}: see the field above. What you typed is kept."))
            else:
                self.say(message)
            return None
        said = error_message(exc, doing=self.FAILED, brief=True).plain
        self.say(Content(f"{said}. It may have been done all the same: checking…"))
        try:
            found = await self.find_sent(values)
        except ServiceError as lookup:
            self.say(
                error_message(
                    lookup,
                    doing=f"{said}. It may have been done, and Folio could not check",
                    hint="Look on the service before sending again. What you typed is kept.",
                    brief=True,
                )
            )
            return None
        if found is NOT_CHECKED:
            self.say(
                safe(
                    f"{said}. It may have been done all the same, and Folio cannot check this kind of change: "
                    "look before sending again. What you typed is kept.",
                    limit=900,
                )
            )
            return None
        if found is None:
            self.say(
                safe(f"{said}. Folio checked: it was not done. What you typed is kept: ctrl+s sends it.", limit=900)
            )
            return None
        self.notify("The answer was lost, but the service has it: it was sent once.", markup=False)
        return found

    def action_cancel(self) -> None:
        self.save_draft()
        self.dismiss(None)
