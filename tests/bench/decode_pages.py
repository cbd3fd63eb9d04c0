"""Decoding pages of spaces from their bytes, three ways (issue 15), for ``bench_paging``'s decode table.

    json.loads only             the page parsed into dicts, nothing checked: the floor of any Python reading
    pydantic SpaceSummary       ``TypeAdapter(ListEnvelope[SpaceSummary]).validate_json`` with the pydantic row
                                model Folio used before (a copy is kept here: :class:`PydanticSpaceSummary`)
    msgspec Struct (Folio)      what the client does now: ``parse_envelope_json(SpaceSummary, ...)``, a msgspec
                                decoder of the Struct row, pydantic only for a page it refuses

No HTTP and no server: the bytes are the sandbox's recorded pages. Each side reads every page of a size, keeps the
rows (as a list keeps them) and pauses the collector while a big page is read, as the client does. The retained
size per row is measured apart, once per side, with tracemalloc (the rows kept, everything else freed).
"""

from __future__ import annotations

import gc
import json
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from pydantic import ConfigDict, TypeAdapter

from folio.api.pagination import BIG_PAGE, parse_envelope_json
from folio.models._base import Count, Model, Timestamp
from folio.models.common import ListEnvelope, Urls
from folio.models.space import OrgSpaceSummary, SpaceSummary, Visibility
from tests.bench.common import Table, interleave, median, ratio, summarize

__all__ = ["JSON_LOADS", "MSGSPEC", "PYDANTIC", "PydanticSpaceSummary", "decode_table"]

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


def readers() -> dict[str, Callable[[bytes], list[Any]]]:
    """Each side's reading of one page: its rows."""
    adapter: TypeAdapter[ListEnvelope[PydanticSpaceSummary]] = TypeAdapter(ListEnvelope[PydanticSpaceSummary])

    def json_loads(raw: bytes) -> list[Any]:
        with _paused(raw):
            return list(json.loads(raw)["items"])

    def pydantic(raw: bytes) -> list[Any]:
        with _paused(raw):
            return list(adapter.validate_json(raw).items)

    def structs(raw: bytes) -> list[Any]:
        path = "/orgs/bench/spaces"
        return list(parse_envelope_json(SpaceSummary, raw, method="GET", path=path, lenient=OrgSpaceSummary).items)

    return {JSON_LOADS: json_loads, PYDANTIC: pydantic, MSGSPEC: structs}


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


def decode_table(sizes: dict[int, list[bytes]], rounds: int) -> tuple[Table, dict[str, Any]]:
    """The three sides at each size (``items -> its pages``), interleaved: the table and its figures."""
    table = Table(
        "Decoding a page of N spaces from bytes (the sandbox's pages, recorded; no HTTP), interleaved",
        ["items", "side", "median ms", "p95 ms", "µs / item", "vs json.loads", "vs pydantic", "KB held / item"],
        note="10,000 items are 10 pages of 1,000; every side keeps its rows and pauses the collector while a page "
        "of 64 KB or more is read, as the client does. KB held / item: tracemalloc, the rows kept (the JSON strings "
        "of json.loads' dicts included).",
    )
    figures: dict[str, Any] = {}
    reading = readers()
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
                ratio(values, samples[PYDANTIC]),
                per_item_kb,
            )
            figures[str(items)][name] = {**summarize(values), "kb_held_per_item": round(per_item_kb, 3)}
    return table, figures
