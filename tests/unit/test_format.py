"""The one formatter of times, ages and counts (``folio.services.format``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from folio.services import format

AT = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("delta", "words"),
    [
        (timedelta(seconds=-30), "just now"),
        (timedelta(seconds=0), "just now"),
        (timedelta(seconds=59), "just now"),
        (timedelta(seconds=60), "1 min ago"),
        (timedelta(minutes=59, seconds=59), "59 min ago"),
        (timedelta(hours=1), "1 h ago"),
        (timedelta(days=1), "1 d ago"),
        (timedelta(days=13, hours=23), "13 d ago"),
        (timedelta(days=14), "2 wk ago"),
        (timedelta(days=61), "2 mo ago"),
        (timedelta(days=366), "1 yr ago"),
    ],
)
def test_ago(delta: timedelta, words: str) -> None:
    assert format.ago(AT - delta, AT) == words


def test_ago_never_says_now_ago_and_reads_a_naive_time_as_utc() -> None:
    assert format.ago(AT.replace(tzinfo=None), AT) == "just now"
    assert "now ago" not in format.ago(AT, AT)
    assert format.ago(None, AT) == "\u2014"
    assert format.ago(None, AT, unknown="") == ""


def test_ago_reads_the_clock_tests_freeze(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.format.now", lambda: AT)
    assert format.ago(AT - timedelta(minutes=5)) == "5 min ago"


def test_stamp_and_when_are_absolute_in_utc() -> None:
    paris = AT.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Paris"))
    assert format.stamp(paris) == "2026-11-01 09:00 UTC"
    assert format.stamp(None) == "\u2014"
    assert format.when(AT - timedelta(hours=3), AT) == "2026-11-01 06:00 UTC (3 h ago)"


def test_cached_age() -> None:
    assert format.cached_age(None) == ""
    assert format.cached_age(1000.0, 1030.0) == "cached just now"
    assert format.cached_age(1000.0, 1000.0 + 300) == "cached 5 min ago"


@pytest.mark.parametrize(
    ("n", "words"),
    [(0, "0 spaces"), (1, "1 space"), (2300, "2,300 spaces"), (2.0, "2 spaces"), (2.5, "2.5 spaces"), (None, "\u2014")],
)
def test_count(n: float | None, words: str) -> None:
    assert format.count(n, "space") == words
