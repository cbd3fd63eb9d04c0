"""The emoji format of the public description ("Unicode codepoint or character of the emoji"): what the space
form checks before sending and the sandbox refuses with a 400."""

from __future__ import annotations

import pytest

from folio.models.emoji import as_character, is_emoji
from folio.services.content.space_admin import check_space

SCOTLAND = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
"""A subdivision flag: a black flag, tag letters, a cancel tag."""


@pytest.mark.parametrize(
    "text",
    ["🎉", "📝", "❤️", "✅", "©", "‼️", "👍🏽", "🇫🇷", "#️⃣", "1️⃣", "👨\u200d👩\u200d👧", SCOTLAND,
     "1f389", "1F4DD", "1f468-200d-1f469"],
)  # fmt: skip
def test_emoji_and_code_points_are_emoji(text: str) -> None:
    assert is_emoji(text)


@pytest.mark.parametrize("text", ["", " ", "hello", "a", "#", "cafe", "110000", "🎉 ", "a🎉", "1f389-", "🎉" * 51])
def test_anything_else_is_not(text: str) -> None:
    assert not is_emoji(text)


def test_the_space_form_says_so_before_sending() -> None:
    assert "Not an emoji" in check_space({"emoji": "hello"})["emoji"]
    assert check_space({"emoji": "🎉"}) == {} and check_space({"emoji": ""}) == {}


@pytest.mark.parametrize(
    ("stored", "shown"),
    [("1f389", "🎉"), ("1F4DD", "📝"), ("1f468-200d-1f469", "👨\u200d👩"), ("🎉", "🎉"), ("cafe", "cafe"), ("", "")],
)
def test_a_code_point_is_shown_as_its_character(stored: str, shown: str) -> None:
    assert as_character(stored) == shown
