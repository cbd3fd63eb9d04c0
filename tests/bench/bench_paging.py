"""Paging an organization's spaces over HTTP: Folio's client against raw httpx and the official TypeScript client.

    python -m tests.bench.bench_paging [--quick] [--out FILE]

Starts ``folio sandbox serve --scale 10000`` in a child process (its big organization holds 10,012 spaces of
about 770 bytes each) and pages them at ``limit=1000``, the sides interleaved round by round:

    folio client                ``client.spaces.summaries(org, limit=1000).pages()``, the product's path for a
                                list: each space read as a ``SpaceSummary``, a msgspec Struct of the fields a row
                                shows (the rest skipped while reading), the collector paused while a page is read
    folio client, gc paused     the same with the garbage collector off for the whole paging
    folio client, full Space    ``client.spaces.list(...)``: every field of every space, pydantic (what opening
                                one reads)
    httpx + msgspec decode      raw ``httpx.AsyncClient`` + ``parse_envelope_json(SpaceSummary, ...)``: the same
                                decoding as the client's list path
    httpx + pydantic rows       raw httpx + ``TypeAdapter(ListEnvelope[PydanticSpaceSummary]).validate_json``:
                                the pydantic row model the client used before issue 15 (tests/bench/decode_pages.py)
    httpx + validate (full)     raw httpx + ``TypeAdapter(ListEnvelope[Space]).validate_json``
    httpx + json.loads          raw httpx, JSON parsed into dicts, nothing validated
    httpx bytes only            raw httpx, the body read and not parsed (the cursors were learned beforehand)
    @gitbook/api (node)         the official TypeScript client in a long-lived node process (tests/bench/node),
                                timed inside node; it parses JSON and validates nothing

Two servers. The sandbox builds each page of 1,000 when asked, which takes it about 100 ms, so its own time
dominates every side and squeezes the ratios toward 1. So its pages are also recorded, byte for byte, and served
from memory by ``tests/bench/replay_server.py`` (another child process): against that server the clients' own
costs show. The replay server is timed 1, 5 and 10 pages deep (1,000, 5,000, 10,000 spaces: how the cost grows);
the sandbox itself 10 pages deep.

Before the HTTP sides, the decode table (issue 15): a page of 100, 1,000 and 10,000 (10 pages) spaces decoded
from the recorded bytes by ``json.loads``, by the pydantic row model of before and by the msgspec Struct, with the
memory each keeps per row (tests/bench/decode_pages.py).

Targets at 10,000 (on both servers): Folio at most 1.2x raw httpx with the same decoding, and no slower than the
TypeScript client. Node and ``@gitbook/api@0.202.0`` are needed for the last side: the package is installed into
``.cache/bench/node`` when missing (``npm install``); without node or npm the side is reported as skipped. One more
pass of Folio's client runs under cProfile against the replay server, to show where its time goes.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import json
import pstats
import sys
import tempfile
from collections import defaultdict
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from contextlib import aclosing
from pathlib import Path
from typing import Any, cast

import httpx
from pydantic import TypeAdapter

from folio.api import GitBookClient, Token
from folio.api.pagination import parse_envelope_json
from folio.models.common import ListEnvelope
from folio.models.space import OrgSpaceSummary, Space, SpaceSummary
from tests.bench.common import (
    BENCH_TOKEN,
    Report,
    Table,
    interleave_async,
    largest_org,
    median,
    ratio,
    sandbox_server,
    server_process,
    standalone,
    summarize,
)
from tests.bench.decode_pages import PydanticSpaceSummary, decode_table
from tests.bench.node_client import NodeClient, ensure_node_client

NAME = "paging"
TARGET_VS_HTTPX = 1.2
TARGET_VS_TS = 1.0
FOLIO, FOLIO_NO_GC, FOLIO_FULL, VALIDATE, PYDANTIC_ROWS, VALIDATE_FULL, JSON_ONLY, BYTES, NODE = (
    "folio client",
    "folio client, gc paused",
    "folio client, full Space",
    "httpx + msgspec decode",
    "httpx + pydantic rows",
    "httpx + validate (full)",
    "httpx + json.loads",
    "httpx bytes only",
    "@gitbook/api (node)",
)


# -- the Python sides --------------------------------------------------------------------------------------------


class Sides:
    """Every Python way of paging ``depth`` pages; each checks it read ``depth * limit`` items."""

    def __init__(self, base_url: str, org: str, limit: int) -> None:
        self.org, self.limit = org, limit
        self.path = f"/orgs/{org}/spaces"
        self.client = GitBookClient(token=Token(BENCH_TOKEN), base_url=base_url)
        self.http = httpx.AsyncClient(
            base_url=base_url + "/v1", headers={"Authorization": f"Bearer {BENCH_TOKEN}"}, timeout=60
        )
        self.adapter: TypeAdapter[ListEnvelope[PydanticSpaceSummary]] = TypeAdapter(ListEnvelope[PydanticSpaceSummary])
        self.full_adapter: TypeAdapter[ListEnvelope[Space]] = TypeAdapter(ListEnvelope[Space])
        self.cursors: list[str | None] = []

    async def learn_cursors(self, depth: int) -> None:
        cursor: str | None = None
        self.cursors = []
        for _ in range(depth):
            self.cursors.append(cursor)
            body = (await self.http.get(self.path, params=self._params(cursor))).raise_for_status().json()
            cursor = (body.get("next") or {}).get("page")
            if cursor is None:
                break

    def _params(self, cursor: str | None) -> dict[str, Any]:
        return {"limit": self.limit} if cursor is None else {"limit": self.limit, "page": cursor}

    def _check(self, items: int, depth: int, side: str) -> None:
        if items != depth * self.limit:
            raise RuntimeError(f"{side}: read {items} items, expected {depth * self.limit}")

    async def folio(self, depth: int, *, full: bool = False) -> list[SpaceSummary]:
        spaces: list[SpaceSummary] = []
        pages = 0
        listing = self.client.spaces.list if full else self.client.spaces.summaries
        pages_of = cast(AsyncGenerator[ListEnvelope[SpaceSummary]], listing(self.org, limit=self.limit).pages())
        async with aclosing(pages_of) as envelopes:
            async for envelope in envelopes:
                spaces.extend(envelope.items)
                pages += 1
                if pages == depth:
                    break
        self._check(len(spaces), depth, FOLIO)
        return spaces

    async def folio_full(self, depth: int) -> None:
        await self.folio(depth, full=True)

    async def folio_no_gc(self, depth: int) -> None:
        gc.disable()
        try:
            await self.folio(depth)
        finally:
            gc.enable()

    async def decode(self, depth: int) -> None:
        """Raw httpx, each page decoded as the client decodes it (the msgspec Struct rows)."""
        spaces: list[SpaceSummary] = []
        cursor: str | None = None
        for _ in range(depth):
            response = await self.http.get(self.path, params=self._params(cursor))
            raw = response.raise_for_status().content
            envelope = parse_envelope_json(SpaceSummary, raw, method="GET", path=self.path, lenient=OrgSpaceSummary)
            spaces.extend(envelope.items)
            cursor = envelope.next_page
        self._check(len(spaces), depth, VALIDATE)

    async def validate(self, depth: int, *, full: bool = False) -> None:
        """Raw httpx, each page validated by pydantic: the row model of before, or the full Space."""
        spaces: list[Any] = []
        cursor: str | None = None
        adapter: TypeAdapter[Any] = self.full_adapter if full else self.adapter
        for _ in range(depth):
            response = await self.http.get(self.path, params=self._params(cursor))
            envelope = adapter.validate_json(response.raise_for_status().content)
            spaces.extend(envelope.items)
            cursor = envelope.next_page
        self._check(len(spaces), depth, VALIDATE_FULL if full else PYDANTIC_ROWS)

    async def validate_full(self, depth: int) -> None:
        await self.validate(depth, full=True)

    async def json_only(self, depth: int) -> None:
        spaces: list[dict[str, Any]] = []
        cursor: str | None = None
        for _ in range(depth):
            response = await self.http.get(self.path, params=self._params(cursor))
            body = json.loads(response.raise_for_status().content)
            spaces.extend(body["items"])
            cursor = (body.get("next") or {}).get("page")
        self._check(len(spaces), depth, JSON_ONLY)

    async def bytes_only(self, depth: int) -> None:
        size = 0
        for cursor in self.cursors[:depth]:
            response = await self.http.get(self.path, params=self._params(cursor))
            size += len(response.raise_for_status().content)
        if not size:
            raise RuntimeError(f"{BYTES}: read nothing")

    async def aclose(self) -> None:
        await self.client.aclose()
        await self.http.aclose()


def timed(fn: Callable[[int], Awaitable[Any]], depth: int) -> Callable[[], Awaitable[float | None]]:
    async def side() -> None:
        await fn(depth)

    return side


def node_side(node: NodeClient, depth: int, limit: int) -> Callable[[], Awaitable[float | None]]:
    async def side() -> float:
        answer = node.page(depth)
        if answer["items"] != depth * limit:
            raise RuntimeError(f"{NODE}: read {answer['items']} items, expected {depth * limit}")
        return float(answer["ms"])

    return side


# -- where the time goes -----------------------------------------------------------------------------------------

BUCKETS = (
    ("decoding (msgspec)", ("msgspec",)),
    ("validation (pydantic)", ("pydantic", "validate_python", "validate_json", "_unwrap_space")),
    ("JSON decoding", ("json/", "json.", "loads", "raw_decode", "decode' of '_json")),
    ("HTTP (httpx, httpcore, h11)", ("httpx", "httpcore", "h11", "anyio", "ssl", "socket")),
    ("event loop (asyncio, selectors)", ("asyncio", "selectors", "select'", "epoll")),
    ("folio.api", ("folio/api",)),
)


def profile_buckets(stats: pstats.Stats) -> tuple[list[tuple[str, float]], list[tuple[str, float, int]], float]:
    """Own time per bucket (ms), the top functions by own time, and the total."""
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    buckets: dict[str, float] = defaultdict(float)
    functions: list[tuple[str, float, int]] = []
    total = 0.0
    for (filename, line, name), (_, calls, tottime, _, _) in raw.items():
        where = f"{filename}:{line}({name})"
        ms = tottime * 1000
        total += ms
        label = next((b for b, keys in BUCKETS if any(k in where for k in keys)), "other")
        buckets[label] += ms
        short = filename.rsplit("site-packages/", 1)[-1].rsplit("src/", 1)[-1]
        functions.append((f"{short}:{line}({name})" if line else name, ms, calls))
    ordered = sorted(buckets.items(), key=lambda x: -x[1])
    return ordered, sorted(functions, key=lambda x: -x[1]), total


# -- the run -------------------------------------------------------------------------------------------------------


async def record(base_url: str, org: str, limit: int, depth: int, path: Path) -> None:
    """Write the sandbox's first ``depth`` pages (their exact bytes) for the replay server."""
    recording: dict[str, str] = {}
    cursor: str | None = None
    async with httpx.AsyncClient(
        base_url=base_url + "/v1", headers={"Authorization": f"Bearer {BENCH_TOKEN}"}, timeout=60
    ) as http:
        for _ in range(depth):
            params: dict[str, Any] = {"limit": limit} if cursor is None else {"limit": limit, "page": cursor}
            response = (await http.get(f"/orgs/{org}/spaces", params=params)).raise_for_status()
            target = f"/v1/orgs/{org}/spaces?" + "&".join(f"{k}={v}" for k, v in params.items())
            recording[target] = response.text
            cursor = (response.json().get("next") or {}).get("page")
            if cursor is None:
                break
    path.write_text(json.dumps(recording))


