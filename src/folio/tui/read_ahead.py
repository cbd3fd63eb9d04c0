"""Pages read one ahead: the next page's request overlaps the work on the page given.

    async for page in ahead(browse.spaces_pages(org_id)):
        ...  # build the page's rows: the next page is on its way meanwhile

The organization screen reads its spaces so (10,000 spaces in ten requests, each page's rows built meanwhile).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import TypeVar, cast

__all__ = ["ahead"]

T = TypeVar("T")

_END = object()


async def ahead(pages: AsyncIterator[T]) -> AsyncIterator[T]:
    """``pages``, the next one asked for as soon as one is given: its request and the service's time overlap the
    work on the one given (its rows, the tree, the frame). One page at most is read ahead."""
    read = aiter(pages)

    async def step() -> object:
        try:
            return await anext(read)
        except StopAsyncIteration:
            return _END

    coming = asyncio.create_task(step())  # (a copy of the context: a cache-only read stays one)
    try:
        while (page := await coming) is not _END:
            coming = asyncio.create_task(step())
            yield cast("T", page)
    finally:
        coming.cancel()  # (the reader stopped early: the page coming is not wanted)
