"""Lists: the product's virtual list and pages tree against Textual's DataTable, at three sizes each.

    python -m tests.bench.bench_lists [--quick] [--out FILE]

Headless (120x40), in one app per size:

- mount: from creating the widget to the first frame that shows its rows (mounted, filled with rows already built,
  laid out and drawn), for ``ResourceBrowser`` (``folio.tui.widgets.resource_list``, five columns like the spaces
  tab) and for ``DataTable`` with the same cells, interleaved round by round; building the ``Row`` objects is
  timed apart ("build");
- keys: from the key event reaching the app to the next frame, p50 and p95, for ``down``, ``pagedown`` and
  ``end`` (``ctrl+end`` on the DataTable, whose ``end`` scrolls sideways), with the cursor brought back to the
  top, unmeasured, whenever it reaches the bottom;
- the pages tree (``folio.tui.widgets.page_tree.PageTree``) over a generated tree of pages three levels deep, at
  250, 2,500 and 25,000 pages, timed the same way;
- the floor of a key: a line-API list of as many rows whose lines cost nothing (one ``Strip`` a line, made once),
  moved and scrolled as the virtual list is, drawn by Textual's own path (its styles cache, its scrollbar): what
  Textual takes to put a screen of new lines up, on this machine, under this load.

Each key also gives the CPU time the process spent from the key to the frame: the wall time holds, besides, the
wait for Textual's next screen update (at most 60 a second, on a fixed beat) and the time other processes had the
CPU, which the code measured does not move.

Targets: the virtual list mounts in under 50 ms and answers each key within one frame at 60 Hz, 16.7 ms (p95), at
100,000 rows, ``pagedown`` and ``end`` at each of the three sizes; the pages tree does the same at 2,500 pages.
DataTable is the reference: what a list that draws every row costs. Lists of 1,000 rows and more are settled by
``folio.tui.collector`` after their first frame (collected once, then frozen), as in the product.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Header, Static

from folio.models.common import Page
from folio.services.content.space import PageEntry, flatten_pages
from folio.tui.screens.content.organization_lists import SPACE_COLUMNS
from folio.tui.widgets.page_tree import PageTree
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Row
from tests.bench.common import Report, Table, median, percentile, standalone, summarize
from tests.bench.frames import FrameClock

NAME = "lists"
SIZE = (120, 40)
MOUNT_TARGET_MS = 50.0
KEY_TARGET_MS = 16.7
"""One frame at 60 Hz."""
KEYS = ("down", "pagedown", "end")
COLUMNS = SPACE_COLUMNS
"""The spaces tab's columns: the list is timed as the product shows it."""
VISIBILITY = ("private", "public", "unlisted", "share-link", "in-collection")
VIRTUAL, TABLE, TREE, FLOOR = "ResourceBrowser", "DataTable", "PageTree", "Static (the floor)"
KEY_FLOOR = "Line API (the floor)"


def cells(n: int) -> tuple[str, str, str, str, str]:
    return (
        f"Generated space {n:06d}",
        VISIBILITY[n % len(VISIBILITY)],
        f"Collection {n % 40:02d}",
        f"{n % 300}d ago",
        str(n % 7),
    )


def build_rows(size: int) -> list[Row]:
    return [Row(f"space-{n}", cells(n)) for n in range(size)]


def build_pages(size: int) -> list[PageEntry]:
    """A tree of ``size`` pages: chapters of 4 sections of 4 pages (21 pages a chapter), some of them groups."""
    roots: list[Page] = []
    made = 0
    chapter = 0
    while made < size:
        chapter += 1
        sections = []
        made += 1
        for s in range(4):
            if made >= size:
                break
            leaves = []
            made += 1
            for p in range(4):
                if made >= size:
                    break
                made += 1
                leaves.append(
                    Page(
                        id=f"p{chapter}-{s}-{p}", title=f"Page {chapter}.{s + 1}.{p + 1}", path=f"c{chapter}/s{s}/p{p}"
                    )
                )
            sections.append(Page(id=f"s{chapter}-{s}", title=f"Section {chapter}.{s + 1}", pages=leaves))
        roots.append(Page(id=f"c{chapter}", title=f"Chapter {chapter}", type="group", pages=sections))
    return flatten_pages(roots)


