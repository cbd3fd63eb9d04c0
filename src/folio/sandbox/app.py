"""The sandbox: a Starlette app that emulates the GitBook API over in-memory state.

    app = create_app()                                  # the seeded demo organization
    app = create_app(scale=10_000)                      # a large organization for benchmarks
    app = create_app(faults=Faults(error_rate=0.2))     # a flaky service for tests
    app = create_app(offer_optional=False)              # a service without the operations the current public
                                                        # description lacks (conversations, space transfer...)

Every route lives in ``folio.sandbox.routes.<area>`` (handlers only; the rules they share are in
``folio.sandbox.domain``). Requests without a bearer token get 401; errors use the service's body
``{"error": {"code", "message"}}``; request limits are in :mod:`folio.sandbox.limits`.

Who calls: the bearer token names the user. While ``state.tokens`` is empty (the default) any token is the
demo's owner, ``state.default_user`` (Ada, an admin of the demo organization). To act as someone else, map
tokens to user ids: ``state.tokens = {token: user_id}``; any other token is then refused with 401. The seed's
people (:data:`folio.sandbox.seed.people.PEOPLE`) hold every role: Bruno (admin), Chen and Lena (create),
Dana and Hana (review), Emeka, Farah and Julia (edit), Gustavo (comment), Ivan (read) and Kofi (a guest)::

    ivan = next(u for u, rec in state.users.items() if rec["email"] == "ivan@northwind.dev")
    state.tokens = {TOKEN: ivan}        # requests with TOKEN are now Ivan's, a reader
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from folio.sandbox.errors import SandboxError
from folio.sandbox.faults import FaultMiddleware, Faults
from folio.sandbox.http import RouteSpec, SandboxRoute
from folio.sandbox.state import SandboxState

PREFIX = "/v1"


def all_routes(offer_optional: bool = True) -> list[RouteSpec]:
    """Every route of every area, paths as the spec writes them (without ``/v1``), in matching order."""
    # Imported here, not at the top: importing folio.sandbox (for SandboxState, Faults) loads no route.
    from folio.sandbox.routes import (
        agent_instructions,
        change_requests,
        collections,
        comments,
        content,
        conversations,
        invites,
        members,
        openapi,
        orgs,
        reviews,
        saml,
        search,
        site_sections,
        site_spaces,
        sites,
        spaces,
        teams,
        translations,
    )

    areas = (
        orgs,
        invites,
        agent_instructions,
        saml,
        search,
        members,
        teams,
        spaces,
        collections,
        content,
        change_requests,
        reviews,
        comments,
        sites,
        site_sections,
        site_spaces,
        openapi,
        conversations,
        translations,
    )
    return [r for area in areas for r in area.routes if offer_optional or not r.optional]


def _error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": status, "message": message}}, status_code=status, headers=headers)


async def _sandbox_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, SandboxError)
    return _error(exc.status, exc.message)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        return _error(404, f"No route matches {request.method} {request.url.path}")
    if exc.status_code == 405:
        return _error(405, f"Method {request.method} is not allowed on {request.url.path}", exc.headers)
    return _error(exc.status_code, str(exc.detail))


async def api_info(request: Request) -> Response:
    return JSONResponse({"version": "sandbox", "build": "folio"})


class AuthMiddleware:
    """401 without a valid bearer token; records which routes answered (for the test suite's coverage check)."""

    def __init__(self, app: ASGIApp, state: SandboxState) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        auth = headers.get(b"authorization", b"").decode("latin-1")
        scheme, _, token = auth.partition(" ")
        user = self.state.user_for_token(token.strip()) if scheme.lower() == "bearer" and token.strip() else None
        if user is None:
            message = "Authentication required" if not auth else "The access token is invalid or expired"
            await _error(401, message, {"WWW-Authenticate": "Bearer"})(scope, receive, send)
            return
        scope["folio.user"] = user
        await self.app(scope, receive, send)
        matched = scope.get("route")
        if isinstance(matched, SandboxRoute):
            self.state.hits.add((scope["method"], matched.path.removeprefix(PREFIX)))


class SandboxApp(Starlette):
    """The Starlette app, with fault injection placed outermost so a dropped connection reaches the server."""

    def build_middleware_stack(self) -> ASGIApp:
        stack = super().build_middleware_stack()
        faults: Faults | None = getattr(self.state, "faults", None)
        return FaultMiddleware(stack, faults) if faults is not None else stack


def create_app(
    state: SandboxState | None = None,
    *,
    seed: int = 7,
    scale: int = 0,
    faults: Faults | None = None,
    offer_optional: bool = True,
) -> SandboxApp:
    if state is None:
        from folio.sandbox.seed import populate

        state = SandboxState(seed=seed)
        populate(state, scale=scale)
    routes: list[Any] = [SandboxRoute(PREFIX + "/", api_info, methods=["GET"])]
    for r in all_routes(offer_optional):
        routes.append(SandboxRoute(PREFIX + r.path, r.endpoint, methods=sorted(r.methods), optional=r.optional))
    app = SandboxApp(
        routes=routes,
        middleware=[Middleware(AuthMiddleware, state=state)],
        exception_handlers={SandboxError: _sandbox_error, HTTPException: _http_error},
    )
    app.state.sandbox = state
    app.state.faults = faults
    return app
