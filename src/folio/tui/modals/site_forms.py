"""The sites' forms: create a site, pick a setting's value from a list, and a typed confirmation.

CreateSiteModal     title (2..128 checked as you type), visibility, type and the spaces to publish; it sends
                    the creation itself and keeps the form, saying why, when that fails -> Site | None
ChoiceModal         one value from a list, sent through ``submit(value)``; a failure keeps the list open
                    and says why -> the value | None
TypedConfirmModal   "type the site's title to confirm": anything else is refused -> bool
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, RadioButton, RadioSet, Select, SelectionList, Static
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

from folio.models.site import Site
from folio.services.sites import KNOWN_SITE_TYPES, SITE_VISIBILITIES, Choice, check_setting
from folio.tui.errors import error_message
from folio.tui.safe import safe

if TYPE_CHECKING:
    from folio.models.space import SpaceSummary
    from folio.services.sites import SiteService

__all__ = ["ChoiceModal", "CreateSiteModal", "TypedConfirmModal"]

_SEND = Binding(
    "ctrl+s,f2",
    "send",
    "Send",
    id="site-form.send",
    tooltip="Send (ctrl+s, or f2 where ctrl+s is taken)",
    priority=True,
)
_CANCEL = Binding("escape", "cancel", "Cancel", id="site-form.cancel", tooltip="Close without changing anything")

_CSS = """
{name} {{ align: center middle; }}
{name} > .site-form {{ width: 76; max-width: 98%; height: auto; max-height: 98%; border: thick $accent;
                      padding: 0 1; background: $surface; }}
{name} > .site-form--danger {{ border: thick $error; }}
{name} .site-form--title {{ text-style: bold; }}
{name} .site-form--row {{ height: auto; margin-top: 1; }}
{name} .site-form--label {{ width: 12; color: $text-muted; }}
{name} .site-form--label-wide {{ margin-top: 1; color: $text-muted; }}
{name} .site-form--body {{ margin: 1 0; }}
{name} .site-form--problem {{ color: $text-error; height: auto; }}
{name} .site-form--help {{ color: $text-muted; height: auto; }}
{name} .site-form--buttons {{ height: auto; align-horizontal: right; }}
{name} .site-form--buttons Button {{ margin-left: 2; }}
{name} Input {{ width: 1fr; }}
{name} RadioSet {{ layout: horizontal; width: 1fr; height: 1; }}
{name} RadioSet > RadioButton {{ width: auto; margin-right: 1; }}
{name} Select {{ width: 24; }}
{name} #site-spaces {{ height: auto; max-height: 8; }}
{name} #choice-list {{ height: auto; max-height: 12; }}
"""


class CreateSiteModal(ModalScreen[Site | None]):
    """A new site of ``org_id``: the modal loads the organization's spaces, checks the title as it is typed,
    and creates the site; it closes with the site, or with None when cancelled."""

    DEFAULT_CSS = _CSS.format(name="CreateSiteModal")
    BINDINGS: ClassVar[list[BindingType]] = [_SEND, _CANCEL]

    def __init__(self, sites: SiteService, org_id: str) -> None:
        super().__init__()
        self.sites = sites
        self.org_id = org_id
        self.sending = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="site-form"):
            yield Static(Content("Create a site"), classes="site-form--title")
            with Horizontal(classes="site-form--row"):
                yield Static(Content("Title"), classes="site-form--label")
                yield Input(placeholder="2..128 characters", id="site-title", compact=True)
            with Horizontal(classes="site-form--row"):
                yield Static(Content("Visibility"), classes="site-form--label")
                with RadioSet(id="site-visibility", compact=True):
                    for value in SITE_VISIBILITIES:
                        yield RadioButton(Content(value), value=value == "public", name=value)
            with Horizontal(classes="site-form--row"):
                yield Static(Content("Type"), classes="site-form--label")
                yield Select(
                    [(Content(kind), kind) for kind in KNOWN_SITE_TYPES],
                    value="basic",
                    allow_blank=False,
                    id="site-type",
                    compact=True,
                )
            yield Static(Content("Spaces to publish (space toggles; none is fine)"), classes="site-form--label-wide")
            yield SelectionList[str](id="site-spaces", compact=True)
            yield Static(classes="site-form--problem")
            yield Static(
                Content("ctrl+s or f2 creates (unpublished) · tab moves · esc closes"), classes="site-form--help"
            )
            with Horizontal(classes="site-form--buttons"):
                yield Button(Content("Create"), variant="primary", id="send", compact=True)
                yield Button(Content("Cancel"), id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#site-title", Input).focus()
        self.load_spaces()

    @work(exclusive=True, group="site-form-spaces", exit_on_error=False)
    async def load_spaces(self) -> None:
        spaces_list = self.query_one("#site-spaces", SelectionList)
        spaces_list.loading = True
        try:
            spaces: list[SpaceSummary] = await self.sites.spaces(self.org_id)
        except Exception as exc:
            self._problem(error_message(exc, doing="Could not load the spaces", hint="A site can start empty."))
            return
        finally:
            spaces_list.loading = False
        spaces_list.add_options([Selection(safe(s.title or s.id, limit=80), s.id) for s in spaces])
        if spaces and spaces_list.highlighted is None:
            spaces_list.highlighted = 0

    # -- the form ------------------------------------------------------------------------------------------------

    @property
    def title_text(self) -> str:
        return self.query_one("#site-title", Input).value

    @property
    def visibility(self) -> str:
        pressed = self.query_one("#site-visibility", RadioSet).pressed_button
        return pressed.name if pressed is not None and pressed.name else "public"

    @property
    def site_type(self) -> str:
        value = self.query_one("#site-type", Select).value
        return value if isinstance(value, str) else "basic"

    @property
    def chosen_spaces(self) -> list[str]:
        return list(self.query_one("#site-spaces", SelectionList).selected)

    def _problem(self, message: Content | str | None) -> None:
        text = message if isinstance(message, Content) else Content(message or "")
        self.query_one(".site-form--problem", Static).update(text)

    def on_input_changed(self, event: Input.Changed) -> None:
        self._problem(check_setting("title", event.value) if event.value else None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_send()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "send":
            self.action_send()
        else:
            self.action_cancel()

    def action_send(self) -> None:
        if self.sending:
            return
        problem = check_setting("title", self.title_text)
        if problem:
            self._problem(problem)
            self.query_one("#site-title", Input).focus()
            return
        self._create()

    @work(exclusive=True, group="site-form-send", exit_on_error=False)
    async def _create(self) -> None:
        self.sending = True
        self._problem(Content("Creating…"))
        try:
            site = await self.sites.create(
                self.org_id,
                title=self.title_text,
                visibility=self.visibility,
                type=self.site_type,
                spaces=self.chosen_spaces,
            )
        except Exception as exc:
            self._problem(error_message(exc, doing="Not created", hint="The form is kept; fix it or try again."))
            return
        finally:
            self.sending = False
        self.dismiss(site)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChoiceModal(ModalScreen[str | None]):
    """Pick one of ``choices`` (enter); ``submit(value)`` sends it, and a failure is shown while the list stays."""

    DEFAULT_CSS = _CSS.format(name="ChoiceModal")
    BINDINGS: ClassVar[list[BindingType]] = [_CANCEL]

    def __init__(
        self,
        title: Content | str,
        choices: Sequence[Choice],
        submit: Callable[[str], Awaitable[object]],
        *,
        current: str | None = None,
        help: str = "",
    ) -> None:
        super().__init__()
        self.title_text = title if isinstance(title, Content) else Content(title)
        self.choices = list(choices)
        self.submit = submit
        self.current = current
        self.help_text = help
        self.sending = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="site-form"):
            yield Static(self.title_text, classes="site-form--title")
            if self.help_text:
                yield Static(safe(self.help_text, limit=300), classes="site-form--help")
            options = [
                Option(safe(("● " if c.value == self.current else "  ") + c.label, limit=120), id=c.value)
                for c in self.choices
            ]
            yield OptionList(*options, id="choice-list")
            yield Static(classes="site-form--problem")
            yield Static(Content("enter picks and saves · esc closes"), classes="site-form--help")

    def on_mount(self) -> None:
        options = self.query_one("#choice-list", OptionList)
        options.focus()
        values = [c.value for c in self.choices]
        if self.current in values:
            options.highlighted = values.index(self.current)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if not self.sending and event.option.id is not None:
            self._send(event.option.id)

    @work(exclusive=True, group="choice-send", exit_on_error=False)
    async def _send(self, value: str) -> None:
        self.sending = True
        problem = self.query_one(".site-form--problem", Static)
        problem.update(Content("Saving…"))
        try:
            await self.submit(value)
        except Exception as exc:
            problem.update(error_message(exc, doing="Not saved", hint="Pick again or press esc."))
            return
        finally:
            self.sending = False
        self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TypedConfirmModal(ModalScreen[bool]):
    """Asks to type ``expected`` (a site's title, as shown) to confirm; any other text is refused and the
    modal stays. esc cancels."""

    DEFAULT_CSS = _CSS.format(name="TypedConfirmModal")
    BINDINGS: ClassVar[list[BindingType]] = [_CANCEL]

    def __init__(
        self, title: Content | str, expected: str, *, body: Content | str = "", action: str = "Delete"
    ) -> None:
        super().__init__()
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
            yield Input(id="confirm-text", compact=True)
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
            Content(f"That is not the title: nothing was done. Type “{self.expected}” exactly, or press esc.")
        )

    def action_cancel(self) -> None:
        self.dismiss(False)