async def measure(
    url: str, org: str, limit: int, depths: list[int], rounds: int, node: str | None
) -> tuple[dict[int, dict[str, list[float]]], cProfile.Profile, str]:
    """Every side at every depth against the server at ``url``, interleaved; then one profiled pass of Folio's
    client at the deepest depth. Returns the samples, the profile and why node was skipped (or "")."""
    sides = Sides(url, org, limit)
    node_client: NodeClient | None = None
    skipped = ""
    try:
        if node is not None:
            try:
                node_client = NodeClient(node, url, org, limit)
            except (OSError, RuntimeError) as exc:
                skipped = f"the node client did not start: {exc}"
        await sides.learn_cursors(max(depths))
        results: dict[int, dict[str, list[float]]] = {}
        for depth in depths:
            runners: dict[str, Callable[[], Awaitable[float | None]]] = {
                FOLIO: timed(sides.folio, depth),
                FOLIO_NO_GC: timed(sides.folio_no_gc, depth),
                FOLIO_FULL: timed(sides.folio_full, depth),
                VALIDATE: timed(sides.decode, depth),
                PYDANTIC_ROWS: timed(sides.validate, depth),
                VALIDATE_FULL: timed(sides.validate_full, depth),
                JSON_ONLY: timed(sides.json_only, depth),
                BYTES: timed(sides.bytes_only, depth),
            }
            if node_client is not None:
                runners[NODE] = node_side(node_client, depth, limit)
            results[depth] = await interleave_async(runners, rounds, warmup=1)
        profiler = cProfile.Profile()
        gc.collect()
        profiler.enable()
        await sides.folio(max(depths))
        profiler.disable()
    finally:
        if node_client is not None:
            node_client.close()
        await sides.aclose()
    return results, profiler, skipped


