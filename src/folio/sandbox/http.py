"""Small helpers every route module uses: reading the request, answering in the service's forms."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, compile_path

from folio.sandbox.errors import SandboxError, bad_request, not_found, payload_too_large
from folio.sandbox.limits import MAX_BODY_BYTES, MAX_INT_DIGITS, MAX_JSON_DEPTH
from folio.sandbox.state import Record, SandboxState

Handler = Callable[[Request], Awaitable[Response]]
_DIGITS = re.compile(r"[0-9]+")


class SandboxRoute(Route):
    """A route that knows whether the current public description of the service offers it.

    ``optional=True`` marks operations of the spec that the current public description lacks; a sandbox built
    with ``offer_optional=False`` leaves them out, as such a service would.
    """

    def __init__(self, path: str, endpoint: Handler, *, methods: list[str], optional: bool = False) -> None:
        # Starlette compiles the path pattern here (~0.25 ms each, ~160 routes); the sandbox compiles a route's
        # pattern the first time a request is matched against it, so ``folio --demo`` does not pay for all of
        # them before its first frame. "/" compiles once (re caches it); the real path replaces it below.
        super().__init__("/", endpoint, methods=methods)
        self.path = path
        del self.path_regex, self.path_format, self.param_convertors
        self.optional = optional

    def __getattr__(self, name: str) -> Any:
        """Compile the path on first use of ``path_regex``, ``path_format`` or ``param_convertors``."""
        if name in {"path_regex", "path_format", "param_convertors"}:
            self.path_regex, self.path_format, self.param_convertors = compile_path(self.path)
            return getattr(self, name)
        raise AttributeError(name)


@dataclass(frozen=True, slots=True)
class RouteSpec:
    """A route as a route module declares it (path without ``/v1``). ``create_app`` turns each into a
    :class:`SandboxRoute` once; declaring them does not compile their path patterns (Starlette does that in
    ``Route.__init__``, ~0.25 ms a path, which an in-process ``folio --demo`` pays before its first frame)."""

    path: str
    endpoint: Handler
    methods: frozenset[str]
    optional: bool = False


def route(method: str, path: str, *, optional: bool = False) -> Callable[[Handler], RouteSpec]:
    """Decorator form: ``@route("GET", "/spaces/{spaceId}")`` above a handler, collected in a module list."""

    def wrap(handler: Handler) -> RouteSpec:
        return RouteSpec(path, handler, frozenset({method}), optional)

    return wrap


def state_of(request: Request) -> SandboxState:
    return request.app.state.sandbox  # type: ignore[no-any-return]


def current_user(request: Request) -> str:
    """The id of the user the bearer token belongs to (set by the auth middleware)."""
    return request.scope["folio.user"]  # type: ignore[no-any-return]


async def read_body(request: Request, max_bytes: int = MAX_BODY_BYTES) -> bytes:
    """The request's bytes, at most ``max_bytes`` of them (413 past that: before reading when
    ``Content-Length`` says so). Read once; later calls get the same bytes."""
    cached = request.scope.get("folio.body")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    declared = request.headers.get("content-length")
    if declared is not None:
        if not _DIGITS.fullmatch(declared):
            raise bad_request("Content-Length must be a number of bytes")
        if int(declared) > max_bytes:
            raise _too_large(max_bytes)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_bytes:
            raise _too_large(max_bytes)
        chunks.append(chunk)
    raw = b"".join(chunks)
    request.scope["folio.body"] = raw
    return raw


def _too_large(max_bytes: int) -> SandboxError:
    return payload_too_large(f"The request body is too large: at most {max_bytes} bytes")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _depth(data: Any) -> int:
    """How deeply arrays and objects nest in ``data`` (iteratively: never recursion)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_JSON_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def parse_json(raw: bytes | str) -> Any:
    """JSON text as Python values; ValueError (with a message a person can read) for text that is not JSON,
    holds ``NaN`` or ``Infinity``, or nests deeper than ``MAX_JSON_DEPTH``."""
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        data, deepest = None, MAX_JSON_DEPTH + 1
    except ValueError as exc:
        raise ValueError(f"not valid JSON ({exc})") from None
    else:
        deepest = _depth(data)
    if deepest > MAX_JSON_DEPTH:
        raise ValueError(f"arrays and objects nest more than {MAX_JSON_DEPTH} levels deep")
    return data


