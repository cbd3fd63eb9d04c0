"""The first frame from the cache: the organization list as the cache kept it, read with ``json`` only.

A start paints its first screen before the HTTP client, pydantic and the models are imported (they are most of
what a start waits for). The cached answer is what the service sent: the fields a row shows are read from it as
they are, a value of an unexpected type reads as unknown, and nothing else is checked. The fresh answer, read and
validated by the client, replaces these rows as soon as it comes.

    cached = cached_organizations(local.cached)     # CachedOrganizations | None
    for org in cached.items: org.id, org.title, org.billing.paid_members if org.billing else None ...

:class:`CachedOrganization` has the attribute names of ``folio.models.organization.Organization`` that the
organization list's rows, its enter and its ``o``/``y`` read, so one row function draws both.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol
from urllib.parse import urlencode

__all__ = ["ORGANIZATIONS_KEY", "CachedBilling", "CachedOrganization", "CachedOrganizations", "cached_organizations"]

ORGANIZATIONS_KEY = "GET /orgs"
"""The cache key of the organization list's first page (``folio.api.caching.cache_key("/orgs", None)``)."""
MOST_PAGES = 50
"""Pages followed at most (a cache that loops on ``next.page`` ends here)."""


class _Cached(Protocol):
    @property
    def body(self) -> bytes: ...

    @property
    def stored_at(self) -> float: ...


class CachedBilling:
    __slots__ = ("paid_members",)

    def __init__(self, paid_members: float | None = None) -> None:
        self.paid_members = paid_members


class CachedUrls:
    __slots__ = ("app",)

    def __init__(self, app: str | None = None) -> None:
        self.app = app


class CachedOrganization:
    """What a row of the organization list shows of one organization, as the cache kept it. (Plain classes, not
    dataclasses: this module is imported before the first frame, and a dataclass costs a compile at import.)"""

    __slots__ = ("billing", "community_type", "created_at", "id", "plan", "title", "type", "urls")

    def __init__(
        self,
        id: str,
        title: str = "",
        plan: str | None = None,
        type: str = "business",
        community_type: str | None = None,
        created_at: datetime | None = None,
        billing: CachedBilling | None = None,
        urls: CachedUrls | None = None,
    ) -> None:
        self.id = id
        self.title = title
        self.plan = plan
        self.type = type
        self.community_type = community_type
        self.created_at = created_at
        self.billing = billing
        self.urls = urls

    def __repr__(self) -> str:
        return f"CachedOrganization(id={self.id!r}, title={self.title!r})"


class CachedOrganizations:
    """Every organization of the cached list, and when its oldest page was stored (``time.time()``)."""

    __slots__ = ("items", "stored_at")

    def __init__(self, items: list[CachedOrganization], stored_at: float) -> None:
        self.items = items
        self.stored_at = stored_at


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _number(value: Any) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _time(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def _organization(item: Any) -> CachedOrganization | None:
    if not isinstance(item, dict) or not isinstance(item.get("id"), str):
        return None
    billing, urls = item.get("billing"), item.get("urls")
    return CachedOrganization(
        id=item["id"],
        title=_text(item.get("title")) or "",
        plan=_text(item.get("plan")),
        type=_text(item.get("type")) or "business",
        community_type=_text(item.get("communityType")),
        created_at=_time(item.get("createdAt")),
        billing=CachedBilling(_number(billing.get("paidMembers"))) if isinstance(billing, dict) else None,
        urls=CachedUrls(_text(urls.get("app"))) if isinstance(urls, dict) else None,
    )


def cached_organizations(read: Callable[[str], _Cached | None]) -> CachedOrganizations | None:
    """The organization list from the cache (``read(key)`` gives a cached answer or None), every page of it;
    None when a page is missing or is not a list the client would have stored (the fresh read will say why)."""
    key = ORGANIZATIONS_KEY
    items: list[CachedOrganization] = []
    oldest: float | None = None
    for _ in range(MOST_PAGES):
        hit = read(key)
        if hit is None:
            return None
        try:
            page = json.loads(hit.body)
        except ValueError:
            return None
        if not isinstance(page, dict) or not isinstance(page.get("items"), list):
            return None
        for item in page["items"]:
            org = _organization(item)
            if org is None:
                return None  # the client would refuse this page: paint nothing rather than a part
            items.append(org)
        oldest = hit.stored_at if oldest is None else min(oldest, hit.stored_at)
        following = page.get("next")
        token = following.get("page") if isinstance(following, dict) else None
        if not isinstance(token, str) or not token:
            return CachedOrganizations(items, oldest)
        key = f"{ORGANIZATIONS_KEY}?{urlencode([('page', token)])}"
    return None
