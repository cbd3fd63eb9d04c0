"""Start-up: ``folio --demo`` against a bare Textual app, both on a pseudo-terminal, and the import time of each layer.

    python -m tests.bench.bench_startup [--quick] [--out FILE]

Each side is a fresh process on its own pseudo-terminal (120x40, ``TERM=xterm-256color``, ``FOLIO_HOME`` a new
empty folder each run: a first start, with no saved session to restore and nothing cached). The time is from just
before the process is started to the first output that holds a string only the wanted frame shows: the demo
organization's title for Folio (its first frame with the organization list, after the list was loaded), the one
Static's text for ``tests/bench/bare_app.py``. Runs alternate (Folio, Folio on a server, bare...) after one
warm-up run of each. Target: ``folio --demo`` at most 1.3x the bare app. The third side, ``folio --base-url``
against ``folio sandbox serve`` on 127.0.0.1, is the path of a real account (no sandbox in the process), with the
same target. The fourth, a second start: ``folio --demo`` with a ``FOLIO_HOME`` that a first start used and left
with ``q`` (its session saved, its cache written), what a user meets every day; target 1.3x the bare app too, and
quicker than a first start (warm / cold < 1). A second start paints the organization list from the cache before
the HTTP client, pydantic and the models are imported (``folio.services.first_paint``); the demo does it from its
last run's answers too (its new sandbox is seeded the same), and forgets them when that sandbox is first asked. A
first start has nothing cached: the list is asked at process start while Textual is imported (``Prefetch``: with
``http.client`` for ``--base-url``; for ``--demo`` from a sandbox seeded the same in a child process, on the other
core), and painted the same way.
The fifth side, ``folio --base-url`` started again with the FOLIO_HOME of a first start that quit, is a real
account's second start.

Import times are taken in fresh processes too (``perf_counter`` around one ``import`` statement), layer by layer,
interleaved; then ``folio --demo`` is run with ``-X importtime``, a first start and a second start, to see which
packages each imports before its first frame, and how long they take (with the profiler's overhead: read the
shares, not the absolute times).

Bytecode: the children write and read ``.pyc`` files under ``.cache/bench/pycache`` (``PYTHONPYCACHEPREFIX``), so
a checkout run with ``PYTHONDONTWRITEBYTECODE`` is timed like an installed wheel, not compiled at every start.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from tests.bench.common import (
    BENCH_TOKEN,
    DEFAULT_DIR,
    ROOT,
    Report,
    Table,
    folio_executable,
    interleave,
    median,
    ratio,
    sandbox_server,
    standalone,
    summarize,
)

NAME = "startup"
TARGET_RATIO = 1.3
SIZE = (120, 40)
TIMEOUT = 30.0
BARE_APP = Path(__file__).with_name("bare_app.py")
DEMO, SERVED, BARE = "folio --demo", "folio --base-url <local server>", "bare Textual app"
WARM = "folio --demo, second start (same FOLIO_HOME)"
SERVED_WARM = "folio --base-url, second start (same FOLIO_HOME)"
BARE_APP_MARKER = "Bare Textual app: first frame"
"""Kept equal to ``bare_app.MARKER`` (not imported: that would import Textual into the measuring process)."""
LAYERS: dict[str, str] = {
    "python -c pass": "pass",
    "folio.models (package)": "import folio.models",
    "folio.models.* (every model)": "import folio.models.{modules}",
    "folio.api": "import folio.api",
    "folio.services": "import folio.services",
    "folio.sandbox": "import folio.sandbox",
    "folio.tui.app": "import folio.tui.app",
    "folio.cli": "import folio.cli",
    "textual.app (the floor)": "import textual.app",
    "what --demo imports up front": "import folio.cli, folio.sandbox, folio.services, folio.tui.app",
}
IMPORT_LINE = re.compile(rb"import time:\s+(\d+)\s*\|\s*(\d+)\s*\|( *)([\w.]+)")


def demo_marker() -> str:
    """The title of the sandbox's demo organization: shown only once the organization list is on screen."""
    from folio.sandbox.seed import populate
    from folio.sandbox.state import SandboxState

    state = populate(SandboxState(seed=7))
    return str(state.orgs[state.demo_org]["title"])


