"""Memory: peak RSS of a Folio process that loaded and browsed a big organization, at three sizes.

    python -m tests.bench.bench_memory [--quick] [--out FILE]

The sandbox is served by a child process (``folio sandbox serve --scale N``, N = 1,000, 3,000 and 10,000), so its
own state is not counted; each figure comes from a fresh process of its own (``--child``), which reports
``resource.getrusage(RUSAGE_SELF).ru_maxrss``:

    imports only    Folio's layers and Textual imported, nothing loaded: the baseline
    services        through ``Services`` with no TUI: every space of the organization (``browse.spaces_pages``,
                    the organization screen's page size) and every open change request
                    (``browse.change_request_pages``), all kept in lists, as the screens keep them
    TUI             the organization screen headless (120x40): spaces tab and change requests tab shown, every
                    page loaded, the cursor sent to the end of each list

Each process is also run against two small organizations, with the same screen, tabs and keys, for its **fixed
cost** (for the TUI: the modules imported after the baseline, the screen and its widgets, Textual's caches and the
lines each list draws and keeps, at most two screens of them):

    scale 0         the demo organization alone (12 spaces, 6 open change requests): about no rows
    scale 200       213 spaces and 107 open change requests: every list more than two screens long, so its drawn
                    lines are all there; from here on a list costs only what its items cost

A figure is the median of :data:`REPEATS` fresh processes (peak RSS moves by a megabyte or two between runs).

    growth          peak minus the process's own RSS after its imports
    KB / item       growth over the items loaded (spaces + change requests), the fixed cost included: it falls as
                    the organization grows
    per item        (growth - the scale-200 run's growth) over the items that run did not have: what an item
                    costs. Issue 15's target, at most 4 KB per listed item in the TUI, is checked on this figure at
                    each of the three sizes
    marginal        KB per item added since the smallest of the three sizes
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.bench.common import (
    BENCH_TOKEN,
    ROOT,
    Report,
    Table,
    largest_org,
    median,
    sandbox_server,
    standalone,
)

NAME = "memory"
MODES = ("imports", "services", "tui")
LABELS = {"services": "services (no TUI)", "tui": "TUI, organization screen"}
TARGET_KB_PER_ITEM = 4.0
SIZE = (120, 40)


def peak_mb() -> float:
    """Peak resident set size of this process so far (ru_maxrss is KB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def current_mb() -> float | None:
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return round(pages * os.sysconf("SC_PAGE_SIZE") / 1024 / 1024, 1)


# -- the child process -------------------------------------------------------------------------------------------


async def child_services(url: str, org: str) -> dict[str, Any]:
    from folio.api import GitBookClient, Token
    from folio.services import Services
    from folio.services.browse import InboxFilter

    out: dict[str, Any] = {"after_imports_mb": peak_mb()}
    services = Services(GitBookClient(token=Token(BENCH_TOKEN), base_url=url), where="the bench sandbox")
    spaces: list[Any] = []
    async for page in services.browse.spaces_pages(org):
        spaces.extend(page)
    out["spaces"] = len(spaces)
    out["after_spaces_mb"] = peak_mb()
    change_requests: list[Any] = []
    async for crs in services.browse.change_request_pages(org, InboxFilter()):
        change_requests.extend(crs)
    out["change_requests"] = len(change_requests)
    out["peak_mb"] = peak_mb()
    out["current_mb"] = current_mb()
    await services.aclose()
    return out


async def child_tui(url: str, org: str) -> dict[str, Any]:
    from textual.app import App

    from folio.api import GitBookClient, Token
    from folio.services import Services
    from folio.tui.app import FolioApp
    from folio.tui.screens.content.organization import OrganizationScreen

    out: dict[str, Any] = {"after_imports_mb": peak_mb()}
    services = Services(GitBookClient(token=Token(BENCH_TOKEN), base_url=url), where="the bench sandbox")
    app = FolioApp(services, start=lambda: OrganizationScreen(services, org, title="Big organization"))
    app.animation_level = "none"

    async def settle(pilot: Any, target: App[Any]) -> None:
        for _ in range(3):
            await pilot.pause()
            await target.workers.wait_for_complete()
        await pilot.pause()

    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, OrganizationScreen), screen
        for key in ("2", "end", "3"):
            await pilot.press(key)
            await settle(pilot, app)
        await pilot.press("end")
        await settle(pilot, app)
        out["spaces"] = len(screen.spaces_list.list.rows)
        out["change_requests"] = len(screen.inbox.browser.list.rows)
        out["peak_mb"] = peak_mb()
        out["current_mb"] = current_mb()
    await services.aclose()
    return out


