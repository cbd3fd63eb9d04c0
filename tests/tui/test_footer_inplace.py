"""The footer greys out and lights up its keys in place when only their enabled state changes, and takes out or
puts in the keys gone or come among the keys it shows (a rebuild of its keys cost 20-55 ms a time while a large
organization loaded, #15); it rebuilds them when they are grouped; and it shows what a rebuild would show."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from folio.tui.widgets.footer import KeysFooter, same_but_enabled


class Host(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "go", "Go", tooltip="Go there"),
        Binding("z", "stay", "Stay"),
        Binding("w", "wave", "Wave"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.can_go = True
        self.can_stay = True
        self.waves = True
        """False: ``w`` is hidden (its action not offered here), which changes the keys shown."""

    def compose(self) -> ComposeResult:
        yield Static("body")
        yield KeysFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "wave":
            return self.waves
        if action == "go":
            return True if self.can_go else None
        if action == "stay":
            return True if self.can_stay else None
        return True


def shown(app: App[Any]) -> list[tuple[str, str, bool, str]]:
    """Each key on the footer: key, label, greyed out, tooltip."""
    return [
        (key.key, key.description, key.has_class("-disabled"), str(key.tooltip or "")) for key in app.query(FooterKey)
    ]


async def settled(app: App[Any], pilot: Any) -> None:
    for _ in range(4):
        await pilot.pause()


async def built_footer(app: Host, pilot: Any) -> tuple[KeysFooter, list[int]]:
    """The footer once its first keys are built, with its rebuilds counted from then on."""
    await settled(app, pilot)
    footer = app.query_one(KeysFooter)
    assert footer._shown and shown(app)
    return footer, rebuilds_of(footer)


def rebuilds_of(footer: KeysFooter) -> list[int]:
    """A list that grows by one at each rebuild of ``footer`` from now on."""
    original = footer.recompose
    calls: list[int] = []

    async def counted() -> None:
        calls.append(1)
        await original()

    footer.recompose = counted  # type: ignore[method-assign]
    return calls


async def test_keys_greyed_out_and_lit_again_in_place() -> None:
    app = Host()
    async with app.run_test() as pilot:
        _, rebuilds = await built_footer(app, pilot)
        widgets = list(app.query(FooterKey))
        assert ("x", "Go", False, "Go there") in shown(app)

        app.can_go = False
        app.refresh_bindings()
        await settled(app, pilot)
        assert rebuilds == []  # the same keys: no rebuild ...
        assert list(app.query(FooterKey)) == widgets  # ... the very widgets ...
        assert ("x", "Go", True, "Go there") in shown(app)  # ... greyed out
        assert ("z", "Stay", False, "") in shown(app)
        go = next(key for key in widgets if key.key == "x")
        assert go._disabled  # a click on it rings the bell instead of acting, as on a rebuilt key

        app.can_go, app.can_stay = True, False
        app.refresh_bindings()
        await settled(app, pilot)
        assert rebuilds == []
        assert ("x", "Go", False, "Go there") in shown(app) and ("z", "Stay", True, "") in shown(app)
        assert not go._disabled


async def test_in_place_shows_what_a_rebuild_shows() -> None:
    app = Host()
    async with app.run_test() as pilot:
        footer, rebuilds = await built_footer(app, pilot)
        app.can_go = False
        app.refresh_bindings()
        await settled(app, pilot)
        in_place, picture = shown(app), app.export_screenshot()
        footer._shown = None  # forget what it shows: the next look builds the keys again
        app.refresh_bindings()
        await settled(app, pilot)
        assert rebuilds == [1]
        assert shown(app) == in_place
        assert app.export_screenshot() == picture


async def test_keys_gone_and_come_are_taken_out_and_put_in() -> None:
    app = Host()
    async with app.run_test() as pilot:
        _, rebuilds = await built_footer(app, pilot)
        before = {key.key: key for key in app.query(FooterKey)}
        full = shown(app)
        assert [key for key, *_ in full][:3] == ["x", "z", "w"]

        app.waves = False  # `w` hidden: a key fewer ...
        app.can_go = False  # ... and `x` greyed out at the same time
        app.refresh_bindings()
        await settled(app, pilot)
        assert rebuilds == []
        assert [key for key, *_ in shown(app)] == [key for key, *_ in full if key != "w"]
        assert ("x", "Go", True, "Go there") in shown(app)
        assert all(before[key.key] is key for key in app.query(FooterKey))  # the others stay as they were
        assert not before["w"].is_attached

        app.waves, app.can_go = True, True  # `w` back, in its place
        app.refresh_bindings()
        await settled(app, pilot)
        assert rebuilds == []
        assert shown(app) == full
        assert before["w"] is not app.query(FooterKey)[2]  # a new key
        assert [before[key] for key in ("x", "z")] == list(app.query(FooterKey))[:2]

        for _ in range(3):  # nothing changed: nothing done
            app.refresh_bindings()
            await pilot.pause()
        await settled(app, pilot)
        assert rebuilds == []
        in_place = app.export_screenshot()
        assert app.export_screenshot() == in_place  # (the same screen, the same picture)
        footer = app.query_one(KeysFooter)
        footer._shown = None  # forget what it shows: the next look builds the keys again
        app.refresh_bindings()
        await settled(app, pilot)
        assert rebuilds == [1]
        assert shown(app) == full
        assert app.export_screenshot() == in_place  # what a rebuild draws, to the cell


class Grouped(Host, inherit_bindings=False):
    """Two keys of one group (the footer shows them together, under the group's label)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "go", "Go"),
        Binding("left", "previous", "Previous", group=Binding.Group("Move")),
        Binding("right", "next", "Next", group=Binding.Group("Move")),
        Binding("w", "wave", "Wave"),
    ]


async def test_grouped_keys_are_rebuilt() -> None:
    app = Grouped()
    async with app.run_test() as pilot:
        _, rebuilds = await built_footer(app, pilot)
        assert [key for key, *_ in shown(app)][:4] == ["x", "left", "right", "w"]
        app.waves = False
        app.refresh_bindings()
        await settled(app, pilot)
        assert rebuilds == [1]
        assert [key for key, *_ in shown(app)][:3] == ["x", "left", "right"]


def test_same_but_enabled() -> None:
    go = ("x", "x", "Go", "go", True, "")
    stay = ("z", "z", "Stay", "stay", True, "")
    palette = ("ctrl+p", True, "Search")
    assert same_but_enabled((go, stay, palette), ((*go[:4], False, ""), stay, palette))
    assert same_but_enabled((go, palette), (go, ("ctrl+p", False, "Search")))
    assert not same_but_enabled((go, stay, palette), (go, palette))  # a key fewer
    assert not same_but_enabled((go, stay, palette), (stay, go, palette))  # another order
    assert not same_but_enabled((go, palette), (("x", "x", "Leave", "go", True, ""), palette))  # another label
    assert not same_but_enabled((go, palette), (go, None))  # the palette's key gone
