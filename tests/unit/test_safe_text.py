"""safe(): every server string reaches the screen as inert, bounded plain text."""

from __future__ import annotations

import time
import unicodedata

import pytest
from textual.content import Content

from folio.tui.safe import ELLIPSIS, _general, safe


def _no_controls(text: str) -> bool:
    return all(unicodedata.category(c) not in ("Cc", "Cf", "Cs") for c in text)


@pytest.mark.parametrize(
    "markup",
    ["[@click=app.quit]x", "[ @click=app.quit]x", "[/]", "[b]bold", "[link=https://evil]x[/link]", "[red]"],
)
def test_markup_is_shown_never_parsed(markup: str) -> None:
    content = safe(markup)
    assert isinstance(content, Content)
    assert content.plain == markup
    assert content.spans == []  # no style, no action, no link was made from it


@pytest.mark.parametrize(
    ("hostile", "shown"),
    [
        ("\x1b]52;c;ZXZpbA==\x07", ""),  # OSC 52: write to the clipboard
        ("\x1b]52;c;ZXZpbA==\x1b\\after", "after"),  # the same, ended by ST
        ("\x1b]8;;https://evil\x07link\x1b]8;;\x07", "link"),  # OSC 8 hyperlink
        ("\x1b[2J", ""),  # CSI: clear the screen
        ("\x1b[31;1mred\x1b[0m", "red"),
        ("\x9b31mred", "red"),  # 8-bit CSI
        ("\x1bP1$r0m\x1b\\dcs", "dcs"),  # DCS
        ("\x1b_apc payload\x1b\\x", "x"),  # APC
        ("\x1b]0;new window title", ""),  # unterminated OSC: its payload to the end
        ("bell\x07 and\x00nul\x7fdel", "bell andnuldel"),
        ("\x1bcreset", "reset"),  # RIS
        ("trailing\x1b", "trailing"),
    ],
)
def test_terminal_sequences_and_controls_are_removed(hostile: str, shown: str) -> None:
    text = safe(hostile).plain
    assert text == shown
    assert "\x1b" not in text and _no_controls(text)


@pytest.mark.parametrize(
    "bidi", ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
)
def test_bidi_overrides_and_isolates_are_removed(bidi: str) -> None:
    assert safe(f"{bidi}abc").plain == "abc"
    assert safe(f"invoice{bidi}fdp.exe").plain == "invoicefdp.exe"


def test_other_invisible_format_characters_are_removed() -> None:
    # zero-width space, soft hyphen, BOM, word joiner, a tag character
    assert safe("a\u200bb\u00adc\ufeffd\u2060e\U000e0041f").plain == "abcdef"


def test_lone_surrogates_become_a_replacement_character() -> None:
    assert safe("x\ud800y").plain == "x\ufffdy"


def test_newlines_fold_to_spaces_unless_multiline() -> None:
    assert safe("line one\nline two\r\n\r\n  line three\rfour\u2028five").plain == (
        "line one line two line three four five"
    )
    assert safe(" \tpadded\t ").plain == "padded"
    assert safe("a\r\nb\n\n\tc  \n", multiline=True).plain == "a\nb\n\n    c"


def test_length_is_capped_with_an_ellipsis() -> None:
    assert safe("x" * 10, limit=10).plain == "x" * 10
    capped = safe("y" * 11, limit=10).plain
    assert capped == "y" * 9 + ELLIPSIS
    assert len(capped) == 10


def test_a_megabyte_is_cut_quickly() -> None:
    started = time.perf_counter()
    text = safe("\x1b[31m" + "A" * 1_000_000 + "\x1b]52;c;x\x07").plain
    assert time.perf_counter() - started < 3  # linear: a quadratic cut would take minutes
    assert len(text) == 2000
    assert text.endswith(ELLIPSIS)
    assert set(text[:-1]) == {"A"}


def test_a_megabyte_of_escapes_shows_nothing_hostile() -> None:
    text = safe("\x1b]8;;https://evil\x07" * 50_000).plain
    assert "\x1b" not in text and "evil" not in text


def test_none_and_ordinary_text() -> None:
    assert safe(None).plain == ""
    assert safe("Northwind Labs — Ünïcødé ✓ 👩‍💻").plain.startswith("Northwind Labs — Ünïcødé ✓ 👩")
    assert safe(None).spans == []


# -- printable ASCII takes a short cut: it must end where the general path ends ---------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "Space 1234",
        "  padded on both sides  ",
        "inner   runs   of spaces stay",
        "[b]markup[/b] [@click=app.quit]x[/] \\[escaped]",
        "x" * 9,
        "x" * 10,
        "x" * 11,
        "word " * 3,
        "y" * 10 + "   ",
        "ab        cd",
        "z" * 300,  # past what is read at all: the general path cuts it
    ],
)
@pytest.mark.parametrize("multiline", [False, True])
def test_printable_ascii_comes_out_as_the_general_path_makes_it(text: str, multiline: bool) -> None:
    assert text.isascii() and text.isprintable()
    for limit in (1, 5, 10, 2000):
        fast, general = safe(text, limit=limit, multiline=multiline), _general(text, limit, multiline)
        assert (fast.plain, fast.spans, fast.cell_length) == (general.plain, general.spans, general.cell_length)


