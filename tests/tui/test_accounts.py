"""Switching profile at run time (``:profile``) and the theme (``:theme``, the palette, config.toml)."""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from folio.api import GitBookClient, RetryPolicy, Token
from folio.cli_tui import Launcher
from folio.config.settings import Settings, SettingsError, theme_of
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.clock import Clock
from folio.sandbox.seed import populate
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.screens.content.organizations import OrganizationsScreen
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN
from tests.tui.conftest import settle


async def _no_sleep(seconds: float) -> None:
    return None


class FakeAccounts:
    """Two profiles over two sandboxes; remembers the themes it was asked to keep."""

    def __init__(self, other: Services) -> None:
        self.current = "work"
        self.other = other
        self.themes: list[str] = []

    def names(self) -> list[str]:
        return ["home", "work"]

    def services_for(self, name: str | None, *, first: bool = False) -> Services:
        assert name == "home"
        self.current = "home"
        return self.other

    def remember_theme(self, theme: str) -> str | None:
        self.themes.append(theme)
        return None


@pytest.fixture
async def other() -> AsyncIterator[tuple[SandboxState, Services]]:
    state = SandboxState(clock=Clock(FROZEN_AT), seed=11)
    populate(state)
    first = next(iter(state.orgs.values()))
    first["title"] = "Home Organization"
    client = GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=SandboxTransport(create_app(state)),
        retry=RetryPolicy(sleep=_no_sleep),
    )  # fmt: skip
    yield state, Services(client, where="home sandbox")
    await client.aclose()


async def command(pilot: Any, line: str) -> None:
    await pilot.press("colon")
    await settle(pilot)
    await pilot.press(*[{" ": "space"}.get(c, c) for c in line], "enter")
    await settle(pilot)


async def test_profile_switches_account_and_the_header_names_it(services: Services, other: Any) -> None:
    accounts = FakeAccounts(other[1])
    app = FolioApp(services, accounts=accounts)
    app.animation_level = "none"
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.title == "Folio · work"
        await pilot.press("enter")  # into an organization of the first account
        await settle(pilot)
        await command(pilot, "profile nobody")
        said = str(app.screen.query_one(".command-line--message").render())
        assert "No profile is called “nobody”" in said and "home, work" in said
        await pilot.press("escape")
        await settle(pilot)
        await command(pilot, "profile home")
        await settle(pilot)
        assert app.title == "Folio · home"
        assert app.services is other[1]
        assert [type(s).__name__ for s in app.screen_stack[1:]] == ["OrganizationsScreen"]
        screen = app.screen
        assert isinstance(screen, OrganizationsScreen)
        assert "Home Organization" in [o.title for o in screen.organizations]
        assert all(k[0] != "space" for k in app.loaded), "nothing of the other account stays reachable"


async def test_theme_from_config_the_command_line_and_the_palette(services: Services) -> None:
    accounts = FakeAccounts(services)
    app = FolioApp(services, accounts=accounts, theme_name="light")
    app.animation_level = "none"
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.theme == "textual-light"
        await command(pilot, "theme high contrast")
        assert app.theme == "folio-high-contrast" and accounts.themes == ["high-contrast"]
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"theme dark")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await settle(pilot)
        assert app.theme == "textual-dark" and accounts.themes == ["high-contrast", "dark"]


def test_the_launcher_keeps_the_theme_in_config_toml(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('default_profile = "work"\nping = false\n')
    settings = Settings.load(path)
    assert theme_of(settings) == "dark"
    launcher = Launcher(argparse.Namespace(demo=True, profile=None), None, settings)
    assert launcher.remember_theme("light") is None
    again = Settings.load(path)
    assert theme_of(again) == "light" and again.extra["ping"] is False
    path.write_text('theme = "neon"\n')
    with pytest.raises(SettingsError, match="theme must be one of dark, light, high-contrast"):
        theme_of(Settings.load(path))
