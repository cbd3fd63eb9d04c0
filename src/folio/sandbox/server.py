"""Serve the sandbox over a real socket with uvicorn: ``folio sandbox serve --port 0``.

Port 0 asks the system for a free port; once uvicorn is listening, the real address is printed (and flushed)
as ``Serving on http://HOST:PORT``, the line scripts and tests wait for. Any bearer token is accepted as the
demo organization's owner.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

import uvicorn

from folio.sandbox import Faults, create_app

__all__ = ["KEEP_ALIVE_SECONDS", "SandboxServer", "serve"]

KEEP_ALIVE_SECONDS = 75
"""How long an idle connection is kept open. uvicorn's default, 5 s, is also how long httpx keeps an idle connection
in its pool: a request sent on a connection near the end of both (sent just after the pool's check, while the
client's event loop was busy painting) met a server closing it, and failed with ``RemoteProtocolError: Server
disconnected without sending a response`` (a read is sent again; a write is reported as possibly lost). A server
must keep idle connections longer than its clients do, as the real service's front ends do (nginx 75 s)."""


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


class SandboxServer(uvicorn.Server):
    """A uvicorn server that reports its real address once its sockets listen."""

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[str, int], None]) -> None:
        super().__init__(config)
        self._on_ready = on_ready

    async def startup(self, sockets: Any = None) -> None:
        await super().startup(sockets=sockets)
        if self.should_exit:
            return
        for server in self.servers:
            for sock in server.sockets:
                host, port = sock.getsockname()[:2]
                self._on_ready(host, port)
                return


def serve(
    host: str = "127.0.0.1",
    port: int = 8787,
    *,
    scale: int = 0,
    faults: str | None = None,
    seed: int = 7,
    out: TextIO | None = None,
    log_level: str = "warning",
) -> int:
    """Run the sandbox until interrupted; returns the process exit status."""
    stream = out or sys.stdout
    fault_spec = Faults.parse(faults) if faults else None
    app = create_app(seed=seed, scale=scale, faults=fault_spec)

    def ready(bound_host: str, bound_port: int) -> None:
        print(f"Serving on http://{_url_host(bound_host)}:{bound_port}", file=stream, flush=True)
        print(
            "Any bearer token is accepted; try: curl -H 'Authorization: Bearer demo' "
            f"http://{_url_host(bound_host)}:{bound_port}/v1/orgs",
            file=stream,
            flush=True,
        )

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        lifespan="off",
        access_log=False,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
    )
    server = SandboxServer(config, ready)
    server.run()
    return 0 if server.started else 1
