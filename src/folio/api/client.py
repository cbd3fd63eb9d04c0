"""The async client for the GitBook API: one ``httpx.AsyncClient``, resources hung on it as cached properties.

    client = GitBookClient(token=Token("..."))            # the real service
    client = GitBookClient(token=..., transport=t)          # any httpx transport: the sandbox, a test double
    space = await client.spaces.get("space-id")
    async for cr in client.change_requests.list("space-id", status="open"): ...

Every request goes through :meth:`GitBookClient.request`, which applies the timeouts, the parallel-read cap, the
retry policy of the operation, and turns every failure into an error of :mod:`folio.api.errors`.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

import httpx

from folio import __version__
from folio.api import errors
from folio.api.caching import ResponseStore, cache_key, is_cached_only, record_stored
from folio.api.retry import NOT_SENT, RETRYABLE_STATUS_FOR_READS, RetryPolicy, parse_wait
from folio.api.token import Token
from folio.api.transport import Timeouts, _BearerAuth, _origin, _query_value, error_for, parse

if TYPE_CHECKING:
    from folio.api.resources.agent_instructions import AgentInstructionsResource
    from folio.api.resources.change_requests import ChangeRequestsResource
    from folio.api.resources.collections import CollectionsResource
    from folio.api.resources.comments import CommentsResource
    from folio.api.resources.content import ContentResource
    from folio.api.resources.conversations import ConversationsResource
    from folio.api.resources.members import MembersResource
    from folio.api.resources.openapi import OpenAPIResource
    from folio.api.resources.organizations import OrganizationsResource
    from folio.api.resources.reviews import ReviewsResource
    from folio.api.resources.saml import SamlResource
    from folio.api.resources.site_sections import SiteSectionsResource
    from folio.api.resources.site_spaces import SiteSpacesResource
    from folio.api.resources.sites import SitesResource
    from folio.api.resources.spaces import SpacesResource
    from folio.api.resources.teams import TeamsResource
    from folio.api.resources.translations import TranslationsResource
    from folio.api.resources.users import UsersResource

__all__ = ["DEFAULT_BASE_URL", "GitBookClient", "Timeouts"]

log = logging.getLogger("folio.api")

DEFAULT_BASE_URL = "https://api.gitbook.com"
LOW_RATE_LIMIT = 10
"""Requests left under which refreshing by itself stops until the rate limit resets (asked reads still go)."""
M = TypeVar("M")


class GitBookClient:
    """Async client for the whole API (spec section 4 and the extra operations review needs)."""

    def __init__(
        self,
        *,
        token: Token | str | None,
        base_url: str = DEFAULT_BASE_URL,
        transport: httpx.AsyncBaseTransport | None = None,
        timeouts: Timeouts | None = None,
        retry: RetryPolicy | None = None,
        max_parallel: int = 6,
    ) -> None:
        if isinstance(token, str):
            token = Token(token)
        self.token = token
        base_url = base_url.rstrip("/")
        if base_url.endswith("/v1"):
            base_url = base_url[:-3]
        self.base_url = base_url
        self.timeouts = timeouts or Timeouts()
        self.retry = retry or RetryPolicy()
        self._limiter = asyncio.Semaphore(max_parallel)
        self._not_offered: set[str] = set()
        self.store: ResponseStore | None = None
        """The local response cache (set by the services layer); None: every read goes to the service."""
        self.offline_reason: str | None = None
        """Why reads come from the cache only: ``"asked"`` (``--offline``), ``"network"`` (the service could not
        be reached and a cached answer was used), or None (online)."""
        self.on_offline_change: Callable[[str | None], None] | None = None
        self.quiet_until = 0.0
        """Until when (``time.time()``) refreshing by itself must wait: the service said its rate limit is spent
        (a 429, or ``X-RateLimit-Remaining`` near 0 with a reset time)."""
        self._http = httpx.AsyncClient(
            base_url=base_url + "/v1",
            transport=transport,
            auth=_BearerAuth(token, _origin(base_url)),
            timeout=self.timeouts.httpx(),
            headers={"User-Agent": f"folio-tui/{__version__}", "Accept": "application/json"},
            follow_redirects=False,
        )

    # -- lifecycle --------------------------------------------------------------------------------------------

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> GitBookClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"GitBookClient(base_url={self.base_url!r}, token={self.token!r})"

    @property
    def host(self) -> str:
        return urlsplit(self.base_url).netloc

    # -- the one request path ----------------------------------------------------------------------------------

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json: Any = None,
        idempotent: bool | None = None,
        optional: str | None = None,
        probe: str | None = None,
        changes: bool = True,
    ) -> httpx.Response:
        """Send a request and return the successful response, or raise an :class:`errors.ApiError`.

        ``changes=False`` says a write changes nothing that is read (a ping): the cache keeps what it has.

        ``idempotent`` (default: True for GET and DELETE, False otherwise) says whether the operation may be sent
        again after it may have reached the service. ``optional`` names an operation that some services do not
        offer: a 404 or 405 for it, when ``probe`` (a GET of its parent) succeeds, raises
        :class:`errors.NotOffered` and later calls fail at once.
        """
        method = method.upper()
        if idempotent is None:
            idempotent = method in ("GET", "HEAD", "DELETE")
        if optional and optional in self._not_offered:
            raise errors.NotOffered(method=method, path=path, status=404)
        if params:
            params = {k: _query_value(v) for k, v in params.items() if v is not None}
        key = cache_key(path, params) if method == "GET" else None
        if is_cached_only() or self.offline_reason:
            if key is None:
                raise errors.Offline(method=method, path=path)
            cached = self._cached_response(key, method, path)
            if cached is not None:
                # A cached answer needs no wait, so a load of many cached pages would run to its end before the
                # screen could paint its first page: let the event loop draw between answers.
                await asyncio.sleep(0)
                return cached
            if self.offline_reason:
                raise errors.Offline("Folio is offline and this was not seen before.", method=method, path=path)
            raise errors.NotCached(method=method, path=path)
        try:
            response = await self._request_live(method, path, params, json, idempotent, optional, probe)
        except errors.TransportError:
            cached = self._cached_response(key, method, path) if key is not None else None
            if cached is None:
                raise
            self.set_offline("network")
            return cached
        if self.store is not None:
            if key is not None:
                if response.status_code == 200 and response.content:
                    self.store.put(key, response.content)
            elif changes:
                self.store.invalidate(path)
        return response

    def set_offline(self, reason: str | None) -> None:
        """Go offline (``"asked"``, ``"network"``) or back online (None), telling ``on_offline_change``."""
        if reason == self.offline_reason:
            return
        self.offline_reason = reason
        log.info("offline: %s", reason or "no (back online)")
        if self.on_offline_change is not None:
            self.on_offline_change(reason)

    async def probe_online(self) -> bool:
        """Ask the service for the signed-in user, past the offline switch: True (and online again) when it
        answers at all, even with an error status."""
        try:
            await self._send_once("GET", "/user", params=None, json=None)
        except errors.TransportError:
            return False
        if self.offline_reason == "network":
            self.set_offline(None)
        return True

    def may_refresh(self) -> bool:
        """Whether a refresh nobody asked for may go out now (online, and the rate limit not spent)."""
        return self.offline_reason is None and time.time() >= self.quiet_until

    def _note_rate_limit(self, response: httpx.Response) -> None:
        remaining = response.headers.get("x-ratelimit-remaining")
        if remaining is None:
            return
        try:
            left = float(remaining)
        except ValueError:
            return
        if left <= LOW_RATE_LIMIT:
            wait = parse_wait(httpx.Headers({"x-ratelimit-reset": response.headers.get("x-ratelimit-reset", "")}))
            self.quiet_until = max(self.quiet_until, time.time() + (wait if wait is not None else 60.0))

    def _cached_response(self, key: str | None, method: str, path: str) -> httpx.Response | None:
        if key is None or self.store is None:
            return None
        hit = self.store.get(key)
        if hit is None:
            return None
        record_stored(hit.stored_at)
        request = httpx.Request(method, f"{self.base_url}/v1{path}")
        return httpx.Response(200, content=hit.body, headers={"content-type": "application/json"}, request=request)

    async def _request_live(
        self,
        method: str,
        path: str,
        params: dict[str, Any] | None,
        json: Any,
        idempotent: bool,
        optional: str | None,
        probe: str | None,
    ) -> httpx.Response:
        attempt = 0
        limited: list[float] = []  # the waits for 429s that gave no time: backed off in seconds, then said
        while True:
            attempt += 1
            try:
                response = await self._send_once(method, path, params=params, json=json)
            except errors.TransportError as exc:
                safe = idempotent or not exc.may_have_reached
                if not safe or attempt >= self.retry.attempts:
                    raise
                await self.retry.sleep(self.retry.backoff(attempt))
                continue
            if response.is_success:
                self._note_rate_limit(response)
                return response
            error = error_for(response, method, path)
            if isinstance(error, errors.RateLimited):
                asked = error.retry_after is not None
                wait = error.retry_after if error.retry_after is not None else self.retry.rate_limit_backoff(attempt)
                self.quiet_until = max(self.quiet_until, time.time() + wait)
                if attempt >= self.retry.attempts or wait > self.retry.max_rate_limit_wait:
                    if limited:
                        error.gave_up_after(tuple(limited))
                    raise error
                if not asked:
                    limited.append(wait)
                log.info(
                    "rate limited on %s %s: waiting %.1fs%s", method, path, wait, "" if asked else " (backing off)"
                )
                await self.retry.sleep(wait)
                continue
            if idempotent and response.status_code in RETRYABLE_STATUS_FOR_READS and attempt < self.retry.attempts:
                await self.retry.sleep(self.retry.backoff(attempt))
                continue
            if (
                optional
                and response.status_code in (404, 405, 501)
                and (response.status_code != 404 or await self._probe_ok(probe))
            ):
                self._not_offered.add(optional)
                raise errors.NotOffered(method=method, path=path, status=response.status_code)
            raise error

    async def _send_once(self, method: str, path: str, *, params: dict[str, Any] | None, json: Any) -> httpx.Response:
        """Send in a task of an empty context. The timeouts (``asyncio.timeout`` here, anyio's in httpcore) leave
        a cancelled timer in the loop's heap until their deadline, and a timer keeps the context it was made in:
        the caller's would keep whatever it holds (a screen's worker, and through it the screen) alive for up to
        the total timeout after the answer came. Cancelling the caller cancels the task; its errors are raised here.
        Nothing below reads a context variable (the cache-first ones are read by :meth:`request`, before)."""
        send = self._send(method, path, params=params, json=json)
        return await asyncio.create_task(send, context=contextvars.Context())

    async def _send(self, method: str, path: str, *, params: dict[str, Any] | None, json: Any) -> httpx.Response:
        started = time.perf_counter()
        try:
            async with self._limiter, asyncio.timeout(self.timeouts.total):
                response = await self._http.request(method, path, params=params, json=json)
                await response.aread()
        # The httpx/httpcore frames below hold the request's headers in their locals: raise without chaining
        # them, so no traceback (even one printed with its locals) can show the token.
        except (TimeoutError, httpx.TimeoutException) as exc:
            log.warning("%s %s timed out", method, path)
            timeout = errors.RequestTimeout(method=method, path=path)
            timeout.may_have_reached = not isinstance(exc, NOT_SENT)
            raise timeout from None
        except httpx.TransportError as exc:
            log.warning("%s %s failed: %s", method, path, type(exc).__name__)
            not_sent = isinstance(exc, NOT_SENT)
            message = "Could not reach the service" if not_sent else "The connection was lost"
            failure = errors.TransportError(f"{message} ({type(exc).__name__}).", method=method, path=path)
            failure.may_have_reached = not not_sent
            raise failure from None
        log.debug("%s %s -> %s in %.0f ms", method, path, response.status_code, (time.perf_counter() - started) * 1000)
        return response

    async def _probe_ok(self, probe: str | None) -> bool:
        if probe is None:
            return False
        try:
            await self.request("GET", probe)
        except errors.ApiError:
            return False
        return True

    # -- JSON and models -----------------------------------------------------------------------------------------

    async def request_json(self, method: str, path: str, **kw: Any) -> Any:
        """The decoded JSON body, or None for an empty one (204, 205)."""
        response = await self.request(method, path, **kw)
        if response.status_code in (204, 205) or not response.content:
            return None
        try:
            return response.json()
        except ValueError:
            raise errors.ResponseError(
                "The service's answer was not valid JSON.", method=method, path=path, status=response.status_code
            ) from None

    async def request_model(self, model: type[M] | Any, method: str, path: str, **kw: Any) -> M:
        data = await self.request_json(method, path, **kw)
        return parse(model, data, method=method, path=path)  # type: ignore[no-any-return]

    # -- resources -----------------------------------------------------------------------------------------------

    @cached_property
    def organizations(self) -> OrganizationsResource:
        from folio.api.resources.organizations import OrganizationsResource

        return OrganizationsResource(self)

    @cached_property
    def users(self) -> UsersResource:
        from folio.api.resources.users import UsersResource

        return UsersResource(self)

    @cached_property
    def members(self) -> MembersResource:
        from folio.api.resources.members import MembersResource

        return MembersResource(self)

    @cached_property
    def teams(self) -> TeamsResource:
        from folio.api.resources.teams import TeamsResource

        return TeamsResource(self)

    @cached_property
    def saml(self) -> SamlResource:
        from folio.api.resources.saml import SamlResource

        return SamlResource(self)

    @cached_property
    def collections(self) -> CollectionsResource:
        from folio.api.resources.collections import CollectionsResource

        return CollectionsResource(self)

    @cached_property
    def spaces(self) -> SpacesResource:
        from folio.api.resources.spaces import SpacesResource

        return SpacesResource(self)

    @cached_property
    def content(self) -> ContentResource:
        from folio.api.resources.content import ContentResource

        return ContentResource(self)

    @cached_property
    def change_requests(self) -> ChangeRequestsResource:
        from folio.api.resources.change_requests import ChangeRequestsResource

        return ChangeRequestsResource(self)

    @cached_property
    def reviews(self) -> ReviewsResource:
        from folio.api.resources.reviews import ReviewsResource

        return ReviewsResource(self)

    @cached_property
    def comments(self) -> CommentsResource:
        from folio.api.resources.comments import CommentsResource

        return CommentsResource(self)

    @cached_property
    def sites(self) -> SitesResource:
        from folio.api.resources.sites import SitesResource

        return SitesResource(self)

    @cached_property
    def site_sections(self) -> SiteSectionsResource:
        from folio.api.resources.site_sections import SiteSectionsResource

        return SiteSectionsResource(self)

    @cached_property
    def site_spaces(self) -> SiteSpacesResource:
        from folio.api.resources.site_spaces import SiteSpacesResource

        return SiteSpacesResource(self)

    @cached_property
    def openapi(self) -> OpenAPIResource:
        from folio.api.resources.openapi import OpenAPIResource

        return OpenAPIResource(self)

    @cached_property
    def conversations(self) -> ConversationsResource:
        from folio.api.resources.conversations import ConversationsResource

        return ConversationsResource(self)

    @cached_property
    def translations(self) -> TranslationsResource:
        from folio.api.resources.translations import TranslationsResource

        return TranslationsResource(self)

    @cached_property
    def agent_instructions(self) -> AgentInstructionsResource:
        from folio.api.resources.agent_instructions import AgentInstructionsResource

        return AgentInstructionsResource(self)
