"""The demo's first answer (``folio.sandbox.first_answer``): what the demo's first frame paints on a first start,
rendered by a child process that imports neither the web stack nor the models. Its pages are what the whole
sandbox answers to ``GET /v1/orgs``, page by page, so the first frame shows what the demo's own sandbox will."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from folio import cli
from folio.api.caching import cache_key
from folio.sandbox import SandboxTransport, create_app, first_answer, paging
from folio.sandbox.clock import Clock
from folio.sandbox.seed import PARTS, people

FIXED = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
HEAVY = ("starlette", "httpx", "pydantic", "folio.models")


def test_the_child_imports_neither_the_web_stack_nor_the_models() -> None:
    """Importing those is most of what the TUI waited for on a first start; the answer needs none of them."""
    probe = (
        "import json, sys\n"
        "from folio.sandbox import first_answer\n"
        f"code = first_answer.main([{cli.DEMO_BASE_URL!r}, {cli.DEMO_TOKEN!r}])\n"
        "sys.stdout.write('\\n' + json.dumps([code, sorted(sys.modules)]))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    answer, modules = done.stdout.splitlines()
    code, loaded = json.loads(modules)
    assert code == 0 and list(json.loads(answer)) == ["GET /orgs"]
    assert "folio.sandbox.seed.people" in loaded and "folio.sandbox.domain.orgs" in loaded
    imported = sorted(name for name in loaded if any(name == h or name.startswith(h + ".") for h in HEAVY))
    assert imported == []
    # Nor the rest of the seed: only its first part is seeded.
    assert sorted(name for name in loaded if name.startswith("folio.sandbox.seed.")) == ["folio.sandbox.seed.people"]


async def _sandbox_pages(token: str) -> dict[str, Any]:
    """Every page of ``GET /v1/orgs`` of the whole demo sandbox (every seed part), keyed as the client caches it."""
    found: dict[str, Any] = {}
    transport = SandboxTransport(create_app())
    async with httpx.AsyncClient(transport=transport, base_url=cli.DEMO_BASE_URL + "/v1") as client:
        params: dict[str, str] | None = None
        while True:
            response = await client.get("/orgs", params=params, headers={"Authorization": f"Bearer {token}"})
            assert response.status_code == 200, response.text
            found[cache_key("/orgs", params)] = response.json()
            following = response.json().get("next")
            if not following:
                return found
            params = {"page": following["page"]}


@pytest.fixture
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both sandboxes read the same instant (their seeds date things from now)."""
    monkeypatch.setattr(Clock, "now", lambda self: self._frozen if self._frozen is not None else FIXED)


@pytest.mark.parametrize("limit", [paging.DEFAULT_LIMIT, 1], ids=["one page", "a page per organization"])
async def test_the_pages_are_the_whole_sandboxs(limit: int, fixed_clock: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # With a limit of 1 the demo user's two organizations take two pages: the cursor is followed and keyed.
    monkeypatch.setattr(paging, "DEFAULT_LIMIT", limit)
    expected = await _sandbox_pages(cli.DEMO_TOKEN)
    found = first_answer.answers(cli.DEMO_BASE_URL, cli.DEMO_TOKEN)
    assert found is not None
    assert list(found) == list(expected) and len(found) == (1 if limit > 1 else 2)
    for key, body in found.items():
        assert json.loads(body) == expected[key], key


def test_the_bodies_are_encoded_as_the_sandbox_encodes_them(fixed_clock: None) -> None:
    found = first_answer.answers(cli.DEMO_BASE_URL, cli.DEMO_TOKEN)
    assert found is not None
    body = found["GET /orgs"]
    assert body == json.dumps(json.loads(body), ensure_ascii=False, separators=(",", ":"))


def test_the_people_part_is_the_seeds_first() -> None:
    """The ids come from the seed's generator in order: seeding the first part alone draws the same ones."""
    assert PARTS[0] is people


@pytest.mark.parametrize("token", ["", "   "])
async def test_a_token_that_names_no_user_answers_nothing(token: str, capsys: pytest.CaptureFixture[str]) -> None:
    transport = SandboxTransport(create_app())
    async with httpx.AsyncClient(transport=transport, base_url=cli.DEMO_BASE_URL + "/v1") as client:
        refused = await client.get("/orgs", headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 401  # what the whole sandbox answers to it
    assert first_answer.answers(cli.DEMO_BASE_URL, token) is None
    assert first_answer.main([cli.DEMO_BASE_URL, token]) == 1
    assert capsys.readouterr().out == ""
