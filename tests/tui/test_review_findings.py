"""What a new user and a faulty server found on the change request, comments and thread screens (issue 14), each
driven by keys over the seeded sandbox: every test failed before its fix."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.screens.change_request import ChangeRequestScreen
from tests.conftest import FROZEN_AT
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
