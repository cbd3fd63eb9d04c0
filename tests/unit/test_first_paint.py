"""The organization list read from the cache with json only (``folio.services.first_paint``): what a second
start's first frame shows, before the client and the models are imported. It reads what the client stored, pages
and all, and paints nothing rather than a part or a guess."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

from folio.api.caching import cache_key
from folio.models.organization import Organization
from folio.services.first_paint import ORGANIZATIONS_KEY, cached_organizations


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