def child(mode: str, url: str, org: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    if mode == "imports":
        import textual.app  # noqa: F401

        import folio.api
        import folio.services
        import folio.tui.app  # noqa: F401

        out: dict[str, Any] = {"after_imports_mb": peak_mb(), "peak_mb": peak_mb(), "current_mb": current_mb()}
    elif mode == "services":
        out = asyncio.run(child_services(url, org))
    else:
        out = asyncio.run(child_tui(url, org))
    out["seconds"] = round(time.perf_counter() - t0, 2)
    return out


def run_child(mode: str, url: str, org: str, home: str) -> dict[str, Any]:
    env = dict(os.environ, FOLIO_HOME=home)
    command = [sys.executable, "-m", "tests.bench.bench_memory", "--child", mode, url, org]
    out = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=600, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"memory child {mode!r} failed: {out.stderr.strip()[-1500:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def marginal(smallest: tuple[float, int] | None, over: float, items: int) -> float | None:
    """KB per item added since the smallest scale (None at the smallest, or when no item was added)."""
    if smallest is None or items <= smallest[1]:
        return None
    return round((over - smallest[0]) * 1024 / (items - smallest[1]), 2)


def repeated(mode: str, url: str, org: str, home: str, times: int) -> dict[str, Any]:
    """``times`` fresh children of ``mode``: the median of each figure, and every run's growth."""
    runs = [run_child(mode, url, org, home) for _ in range(times)]
    out: dict[str, Any] = {
        key: median([run[key] for run in runs])
        for key in runs[0]
        if all(isinstance(run.get(key), int | float) for run in runs)
    }
    out["growth_mb"] = round(median([run["peak_mb"] - run["after_imports_mb"] for run in runs]), 1)
    out["growths_mb"] = [round(run["peak_mb"] - run["after_imports_mb"], 1) for run in runs]
    for key in ("spaces", "change_requests"):
        if key in out:
            out[key] = int(out[key])
    return out


# -- the run -----------------------------------------------------------------------------------------------------

EMPTY_SCALE = 0
"""The sandbox's scale of the organization with about no rows: the demo one (12 spaces, 6 open change requests)."""

FULL_SCALE = 200
"""The sandbox's scale of the smallest organization whose lists are each more than two screens long (the lines a
list keeps drawn are at most two screens): the per-item figure counts from it."""

REPEATS = 3
"""Fresh children per figure (the median is reported)."""

COLUMNS = ["process", "scale", "spaces", "CRs", "after imports", "peak MB", "growth MB", "KB / item", "per item"]


def items_of(result: dict[str, Any]) -> int:
    return int(result["spaces"]) + int(result["change_requests"])


def run(quick: bool) -> Report:
    report = Report(NAME, quick=quick)
    scales = [100, 200] if quick else [1_000, 3_000, 10_000]
    fixed_scales = (EMPTY_SCALE, 50) if quick else (EMPTY_SCALE, FULL_SCALE)
    repeats = 1 if quick else REPEATS
    table = Table(
        f"Peak RSS (MB) of a Folio process with an organization loaded and browsed, median of {repeats} fresh "
        f"process{'es' if repeats > 1 else ''} each",
        [*COLUMNS, "marginal", "seconds"],
        note=f"growth: peak minus the process's own RSS after its imports. Fixed cost: the same process with "
        f"`sandbox serve --scale {fixed_scales[0]}` (the demo organization, about no rows) and --scale "
        f"{fixed_scales[1]} (every list over two screens long: all its kept lines drawn); same screen, tabs and "
        "keys. KB / item: growth over spaces + change requests loaded, the fixed cost included; per item: (growth - "
        f"the scale-{fixed_scales[1]} growth) over the items it did not have, what an item costs (the target's "
        "figure); marginal: KB per item added since the smallest scale. The sandbox runs in another process.",
    )
    fixed = Table(
        "Fixed cost (MB): what a process grows by with about no rows, and with every list over two screens long",
        [
            "process",
            f"scale {fixed_scales[0]}: about no rows",
            f"scale {fixed_scales[1]}: lists full",
            "after imports - imports only",
        ],
        note="the last column: what the process holds after its own imports against the imports-only row (the "
        "TUI imports its screens too; the services process has no Textual).",
    )
    figures: dict[str, Any] = {"repeats": repeats, "services": {}, "tui": {}}
    with tempfile.TemporaryDirectory(prefix="folio-bench-") as home:
        base: dict[str, dict[str, Any]] = {}  # mode -> the FULL_SCALE run
        first: dict[str, tuple[float, int]] = {}  # mode -> (growth MB, items) at the smallest of the three sizes
        for scale in [*fixed_scales, *scales]:
            with sandbox_server(scale) as url:
                org, count = largest_org(url)
                if scale == fixed_scales[0]:
                    imports = figures["imports"] = repeated("imports", url, org, home, repeats)
                    table.add(
                        "imports only (every layer + Textual)",
                        None,
                        None,
                        None,
                        imports["after_imports_mb"],
                        imports["peak_mb"],
                        None,
                        None,
                        None,
                        None,
                        imports["seconds"],
                    )
                for mode in ("services", "tui"):
                    result = figures[mode][str(scale)] = repeated(mode, url, org, home, repeats)
                    items, over = items_of(result), result["growth_mb"]
                    per_item = None
                    if scale in fixed_scales:
                        label = f"{LABELS[mode]}: fixed cost"
                        if scale == fixed_scales[1]:
                            base[mode] = result
                    else:
                        label = LABELS[mode]
                        added = items - items_of(base[mode])
                        per_item = round((over - base[mode]["growth_mb"]) * 1024 / added, 2) if added > 0 else None
                        result["kb_per_item"] = per_item
                    table.add(
                        label,
                        scale,
                        result["spaces"],
                        result["change_requests"],
                        result["after_imports_mb"],
                        result["peak_mb"],
                        over,
                        round(over * 1024 / items, 2) if items and scale in scales else None,
                        per_item,
                        marginal(first.get(mode), over, items) if scale in scales else None,
                        result["seconds"],
                    )
                    if scale in scales:
                        first.setdefault(mode, (over, items))
                    if mode == "tui" and scale in scales:
                        report.add_target(
                            f"memory per listed item, TUI, scale {scale:,}",
                            per_item,
                            TARGET_KB_PER_ITEM,
                            unit="KB",
                            note=f"{over - base[mode]['growth_mb']:.1f} MB for {items - items_of(base[mode]):,} "
                            f"spaces and change requests over the fixed cost ({base[mode]['growth_mb']} MB with "
                            f"{items_of(base[mode]):,}); {round(over * 1024 / items, 2) if items else None} KB an "
                            "item with the fixed cost",
                        )
                    if result["spaces"] < count:
                        report.note(f"{mode} at scale {scale}: {result['spaces']} of {count} spaces were loaded")
    for mode in ("services", "tui"):
        runs = figures[mode]
        fixed.add(
            LABELS[mode],
            runs[str(fixed_scales[0])]["growth_mb"],
            runs[str(fixed_scales[1])]["growth_mb"],
            round(runs[str(fixed_scales[0])]["after_imports_mb"] - figures["imports"]["after_imports_mb"], 1),
        )
    report.add_table(table)
    report.add_table(fixed)
    report.figures = figures
    return report


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] == "--child":
        parser = argparse.ArgumentParser(prog="bench_memory --child")
        parser.add_argument("mode", choices=MODES)
        parser.add_argument("url")
        parser.add_argument("org")
        args = parser.parse_args(argv[1:])
        print(json.dumps(child(args.mode, args.url, args.org)))
        return 0
    return standalone(NAME, run, argv)


if __name__ == "__main__":
    sys.exit(main())
