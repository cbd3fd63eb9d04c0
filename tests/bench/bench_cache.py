"""Reopening from the local cache: a script, not a test.

    python -m tests.bench.bench_cache [--quick] [--out FILE]

Serves the sandbox over HTTP (``folio sandbox serve``) for the demo, a scale-1,000 and a scale-2,000 organization
(three sizes: how the cost grows), and in one headless Folio per size pushes the organization screen of the
biggest organization again and again, two ways in turn: with the account's cache (the screen was visited before:
its first paint comes from the cache) and without it (the same screen read from the sandbox over HTTP). Each time
is from ``push_screen`` to the end of the first frame the screen itself paints (its compositor's update, what the
terminal would be sent) that shows the rows of the tab the screen opens on: the first tab, the collections tree (a
pushed screen opens on its first tab; only a restored session opens on another). Then it prints the cache's size
after the biggest organization of the demo, of a scale-1,000 and of a scale-10,000 sandbox was browsed through the
services (collections, every space, change requests).
Target (issue 6): first frame within 50 ms of the push.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.bench.common import (
    BENCH_TOKEN,
    Report,
    Table,
    interleave_async,
    largest_org,
    sandbox_server,
    standalone,
    summarize,
)


def _shown_list(screen: Any) -> Any:
    """The list of the tab the organization screen shows (None while that tab has none mounted)."""
    from textual.widgets import TabbedContent

    from folio.tui.widgets.resource_browser import ResourceBrowser

    tabs = screen.query(TabbedContent)
    if not tabs or not tabs.first().active:
        return None
    panes = screen.query(f"TabPane#{tabs.first().active}")
    browsers = panes.first().query(ResourceBrowser) if panes else None
    return browsers.first().list if browsers else None


async def _first_rows(app: Any, screen: Any) -> float:
    """ms from pushing ``screen`` to the end of the first frame the screen paints (its compositor's update, what
    the terminal would get) with rows in the list of the tab shown, that list being on screen in that frame."""
    painted: list[float] = []
    paint = screen._compositor_refresh

    def frame() -> None:
        shown = _shown_list(screen)
        had_rows = shown is not None and bool(shown.rows)  # set before the frame: this frame draws them
        paint()
        if had_rows and not painted and shown in screen._compositor.visible_widgets:
            painted.append(time.perf_counter())

    screen._compositor_refresh = frame
    t0 = time.perf_counter()
    await app.push_screen(screen)
    deadline = t0 + 60
    while not painted:
        if time.perf_counter() > deadline or not app.is_running:
            raise RuntimeError("the organization screen never painted the rows of its tab")
        await asyncio.sleep(0.001)
    return (painted[0] - t0) * 1000


async def _measure(url: str, org: str, rounds: int, home: Path) -> tuple[dict[str, list[float]], dict[str, Any]]:
    from folio.api import GitBookClient, Token
    from folio.services import Services
    from folio.services.local import Local
    from folio.tui.app import FolioApp
    from folio.tui.screens.organization import OrganizationScreen
    from folio.tui.screens.organizations import OrganizationsScreen

    cached_client = GitBookClient(token=Token(BENCH_TOKEN), base_url=url)
    local = Local(cached_client, cache_dir=home / "cache", state_dir=home / "state")
    local.open_known()
    cached = Services(cached_client, where="bench", local=local)
    plain_client = GitBookClient(token=Token(BENCH_TOKEN), base_url=url)
    plain = Services(plain_client, where="bench")
    await cached.me()  # confirms the account: its cache opens
    app = FolioApp(plain, start=lambda: OrganizationsScreen(plain))
    app.animation_level = "none"
    info: dict[str, Any] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        # The visit that fills the cache: the organization screen with its spaces list read to the end.
        first = OrganizationScreen(cached, org)
        await app.push_screen(first)
        await pilot.press("2")
        await app.workers.wait_for_complete()
        app.pop_screen()
        await pilot.pause()

        async def from_cache() -> float:
            screen = OrganizationScreen(cached, org)
            took = await _first_rows(app, screen)
            await app.workers.wait_for_complete()  # the revalidation ends before the next round
            app.pop_screen()
            await pilot.pause()
            return took

        async def from_network() -> float:
            screen = OrganizationScreen(plain, org)
            took = await _first_rows(app, screen)
            await app.workers.wait_for_complete()
            app.pop_screen()
            await pilot.pause()
            return took

        samples = await interleave_async({"from cache": from_cache, "from the network": from_network}, rounds)
    assert local.cache is not None
    cache_info = local.cache.info()
    info = {"entries": cache_info.entries, "bytes": cache_info.bytes, "file_bytes": cache_info.file_bytes}
    local.close()
    await cached_client.aclose()
    await plain_client.aclose()
    return samples, info


async def _fill(url: str, org: str, home: Path) -> dict[str, Any]:
    """Browse the organization through the services (no screen): its collections, every space and the first
    page of its change requests, then say how big the account's cache is."""
    from folio.api import GitBookClient, Token
    from folio.services import Services
    from folio.services.browse import InboxFilter
    from folio.services.local import Local

    client = GitBookClient(token=Token(BENCH_TOKEN), base_url=url)
    local = Local(client, cache_dir=home / "cache", state_dir=home / "state")
    services = Services(client, where="bench", local=local)
    await services.me()
    await services.browse.collections(org)
    async for _ in services.browse.spaces_pages(org, limit=1000):
        pass
    async for _ in services.browse.change_request_pages(org, InboxFilter(status="all"), limit=1000):
        break
    assert local.cache is not None
    info = local.cache.info()
    local.close()
    await client.aclose()
    return {"entries": info.entries, "bytes": info.bytes, "file_bytes": info.file_bytes}


def run(quick: bool) -> Report:
    report = Report("cache", quick=quick)
    rounds = 2 if quick else 7
    paint = Table(
        "First frame of the organization screen, pushed again (ms)",
        ["organization", "spaces", "from cache p50", "p95", "from the network p50", "p95", "ratio"],
    )
    reopen = (
        [("demo", 0), ("scale 200", 200)] if quick else [("demo", 0), ("scale 1,000", 1_000), ("scale 2,000", 2_000)]
    )
    for label, scale in reopen:
        with sandbox_server(scale) as url, tempfile.TemporaryDirectory() as home:
            org, count = largest_org(url)
            samples, _ = asyncio.run(_measure(url, org, rounds, Path(home)))
        c, n = summarize(samples["from cache"]), summarize(samples["from the network"])
        paint.add(label, count, c["p50_ms"], c["p95_ms"], n["p50_ms"], n["p95_ms"], round(n["p50_ms"] / c["p50_ms"], 2))
        report.figures[label] = {"from_cache": c, "from_network": n, "spaces": count}
        report.add_target(f"reopen from cache, {label} (p50)", c["p50_ms"], 50.0)
    report.add_table(paint)
    size = Table(
        "The cache after browsing the biggest organization", ["organization", "spaces", "entries", "data", "file"]
    )
    sizes = (
        [("demo", 0), ("scale 500", 500)] if quick else [("demo", 0), ("scale 1,000", 1_000), ("scale 10,000", 10_000)]
    )
    for label, scale in sizes:
        with sandbox_server(scale) as url, tempfile.TemporaryDirectory() as home:
            org, count = largest_org(url)
            info = asyncio.run(_fill(url, org, Path(home)))
        size.add(label, count, info["entries"], f"{info['bytes'] / 1024:.0f} KB", f"{info['file_bytes'] / 1024:.0f} KB")
        report.figures[f"cache size, {label}"] = info
    report.add_table(size)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    return standalone("cache", run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
