"""Decoding pages of a list from their bytes, three ways (issue 15), for ``bench_paging``'s decode table: the
spaces of an organization, and its change requests (the inbox).

    json.loads only             the page parsed into dicts, nothing checked: the floor of any Python reading
    pydantic (before)           ``TypeAdapter(ListEnvelope[...]).validate_json`` with the pydantic row model Folio
                                used before: for spaces the row model of before (a copy is kept here:
                                :class:`PydanticSpaceSummary`), for the inbox the full :class:`ChangeRequest`
    msgspec Struct (Folio)      what the client does now: ``parse_envelope_json(SpaceSummary, ...)`` or
                                ``parse_envelope_json(ChangeRequestSummary, ...)``, a msgspec decoder of the Struct
                                row, pydantic only for a page it refuses

No HTTP and no server: the bytes are the sandbox's recorded pages. Each side reads every page of a size, keeps the
rows (as a list keeps them) and pauses the collector while a big page is read, as the client does. The retained
size per row is measured apart, once per side, with tracemalloc (the rows kept, everything else freed).

The change requests' table runs alone (``bench_paging`` records spaces only)::

    python -m tests.bench.decode_pages [--quick] [--out FILE]

It serves ``folio sandbox serve --scale 10000`` (its largest organization has 5,007 open change requests), records
the inbox's pages of 100 and of 1,000 and decodes a page of 100, a page of 1,000 and the 5,007 (six pages).
"""

from __future__ import annotations

import gc
import json
import sys
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from pydantic import ConfigDict, TypeAdapter

from folio.api.pagination import BIG_PAGE, parse_envelope_json
from folio.models._base import Count, Model, Timestamp
from folio.models.change_request import ChangeRequest, ChangeRequestRowModel, ChangeRequestSummary
from folio.models.common import ListEnvelope, Urls
from folio.models.space import OrgSpaceSummary, SpaceSummary, Visibility
from tests.bench.common import (
    BENCH_TOKEN,
    Report,
    Table,
    interleave,
    largest_org,
    median,
    ratio,
    sandbox_server,
    standalone,
    summarize,
)

__all__ = [
    "CHANGE_REQUESTS",
    "JSON_LOADS",
    "MSGSPEC",
    "PYDANTIC",
    "SPACES",
    "List",
    "PydanticSpaceSummary",
    "decode_table",
    "record_pages",
]

JSON_LOADS, PYDANTIC, MSGSPEC = "json.loads only", "pydantic SpaceSummary (before)", "msgspec Struct (Folio now)"


class PydanticSpaceSummary(Model):
    """Folio's list row before issue 15, field for field (``folio.models.space.SpaceSummary`` was this)."""

    model_config = ConfigDict(extra="ignore")

    object: str = "space"
    id: str
    title: str = ""
    emoji: str | None = None
    visibility: Visibility = "private"
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    deleted_at: Timestamp | None = None
    urls: Urls | None = None
    organization: str | None = None
    parent: str | None = None
    change_requests_open: Count = 0


@contextmanager
def _paused(raw: bytes) -> Iterator[None]:
    """The client's rule (folio.api.pagination): the collector off while a page of 64 KB or more is read."""
    if len(raw) < BIG_PAGE or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@dataclass(frozen=True)
class List:
    """A list whose pages are decoded: what it is called, its row of before (pydantic) and of now (a Struct, with
    the lenient type its list reads a refused page with), and where its pages are asked for."""

    noun: str
    before: Any
    before_side: str
    struct: type
    lenient: Any
    path: str


SPACES = List("spaces", PydanticSpaceSummary, PYDANTIC, SpaceSummary, OrgSpaceSummary, "/orgs/{}/spaces")
CHANGE_REQUESTS = List(
    "change requests",
    ChangeRequest,
    "pydantic ChangeRequest (before)",
    ChangeRequestSummary,
    ChangeRequestRowModel,
    "/orgs/{}/change-requests",
)


def readers(kind: List = SPACES) -> dict[str, Callable[[bytes], list[Any]]]:
    """Each side's reading of one page: its rows."""
    adapter: TypeAdapter[ListEnvelope[Any]] = TypeAdapter(ListEnvelope[kind.before])  # type: ignore[name-defined]
    path = kind.path.format("bench")

    def json_loads(raw: bytes) -> list[Any]:
        with _paused(raw):
            return list(json.loads(raw)["items"])

    def pydantic(raw: bytes) -> list[Any]:
        with _paused(raw):
            return list(adapter.validate_json(raw).items)

    def structs(raw: bytes) -> list[Any]:
        return list(parse_envelope_json(kind.struct, raw, method="GET", path=path, lenient=kind.lenient).items)

    return {JSON_LOADS: json_loads, kind.before_side: pydantic, MSGSPEC: structs}


