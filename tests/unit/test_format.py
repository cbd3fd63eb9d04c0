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


@pytest.mark.parametrize(
    ("ahead", "words"),
    [
        (timedelta(days=10) - timedelta(seconds=2), "10 days"),  # a 10-day certificate read a moment later
        (timedelta(days=7) - timedelta(milliseconds=300), "7 days"),  # a space deleted just now: all 7 of 7
        (timedelta(days=6, hours=13), "7 days"),
        (timedelta(days=6, hours=11), "6 days"),
        (timedelta(days=1, hours=11), "1 day"),
        (timedelta(hours=23, minutes=40), "1 day"),
        (timedelta(hours=23, minutes=20), "23 h"),
        (timedelta(hours=5, minutes=3), "5 h"),
        (timedelta(minutes=40), "1 h"),
        (timedelta(minutes=20), "less than an hour"),
        (timedelta(seconds=-5), "less than an hour"),
    ],
)
def test_span_rounds_to_the_nearest_unit(ahead: timedelta, words: str) -> None:
    assert format.span(ahead.total_seconds()) == words


def test_time_left_and_certificate_days_round_to_the_nearest() -> None:
    from folio.services.content.trash import time_left
    from folio.services.people.access_saml import CertificateInfo, certificate_note

    assert time_left(AT + timedelta(days=7), AT + timedelta(seconds=1)) == "7 days left"
    info = CertificateInfo(subject="CN=idp", issuer="CN=idp", not_before=AT, not_after=AT + timedelta(days=10))
    said, warn = certificate_note(info, AT + timedelta(seconds=3))
    assert said == "CN=idp: expires 2026-11-11 09:00 UTC (in 10 days): replace it soon." and warn
