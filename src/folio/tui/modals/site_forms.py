"""The sites' forms: create a site, pick a setting's value from a list, and a typed confirmation.

CreateSiteModal     a :class:`~folio.tui.modals.form.FormModal`: title (2..128 checked as you type), visibility,
                    type and the spaces to publish; a creation whose answer was lost is looked for by its title
                    before it can be sent again; esc keeps what was typed -> Site | None
ChoiceModal         one value from a list (enter picks and sends it through ``submit(value)``), on the same
                    forms base: a failure keeps the list open and says why -> the value | None
TypedConfirmModal   "type the site's title to confirm": anything else is refused -> bool

``shown_plainly`` is the highlighter of the forms' one-line fields: a field holds the server's exact value, and
what is drawn of it shows each control or invisible format character as a visible mark instead of sending it to
the terminal.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, Label, OptionList, Select, SelectionList, Static
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

from folio.models.site import Site
from folio.services.errors import ServiceError
from folio.services.sites.sites import KNOWN_SITE_TYPES, SITE_VISIBILITIES, Choice, check_setting
from folio.tui.errors import error_message
from folio.tui.modals.form import NOT_CHECKED, Field, FormModal
from folio.tui.safe import safe
from folio.tui.widgets.plain import shown_plainly

if TYPE_CHECKING:
    from folio.models.space import SpaceSummary
    from folio.services.sites.sites import SiteService

__all__ = ["ChoiceModal", "CreateSiteModal", "TypedConfirmModal", "plain_fields", "shown_plainly", "untouched"]


def plain_fields(screen: Widget) -> None:
    """Draw every one-line field of ``screen`` with :func:`shown_plainly` (their values stay exact)."""
    for field in screen.query(Input):
        field.highlighter = shown_plainly


def untouched(form: FormModal[Any]) -> None:
    """A form's drop-downs say they changed as they are first drawn: that is not the user typing, so no
    problem shows until the user does something (call after the form's first refresh)."""
    form.touched = False
    form.show_problems({})


_CANCEL = Binding("escape", "cancel", "Cancel", id="site-form.cancel", tooltip="Close without changing anything")

_CSS = """
{name} {{ align: center middle; }}
{name} > .site-form {{ width: 76; max-width: 98%; height: auto; max-height: 98%; border: thick $accent;
                      padding: 0 1; background: $surface; }}
{name} > .site-form--danger {{ border: thick $error; }}
{name} .site-form--title {{ text-style: bold; }}
{name} .site-form--body {{ margin: 1 0; }}
{name} .site-form--problem {{ color: $text-error; height: auto; }}
{name} .site-form--help {{ color: $text-muted; height: auto; }}
{name} Input {{ width: 1fr; }}
"""


class CreateSiteModal(FormModal[Site]):
    """A new site of ``org_id``: the modal loads the organization's spaces, checks the title as it is typed,
    and creates the site; it closes with the site, or with None when cancelled (what was typed is kept)."""

    # One line a field, so the buttons stay in the dialog at 24 rows.
    DEFAULT_CSS = """
    CreateSiteModal > Vertical .form--row { margin-top: 0; }
    CreateSiteModal > Vertical .form--fields { max-height: 60vh; }
    CreateSiteModal #field-visibility { layout: horizontal; height: 1; }
    CreateSiteModal #field-visibility > RadioButton { width: auto; margin-right: 1; }
    CreateSiteModal .form--row > #field-type { width: 24; }
    CreateSiteModal #field-spaces { height: auto; max-height: 6; width: 1fr; }
    """
    TITLE = "Create a site"
    INTRO = "It is created unpublished. ctrl+s creates it."
    SEND_LABEL = "Create"
    FAILED = "Not created"
    FIELDS = (
        Field("title", "Title", placeholder="2..128 characters"),
        Field("visibility", "Visibility", kind="choice", choices=tuple((v, v) for v in SITE_VISIBILITIES)),
        Field("type", "Type", kind="select", choices=tuple((k, k) for k in KNOWN_SITE_TYPES)),
        Field("spaces", "Spaces", hint="The spaces to publish: space toggles one; none is fine."),
    )

    def __init__(self, sites: SiteService, org_id: str) -> None:
        self.sites = sites
        self.org_id = org_id
        super().__init__(
            values={"title": "", "visibility": "public", "type": "basic"},
            draft=f"site-create:{org_id}",
            where="a new site",
        )

    def _row(self, field: Field) -> Widget:
        widget: Widget
        if field.name == "spaces":
            widget = SelectionList[str](id="field-spaces", compact=True)
        elif field.name == "type":
            options = [(safe(label, limit=60), kind) for label, kind in field.choices]
            widget = Select(options, value=self.initial["type"], allow_blank=False, id="field-type", compact=True)
        else:
            return super()._row(field)
        label = Label(Content(field.label), classes="form--label")
        row = Horizontal(label, widget, classes="form--row", id=f"row-{field.name}")
        row.tooltip = field.hint or None
        return row

    def on_mount(self) -> None:
        super().on_mount()
        plain_fields(self)
        self.call_after_refresh(untouched, self)
        self.load_spaces()

    @work(exclusive=True, group="site-form-spaces", exit_on_error=False)
    async def load_spaces(self) -> None:
        spaces_list = self.query_one("#field-spaces", SelectionList)
        spaces_list.loading = True
        try:
            spaces: list[SpaceSummary] = await self.sites.spaces(self.org_id)
        except ServiceError as exc:
            self.say(error_message(exc, doing="Could not load the spaces", hint="A site can start empty."))
            return
        finally:
            spaces_list.loading = False
        spaces_list.add_options([Selection(safe(s.title or s.id, limit=80), s.id) for s in spaces])
        if spaces and spaces_list.highlighted is None:
            spaces_list.highlighted = 0

    def values(self) -> dict[str, Any]:
        out = super().values()
        out["spaces"] = list(self.query_one("#field-spaces", SelectionList).selected)
        return out

    def _fill(self, saved: Mapping[str, Any]) -> None:
        super()._fill(saved)
        kind = saved.get("type")  # the base fills what is typed and ticked; the type is chosen
        if isinstance(kind, str) and kind in KNOWN_SITE_TYPES:
            self.query_one("#field-type", Select).value = kind

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        problem = check_setting("title", str(values.get("title") or ""))
        return {"title": problem} if problem else {}

    async def submit(self, values: Mapping[str, Any]) -> Site:
        return await self.sites.create(
            self.org_id,
            title=str(values["title"]),
            visibility=str(values.get("visibility") or "public"),
            type=str(values.get("type") or "basic"),
            spaces=values.get("spaces") or (),
        )

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        return await self.sites.find_site(self.org_id, str(values["title"]))


class ChoiceModal(FormModal[str]):
    """Pick one of ``choices`` (enter); ``submit(value)`` sends it, and a failure is shown while the list stays.
    ``find_sent(value)`` (optional) looks on the service for a choice whose answer was lost."""

    DEFAULT_CSS = """
    ChoiceModal .form--row > .form--label { display: none; }
    ChoiceModal .form--field-problem { padding-left: 0; }
    ChoiceModal #field-value { width: 1fr; height: auto; max-height: 12; }
    """
    FAILED = "Not saved"

    def __init__(
        self,
        title: Content | str,
        choices: Sequence[Choice],
        submit: Callable[[str], Awaitable[object]],
        *,
        current: str | None = None,
        help: str = "",
        find_sent: Callable[[str], Awaitable[object | None]] | None = None,
    ) -> None:
        self.choices = list(choices)
        self._submit = submit
        self._find = find_sent
        self.current = current
        self.help_text = help
        super().__init__(title=title)

    def fields(self) -> Sequence[Field]:
        return (Field("value", "Value"),)

    def compose_intro(self) -> ComposeResult:
        words = f"{self.help_text} " if self.help_text else ""
        yield Static(safe(words + "enter picks and saves.", limit=400), classes="form--intro")  # esc: the keys line

    def _row(self, field: Field) -> Widget:
        options = [
            Option(safe(("● " if c.value == self.current else "  ") + c.label, limit=120), id=c.value)
            for c in self.choices
        ]
        label = Label(Content(field.label), classes="form--label")
        return Horizontal(label, OptionList(*options, id="field-value"), classes="form--row", id="row-value")

    def on_mount(self) -> None:
        super().on_mount()
        # The problem line keeps the name the list dialogs had before they were forms.
        self.query_one(".form--problem", Static).add_class("site-form--problem")
        options = self.query_one("#field-value", OptionList)
        values = [c.value for c in self.choices]
        if self.current in values:
            options.highlighted = values.index(self.current)
        elif values:
            options.highlighted = 0

    def values(self) -> dict[str, Any]:
        options = self.query_one("#field-value", OptionList)
        index = options.highlighted
        chosen = options.get_option_at_index(index).id if index is not None and options.option_count else None
        return {"value": chosen}

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        return {} if values.get("value") else {"value": "Choose one first."}

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_send()

    async def submit(self, values: Mapping[str, Any]) -> str:
        value = str(values["value"])
        await self._submit(value)
        return value

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        if self._find is None:
            return NOT_CHECKED
        found = await self._find(str(values["value"]))
        return str(values["value"]) if found is not None else None


class TypedConfirmModal(ModalScreen[bool]):
    """Asks to type ``expected`` (a site's title, as shown) to confirm; any other text is refused, named by
    ``noun`` (``title``, ``email``, ``slug``), and the modal stays. esc cancels."""

    DEFAULT_CSS = _CSS.format(name="TypedConfirmModal")
    BINDINGS: ClassVar[list[BindingType]] = [_CANCEL]

    def __init__(
        self,
        title: Content | str,
        expected: str,
        *,
        body: Content | str = "",
        action: str = "Delete",
        noun: str = "title",
    ) -> None:
        super().__init__()
        self.noun = noun
        self.title_text = title if isinstance(title, Content) else Content(title)
        self.body_text = body if isinstance(body, Content) else Content(body)
        self.expected = safe(expected, limit=200).plain
        self.action_word = action

    def compose(self) -> ComposeResult:
        with Vertical(classes="site-form site-form--danger"):
            yield Static(self.title_text, classes="site-form--title")
            if self.body_text.plain:
                yield Static(self.body_text, classes="site-form--body")
            yield Static(Content.assemble("Type ", (self.expected, "bold"), " to confirm, then enter."))
            yield Input(id="confirm-text", compact=True, placeholder="type it here")
            yield Static(classes="site-form--problem")
            yield Static(Content(f"enter: {self.action_word.lower()} · esc: cancel"), classes="site-form--help")

    def on_mount(self) -> None:
        self.query_one("#confirm-text", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip() == self.expected:
            self.dismiss(True)
            return
        self.query_one(".site-form--problem", Static).update(
            Content(f"That is not the {self.noun}: nothing was done. Type “{self.expected}” exactly, or press esc.")
        )

    def action_cancel(self) -> None:
        self.dismiss(False)
