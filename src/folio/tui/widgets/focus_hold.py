"""A pane that takes the keys typed for its list from the moment its tab is switched to, even while the list is
still loading: a tab opened under latency then takes the keys that follow without a `tab` first.

Two things stood in the way: a widget that is loading cannot have the focus (Textual), and a focus asked for lands
only after the keys already on their way (``focus()`` is queued behind them). So :meth:`HoldsFocus.take_focus`
gives the focus to the list when it can, else to the pane itself (its own keys work meanwhile), and until the list
has the focus the keys the list would take (j, k, enter...) are held, in order: the host screen hands the keys that
reach it in the meantime to :meth:`HoldsFocus.hold_key`. Once the list has the focus (at once, or when its rows are
in: :meth:`HoldsFocus.hand_over`), it gets them.

    class ChangesPane(Horizontal, HoldsFocus):     # after the container: Textual takes a widget's default CSS
        def held_list(self) -> ResourceList:      # and its CSS type names from its first base only
            return self.pages.list
"""

from __future__ import annotations

from textual import events
from textual.widget import Widget

from folio.tui.textual_private import dom_bindings
from folio.tui.widgets.resource_list import ResourceList

__all__ = ["HoldsFocus"]

MAX_HELD = 50
"""Keys kept for the list at most (keys typed ahead, not a macro)."""


class HoldsFocus(Widget):
    """Mixed in after the container class of a pane that holds a :class:`ResourceList`."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._held: list[events.Key] = []
        self._taking = False
        """The focus is on its way to the list (or held for it): the list's keys wait."""
        self.can_focus = False

    def held_list(self) -> ResourceList:
        """The list this pane takes the keys for."""
        raise NotImplementedError

    @property
    def holding(self) -> bool:
        """The pane has the focus in its list's place (the list is loading)."""
        return self.can_focus and self.has_focus

    def take_focus(self) -> None:
        """Focus the list, or hold the focus for it while it loads; its keys wait until it has the focus."""
        target = self.held_list()
        self._taking = True
        if target.focusable:
            target.focus()
            return
        self.can_focus = True
        self.focus()

    def hold_key(self, event: events.Key) -> bool:
        """Keep ``event`` for the list if the focus is on its way to it and the list takes that key."""
        if not self._taking or event.key not in dom_bindings(self.held_list()).key_to_bindings:
            return False
        if len(self._held) < MAX_HELD:
            self._held.append(event)
        return True

    def hand_over(self) -> None:
        """The list can have the focus now (its rows, or its error, are in): give it, if this pane held it."""
        target = self.held_list()
        if self.holding and target.focusable:
            target.focus()
            self.can_focus = False

    def on_key(self, event: events.Key) -> None:
        if self.holding and self.hold_key(event):
            event.stop()
            event.prevent_default()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if event.widget is not self.held_list() or not self._taking:
            return
        self._taking = False
        held, self._held = self._held, []
        app = self.app

        def replay() -> None:
            # Made by the app, as the terminal driver's keys are: a key made here would stop bubbling at this pane.
            for key in held:  # in the order typed
                app.post_message(events.Key(key.key, key.character))

        if held:
            app.call_later(replay)

    def let_go(self) -> None:
        """The user went elsewhere (another tab): the keys typed ahead are not for this list."""
        self._taking = False
        self._held.clear()
        self.can_focus = False
