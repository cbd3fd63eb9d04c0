"""``why_unavailable`` finds the binding of a key among that key's own bindings (not every active binding of the
screen, #15) and says why it is greyed out: the same binding ``active_bindings`` (the footer, ``?``) has for it,
when the key is bound at two levels too."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from folio.tui.actions import Explains, why_unavailable


class Panel(Vertical, Explains, can_focus=True):
    """Binds ``e`` and ``p`` (this one with priority) itself; what it can do is set by the test."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "edit", "Edit"),
        Binding("p", "pin", "Pin", priority=True),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.reasons: dict[str, str | None] = {"edit": "Nothing to edit here.", "pin": "Pinned already."}
        self.hidden: set[str] = set()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.hidden:
            return False
        return super().check_action(action, parameters)

    def why_not(self, action: str) -> str | None:
        return self.reasons.get(action)


class Host(App[None], Explains):
    """Binds ``e`` too (under the panel's), ``p`` without priority and ``x`` with it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "export", "Export"),
        Binding("p", "print", "Print"),
        Binding("x", "expand", "Expand", priority=True),
    ]

    def __init__(self, panel: type[Panel] = Panel) -> None:
        super().__init__()
        self.panel = panel
        self.reasons: dict[str, str | None] = {"export": "Nothing to export.", "print": None, "expand": None}

    def compose(self) -> ComposeResult:
        with self.panel():
            yield Static("body")

    def why_not(self, action: str) -> str | None:
        return self.reasons.get(action)


def as_active_bindings_say(screen: Any, key: str) -> str | None:
    """What the screen's ``active_bindings`` says of ``key`` (the reference: the binding the footer shows)."""
    active = screen.active_bindings.get(key)
    if active is None or active.enabled:
        return None
    return str(active.node.why_not(active.binding.action))


class XPanel(Panel):
    """Binds ``x`` too (the app binds it with priority)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "edit", "Edit")]


async def test_a_key_bound_at_two_levels_is_the_focused_widgets() -> None:
    app = Host()
    async with app.run_test() as pilot:
        panel = app.query_one(Panel)
        panel.focus()
        await pilot.pause()
        screen = app.screen
        assert why_unavailable(screen, "e") == "Nothing to edit here."  # the panel's binding, not the app's
        assert why_unavailable(screen, "p") == "Pinned already."  # the panel's (priority) binding
        assert why_unavailable(screen, "x") is None  # the app's, enabled
        assert why_unavailable(screen, "q") is None  # bound nowhere here
        for key in "epxq":
            assert why_unavailable(screen, key) == as_active_bindings_say(screen, key)

        panel.hidden = {"edit"}  # the panel's `e` is hidden here: the key is the app's
        app.refresh_bindings()
        await pilot.pause()
        assert why_unavailable(screen, "e") == "Nothing to export."
        assert why_unavailable(screen, "e") == as_active_bindings_say(screen, "e")

        panel.reasons["edit"] = None
        panel.hidden = set()  # the panel's `e` enabled: the key acts, nothing to say
        assert why_unavailable(screen, "e") is None


async def test_a_priority_binding_comes_before_the_focused_widgets_other_one() -> None:
    app = Host(XPanel)
    async with app.run_test() as pilot:
        panel = app.query_one(XPanel)
        panel.focus()
        await pilot.pause()
        assert "x" in panel._bindings.key_to_bindings  # bound at both levels
        assert why_unavailable(app.screen, "x") is None  # the app's priority `x` (enabled), not the panel's
        assert why_unavailable(app.screen, "x") == as_active_bindings_say(app.screen, "x")
        app.reasons["expand"] = "Nothing to expand."
        assert why_unavailable(app.screen, "x") == "Nothing to expand."
        assert why_unavailable(app.screen, "x") == as_active_bindings_say(app.screen, "x")
