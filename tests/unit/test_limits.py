"""The spec's limits and patterns, checked before a request is sent."""

from __future__ import annotations

import pytest

from folio.api.errors import InvalidRequest
from folio.api.limits import check_length, check_pattern, check_uri, check_weekly_pulse


@pytest.mark.parametrize(
    ("value", "low", "high", "problem", "limit"),
    [
        ("a", 2, 128, "is too short (1 characters)", "2..128 characters"),
        ("", 2, 128, "is empty", "2..128 characters"),
        ("x" * 129, 2, 128, "is too long (129 characters)", "2..128 characters"),
        ("x" * 101, 0, 100, "is too long (101 characters)", "at most 100 characters"),
    ],
)
def test_length_errors_name_field_problem_and_limit(value: str, low: int, high: int, problem: str, limit: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        check_length("title", value, min=low, max=high)
    assert (caught.value.field, caught.value.problem, caught.value.limit) == ("title", problem, limit)
    assert str(caught.value).startswith(f"title: {problem} ({limit})")


def test_lengths_within_limits_pass() -> None:
    check_length("title", "ok", min=2, max=128)
    check_length("title", None, min=2, max=128)


@pytest.mark.parametrize(
    ("pattern", "good", "bad"),
    [
        ("openapi.slug", "petstore-v2", "pet store"),
        ("openapi.slug", "a1", "-leading"),
        ("site.hostname", "docs.example.com", "localhost"),
        ("site.proxy", "example.com/docs", "example.com"),
        ("subdomain", "acme-docs", "-acme"),
    ],
)
def test_patterns(pattern: str, good: str, bad: str) -> None:
    check_pattern("field", good, pattern)
    with pytest.raises(InvalidRequest) as caught:
        check_pattern("field", bad, pattern)
    assert caught.value.limit.startswith("pattern ")


def test_uri_and_pulse() -> None:
    check_uri("sourceURL", "https://example.com/openapi.yaml")
    with pytest.raises(InvalidRequest):
        check_uri("sourceURL", "not a uri")
    with pytest.raises(InvalidRequest) as caught:
        check_uri("sourceURL", "https://e.com/" + "x" * 2048)
    assert caught.value.limit == "at most 2048 characters" or "2048" in caught.value.limit
    check_weekly_pulse("weeklyPulse", [0.0] * 13)
    with pytest.raises(InvalidRequest) as caught:
        check_weekly_pulse("weeklyPulse", [1.0] * 12)
    assert caught.value.limit == "exactly 13 numbers"