def child_env(home: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "FOLIO_"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(
        TERM="xterm-256color",
        COLORTERM="truecolor",
        FOLIO_HOME=home,
        PYTHONPYCACHEPREFIX=str(DEFAULT_DIR / "pycache"),
    )
    return env


def first_frame(argv: Sequence[str], marker: str, env: dict[str, str]) -> tuple[float, bytes]:
    """Start ``argv`` on a new pseudo-terminal; ms from start until its output holds ``marker``, and the output.
    The process (its whole session) is killed then: quitting is not part of start-up."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
    needle = marker.encode()
    output = bytearray()
    found: float | None = None
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        list(argv), stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, close_fds=True
    )
    os.close(slave)
    try:
        while time.perf_counter() - t0 < TIMEOUT:
            ready, _, _ = select.select([master], [], [], 0.2)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            start = max(0, len(output) - len(needle))
            output += chunk
            if needle in output[start:]:
                found = time.perf_counter()
                break
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        os.close(master)
    if found is None:
        tail = re.sub(rb"\x1b\[[0-9;?$>]*[a-zA-Z]", b"", bytes(output[-2000:])).decode(errors="replace")
        raise RuntimeError(f"{' '.join(argv)}: {marker!r} never appeared within {TIMEOUT:.0f} s; output ended: {tail}")
    return (found - t0) * 1000, bytes(output)


def leave(argv: Sequence[str], marker: str, env: dict[str, str]) -> None:
    """Start ``argv`` on a pseudo-terminal, wait for ``marker`` and for the screen to settle, then press ``q`` and
    wait for the process to end: a start that leaves its FOLIO_HOME as a user's quit does (session, cache)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
    proc = subprocess.Popen(
        list(argv), stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, close_fds=True
    )
    os.close(slave)
    output = bytearray()
    t0 = time.perf_counter()
    quit_at: float | None = None
    try:
        while time.perf_counter() - t0 < TIMEOUT and proc.poll() is None:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 1 << 16)
                except OSError:
                    break
                output += chunk
            if quit_at is None and marker.encode() in output:
                quit_at = time.perf_counter() + 2.0  # the organization list's load and its cache writes end
            if quit_at is not None and time.perf_counter() > quit_at:
                os.write(master, b"q")
                quit_at = float("inf")
        proc.wait(10)
    finally:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(master)
    if quit_at != float("inf") or proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: the priming start did not quit with q (status {proc.returncode})")


def import_ms(statement: str, env: dict[str, str], walls: list[float] | None = None) -> float:
    """ms spent in ``statement`` in a fresh interpreter; the whole process's wall time is added to ``walls``."""
    code = f"import time; t = time.perf_counter(); {statement}; print((time.perf_counter() - t) * 1000)"
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    if walls is not None:
        walls.append((time.perf_counter() - t0) * 1000)
    if out.returncode != 0:
        raise RuntimeError(f"{statement}: {out.stderr.strip()[-500:]}")
    return float(out.stdout.strip().splitlines()[-1])


def importer(statement: str, env: dict[str, str], walls: list[float]) -> Callable[[], float]:
    return lambda: import_ms(statement, env, walls)


def model_modules() -> str:
    folder = ROOT / "src" / "folio" / "models"
    names = sorted(p.stem for p in folder.glob("*.py") if p.stem != "__init__")
    return ", folio.models.".join(names)


def group_of(module: str) -> str:
    parts = module.split(".")
    if parts[0] == "folio" and len(parts) > 1:
        return ".".join(parts[:2])
    return parts[0]


def import_profile(output: bytes) -> tuple[list[tuple[str, float, int]], float, list[tuple[str, float]]]:
    """From ``-X importtime`` lines: self time per package group (ms, modules), the total, and the top-level
    imports by cumulative time."""
    groups: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    top: list[tuple[str, float]] = []
    total = 0.0
    for self_us, cumulative_us, indent, name in IMPORT_LINE.findall(output):
        module = name.decode()
        group = group_of(module)
        groups[group] += int(self_us) / 1000
        counts[group] += 1
        total += int(self_us) / 1000
        if len(indent) <= 1:
            top.append((module, int(cumulative_us) / 1000))
    ordered = sorted(((g, round(ms, 1), counts[g]) for g, ms in groups.items()), key=lambda x: -x[1])
    return ordered, round(total, 1), sorted(top, key=lambda x: -x[1])