NAMES = [FOLIO, FOLIO_NO_GC, FOLIO_FULL, VALIDATE, PYDANTIC_ROWS, VALIDATE_FULL, JSON_ONLY, BYTES, NODE]


def side_table(title: str, samples: dict[str, list[float]], items: int, skipped: str) -> Table:
    table = Table(
        title, ["side", "median ms", "p95 ms", "min ms", "runs", "µs / item", "vs httpx+decode", "vs TS client"]
    )
    for name in NAMES:
        if name not in samples:
            table.add(name, None, None, None, 0, None, None, None)
            continue
        stats = summarize(samples[name])
        table.add(
            name,
            stats["median_ms"],
            stats["p95_ms"],
            stats["min_ms"],
            stats["n"],
            median(samples[name]) * 1000 / items,
            ratio(samples[name], samples[VALIDATE]),
            ratio(samples[name], samples[NODE]) if NODE in samples else None,
        )
    if NODE not in samples:
        table.note = f"{NODE}: skipped ({skipped})"
    return table


def add_targets(report: Report, server: str, samples: dict[str, list[float]], items: int, skipped: str) -> None:
    report.add_target(
        f"paging {items:,} ({server}): folio client vs raw httpx + same decoding",
        ratio(samples[FOLIO], samples[VALIDATE]),
        TARGET_VS_HTTPX,
        unit="x",
        note=f"{median(samples[FOLIO]):.0f} ms vs {median(samples[VALIDATE]):.0f} ms",
    )
    name = f"paging {items:,} ({server}): folio client vs @gitbook/api (TypeScript)"
    if NODE in samples:
        report.add_target(
            name,
            ratio(samples[FOLIO], samples[NODE]),
            TARGET_VS_TS,
            unit="x",
            note=f"{median(samples[FOLIO]):.0f} ms vs {median(samples[NODE]):.0f} ms",
        )
    else:
        report.add_target(name, None, TARGET_VS_TS, unit="x", skipped=skipped)


