"""Serve recorded GET responses from memory over HTTP/1.1 (keep-alive): the paging benchmark's fast server.

    python -m tests.bench.replay_server RECORDING.json [--port 0]

``RECORDING.json`` maps request targets (path and query, e.g. ``/v1/orgs/x/spaces?limit=1000``) to JSON bodies
(text). The query's parameters are matched in any order. It prints ``Serving on http://127.0.0.1:PORT`` once it
listens, like ``folio sandbox serve``, and answers each request with the recorded bytes and nothing else to do,
so what a client spends shows instead of what the sandbox spends building a page. A target that was not recorded
gets a 404 in the API's error shape.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

NOT_FOUND = b'{"error":{"code":404,"message":"This request was not recorded."}}'


def key(target: str) -> str:
    parts = urlsplit(target)
    query = sorted(parse_qsl(parts.query, keep_blank_values=True))
    return parts.path + "?" + "&".join(f"{k}={v}" for k, v in query)


def response(status: bytes, body: bytes) -> bytes:
    head = f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    return b"HTTP/1.1 " + status + b"\r\n" + head + body


async def serve(recording: dict[str, bytes], port: int) -> None:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                _, target, _ = lines[0].split(" ", 2)
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "content-length" and int(value.strip() or 0):
                        await reader.readexactly(int(value.strip()))
                body = recording.get(key(target))
                writer.write(response(b"200 OK", body) if body is not None else response(b"404 Not Found", NOT_FOUND))
                await writer.drain()
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, ValueError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", port)
    bound = server.sockets[0].getsockname()[1]
    print(f"Serving on http://127.0.0.1:{bound}", flush=True)
    async with server:
        await server.serve_forever()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.replay_server")
    parser.add_argument("recording", type=Path)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    recorded = json.loads(args.recording.read_text())
    recording = {key(target): body.encode() for target, body in recorded.items()}
    asyncio.run(serve(recording, args.port))
    return 0


if __name__ == "__main__":
    sys.exit(main())
