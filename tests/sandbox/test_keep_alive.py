"""An idle connection the client reuses is still open on `folio sandbox serve`: the server keeps idle connections
longer than the client's pool does (a benchmark once printed ``GET /orgs/<id> failed: RemoteProtocolError``).

The client checks whether a pooled connection is still good, then sends on it; when its event loop is busy in
between (a frame being painted), the request goes out a little later. With a server that closes idle connections
after the same 5 s as the client's pool, a request checked at 4.8 s and sent at 5.3 s met a closed connection.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpcore._async.http11 as http11
import pytest

from folio.api import GitBookClient, Token
from folio.api.retry import RetryPolicy

STALL = 0.5
"""Seconds the client's loop is busy between the pool's check and the send."""


def test_a_pooled_connection_sent_on_late_is_still_open(served: str, monkeypatch: pytest.MonkeyPatch) -> None:
    send = http11.AsyncHTTP11Connection.handle_async_request
    stalls: list[float] = []

    async def busy_then_send(self: Any, request: Any) -> Any:
        if stalls:
            time.sleep(stalls.pop())  # the loop is busy after the pool chose this connection
        return await send(self, request)

    monkeypatch.setattr(http11.AsyncHTTP11Connection, "handle_async_request", busy_then_send)
    retried: list[float] = []

    async def record(seconds: float) -> None:
        retried.append(seconds)

    async def scenario() -> None:
        client = GitBookClient(token=Token("x"), base_url=served, retry=RetryPolicy(sleep=record))
        try:
            await client.request("GET", "/orgs")
            pool = client._http._transport._pool  # type: ignore[attr-defined]
            expiry = pool._keepalive_expiry
            assert expiry is not None
            await asyncio.sleep(expiry - STALL + 0.2)  # checked before the pool's expiry, sent after it
            stalls.append(STALL)
            answer = await client.request("GET", "/orgs")
            assert answer.status_code == 200
            assert len(pool.connections) == 1  # the same connection was used
        finally:
            await client.aclose()

    asyncio.run(scenario())
    assert not stalls, "the stall did not happen: the test proved nothing"
    assert retried == [], "the first send failed and the read was sent again"
