"""The organization list read from the cache with json only (``folio.services.first_paint``): what a second
start's first frame shows, before the client and the models are imported. It reads what the client stored, pages
and all, and paints nothing rather than a part or a guess. A first start's prefetch asks a real server (the sandbox
served on a socket) the same list, and any failure of it only means nothing is painted early."""

from __future__ import annotations

import http.server
import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ClassVar

import pytest

from folio import cli
from folio.api import GitBookClient, Token
from folio.api.caching import cache_key
from folio.models.organization import Organization
from folio.sandbox import SandboxState, first_answer
from folio.sandbox.seed import populate
from folio.services.first_paint import ORGANIZATIONS_KEY, Prefetch, cached_organizations
from tests.sandbox import serving


@dataclass(frozen=True)
class Hit:
    body: bytes
    stored_at: float


def store(pages: dict[str, Any], at: float = 100.0) -> dict[str, Hit]:
    return {
        key: Hit(json.dumps(page).encode() if not isinstance(page, bytes) else page, at) for key, page in pages.items()
    }


ORG = {
    "object": "organization",
    "id": "org-1",
    "title": "Northwind",
    "createdAt": "2026-10-01T08:30:00.000Z",
    "type": "community",
    "communityType": "nonProfit",
    "plan": "pro_2024",
    "billing": {"paidMembers": 12, "interval": "monthly"},
    "urls": {"app": "https://app.example/o/org-1", "location": "https://api.example/v1/orgs/org-1"},
    "permissions": {"admin": True},
}


def test_the_key_is_the_clients() -> None:
    assert cache_key("/orgs", None) == ORGANIZATIONS_KEY
    assert cache_key("/orgs", {"page": "a b/c"}) == f"{ORGANIZATIONS_KEY}?page=a+b%2Fc"


def test_a_row_reads_what_the_model_reads() -> None:
    found = cached_organizations(store({ORGANIZATIONS_KEY: {"items": [ORG]}}).get)
    assert found is not None and found.stored_at == 100.0
    [org] = found.items
    model = Organization.model_validate(ORG)
    for name in ("id", "title", "type", "community_type", "plan", "created_at"):
        assert getattr(org, name) == getattr(model, name), name
    assert org.created_at == datetime(2026, 10, 1, 8, 30, tzinfo=UTC)
    assert org.billing is not None and model.billing is not None
    assert org.billing.paid_members == model.billing.paid_members == 12
    assert org.urls is not None and org.urls.app == "https://app.example/o/org-1"


def test_every_page_is_followed_and_the_oldest_time_kept() -> None:
    second = f"{ORGANIZATIONS_KEY}?page=p%2F2"
    pages = store({ORGANIZATIONS_KEY: {"items": [ORG], "next": {"page": "p/2"}}}, at=50.0)
    pages |= store({second: {"items": [{**ORG, "id": "org-2"}], "next": None}}, at=40.0)
    found = cached_organizations(pages.get)
    assert found is not None and [o.id for o in found.items] == ["org-1", "org-2"] and found.stored_at == 40.0


def test_a_page_missing_paints_nothing() -> None:
    pages = store({ORGANIZATIONS_KEY: {"items": [ORG], "next": {"page": "p2"}}})
    assert cached_organizations(pages.get) is None
    assert cached_organizations({}.get) is None


def test_a_loop_of_pages_ends() -> None:
    pages = store({ORGANIZATIONS_KEY: {"items": [ORG], "next": {"page": "p"}}})
    pages |= store({f"{ORGANIZATIONS_KEY}?page=p": {"items": [ORG], "next": {"page": "p"}}})
    assert cached_organizations(pages.get) is None


@pytest.mark.parametrize(
    "body",
    [b"not json", b"[]", b'{"items": {}}', b'{"items": [{"title": "no id"}]}', b'{"items": [{"id": 7}]}', b"null"],
)
def test_what_the_client_would_not_have_stored_paints_nothing(body: bytes) -> None:
    assert cached_organizations(store({ORGANIZATIONS_KEY: body}).get) is None


def test_values_of_another_type_read_as_unknown() -> None:
    odd = {
        "id": "org-9",
        "title": 5,
        "type": None,
        "plan": ["x"],
        "createdAt": "yesterday",
        "billing": {"paidMembers": True},
        "urls": "https://x",
    }
    found = cached_organizations(store({ORGANIZATIONS_KEY: {"items": [odd]}}).get)
    assert found is not None
    [org] = found.items
    assert (org.id, org.title, org.plan, org.type) == ("org-9", "", None, "business")
    assert org.created_at is None and org.urls is None
    assert org.billing is not None and org.billing.paid_members is None
    assert repr(org) == "CachedOrganization(id='org-9', title='')"


