"""The footer: the screen's keys on one line drawn by one widget (#15: a widget per key cost 10-55 ms at each
rebuild while a large organization loaded). It draws again only when the keys it shows change, looks as
Textual's ``Footer`` does to the cell, and a click on a key presses it."""

from __future__ import annotations

import html
import re
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static

from folio.tui.widgets.footer import KeysFooter, Placed


class Host(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "go", "Go", tooltip="Go there"),
        Binding("z", "stay", "Stay"),
        Binding("w", "wave", "Wave"),
        Binding("y", "go", "Go too"),  # (a second key of one action: the footer shows the first)
    ]

    def __init__(self, footer: type[Any] = KeysFooter) -> None:
        super().__init__()
        self.footer = footer
        self.can_go = True
        self.waves = True
        """False: ``w`` is hidden (its action not offered here), which changes the keys shown."""
        self.done: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("body")
        yield self.footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "wave":
            return self.waves
        if action == "go":
            return True if self.can_go else None
        return True

    def action_go(self) -> None:
        self.done.append("go")

    def action_stay(self) -> None:
        self.done.append("stay")


def shown(app: App[Any]) -> list[tuple[str, str, bool]]:
    """Each key on the footer but the palette's: key, label, enabled."""
    return [(key.key, key.description, key.enabled) for key in app.query_one(KeysFooter).keys if not key.palette]


async def settled(pilot: Any) -> None:
    for _ in range(4):
        await pilot.pause()


def drawn(footer: KeysFooter) -> list[int]:
    """A list that grows by one each time ``footer`` draws its line from now on."""
    original = footer.render
    calls: list[int] = []

    def counted() -> Any:
        calls.append(1)
        return original()

    footer.render = counted  # type: ignore[method-assign]
    return calls


async def test_the_footer_draws_again_only_when_its_keys_change() -> None:
    app = Host()
    async with app.run_test() as pilot:
        await settled(pilot)
        footer = app.query_one(KeysFooter)
        assert shown(app) == [("x", "Go", True), ("z", "Stay", True), ("w", "Wave", True)]
        assert footer.keys[-1].palette
        draws = drawn(footer)
        for _ in range(5):
            app.refresh_bindings()  # what a list's cursor asks at each move
            await pilot.pause()
        await settled(pilot)
        assert draws == []

        app.can_go = False  # greyed out
        app.refresh_bindings()
        await settled(pilot)
        assert draws and ("x", "Go", False) in shown(app)

        app.waves = False  # a key gone ...
        app.refresh_bindings()
        await settled(pilot)
        assert [key for key, _, _ in shown(app)] == ["x", "z"]
        app.waves, app.can_go = True, True  # ... and back, in its place
        app.refresh_bindings()
        await settled(pilot)
        assert shown(app) == [("x", "Go", True), ("z", "Stay", True), ("w", "Wave", True)]


def _cells(svg: str) -> dict[tuple[int, int], tuple[str, ...]]:
    """A screenshot cell by cell: (line, column) -> the character, its colours and weight, its background. (Two
    pictures of the same cells may group them into text runs differently.)"""
    styles = dict(re.findall(r"\.terminal-\d+-(r\d+) \{([^}]*)\}", svg))
    cells: dict[tuple[int, int], tuple[str, ...]] = {}
    for fill, x, y, width in re.findall(r'<rect fill="([^"]+)" x="([^"]+)" y="([^"]+)" width="([^"]+)"', svg):
        start, line = round(float(x) / CELL), int(float(y) / LINE)
        for column in range(start, start + round(float(width) / CELL)):
            cells[line, column] = ("", "", fill)
    texts = re.findall(r'<text class="terminal-\d+-(r\d+)" x="([^"]+)" y="([^"]+)"[^>]*>([^<]*)<', svg)
    for style, x, y, text in texts:
        start, line = round(float(x) / CELL), int(float(y) / LINE)
        for offset, char in enumerate(html.unescape(text)):
            if char != "\n":
                cells[line, start + offset] = (char, styles[style], cells.get((line, start + offset), ("", "", ""))[2])
    return cells


CELL, LINE = 12.2, 24.4
"""The size of a cell in Textual's screenshots."""


