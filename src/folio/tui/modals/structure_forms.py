"""The structure editor's forms: edit a node's fields, or create a section (from a space), a section group (with
sections) or a site space.

Each form checks the spec's limits as you type (``check(kind, values)`` -> field: problem) and owns the send:
it calls ``submit(...)``; when that raises, the error is shown in words inside the form and everything typed
stays; on success the form closes with what ``submit`` returned. An empty icon, description or condition is
sent as null, which removes it. The condition field offers the site's template conditions as you type
(:class:`~folio.tui.widgets.condition_picker.ConditionPicker`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, SelectionList, Static

from folio.tui.errors import error_message
from folio.tui.safe import safe
from folio.tui.widgets.condition_picker import ConditionPicker, Load

__all__ = ["EditNodeModal", "NewNodeModal"]

ROOT = "(root)"
LABELS = {
    "title": "Title",
    "path": "Path",
    "icon": "Icon",
    "description": "Description",
    "condition": "Condition",
    "hidden": "Hidden",
    "default": "Default",
    "space": "Space",
    "where": "Put it in",
    "sections": "Sections",
    "kind": "Kind",
    "section": "In section",
}
CHECKS = {
    "hidden": {False: "hide it from the site's navigation", True: "hidden from the site's navigation"},
    "default": {False: "make it the default (another one stops being it)", True: "it is the default"},
}
NULLABLE = ("icon", "description", "condition")
Check = Callable[[str, dict[str, Any]], dict[str, str]]
T = TypeVar("T")


def _row(name: str, widget: Widget, hint: str = "") -> Horizontal:
    label = Label(Content(LABELS.get(name, name)), classes="form--label")
    row = Horizontal(label, widget, classes="form--row", id=f"row-{name}")
    if hint:
        row.tooltip = hint
    return row


class _FormModal(ModalScreen[T | None], Generic[T]):
    """What both forms share: the problem line, save (ctrl+s, f2, enter in a field) and cancel (esc)."""

    DEFAULT_CSS = """
    _FormModal { align: center middle; }
    _FormModal > Vertical { width: 90; max-width: 98%; height: auto; max-height: 98%; border: thick $accent;
                            padding: 0 1; background: $surface; }
    _FormModal .form--title { text-style: bold; padding: 1 0; }
    _FormModal .form--row { height: auto; }
    _FormModal .form--label { width: 14; color: $text-muted; }
    _FormModal .form--row > Input, _FormModal .form--row > Select { width: 1fr; }
    _FormModal SelectionList { height: 6; width: 1fr; }
    _FormModal .form--problem { color: $text-error; height: auto; margin-top: 1; }
    _FormModal .form--help { color: $text-muted; height: auto; }
    _FormModal Horizontal.form--buttons { height: auto; align-horizontal: right; }
    _FormModal Button { margin-left: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s,f2", "save", "Save", id="structure-form.save", tooltip="Save (ctrl+s or f2)", priority=True),
        Binding("escape", "cancel", "Cancel", id="structure-form.cancel", tooltip="Close without saving"),
    ]

    kind = ""
    sending = False
    shown = False
    """Problems are shown once the user typed or tried to save, not when the form opens."""

    def buttons(self, label: str, extra: str = "") -> ComposeResult:
        yield Static(classes="form--problem")
        yield Static(Content(f"ctrl+s or f2 saves · esc closes{extra}"), classes="form--help")
        with Horizontal(classes="form--buttons"):
            yield Button(Content(label), variant="primary", id="save", compact=True)
            yield Button(Content("Cancel"), id="cancel", compact=True)

    def values(self) -> dict[str, Any]:
        raise NotImplementedError

    def send(self) -> Awaitable[T]:
        raise NotImplementedError

    def check(self) -> dict[str, str]:
        return {}

    def problem(self, message: Content | str | None) -> None:
        text = message if isinstance(message, Content) else Content(message or "")
        self.query_one(".form--problem", Static).update(text)

    def live_check(self) -> bool:
        problems = self.check()
        if self.shown:
            self.problem("; ".join(f"{LABELS.get(k, k)}: {v}" for k, v in problems.items()) or None)
        return not problems

    def on_input_changed(self, event: Input.Changed) -> None:
        self.shown = True
        self.live_check()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_save() if event.button.id == "save" else self.action_cancel()

    def action_save(self) -> None:
        self.shown = True
        if not self.sending and self.live_check():
            self._send()

    @work(exclusive=True, group="structure-form", exit_on_error=False)
    async def _send(self) -> None:
        self.sending = True
        self.problem(Content("Saving…"))
        try:
            result = await self.send()
        except Exception as exc:
            self.problem(error_message(exc, doing="Not saved", hint="What you typed is kept; fix it or try again."))
            return
        finally:
            self.sending = False
        self.dismiss(result)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def text(self, name: str) -> str | None:
        """A field's text, trimmed; None for an empty field that null removes."""
        value = self.query_one(f"#field-{name}", Input).value.strip()
        return None if not value and name in NULLABLE else value


