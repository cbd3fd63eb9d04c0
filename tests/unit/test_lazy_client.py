"""What a start knows before the HTTP client is built (issue 15): the account's address as the client will keep
it, the service's default address, and a connection that answers until the client is handed to it."""

from __future__ import annotations

import pytest

from folio.api import DEFAULT_BASE_URL, GitBookClient
from folio.cli_tui import API_BASE_URL, service_url
from folio.services.connection import Connection


def test_the_default_address_is_the_clients() -> None:
    assert API_BASE_URL == DEFAULT_BASE_URL


@pytest.mark.parametrize(
    "url",
    ["https://api.gitbook.com", "https://api.gitbook.com/", "https://api.gitbook.com/v1", "http://127.0.0.1:8787/v1/"],
)
def test_the_account_index_sees_the_address_the_client_keeps(url: str) -> None:
    assert service_url(url) == GitBookClient(token="t", base_url=url).base_url


async def test_a_connection_before_its_client_then_with_it() -> None:
    told: list[str | None] = []
    connection = Connection(keeps_cache=True)
    connection.subscribe(told.append)
    assert connection.reads_cache_first and connection.paints_from_cache and not connection.offline
    assert connection.may_refresh() and await connection.probe()
    assert not Connection.is_cache_only() and not Connection.is_cache_miss(ValueError())

    client = GitBookClient(token="t", base_url="https://example.test")
    client.set_offline("asked")
    connection.attach(client)
    assert told == ["asked"] and connection.offline_reason == "asked"
    assert not connection.keeps_cache and not connection.reads_cache_first  # this client has no store
    client.set_offline(None)
    assert told == ["asked", None]
    with connection.cache_only():
        assert Connection.is_cache_only()
    await client.aclose()
