"""How fast the structure editor redraws a move in a large site: a script, not a test.

    python -m tests.bench.bench_structure [out.json | --out FILE] [--moves 80] [--size 160x50] [--groups 5,50,200]
                                          [--quick]

Seeds the sandbox with ``scale=1000`` (its "Fleet Encyclopedia": 50 groups, 500 sections, 2,000 site spaces,
2,550 nodes) and adds sites of the same shape at other sizes (``--groups``: 5 groups make 255 nodes, 200 make
10,200), mounts the editor headless on each, and moves nodes by key: one-step moves (``J``/``K``) collected in
batch mode, one-step moves sent to the in-process sandbox as you make them, and moves of a picked-up node
(``space`` then ``down``/``up``). For each key it takes the time from the key event reaching the app to the next
frame the screen hands to the terminal (``tests.bench.frames``), and prints and writes the median and p95 per kind
(default output: ``.cache/bench/structure.json``). The target: a moved node redrawn in under 50 ms (p95) at 2,550
nodes; plain cursor moves are measured too, to compare with. Other processes on the machine show in the p95: run
it on a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.widgets import Footer, Header

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.seed import populate
from folio.sandbox.seed.sites import _group, _section, _site, _site_space
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.screens.base import FolioScreen
from folio.tui.widgets.structure_editor import StructureEditor
from tests.bench.common import DEFAULT_DIR, Report, Table, describe_machine, summarize
from tests.bench.frames import FrameClock

NAME = "structure"
DEFAULT_OUT = DEFAULT_DIR / "structure.json"
TARGET_MS = 50.0
TARGET_NODES = 2550
SEEDED_GROUPS = 50
"""The sandbox's own large site ("Fleet Encyclopedia") has 50 groups; other sizes are built here alike."""
MOVES = ("collected step", "sent step", "grabbed")
"""The kinds the target is about; ``cursor`` (no move) is there to compare with."""
KINDS = ("cursor", *MOVES)


class Host(FolioScreen):
    """The editor alone on a screen."""

    def __init__(self, services: Services, org_id: str, site_id: str) -> None:
        super().__init__(services)
        self.org_id, self.site_id = org_id, site_id

    def compose(self) -> ComposeResult:
        yield Header()
        yield StructureEditor(self.services, self.org_id, self.site_id)
        yield Footer()


async def _no_sleep(seconds: float) -> None:
    return None


def build_site(state: SandboxState, groups: int) -> str:
    """A site shaped like the seeded Fleet Encyclopedia: ``groups`` groups of 10 sections of 4 site spaces."""
    if groups == SEEDED_GROUPS:
        return next(s for s, rec in state.sites.items() if rec["title"] == "Fleet Encyclopedia")
    org = state.demo_org
    generated = [
        sid
        for sid, space in state.spaces.items()
        if space.get("organization") == org and str(space.get("title", "")).startswith("Generated space ")
    ]
    site = _site(state, org, f"Bench site of {groups} groups", days_ago=30, basename=f"bench-{groups}")
    n_space = 0
    for g in range(groups):
        gid = _group(state, site["id"], f"Volume {g + 1:03d}", parent=None, order=g)
        for s in range(10):
            number = g * 10 + s + 1
            section = _section(state, site["id"], f"Chapter {number:04d}", f"chapter-{number:04d}", group=gid, order=s)
            for v in range(4):
                space = generated[n_space % len(generated)]
                _site_space(state, site["id"], space, f"part-{v + 1}", section=section, order=v)
                n_space += 1
    return str(site["id"])


