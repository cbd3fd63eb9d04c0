"""Waits asked by the service, and the backoff between attempts."""

from __future__ import annotations

import random

import httpx
import pytest

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