class Host(App[None]):
    """An empty screen with a header and a footer; the widget under test is mounted in the middle."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Vertical(id="slot")
        yield Footer()


@dataclass
class Kind:
    """How to mount, fill and drive one kind of list."""

    name: str
    make: Callable[[], Widget]
    fill: Callable[[Widget], None]
    focus: Callable[[Widget], object]
    cursor: Callable[[Widget], int]
    keys: dict[str, str]
    reset: str
    mount_ms: list[float] = field(default_factory=list)
    key_ms: dict[str, list[float]] = field(default_factory=dict)
    key_cpu: dict[str, list[float]] = field(default_factory=dict)


def virtual_kind(rows: list[Row]) -> Kind:
    def fill(widget: Widget) -> None:
        assert isinstance(widget, ResourceBrowser)
        widget.set_rows(rows)

    return Kind(
        VIRTUAL,
        lambda: ResourceBrowser(COLUMNS),
        fill,
        lambda w: w.focus_list() if isinstance(w, ResourceBrowser) else None,
        lambda w: w.list.cursor if isinstance(w, ResourceBrowser) else 0,
        {"down": "down", "pagedown": "pagedown", "end": "end"},
        "home",
    )


def tree_kind(entries: list[PageEntry]) -> Kind:
    def fill(widget: Widget) -> None:
        assert isinstance(widget, PageTree)
        widget.set_pages(entries)

    return Kind(
        TREE,
        PageTree,
        fill,
        lambda w: w.focus_list() if isinstance(w, PageTree) else None,
        lambda w: w.list.cursor if isinstance(w, PageTree) else 0,
        {"down": "down", "pagedown": "pagedown", "end": "end"},
        "home",
    )


def table_kind(rows: Sequence[tuple[str, ...]]) -> Kind:
    def make() -> Widget:
        return DataTable(cursor_type="row", zebra_stripes=True)

    def fill(widget: Widget) -> None:
        assert isinstance(widget, DataTable)
        for column in COLUMNS:
            widget.add_column(column.label, key=column.key, width=column.width)
        widget.add_rows(rows)

    return Kind(
        TABLE,
        make,
        fill,
        lambda w: w.focus(),
        lambda w: w.cursor_row if isinstance(w, DataTable) else 0,
        {"down": "down", "pagedown": "pagedown", "end": "ctrl+end"},
        "ctrl+home",
    )


async def measure(kinds: Sequence[Kind], size: int, rounds: dict[str, int], presses: dict[str, int]) -> None:
    """Mount each kind ``rounds[kind]`` times, interleaved; after its first mount, time ``presses[kind]`` of each
    key."""
    app = Host()
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        clock = FrameClock(app)
        slot = app.query_one("#slot")
        for n in range(max(rounds.values())):
            for kind in kinds:
                if n >= rounds[kind.name]:
                    continue
                await pilot.pause()
                gc.collect()
                clock.frames.clear()
                t0 = time.perf_counter()
                widget = kind.make()
                await slot.mount(widget)
                kind.fill(widget)
                kind.mount_ms.append(await clock.after(t0, clear=True))
                if n == 0:
                    await keys(clock, pilot, kind, widget, size, presses.get(kind.name, 0))
                await widget.remove()
        clock.restore()


class FloorList(ScrollView, can_focus=True):
    """The floor of a key: ``size`` rows whose lines are made once and cost nothing after, a cursor moved and
    scrolled as :class:`ResourceList` moves it (two lines repainted, or the screen when it scrolls), drawn by
    Textual's own path."""

    DEFAULT_CSS = "FloorList { height: 1fr; overflow-x: hidden; }"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "move(1)"),
        Binding("pagedown", "page"),
        Binding("end", "move(1_000_000_000)"),
        Binding("home", "move(-1_000_000_000)"),
    ]

    def __init__(self, size: int) -> None:
        super().__init__()
        self.rows = size
        self.cursor = 0
        self._lines: dict[tuple[int, bool, int], Strip] = {}

    def on_resize(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, self.rows)

    def action_page(self) -> None:
        self.action_move(max(1, self.scrollable_content_region.height - 1))

    def action_move(self, step: int) -> None:
        old, self.cursor = self.cursor, max(0, min(self.rows - 1, self.cursor + step))
        height, top = self.scrollable_content_region.height, round(self.scroll_y)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)
        self.refresh_line(old)
        self.refresh_line(self.cursor)

    def render_line(self, y: int) -> Strip:
        row = round(self.scroll_y) + y
        width = self.scrollable_content_region.width
        key = (row % 64, row == self.cursor, width)  # 64 lines made once, reused: drawing costs nothing
        line = self._lines.get(key)
        if line is None:
            text = "  ".join(cells(row % 64)).ljust(width)[:width]
            line = self._lines[key] = Strip([Segment(text, self.rich_style)], width)
        return line


