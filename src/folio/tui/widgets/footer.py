"""The footer every screen shows: Textual's, rebuilt only when the set of keys it shows changes.

Textual's ``Footer`` rebuilds all its keys at every bindings update of its screen: each focus change, each
``refresh_bindings()`` a list's cursor asks for, a tab switched. Opening a change request did that about 33 times
(a quarter of the open under the profiler, #15), though the keys shown changed two or three times, and a rebuild
costs 20-55 ms (a widget per key, each styled): keys typed while a large organization loaded waited behind them.
This footer compares what it would show with what it shows: the same keys, nothing is done; the same keys with
another one greyed out or enabled (an action that became possible), the keys on screen are dimmed or lit in
place; keys gone or come (a tab switched, `/` typed: `space` and `esc` mean something else while the filter takes
the keys), those are removed or mounted among the keys on screen, which stay; keys in another order or grouped
(``Binding.Group``), it rebuilds them all. The screen's bindings are read once per look, and the keys built from
that read are what the next look compares with.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from itertools import groupby
from typing import TYPE_CHECKING, Any

from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel, KeyGroup

if TYPE_CHECKING:
    from textual.binding import ActiveBinding, Binding
    from textual.screen import Screen
    from textual.widget import Widget

__all__ = ["KeysFooter", "footer_keys", "same_but_enabled"]

Shown = tuple[Any, ...]
"""What a footer shows, as a value to compare: one entry a key (with its enabled state), the palette's last."""
Look = tuple[str, str, str, str, str, bool]
"""A key on the footer but its enabled state: key, how it is written, label, action, tooltip, the palette's key."""


def footer_keys(app: Any, active: dict[str, ActiveBinding]) -> Shown:
    """What a footer shows of the screen's ``active`` bindings: each shown key (key, how it is written, label,
    action, enabled, tooltip), then the palette's key (key, enabled, tooltip) or None."""
    palette = active.get(app.COMMAND_PALETTE_BINDING)
    keys: list[Any] = [
        (binding.key, app.get_key_display(binding), binding.description, binding.action, enabled, tooltip)
        for (_node, binding, enabled, tooltip) in active.values()
        if binding.show
    ]
    keys.append((palette.binding.key, palette.enabled, palette.tooltip) if palette is not None else None)
    return tuple(keys)


def _shape(shown: Shown) -> Shown:
    """``shown`` without the enabled states: the keys' widgets, their order and their words."""
    *keys, palette = shown
    return (
        *((key, display, label, action, tooltip) for (key, display, label, action, _enabled, tooltip) in keys),
        None if palette is None else (palette[0], palette[2]),
    )


def same_but_enabled(shown: Shown, new: Shown) -> bool:
    """Whether ``new`` shows the very keys of ``shown``, in the same order and words, only some greyed out or lit
    (the footer then changes them in place instead of building its keys again)."""
    return len(shown) == len(new) and _shape(shown) == _shape(new)


class FolioFooterKey(FooterKey):
    """Textual's key, drawn as :class:`Content` (Textual's own text) rather than Rich ``Text``: Rich's rendering
    took about 2 ms a key at each frame that redrew the footer, a good part of a key's frame (#15). It is not
    styled again as it mounts: ``compact`` starts as it will be (the footer's, not compact; the palette's key,
    compact) instead of being set and unset."""

    compact = reactive(False, init=False)

    def __init__(
        self,
        key: str,
        key_display: str,
        description: str,
        action: str,
        disabled: bool = False,
        tooltip: str = "",
        classes: str = "",
        *,
        compact: bool = False,
    ) -> None:
        classes = f"{classes} -compact" if compact else classes
        super().__init__(key, key_display, description, action, disabled=disabled, tooltip=tooltip, classes=classes)
        self.set_reactive(FolioFooterKey.compact, compact)

    def render(self) -> Content:  # type: ignore[override]
        key_style = self.get_visual_style("footer-key--key")
        description_style = self.get_visual_style("footer-key--description")
        key_padding = self.get_component_styles("footer-key--key").padding
        key = " " * key_padding.left + self.key_display + " " * key_padding.right
        if not self.description:
            return Content.assemble((self.key_display, key_style))
        padding = self.get_component_styles("footer-key--description").padding
        description = " " * padding.left + self.description + " " * padding.right
        return Content.assemble((key, key_style), (description, description_style))


