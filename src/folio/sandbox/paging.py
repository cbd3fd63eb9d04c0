"""The list envelope and paging, as the service does it: ``limit`` up to 1000, opaque ``next.page`` cursors.

:func:`page_body` is the envelope of one page, a pure function of the items and the window; :func:`paginate`
reads the window from a request. Starlette is imported only by :func:`page_params`, so a page can be rendered
without it (``folio.sandbox.first_answer``).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from folio.sandbox.errors import bad_request

if TYPE_CHECKING:
    from starlette.requests import Request

DEFAULT_LIMIT = 50
MAX_LIMIT = 1000


def _cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"o:{offset}".encode()).decode().rstrip("=")


def cursor_offset(cursor: str) -> int:
    """The offset a ``next.page`` cursor we issued stands for; 400 for one we did not issue."""
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
    """(offset, limit) from the query; 400 for a limit that is not an integer from 1 to 1000, or a cursor we did
    not issue."""
    from folio.sandbox.http import query_int

    limit = query_int(request, "limit", DEFAULT_LIMIT, min=1, max=MAX_LIMIT)
    page = request.query_params.get("page")
    return (cursor_offset(page) if page else 0), limit


def page_body(
    items: Sequence[Any],
    offset: int,
    limit: int,
    render: Callable[[Any], Any] = lambda x: x,
    **extra: Any,
) -> dict[str, Any]:
    """The page of ``items`` from ``offset`` (at most ``limit``; rendered lazily, only the page's) in the list
    envelope, with ``next.page`` when more follow."""
    window = items[offset : offset + limit]
    body: dict[str, Any] = {"items": [render(item) for item in window], "count": len(items)}
    body.update(extra)
    if offset + limit < len(items):
        body["next"] = {"page": _cursor(offset + limit)}
    return body


def paginate(
    request: Request,
    items: Sequence[Any],
    render: Callable[[Any], Any] = lambda x: x,
    **extra: Any,
) -> dict[str, Any]:
    """One page of ``items`` (rendered lazily, only the page's) in the list envelope, as the request asks."""
    offset, limit = page_params(request)
    return page_body(items, offset, limit, render, **extra)
