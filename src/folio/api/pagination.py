"""Lists: an async iterator over every item of every page, following ``next.page``, and a way to fetch one page."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import TypeAdapter, ValidationError

from folio.api.errors import InvalidRequest, ResponseError
from folio.api.limits import LIST_LIMIT_MAX
from folio.models.common import ListEnvelope, NextPage

if TYPE_CHECKING:
    from folio.api.client import GitBookClient

__all__ = ["Paginator"]

T = TypeVar("T")


@lru_cache(maxsize=256)
def _envelope_adapter(item_type: Any) -> TypeAdapter[Any]:
    return TypeAdapter(ListEnvelope[item_type])  # type: ignore[valid-type]


def parse_envelope(item_type: Any, data: Any, *, method: str, path: str) -> ListEnvelope[Any]:
    try:
        return _envelope_adapter(item_type).validate_python(data)  # type: ignore[no-any-return]
    except ValidationError as exc:
        raise ResponseError(
            "The service sent a list Folio could not read: " + summarize_validation(exc),
            method=method,
            path=path,
        ) from None


BIG_PAGE = 64 * 1024
"""Bytes from which a page is read with the garbage collector paused."""


@contextmanager
def _collector_paused(pause: bool) -> Iterator[None]:
    """Reading a page of 1,000 items makes tens of thousands of objects, none of them garbage; with the
    collector on, each read triggers several full passes over everything already loaded (a third of the time
    of paging 10,000 spaces). The read is one synchronous call: nothing else runs while the collector waits."""
    if not pause or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def parse_envelope_json(
    item_type: Any, raw: bytes, *, method: str, path: str, lenient: Any = None
) -> ListEnvelope[Any]:
    """:func:`parse_envelope` straight from the answer's bytes: one pass in pydantic's core, no Python dicts in
    between (the fastest way to read a page of 1,000 items with pydantic). ``lenient``, when given, is a slower item
    type that also reads shapes ``item_type`` does not (a wrapper the service may send); it is tried only when the
    fast one fails. An ``item_type`` that is a ``msgspec.Struct`` is decoded by msgspec (:func:`_parse_structs`)."""
    if is_struct(item_type):
        return _parse_structs(item_type, raw, method=method, path=path, lenient=lenient)
    try:
        with _collector_paused(len(raw) >= BIG_PAGE):
            try:
                return _envelope_adapter(item_type).validate_json(raw)  # type: ignore[no-any-return]
            except ValidationError:
                if lenient is None:
                    raise
                return _envelope_adapter(lenient).validate_json(raw)  # type: ignore[no-any-return]
    except ValidationError as exc:
        if any(err["type"] == "json_invalid" for err in exc.errors()[:1]):
            raise ResponseError("The service's answer was not valid JSON.", method=method, path=path) from None
        raise ResponseError(
            "The service sent a list Folio could not read: " + summarize_validation(exc),
            method=method,
            path=path,
        ) from None


# -- lists of msgspec Structs ----------------------------------------------------------------------------------
# msgspec is imported when the first such list is read, not with the client (the first frame does not need it).


def is_struct(item_type: Any) -> bool:
    """Whether ``item_type`` is a ``msgspec.Struct`` class (asked without importing msgspec)."""
    return isinstance(item_type, type) and hasattr(item_type, "__struct_fields__")


@lru_cache(maxsize=64)
def _struct_decoder(item_type: type) -> Any:
    """A ``msgspec.json.Decoder`` of a page of ``item_type``: ``items``, ``next.page`` and ``count``, the rest of the
    envelope skipped; strict (a value of another JSON type is refused, for the lenient reading to decide)."""
    import msgspec

    class Next(msgspec.Struct, gc=False):
        page: str

    page = msgspec.defstruct(
        f"{item_type.__name__}Page",
        [("items", list[item_type], []), ("next", Next | None, None), ("count", int | None, None)],  # type: ignore[valid-type]
    )
    return msgspec.json.Decoder(page)


def _parse_structs(item_type: type, raw: bytes, *, method: str, path: str, lenient: Any) -> ListEnvelope[Any]:
    """A page of Structs. What msgspec refuses is read again by pydantic as ``lenient`` (a pydantic model with the
    same field names, or a wrapper of one) and converted to ``item_type``, so a list reads every shape and value it
    read when its rows were pydantic models, and a page neither reads fails with the same words."""
    import msgspec

    try:
        with _collector_paused(len(raw) >= BIG_PAGE):
            page = _struct_decoder(item_type).decode(raw)
        refused: msgspec.ValidationError | None = None
    except msgspec.ValidationError as exc:
        refused = exc
    except msgspec.DecodeError:
        raise ResponseError("The service's answer was not valid JSON.", method=method, path=path) from None
    if refused is None:
        next_page = NextPage.model_construct(page=page.next.page) if page.next is not None else None
        return ListEnvelope.model_construct(next=next_page, count=page.count, items=page.items)
    if lenient is None:
        raise ResponseError(
            "The service sent a list Folio could not read: " + _struct_error_words(refused), method=method, path=path
        ) from None
    envelope = parse_envelope_json(lenient, raw, method=method, path=path)
    try:
        items = msgspec.convert(envelope.items, list[item_type], from_attributes=True)  # type: ignore[valid-type]
    except msgspec.ValidationError as exc:
        raise ResponseError(
            "The service sent a list Folio could not read: " + _struct_error_words(exc), method=method, path=path
        ) from None
    return envelope.model_copy(update={"items": items})


def _struct_error_words(exc: Exception) -> str:
    """msgspec's ``Expected `str`, got `null` - at `$.items[1].title``` as ``items.1.title: Expected `str`, got
    `null```: the place, then what was wrong, like :func:`summarize_validation`; never the value."""
    message, _, where = str(exc).partition(" - at `$")
    loc = where.rstrip("`").replace("[", ".").replace("]", "").lstrip(".")
    return f"{loc or '(body)'}: {message[:120]}"


def summarize_validation(exc: ValidationError, most: int = 3) -> str:
    """Where the shape was wrong, without echoing the (possibly huge, possibly hostile) values."""
    parts = []
    for err in exc.errors()[:most]:
        loc = ".".join(str(p) for p in err["loc"]) or "(body)"
        parts.append(f"{loc}: {err['msg']}")
    more = exc.error_count() - most
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


class Paginator(Generic[T]):
    """Every item of a paged list. ``async for item in paginator`` walks all pages; :meth:`fetch` gets one."""

    def __init__(
        self,
        client: GitBookClient,
        path: str,
        item_type: type[T] | Any,
        params: dict[str, Any] | None = None,
        *,
        limit: int | None = None,
        optional: str | None = None,
        probe: str | None = None,
        lenient: Any = None,
    ) -> None:
        if limit is not None and not 1 <= limit <= LIST_LIMIT_MAX:
            raise InvalidRequest("limit", f"{limit} is out of range", f"1..{LIST_LIMIT_MAX}", method="GET", path=path)
        self._client = client
        self.path = path
        self.item_type = item_type
        self.params = {k: v for k, v in (params or {}).items() if v is not None}
        self.limit = limit
        self._optional = optional
        self._probe = probe
        self._lenient = lenient

    async def fetch(self, page: str | None = None, *, limit: int | None = None) -> ListEnvelope[T]:
        """One page of results; ``page`` is the ``next.page`` of the page before (None for the first)."""
        params = dict(self.params)
        lim = limit if limit is not None else self.limit
        if lim is not None:
            if not 1 <= lim <= LIST_LIMIT_MAX:
                raise InvalidRequest(
                    "limit", f"{lim} is out of range", f"1..{LIST_LIMIT_MAX}", method="GET", path=self.path
                )
            params["limit"] = lim
        if page is not None:
            params["page"] = page
        response = await self._client.request(
            "GET", self.path, params=params, optional=self._optional, probe=self._probe
        )
        return parse_envelope_json(
            self.item_type, response.content, method="GET", path=self.path, lenient=self._lenient
        )

    async def pages(self) -> AsyncIterator[ListEnvelope[T]]:
        seen: set[str] = set()
        page: str | None = None
        while True:
            envelope = await self.fetch(page)
            yield envelope
            page = envelope.next_page
            if page is None:
                return
            if page in seen:
                raise ResponseError("The service's list paging went in a circle.", method="GET", path=self.path)
            seen.add(page)

    async def __aiter__(self) -> AsyncIterator[T]:
        async for envelope in self.pages():
            for item in envelope.items:
                yield item

    async def collect(self, most: int | None = None) -> list[T]:
        """All items (or the first ``most``) as a list."""
        out: list[T] = []
        async for item in self:
            out.append(item)
            if most is not None and len(out) >= most:
                break
        return out