class KeysFooter(Footer):
    """A ``Footer`` that rebuilds only when the keys it shows (key, label, tooltip) change, and greys out or lights
    up the keys it shows in place when only their enabled state does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown: Shown | None = None
        """What the keys on screen show (None: not built yet)."""
        self._pending = False
        self._next: dict[str, ActiveBinding] | None = None
        """The bindings the next ``compose`` builds keys of (read by the look that asked for it)."""
        self._key_widgets: list[tuple[str, FooterKey]] = []
        """The key widgets shown, in order, each with the key of the active binding it shows."""
        self._shown_flat = False
        """The keys shown are one row of keys (no ``Binding.Group``): keys can be taken out or put in."""

    def bindings_changed(self, screen: Screen[Any]) -> None:
        # Textual's asks for a rebuild at each update, several within one frame; here one look after the frame,
        # and a rebuild only when the keys shown differ.
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen or self._pending:
            return
        self._pending = True
        self.call_after_refresh(self._look)

    async def _look(self) -> None:
        self._pending = False
        if not self.is_attached:
            return
        active = self.screen.active_bindings
        keys = footer_keys(self.app, active)
        if keys == self._shown:
            return
        shown, self._shown = self._shown, keys
        if shown is not None and same_but_enabled(shown, keys):
            self._light(active)
            return
        if shown is not None and self._shown_flat and await self._change(active):
            return
        self._next = active
        await self.recompose()

    def _light(self, active: dict[str, ActiveBinding]) -> None:
        """Grey out or light up the keys shown as ``active`` says (what a rebuild would show, without it)."""
        for key, widget in self._key_widgets:
            found = active.get(key)
            disabled = found is not None and not found.enabled
            if widget._disabled != disabled:
                widget._disabled = disabled  # (what a click on the key reads)
                widget.set_class(disabled, "-disabled")

    def compose(self) -> Iterator[Widget]:
        """Textual's ``Footer.compose``, from the bindings the look read (and remembering which widget shows which
        key, for :meth:`_light`)."""
        if not self._bindings_ready:
            return
        active = self._next if self._next is not None else self.screen.active_bindings
        self._next = None
        if self._shown is None:  # (built without a look: what it shows is what the next look compares with)
            self._shown = footer_keys(self.app, active)
        self._key_widgets = []
        self._shown_flat = False
        action_to_bindings: defaultdict[str, list[tuple[str, Binding, bool, str]]] = defaultdict(list)
        for key, (_node, binding, enabled, tooltip) in active.items():
            if binding.show:
                action_to_bindings[binding.action].append((key, binding, enabled, tooltip))
        self.styles.grid_size_columns = len(action_to_bindings)
        for group, multi_bindings_iterable in groupby(
            action_to_bindings.values(), lambda multi_bindings: multi_bindings[0][1].group
        ):
            multi_bindings = list(multi_bindings_iterable)
            if group is not None and len(multi_bindings) > 1:
                with KeyGroup(classes="-compact" if group.compact else ""):
                    for key, binding, enabled, tooltip in (bindings[0] for bindings in multi_bindings):
                        yield self._key(key, self._bound_key(binding, enabled, tooltip, grouped=True))
                yield FooterLabel(group.description)
            else:
                for key, binding, enabled, tooltip in (bindings[0] for bindings in multi_bindings):
                    yield self._key(key, self._bound_key(binding, enabled, tooltip))
        palette = self._palette_key(active)
        if palette is not None:
            yield self._key(self.app.COMMAND_PALETTE_BINDING, palette)
        self._shown_flat = self._flat(active)

    def _palette(self, active: dict[str, ActiveBinding]) -> ActiveBinding | None:
        """The command palette's binding, when the footer shows its key."""
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        return palette if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE else None

    def _palette_key(self, active: dict[str, ActiveBinding]) -> FooterKey | None:
        palette = self._palette(active)
        if palette is None:
            return None
        _node, binding, enabled, _tooltip = palette
        return FolioFooterKey(
            binding.key,
            self.app.get_key_display(binding),
            binding.description,
            binding.action,
            compact=True,  # (Textual's palette key is not bound to the footer's compact: it stays compact)
            classes="-command-palette",
            disabled=not enabled,
            tooltip=binding.tooltip or binding.description,
        )

    @staticmethod
    def _flat(active: dict[str, ActiveBinding]) -> bool:
        return not any(binding.show and binding.group is not None for (_node, binding, _e, _t) in active.values())

    def _row(self, active: dict[str, ActiveBinding]) -> list[tuple[str, Look]]:
        """The keys ``compose`` would show for ``active`` (no groups): each one's active key and look."""
        row: list[tuple[str, Look]] = []
        actions: set[str] = set()
        display = self.app.get_key_display
        for key, (_node, binding, _enabled, tooltip) in active.items():
            if binding.show and binding.action not in actions:  # (one key an action: the first)
                actions.add(binding.action)
                row.append((key, (binding.key, display(binding), binding.description, binding.action, tooltip, False)))
        palette = self._palette(active)
        if palette is not None:
            binding = palette.binding
            look = (binding.key, display(binding), binding.description, binding.action, "", True)
            row.append((self.app.COMMAND_PALETTE_BINDING, look))
        return row

    def _new_key(self, active: dict[str, ActiveBinding], key: str) -> FooterKey:
        """A key widget for the active binding of ``key``, as ``compose`` makes it."""
        if key == self.app.COMMAND_PALETTE_BINDING:
            palette = self._palette_key(active)
            assert palette is not None
            return palette
        _node, binding, enabled, tooltip = active[key]
        with self._context():  # (``data_bind`` binds to the widget whose context it runs in: this footer)
            return self._bound_key(binding, enabled, tooltip)

    def _bound_key(self, binding: Binding, enabled: bool, tooltip: str, *, grouped: bool = False) -> FooterKey:
        """A key widget of ``binding``, bound to the footer's ``compact`` (a grouped key shows no label: the group's
        label follows the keys)."""
        return FolioFooterKey(
            binding.key,
            self.app.get_key_display(binding),
            "" if grouped else binding.description,
            binding.action,
            disabled=not enabled,
            tooltip=(tooltip or binding.description) if grouped else tooltip,
            classes="-grouped" if grouped else "",
        ).data_bind(compact=Footer.compact)

    async def _change(self, active: dict[str, ActiveBinding]) -> bool:
        """Show the keys of ``active`` by taking out the keys gone and putting in the keys come, the others staying
        (lit or greyed out as ``active`` says). False, changing nothing: the keys kept would change order, or
        groups are shown (the caller rebuilds)."""
        if not self._flat(active):
            return False
        row = self._row(active)
        shown = {_look_of(widget): widget for _key, widget in self._key_widgets}
        wanted = [look for _key, look in row]
        if len(shown) != len(self._key_widgets) or len(set(wanted)) != len(wanted):
            return False  # (two keys alike: which is which is not known)
        kept = [look for look in wanted if look in shown]
        if kept != [look for look in shown if look in set(wanted)]:
            return False
        gone = [widget for look, widget in shown.items() if look not in set(wanted)]
        widgets: list[tuple[str, FooterKey]] = []
        new: list[tuple[FooterKey, FooterKey | None]] = []  # (a new key, the kept key it goes before)
        for position, (key, look) in enumerate(row):
            if look in shown:
                widgets.append((key, shown[look]))
                continue
            widget = self._new_key(active, key)
            new.append((widget, next((shown[later] for later in wanted[position + 1 :] if later in shown), None)))
            widgets.append((key, widget))
        self._key_widgets = widgets
        self.styles.grid_size_columns = sum(1 for _key, look in row if not look[-1])
        async with self.batch():
            if gone:
                await self.remove_children(gone)
            for widget, before in new:
                await (self.mount(widget, before=before) if before is not None else self.mount(widget))
        self._light(active)
        return True

    def _key(self, key: str, widget: FooterKey) -> FooterKey:
        self._key_widgets.append((key, widget))
        return widget


def _look_of(key: FooterKey) -> Look:
    """What a key widget shows, but its enabled state: a key kept on the footer is one that looks the same. (The
    palette's key is told by its class: its tooltip is not compared.)"""
    palette = key.has_class("-command-palette")
    tooltip = "" if palette else str(key.tooltip or "")
    return (key.key, key.key_display, key.description, key.action, tooltip, palette)
