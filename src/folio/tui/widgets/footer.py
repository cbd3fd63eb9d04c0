"""The footer every screen shows: the keys of its screen on one line, drawn by one widget.

Textual's ``Footer`` is a container of a widget per key (each with two styled parts), rebuilt at every bindings
update of its screen: each focus change, each ``refresh_bindings()`` a list's cursor asks for, a tab switched.
Building those widgets cost 10-55 ms a time (#15): keys typed while a large organization loaded waited behind it,
and a key's frame drew each key again (about 4 ms). This footer reads the screen's bindings once after a frame in
which they changed, and when the keys it would show differ from those it shows, it draws the line again: one
:class:`Content`, no widget mounted.

It looks as Textual's does, whose styles it keeps (``$footer-*`` theme variables, the ``footer-key--key`` and
``footer-key--description`` parts): each key ``key`` then its label, a greyed out key dimmed, the command
palette's key on the right edge. Unlike Textual's, it cuts no label mid-word: the first key that does not fit
shows the whole words of its label that do and ``…`` (``^o Copy…``), or leaves the room empty; ``?`` lists all.
A click on a key presses it (one that cannot act now then says why, as when typed); the mouse over a key lights
it and shows its tooltip.

A ``Binding.Group`` is shown as its keys one by one (Folio groups none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from rich.cells import cell_len
from textual import events
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.binding import ActiveBinding
    from textual.screen import Screen
    from textual.style import Style

__all__ = ["KeysFooter", "Placed", "ShownKey", "footer_keys"]


class ShownKey(NamedTuple):
    """A key as the footer shows it."""

    key: str
    """The key pressed (``ctrl+p``)."""
    display: str
    """How it is written (``^p``)."""
    description: str
    enabled: bool
    tooltip: str
    palette: bool = False
    """The command palette's key (drawn on the right edge)."""


class Placed(NamedTuple):
    """A key where the footer drew it: cells ``start`` to ``end`` (excluded) of its line."""

    key: ShownKey
    start: int
    end: int
    whole: bool
    """Drawn whole (not cut by the palette's key or the edge)."""


def footer_keys(app: Any, active: dict[str, ActiveBinding], *, palette: bool = True) -> tuple[ShownKey, ...]:
    """The keys a footer shows of a screen's ``active`` bindings, in order: one a shown action (its first key), and
    the command palette's key last (when ``palette`` and the app offers it)."""
    keys: list[ShownKey] = []
    actions: set[str] = set()
    for _node, binding, enabled, tooltip in active.values():
        if binding.show and binding.action not in actions:
            actions.add(binding.action)
            keys.append(ShownKey(binding.key, app.get_key_display(binding), binding.description, enabled, tooltip))
    found = active.get(app.COMMAND_PALETTE_BINDING) if palette and app.ENABLE_COMMAND_PALETTE else None
    if found is not None:
        _node, binding, enabled, _tooltip = found
        keys.append(
            ShownKey(
                binding.key,
                app.get_key_display(binding),
                binding.description,
                enabled,
                binding.tooltip or binding.description,
                palette=True,
            )
        )
    return tuple(keys)


