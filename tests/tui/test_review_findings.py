"""What a new user and a faulty server found on the change request, comments and thread screens (issue 14), each
driven by keys over the seeded sandbox: every test failed before its fix."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Footer
from textual.widgets._footer import FooterKey
from textual.worker import WorkerState

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.screens.change_request import ChangeRequestScreen
from folio.tui.screens.thread import ThreadScreen
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN
from tests.tui.conftest import settle


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


def cr_of(state: SandboxState, subject: str) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == subject)


def cr_screen(services: Services, state: SandboxState, subject: str) -> Callable[[], ChangeRequestScreen]:
    record = cr_of(state, subject)
    return lambda: ChangeRequestScreen(services, record["space"], record["number"], trail=("Northwind Labs", "Space"))


def notes(app: FolioApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot)


OPEN = "Clarify Linux install steps"
MERGED = "Document the canary channel"


# --- 13 and 23: a key that cannot act says why, and means one thing -----------------------------------------------


async def test_u_on_a_change_request_up_to_date_says_why(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """#13: `u` on a change request that is not outdated said nothing."""
    async with open_app(cr_screen(services, state, OPEN)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen) and screen.cr is not None and not screen.cr.outdated
        await press(pilot, "u")
        assert notes(app)[-1:] == ["This change request is up to date with main."]
        assert app.screen is screen


async def test_r_and_m_on_a_merged_change_request_say_why_and_reload_nothing(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """#23: `R` on a merged change request reloaded every screen of the trail (the app's `R`); `m` said nothing."""
    async with open_app(cr_screen(services, state, MERGED)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen) and screen.cr is not None and screen.cr.status == "merged"
        loads: list[str] = []
        screen.action_refresh = lambda: loads.append("reloaded")  # type: ignore[method-assign]
        await press(pilot, "R")
        assert notes(app)[-1:] == ["It is merged: nothing to review."]
        assert "Loading every screen of the trail again." not in notes(app)
        assert loads == [], "R reloaded the trail"
        await press(pilot, "m")
        assert notes(app)[-1:] == ["Only an open change request can be merged; this one is merged."]
        await press(pilot, "S")
        assert notes(app)[-1:] == ["A merged change request keeps its status."]
        assert app.screen is screen and loads == []
        assert not {"R", "m", "u", "S"} & {key for key, _, _ in footer_keys(app)}, "the footer offers them"


# --- 18: what fits at 80 columns -----------------------------------------------------------------------------------


def footer_keys(app: FolioApp) -> list[tuple[str, str, bool]]:
    """The footer's keys left of the palette key, as (key, description, fully shown)."""
    footer = app.screen.query_one(Footer)
    keys = [k for k in footer.query(FooterKey) if not k.has_class("-command-palette")]
    palette = footer.query_one(".-command-palette", FooterKey)
    edge = min(palette.region.x, footer.region.right)
    return [(k.key_display, k.description, k.region.right <= edge) for k in keys if k.region.width]


@pytest.mark.parametrize("tab", ["1", "2", "3"])
async def test_the_change_request_footer_shows_the_keys_that_fit(
    services: Services, state: SandboxState, open_app: Any, tab: str
) -> None:
    """#18: at 80 columns the footer showed only `R Review  m Merge` of the change request's keys (and, on the
    changes tab, cut `r Refresh` in two): the most useful keys are shown whole, `?` has the rest."""
    async with open_app(cr_screen(services, state, OPEN)) as (app, pilot):
        await press(pilot, tab)
        shown = footer_keys(app)
        assert all(whole for _, _, whole in shown), f"a key is cut off: {shown}"
        keys = [key for key, _, _ in shown]
        assert "?" in keys and "R" in keys
        if tab == "1":
            assert {"m", "S"} <= set(keys), keys
        if tab == "2":
            assert {"n", "v"} <= set(keys), keys
        if tab == "3":
            assert {"c", "x"} <= set(keys), keys


async def test_x_on_a_resolved_thread_says_reopen(services: Services, state: SandboxState, open_app: Any) -> None:
    """#18: the thread's footer said `x Resolve` on a resolved thread."""
    handbook = next(s["id"] for s in state.spaces.values() if s["title"] == "Admin Handbook")
    record = next(c for c in state.comments.values() if c["space"] == handbook and c["body"].startswith("Typo:"))
    assert record["status"] == "resolved"
    start = lambda: ThreadScreen(services, record["space"], record["id"], trail=("Admin Handbook",))  # noqa: E731
    async with open_app(start) as (app, pilot):
        shown = {key: description for key, description, _ in footer_keys(app)}
        assert shown.get("x") == "Reopen"
        await press(pilot, "x")
        assert record["status"] == "open" and notes(app)[-1] == "Thread reopened"
        shown = {key: description for key, description, _ in footer_keys(app)}
        assert shown.get("x") == "Resolve"
        await press(pilot, "x")
        assert record["status"] == "resolved"


# --- 21: a tab opened while it loads takes the keys that follow ----------------------------------------------------


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture
def faults() -> Faults:
    return Faults(seed=3)


@pytest.fixture
async def flaky(state: SandboxState, faults: Faults) -> AsyncIterator[Services]:
    """Services over the seeded sandbox behind ``faults`` (changeable while a test runs)."""
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state, faults=faults)),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    yield Services(client, where="a flaky sandbox")
    await client.aclose()


def burst(app: Any, *keys: str) -> None:
    """Keys as a fast typist sends them: all queued on the app (as the terminal driver does) before any is
    handled, and without waiting for the screen to go quiet."""
    for key in keys:
        character = {"slash": "/", "space": " "}.get(key, key if len(key) == 1 else None)
        app.post_message(events.Key(key, character))


def loading(app: FolioApp) -> bool:
    return any(w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in app.workers)


async def test_a_tab_opened_while_it_loads_takes_the_keys_that_follow(
    flaky: Services, state: SandboxState, faults: Faults
) -> None:
    """#21: `2` on a change request under latency left the focus behind: `j` after it moved nothing until `tab`."""
    faults.latency = 3600.0  # no answer during the first part: the keys are pressed before the load ends
    app = FolioApp(flaky, start=cr_screen(flaky, state, OPEN))
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        burst(app, "2", "j")
        for _ in range(5):
            await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen) and screen.tabs.active == "changes"
        assert loading(app), "the load ended before the keys were pressed"
        assert screen.focused is not None and screen.changes in (screen.focused, *screen.focused.ancestors)
        faults.latency = 0.0  # the service answers now: r loads again (the slow load is dropped)
        burst(app, "r")
        app.workers.cancel_group(app, "who-am-i")  # the app's own slow question: not this screen's to wait for
        await settle(pilot)
        pages = screen.changes.pages.list
        assert pages.has_focus, f"the focus is on {screen.focused!r}"
        assert screen.changes.page is not None and screen.changes.page.title == "Windows"  # the j typed ahead
        await press(pilot, "k")  # and the next keys, without tab
        assert screen.changes.page is not None and screen.changes.page.title == "Linux"
