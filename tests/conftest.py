"""Fixtures every test shares: isolated config and cache folders, a seeded sandbox with a frozen clock, and a
client that talks to it over ``httpx.ASGITransport`` (real HTTP semantics, no port)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.sandbox.clock import Clock
from folio.sandbox.seed import populate
from folio.services import Services

FROZEN_AT = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
SANDBOX_URL = "https://sandbox.folio.test"
TOKEN = "gb_api_test_token_canary_7f3a9c"

# (method, path with {} for parameters) of every route some test's sandbox answered.
HITS: set[tuple[str, str]] = set()
# Every request and answer that went through the `client` fixture: the contract test checks them all against
# the service's public OpenAPI description.
EXCHANGES: list[dict[str, object]] = []
# Set by the contract test when it runs the API tests in a subprocess: where to dump HITS and EXCHANGES.
RECORD_TO = os.environ.get("FOLIO_RECORD_EXCHANGES")


class Counting(httpx.AsyncBaseTransport):
    """A transport (the sandbox's) that keeps the writes it is sent, as ``METHOD path``: what a test of a lost
    answer counts to show a write was sent once."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.writes: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method != "GET":
            self.writes.append(f"{request.method} {request.url.path}")
        return await self.inner.handle_async_request(request)

    @property
    def content_posts(self) -> list[str]:
        """The batches of content changes sent to change requests."""
        return [w for w in self.writes if w.endswith("/content")]


class RecordingTransport(httpx.AsyncBaseTransport):
    """Passes requests to the sandbox and keeps a copy of each exchange for the contract test."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        content = await response.aread()
        EXCHANGES.append(
            {
                "method": request.method,
                "path": request.url.path.removeprefix("/v1"),
                "query": list(request.url.params.multi_items()),
                "request": _json_or_none(request.content),
                "status": response.status_code,
                "response": _json_or_none(content),
            }
        )
        return httpx.Response(response.status_code, headers=response.headers, content=content, request=request)


class Link(httpx.AsyncBaseTransport):
    """A network link to a transport that can be cut: while ``down`` every request fails to connect, as when the
    SSH host loses its network (the sandbox behind it keeps its state)."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.down = False
        self.sent: list[tuple[str, str]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            raise httpx.ConnectError("network is unreachable", request=request)
        self.sent.append((request.method, request.url.path.removeprefix("/v1")))
        return await self.inner.handle_async_request(request)


def _json_or_none(raw: bytes) -> object:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return {"__not_json__": True}


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test sees a developer's config, cache or state: one variable moves them all."""
    home = tmp_path / "folio-home"
    monkeypatch.setenv("FOLIO_HOME", str(home))
    monkeypatch.delenv("GITBOOK_TOKEN", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)  # tests name their editor in EDITOR; a developer's VISUAL would win
    monkeypatch.delenv("FOLIO_EDITOR", raising=False)
    return home


@pytest.fixture
def state() -> Iterator[SandboxState]:
    """The seeded demo organization, clock frozen at FROZEN_AT."""
    st = SandboxState(clock=Clock(FROZEN_AT), seed=7)
    populate(st)
    yield st
    HITS.update((m, re.sub(r"\{[^}]+\}", "{}", p)) for m, p in st.hits)


@pytest.fixture
def app(state: SandboxState):  # type: ignore[no-untyped-def]
    return create_app(state)


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture
def sleeps() -> list[float]:
    """The waits the client asked for (the client never really sleeps in tests)."""
    return []


@pytest.fixture
async def client(app, sleeps: list[float]) -> AsyncIterator[GitBookClient]:  # type: ignore[no-untyped-def]
    async def record(seconds: float) -> None:
        sleeps.append(seconds)

    c = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=RecordingTransport(SandboxTransport(app)),
        retry=RetryPolicy(sleep=record),
    )
    yield c
    await c.aclose()


@pytest.fixture
def faults() -> Faults:
    """The sandbox's faults behind :func:`flaky` (none yet: a test sets them, also while it runs)."""
    return Faults(seed=3)


@pytest.fixture
def counting(state: SandboxState, faults: Faults) -> Counting:
    """The seeded sandbox behind ``faults``, keeping the writes it is sent."""
    return Counting(SandboxTransport(create_app(state, faults=faults)))


@pytest.fixture
async def flaky(counting: Counting) -> AsyncIterator[Services]:
    """Services over :func:`counting`, retrying at once (no waits between tries)."""
    client = GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=counting, retry=RetryPolicy(sleep=_no_sleep)
    )
    yield Services(client, where="a flaky sandbox")
    await client.aclose()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if RECORD_TO:
        Path(RECORD_TO).write_text(json.dumps({"hits": sorted(HITS), "exchanges": EXCHANGES}))