async def _picture(
    footer: type[Any], size: tuple[int, int], *, can_go: bool = True
) -> tuple[dict[tuple[int, int], tuple[str, ...]], list[Placed]]:
    app = Host(footer)
    app.can_go = can_go
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        placed = app.query_one(KeysFooter).placed if footer is KeysFooter else []
        return _cells(app.export_screenshot()), placed


async def test_it_looks_as_textuals_footer_does() -> None:
    """The same keys, the same colours, a greyed out key dimmed, the palette's key on the right edge: the screen
    is the same picture with Textual's ``Footer`` and with this one, wide; narrow enough that the palette's key
    covers the last keys, the same but where Textual's shows a key cut mid-word: this one leaves it out."""
    for size, can_go in (((80, 10), True), ((80, 10), False), ((24, 6), True)):
        ours, placed = await _picture(KeysFooter, size, can_go=can_go)
        theirs, _ = await _picture(Footer, size, can_go=can_go)
        width, bottom = size[0], size[1] - 1
        whole_to = max(place.end for place in placed if place.whole and not place.key.palette)
        palette_from = next(place.start for place in placed if place.key.palette) - 1  # (its edge `▏`)
        gap = {(bottom, x) for x in range(whole_to, palette_from)}
        assert {cell: ours[cell] for cell in ours if cell not in gap} == {
            cell: theirs[cell] for cell in theirs if cell not in gap
        }, size
        assert all(ours[cell][0] in ("", " ") for cell in gap), size  # left empty, not a piece of a word
        if width == 80:  # (everything fits)
            assert ours == theirs


class Wordy(App[None]):
    """Keys whose labels have several words (``Open in browser``): cut after a whole word."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "go", "Go"),
        Binding("o", "open", "Open in browser"),
        Binding("w", "wave", "Wave"),
    ]

    def compose(self) -> ComposeResult:
        yield Static("body")
        yield KeysFooter()


async def test_a_key_that_does_not_fit_keeps_whole_words_and_says_it_is_cut() -> None:
    for width, label in ((29, "Open in…"), (27, "Open…"), (22, "")):
        app = Wordy()
        async with app.run_test(size=(width, 6)) as pilot:
            await settled(pilot)
            footer = app.query_one(KeysFooter)
            text = footer.render().plain
            places = {place.key.key: place for place in footer.placed}
            assert text.startswith(" x Go ") and "Open in browser" not in text, width
            if label:
                assert f" o {label}" in text and not places["o"].whole, width
                assert footer.key_at(places["o"].start + 1) is places["o"].key
            else:
                assert "o" not in places and " o " not in text, width  # not even a word fits: left out
            assert "w" not in places and "Wave" not in text  # after the cut one: left out
            assert footer.placed[-1].key.palette and footer.placed[-1].end == width


async def test_a_click_presses_the_key_and_the_mouse_shows_its_tooltip() -> None:
    app = Host()
    async with app.run_test(size=(80, 10)) as pilot:
        await settled(pilot)
        footer = app.query_one(KeysFooter)
        places = {place.key.key: place for place in footer.placed}
        assert all(place.whole for place in places.values())
        await pilot.click(KeysFooter, offset=(places["z"].start + 1, 0))
        await settled(pilot)
        assert app.done == ["stay"]

        await pilot.hover(KeysFooter, offset=(places["x"].start + 1, 0))
        await settled(pilot)
        assert footer.tooltip == "Go there"
        await pilot.hover(KeysFooter, offset=(places["z"].start + 1, 0))
        await settled(pilot)
        assert footer.tooltip is None  # (``z`` has none)

        app.can_go = False
        app.refresh_bindings()
        await settled(pilot)
        await pilot.click(KeysFooter, offset=(places["x"].start + 1, 0))
        await settled(pilot)
        assert app.done == ["stay"]  # a greyed out key does not act


async def test_keys_that_do_not_fit_before_the_palette_key_are_left_out() -> None:
    app = Host()
    async with app.run_test(size=(30, 6)) as pilot:
        await settled(pilot)
        footer = app.query_one(KeysFooter)
        whole = {place.key.key: place.whole for place in footer.placed}
        assert whole["x"] and whole["z"]
        assert "w" not in whole  # where the palette's key is: left out, not cut mid-word
        assert "Wav" not in footer.render().plain
        palette = footer.placed[-1]
        assert palette.key.palette and palette.whole and palette.end == 30
        assert footer.key_at(palette.start + 1) == palette.key
