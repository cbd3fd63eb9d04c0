"""A condition field (a section's or site space's): free text, and under it the template conditions of the site's
visitor schema that match what is typed, to pick by keyboard or mouse.

    ConditionPicker(value, load, input_id="field-condition")
        down          (in the field) go to the matching conditions
        up / down     choose one; enter (or a click) puts it in the field; esc, or up from the first, goes back

``load()`` gives the :class:`~folio.services.sites.site_schema.ConditionChoices` (None: nothing to offer). An empty
field is a condition removed: the form sends null.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from folio.services.errors import ServiceError
from folio.services.sites.sites import ConditionChoices, matching_conditions
from folio.tui.errors import error_message
from folio.tui.safe import safe

__all__ = ["ConditionOptions", "ConditionPicker"]

Load = Callable[[], Awaitable[ConditionChoices]]


class ConditionOptions(OptionList):
    """The matching template conditions; esc, or up from the first one, goes back to the field."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Back to the field", id="condition.back", tooltip="Back to the condition field"),
    ]

    def action_cursor_up(self) -> None:
        if not self.highlighted:
            self.action_leave()
        else:
            super().action_cursor_up()

    def action_leave(self) -> None:
        picker = next((a for a in self.ancestors if isinstance(a, ConditionPicker)), None)
        if picker is not None:
            picker.field.focus()


class ConditionPicker(Vertical):
    """A condition field with the site's template conditions to pick from (see the module's docstring)."""

    DEFAULT_CSS = """
    ConditionPicker { width: 1fr; height: auto; }
    ConditionPicker > Input { width: 1fr; }
    ConditionPicker > ConditionOptions { height: auto; max-height: 5; width: 1fr; text-wrap: nowrap;
                                         text-overflow: ellipsis; }
    ConditionPicker > .condition--hint { height: auto; color: $text-muted; }
    ConditionPicker > .condition--hint.-error { color: $text-error; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "down",
            "pick",
            "Pick a condition",
            id="condition.pick",
            tooltip="Go to the site's template conditions that match what is typed",
        ),
    ]

    def __init__(self, value: str, load: Load | None, *, input_id: str) -> None:
        super().__init__()
        self.initial = value
        self.load_choices = load
        self.choices: ConditionChoices | None = None
        self.matches: list[str] = []
        self._field = Input(value, id=input_id, compact=True, placeholder="a condition, or empty for none")

    def compose(self) -> ComposeResult:
        yield self._field
        yield ConditionOptions(compact=True, markup=False)
        yield Static(classes="condition--hint")

    @property
    def field(self) -> Input:
        return self._field

    @property
    def options(self) -> ConditionOptions:
        return self.query_one(ConditionOptions)

    def on_mount(self) -> None:
        self.options.display = False
        if self.load_choices is None:
            self._hint("Type a condition, or leave it empty for none.")
        else:
            self._hint("Loading the site's template conditions…")
            self._load()

    @work(exclusive=True, group="condition-choices", exit_on_error=False)
    async def _load(self) -> None:
        if self.load_choices is None:
            return
        try:
            self.choices = await self.load_choices()
        except ServiceError as exc:
            self._hint(error_message(exc, doing="Could not load the template conditions", hint="Type one."), True)
            return
        self._show()

    def _hint(self, text: str | Content, error: bool = False) -> None:
        hint = self.query_one(".condition--hint", Static)
        hint.update(Content(text) if isinstance(text, str) else text)
        hint.set_class(error, "-error")

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        if event.input is self._field and self.choices is not None:
            self._show()

    def _show(self) -> None:
        """The conditions matching what is typed (all of them while the field holds what it held at first)."""
        choices = self.choices
        if choices is None:
            return
        if not choices.schema:
            self._hint(
                "This site has no visitor schema (see its Adaptive content tab): no template conditions to pick. "
                "Type a condition, or leave it empty for none."
            )
            return
        if not choices.conditions:
            self._hint("The site's visitor schema has no claims yet: no template conditions to pick.")
            return
        value = self._field.value
        found = matching_conditions(choices.conditions, "" if value == self.initial else value)
        self.matches = [c.condition for c in found]
        options = self.options
        options.clear_options()
        options.add_options(
            Option(
                Content.assemble(
                    (safe(c.condition, limit=300).plain, "bold"), (" · " + safe(c.description, limit=300).plain, "dim")
                )
            )
            for c in found
        )
        options.display = bool(found)
        if found:
            many = f"{len(found)} template conditions" if len(found) > 1 else "1 template condition"
            self._hint(f"↓ to pick one of {many}, enter puts it in")
        else:
            self._hint("No template condition matches: the condition is kept as typed (empty removes it).")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick":
            return self.is_mounted and bool(self.options.display and self.options.option_count)
        return True

    def action_pick(self) -> None:
        options = self.options
        if options.display and options.option_count:
            options.focus()
            options.highlighted = 0

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.matches):
            field = self._field
            field.value = self.matches[event.option_index]
            field.cursor_position = len(field.value)
            field.focus()
