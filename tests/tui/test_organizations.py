"""The organizations screen, driven by keys over the seeded sandbox."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from folio.api import GitBookClient, RetryPolicy, Token
from folio.models.organization import Organization
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.screens.content.organizations import OrganizationsScreen
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN

SIZE = (100, 30)


async def _settled(app: FolioApp, pilot: Pilot[None]) -> OrganizationsScreen:
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, OrganizationsScreen)
    return screen


def _rows(screen: OrganizationsScreen) -> list[list[str]]:
    return [[c if isinstance(c, str) else c.plain for c in row.cells] for row in screen.panel.browser.list.rows]


def _message(screen: OrganizationsScreen) -> str:
    """What the list's status line says when it failed or is empty ("" while it shows rows)."""
    browser = screen.panel.browser
    if browser.list.rows and browser._status is None:
        return ""
    return str(browser.query_one(".resource-browser--status", Static).render())


def _summary(screen: OrganizationsScreen) -> str:
    return str(screen.query_one(".resource-panel--hint", Static).render())


def _cursor(screen: OrganizationsScreen) -> int:
    return screen.panel.browser.list.cursor


async def _no_sleep(seconds: float) -> None:
    return None


def stand_in(client: GitBookClient, browse: object) -> Services:
    """Services whose browse service is a stand-in."""
    services = Services(client, where="a stand-in")
    services.__dict__["browse"] = browse
    return services


class CountingBrowse:
    """A stand-in service: counts the loads, returns what it is given (or raises it)."""

    where = "a stand-in"

    def __init__(self, organizations: list[Organization] | Exception) -> None:
        self.items = organizations
        self.loads = 0

    async def organizations(self) -> list[Organization]:
        self.loads += 1
        if isinstance(self.items, Exception):
            raise self.items
        return list(self.items)