# -- the first start's prefetch ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sandbox() -> Iterator[str]:
    with serving.served() as url:
        yield url


async def test_a_prefetch_reads_the_list_the_client_reads(sandbox: str) -> None:
    prefetch = Prefetch.over_http(sandbox, "any-token").start()
    found = prefetch.wait(20)
    assert found is not None and not prefetch.pending
    async with GitBookClient(token=Token("any-token"), base_url=sandbox) as client:
        orgs = await client.organizations.list().collect()
    assert [(o.id, o.title) for o in found.items] == [(o.id, o.title) for o in orgs]
    assert found.items[0].created_at == orgs[0].created_at
    assert prefetch._ask is None  # (nor the token it holds) once asked


def test_a_failed_prefetch_paints_nothing_and_says_nothing() -> None:
    with serving.served("--faults", "error_rate=1.0") as url:
        prefetch = Prefetch.over_http(url, "any-token").start()
        assert prefetch.wait(20) is None
    assert not prefetch.pending and prefetch.result() is None


def test_a_prefetch_to_nowhere_ends_without_an_error() -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    prefetch = Prefetch.over_http(f"http://127.0.0.1:{port}", "secret").start()
    assert prefetch.wait(20) is None and not prefetch.pending


class _Pages(http.server.BaseHTTPRequestHandler):
    """Two pages of organizations, the second behind ``next.page``; what was asked is kept on the server."""

    asked: ClassVar[list[tuple[str, str | None]]] = []

    def do_GET(self) -> None:
        self.asked.append((self.path, self.headers.get("Authorization")))
        if self.path == "/v1/orgs":
            page: dict[str, Any] = {"items": [ORG], "next": {"page": "p/2"}}
        elif self.path == "/v1/orgs?page=p%2F2":
            page = {"items": [{**ORG, "id": "org-2", "title": "Second"}]}
        else:
            self.send_error(404)
            return
        body = json.dumps(page).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        return None


def test_a_prefetch_follows_every_page_with_the_token_as_a_bearer() -> None:
    _Pages.asked.clear()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/v1/"  # written as some profiles write it
        found = Prefetch.over_http(url, "secret").start().wait(20)
    finally:
        server.shutdown()
        server.server_close()
    assert found is not None and [o.title for o in found.items] == ["Northwind", "Second"]
    assert _Pages.asked == [("/v1/orgs", "Bearer secret"), ("/v1/orgs?page=p%2F2", "Bearer secret")]


@pytest.mark.parametrize(
    ("url", "environment", "applies"),
    [
        ("https://api.gitbook.com", {}, True),
        ("http://127.0.0.1:8000", {}, True),
        ("https://api.gitbook.com", {"HTTPS_PROXY": "http://proxy:3128"}, False),
        ("https://api.gitbook.com", {"all_proxy": "socks5://proxy"}, False),
        ("ftp://example.com", {}, False),
    ],
)
def test_a_prefetch_does_not_go_around_a_proxy(
    url: str, environment: dict[str, str], applies: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert Prefetch.applies(url) is applies


def test_the_demos_prefetch_is_the_list_its_own_sandbox_will_answer() -> None:
    """A sandbox seeded in a child process answers what the demo's sandbox, seeded the same, is: same ids, titles."""
    found = Prefetch.from_demo(cli.DEMO_BASE_URL, cli.DEMO_TOKEN).start().wait(60)
    assert found is not None
    state = SandboxState(seed=7)
    populate(state)
    mine = [org for org in state.orgs.values() if state.default_user in state.members[org["id"]]]
    assert [(o.id, o.title) for o in found.items] == [(org["id"], org["title"]) for org in mine]


def test_the_first_answer_is_every_page_keyed_as_the_client_caches_it() -> None:
    found = first_answer.answers(cli.DEMO_BASE_URL, cli.DEMO_TOKEN)
    assert found is not None and list(found) == [ORGANIZATIONS_KEY]
    assert [item["title"] for item in json.loads(found[ORGANIZATIONS_KEY])["items"]][:1] == ["Northwind Labs"]
