"""The shell's overlays pinned at 80x24 over the first screen: the command palette, the `?` keys overlay, and
the `:` command line (with a message, after a command that matched nothing)."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from tests.snapshots.support import loaded as _loaded
from tests.snapshots.support import sandbox_app as _app

SIZE = (80, 24)


async def _settled(pilot: Pilot[None]) -> None:
    await _loaded(pilot)
    await pilot.pause(0.3)  # the palette gathers its hits in a worker, in batches
    await _loaded(pilot)
    _steady(pilot)


def _steady(pilot: Pilot[None]) -> None:
    """A cursor that does not blink, so the frame does not depend on when it is taken."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False


def test_palette_open(snap_compare: Any, app: Any) -> None:
    async def run(pilot: Pilot[None]) -> None:
        await _loaded(pilot)
        await pilot.press("ctrl+p")
        await _settled(pilot)

    assert snap_compare(_app(app), terminal_size=SIZE, run_before=run)


def test_palette_searching(snap_compare: Any, app: Any) -> None:
    async def run(pilot: Pilot[None]) -> None:
        await _loaded(pilot)
        await pilot.press("ctrl+p", "r", "e")
        await _settled(pilot)

    assert snap_compare(_app(app), terminal_size=SIZE, run_before=run)


def test_help_overlay(snap_compare: Any, app: Any) -> None:
    async def run(pilot: Pilot[None]) -> None:
        await _loaded(pilot)
        await pilot.press("question_mark")
        await _loaded(pilot)
        _steady(pilot)

    assert snap_compare(_app(app), terminal_size=SIZE, run_before=run)


def test_help_overlay_filtered(snap_compare: Any, app: Any) -> None:
    async def run(pilot: Pilot[None]) -> None:
        await _loaded(pilot)
        await pilot.press("question_mark", "q", "u", "i", "t")
        await _loaded(pilot)
        _steady(pilot)

    assert snap_compare(_app(app), terminal_size=SIZE, run_before=run)


def test_command_line(snap_compare: Any, app: Any) -> None:
    async def run(pilot: Pilot[None]) -> None:
        await _loaded(pilot)
        await pilot.press("colon", "s", "p")
        await _loaded(pilot)
        _steady(pilot)

    assert snap_compare(_app(app), terminal_size=SIZE, run_before=run)


def test_command_line_says_what_went_wrong(snap_compare: Any, app: Any) -> None:
    async def run(pilot: Pilot[None]) -> None:
        await _loaded(pilot)
        await pilot.press("colon", "c", "r", "space", "4", "2", "enter")
        await _loaded(pilot)
        _steady(pilot)

    assert snap_compare(_app(app), terminal_size=SIZE, run_before=run)