async def run_async(quick: bool) -> Report:
    report = Report(NAME, quick=quick)
    scale, limit = (300, 100) if quick else (10_000, 1000)
    depths = [1, 3] if quick else [1, 5, 10]
    deepest = max(depths)
    items = deepest * limit
    node, skipped = ensure_node_client()
    with tempfile.TemporaryDirectory(prefix="folio-bench-") as folder, sandbox_server(scale) as sandbox_url:
        org, count = largest_org(sandbox_url)
        report.note(f"Sandbox at scale {scale:,}: the largest organization has {count:,} spaces; limit={limit}.")
        recording = Path(folder) / "pages.json"
        await record(sandbox_url, org, limit, deepest, recording)
        pages = [text.encode() for text in json.loads(recording.read_text()).values()]
        if quick:
            sizes = {limit * d: pages[:d] for d in depths}
        else:
            small = Path(folder) / "small.json"
            await record(sandbox_url, org, 100, 1, small)
            sizes = {100: [text.encode() for text in json.loads(small.read_text()).values()], 1000: pages[:1]}
            sizes[items] = pages[:deepest]
        decoding, decode_figures = decode_table(sizes, 2 if quick else 15)
        report.add_table(decoding)
        report.figures["decode"] = decode_figures
        replay_command = [sys.executable, "-m", "tests.bench.replay_server", str(recording)]
        with server_process(replay_command, "the replay server") as replay_url:
            replay, profiler, replay_skipped = await measure(replay_url, org, limit, depths, 1 if quick else 9, node)
        served, _, served_skipped = await measure(sandbox_url, org, limit, [deepest], 1 if quick else 4, node)
    skipped = skipped or replay_skipped or served_skipped

    for depth in depths:
        report.add_table(
            side_table(
                f"Paging {depth * limit:,} spaces ({depth} page{'s' if depth > 1 else ''} of {limit}) from the replay "
                "server (the sandbox's pages, recorded, served from memory), interleaved",
                replay[depth],
                depth * limit,
                skipped,
            )
        )
    report.add_table(
        side_table(
            f"Paging {items:,} spaces from `folio sandbox serve --scale {scale}` itself (the server's time included)",
            served[deepest],
            items,
            skipped,
        )
    )
    report.figures["replay"] = {
        str(d * limit): {name: summarize(values) for name, values in replay[d].items()} for d in depths
    }
    report.figures["sandbox"] = {str(items): {name: summarize(v) for name, v in served[deepest].items()}}
    if skipped:
        report.figures["node_skipped"] = skipped

    growth = Table(
        "How paging cost grows, replay server (median ms per 1,000 items)",
        ["side", *(f"{d * limit:,} items" for d in depths)],
    )
    for name in NAMES:
        if all(name in replay[d] for d in depths):
            growth.add(name, *(median(replay[d][name]) / d / (limit / 1000) for d in depths))
    report.add_table(growth)

    add_targets(report, "replay server", replay[deepest], items, skipped)
    add_targets(report, "sandbox server", served[deepest], items, skipped)

    buckets, functions, total = profile_buckets(pstats.Stats(profiler))
    where = Table(
        f"Where Folio's client spends paging {items:,} spaces from the replay server (cProfile, own time; the "
        "profiler adds overhead)",
        ["part", "ms", "share %"],
        note=f"total {total:.0f} ms under the profiler; the event loop's share is mostly waiting for the server",
    )
    for label, ms in buckets:
        where.add(label, ms, 100 * ms / total if total else None)
    report.add_table(where)
    top = Table("Top functions of that pass, by own time", ["function", "ms", "calls"])
    for function, ms, calls in functions[: 6 if quick else 14]:
        top.add(function, ms, calls)
    report.add_table(top)
    report.figures["profile"] = {
        "total_ms": round(total, 1),
        "buckets": {label: round(ms, 1) for label, ms in buckets},
        "top": [{"function": f, "ms": round(ms, 2), "calls": c} for f, ms, c in functions[:30]],
    }
    gc_share = 1 - median(replay[deepest][FOLIO_NO_GC]) / median(replay[deepest][FOLIO])
    report.note(
        f"Garbage collection: {100 * gc_share:.0f} % of the Folio client's paging time at {items:,} items "
        "(replay server; folio client, which pauses it only while a page is read, vs the same with the collector "
        "off for the whole paging)."
    )
    report.figures["gc_share"] = round(gc_share, 3)
    return report


def run(quick: bool) -> Report:
    return asyncio.run(run_async(quick))


def main(argv: Sequence[str] | None = None) -> int:
    return standalone(NAME, run, argv)


if __name__ == "__main__":
    sys.exit(main())
