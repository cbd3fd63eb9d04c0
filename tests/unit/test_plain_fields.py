"""A form's one-line field holds the server's exact value and draws its control characters as visible marks."""

from __future__ import annotations

from rich.text import Text

from folio.tui.widgets.plain import shown_plainly


def test_control_characters_are_drawn_as_marks_one_for_one() -> None:
    text = Text("a\x1b]0;xb\u202ec\x7f\x01")
    shown_plainly.highlight(text)
    assert text.plain == "a\u241b]0;xb\ufffdc\u2421\u2401"
    assert len(text.plain) == len("a\x1b]0;xb\u202ec\x7f\x01")  # the cursor stays where it is


def test_plain_text_and_joined_emoji_are_left_alone() -> None:
    for value in ("Northwind Docs", "Équipe 👩\u200d👩\u200d👧"):
        text = Text(value)
        shown_plainly.highlight(text)
        assert text.plain == value


async def test_a_text_field_draws_control_characters_as_marks_and_keeps_the_value() -> None:
    """#14: a multi-line field (a description, a comment being edited) sent ESC from the value to the terminal."""
    from textual.app import App, ComposeResult

    from folio.tui.widgets.plain import PlainTextArea

    value = "ab\x1b]0;title\x07cd\u202eef\nline \x08two"

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield PlainTextArea(value, soft_wrap=True)

    app = Host()
    async with app.run_test(size=(40, 6)):
        area = app.query_one(PlainTextArea)
        drawn = [segment.text for y in range(2) for segment in area.render_line(y)]
        assert not any(char in text for text in drawn for char in "\x1b\x07\u202e\x08")
        assert "ab\u241b]0;title\u2407cd\ufffdef" in "".join(drawn)
        assert area.text == value  # the exact value is what a save sends