def is_json_type(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` names JSON: ``application/json`` or ``application/<x>+json``, any parameters
    (``charset=utf-8``) aside."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


async def json_body(request: Request, *, required: bool = True, max_bytes: int = MAX_BODY_BYTES) -> dict[str, Any]:
    """The request's JSON object (see :mod:`folio.sandbox.limits` for the caps): 400 for a missing body where
    the operation requires one (``required``: as the public description says) and for a body that is not a JSON
    object or nests too deeply, 413 for one over ``max_bytes``, 415 for a body not sent as JSON."""
    raw = await read_body(request, max_bytes)
    if not raw:
        if required:
            raise bad_request("A JSON request body is required")
        return {}
    content_type = request.headers.get("content-type")
    if not is_json_type(content_type):
        sent = f"not {content_type.split(';', 1)[0].strip()!r}" if content_type else "it had none"
        raise SandboxError(415, f"The request body must be sent as Content-Type: application/json ({sent})")
    try:
        data = parse_json(raw)
    except ValueError as exc:
        raise bad_request(f"The request body is {exc}") from None
    if not isinstance(data, dict):
        raise bad_request("The request body must be a JSON object")
    return data


def ok(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status)


def created(data: Any) -> JSONResponse:
    return JSONResponse(data, status_code=201)


def empty(status: int = 204) -> Response:
    return Response(status_code=status)


def deleted(existed: bool) -> Response:
    """The service's delete answers: 205 when something was deleted, 204 when it did not exist."""
    return Response(status_code=205 if existed else 204)


def query_int(request: Request, name: str, default: int, *, min: int, max: int) -> int:
    """An integer query parameter, written as a plain integer (digits only: not ``1e3``, ``10.0`` or ``+5``),
    between ``min`` and ``max``; 400 naming it otherwise."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not _DIGITS.fullmatch(raw) or len(raw) > MAX_INT_DIGITS:
        raise bad_request(f"{name} must be an integer between {min} and {max}")
    value = int(raw)
    if not min <= value <= max:
        raise bad_request(f"{name} must be between {min} and {max}")
    return value


def query_bool(request: Request, name: str, default: bool | None = None) -> bool | None:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if raw.lower() in ("true", "1", "yes"):
        return True
    if raw.lower() in ("false", "0", "no"):
        return False
    raise bad_request(f"{name} must be true or false")


def query_choice(request: Request, name: str, allowed: tuple[str, ...], default: str | None = None) -> str | None:
    """A query parameter that takes one of ``allowed`` (``default`` when absent); 400 naming it otherwise."""
    value = request.query_params.get(name, default)
    if value is not None and value not in allowed:
        raise bad_request(f"{name} must be one of {', '.join(allowed)}")
    return value


def require(store: dict[str, Record], key: str, what: str) -> Record:
    record = store.get(key)
    if record is None:
        raise not_found(f"No matching {what} found for {key!r}")
    return record


def field_str(
    body: dict[str, Any],
    name: str,
    *,
    required: bool = False,
    min: int = 0,
    max: int | None = None,
    nullable: bool = False,
) -> Any:
    """A string field of a request body checked against the spec's limits (400 with the field named)."""
    if name not in body:
        if required:
            raise bad_request(f"{name} is required")
        return None
    value = body[name]
    if value is None:
        if nullable:
            return None
        raise bad_request(f"{name} must not be null")
    if not isinstance(value, str):
        raise bad_request(f"{name} must be a string")
    if len(value) < min:
        raise bad_request(f"{name} must be at least {min} characters")
    if max is not None and len(value) > max:
        raise bad_request(f"{name} must be at most {max} characters")
    return value


def field_uri(value: Any, name: str, *, max: int = 2048, web: bool = True) -> str:
    """A uri of a request body: absolute, at most ``max`` characters, http(s) when ``web`` (400 otherwise)."""
    if not isinstance(value, str) or len(value) > max:
        raise bad_request(f"{name} must be a uri of at most {max} characters")
    parts = urlsplit(value)
    if not parts.scheme or not parts.netloc or (web and parts.scheme not in ("http", "https")):
        raise bad_request(f"{name} must be an absolute {'http(s) ' if web else ''}uri")
    return value
