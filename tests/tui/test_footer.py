"""The footer rebuilds its keys only when the keys it shows change (#15: opening a change request rebuilt it
about 33 times), and still shows every change of them."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from folio.tui.widgets.footer import KeysFooter
from tests.tui.test_footer_inplace import rebuilds_of


class Host(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "go", "Go"), Binding("z", "stay", "Stay")]

    def __init__(self) -> None:
        super().__init__()
        self.can_go = True
        self.recomposed = 0

    def compose(self) -> ComposeResult:
        yield Static("body")
        yield KeysFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "go" and not self.can_go else True


def labels(app: App[Any]) -> list[tuple[str, bool]]:
    from textual.widgets._footer import FooterKey

    return [(key.description, key.has_class("-disabled")) for key in app.query(FooterKey)]


async def test_the_footer_rebuilds_only_when_its_keys_change() -> None:
    app = Host()
    async with app.run_test() as pilot:
        await pilot.pause()
        footer = app.query_one(KeysFooter)
        for _ in range(20):  # the first build's keys are read after its frame (a loaded machine: a few pauses on)
            if footer._shown:
                break
            await pilot.pause()
        calls = rebuilds_of(footer)
        for _ in range(5):
            app.refresh_bindings()  # what a list's cursor asks at each move
            await pilot.pause()
        assert calls == []
        assert ("Go", False) in labels(app)
        app.can_go = False
        app.refresh_bindings()
        for _ in range(4):
            await pilot.pause()
        assert calls == []  # the same keys: greyed out in place (tests/tui/test_footer_inplace.py)
        assert ("Go", True) in labels(app) and ("Stay", False) in labels(app)  # greyed out, as it should be
