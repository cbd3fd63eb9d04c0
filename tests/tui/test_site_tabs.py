"""The site screen's tabs are numbered like every screen's ("1 Settings", "2 Structure", "3 Adaptive content"),
and the keys typed right after a tab's number reach that tab, not the one left."""

from __future__ import annotations

from typing import Any

from textual.widgets import TabbedContent, Tabs

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui.screens.sites.site import SiteScreen
from folio.tui.widgets.adaptive_schema import AdaptiveSchemaEditor
from tests.api.sites_support import site_id
from tests.tui.conftest import settle


def open_site(services: Services, state: SandboxState) -> Any:
    return lambda: SiteScreen(services, state.demo_org, site_id(state), trail=("Northwind Labs",))


async def test_the_tabs_are_numbered_by_their_keys(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(open_site(services, state)) as (app, pilot):
        tabs = app.screen.query_one("#site-tabs", TabbedContent).query_one(Tabs)
        assert [str(t.label) for t in tabs.query("Tab")] == ["1 Settings", "2 Structure", "3 Adaptive content"]
        for key, tab in (("2", "structure"), ("1", "settings"), ("3", "adaptive")):  # (3 last: its text takes 1)
            await pilot.press(key)
            await settle(pilot)
            assert app.screen.query_one("#site-tabs", TabbedContent).active == tab


async def test_keys_typed_right_after_a_number_reach_its_tab(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(open_site(services, state)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, SiteScreen)
        settings = screen.settings_list.list
        assert settings.has_focus and settings.cursor == 0
        await pilot.press("2", "j")  # in one burst: the j is not the settings list's
        await settle(pilot)
        assert screen.query_one("#structure-split").has_focus_within
        assert settings.cursor == 0
        assert getattr(screen.query_one("#site-structure"), "cursor", None) == 1  # it moved the structure's
        editor = screen.query_one(AdaptiveSchemaEditor)
        before = editor.text_area.text
        await pilot.press("3", "x", "y")
        await settle(pilot)
        assert editor.text_area.has_focus
        assert "xy" in editor.text_area.text and editor.text_area.text.replace("xy", "", 1) == before
