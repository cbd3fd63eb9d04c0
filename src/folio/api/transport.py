"""What every request of the client shares: the timeouts, the bearer header (only towards the configured service),
how query values are written, and how an answer is validated into a model (a mismatch is a ``ResponseError``)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import httpx
from pydantic import TypeAdapter, ValidationError

from folio.api import errors
from folio.api.pagination import summarize_validation
from folio.api.retry import parse_wait
from folio.api.token import Token

__all__ = ["Timeouts", "error_for", "parse"]


class Timeouts:
    """Connect and read timeouts for each attempt, and an overall cap that holds even where the transport ignores
    httpx's own timeouts (the in-process sandbox)."""

    def __init__(self, connect: float = 10.0, read: float = 30.0, total: float = 60.0) -> None:
        self.connect = connect
        self.read = read
        self.total = total

    def httpx(self) -> httpx.Timeout:
        return httpx.Timeout(self.read, connect=self.connect, pool=self.connect)


class _BearerAuth(httpx.Auth):
    """Adds the bearer header, and only on requests to the configured service's scheme, host and port."""

    def __init__(self, token: Token | None, origin: tuple[str, str, int | None]) -> None:
        self._token = token
        self._origin = origin

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        url = request.url
        if self._token is not None and (url.scheme, url.host, url.port) == self._origin:
            request.headers["Authorization"] = "Bearer " + self._token.reveal()
        yield request


def _origin(base_url: str) -> tuple[str, str, int | None]:
    url = httpx.URL(base_url)
    return (url.scheme, url.host, url.port)


def _query_value(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


_adapters: dict[Any, TypeAdapter[Any]] = {}


def parse(model: Any, data: Any, *, method: str, path: str) -> Any:
    """Validate ``data`` as ``model``; a mismatch is a :class:`errors.ResponseError` naming where, not what."""
    adapter = _adapters.get(model)
    if adapter is None:
        adapter = _adapters[model] = TypeAdapter(model)
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        raise errors.ResponseError(
            "The service's answer did not have the expected shape: " + summarize_validation(exc),
            method=method,
            path=path,
        ) from None


def error_for(response: httpx.Response, method: str, path: str) -> errors.StatusError:
    """The error an answer with an error status stands for, with the service's own words and code."""
    message: str | None = None
    code: str | int | None = None
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict):
            message = err.get("message") if isinstance(err.get("message"), str) else None
            code = err.get("code") if isinstance(err.get("code"), (str, int)) else None
        elif isinstance(err, str):
            message = err
        elif isinstance(body.get("message"), str):
            message = body["message"]
    elif response.text and "json" not in response.headers.get("content-type", "") and len(response.text) < 300:
        message = response.text.strip() or None
    retry_after = parse_wait(response.headers) if response.status_code == 429 else None
    return errors.status_error(
        response.status_code, message, method=method, path=path, code=code, retry_after=retry_after
    )
