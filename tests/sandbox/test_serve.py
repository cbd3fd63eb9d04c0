"""`folio sandbox serve` over a real socket: port 0, the address line, bearer auth, the demo org."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator

import httpx
import pytest

ADDRESS = re.compile(r"^Serving on (http://127\.0\.0\.1:(\d+))$")


def _read_address(proc: subprocess.Popen[str], timeout: float = 30.0) -> str:
    """The first stdout line, read in a thread so a silent child cannot hang the test."""
    assert proc.stdout is not None
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(proc.stdout.readline()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    reader.join(timeout)
    assert line, f"no address line within {timeout}s"
    match = ADDRESS.match(line[0].strip())
    if match is None:
        why = proc.stderr.read() if proc.poll() is not None and proc.stderr else ""
        raise AssertionError(f"unexpected first line: {line[0]!r}; stderr: {why[-2000:]}")
    assert int(match.group(2)) > 0
    return match.group(1)


@pytest.fixture
def served() -> Iterator[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "folio", "sandbox", "serve", "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        yield _read_address(proc)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_serves_the_demo_organization_to_a_bearer(served: str) -> None:
    with httpx.Client(base_url=served, timeout=10) as http:
        answer = http.get("/v1/orgs", headers={"Authorization": "Bearer x"})
        assert answer.status_code == 200
        titles = [org["title"] for org in answer.json()["items"]]
        assert "Northwind Labs" in titles
        assert http.get("/v1/", headers={"Authorization": "Bearer x"}).json() == {
            "version": "sandbox",
            "build": "folio",
        }


def test_refuses_a_request_without_the_header(served: str) -> None:
    with httpx.Client(base_url=served, timeout=10) as http:
        answer = http.get("/v1/orgs")
        assert answer.status_code == 401
        assert answer.headers["www-authenticate"] == "Bearer"
        assert answer.json() == {"error": {"code": 401, "message": "Authentication required"}}


def test_a_taken_port_fails_in_words() -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "folio", "sandbox", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode != 0
    assert "Serving on" not in result.stdout
    assert "address already in use" in result.stderr.lower() or "errno" in result.stderr.lower()
    assert "Traceback" not in result.stderr