class EditNodeModal(_FormModal[dict[str, Any]]):
    """Edit the ``fields`` of a node; ``submit(changes)`` gets only what changed and sends it."""

    def __init__(
        self,
        title: str,
        kind: str,
        fields: Sequence[str],
        values: dict[str, Any],
        *,
        check: Check,
        submit: Callable[[dict[str, Any]], Awaitable[object]],
        conditions: Load | None = None,
    ) -> None:
        """``conditions()`` gives the site's template conditions for the condition field to offer."""
        super().__init__()
        self.title_text, self.kind, self.fields = title, kind, tuple(fields)
        self.initial, self.checker, self.submit = dict(values), check, submit
        self.conditions = conditions

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(safe(self.title_text, limit=120), classes="form--title")
            for name in self.fields:
                value = self.initial.get(name)
                if name in ("hidden", "default"):
                    box = Checkbox(Content(CHECKS[name][bool(value)]), bool(value), id=f"field-{name}", compact=True)
                    box.disabled = name == "default" and bool(value)
                    if box.disabled:
                        box.tooltip = "Already the default: make another one the default instead."
                    yield _row(name, box)
                elif name == "condition":
                    text = safe(str(value or ""), limit=2000).plain
                    yield _row(name, ConditionPicker(text, self.conditions, input_id=f"field-{name}"))
                else:
                    text = safe(str(value or ""), limit=2000).plain
                    yield _row(name, Input(text, id=f"field-{name}", compact=True))
            yield from self.buttons("Save", " · an empty icon, description or condition removes it")

    def on_mount(self) -> None:
        self.query_one(f"#field-{self.fields[0]}").focus()

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.fields:
            out[name] = self.query_one(f"#field-{name}", Checkbox).value if name in ("hidden", "default") else None
            if name not in ("hidden", "default"):
                out[name] = self.text(name)
        return out

    def changes(self) -> dict[str, Any]:
        values = self.values()
        out = {k: v for k, v in values.items() if v != (self.initial.get(k) or (None if k in NULLABLE else ""))}
        if out.get("default") is False:
            out.pop("default")
        return out

    def check(self) -> dict[str, str]:
        return self.checker(self.kind, self.changes())

    async def send(self) -> dict[str, Any]:
        changes = self.changes()
        if changes:
            await self.submit(changes)
        return changes


class NewNodeModal(_FormModal[str]):
    """Create a section from a space, a section group (with sections) or a site space. ``submit(kind, values)``
    creates it (values: space, title, icon, where, sections) and returns a sentence saying what was made."""

    KINDS = (("Section from a space", "site-section"), ("Section group", "site-section-group"))

    def __init__(
        self,
        *,
        spaces: Sequence[tuple[str, str]],
        groups: Sequence[tuple[str, str]],
        sections: Sequence[tuple[str, str]],
        group: str | None,
        section: str | None,
        with_sections: bool,
        check: Check,
        submit: Callable[[str, dict[str, Any]], Awaitable[str]],
    ) -> None:
        super().__init__()
        self.spaces, self.groups, self.sections = list(spaces), list(groups), list(sections)
        self.group, self.section, self.with_sections = group, section, with_sections
        self.checker, self.submit = check, submit
        self.kind = "site-section" if with_sections else "site-space"

    def compose(self) -> ComposeResult:
        kinds = [*self.KINDS, ("Site space", "site-space")]
        spaces = [(safe(t, limit=80).plain, i) for i, t in self.spaces]
        groups = [("The root of the site", ROOT), *((safe(t, limit=80).plain, i) for i, t in self.groups)]
        sections = [(safe(t, limit=80).plain, i) for i, t in self.sections]
        with Vertical():
            yield Static(Content("New item in the site's structure"), classes="form--title")
            yield _row("kind", Select(kinds, value=self.kind, allow_blank=False, id="field-kind", compact=True))
            yield _row("space", Select(spaces, id="field-space", compact=True, prompt="Choose a space"))
            yield _row("title", Input(id="field-title", compact=True, placeholder="the space's title if empty"))
            yield _row("icon", Input(id="field-icon", compact=True, placeholder="an icon name, or empty"))
            yield _row(
                "where", Select(groups, value=self.group or ROOT, allow_blank=False, id="field-where", compact=True)
            )
            in_section: list[tuple[str, str]] = sections if self.with_sections else [("The root of the site", ROOT)]
            start = self.section if self.section and self.with_sections else in_section[0][1] if in_section else ROOT
            yield _row("section", Select(in_section, value=start, allow_blank=False, id="field-section", compact=True))
            yield _row(
                "sections", SelectionList[str](*((t, i, i == self.section) for t, i in sections), id="field-sections")
            )
            yield from self.buttons("Create")

    def on_mount(self) -> None:
        self._show()
        self.query_one("#field-kind").focus()

    @on(Select.Changed, "#field-kind")
    def _kind_changed(self, event: Select.Changed) -> None:
        self.kind = str(event.value)
        self._show()
        title = self.query_one("#field-title", Input)
        title.placeholder = "1..100 characters" if self.kind == "site-section-group" else "the space's title if empty"
        self.live_check()

    def _show(self) -> None:
        shown = {
            "site-section": ("space", "title", "icon", "where"),
            "site-section-group": ("title", "icon", "where", "sections"),
            "site-space": ("space", "section"),
        }[self.kind]
        for name in ("space", "title", "icon", "where", "section", "sections"):
            self.query_one(f"#row-{name}").display = name in shown

    def values(self) -> dict[str, Any]:
        space = self.query_one("#field-space", Select).value
        where = self.query_one("#field-where", Select).value
        section = self.query_one("#field-section", Select).value
        return {
            "space": space if isinstance(space, str) else None,
            "title": self.text("title") or None,
            "icon": self.text("icon"),
            "where": where if isinstance(where, str) and where != ROOT else None,
            "section": section if isinstance(section, str) and section != ROOT else None,
            "sections": list(self.query_one("#field-sections", SelectionList).selected),
        }

    def check(self) -> dict[str, str]:
        values = self.values()
        problems = self.checker(self.kind, {k: values[k] for k in ("title", "icon") if values[k] is not None})
        if self.kind == "site-section-group" and not values["title"]:
            problems["title"] = "is required (1..100 characters)"
        if self.kind != "site-section-group" and not values["space"]:
            problems["space"] = "choose the space it shows"
        return problems

    def send(self) -> Awaitable[str]:
        return self.submit(self.kind, self.values())
