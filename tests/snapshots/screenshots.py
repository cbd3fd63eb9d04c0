"""The README's screenshots: ``python -m tests.snapshots.screenshots <folder>`` (``make screenshots``).

Opens Folio on the seeded demo sandbox (clock frozen as in the tests, so the SVGs only change when the screens
do) at 100x30, walks it by keys as the hostile-data test does (organizations -> organization -> space -> change
request -> comment thread, then a site), and saves an SVG of each main screen into the folder; then the
organization's members, teams, issue clusters and OpenAPI specs. A screen that
does not exist in this build is left out (the list printed at the end says what was saved).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.clock import Clock
from folio.sandbox.seed import populate
from folio.services import Services
from folio.tui import routes
from folio.tui.app import FolioApp
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN
from tests.tui.test_hostile import walk

SIZE = (100, 30)
SHOTS = {
    "organizations": "organizations",
    "organization/1": "organization-collections",
    "organization/2": "organization-spaces",
    "organization/3": "organization-change-requests",
    "organization/4": "organization-sites",
    "space/1": "space-pages",
    "space/4": "space-change-requests",
    "space/5": "space-comments",
    "change-request/1": "change-request-overview",
    "change-request/2": "change-request-changes",
    "change-request/3": "change-request-comments",
    "thread": "comment-thread",
    "site/1": "site-settings",
    "site/2": "site-structure",
    "site/3": "site-adaptive",
    "site/published": "site-published",
}
"""Walk step -> file name (without .svg)."""
AREAS = {"members": "members", "teams": "teams", "clusters": "issue-clusters", "specs": "openapi-specs"}
"""The organization's other screens (a route kind each) -> file name: opened on the demo organization."""


async def _no_sleep(seconds: float) -> None:
    return None


async def shoot(folder: Path) -> list[Path]:
    state = SandboxState(clock=Clock(FROZEN_AT), seed=7)
    populate(state)
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state)),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    services = Services(client, where="the demo sandbox")
    app = FolioApp(services)
    app.animation_level = "none"
    saved: list[Path] = []
    folder.mkdir(parents=True, exist_ok=True)
    try:
        async with app.run_test(size=SIZE) as pilot:

            async def visit(step: str) -> None:
                name = SHOTS.get(step)
                if name is None:
                    return
                # what a screen draws after its first frame (the first screen's footer keys and column header) too
                for _ in range(3):
                    await pilot.pause()
                path = Path(app.save_screenshot(f"{name}.svg", path=str(folder)))
                saved.append(path)

            await walk(pilot, services, state, visit)
            trail = ("Organizations", state.orgs[state.demo_org]["title"])
            for kind, name in AREAS.items():
                await app.push_screen(routes.build(services, kind, {"org_id": state.demo_org}, trail=trail))
                await pilot.pause()
                await app.workers.wait_for_complete()
                await pilot.pause()
                saved.append(Path(app.save_screenshot(f"{name}.svg", path=str(folder))))
                app.pop_screen()
                await pilot.pause()
    finally:
        await client.aclose()
    return saved


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.snapshots.screenshots <folder>", file=sys.stderr)
        return 2
    saved = asyncio.run(shoot(Path(argv[0])))
    for path in saved:
        print(path)
    missing = sorted(set(SHOTS.values()) - {p.stem for p in saved})
    if missing:
        print("not made (no such screen in this build):", ", ".join(missing), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
