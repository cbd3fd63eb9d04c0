"""g, G, space, pagedown and pageup in a diff go where they go at once, as j and k do, animations on or off
(Textual's scroll would glide for a second, drawing the whole diff anew at each of its frames); the cursor stays
on screen."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import App, ComposeResult

from folio.services.review.diff import diff_markdown
from folio.tui.widgets.diff_view import DiffView


class DiffApp(App[None]):
    def compose(self) -> ComposeResult:
        yield DiffView(cursor=True)


async def key(app: App[Any], pilot: Any, name: str, character: str | None) -> None:
    """The key as a terminal sends it, then one pause (``pilot.press`` would wait for animations to end)."""
    app.post_message(events.Key(name, character))
    await pilot.pause()


def gliding(app: App[Any], view: DiffView) -> bool:
    return app.animator.is_being_animated(view, "scroll_y")


def on_screen(view: DiffView) -> bool:
    top = round(view.scroll_y)
    return top <= view.cursor < top + view.scrollable_content_region.height


async def test_g_capital_g_and_space_move_at_once() -> None:
    before = "\n".join(f"line {n}" for n in range(600))
    after = "\n".join(f"line {n}{' changed' if n % 5 == 0 else ''}" for n in range(600))
    app = DiffApp()
    app.animation_level = "full"
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.query_one(DiffView)
        view.show(diff_markdown(before, after))
        view.focus()
        await pilot.pause()
        height = view.scrollable_content_region.height

        await key(app, pilot, "G", "G")
        assert not gliding(app, view)
        assert view.scroll_y == view.max_scroll_y > 0
        assert on_screen(view)

        await key(app, pilot, "g", "g")
        assert not gliding(app, view)
        assert view.scroll_y == 0
        assert on_screen(view)

        await key(app, pilot, "space", " ")
        assert not gliding(app, view)
        assert view.scroll_y == height
        assert on_screen(view)


class ReviewDiffApp(App[None]):
    def compose(self) -> ComposeResult:
        yield DiffView(cursor=True, space=False)  # as on a change request: space is the review sweep's


async def test_page_down_and_up_move_at_once_where_space_is_the_sweep() -> None:
    """On a change request's diff, pagedown and pageup are what pages: at once too (Textual's glided a page at 50
    lines a second, the whole diff drawn anew at each frame)."""
    before = "\n".join(f"line {n}" for n in range(600))
    after = "\n".join(f"line {n}{' changed' if n % 5 == 0 else ''}" for n in range(600))
    app = ReviewDiffApp()
    app.animation_level = "full"
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.query_one(DiffView)
        view.show(diff_markdown(before, after))
        view.focus()
        await pilot.pause()
        height = view.scrollable_content_region.height

        await key(app, pilot, "pagedown", None)
        assert not gliding(app, view)
        assert view.scroll_y == height
        assert on_screen(view)

        await key(app, pilot, "pagedown", None)
        await key(app, pilot, "pageup", None)
        assert not gliding(app, view)
        assert view.scroll_y == height
        assert on_screen(view)

        await key(app, pilot, "space", " ")
        assert view.scroll_y == height  # space is not the diff's here


async def test_a_long_line_cut_at_an_edge_shows_an_ellipsis() -> None:
    long = "word " * 40 + "END"
    app = DiffApp()
    async with app.run_test(size=(60, 12)) as pilot:
        view = app.query_one(DiffView)
        view.show(diff_markdown("short\n" + long, "short\n" + long + " more"))
        await pilot.pause()
        drawn = [view.render_line(y).text for y in range(view.size.height)]
        row = next(line for line in drawn if "word word" in line)
        assert row.endswith("\u2026") and "END" not in row  # cut at the right edge: said so
        assert not any(line.rstrip().endswith("\u2026") for line in drawn if "short" in line)  # a short line is not
        view.scroll_to(x=view.max_scroll_x, animate=False, immediate=True)
        await pilot.pause()
        drawn = [view.render_line(y).text for y in range(view.size.height)]
        row = next(line for line in drawn if "END more" in line)  # the new line, scrolled to its end
        assert row.rstrip().endswith("END more") and "+ \u2026 word" in row  # cut at its start: said so
        view.wrap = True
        await pilot.pause()
        drawn = [view.render_line(y).text for y in range(view.size.height)]
        assert not any("\u2026" in line for line in drawn)  # wrapped: nothing is cut