async def measure(state: SandboxState, site: str, moves: int, size: tuple[int, int]) -> dict[str, Any]:
    """Open the editor on ``site`` and time every kind of move; the figures per kind, and the site's."""
    started = time.perf_counter()
    client = GitBookClient(
        token=Token("gb_api_bench_token_0000"),
        base_url="https://sandbox.folio.test",
        transport=SandboxTransport(create_app(state)),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    services = Services(client, where="the bench sandbox")
    app = FolioApp(services, start=lambda: Host(services, state.demo_org, site))
    app.animation_level = "none"
    results: dict[str, Any] = {}
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        editor = app.screen.query_one(StructureEditor)
        assert editor.structure is not None, editor.message
        loaded = time.perf_counter() - started
        nodes = len(editor.rows)
        editor.view.focus()
        clock = FrameClock(app, timeout=5.0)

        async def press(key: str) -> float:
            return await clock.press(pilot, key)

        # The cursor in the middle of the tree, on a section.
        middle = next(
            n
            for n, (key, _) in enumerate(editor.rows)
            if n > nodes // 2 and key in editor.structure.nodes and editor.structure.nodes[key].kind == "site-section"
        )
        editor.cursor = middle
        editor.refresh_rows(editor.rows[middle][0])
        gc.collect()

        samples: dict[str, list[float]] = {kind: [] for kind in KINDS}
        for n in range(moves):
            samples["cursor"].append(await press("down" if n % 2 == 0 else "up"))
        await press("b")
        for n in range(moves):
            samples["collected step"].append(await press("J" if n % 4 < 2 else "K"))
        await press("b")  # asks to discard the collected moves
        await pilot.press("y")
        await pilot.pause()
        await press("space")
        for n in range(moves):
            samples["grabbed"].append(await press("down" if n % 4 < 2 else "up"))
        await press("escape")
        for n in range(max(1, moves // 4)):
            samples["sent step"].append(await press("J" if n % 2 == 0 else "K"))
            await app.workers.wait_for_complete()
        await pilot.pause()
        clock.restore()
        results = {kind: summarize(values) for kind, values in samples.items()}
        results["_site"] = {"nodes": nodes, "load_seconds": round(loaded, 2), "size": f"{size[0]}x{size[1]}"}
    await client.aclose()
    return results


async def run_async(
    quick: bool, moves: int | None = None, size: tuple[int, int] = (160, 50), groups: Sequence[int] = ()
) -> Report:
    report = Report(NAME, quick=quick)
    moves = moves or (4 if quick else 80)
    groups = list(groups) or ([5] if quick else [5, SEEDED_GROUPS, 200])
    state = SandboxState(seed=7)
    populate(state, scale=1000)
    sites = {g: build_site(state, g) for g in groups}
    table = Table(
        f"Structure editor: key to next frame (ms), terminal {size[0]}x{size[1]}",
        ["site nodes", "load s", *(f"{k} {p}" for k in KINDS for p in ("p50", "p95")), "keys each"],
        note="cursor: a plain cursor move; collected step: J/K in batch mode; sent step: J/K sent at once; "
        "grabbed: a picked-up node moved with down/up",
    )
    by_nodes: dict[str, Any] = {}
    for g in groups:
        results = await measure(state, sites[g], moves, size)
        site = results.pop("_site")
        cells: list[Any] = []
        for kind in KINDS:
            cells += [results[kind]["p50_ms"], results[kind]["p95_ms"]]
        table.add(site["nodes"], site["load_seconds"], *cells, moves)
        by_nodes[str(site["nodes"])] = {**results, "_site": site}
    report.add_table(table)
    report.figures = by_nodes
    target_nodes = str(TARGET_NODES) if str(TARGET_NODES) in by_nodes else max(by_nodes, key=int)
    worst = max((by_nodes[target_nodes][kind]["p95_ms"] or 0.0, kind) for kind in MOVES)
    report.add_target(
        f"structure editor: moved node redrawn, p95 (worst: {worst[1]}), {int(target_nodes):,} nodes",
        worst[0],
        TARGET_MS,
    )
    return report


def run(quick: bool) -> Report:
    return asyncio.run(run_async(quick))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT, help=f"JSON output (default {DEFAULT_OUT})")
    parser.add_argument("--out", dest="out_option", type=Path, help="JSON output (as the positional argument)")
    parser.add_argument("--moves", type=int, help="key presses per kind of move (default 80, quick 4)")
    parser.add_argument("--size", default="160x50", help="terminal size (default 160x50)")
    parser.add_argument("--groups", help="site sizes in groups of 51 nodes, comma-separated (default 5,50,200)")
    parser.add_argument("--quick", action="store_true", help="one small site, 4 keys a kind: only proves it runs")
    args = parser.parse_args(argv)
    width, _, height = args.size.partition("x")
    groups = [int(g) for g in args.groups.split(",")] if args.groups else []
    print(f"Machine: {describe_machine()}\n", flush=True)
    report = asyncio.run(run_async(args.quick, args.moves, (int(width), int(height)), groups))
    report.finish()
    out = report.write(path=args.out_option or args.out)
    print(f"Written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
