"""`folio sandbox serve` over a real socket: port 0, the address line, bearer auth, the demo org."""

from __future__ import annotations

import subprocess
import sys

import httpx


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
