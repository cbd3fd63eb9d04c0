"""The `:` command language and the fuzzy matching the command line and the palette share."""

from __future__ import annotations

import pytest

from folio.tui.jump import Candidate, Command, CommandError, best, change_request_number, matches, parse, score


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (":org Northwind Labs", Command("org", "Northwind Labs")),
        ("org   Northwind    Labs ", Command("org", "Northwind Labs")),
        (":organization acme", Command("org", "acme")),
        (":space user guide", Command("space", "user guide")),
        (":SPACE Guide", Command("space", "Guide")),
        (":cr 42", Command("cr", "42")),
        (":cr #42", Command("cr", "42")),
        (":cr 007", Command("cr", "7")),
        (":site public docs", Command("site", "public docs")),
        (":q", Command("quit")),
        (":quit", Command("quit")),
        (":q!", Command("quit")),
        ("  :q  ", Command("quit")),
    ],
)
def test_parse(line: str, expected: Command) -> None:
    assert parse(line) == expected


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("", "Type a command"),
        (":", "Type a command"),
        (":frob x", "Unknown command “frob”"),
        (":space", ":space needs a title"),
        (":org   ", ":org needs a title"),
        (":cr", ":cr needs a number"),
        (":cr abc", "“abc” is not a change request number"),
        (":cr 0", "is not a change request number"),
        (":cr -3", "is not a change request number"),
        (":cr 1234567890", "is not a change request number"),
        (":q now", ":q takes nothing"),
        (":" + "x" * 500, "…"),
    ],
)
def test_parse_refuses_in_words(line: str, says: str) -> None:
    with pytest.raises(CommandError) as error:
        parse(line)
    assert says in str(error.value)
    assert len(str(error.value)) < 200


def test_command_number() -> None:
    assert parse(":cr #12").number == 12


@pytest.mark.parametrize(
    ("query", "title", "expected"),
    [
        ("User Guide", "User Guide", 1.0),
        ("user   guide", "User Guide", 1.0),
        ("user", "User Guide", 0.9),
        ("guide", "User Guide", 0.8),
        ("gu us", "User Guide", 0.8),
        ("ser gui", "User Guide", 0.7),
        ("xyz", "User Guide", 0.0),
        ("", "User Guide", 0.0),
        ("user", "", 0.0),
    ],
)
def test_score_tiers(query: str, title: str, expected: float) -> None:
    assert score(query, title) == pytest.approx(expected)


def test_subsequence_scores_tighter_higher() -> None:
    tight, loose = score("rstp", "rest api"), score("rstp", "r s t ... ... p")
    assert 0.1 < loose < tight < 0.7


SPACES = [
    Candidate("space", "s1", "User Guide"),
    Candidate("space", "s2", "REST API Reference"),
    Candidate("space", "s3", "SDK Reference"),
    Candidate("site", "t1", "User Guide"),
]


def test_matches_ranks_and_filters_by_kind() -> None:
    assert [c.key for c in matches("reference", SPACES, kind="space")] == ["s2", "s3"]
    assert [c.key for c in matches("user guide", SPACES)] == ["s1", "t1"]
    assert matches("nothing like it", SPACES) == []


def test_best_picks_a_clear_leader_or_none() -> None:
    assert best("user", SPACES, kind="space") == SPACES[0]
    assert best("rest", SPACES, kind="space") == SPACES[1]
    assert best("reference", SPACES, kind="space") is None  # two equally good
    assert best("sdk reference", SPACES, kind="space") == SPACES[2]
    assert best("zzz", SPACES, kind="space") is None


@pytest.mark.parametrize(
    ("candidate", "number"),
    [
        (Candidate("change-request", "abc", "#42 Fix typos"), 42),
        (Candidate("change-request", "space-1/7", "Fix typos"), 7),
        (Candidate("change-request", "12", "Fix typos"), 12),
        (Candidate("change-request", "cr-id", "Fix typos"), None),
        (Candidate("change-request", "cr-id", "Fix #42 typos"), None),
    ],
)
def test_change_request_number(candidate: Candidate, number: int | None) -> None:
    assert change_request_number(candidate) == number
