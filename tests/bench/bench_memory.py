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

"KB / item" is (peak - the process's own RSS after its imports) / items loaded, items being spaces plus change
requests. Target (issue 15): at most 4 KB per listed item in the TUI, at each of the three sizes.
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
    sandbox_server,
    standalone,
)

NAME = "memory"
MODES = ("imports", "services", "tui")
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
    from folio.tui.screens.organization import OrganizationScreen

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


# -- the run -----------------------------------------------------------------------------------------------------


def run(quick: bool) -> Report:
    report = Report(NAME, quick=quick)
    scales = [100, 200] if quick else [1_000, 3_000, 10_000]
    table = Table(
        "Peak RSS (MB) of a Folio process with a big organization loaded and browsed, fresh process each",
        [
            "process",
            "scale",
            "spaces",
            "CRs",
            "after imports",
            "peak MB",
            "growth MB",
            "KB / item",
            "marginal",
            "seconds",
        ],
        note="growth: peak minus the process's own RSS after its imports; KB / item: growth over spaces + change "
        "requests loaded (the target's figure: fixed costs included); marginal: KB per item added since the smallest "
        "scale (what one more row costs). The sandbox runs in another process.",
    )
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="folio-bench-") as home:
        baseline_done = False
        first: dict[str, tuple[float, int]] = {}  # mode -> (growth MB, items) at the smallest scale
        for scale in scales:
            with sandbox_server(scale) as url:
                org, count = largest_org(url)
                for mode in MODES:
                    if mode == "imports" and baseline_done:
                        continue
                    result = run_child(mode, url, org, home)
                    figures.setdefault(mode, {})[str(scale)] = result
                    if mode == "imports":
                        baseline_done = True
                        table.add(
                            "imports only (every layer + Textual)",
                            None,
                            None,
                            None,
                            result["after_imports_mb"],
                            result["peak_mb"],
                            None,
                            None,
                            None,
                            result["seconds"],
                        )
                        continue
                    items = result["spaces"] + result["change_requests"]
                    over = result["peak_mb"] - result["after_imports_mb"]
                    table.add(
                        "services (no TUI)" if mode == "services" else "TUI, organization screen",
                        scale,
                        result["spaces"],
                        result["change_requests"],
                        result["after_imports_mb"],
                        result["peak_mb"],
                        round(over, 1),
                        round(over * 1024 / items, 2) if items else None,
                        marginal(first.get(mode), over, items),
                        result["seconds"],
                    )
                    first.setdefault(mode, (over, items))
                    if mode == "tui":
                        report.add_target(
                            f"memory per listed item, TUI, scale {scale:,}",
                            round(over * 1024 / items, 2) if items else None,
                            TARGET_KB_PER_ITEM,
                            unit="KB",
                            note=f"{round(over, 1)} MB over {items:,} spaces and change requests",
                        )
                    if result["spaces"] < count:
                        report.note(f"{mode} at scale {scale}: {result['spaces']} of {count} spaces were loaded")
    report.add_table(table)
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