def key_floor_kind(size: int) -> Kind:
    return Kind(
        KEY_FLOOR,
        lambda: FloorList(size),
        lambda w: None,
        lambda w: w.focus(),
        lambda w: w.cursor if isinstance(w, FloorList) else 0,
        {"down": "down", "pagedown": "pagedown", "end": "end"},
        "home",
    )


def floor_kind() -> Kind:
    """A one-line Static: what mounting anything and drawing the next frame costs in this app."""
    return Kind(FLOOR, lambda: Static("One line of text"), lambda w: None, lambda w: None, lambda w: 0, {}, "")


async def keys(clock: FrameClock, pilot: Any, kind: Kind, widget: Widget, size: int, presses: int) -> None:
    if not kind.keys:
        return
    kind.focus(widget)
    await pilot.pause()
    for name in KEYS:
        key = kind.keys[name]
        samples = kind.key_ms.setdefault(name, [])
        cpu = kind.key_cpu.setdefault(name, [])
        await clock.press(pilot, kind.reset)
        for _ in range(presses):
            if kind.cursor(widget) >= size - 1:
                await clock.press(pilot, kind.reset)
            samples.append(await clock.press(pilot, key))
            cpu.append(clock.cpu[-1])
            if name == "end":
                await clock.press(pilot, kind.reset)


def key_cells(kind: Kind, cpu: bool = False) -> list[Any]:
    out: list[Any] = []
    for name in KEYS:
        samples = (kind.key_cpu if cpu else kind.key_ms).get(name, [])
        out += [percentile(samples, 50), percentile(samples, 95)]
    return out


