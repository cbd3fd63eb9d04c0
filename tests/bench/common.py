"""What every benchmark shares: interleaved runs, medians and percentiles, ratios, targets, tables and JSON.

A benchmark is a module under ``tests/bench`` with ``run(quick: bool) -> Report`` (and a ``main`` that runs it
alone); ``tests/bench/run.py`` lists the modules. Each comparison runs its sides in the same process and the same
run, interleaved (A, B, A, B...), so load on the machine falls on both sides alike::

    samples = interleave({"folio": run_folio, "floor": run_floor}, rounds=15)
    report.add_table(Table("Start-up", ["side", "median ms"], [[name, median(s)] for name, s in samples.items()]))
    report.add_target("start-up vs bare Textual", ratio(samples["folio"], samples["floor"]), 1.3, unit="x")
    report.write()       # .cache/bench/<name>.json

Times are in milliseconds everywhere. Absolute times drift between machines; the ratios are what to compare.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from tests.bench.servers import BENCH_TOKEN, ROOT, folio_executable, largest_org, sandbox_server, server_process

__all__ = [
    "BENCH_TOKEN",
    "DEFAULT_DIR",
    "ROOT",
    "Report",
    "Table",
    "Target",
    "fmt",
    "folio_executable",
    "interleave",
    "interleave_async",
    "largest_org",
    "machine",
    "median",
    "percentile",
    "ratio",
    "sandbox_server",
    "server_process",
    "summarize",
]

DEFAULT_DIR = ROOT / ".cache" / "bench"
"""Where the figures go: one ``<benchmark>.json`` each, and ``all.json`` from the runner."""


def bytecode_as_installed() -> None:
    """Import Folio in this process as an installed wheel does: from compiled bytecode, kept under
    ``.cache/bench/pycache`` (``bench_startup`` does the same for its child processes). A checkout run with
    ``PYTHONDONTWRITEBYTECODE`` compiles every module from source at each import: a screen module first imported
    while a key is timed cost that key several milliseconds a user's install never pays."""
    sys.dont_write_bytecode = False
    sys.pycache_prefix = str(DEFAULT_DIR / "pycache")


bytecode_as_installed()  # (before any benchmark imports Folio)


# -- statistics ----------------------------------------------------------------------------------------------


def median(samples: Sequence[float]) -> float:
    return statistics.median(samples) if samples else float("nan")


