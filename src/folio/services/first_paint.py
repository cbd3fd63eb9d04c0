"""The first frame from the cache: the organization list as the cache kept it, read with ``json`` only.

A start paints its first screen before the HTTP client, pydantic and the models are imported (they are most of
what a start waits for). The cached answer is what the service sent: the fields a row shows are read from it as
they are, a value of an unexpected type reads as unknown, and nothing else is checked. The fresh answer, read and
validated by the client, replaces these rows as soon as it comes.

    cached = cached_organizations(local.cached)     # CachedOrganizations | None
    for org in cached.items: org.id, org.title, org.billing.paid_members if org.billing else None ...

:class:`CachedOrganization` has the attribute names of ``folio.models.organization.Organization`` that the
organization list's rows, its enter and its ``o``/``y`` read, so one row function draws both.

A first start has no cache: :class:`Prefetch` asks the service for the same list at process start, in a thread,
while Textual is imported, and the first frame paints its answer the same way:

    prefetch = Prefetch.over_http("https://api.gitbook.com", token).start()
    ...                                  # Textual and the first screen imported meanwhile
    prefetch.result()                    # CachedOrganizations | None (None: not yet, or it failed)
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import Any, Protocol
from urllib.parse import SplitResult, urlencode, urlsplit

__all__ = [
    "ORGANIZATIONS_KEY",
    "CachedBilling",
    "CachedOrganization",
    "CachedOrganizations",
    "Prefetch",
    "cached_organizations",
]

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
        query = _next_query(page)
        if query is None:
            return CachedOrganizations(items, oldest)
        key = ORGANIZATIONS_KEY + query
    return None


def _next_query(page: Any) -> str | None:
    """The query of the page after ``page`` (a list's decoded body): ``?page=<cursor>``; None on the last page."""
    following = page.get("next") if isinstance(page, dict) else None
    token = following.get("page") if isinstance(following, dict) else None
    return "?" + urlencode([("page", token)]) if isinstance(token, str) and token else None


class _Answer:
    __slots__ = ("body", "stored_at")

    def __init__(self, body: bytes, stored_at: float) -> None:
        self.body = body
        self.stored_at = stored_at


PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy")
"""A proxy in the environment is httpx's to use (``trust_env``): the prefetch does not go around it."""


class Prefetch:
    """The organization list asked at process start, in a daemon thread, so that the answer travels while Textual and
    the first screen are imported (a first start has nothing cached to paint). Two sources:

    - :meth:`over_http`: the service, with the standard library's ``http.client``;
    - :meth:`from_demo`: the demo's sandbox, seeded in a process of its own (``folio.sandbox.first_answer``), which
      runs on another core while this one imports Textual.

    It is only ever a first frame: the HTTP client (httpx) reads the list again once that frame is drawn, validates
    it, retries, waits out rate limits and says what went wrong. So any failure here (an error status, a refused or
    slow connection, a certificate, a body that is not the list, a child that fails) only means there is nothing to
    paint early: it is never reported, and nothing of it is logged (the token is in its headers)."""

    TIMEOUT = 10.0
    """Seconds a connection, a read or the demo's child may take."""

    def __init__(self, ask: Callable[[], dict[str, bytes]], *, patience: float = 3.0) -> None:
        self._ask: Callable[[], dict[str, bytes]] | None = ask
        self.patience = patience
        """Seconds the first screen waits for this answer before the HTTP client asks itself: a service that does
        not answer the prefetch soon is left to the client, which says what is wrong; the demo's child is waited
        for as long as it may take (the demo's own sandbox, built in the TUI's process, costs as much)."""
        self._result: CachedOrganizations | None = None
        self._done = threading.Event()

    @classmethod
    def over_http(cls, base_url: str, token: str, *, user_agent: str = "folio-tui") -> Prefetch:
        """Ask the service the way the client would: ``GET {base}/v1/orgs`` with the token as a bearer, TLS
        verified, no redirect followed, every page (``next.page``) on the same connection.

        Why not httpx: importing it, its dependencies and the models is about half of what a first start waits
        for (``tests/bench/bench_startup.py``), while ``http.client`` is mostly loaded by Textual's imports."""
        return cls(partial(_over_http, urlsplit(base_url.rstrip("/")), token, user_agent, cls.TIMEOUT))

    @classmethod
    def from_demo(cls, base_url: str, token: str) -> Prefetch:
        """Ask a demo sandbox seeded in a child process (``python -m folio.sandbox.first_answer``)."""
        return cls(partial(_from_demo, base_url, token, cls.TIMEOUT), patience=cls.TIMEOUT)

    @staticmethod
    def applies(base_url: str) -> bool:
        """Whether a prefetch can ask ``base_url`` directly: http(s), and no proxy in the environment."""
        if urlsplit(base_url).scheme not in ("http", "https"):
            return False
        return not any(os.environ.get(name) or os.environ.get(name.upper()) for name in PROXY_VARIABLES)

    def start(self) -> Prefetch:
        threading.Thread(target=self._run, name="folio-prefetch", daemon=True).start()
        return self

    @property
    def pending(self) -> bool:
        return not self._done.is_set()

    def result(self) -> CachedOrganizations | None:
        """The organization list, once it came whole and readable; None while it is asked, or when it failed."""
        return self._result if self._done.is_set() else None

    def wait(self, timeout: float) -> CachedOrganizations | None:
        """Wait at most ``timeout`` seconds for the answer (blocking: call it from a thread)."""
        self._done.wait(timeout)
        return self.result()

    def _run(self) -> None:
        ask, self._ask = self._ask, None  # (it holds the token: not kept once asked)
        try:
            assert ask is not None
            stored = time.time()
            answers = {key: _Answer(body, stored) for key, body in ask().items()}
            self._result = cached_organizations(answers.get)
        except Exception:  # an early paint that could not be made: the client asks again
            self._result = None
        finally:
            self._done.set()


def _over_http(url: SplitResult, secret: str, user_agent: str, timeout: float) -> dict[str, bytes]:
    import http.client  # the thread's own import: the start goes on importing Textual meanwhile

    base = url.path.rstrip("/")
    base = base[:-3] if base.endswith("/v1") else base
    connection: http.client.HTTPConnection
    if url.scheme == "https":
        connection = http.client.HTTPSConnection(url.netloc, timeout=timeout)  # certificates verified by default
    else:
        connection = http.client.HTTPConnection(url.netloc, timeout=timeout)
    headers = {"Authorization": f"Bearer {secret}", "Accept": "application/json", "User-Agent": user_agent}
    answers: dict[str, bytes] = {}
    try:
        key, query = ORGANIZATIONS_KEY, ""
        for _ in range(MOST_PAGES):
            connection.request("GET", f"{base}/v1/orgs{query}", headers=headers)
            response = connection.getresponse()
            body = response.read()
            if response.status != 200:
                return {}
            answers[key] = body
            following = _next_query(json.loads(body))
            if following is None:
                return answers
            query = following
            key = ORGANIZATIONS_KEY + query
    finally:
        connection.close()
    return {}


def _from_demo(base_url: str, token: str, timeout: float) -> dict[str, bytes]:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "folio.sandbox.first_answer", base_url, token],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        return {}
    found = json.loads(done.stdout)
    if not isinstance(found, dict):
        return {}
    return {str(key): body.encode() for key, body in found.items() if isinstance(body, str)}
