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
