"""The list envelope and paging, as the service does it: ``limit`` up to 1000, opaque ``next.page`` cursors."""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from typing import Any

from starlette.requests import Request

from folio.sandbox.errors import bad_request

DEFAULT_LIMIT = 50
MAX_LIMIT = 1000


def _cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"o:{offset}".encode()).decode().rstrip("=")


def _offset(cursor: str) -> int:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        kind, _, value = raw.partition(":")
        if kind != "o":
            raise ValueError(raw)
        offset = int(value)
        if offset < 0:
            raise ValueError(raw)
        return offset
    except (ValueError, UnicodeDecodeError):
        raise bad_request(f"Invalid page cursor: {cursor[:40]}") from None


def page_params(request: Request) -> tuple[int, int]:
    """(offset, limit) from the query; 400 for a limit out of range or a cursor we did not issue."""
    raw_limit = request.query_params.get("limit")
    if raw_limit is None:
        limit = DEFAULT_LIMIT
    else:
        try:
            limit = int(float(raw_limit))
        except ValueError:
            raise bad_request("limit must be a number") from None
        if not 1 <= limit <= MAX_LIMIT:
            raise bad_request(f"limit must be between 1 and {MAX_LIMIT}")
    page = request.query_params.get("page")
    return (_offset(page) if page else 0), limit


def paginate(
    request: Request,
    items: Sequence[Any],
    render: Callable[[Any], Any] = lambda x: x,
    **extra: Any,
) -> dict[str, Any]:
    """One page of ``items`` (rendered lazily, only the page's) in the list envelope."""
    offset, limit = page_params(request)
    window = items[offset : offset + limit]
    body: dict[str, Any] = {"items": [render(item) for item in window], "count": len(items)}
    body.update(extra)
    if offset + limit < len(items):
        body["next"] = {"page": _cursor(offset + limit)}
    return body
