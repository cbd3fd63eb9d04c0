"""The access screens pinned as SVG: single sign-on, organization settings and agent instructions at 80x24 and
160x50, and the provider form with a certificate read (seeded sandbox, frozen clock, no animation). Update with
``pytest tests/snapshots/test_access.py --snapshot-update`` only after looking at the report."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, TextArea

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.screens.insights.agent import AgentScreen
from folio.tui.screens.people.settings import SettingsScreen
from folio.tui.screens.people.sso import SsoScreen
from tests.conftest import FROZEN_AT
from tests.snapshots.support import sandbox_services

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]
SCREENS: dict[str, Callable[[Services, str], Screen[Any]]] = {
    "sso": lambda services, org: SsoScreen(services, org, trail=("Northwind Labs",)),
    "settings": lambda services, org: SettingsScreen(services, org, trail=("Northwind Labs",)),
    "agent": lambda services, org: AgentScreen(services, org, trail=("Northwind Labs",)),
}
# A self-signed certificate whose end (2026-11-21) is 20 days after the frozen clock: made once with
# tests.services.test_access_service.make_certificate(days=20, cn="login.northwind.dev") and kept here, since
# each new one differs (its key) and the form shows its first lines.
CERTIFICATE = """-----BEGIN CERTIFICATE-----
MIIBOjCB4qADAgECAhRHUIZRk3dyar4icWytiMAR9bzqezAKBggqhkjOPQQDAjAe
MRwwGgYDVQQDDBNsb2dpbi5ub3J0aHdpbmQuZGV2MB4XDTI1MDkyNzA5MDAwMFoX
DTI2MTEyMTA5MDAwMFowHjEcMBoGA1UEAwwTbG9naW4ubm9ydGh3aW5kLmRldjBZ
MBMGByqGSM49AgEGCCqGSM49AwEHA0IABGZ841V/jtncPAc8JouV++I84NDzVcd8
axDhMRwzUhOf6sWhT8UeW9d+BipEQ8IBZXwQvelPqV558BeQgnjz1UcwCgYIKoZI
zj0EAwIDRwAwRAIgbnfnQnHirCpHTx+9/LmIWrNwBkq0azgoD3sKPChP2cICIBmb
LHdmjP6/gLvqDN4WWrDy9mlFsXBqGhBJPpeMZMlM
-----END CERTIFICATE-----"""


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


def _app(sandbox: Any, state: SandboxState, screen: str) -> FolioApp:
    services = sandbox_services(sandbox)
    app = FolioApp(services, start=lambda: SCREENS[screen](services, state.demo_org))
    app.animation_level = "none"
    return app


async def _loaded(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def _after(*keys: str, certificate: str | None = None) -> Callable[[Pilot[None]], Awaitable[None]]:
    async def run(pilot: Pilot[None]) -> None:
        await _loaded(pilot)
        for key in keys:
            await pilot.press(key)
            await _loaded(pilot)
        if certificate is not None:
            pilot.app.screen.query_one("#field-certificate", TextArea).load_text(certificate)
            await _loaded(pilot)
        for widget in pilot.app.screen.query("Input, TextArea").results():
            if isinstance(widget, Input | TextArea):
                widget.cursor_blink = False
        await pilot.pause()

    return run


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("screen", list(SCREENS))
def test_access_screens(snap_compare: Any, app: Any, state: SandboxState, screen: str, size: tuple[int, int]) -> None:
    assert snap_compare(_app(app, state, screen), terminal_size=size, run_before=_loaded)


def test_sso_sign_in_options(snap_compare: Any, app: Any, state: SandboxState) -> None:
    assert snap_compare(_app(app, state, "sso"), terminal_size=(80, 24), run_before=_after("2"))


def test_sso_new_provider_with_a_certificate(snap_compare: Any, app: Any, state: SandboxState) -> None:
    run = _after("n", *"Auth0", "tab", *"https://northwind.auth0.com/samlp", certificate=CERTIFICATE)
    assert snap_compare(_app(app, state, "sso"), terminal_size=(100, 34), run_before=run)


def test_settings_sso_enforcement_confirmation(snap_compare: Any, app: Any, state: SandboxState) -> None:
    run = _after(*["j"] * 6, "enter", "space", "ctrl+s")
    assert snap_compare(_app(app, state, "settings"), terminal_size=(80, 24), run_before=run)


def test_settings_invite_links(snap_compare: Any, app: Any, state: SandboxState) -> None:
    assert snap_compare(_app(app, state, "settings"), terminal_size=(80, 24), run_before=_after("2"))