def _side(read: Callable[[bytes], list[Any]], pages: list[bytes], items: int) -> Callable[[], None]:
    def side() -> None:
        rows: list[Any] = []
        for raw in pages:
            rows.extend(read(raw))
        if len(rows) != items:
            raise RuntimeError(f"read {len(rows)} rows, expected {items}")

    return side


def retained_bytes(read: Callable[[bytes], list[Any]], pages: list[bytes]) -> tuple[int, int]:
    """(bytes still allocated while the rows are kept, rows): what a list of these rows costs to hold."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        rows: list[Any] = []
        for raw in pages:
            rows.extend(read(raw))
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return held, len(rows)


def decode_table(sizes: dict[int, list[bytes]], rounds: int, kind: List = SPACES) -> tuple[Table, dict[str, Any]]:
    """The three sides at each size (``items -> its pages``), interleaved: the table and its figures."""
    many = max(sizes)
    pages = len(sizes[many])
    table = Table(
        f"Decoding a page of N {kind.noun} from bytes (the sandbox's pages, recorded; no HTTP), interleaved",
        ["items", "side", "median ms", "p95 ms", "µs / item", "vs json.loads", "vs pydantic", "KB held / item"],
        note=f"{many:,} items are {pages} pages; every side keeps its rows and pauses the collector while a page "
        "of 64 KB or more is read, as the client does. KB held / item: tracemalloc, the rows kept (the JSON strings "
        "of json.loads' dicts included).",
    )
    figures: dict[str, Any] = {}
    reading = readers(kind)
    for items, pages in sizes.items():
        sides = {name: _side(read, pages, items) for name, read in reading.items()}
        samples = interleave(sides, rounds, warmup=1)
        held = {name: retained_bytes(read, pages) for name, read in reading.items()}
        figures[str(items)] = {}
        for name, values in samples.items():
            size, rows = held[name]
            per_item_kb = size / rows / 1024
            table.add(
                f"{items:,}",
                name,
                median(values),
                summarize(values)["p95_ms"],
                median(values) * 1000 / items,
                ratio(values, samples[JSON_LOADS]),
                ratio(values, samples[kind.before_side]),
                per_item_kb,
            )
            figures[str(items)][name] = {**summarize(values), "kb_held_per_item": round(per_item_kb, 3)}
    return table, figures


# -- the change requests' table, alone -----------------------------------------------------------------------------


async def record_pages(base_url: str, path: str, params: dict[str, Any], limit: int) -> list[bytes]:
    """Every page of the list at ``path`` (``limit`` a page), their exact bytes."""
    import httpx

    pages: list[bytes] = []
    cursor: str | None = None
    headers = {"Authorization": f"Bearer {BENCH_TOKEN}"}
    async with httpx.AsyncClient(base_url=base_url + "/v1", headers=headers, timeout=120) as http:
        while True:
            asked = {**params, "limit": limit, **({"page": cursor} if cursor else {})}
            response = (await http.get(path, params=asked)).raise_for_status()
            pages.append(response.content)
            cursor = (response.json().get("next") or {}).get("page")
            if cursor is None:
                return pages


def run(quick: bool) -> Report:
    import asyncio

    report = Report("decode_change_requests", quick=quick)
    scale = 600 if quick else 10_000
    with sandbox_server(scale) as url:
        org, spaces = largest_org(url)
        path = CHANGE_REQUESTS.path.format(org)
        small = asyncio.run(record_pages(url, path, {"status": "open"}, 100))[:1]
        pages = asyncio.run(record_pages(url, path, {"status": "open"}, 1000))
    items = sum(len(json.loads(raw)["items"]) for raw in pages)
    wire = sum(map(len, pages)) / items
    report.note(
        f"Sandbox at scale {scale:,}: the largest organization has {spaces:,} spaces and {items:,} open change "
        f"requests ({len(pages)} page{'s' if len(pages) > 1 else ''} of up to 1,000; {wire:.0f} bytes each on the "
        "wire)."
    )
    sizes = {len(json.loads(small[0])["items"]): small, len(json.loads(pages[0])["items"]): pages[:1], items: pages}
    table, figures = decode_table(sizes, 2 if quick else 15, CHANGE_REQUESTS)
    report.add_table(table)
    report.figures["decode"] = figures
    return report


def main(argv: Sequence[str] | None = None) -> int:
    return standalone("decode_change_requests", run, argv)


if __name__ == "__main__":
    sys.exit(main())
