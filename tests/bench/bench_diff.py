"""A large change request: opening it on its changes tab, and scrolling a diff of 5,000 lines and more.

    python -m tests.bench.bench_diff [--quick] [--out FILE]

Serves the sandbox over HTTP (``folio sandbox serve --scale 1``: the scale adds the large change request of
:mod:`folio.sandbox.seed.large`, 204 changed pages, three of them 5,000 lines long) and, in one headless Folio
(120x40), pushes the change request screen and shows its changes tab, again and again, in turn with a small change
request of the demo (two pages: the comparison). Each time is from ``push_screen`` to the end of the first frame
that shows the changes tab with its list of pages and the first one's diff (or, for a page only moved, what the
diff view says of it): the compositor's update, what the terminal would be sent. Then it moves the list to the
page whose diff is the longest (a page of 5,000 lines changed every 6 lines: about 6,000 rows unified, 4,600 side
by side), gives the diff the focus and times keys from the key event to the next frame (``j`` a line down,
``pagedown`` a screen down, ``G`` the end, ``g`` the top).

A screen down is ``pagedown``: on a change request, ``space`` in the diff is the review sweep (#24 item 15), which
moves to the next unviewed page or opens a thread's screen, so the keys after it would act elsewhere (``G`` on a
thread draws nothing: no frame). ``pagedown`` is the key a reviewer pages the diff with there; it goes at once,
as space does where it pages, so the figure is what a user gets with animations on as well (the bench turns them
off). Each key must leave the screen and the focus where they were (else the bench stops: it would measure
another thing).

Targets (issue 15): a 200-page change request opens in at most 1 s (p50); scrolling the 5,000-line diff p95 at
most 16.7 ms (one frame at 60 Hz), for each key.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

import httpx

from tests.bench.common import (
    BENCH_TOKEN,
    Report,
    Table,
    interleave_async,
    sandbox_server,
    standalone,
    summarize,
)
from tests.bench.frames import FrameClock

NAME = "diff"
SIZE = (120, 40)
OPEN_TARGET_MS = 1000.0
KEY_TARGET_MS = 16.7
KEYS = ("j", "pagedown", "G", "g")
SMALL_SUBJECT = "Clarify Linux install steps"
"""A demo change request of two pages: the comparison."""


def find_change_requests(url: str) -> dict[str, tuple[str, int, int]]:
    """subject -> (space id, number, changed pages) for the large change request and the small one."""
    from folio.sandbox.seed.large import LARGE_CR_SUBJECT

    headers = {"Authorization": f"Bearer {BENCH_TOKEN}"}
    found: dict[str, tuple[str, int, int]] = {}
    with httpx.Client(base_url=url + "/v1", headers=headers, timeout=60) as http:
        for org in http.get("/orgs").raise_for_status().json()["items"]:
            items = http.get(f"/orgs/{org['id']}/change-requests", params={"limit": 1000}).raise_for_status()
            for cr in items.json()["items"]:
                if cr["subject"] in (LARGE_CR_SUBJECT, SMALL_SUBJECT) and cr["subject"] not in found:
                    space_id = cr["space"]
                    changes = http.get(
                        f"/spaces/{space_id}/change-requests/{cr['id']}/changes", params={"limit": 1000}
                    ).raise_for_status()
                    found[cr["subject"]] = (space_id, int(cr["number"]), len(changes.json()["changes"]))
    missing = {LARGE_CR_SUBJECT, SMALL_SUBJECT} - set(found)
    if missing:
        raise RuntimeError(f"the sandbox has no change request {', '.join(sorted(missing))}")
    return found


def _shown(screen: Any) -> bool:
    """The changes tab is active, its list has rows and its diff view shows the page under the cursor (its diff,
    or what it says of a page whose text did not change: a page only moved), on screen."""
    pane = screen.changes
    if screen.tabs.active != "changes" or not pane.pages.list.rows or pane.shown is None:
        return False
    return pane.diff_view in screen._compositor.visible_widgets


async def _open(app: Any, screen: Any) -> float:
    """ms from pushing ``screen`` to the end of the first frame it paints showing its changes and a diff."""
    painted: list[float] = []
    paint = screen._compositor_refresh

    def frame() -> None:
        ready = _shown(screen)  # set before the frame: this frame draws it
        paint()
        if ready and not painted:
            painted.append(time.perf_counter())

    screen._compositor_refresh = frame
    t0 = time.perf_counter()
    await app.push_screen(screen)
    screen.tabs.active = "changes"  # as pressing 2 would, without Pilot's own cost
    deadline = t0 + 120
    while not painted:
        if time.perf_counter() > deadline or not app.is_running:
            raise RuntimeError("the change request screen never showed its changes and a diff")
        await asyncio.sleep(0.001)
    return (painted[0] - t0) * 1000


async def _measure(url: str, found: dict[str, tuple[str, int, int]], rounds: int, presses: int) -> dict[str, Any]:
    from folio.api import GitBookClient, Token
    from folio.sandbox.seed.large import LARGE_CR_SUBJECT
    from folio.services import Services
    from folio.tui.app import FolioApp
    from folio.tui.screens.content.organizations import OrganizationsScreen
    from folio.tui.screens.review.change_request import ChangeRequestScreen

    client = GitBookClient(token=Token(BENCH_TOKEN), base_url=url)
    services = Services(client, where="bench")
    app = FolioApp(services, start=lambda: OrganizationsScreen(services))
    app.animation_level = "none"
    out: dict[str, Any] = {}
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()

        def opener(subject: str) -> Any:
            space_id, number, _ = found[subject]

            async def once() -> float:
                screen = ChangeRequestScreen(services, space_id, number)
                took = await _open(app, screen)
                await app.workers.wait_for_complete()
                app.pop_screen()
                await pilot.pause()
                return took

            return once

        out["open"] = await interleave_async(
            {"large": opener(LARGE_CR_SUBJECT), "small": opener(SMALL_SUBJECT)}, rounds, warmup=1
        )

        # Scrolling: the page with the longest diff, the diff focused.
        space_id, number, _ = found[LARGE_CR_SUBJECT]
        screen = ChangeRequestScreen(services, space_id, number)
        await _open(app, screen)
        await app.workers.wait_for_complete()
        pane = screen.changes
        assert pane.change_set is not None
        longest = max(pane.change_set.changed, key=lambda page: len(pane.diff(page).unified))
        pane.pages.list.move_to(longest.id)
        await pilot.pause()
        pane.diff_view.focus()
        await pilot.pause()
        out["longest"] = {"title": longest.title, "rows": len(pane.diff_view.rows)}
        clock = FrameClock(app)
        keys: dict[str, list[float]] = {key: [] for key in KEYS}
        try:
            for _ in range(presses):
                for key in KEYS:
                    keys[key].append(await clock.press(pilot, key))  # g after G: j and pagedown start at the top
                    if app.screen is not screen or app.focused is not pane.diff_view:
                        raise RuntimeError(f"{key!r} took the focus off the diff: the next keys would act elsewhere")
        finally:
            clock.restore()
        out["keys"] = keys
    await services.aclose()
    return out


def run(quick: bool) -> Report:
    from folio.sandbox.seed.large import LARGE_CR_SUBJECT

    report = Report(NAME, quick=quick)
    rounds, presses = (1, 2) if quick else (7, 30)
    with sandbox_server(1) as url:
        found = find_change_requests(url)
        result = asyncio.run(_measure(url, found, rounds, presses))
    opened = Table(
        "Opening a change request on its changes tab: push to the first frame with the list and a diff (ms)",
        ["change request", "changed pages", "p50", "p95", "min", "runs", "vs small"],
        note=f"small: {SMALL_SUBJECT!r} of the demo, the comparison",
    )
    small = summarize(result["open"]["small"])
    for side, subject in (("large", LARGE_CR_SUBJECT), ("small", SMALL_SUBJECT)):
        stats = summarize(result["open"][side])
        opened.add(
            subject,
            found[subject][2],
            stats["p50_ms"],
            stats["p95_ms"],
            stats["min_ms"],
            stats["n"],
            round(stats["p50_ms"] / small["p50_ms"], 2) if small["p50_ms"] else None,
        )
        report.figures[f"open {side}"] = stats
    report.add_table(opened)
    large = summarize(result["open"]["large"])
    report.add_target(
        f"open a {found[LARGE_CR_SUBJECT][2]}-page change request (changes listed, first diff shown), p50",
        large["p50_ms"],
        OPEN_TARGET_MS,
        note=f"small one: {small['p50_ms']} ms",
    )
    longest = result["longest"]
    scroll = Table(
        f"Keys in the longest diff ({longest['title']}, {longest['rows']:,} rows): key event to next frame (ms)",
        ["key", "p50", "p95", "max", "presses"],
        note="j a line down, pagedown a screen down, G the end, g the top",
    )
    report.figures["longest_diff_rows"] = longest["rows"]
    for key, samples in result["keys"].items():
        stats = summarize(samples)
        scroll.add(key, stats["p50_ms"], stats["p95_ms"], stats["max_ms"], stats["n"])
        report.figures[f"key {key}"] = stats
        report.add_target(f"diff of {longest['rows']:,} rows, {key} p95", stats["p95_ms"], KEY_TARGET_MS)
    report.add_table(scroll)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    return standalone(NAME, run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