def run(quick: bool) -> Report:
    report = Report(NAME, quick=quick)
    rounds = 1 if quick else 15
    import_rounds = 1 if quick else 5
    marker = demo_marker()
    with tempfile.TemporaryDirectory(prefix="folio-bench-") as homes, sandbox_server(0) as url:
        env = child_env(tempfile.mkdtemp(dir=homes))
        folio = [*folio_executable(), "--demo"]
        served = [*folio_executable(), "--base-url", url, "--token", BENCH_TOKEN]
        bare = [sys.executable, str(BARE_APP)]

        def side(argv: list[str], text: str) -> Callable[[], float]:
            def once() -> float:
                # A new FOLIO_HOME each run: a first start (no saved session to restore, nothing cached).
                return first_frame(argv, text, child_env(tempfile.mkdtemp(dir=homes)))[0]

            return once

        # The second start's FOLIO_HOME: one first start that quit with q. Every warm run starts from it again
        # (a run killed at its first frame leaves it as it found it, but for its own cache reads).
        warm_home = tempfile.mkdtemp(dir=homes)
        leave(folio, marker, child_env(warm_home))

        served_home = tempfile.mkdtemp(dir=homes)
        leave(served, marker, child_env(served_home))

        def warm() -> float:
            return first_frame(folio, marker, child_env(warm_home))[0]

        def served_warm() -> float:
            return first_frame(served, marker, child_env(served_home))[0]

        samples = interleave(
            {
                DEMO: side(folio, marker),
                WARM: warm,
                SERVED: side(served, marker),
                SERVED_WARM: served_warm,
                BARE: side(bare, BARE_APP_MARKER),
            },
            rounds,
            warmup=1,
            collect=False,
        )
        folio_ms, served_ms, bare_ms, warm_ms = samples[DEMO], samples[SERVED], samples[BARE], samples[WARM]
        first = Table(
            "Start-up: process start to the first frame that shows the organization list (pseudo-terminal "
            f"{SIZE[0]}x{SIZE[1]}; a new FOLIO_HOME each run but the second start's)",
            ["side", "median ms", "p95 ms", "min ms", "runs", "vs bare", "vs first start"],
            note=f"{SERVED}: the real API path (no sandbox in the process) against `folio sandbox serve` on "
            "127.0.0.1; vs first start: against the first side, folio --demo with a new FOLIO_HOME",
        )
        for name, values in samples.items():
            stats = summarize(values)
            vs_bare, vs_first = ratio(values, bare_ms), ratio(values, folio_ms)
            first.add(name, stats["median_ms"], stats["p95_ms"], stats["min_ms"], stats["n"], vs_bare, vs_first)
        report.add_table(first)
        startup_ratio = ratio(folio_ms, bare_ms)
        report.figures["first_frame"] = {name: summarize(values) for name, values in samples.items()}
        report.figures["first_frame"]["ratio"] = startup_ratio
        report.figures["first_frame"]["ratio_served"] = ratio(served_ms, bare_ms)
        report.figures["first_frame"]["ratio_warm"] = ratio(warm_ms, bare_ms)
        report.figures["first_frame"]["warm_vs_cold"] = ratio(warm_ms, folio_ms)
        report.figures["first_frame"]["served_warm_vs_cold"] = ratio(samples[SERVED_WARM], served_ms)
        report.figures["first_frame"]["marker"] = marker
        report.add_target(
            "start-up: folio --demo vs bare Textual app",
            startup_ratio,
            TARGET_RATIO,
            unit="x",
            note=f"{median(folio_ms):.0f} ms vs {median(bare_ms):.0f} ms",
        )
        report.add_target(
            "start-up, second start (same FOLIO_HOME) vs bare Textual app",
            ratio(warm_ms, bare_ms),
            TARGET_RATIO,
            unit="x",
            note=f"{median(warm_ms):.0f} ms vs {median(bare_ms):.0f} ms",
        )
        report.add_target(
            "start-up, second start vs first start (quicker)",
            ratio(warm_ms, folio_ms),
            0.99,
            unit="x",
            note=f"{median(warm_ms):.0f} ms vs {median(folio_ms):.0f} ms",
        )
        report.add_target(
            "start-up, --base-url second start vs its first start (quicker)",
            ratio(samples[SERVED_WARM], served_ms),
            0.99,
            unit="x",
            note=f"{median(samples[SERVED_WARM]):.0f} ms vs {median(served_ms):.0f} ms",
        )
        report.add_target(
            "start-up: folio --base-url vs bare Textual app",
            ratio(served_ms, bare_ms),
            TARGET_RATIO,
            unit="x",
            note=f"{median(served_ms):.0f} ms vs {median(bare_ms):.0f} ms",
        )

        statements = {name: s.replace("{modules}", model_modules()) for name, s in LAYERS.items()}
        walls: dict[str, list[float]] = {name: [] for name in statements}
        layer_samples = interleave(
            {name: importer(statement, env, walls[name]) for name, statement in statements.items()},
            import_rounds,
            warmup=0 if quick else 1,
            collect=False,
        )
        floor = layer_samples["textual.app (the floor)"]
        layers = Table(
            "Import time of each layer, fresh process each (includes what the layer imports)",
            ["import", "median ms", "min ms", "runs", "vs textual.app", "process ms"],
            note="process ms: the whole `python -c` run, interpreter start and exit included (median)",
        )
        for name, values in layer_samples.items():
            stats = summarize(values)
            process = median(walls[name][-len(values) :])
            layers.add(name, stats["median_ms"], stats["min_ms"], stats["n"], ratio(values, floor), process)
        report.add_table(layers)
        report.figures["imports"] = {
            name: {**summarize(values), "process_median_ms": round(median(walls[name][-len(values) :]), 2)}
            for name, values in layer_samples.items()
        }

        # Which packages `folio --demo` imports before its first frame, with -X importtime (one run of each start).
        _, output = first_frame(folio, marker, dict(env, PYTHONPROFILEIMPORTTIME="1"))
        groups, total, top = import_profile(output)
        profile = Table(
            "What folio --demo imports before its first frame (-X importtime, self time by package; "
            "the profiler adds overhead: read the shares)",
            ["package", "self ms", "share %", "modules"],
            note=f"total {total:.0f} ms of imports in {sum(c for _, _, c in groups)} modules",
        )
        for group, ms, count in groups[: 6 if quick else 16]:
            profile.add(group, ms, round(100 * ms / total, 1) if total else None, count)
        report.add_table(profile)
        report.figures["demo_imports"] = {
            "total_ms": total,
            "groups": [{"package": g, "self_ms": ms, "modules": c} for g, ms, c in groups],
            "top_level_cumulative_ms": [{"module": m, "ms": ms} for m, ms in top[:25]],
        }
        _, output = first_frame(folio, marker, dict(child_env(warm_home), PYTHONPROFILEIMPORTTIME="1"))
        warm_groups, warm_total, _ = import_profile(output)
        warm_profile = Table(
            "What a second start of folio --demo imports before its first frame (painted from the cache; "
            "-X importtime, self time by package)",
            ["package", "self ms", "share %", "modules"],
            note=f"total {warm_total:.0f} ms of imports in {sum(c for _, _, c in warm_groups)} modules",
        )
        for group, ms, count in warm_groups[: 6 if quick else 16]:
            warm_profile.add(group, ms, round(100 * ms / warm_total, 1) if warm_total else None, count)
        report.add_table(warm_profile)
        report.figures["demo_second_start_imports"] = {
            "total_ms": warm_total,
            "groups": [{"package": g, "self_ms": ms, "modules": c} for g, ms, c in warm_groups],
        }
        heavy = Table(
            "Largest top-level imports of folio --demo before its first frame (cumulative, -X importtime)",
            ["module", "cumulative ms"],
        )
        for module, ms in top[: 5 if quick else 12]:
            heavy.add(module, ms)
        report.add_table(heavy)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    return standalone(NAME, run, argv)


if __name__ == "__main__":
    sys.exit(main())
