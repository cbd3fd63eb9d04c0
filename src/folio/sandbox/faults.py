"""Fault injection for tests and benchmarks: latency, server errors, 429 bursts and dropped connections.

Parsed from ``--faults "latency=0.2,error_rate=0.1,burst_429=3,drop_rate=0.05"``. Deterministic for a seed.
A dropped connection is raised as :class:`DroppedConnection`; over uvicorn the response has started, so the
client sees the connection cut mid-answer; in-process, :mod:`folio.sandbox.transport` turns it into the
transport error httpx would raise.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field, fields
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class DroppedConnection(ConnectionResetError):
    """The sandbox cut the connection on purpose."""


@dataclass
class Faults:
    latency: float = 0.0
    """Seconds added to every request."""
    error_rate: float = 0.0
    """Fraction of requests answered 500, 502 or 503 (before they are processed)."""
    burst_429: int = 0
    """Every 10th request starts a burst of this many 429 answers."""
    retry_after: float | None = 1.0
    """``Retry-After`` seconds sent with a 429 (None: no header at all)."""
    drop_rate: float = 0.0
    """Fraction of requests whose connection is dropped before they are processed."""
    drop_after_write: float = 0.0
    """Fraction of writes processed and then dropped before the answer: the 'lost response'."""
    malformed_rate: float = 0.0
    """Fraction of successful answers whose body is cut into invalid JSON."""
    strip_field: str = ""
    """A field removed from every object of successful JSON answers (a response missing a required field)."""
    seed: int = 1
    in_flight: int = field(default=0, repr=False)
    max_in_flight: int = field(default=0, repr=False)
    """How many requests were inside the sandbox at once, at most: lets tests check the client's cap."""
    rng: random.Random = field(default_factory=random.Random, repr=False)
    _count: int = field(default=0, repr=False)
    _burst_left: int = field(default=0, repr=False)

    def __post_init__(self) -> None:
        self.rng.seed(self.seed)

    @classmethod
    def parse(cls, spec: str) -> Faults:
        """``"latency=0.2,error_rate=0.1"`` -> Faults; unknown names are an error naming the known ones."""
        hidden = {"rng", "in_flight", "max_in_flight"}
        names = {f.name: f for f in fields(cls) if not f.name.startswith("_") and f.name not in hidden}
        values: dict[str, Any] = {}
        for part in filter(None, (p.strip() for p in spec.split(","))):
            name, _, raw = part.partition("=")
            name = name.strip().replace("-", "_")
            if name not in names:
                raise ValueError(f"unknown fault {name!r}; known: {', '.join(sorted(names))}")
            if name == "retry_after" and raw.strip().lower() in ("", "none"):
                values[name] = None
            elif name == "strip_field":
                values[name] = raw.strip()
            elif name in ("burst_429", "seed"):
                values[name] = int(raw)
            else:
                values[name] = float(raw)
        return cls(**values)

    @property
    def active(self) -> bool:
        return any(
            (
                self.latency,
                self.error_rate,
                self.burst_429,
                self.drop_rate,
                self.drop_after_write,
                self.malformed_rate,
                self.strip_field,
            )
        )


class FaultMiddleware:
    def __init__(self, app: ASGIApp, faults: Faults) -> None:
        self.app = app
        self.faults = faults

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        f = self.faults
        if scope["type"] != "http" or not f.active:
            await self.app(scope, receive, send)
            return
        f._count += 1
        f.in_flight += 1
        f.max_in_flight = max(f.max_in_flight, f.in_flight)
        try:
            await self._inject(scope, receive, send)
        finally:
            f.in_flight -= 1

    async def _inject(self, scope: Scope, receive: Receive, send: Send) -> None:
        f = self.faults
        if f.latency:
            await asyncio.sleep(f.latency)
        if f.burst_429 and f._count % 10 == 1:
            f._burst_left = f.burst_429
        if f._burst_left > 0:
            f._burst_left -= 1
            headers = [(b"content-type", b"application/json")]
            if f.retry_after is not None:
                headers.append((b"retry-after", str(f.retry_after).encode()))
            await _answer(send, 429, headers, b'{"error":{"code":429,"message":"Rate limit exceeded"}}')
            return
        if f.drop_rate and f.rng.random() < f.drop_rate:
            await _cut(send)
        if f.error_rate and f.rng.random() < f.error_rate:
            status = f.rng.choice((500, 502, 503))
            await _answer(
                send,
                status,
                [(b"content-type", b"application/json")],
                b'{"error":{"code":%d,"message":"Injected server error"}}' % status,
            )
            return
        if f.drop_after_write and scope["method"] != "GET" and f.rng.random() < f.drop_after_write:
            # Process the write for real, then lose the answer.
            async def swallow(message: Message) -> None:
                return None

            await self.app(scope, receive, swallow)
            await _cut(send)
        if f.malformed_rate or f.strip_field:
            await self._rewrite(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _rewrite(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the request, then spoil its successful JSON answer as configured."""
        f = self.faults
        start: Message = {}
        chunks: list[bytes] = []

        async def hold(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            else:
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, hold)
        body = b"".join(chunks)
        if 200 <= start.get("status", 500) < 300 and body:
            if f.malformed_rate and f.rng.random() < f.malformed_rate:
                body = body[: max(1, len(body) // 2)]
            elif f.strip_field:
                body = json.dumps(_strip(json.loads(body), f.strip_field)).encode()
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": body})


async def _answer(send: Send, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _strip(value: Any, name: str) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v, name) for k, v in value.items() if k != name}
    if isinstance(value, list):
        return [_strip(v, name) for v in value]
    return value


async def _cut(send: Send) -> None:
    """Start an answer that promises a body, then fail: a server closes the connection mid-answer."""
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/json"), (b"content-length", b"1024")],
        }
    )
    raise DroppedConnection("fault injection: connection dropped")
