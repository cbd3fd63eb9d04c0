"""``folio auth status`` and ``auth login`` read ``GET /user`` like every other read: a 429 with ``Retry-After``
is waited out and the read is sent again, not reported as a token that does not work.

The command line's clients take their retry policy from ``cli.retry_policy`` (as their transport from
``cli.transport_factory``), so these tests record the waits instead of sleeping them."""

from __future__ import annotations

import httpx
import pytest

from folio import cli
from folio.api import RetryPolicy
from tests.conftest import SANDBOX_URL, TOKEN

USER = {"object": "user", "id": "u-ada", "displayName": "Ada Okafor", "email": "ada@northwind.dev"}


class LimitedOnce(httpx.AsyncBaseTransport):
    """Answers the first ``limited`` requests 429 with ``Retry-After``, then the user."""

    def __init__(self, limited: int = 1, retry_after: str = "1") -> None:
        self.limited = limited
        self.retry_after = retry_after
        self.seen: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(f"{request.method} {request.url.path}")
        if len(self.seen) <= self.limited:
            return httpx.Response(
                429,
                headers={"Retry-After": self.retry_after},
                json={"error": {"code": 429, "message": "Too many requests"}},
                request=request,
            )
        return httpx.Response(200, json=USER, request=request)


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits the command line's client asked for (none is really slept)."""
    asked: list[float] = []

    async def record(seconds: float) -> None:
        asked.append(seconds)

    monkeypatch.setattr(cli, "retry_policy", lambda: RetryPolicy(sleep=record))
    return asked


@pytest.mark.parametrize(
    ("limited", "retry_after", "expected_waits"),
    [
        (1, "1", [1.0]),
        (2, "2", [2.0, 2.0]),
    ],
)
def test_status_waits_out_a_429_and_asks_again(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    waits: list[float],
    limited: int,
    retry_after: str,
    expected_waits: list[float],
) -> None:
    transport = LimitedOnce(limited, retry_after)
    monkeypatch.setattr(cli, "transport_factory", lambda base_url: transport)
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    code = cli.main(["auth", "status", "--base-url", SANDBOX_URL])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert "Check:    works: signed in as Ada Okafor <ada@northwind.dev>" in out
    assert transport.seen == ["GET /v1/user"] * (limited + 1)
    assert waits == expected_waits


def test_status_still_reports_a_limit_that_does_not_lift(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], waits: list[float]
) -> None:
    transport = LimitedOnce(limited=100)
    monkeypatch.setattr(cli, "transport_factory", lambda base_url: transport)
    monkeypatch.setenv("GITBOOK_TOKEN", TOKEN)
    assert cli.main(["auth", "status", "--base-url", SANDBOX_URL]) == 1
    out = capsys.readouterr().out
    assert "Check:    does not work: the token could not be checked" in out
    assert "429" in out
    assert 1 < len(transport.seen) <= 10


def test_login_waits_out_a_429_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], waits: list[float]
) -> None:
    import getpass

    transport = LimitedOnce()
    monkeypatch.setattr(cli, "transport_factory", lambda base_url: transport)
    monkeypatch.setattr(getpass, "getpass", lambda prompt="", stream=None: TOKEN)
    assert cli.main(["auth", "login", "--base-url", SANDBOX_URL]) == 0
    assert "Logged in as Ada Okafor" in capsys.readouterr().out
    assert waits == [1.0]
