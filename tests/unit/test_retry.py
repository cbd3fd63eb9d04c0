"""Waits asked by the service, and the backoff between attempts."""

from __future__ import annotations

import random
import time

import httpx
import pytest

from folio.api.errors import RateLimited, wait_words
from folio.api.retry import RetryPolicy, parse_wait

NOW = 1_800_000_000.0


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "7"}, 7.0),
        ({"Retry-After": "0.5"}, 0.5),
        ({"Retry-After": "Fri, 15 Jan 2027 08:00:10 GMT"}, None),  # a date: computed below
        ({"X-RateLimit-Reset": str(int(NOW) + 30)}, 30.0),
        ({"X-RateLimit-Reset": str(int(NOW * 1000) + 4000)}, 4.0),
        ({"X-RateLimit-Reset": "12"}, 12.0),
        ({"X-RateLimit-Reset": str(int(NOW) - 30)}, 0.0),
        ({"Retry-After": "soon"}, None),
        ({}, None),
    ],
)
def test_parse_wait(headers: dict[str, str], expected: float | None) -> None:
    got = parse_wait(httpx.Headers(headers), now=NOW)
    if "GMT" in headers.get("Retry-After", ""):
        from email.utils import parsedate_to_datetime

        assert got == pytest.approx(parsedate_to_datetime(headers["Retry-After"]).timestamp() - NOW)
    else:
        assert got == expected


def test_backoff_is_jittered_and_capped() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=4.0, rng=random.Random(3))
    waits = [policy.backoff(n) for n in range(1, 10)]
    assert all(0 <= w <= 4.0 for w in waits)
    assert waits[0] <= 0.5
    assert len(set(waits)) == len(waits)


def test_rate_limit_backoff_is_seconds_doubling_jittered_and_capped() -> None:
    """#24: a 429 without a wait is asked again after about 1, 2, 4 s (a fifth either way), never over the cap."""
    policy = RetryPolicy(max_delay=8.0, rng=random.Random(5))
    for attempt, step in ((1, 1.0), (2, 2.0), (3, 4.0)):
        waits = [policy.rate_limit_backoff(attempt) for _ in range(50)]
        assert all(0.8 * step <= w <= 1.2 * step for w in waits)
        assert len(set(waits)) > 1
    assert all(policy.rate_limit_backoff(n) <= 8.0 for n in range(4, 12))
    assert policy.rate_limit_backoff(10) >= 8.0 * 0.8


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (0.2, "1 second"),
        (1, "1 second"),
        (2.5, "3 seconds"),
        (59, "59 seconds"),
        (60, "1 minute"),
        (61, "2 minutes"),
        (120, "2 minutes"),
        (3600, "1 hour"),
        (3900, "1 hour 5 minutes"),
        (7199, "2 hours"),
    ],
)
def test_waits_in_words_round_up(seconds: float, words: str) -> None:
    assert wait_words(seconds) == words


def test_rate_limited_words_without_a_request() -> None:
    short = RateLimited(retry_after=30, status=429)
    assert short.retry_at is not None
    at = time.strftime("%H:%M:%S", time.localtime(short.retry_at))
    assert short.describe() == f"Rate limited by the service: try again in 30 seconds (at {at}) (429)."
    unknown = RateLimited(status=429)
    assert (
        unknown.describe()
        == "Rate limited by the service: it gave no time to wait. Try again in a minute or two (429)."
    )
    unknown.gave_up_after((1.04, 1.9, 4.2))
    assert "asked again after 1 s, 2 s and 4 s, in vain" in str(unknown)
