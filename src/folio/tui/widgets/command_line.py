"""The ``:`` command line: one line at the bottom of the screen, over whatever screen is open.

    CommandLine         the Input (``:`` prompt, history with up/down, tab completes a command or a title)
    CommandLineScreen   a see-through modal holding it docked at the bottom; enter runs the line, esc closes

Running is the app's business: the screen calls ``resolve(line)``, which returns what to do (the line closes,
then it runs) or a sentence saying why nothing can be done (the line stays, with the text, and shows it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, Static

from folio.services.errors import ServiceError
from folio.tui.errors import error_message
from folio.tui.jump import HELP, Pending
from folio.tui.textual_private import input_suggestion

__all__ = ["CommandLine", "CommandLineScreen", "CommandSuggester"]

VERBS = ("org ", "space ", "cr ", "site ", "q")


class CommandSuggester(Suggester):
    """Completes the verb, then a loaded title for it (``titles(verb)`` gives them)."""

    def __init__(self, titles: Callable[[str], Iterable[str]]) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.titles = titles

    async def get_suggestion(self, value: str) -> str | None:
        text = value.lstrip(":")
        if not text:
            return None
        verb, space, rest = text.partition(" ")
        if not space:
            found = next((v for v in VERBS if v.startswith(verb.lower()) and v.strip() != verb.lower()), None)
            return value[: len(value) - len(text)] + found if found else None
        if not rest:
            return None
        lowered = rest.casefold()
        for title in self.titles(verb.lower()):
            if title.casefold().startswith(lowered) and len(title) > len(rest):
                return value + title[len(rest) :]
        return None


class CommandLine(Input):
    """The input of the command line: up/down recall earlier lines, tab accepts the suggestion."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "history(-1)", "Earlier", show=False, id="command-line.earlier", tooltip="The line before"),
        Binding("down", "history(1)", "Later", show=False, id="command-line.later", tooltip="The line after"),
        Binding(
            "tab",
            "complete",
            "Complete",
            show=False,
            id="command-line.complete",
            tooltip="Accept the suggested command or title",
        ),
    ]

    def __init__(
        self, *, history: list[str] | None = None, suggester: Suggester | None = None, id: str | None = None
    ) -> None:
        super().__init__(placeholder=HELP, suggester=suggester, id=id, select_on_focus=False)
        self.history = history if history is not None else []
        """Lines run before, oldest first (shared with the app, so it outlives the line)."""
        self._recall = len(self.history)

    def action_history(self, step: int) -> None:
        history = self.history
        if not history:
            return
        self._recall = max(0, min(len(history), self._recall + step))
        self.value = history[self._recall] if self._recall < len(history) else ""
        self.cursor_position = len(self.value)

    def action_complete(self) -> None:
        suggestion = input_suggestion(self)
        if suggestion:
            self.value = suggestion
            self.cursor_position = len(self.value)


class CommandLineScreen(ModalScreen[None]):
    """The command line over the current screen (which stays visible above it)."""

    DEFAULT_CSS = """
    CommandLineScreen { background: $background 0%; align: left bottom; }
    CommandLineScreen > Vertical { dock: bottom; height: auto; background: $panel; }
    CommandLineScreen .command-line--message { height: auto; max-height: 3; padding: 0 1; color: $text-muted; }
    CommandLineScreen .command-line--message.-error { color: $text-error; }
    CommandLineScreen .command-line--row { height: 1; }
    CommandLineScreen .command-line--prompt { width: 2; padding-left: 1; color: $accent; text-style: bold; }
    CommandLineScreen CommandLine { border: none; height: 1; padding: 0; width: 1fr; background: $panel; }
    CommandLineScreen CommandLine:focus { border: none; background-tint: $foreground 0%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="command-line.close", tooltip="Close the command line"),
    ]

    def __init__(
        self,
        resolve: Callable[[str], Pending | Callable[[], object] | Content | str],
        *,
        history: list[str] | None = None,
        suggester: Suggester | None = None,
    ) -> None:
        super().__init__()
        self.resolve = resolve
        self.history = history if history is not None else []
        self.suggester = suggester
        self._early: list[events.Key] = []
        """Keys typed after ``:`` before the line was there to take them (a burst: ``:cr 12`` enter)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(classes="command-line--message")
            with Horizontal(classes="command-line--row"):
                yield Static(":", classes="command-line--prompt")
                yield CommandLine(history=self.history, suggester=self.suggester, id="command-line")

    @property
    def input(self) -> CommandLine:
        return self.query_one(CommandLine)

    def on_mount(self) -> None:
        self.say(None)
        self.input.focus()
        early, self._early = self._early, []
        for key in early:
            self._type(key)
            if key.key == "enter":
                break  # (what follows an enter was meant for what the line opens)

    def on_key(self, event: events.Key) -> None:
        """A key that reached the screen while the line does not have the focus yet (typed in the same burst as
        ``:``) goes into the line, in order, instead of being lost."""
        if self.focused is not None or event.key == "escape":
            return
        event.stop()
        event.prevent_default()
        if self.is_mounted and not self._early:
            self._type(event)
        else:
            self._early.append(event)

    def _type(self, key: events.Key) -> None:
        line = self.input
        if key.key == "enter":
            self.call_later(line.action_submit)
        elif key.key == "backspace":
            line.action_delete_left()
        elif key.is_printable and key.character:
            line.insert_text_at_cursor(key.character)

    def say(self, message: Content | str | None, *, error: bool = False) -> None:
        """Show ``message`` above the line (None hides it). Plain text only, never markup."""
        widget = self.query_one(".command-line--message", Static)
        text = message if isinstance(message, Content) else Content(message or "")
        widget.update(text)
        widget.display = bool(text.plain)
        widget.set_class(error, "-error")

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        line = event.value.strip()
        if not line:
            self.dismiss(None)
            return
        if not self.history or self.history[-1] != line:
            self.history.append(line)
        outcome = self.resolve(line)
        if isinstance(outcome, Pending):
            self.say(outcome.looking)
            self._check(outcome)
            return
        if callable(outcome):
            self.dismiss(None)
            self.app.call_later(outcome)
            return
        self.say(outcome, error=True)

    @work(exclusive=True, group="command-line-check", exit_on_error=False)
    async def _check(self, pending: Pending) -> None:
        try:
            problem = await pending.check()
        except ServiceError as exc:
            self.say(error_message(exc, brief=True), error=True)
            return
        if problem:
            self.say(problem, error=True)
            return
        self.dismiss(None)
        self.app.call_later(pending.then)

    def action_close(self) -> None:
        self.dismiss(None)
