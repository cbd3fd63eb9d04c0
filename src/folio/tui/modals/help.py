"""The ``?`` overlay: every key of the screen it was opened on, then the keys that work everywhere, each with
what it does, its tooltip and its binding id (the name to remap it by in the config's ``[keymap]``).

Typing filters the list; up/down move; enter closes the overlay and runs the action; esc closes.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from folio.tui import routes
from folio.tui.commands import KeyEntry
from folio.tui.jump import MORE_COMMANDS
from folio.tui.safe import safe
from folio.tui.widgets.resource_list import Column, ResourceList, Row, render_cells

__all__ = ["HelpModal"]

COLUMNS = (
    Column("key", "Key", 13, style="bold"),
    Column("what", "Does", 20, title=True),  # (what a key does names it: the details shrink, not the ids)
    Column("tooltip", "Details", None),
    Column("id", "Binding id (remap)", 26, style="dim"),
)
REMAP = 'Remap a key by its id in config.toml: [keymap] screen.refresh = "f5"'


def _rows(entries: list[KeyEntry]) -> list[Row]:
    rows: list[Row] = []
    sections = (
        ("screen", "This screen", [e for e in entries if not e.everywhere]),
        ("everywhere", "Everywhere", [e for e in entries if e.everywhere]),
    )
    for section, heading, items in sections:
        if not items:
            continue
        rows.append(Row(key=f"--{section}", cells=[Content(heading)], search=" ", style="bold"))
        for index, entry in enumerate(items):
            tooltip = entry.tooltip if entry.enabled else f"(not now) {entry.tooltip}".strip()
            rows.append(
                Row(
                    key=f"{section}-{index}",
                    cells=[entry.key_text, entry.description, tooltip, entry.id or "—"],
                    search=" ".join((entry.key_text, entry.description, entry.tooltip, entry.id)).lower(),
                    style="" if entry.enabled else "dim",
                    data=entry,
                )
            )
    rows.append(Row(key="--commands", cells=[Content("Commands (type : first)")], search=" ", style="bold"))
    for index, route in enumerate(r for r in routes.ROUTES.values() if r.verbs):
        usage = route.usage()
        rows.append(
            Row(
                key=f"command-{index}",
                cells=[usage.split(" ")[0], route.title, route.summary, ", ".join(f":{v}" for v in route.verbs)],
                search=" ".join((usage, route.noun, route.summary, *route.verbs)).lower(),
            )
        )
    for index, (usage, title, summary, verbs) in enumerate(MORE_COMMANDS):
        rows.append(
            Row(
                key=f"command-more-{index}",
                cells=[usage.split(" ")[0], title, summary, verbs],
                search=" ".join((usage, title, summary, verbs)).lower(),
            )
        )
    return rows


class HelpModal(ModalScreen[None]):
    """``app.push_screen(HelpModal(key_entries(screen), title=...))``: the keys, filtered as you type."""

    DEFAULT_CSS = """
    HelpModal { align: center middle; }
    HelpModal > Vertical { width: 100%; max-width: 120; height: 100%; max-height: 40; border: round $accent;
                           border-title-color: $accent; background: $surface; padding: 0 1; }
    HelpModal Input { height: 1; border: none; padding: 0; margin-bottom: 1; background: $surface; }
    HelpModal Input:focus { border: none; background-tint: $foreground 0%; }
    HelpModal .help--header { height: 1; color: $text-muted; text-style: bold; }
    HelpModal ResourceList { height: 1fr; }
    HelpModal .help--detail { height: auto; max-height: 3; color: $text-muted; }
    HelpModal .help--remap { height: auto; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="help.close", tooltip="Close the list of keys"),
        Binding("down", "move(1)", "Down", show=False, id="help.down", tooltip="Next key"),
        Binding("up", "move(-1)", "Up", show=False, id="help.up", tooltip="Previous key"),
        Binding("pagedown", "move(10)", "Page down", show=False, id="help.page-down", tooltip="Down ten keys"),
        Binding("pageup", "move(-10)", "Page up", show=False, id="help.page-up", tooltip="Up ten keys"),
    ]

    def __init__(self, entries: list[KeyEntry], *, title: str = "") -> None:
        super().__init__()
        self.entries = entries
        self.screen_title = title

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            # A str border title is parsed as markup: the screen's title comes from the service, so Content.
            box.border_title = (
                Content.assemble("Keys · ", safe(self.screen_title, limit=50)) if self.screen_title else Content("Keys")
            )
            yield Input(placeholder="Type to filter: a key, an action, a binding id", id="help-filter")
            yield Static(classes="help--header")
            yield ResourceList(COLUMNS, id="help-keys")
            yield Static(classes="help--detail")
            yield Static(Content(REMAP), classes="help--remap")

    @property
    def keys_list(self) -> ResourceList:
        return self.query_one(ResourceList)

    def on_mount(self) -> None:
        self.keys_list.set_rows(_rows(self.entries))
        self.keys_list.cursor = 1  # the first key, under the first heading
        self.keys_list.can_focus = False
        self.query_one(Input).focus()
        self._draw_header()

    def on_resize(self) -> None:
        self._draw_header()

    def _draw_header(self) -> None:
        header = self.query_one(".help--header", Static)
        width = max(1, self.keys_list.size.width)
        header.update(render_cells(COLUMNS, [c.label for c in COLUMNS], width))

    @property
    def shown(self) -> list[KeyEntry]:
        """The entries the filter leaves (what a test reads)."""
        return [row.data for row in self.keys_list.visible_rows if isinstance(row.data, KeyEntry)]

    @on(Input.Changed)
    def filter(self, event: Input.Changed) -> None:
        self.keys_list.filter(event.value)
        self._detail()

    @on(ResourceList.Highlighted)
    def highlighted(self, event: ResourceList.Highlighted) -> None:
        self._detail()

    def _detail(self) -> None:
        if not self.keys_list.visible_rows:
            self._say(f"No key matches “{self.query_one(Input).value}”.")
            return
        row = self.keys_list.highlighted
        entry = row.data if row is not None and isinstance(row.data, KeyEntry) else None
        if entry is None:
            self._say("")
            return
        self._say(f"{entry.key_text} · {entry.description} · {entry.tooltip or 'no details'} · id {entry.id or '—'}")

    def _say(self, text: str) -> None:
        self.query_one(".help--detail", Static).update(Content(text))

    def action_move(self, step: int) -> None:
        self.keys_list.cursor += step

    @on(Input.Submitted)
    def run_highlighted(self, event: Input.Submitted) -> None:
        event.stop()
        row = self.keys_list.highlighted
        entry = row.data if row is not None and isinstance(row.data, KeyEntry) else None
        if entry is None or not entry.enabled:
            return
        self.dismiss(None)
        app: Any = self.app
        app.call_later(entry.run, app)

    def action_close(self) -> None:
        self.dismiss(None)
