"""The footer every screen shows: Textual's, rebuilt only when the keys it shows change.

Textual's ``Footer`` rebuilds all its keys at every bindings update of its screen: each focus change, each
``refresh_bindings()`` a list's cursor asks for, a tab switched. Opening a change request did that about 33 times
(a quarter of the open under the profiler, #15), though the keys shown changed two or three times. This footer
compares what it would show with what it shows, and rebuilds only when they differ.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.widgets import Footer

if TYPE_CHECKING:
    from textual.screen import Screen

__all__ = ["KeysFooter"]


class KeysFooter(Footer):
    """A ``Footer`` that rebuilds only when the keys it shows (key, label, enabled, tooltip) change."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown: tuple[Any, ...] | None = None
        self._pending = False

    def _keys(self) -> tuple[Any, ...]:
        """What ``compose`` would show now, as a value to compare."""
        app, active = self.app, self.screen.active_bindings
        palette = active.get(app.COMMAND_PALETTE_BINDING)
        keys: list[Any] = [
            (binding.key, app.get_key_display(binding), binding.description, binding.action, enabled, tooltip)
            for (_node, binding, enabled, tooltip) in active.values()
            if binding.show
        ]
        keys.append((palette.binding.key, palette.enabled, palette.tooltip) if palette is not None else None)
        return tuple(keys)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        # Textual's asks for a rebuild at each update, several within one frame; here one look after the frame,
        # and a rebuild only when what it shows differs.
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen or self._pending:
            return
        self._pending = True
        self.call_after_refresh(self._look)

    async def _look(self) -> None:
        self._pending = False
        if not self.is_attached:
            return
        if self._shown is None:  # the first build: nothing to compare with; what it shows is read after the frame
            self._shown = ()
            await self.recompose()
            self.call_after_refresh(self._read_shown)
            return
        keys = self._keys()
        if keys != self._shown:
            self._shown = keys
            await self.recompose()

    def _read_shown(self) -> None:
        if self.is_attached and not self._pending and self._shown == ():
            self._shown = self._keys()