class KeysFooter(Widget, can_focus=False):
    """The screen's keys on one line, drawn again only when they change (a key come or gone, greyed out or lit)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {
        "footer-key--item",
        "footer-key--key",
        "footer-key--description",
        "footer-key--disabled",
        "footer-key--hover",
        "footer-key--edge",
    }
    DEFAULT_CSS = """
    KeysFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        .footer-key--item { background: $footer-item-background; }
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .footer-key--disabled { text-style: dim; }
        .footer-key--hover { color: $footer-key-foreground; background: $block-hover-background; }
        .footer-key--edge { color: $foreground 20%; }
    }
    """

    show_command_palette = reactive(True)
    """Show the command palette's key on the right edge."""

    def __init__(
        self,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        show_command_palette: bool = True,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.set_reactive(KeysFooter.show_command_palette, show_command_palette)
        self._keys: tuple[ShownKey, ...] | None = None
        """The keys shown (None: not read yet)."""
        self._pending = False
        self._placed: list[Placed] = []
        """Where the last line drew each key (what a click or the mouse is over)."""
        self._hover: ShownKey | None = None

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """The screen's bindings changed (several times in a frame, often): one look after the frame."""
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen or self._pending:
            return
        self._pending = True
        self.call_after_refresh(self._look)

    def _look(self) -> None:
        self._pending = False
        if not self.is_attached:
            return
        keys = footer_keys(self.app, self.screen.active_bindings, palette=self.show_command_palette)
        if keys != self._keys:
            self._keys = keys
            self.refresh()

    def watch_show_command_palette(self) -> None:
        if self._keys is not None:
            self.bindings_changed(self.screen)

    @property
    def keys(self) -> tuple[ShownKey, ...]:
        """The keys shown, in order (the palette's last), or none before the first look."""
        return self._keys or ()

    @property
    def placed(self) -> list[Placed]:
        """Each key where the last frame drew it."""
        return list(self._placed)

    def key_at(self, x: int) -> ShownKey | None:
        """The key drawn at cell ``x`` of the line."""
        return next((place.key for place in self._placed if place.start <= x < place.end), None)

    # -- drawing ---------------------------------------------------------------------------------------------

    def render(self) -> Content:
        keys = self._keys or ()
        palette = next((key for key in keys if key.palette), None)
        width = self.size.width
        tail: Content | None = None
        if palette is not None:
            tail = Content.assemble(
                ("▏", self.get_visual_style("footer-key--item", "footer-key--edge")),
                *self._parts(palette, palette.display, f" {palette.description}" if palette.description else ""),
                (" ", self._style(palette)),
            )
        room = max(0, width - tail.cell_length) if tail is not None else width
        parts: list[tuple[str, Style]] = []
        placed: list[Placed] = []
        for key in keys:
            if key is palette:
                continue
            at = placed[-1].end if placed else 0
            item = self._parts(key, f" {key.display} ", f"{key.description} " if key.description else "")
            size = sum(cell_len(text) for text, _ in item)
            whole = at + size <= room
            if not whole:  # the first key that does not fit: the words of its label that do, then `…`; or none
                item, whole = self._cut(key, room - at)
                size = sum(cell_len(text) for text, _ in item)
            if item:
                parts += item
                placed.append(Placed(key, at, at + size, whole))
            if not whole:
                break
        line = Content.assemble(*parts)
        if tail is not None and palette is not None:
            line = line.pad_right(room - line.cell_length) + tail
            placed.append(
                Placed(palette, room + 1, min(width, room + tail.cell_length), room + tail.cell_length <= width)
            )
        self._placed = placed
        return line

    def _cut(self, key: ShownKey, room: int) -> tuple[list[tuple[str, Style]], bool]:
        """``key`` in ``room`` cells, and whether it is whole: its whole label without the space after it, or its
        label cut after a whole word and marked ``…`` (``^o Copy…`` for ``Copy link``); nothing when not even its
        key and the first word fit (no key is shown cut mid-word)."""
        shown_key = f" {key.display} "
        words = key.description.split()
        fits = [(key.description, True)] if key.description else []
        fits += [(" ".join(words[:count]) + "\u2026", False) for count in range(len(words) - 1, 0, -1)]
        for label, whole in fits:
            for description in (label + " ", label):
                if cell_len(shown_key) + cell_len(description) <= room:
                    return self._parts(key, shown_key, description), whole
        return [], False

    def _style(self, key: ShownKey, *parts: str) -> Style:
        """The style of a part of ``key`` (greyed out when it cannot act, lit under the mouse)."""
        wanted = ["footer-key--item", *parts]
        if key == self._hover:
            wanted.append("footer-key--hover")
        if not key.enabled:
            wanted.append("footer-key--disabled")
        return self.get_visual_style(*wanted)

    def _parts(self, key: ShownKey, shown_key: str, description: str) -> list[tuple[str, Style]]:
        parts = [(shown_key, self._style(key, "footer-key--key"))]
        if description:
            parts.append((description, self._style(key, "footer-key--description")))
        return parts

    # -- the mouse -------------------------------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        key = self.key_at(event.x)
        if key is not None:
            event.stop()
            self.app.simulate_key(key.key)  # (one that cannot act now says why, as when typed)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._over(self.key_at(event.x))

    def on_leave(self, event: events.Leave) -> None:
        self._over(None)

    def _over(self, key: ShownKey | None) -> None:
        if key != self._hover:
            self._hover = key
            self.tooltip = (key.tooltip or None) if key is not None else None
            self.refresh()
