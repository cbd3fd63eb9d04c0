"""In-process transport to the sandbox: ``httpx.ASGITransport`` with the sandbox's dropped connections turned
into the transport error a real socket would give."""

from __future__ import annotations

import httpx

from folio.sandbox.faults import DroppedConnection


class SandboxTransport(httpx.ASGITransport):
    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return await super().handle_async_request(request)
        except DroppedConnection:
            # Not chained: the sandbox's own frames (which hold the request's headers) are not the client's.
            raise httpx.RemoteProtocolError(
                "Server disconnected without sending a response.", request=request
            ) from None
