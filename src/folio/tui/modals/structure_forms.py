"""The structure editor's forms: edit a node's fields, or create a section (from a space), a section group (with
sections) or a site space.

Both are :class:`~folio.tui.modals.form.FormModal` forms: the spec's limits are checked as you type (``check(kind,
values)`` -> field: problem) and so is a condition (:mod:`folio.services.sites.conditions`: the column where it breaks
and what was expected there); ``ctrl+s`` sends; a refusal is shown next to the field it names and what was typed
stays (``esc`` keeps it as a draft too); a write whose answer was lost is looked for (``find_sent``) before it can
be sent again. The edit form opens on the server's exact values (a field draws control characters as visible
marks, never sends them to the terminal) and sends only what changed; an empty icon, description or condition is
sent as null, which removes it. The condition field offers the site's template conditions as you type
(:class:`~folio.tui.widgets.condition_picker.ConditionPicker`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import suppress
from typing import Any

from textual import on
from textual.containers import Horizontal
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Checkbox, Label, Select, SelectionList
from textual.widgets.select import InvalidSelectValueError

from folio.services.sites.conditions import problem as condition_problem
from folio.tui.modals.form import NOT_CHECKED, Field, FormModal
from folio.tui.modals.site_forms import plain_fields, untouched
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
# One line a field (three for a condition with its templates), so the buttons stay in the dialog at 24 rows.
_CSS = """
{name} > Vertical .form--row {{ margin-top: 0; }}
{name} > Vertical .form--fields {{ max-height: 60vh; }}
{name} .form--row > ConditionPicker {{ width: 1fr; }}
{name} .form--row > SelectionList {{ height: 6; width: 1fr; }}
"""


def _row(name: str, widget: Widget, hint: str = "") -> Horizontal:
    label = Label(Content(LABELS.get(name, name)), classes="form--label")
    row = Horizontal(label, widget, classes="form--row", id=f"row-{name}")
    if hint:
        row.tooltip = hint
    return row


def _labelled(problems: Mapping[str, str]) -> dict[str, str]:
    """Each problem begins with its field's name (``Title: is too short …``)."""
    return {k: f"{LABELS.get(k, k)}: {v}" for k, v in problems.items()}


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


