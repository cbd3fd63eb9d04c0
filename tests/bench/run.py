"""Run every benchmark, print every table, and write ``.cache/bench/all.json``.

    python -m tests.bench.run [--quick] [--only NAME[,NAME...]] [--out FOLDER]

Each benchmark runs in a process of its own (``python -m <module> [--quick] --out FOLDER/<name>.json``), one
after the other, so none inherits another's heap or garbage; its tables print as it goes. ``all.json`` gathers
the machine, every benchmark's JSON and every target; the run ends with the table of targets, met or missed.

``--quick`` runs tiny sizes with one or two repetitions: it proves each benchmark still runs (CI runs it), its
times mean nothing. The exit status is 1 when a benchmark failed to run; a missed target is reported, not failed.

Adding a benchmark: a module ``tests/bench/bench_<name>.py`` with ``run(quick: bool) -> common.Report`` and a
``main(argv)`` that accepts ``--quick`` and ``--out FILE`` (``common.standalone`` does it), then one line in
:data:`BENCHMARKS` below.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.bench.common import DEFAULT_DIR, ROOT, Target, describe_machine, machine, targets_table

BENCHMARKS: dict[str, str] = {
    "startup": "tests.bench.bench_startup",
    "paging": "tests.bench.bench_paging",
    "lists": "tests.bench.bench_lists",
    "structure": "tests.bench.bench_structure",
    "memory": "tests.bench.bench_memory",
    "cache": "tests.bench.bench_cache",
    "large_org": "tests.bench.bench_large_org",
    "diff": "tests.bench.bench_diff",
}
"""name -> module, in the order they run. A module that is not there is reported as skipped."""


def run_one(name: str, module: str, quick: bool, folder: Path) -> tuple[dict[str, Any] | None, float]:
    if importlib.util.find_spec(module) is None:
        print(f"=== {name}: {module} is not there; skipped", flush=True)
        return {"benchmark": name, "skipped": f"{module} is not there", "targets": []}, 0.0
    out = folder / f"{name}.json"
    out.unlink(missing_ok=True)
    command = [sys.executable, "-m", module, "--out", str(out), *(["--quick"] if quick else [])]
    print(f"=== {name} ({module})", flush=True)
    t0 = time.perf_counter()
    finished = subprocess.run(command, cwd=ROOT, check=False)
    seconds = time.perf_counter() - t0
    if finished.returncode != 0 or not out.exists():
        print(f"=== {name} FAILED (exit status {finished.returncode})", flush=True)
        return None, seconds
    result: dict[str, Any] = json.loads(out.read_text())
    return result, seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.run", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, 1-2 repetitions: only proves each runs")
    parser.add_argument("--only", help=f"comma-separated names among: {', '.join(BENCHMARKS)}")
    parser.add_argument("--out", type=Path, default=DEFAULT_DIR, help=f"folder for the JSON (default {DEFAULT_DIR})")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.only.split(",")] if args.only else list(BENCHMARKS)
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)}; choose among {', '.join(BENCHMARKS)}")
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"Machine: {describe_machine()}", flush=True)
    print(f"Mode: {'quick (only proves each benchmark runs; the times mean nothing)' if args.quick else 'full'}\n")

    started = time.perf_counter()
    results: dict[str, Any] = {}
    failed: list[str] = []
    seconds: dict[str, float] = {}
    for name in names:
        result, took = run_one(name, BENCHMARKS[name], args.quick, args.out)
        seconds[name] = round(took, 1)
        if result is None:
            failed.append(name)
        else:
            results[name] = result

    targets = [
        Target(t["name"], t["value"], t["limit"], t["unit"], t.get("note", ""), t.get("skipped", ""))
        for result in results.values()
        for t in result.get("targets", [])
    ]
    total = time.perf_counter() - started
    everything = {
        "machine": machine(),
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "quick": args.quick,
        "seconds": round(total, 1),
        "seconds_per_benchmark": seconds,
        "failed": failed,
        "targets": [t.to_json() for t in targets],
        "benchmarks": results,
    }
    path = args.out / "all.json"
    path.write_text(json.dumps(everything, indent=2, default=str) + "\n")

    print(f"Machine: {describe_machine()}")
    if targets:
        title = "All targets" + (" (quick mode: the verdicts mean nothing)" if args.quick else "")
        print(targets_table(targets, title).render())
    met = sum(t.met is True for t in targets)
    missed = sum(t.met is False for t in targets)
    print(f"\n{met} met, {missed} missed, {len(targets) - met - missed} skipped; {len(results)} benchmarks ran", end="")
    print(f" in {total:.0f} s; written to {path}")
    if failed:
        print(f"FAILED to run: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
