"""The servers the benchmarks talk to over HTTP, each a child process that prints ``Serving on http://HOST:PORT``.

    with sandbox_server(10_000) as url:            # folio sandbox serve --port 0 --scale 10000
        org_id, spaces = largest_org(url)
    with server_process([...], "the replay server") as url: ...

(Re-exported by ``tests.bench.common``.)
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

__all__ = ["BENCH_TOKEN", "ROOT", "folio_executable", "largest_org", "sandbox_server", "server_process"]

ROOT = Path(__file__).resolve().parents[2]
"""The repository (the folder of pyproject.toml)."""

BENCH_TOKEN = "folio-bench-token"
"""The sandbox accepts any bearer token."""


def folio_executable() -> list[str]:
    """The ``folio`` console script next to this interpreter (``python -m folio`` when there is none)."""
    script = Path(sys.executable).with_name("folio")
    return [str(script)] if script.exists() else [sys.executable, "-m", "folio"]


@contextmanager
def server_process(command: Sequence[str], what: str, *, timeout: float = 180.0) -> Iterator[str]:
    """Run ``command``, a server that prints ``Serving on http://HOST:PORT`` once it listens; yield that URL,
    and stop the server afterwards."""
    import select
    import signal
    import tempfile

    errors = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 (closed in the finally below)
    proc = subprocess.Popen(
        list(command), stdout=subprocess.PIPE, stderr=errors, text=True, cwd=ROOT, start_new_session=True
    )
    assert proc.stdout is not None
    try:
        url = None
        deadline = time.monotonic() + timeout
        while url is None and time.monotonic() < deadline and proc.poll() is None:
            ready, _, _ = select.select([proc.stdout], [], [], 0.5)
            if ready:
                line = proc.stdout.readline()
                if line.startswith("Serving on "):
                    url = line.split("Serving on ", 1)[1].strip()
        if url is None:
            errors.seek(0)
            raise RuntimeError(f"{what} did not start: {errors.read()[-1000:]}")
        yield url
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        proc.stdout.close()
        errors.close()


def sandbox_server(scale: int) -> AbstractContextManager[str]:
    """``folio sandbox serve --port 0 --scale N`` in a child process: ``with sandbox_server(10_000) as url:``."""
    command = [*folio_executable(), "sandbox", "serve", "--host", "127.0.0.1", "--port", "0", "--scale", str(scale)]
    return server_process(command, f"the sandbox (scale {scale})")


def largest_org(base_url: str) -> tuple[str, int]:
    """The id of the served organization with the most spaces, and how many it has (the list's ``count``)."""
    import httpx

    headers = {"Authorization": f"Bearer {BENCH_TOKEN}"}
    with httpx.Client(base_url=base_url + "/v1", headers=headers, timeout=60) as http:
        orgs = http.get("/orgs").raise_for_status().json()["items"]
        counts = {
            org["id"]: http.get(f"/orgs/{org['id']}/spaces", params={"limit": 1}).raise_for_status().json()["count"]
            for org in orgs
        }
    best = max(counts, key=lambda org_id: counts[org_id])
    return best, counts[best]