class EditNodeModal(FormModal[dict[str, Any]]):
    """Edit the ``fields`` of a node; ``submit(changes)`` gets only what changed and sends it; ``find_sent(changes)``
    (optional) says whether the service holds them already, after an answer was lost."""

    DEFAULT_CSS = _CSS.format(name="EditNodeModal")
    FAILED = "Not saved"
    SEND_LABEL = "Save"
    INTRO = "An empty icon, description or condition removes it."

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
        find_sent: Callable[[dict[str, Any]], Awaitable[object | None]] | None = None,
        draft: str | None = None,
        where: str = "",
    ) -> None:
        """``values`` are the server's, exactly; ``conditions()`` gives the site's template conditions for the
        condition field to offer."""
        self.kind, self.names = kind, tuple(fields)
        self.server = {name: values.get(name) for name in self.names}
        self.checker, self._submit, self._find = check, submit, find_sent
        self.conditions = conditions
        shown = {n: bool(v) if n in CHECKS else ("" if v is None else str(v)) for n, v in self.server.items()}
        super().__init__(values=shown, draft=draft, where=where, title=safe(title, limit=120))

    def fields(self) -> Sequence[Field]:
        return tuple(
            Field(n, LABELS.get(n, n), kind="check", hint=CHECKS[n][bool(self.server.get(n))])
            if n in CHECKS
            else Field(n, LABELS.get(n, n))
            for n in self.names
        )

    def _row(self, field: Field) -> Widget:
        if field.kind == "check":
            box = Checkbox(safe(field.hint, limit=80), bool(self.initial.get(field.name)), compact=True)
            box.id = f"field-{field.name}"
            return _row(field.name, box)
        if field.name != "condition":
            return super()._row(field)
        text = str(self.initial.get("condition") or "")
        return _row("condition", ConditionPicker(text, self.conditions, input_id="field-condition"))

    def on_mount(self) -> None:
        super().on_mount()
        plain_fields(self)
        if "default" in self.names and self.server.get("default"):
            box = self.query_one("#field-default", Checkbox)
            box.disabled = True
            box.tooltip = "Already the default: make another one the default instead."

    def changes(self, values: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """What differs from the server's values (an emptied icon, description or condition: None)."""
        values = self.values() if values is None else values
        out: dict[str, Any] = {}
        for name in self.names:
            now, was = values.get(name), self.server.get(name)
            if name in CHECKS:
                now, was = bool(now), bool(was)
            elif name in NULLABLE:
                now, was = (None if _empty(now) else now), (None if _empty(was) else was)
            else:
                now, was = str(now or ""), str(was or "")
            if now != was:
                out[name] = now
        if out.get("default") is False:
            out.pop("default")
        return out

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        changes = self.changes(values)
        problems = self.checker(self.kind, changes)
        if "condition" in changes and "condition" not in problems:
            broken = condition_problem(changes["condition"])
            if broken:
                problems["condition"] = f"does not read: {broken}"
        return _labelled(problems)

    async def submit(self, values: Mapping[str, Any]) -> dict[str, Any]:
        changes = self.changes(values)
        if changes:
            await self._submit(changes)
        return changes

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        if self._find is None:
            return NOT_CHECKED
        changes = self.changes(values)
        return changes if await self._find(changes) is not None else None


class NewNodeModal(FormModal[str]):
    """Create a section from a space, a section group (with sections) or a site space. ``submit(kind, values)``
    creates it (values: space, title, icon, where, section, sections) and returns its id; ``find_sent(kind,
    values)`` (optional) finds one made by a send whose answer was lost."""

    DEFAULT_CSS = _CSS.format(name="NewNodeModal")
    TITLE = "New item in the site's structure"
    SEND_LABEL = "Create"
    FAILED = "Not created"
    KINDS = (("Section from a space", "site-section"), ("Section group", "site-section-group"))
    FIELDS = (
        Field("kind", "Kind", kind="select"),
        Field("space", "Space", kind="select"),
        Field("title", "Title", placeholder="the space's title if empty"),
        Field("icon", "Icon", placeholder="an icon name, or empty"),
        Field("where", "Put it in", kind="select"),
        Field("section", "In section", kind="select"),
        Field("sections", "Sections"),
    )
    SHOWN = {
        "site-section": ("space", "title", "icon", "where"),
        "site-section-group": ("title", "icon", "where", "sections"),
        "site-space": ("space", "section"),
    }

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
        find_sent: Callable[[str, dict[str, Any]], Awaitable[str | None]] | None = None,
        draft: str | None = None,
    ) -> None:
        self.spaces, self.groups, self.sections = list(spaces), list(groups), list(sections)
        self.with_sections = with_sections
        self.checker, self._submit, self._find = check, submit, find_sent
        self.kind = "site-section" if with_sections else "site-space"
        self.in_section: list[tuple[str, str]] = (
            [(safe(t, limit=80).plain, i) for i, t in self.sections]
            if with_sections
            else [("The root of the site", ROOT)]
        )
        start = section if section and with_sections else self.in_section[0][1] if self.in_section else ROOT
        values = {"kind": self.kind, "space": None, "title": "", "icon": "", "where": group or ROOT, "section": start}
        super().__init__(values=values, draft=draft, where="a new item of the site's structure")
        self.first_section = section

    def _row(self, field: Field) -> Widget:
        name, value = field.name, self.initial.get(field.name)
        if name == "kind":
            kinds = [*self.KINDS, ("Site space", "site-space")]
            return _row(name, Select(kinds, value=value, allow_blank=False, id="field-kind", compact=True))
        if name == "space":
            spaces = [(safe(t, limit=80).plain, i) for i, t in self.spaces]
            return _row(name, Select(spaces, id="field-space", compact=True, prompt="Choose a space"))
        if name == "where":
            groups = [("The root of the site", ROOT), *((safe(t, limit=80).plain, i) for i, t in self.groups)]
            return _row(name, Select(groups, value=value, allow_blank=False, id="field-where", compact=True))
        if name == "section":
            select = Select(self.in_section, value=value, allow_blank=False, id="field-section", compact=True)
            return _row(name, select)
        if name == "sections":
            sections = [(safe(t, limit=80).plain, i, i == self.first_section) for i, t in self.sections]
            return _row(name, SelectionList[str](*sections, id="field-sections"))
        return super()._row(field)

    def on_mount(self) -> None:
        super().on_mount()
        plain_fields(self)
        self._show()
        self.call_after_refresh(untouched, self)

    @on(Select.Changed, "#field-kind")
    def _kind_changed(self, event: Select.Changed) -> None:
        self.kind = str(event.value)
        self._show()
        self.live_check()

    def _show(self) -> None:
        shown = self.SHOWN[self.kind]
        for name in ("space", "title", "icon", "where", "section", "sections"):
            self.query_one(f"#row-{name}").display = name in shown
        title = self.widget("title")
        title.placeholder = (  # type: ignore[attr-defined]
            "1..100 characters" if self.kind == "site-section-group" else "the space's title if empty"
        )

    def values(self) -> dict[str, Any]:
        out = super().values()
        out["sections"] = list(self.query_one("#field-sections", SelectionList).selected)
        return out

    def _fill(self, saved: Mapping[str, Any]) -> None:
        super()._fill(saved)
        for name in ("kind", "space", "where", "section"):  # the base fills what is typed; these are chosen
            value = saved.get(name)
            if isinstance(value, str):
                with suppress(InvalidSelectValueError):  # no longer offered: the field keeps what it has
                    self.query_one(f"#field-{name}", Select).value = value

    def chosen(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """What ``submit`` gets: an empty title (the space's) or icon is None, the root is None."""

        def picked(name: str) -> str | None:
            value = values.get(name)
            return value if isinstance(value, str) and value != ROOT else None

        title, icon = values.get("title"), values.get("icon")
        return {
            "space": picked("space"),
            "title": None if _empty(title) else title,
            "icon": None if _empty(icon) else icon,
            "where": picked("where"),
            "section": picked("section"),
            "sections": list(values.get("sections") or ()),
        }

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        made = self.chosen(values)
        problems = self.checker(self.kind, {k: made[k] for k in ("title", "icon") if made[k] is not None})
        if self.kind == "site-section-group" and not made["title"]:
            problems["title"] = "is required (1..100 characters)"
        if self.kind != "site-section-group" and not made["space"]:
            problems["space"] = "choose the space it shows"
        shown = self.SHOWN[self.kind]
        return _labelled({k: v for k, v in problems.items() if k in shown})

    async def submit(self, values: Mapping[str, Any]) -> str:
        return await self._submit(self.kind, self.chosen(values))

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        if self._find is None:
            return NOT_CHECKED
        return await self._find(self.kind, self.chosen(values))