async def test_the_users_organizations_are_listed(
    client: GitBookClient, state: SandboxState, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)
    app = FolioApp(Services(client, where="the test sandbox"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await _settled(app, pilot)
        assert _rows(screen) == [
            ["Northwind Labs", "Pro", "Business", "11", "2 yr ago"],
            ["Open Robotics Guild", "Free", "Community (non-profit)", "11", "6 mo ago"],
        ]
        assert _summary(screen) == "2 organizations on the test sandbox"
        assert _message(screen) == ""
        assert screen.panel.browser.list.has_focus
        assert app.screen.sub_title == "Organizations"
    assert ("GET", "/orgs") in state.hits


async def test_keys_move_the_cursor_and_q_quits(client: GitBookClient) -> None:
    app = FolioApp(Services(client))
    async with app.run_test(size=SIZE) as pilot:
        screen = await _settled(app, pilot)
        assert _cursor(screen) == 0
        await pilot.press("j")
        assert _cursor(screen) == 1
        await pilot.press("k")
        assert _cursor(screen) == 0
        await pilot.press("down")
        assert _cursor(screen) == 1
        await pilot.press("up")
        assert _cursor(screen) == 0
        await pilot.press("G")
        assert _cursor(screen) == 1
        await pilot.press("g")
        assert _cursor(screen) == 0
        await pilot.press("end")
        assert _cursor(screen) == 1
        await pilot.press("home")
        assert _cursor(screen) == 0
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0
    assert not app.is_running


async def test_r_refreshes_and_keeps_the_cursor(client: GitBookClient, state: SandboxState) -> None:
    app = FolioApp(Services(client))
    async with app.run_test(size=SIZE) as pilot:
        screen = await _settled(app, pilot)
        await pilot.press("j")
        second = next(oid for oid, org in state.orgs.items() if org["title"] == "Open Robotics Guild")
        state.orgs[second]["title"] = "Open Robotics Guild (renamed)"
        await pilot.press("r")
        await _settled(app, pilot)
        assert _rows(screen)[1][0] == "Open Robotics Guild (renamed)"
        assert _cursor(screen) == 1


async def test_the_profiles_organization_is_selected_first(client: GitBookClient, state: SandboxState) -> None:
    second = next(oid for oid, org in state.orgs.items() if org["title"] == "Open Robotics Guild")
    app = FolioApp(Services(client), organization=second)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _settled(app, pilot)
        assert _cursor(screen) == 1


async def test_a_refused_token_is_said_in_words_and_r_tries_again(client: GitBookClient, state: SandboxState) -> None:
    state.tokens = {"some-other-token": state.default_user}
    app = FolioApp(Services(client))
    async with app.run_test(size=SIZE) as pilot:
        screen = await _settled(app, pilot)
        message = _message(screen)
        assert message.startswith("Could not load your organizations: The access token is invalid or expired")
        assert "(401)" in message
        assert message.endswith("Check the token with: folio auth status. Press r to try again.")
        assert screen.query_one(".resource-browser--status").has_class("-error")
        assert not screen.panel.browser.list.rows
        assert TOKEN not in message
        state.tokens = {}
        await pilot.press("r")
        screen = await _settled(app, pilot)
        assert _message(screen) == ""
        assert len(_rows(screen)) == 2


async def test_a_failing_service_is_said_in_words(state: SandboxState) -> None:
    failing = create_app(state, faults=Faults(error_rate=1.0))
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(failing),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    app = FolioApp(Services(client))
    async with app.run_test(size=SIZE) as pilot:
        screen = await _settled(app, pilot)
        message = _message(screen)
        assert message.startswith("Could not load your organizations: Injected server error (50")
        assert "GET /orgs" in message
        assert app.is_running  # a failed worker does not take the app down
    await client.aclose()


async def test_hostile_titles_are_shown_as_text(client: GitBookClient, state: SandboxState) -> None:
    state.orgs[state.demo_org]["title"] = "[@click=app.quit]x\x1b]52;c;ZXZpbA==\x07\u202e[b]y"
    app = FolioApp(Services(client))
    async with app.run_test(size=SIZE) as pilot:
        screen = await _settled(app, pilot)
        assert _rows(screen)[0][0] == "[@click=app.quit]x[b]y"
        await pilot.click("ResourceList", offset=(3, 0))
        await pilot.pause()
        assert app.is_running


async def test_no_organizations_is_said_in_words(client: GitBookClient) -> None:
    browse = CountingBrowse([])
    app = FolioApp(stand_in(client, browse))
    async with app.run_test(size=SIZE) as pilot:
        screen = await _settled(app, pilot)
        assert _message(screen).startswith("You are not a member of any organization yet.")
        assert not screen.panel.browser.list.rows
        assert _summary(screen) == "0 organizations on a stand-in"


async def test_bindings_have_ids_and_tooltips_and_the_keymap_remaps_them(client: GitBookClient) -> None:
    for binding in [*OrganizationsScreen.BINDINGS, *FolioApp.BINDINGS]:
        assert not isinstance(binding, tuple)
        assert binding.id and binding.tooltip, binding
        # Nothing a terminal cannot send: no ctrl+enter, no alt-only chords (ctrl+<letter> is fine).
        assert "ctrl+enter" not in binding.key and not binding.key.startswith("alt+"), binding
    browse = CountingBrowse([Organization(id="o1", title="Only Org")])
    app = FolioApp(stand_in(client, browse), keymap={"screen.refresh": "f5"})
    async with app.run_test(size=SIZE) as pilot:
        await _settled(app, pilot)
        assert browse.loads == 1
        await pilot.press("f5")
        await _settled(app, pilot)
        assert browse.loads == 2
        await pilot.press("r")  # remapped away
        await _settled(app, pilot)
        assert browse.loads == 2


async def test_a_bug_of_ours_is_said_in_words_not_a_traceback(client: GitBookClient) -> None:
    app = FolioApp(stand_in(client, CountingBrowse(RuntimeError("internal detail \x1b[2J"))))
    async with app.run_test(size=SIZE) as pilot:
        screen = await _settled(app, pilot)
        message = _message(screen)
        assert message.startswith("Could not load your organizations: Something went wrong inside Folio")
        assert "(RuntimeError)" in message and "--debug" in message
        assert "internal detail" not in message
        assert app.is_running


async def test_keys_reach_the_list_after_a_first_load_over_a_slow_link(state: SandboxState) -> None:
    """The list is still loading when the screen first shows (no cache, a slow service): Textual's loading
    indicator takes its focus; once the rows are in, enter opens the organization under the cursor."""
    slow = create_app(state, faults=Faults(latency=0.3))
    client = GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=SandboxTransport(slow), retry=RetryPolicy(sleep=_no_sleep)
    )
    services = Services(client, where="a slow sandbox")
    app = FolioApp(services, start=lambda: OrganizationsScreen(services))
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        screen = await _settled(app, pilot)
        assert _rows(screen)
        await pilot.pause()
        assert app.focused is screen.panel.browser.list
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert type(app.screen).__name__ == "OrganizationScreen"
    await client.aclose()