def percentile(samples: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by nearest rank on the sorted samples; NaN when there are none."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[rank]


def summarize(samples: Sequence[float]) -> dict[str, Any]:
    """n, median (= p50), p95, min and max of a list of times, rounded to 0.01 ms."""
    if not samples:
        return {"n": 0, "median_ms": None, "p50_ms": None, "p95_ms": None, "min_ms": None, "max_ms": None}
    return {
        "n": len(samples),
        "median_ms": round(median(samples), 2),
        "p50_ms": round(percentile(samples, 50), 2),
        "p95_ms": round(percentile(samples, 95), 2),
        "min_ms": round(min(samples), 2),
        "max_ms": round(max(samples), 2),
    }


def ratio(a: Sequence[float] | float, b: Sequence[float] | float) -> float:
    """median(a) / median(b) (either may already be a single figure), rounded to 0.01."""
    top = a if isinstance(a, float | int) else median(a)
    bottom = b if isinstance(b, float | int) else median(b)
    if not bottom or bottom != bottom:
        return float("nan")
    return round(top / bottom, 2)


# -- interleaved runs ----------------------------------------------------------------------------------------


def interleave(
    sides: dict[str, Callable[[], float | None]],
    rounds: int,
    *,
    warmup: int = 1,
    collect: bool = True,
) -> dict[str, list[float]]:
    """Run every side once per round, in turn (A, B, A, B...), after ``warmup`` rounds that are not kept.

    A side returns the time it measured itself, in ms, or None to be timed from outside (call to return).
    With ``collect`` the garbage collector runs before each call, so no side pays for another's garbage.
    """
    samples: dict[str, list[float]] = {name: [] for name in sides}
    for n in range(warmup + rounds):
        for name, side in sides.items():
            if collect:
                gc.collect()
            t0 = time.perf_counter()
            measured = side()
            elapsed = (time.perf_counter() - t0) * 1000 if measured is None else measured
            if n >= warmup:
                samples[name].append(elapsed)
    return samples


async def interleave_async(
    sides: dict[str, Callable[[], Awaitable[float | None]]],
    rounds: int,
    *,
    warmup: int = 1,
    collect: bool = True,
) -> dict[str, list[float]]:
    """:func:`interleave` for sides that are coroutines (run on the caller's event loop)."""
    samples: dict[str, list[float]] = {name: [] for name in sides}
    for n in range(warmup + rounds):
        for name, side in sides.items():
            if collect:
                gc.collect()
            t0 = time.perf_counter()
            measured = await side()
            elapsed = (time.perf_counter() - t0) * 1000 if measured is None else measured
            if n >= warmup:
                samples[name].append(elapsed)
            await asyncio.sleep(0)
    return samples


# -- the machine ---------------------------------------------------------------------------------------------


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    if sys.platform == "darwin":
        try:
            out = subprocess.run(["sysctl", "-n", "machdep.cpu.brand_string"], capture_output=True, text=True)
            if out.stdout.strip():
                return out.stdout.strip()
        except OSError:
            pass
    return platform.processor() or platform.machine()


def _memory_gb() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return None


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def node_version() -> str | None:
    node = shutil.which("node")
    if node is None:
        return None
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


_MACHINE: dict[str, Any] | None = None


def machine() -> dict[str, Any]:
    """CPU model, cores (and how many this process may use), memory, OS, Python and the main libraries."""
    global _MACHINE
    if _MACHINE is None:
        usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        _MACHINE = {
            "cpu": _cpu_model(),
            "cores": os.cpu_count(),
            "usable_cores": usable,
            "memory_gb": _memory_gb(),
            "os": platform.platform(),
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "textual": _version("textual"),
            "httpx": _version("httpx"),
            "pydantic": _version("pydantic"),
            "node": node_version(),
        }
    return _MACHINE


def describe_machine() -> str:
    m = machine()
    cores = f"{m['cores']} cores" + (f" ({m['usable_cores']} usable)" if m["usable_cores"] != m["cores"] else "")
    memory = f", {m['memory_gb']} GB" if m["memory_gb"] else ""
    libs = f"textual {m['textual']}, httpx {m['httpx']}, pydantic {m['pydantic']}"
    node = f", node {m['node']}" if m["node"] else ", no node"
    return f"{m['cpu']}, {cores}{memory}; {m['os']}; {m['python']}; {libs}{node}"


# -- tables and reports --------------------------------------------------------------------------------------


def fmt(value: Any) -> str:
    """A cell: floats with 1-2 decimals by size, thousands separated; None as a dash."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value != value:
            return "—"
        if abs(value) >= 100:
            return f"{value:,.0f}"
        if abs(value) >= 10:
            return f"{value:.1f}"
        return f"{value:.2f}"
    return str(value)


@dataclass
class Table:
    """A printed table; ``rows`` hold raw values (formatted when printed, kept as numbers in the JSON)."""

    title: str
    columns: list[str]
    rows: list[list[Any]] = field(default_factory=list)
    note: str = ""

    def add(self, *cells: Any) -> None:
        self.rows.append(list(cells))

    def render(self) -> str:
        cells = [[fmt(c) for c in row] for row in self.rows]
        widths = [len(c) for c in self.columns]
        for row in cells:
            for i, c in enumerate(row):
                widths[i] = max(widths[i], len(c))

        def line(values: Iterable[str]) -> str:
            out = []
            for i, v in enumerate(values):
                # The first column reads as text (left), the others as figures (right).
                out.append(v.ljust(widths[i]) if i == 0 else v.rjust(widths[i]))
            return "  ".join(out).rstrip()

        rule = "  ".join("-" * w for w in widths)
        text = [self.title, line(self.columns), rule, *(line(r) for r in cells)]
        if self.note:
            text.append(self.note)
        return "\n".join(text)

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "columns": self.columns, "rows": self.rows, "note": self.note}


@dataclass
class Target:
    """A figure against its target: met when ``value <= limit`` (every target is an upper bound)."""

    name: str
    value: float | None
    limit: float
    unit: str = "ms"
    note: str = ""
    skipped: str = ""
    """Why the figure could not be measured in this run (then the target is neither met nor missed)."""

    @property
    def met(self) -> bool | None:
        if self.skipped or self.value is None or self.value != self.value:
            return None
        return self.value <= self.limit

    def verdict(self) -> str:
        met = self.met
        return "skipped" if met is None else ("met" if met else "MISSED")

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": self.value,
            "limit": self.limit,
            "unit": self.unit,
            "met": self.met,
            "note": self.note,
            "skipped": self.skipped,
        }


def targets_table(targets: Sequence[Target], title: str = "Targets") -> Table:
    table = Table(title, ["target", "figure", "limit", "verdict"])
    for t in targets:
        value = t.skipped if t.skipped else f"{fmt(t.value)} {t.unit}"
        table.add(t.name, value, f"<= {fmt(t.limit)} {t.unit}", t.verdict())
    return table


@dataclass
class Report:
    """What one benchmark found: its tables, its targets and any figures worth keeping, written as JSON."""

    name: str
    quick: bool = False
    tables: list[Table] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)

    def add_table(self, table: Table, *, show: bool = True) -> Table:
        self.tables.append(table)
        if show:
            print(table.render(), end="\n\n", flush=True)
        return table

    def add_target(
        self, name: str, value: float | None, limit: float, *, unit: str = "ms", note: str = "", skipped: str = ""
    ) -> Target:
        target = Target(name, value, limit, unit, note, skipped)
        self.targets.append(target)
        return target

    def note(self, text: str) -> None:
        self.notes.append(text)
        print(text, flush=True)

    def finish(self) -> None:
        """Print the targets (when there are any) and how long the benchmark took."""
        if self.targets:
            print(targets_table(self.targets, f"Targets: {self.name}").render(), end="\n\n")
        print(f"[{self.name}: {time.perf_counter() - self.started:.1f} s]", end="\n\n", flush=True)

    def to_json(self) -> dict[str, Any]:
        return {
            "benchmark": self.name,
            "quick": self.quick,
            "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "seconds": round(time.perf_counter() - self.started, 1),
            "machine": machine(),
            "targets": [t.to_json() for t in self.targets],
            "tables": [t.to_json() for t in self.tables],
            "figures": self.figures,
            "notes": self.notes,
        }

    def write(self, folder: Path | None = None, path: Path | None = None) -> Path:
        out = path or (folder or DEFAULT_DIR) / f"{self.name}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(self.to_json(), indent=2, default=str) + "\n")
        return out


def standalone(name: str, run: Callable[[bool], Report], argv: Sequence[str] | None = None) -> int:
    """The ``main`` of a benchmark module: ``python -m tests.bench.bench_x [--quick] [--out FILE]``."""
    import argparse

    parser = argparse.ArgumentParser(prog=f"python -m tests.bench.bench_{name}")
    parser.add_argument("--quick", action="store_true", help="tiny sizes, 1-2 repetitions: only proves it runs")
    parser.add_argument("--out", type=Path, help=f"JSON output (default {DEFAULT_DIR}/{name}.json)")
    args = parser.parse_args(argv)
    print(f"Machine: {describe_machine()}\n", flush=True)
    report = run(args.quick)
    report.finish()
    out = report.write(path=args.out)
    print(f"Written to {out}")
    return 0
