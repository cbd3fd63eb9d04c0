"""What every resource class shares: building paths safely and the typed request helpers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote

from folio.api.errors import InvalidRequest
from folio.api.pagination import Paginator

if TYPE_CHECKING:
    from folio.api.client import GitBookClient

__all__ = ["UNSET", "Resource", "body", "path"]

T = TypeVar("T")


def path(template: str, *ids: str | int) -> str:
    """Fill ``{}`` slots of a path template with ids, each quoted so an id can never change the path.

    ``path("/spaces/{}/comments/{}", space_id, comment_id)``
    """
    quoted = []
    for value in ids:
        text = str(value)
        if not text or text in (".", ".."):
            raise InvalidRequest("id", f"{text!r} is not a usable identifier", "a non-empty id")
        quoted.append(quote(text, safe=""))
    return template.format(*quoted)


def body(**fields: Any) -> dict[str, Any]:
    """A request body with the fields that were given (``UNSET`` left out; ``None`` kept: it clears a value)."""
    return {k: v for k, v in fields.items() if v is not UNSET}


class _Unset:
    """Marks an argument that was not given, where None has a meaning of its own (null removes a value)."""

    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET: Any = _Unset()


class Resource:
    """One area of the API; reached as a property of :class:`GitBookClient` (``client.spaces``)."""

    def __init__(self, client: GitBookClient) -> None:
        self._client = client

    async def _get(self, model: type[T] | Any, url: str, params: dict[str, Any] | None = None, **kw: Any) -> T:
        return await self._client.request_model(model, "GET", url, params=params, **kw)  # type: ignore[no-any-return]

    async def _send(
        self,
        model: type[T] | Any,
        method: str,
        url: str,
        json: Any = None,
        *,
        idempotent: bool | None = None,
        params: dict[str, Any] | None = None,
        **kw: Any,
    ) -> T:
        return await self._client.request_model(  # type: ignore[no-any-return]
            model, method, url, json=json, idempotent=idempotent, params=params, **kw
        )

    async def _send_empty(
        self,
        method: str,
        url: str,
        json: Any = None,
        *,
        idempotent: bool | None = None,
        params: dict[str, Any] | None = None,
        **kw: Any,
    ) -> None:
        """An operation whose success has no body (204/205), or whose body the product does not use."""
        await self._client.request(method, url, json=json, idempotent=idempotent, params=params, **kw)

    def _list(
        self,
        item_type: type[T] | Any,
        url: str,
        params: dict[str, Any] | None = None,
        *,
        limit: int | None = None,
        **kw: Any,
    ) -> Paginator[T]:
        return Paginator(self._client, url, item_type, params, limit=limit, **kw)