@pytest.mark.parametrize("text", ["tab\there", "line\nbreak", "esc\x1b[2J", "del\x7f", "é", "\x9b31m"])
def test_anything_else_takes_the_general_path(text: str) -> None:
    assert not (text.isascii() and text.isprintable())  # (what the short cut checks)
    assert safe(text, limit=40).plain == _general(text, 40, False).plain


# -- an unterminated sequence hides its own line at most ------------------------------------------------------

PARAGRAPHS = "\n\nSecond paragraph.\n\nThird paragraph."


@pytest.mark.parametrize(
    ("hostile", "multiline", "shown"),
    [
        ("# O0\x1b]0;title" + PARAGRAPHS, True, "# O0\n\nSecond paragraph.\n\nThird paragraph."),
        ("# O0\x1b]0;title" + PARAGRAPHS, False, "# O0 Second paragraph. Third paragraph."),
        ("a\x1b]0;title\r\nb", True, "a\nb"),  # a CR LF ends the line too
        ("a\x1bPdcs payload\nb", True, "a\nb"),  # DCS, 7-bit
        ("a\x9dosc payload\nb", True, "a\nb"),  # OSC, 8-bit introducer
        ("a\x1b_apc\u2028b", True, "a\nb"),  # a line separator ends the line
        ("a\x1b]0;" + "x" * 300 + "\nb", True, "a" + "x" * 46 + "\nb"),  # at most 256 characters are payload
        ("a\x1b]0;t\nb\x07c", True, "a\nbc"),  # a terminator on a later line does not reach back
        ("a\x1b]0;t\x1b]0;u\nb", True, "a\nb"),  # two on one line
        ("a\x1b]8;;https://x.test/" + "p" * 1000 + "\x07link\x1b]8;;\x07 b", False, "alink b"),  # long, terminated
    ],
)
def test_an_unterminated_string_sequence_ends_with_its_line(hostile: str, multiline: bool, shown: str) -> None:
    text = safe(hostile, multiline=multiline).plain
    assert text == shown
    assert "\x1b" not in text and all(_no_controls(line) for line in text.split("\n"))


# -- zero-width joiners: kept inside emoji sequences, removed where they could hide text --------------------

ZWJ = "\u200d"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # kept: emoji joined to emoji (families, professions, flags, hearts), with FE0F or a skin tone before
        ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧"),
        ("👩\u200d💻 on call", "👩\u200d💻 on call"),
        ("🏳\ufe0f\u200d🌈", "🏳\ufe0f\u200d🌈"),  # rainbow flag: FE0F before the joiner
        ("🏴\u200d☠\ufe0f", "🏴\u200d☠\ufe0f"),  # pirate flag: FE0F after the second emoji
        ("🧑🏽\u200d💻", "🧑🏽\u200d💻"),  # skin tone modifier before the joiner
        ("❤\ufe0f\u200d🔥", "❤\ufe0f\u200d🔥"),
        ("🏃\u200d♂\ufe0f", "🏃\u200d♂\ufe0f"),
        # removed: between letters, next to one letter, at either end, doubled, next to other invisibles
        ("pay\u200dpal", "paypal"),
        ("a\u200d👩", "a👩"),
        ("👩\u200db", "👩b"),
        ("\u200d👩", "👩"),
        ("👩\u200d", "👩"),
        ("👩\u200d\u200d👩", "👩👩"),
        ("👩\u200d\u200b👩", "👩👩"),
        ("👩\u200d 👩", "👩 👩"),
        ("👩\u200d\n👩", "👩 👩"),
        ("\u202e👩\u200d👩", "👩\u200d👩"),  # the override goes, the family stays
    ],
)
def test_zero_width_joiners(text: str, shown: str) -> None:
    assert safe(text).plain == shown


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("❤\ufe0f", "❤\ufe0f"),  # emoji presentation of a text-default character
        ("☺\ufe0f ok", "☺\ufe0f ok"),
        ("1\ufe0f\u20e3", "1\ufe0f\u20e3"),  # keycap
    ],
)
def test_variation_selector_16_stays_after_emoji(text: str, shown: str) -> None:
    assert safe(text).plain == shown


def test_a_capped_text_does_not_end_in_a_joiner() -> None:
    text = safe("ab" + "👩\u200d👩\u200d👧", limit=5).plain  # the cut falls just after a joiner
    assert text == "ab👩" + ELLIPSIS
    assert ZWJ not in text