async def run_async(quick: bool) -> Report:
    report = Report(NAME, quick=quick)
    list_sizes = [100, 1_000] if quick else [1_000, 10_000, 100_000]
    tree_sizes = [100, 500] if quick else [250, 2_500, 25_000]
    presses = {VIRTUAL: 3, TABLE: 3, TREE: 3, KEY_FLOOR: 3}
    if not quick:
        presses = {VIRTUAL: 40, TABLE: 20, TREE: 40, KEY_FLOOR: 40}
    key_columns = [f"{k} {p}" for k in KEYS for p in ("p50", "p95")]
    lists = Table(
        "Virtual list (ResourceBrowser) and DataTable: mount to first frame with rows, key to next frame (ms)",
        ["list", "rows", "build", "mount", *key_columns, "mounts"],
        note="build: making the Row objects (DataTable gets plain tuples); mount: median of the mounts; the "
        "Static row is the floor of mount-to-frame in this app, the line API row the floor of a key",
    )
    cpu = Table(
        "CPU of this process from the key to the next frame (ms): what the key cost, without the waits",
        ["list", "rows", *key_columns],
        note="the wall times above hold this plus the wait for Textual's next screen update (a fixed 60 Hz beat) "
        "and the time other processes had the CPU",
    )
    figures: dict[str, Any] = {}
    for size in list_sizes:
        t0 = time.perf_counter()
        rows = build_rows(size)
        build_ms = (time.perf_counter() - t0) * 1000
        tuples = [cells(n) for n in range(size)]
        kinds = [virtual_kind(rows), key_floor_kind(size), table_kind(tuples)]
        rounds = {
            VIRTUAL: 1 if quick else 5,
            KEY_FLOOR: 1,
            TABLE: 1 if quick or size >= 100_000 else (3 if size >= 10_000 else 5),
        }
        if size == list_sizes[0]:
            kinds.append(floor_kind())
            rounds[FLOOR] = rounds[VIRTUAL]
        await measure(kinds, size, rounds, presses)
        for kind in kinds:
            lists.add(
                kind.name,
                size if kind.name != FLOOR else None,
                build_ms if kind.name == VIRTUAL else None,
                median(kind.mount_ms),
                *key_cells(kind),
                len(kind.mount_ms),
            )
            figures.setdefault(kind.name, {})[str(size) if kind.name != FLOOR else "1"] = {
                "mount": summarize(kind.mount_ms),
                "keys": {name: summarize(kind.key_ms.get(name, [])) for name in KEYS},
                "keys_cpu": {name: summarize(kind.key_cpu.get(name, [])) for name in KEYS},
                **({"build_rows_ms": round(build_ms, 2)} if kind.name == VIRTUAL else {}),
            }
            if kind.key_cpu:
                cpu.add(kind.name, size, *key_cells(kind, cpu=True))
        del rows, tuples, kinds
        gc.collect()
    report.add_table(lists)

    trees = Table(
        "Pages tree (PageTree): mount to first frame with pages, key to next frame (ms)",
        ["tree", "pages", "build", "mount", *key_columns, "mounts"],
        note="build: the Page models and the flattened entries; mount: median of the mounts",
    )
    for size in tree_sizes:
        t0 = time.perf_counter()
        entries = build_pages(size)
        build_ms = (time.perf_counter() - t0) * 1000
        kind = tree_kind(entries)
        await measure([kind], size, {TREE: 1 if quick else 5}, presses)
        trees.add(kind.name, len(entries), build_ms, median(kind.mount_ms), *key_cells(kind), len(kind.mount_ms))
        cpu.add(kind.name, len(entries), *key_cells(kind, cpu=True))
        figures.setdefault(TREE, {})[str(size)] = {
            "mount": summarize(kind.mount_ms),
            "keys": {name: summarize(kind.key_ms.get(name, [])) for name in KEYS},
            "keys_cpu": {name: summarize(kind.key_cpu.get(name, [])) for name in KEYS},
            "build_pages_ms": round(build_ms, 2),
        }
        del entries, kind
        gc.collect()
    report.add_table(trees)
    report.add_table(cpu)
    report.figures = figures

    growth = Table("How list cost grows (median mount ms, p95 pagedown ms)", ["list", "size", "mount", "pagedown p95"])
    for name in (VIRTUAL, TABLE, TREE):
        for size, data in figures.get(name, {}).items():
            growth.add(name, int(size), data["mount"]["median_ms"], data["keys"]["pagedown"]["p95_ms"])
    report.note("(the growth table repeats the figures above per size; a curve that bends up shows here)")
    report.add_table(growth)

    biggest = str(max(list_sizes))
    virtual = figures[VIRTUAL][biggest]
    report.add_target(f"virtual list mount, {int(biggest):,} rows", virtual["mount"]["median_ms"], MOUNT_TARGET_MS)
    report.add_target(f"virtual list down p95, {int(biggest):,} rows", virtual["keys"]["down"]["p95_ms"], KEY_TARGET_MS)
    for size in list_sizes:  # pagedown and end at every size (issue 15): how they grow shows in the verdicts
        for name in ("pagedown", "end"):
            floor = figures[KEY_FLOOR][str(size)]["keys"][name]["p95_ms"]
            report.add_target(
                f"virtual list {name} p95, {size:,} rows",
                figures[VIRTUAL][str(size)]["keys"][name]["p95_ms"],
                KEY_TARGET_MS,
                note=f"floor {floor} ms; CPU p50 {figures[VIRTUAL][str(size)]['keys_cpu'][name]['p50_ms']} ms",
            )
    tree_size = "2500" if "2500" in figures[TREE] else str(max(tree_sizes))
    tree = figures[TREE][tree_size]
    report.add_target(f"pages tree mount, {int(tree_size):,} pages", tree["mount"]["median_ms"], MOUNT_TARGET_MS)
    worst = max(KEYS, key=lambda k: tree["keys"][k]["p95_ms"] or 0.0)
    report.add_target(
        f"pages tree key p95 (worst: {worst}), {int(tree_size):,} pages", tree["keys"][worst]["p95_ms"], KEY_TARGET_MS
    )
    return report


def run(quick: bool) -> Report:
    return asyncio.run(run_async(quick))


def main(argv: Sequence[str] | None = None) -> int:
    return standalone(NAME, run, argv)


if __name__ == "__main__":
    sys.exit(main())
