"""The organization settings screen driven by keys over the seeded sandbox: a setting changed in place, a limit
refused before sending, SSO enforcement confirmed by typing the title, read-only rows, an invite link deleted,
and joining an organization by email domain (the modal the organizations list binds); each checked in what the
sandbox now holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import pytest
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.pilot import Pilot
from textual.widgets import Checkbox, Footer, Header, Input, Static

from folio.models.organization import Organization
from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui import routes
from folio.tui.modals.access_forms import InviteDeleteForm, JoinConfirm, OrgSettingForm, confirm_join
from folio.tui.modals.site_forms import TypedConfirmModal
from folio.tui.screens.base import FolioScreen
from folio.tui.screens.people.settings import SettingsScreen
from folio.tui.widgets.resource_browser import ResourceBrowser
from tests.conftest import FROZEN_AT, TOKEN
from tests.services.test_access_service import member_with
from tests.tui.conftest import settle


@pytest.fixture(autouse=True)
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


def settings(services: Services, state: SandboxState) -> Callable[[], SettingsScreen]:
    return lambda: SettingsScreen(services, state.demo_org, trail=("Northwind Labs",))


def shown(browser: ResourceBrowser) -> dict[str, str]:
    return {r.key: (c if isinstance(c := r.cells[1], str) else c.plain) for r in browser.list.visible_rows}


def said(app: Any) -> list[str]:
    return [n.message for n in app._notifications]


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await settle(pilot)


async def open_setting(pilot: Pilot[None], screen: SettingsScreen, key: str) -> None:
    assert screen.settings_list.list.move_to(key)
    await keys(pilot, "enter")


async def test_change_the_title_in_place(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(settings(services, state)) as (app, pilot):
        screen = app.screen
        assert shown(screen.settings_list)["title"] == "Northwind Labs"
        await open_setting(pilot, screen, "title")
        form = app.screen
        assert isinstance(form, OrgSettingForm) and form.values() == {"value": "Northwind Labs"}
        await keys(pilot, "ctrl+u", *"Northwind Group", "ctrl+s")
        assert app.screen is screen
        assert state.orgs[state.demo_org]["title"] == "Northwind Group"
        assert shown(screen.settings_list)["title"] == "Northwind Group"
        assert "Title saved: Northwind Group" in said(app)


async def test_a_hostname_of_two_characters_is_refused_before_sending(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(settings(services, state)) as (app, pilot):
        await open_setting(pilot, app.screen, "hostname")
        form = app.screen
        assert isinstance(form, OrgSettingForm) and form.values() == {"value": "northwind"}
        await keys(pilot, "ctrl+u", *"nw", "ctrl+s")
        assert app.screen is form and "3 to 32 characters." in form.problem_text
        assert form.query_one("#field-value", Input).value == "nw"  # kept as typed
    assert state.orgs[state.demo_org]["hostname"] == "northwind"


async def test_a_title_with_control_characters_is_refused_under_the_field(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(settings(services, state)) as (app, pilot):
        await open_setting(pilot, app.screen, "title")
        form = app.screen
        assert isinstance(form, OrgSettingForm)
        form.query_one("#field-value", Input).value = "North\x00wind\x1b[2J"  # pasted: NUL and ESC
        await keys(pilot, "ctrl+s")
        assert app.screen is form
        problem = str(form.query_one("#problem-value", Static).render())
        assert "Holds a control character (NUL): remove it." in problem
        assert form.query_one("#field-value", Input).value == "North\x00wind\x1b[2J"  # kept as typed
    assert state.orgs[state.demo_org]["title"] == "Northwind Labs"


async def test_sso_enforcement_is_confirmed_by_typing_the_title(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    members = state.members[state.demo_org]
    next(iter(members.values()))["sso"] = True
    async with open_app(settings(services, state), size=(100, 30)) as (app, pilot):
        screen = app.screen
        await open_setting(pilot, screen, "sso")
        form = app.screen
        assert isinstance(form, OrgSettingForm) and form.query_one(Checkbox).value is False
        await keys(pilot, "space", "ctrl+s")
        confirm = app.screen
        assert isinstance(confirm, TypedConfirmModal)
        body = str(confirm.query_one(".site-form--body", Static).render())
        assert f"{len(members) - 1} of {len(members)} members do not sign in through SSO yet" in body
        await keys(pilot, *"Northwind", "enter")
        assert app.screen is confirm and state.orgs[state.demo_org]["sso"] is False  # not the title
        await keys(pilot, "escape")
        assert app.screen is form and "SSO enforcement not turned on" in form.problem_text
        assert state.orgs[state.demo_org]["sso"] is False
        await keys(pilot, "ctrl+s")
        await keys(pilot, *"Northwind Labs", "enter")
        assert app.screen is screen and state.orgs[state.demo_org]["sso"] is True
        assert shown(screen.settings_list)["sso"] == "on" and "SSO enforced saved: on" in said(app)


async def test_sso_enforcement_that_locks_you_out_says_so_and_needs_your_email_typed(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    me = state.members[state.demo_org][state.default_user]
    assert me["role"] == "admin" and me["sso"] is False  # you sign in without SSO
    email = state.users[state.default_user]["email"]
    async with open_app(settings(services, state), size=(100, 30)) as (app, pilot):
        screen = app.screen
        await open_setting(pilot, screen, "sso")
        await keys(pilot, "space", "ctrl+s")
        confirm = app.screen
        assert isinstance(confirm, TypedConfirmModal) and confirm.expected == email
        title = str(confirm.query_one(".site-form--title", Static).render())
        body = str(confirm.query_one(".site-form--body", Static).render())
        assert "lock yourself out" in title
        assert "YOU DO NOT SIGN IN THROUGH SSO: once it is enforced you are locked out" in body
        await keys(pilot, *"Northwind Labs", "enter")  # the title no longer confirms
        assert app.screen is confirm and state.orgs[state.demo_org]["sso"] is False
        await keys(pilot, "escape")
        assert "SSO enforcement not turned on: the confirmation was not typed" in app.screen.problem_text
        await keys(pilot, "ctrl+s", *email, "enter")
        assert app.screen is screen and state.orgs[state.demo_org]["sso"] is True


async def test_turning_sso_enforcement_off_asks_nothing_more(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    state.orgs[state.demo_org]["sso"] = True
    async with open_app(settings(services, state)) as (app, pilot):
        await open_setting(pilot, app.screen, "sso")
        await keys(pilot, "space", "ctrl+s")
        assert isinstance(app.screen, SettingsScreen) and state.orgs[state.demo_org]["sso"] is False


async def test_default_role_is_a_choice_and_none_means_guests(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(settings(services, state), size=(100, 30)) as (app, pilot):
        await open_setting(pilot, app.screen, "defaultRole")
        form = app.screen
        assert isinstance(form, OrgSettingForm) and form.values() == {"value": "read"}
        await keys(pilot, "enter")  # the drop-down opens on read
        await keys(pilot, "down", "enter", "ctrl+s")  # the next: none (guests)
        assert state.orgs[state.demo_org]["defaultRole"] is None
        assert shown(app.screen.settings_list)["defaultRole"] == "none (guests)"


async def test_default_content_is_one_of_the_sites(services: Services, state: SandboxState, open_app: Any) -> None:
    handbook = next(sid for sid, s in state.sites.items() if s["title"] == "Internal Handbook")
    async with open_app(settings(services, state), size=(100, 30)) as (app, pilot):
        await open_setting(pilot, app.screen, "defaultContent")
        assert isinstance(app.screen, OrgSettingForm) and app.screen.values() == {"value": "none"}
        await keys(pilot, "enter")  # the drop-down opens on none
        await keys(pilot, "up", "enter", "ctrl+s")  # the one above: Internal Handbook
        assert state.orgs[state.demo_org]["defaultContent"] == {"type": "site", "site": handbook}
        assert shown(app.screen.settings_list)["defaultContent"] == "Internal Handbook"


async def test_read_only_rows_say_why(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(settings(services, state)) as (app, pilot):
        screen = app.screen
        await open_setting(pilot, screen, "plan")
        assert app.screen is screen
        assert "Plan is read-only: the plan changes in billing on the service." in said(app)
        assert screen.check_action("edit_setting", ()) is None


async def test_delete_an_invite_link_by_its_url(services: Services, state: SandboxState, open_app: Any) -> None:
    invite = sorted(state.invites[state.demo_org])[0]
    async with open_app(settings(services, state)) as (app, pilot):
        await keys(pilot, "D")
        form = app.screen
        assert isinstance(form, InviteDeleteForm)
        await keys(pilot, "ctrl+s")
        assert "Paste the invite link or its id." in form.problem_text
        await keys(pilot, *f"https://app.example.com/invite/{invite}", "ctrl+s")
        assert isinstance(app.screen, SettingsScreen)
        assert f"Invite link {invite} deleted." in said(app)
    assert invite not in state.invites[state.demo_org] and len(state.invites[state.demo_org]) == 1


async def test_only_admins_change_settings(services: Services, state: SandboxState, open_app: Any) -> None:
    state.tokens = {TOKEN: member_with(state, "edit")}
    async with open_app(settings(services, state)) as (app, pilot):
        screen = app.screen
        assert shown(screen.settings_list)["title"] == "Northwind Labs"  # members read them
        assert screen.why_not("edit_setting") == "Only admins of the organization can change its settings."
        assert screen.why_not("delete_invite") == "Only admins of the organization can delete invite links."
        await open_setting(pilot, screen, "title")
        assert app.screen is screen and "Only admins of the organization can change its settings." in said(app)


class JoinHost(FolioScreen):
    """Stands in for the organizations list: one organization and the J key bound as the lead will bind it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("J", "join", "Join", id="organizations.join", tooltip="Join the organization (by email domain)")
    ]

    def __init__(self, services: Services, org: Organization) -> None:
        super().__init__(services)
        self.org = org
        self.joined: Organization | None = None

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Footer()

    def action_join(self) -> None:
        confirm_join(self, self.services.access, self.org, joined=self._joined)

    def _joined(self, org: Organization) -> None:
        self.joined = org


async def test_join_an_organization_by_email_domain(services: Services, state: SandboxState, open_app: Any) -> None:
    other = next(o for o in state.orgs if o != state.demo_org)
    newcomer = member_with(state, "read")
    state.orgs[other]["emailDomains"] = ["northwind.dev"]
    state.tokens = {TOKEN: newcomer}
    org = await services.access.organization(other)
    async with open_app(lambda: JoinHost(services, org)) as (app, pilot):
        await keys(pilot, "J")
        assert isinstance(app.screen, JoinConfirm)
        await keys(pilot, "n")
        assert newcomer not in state.members[other] and "Not joined Open Robotics Guild." in said(app)
        await keys(pilot, "J")
        await keys(pilot, "y")
        assert newcomer in state.members[other]
        assert app.screen.joined is not None and app.screen.joined.permissions.access
        assert "You joined Open Robotics Guild (role: read)." in said(app)
        app.screen.org = app.screen.joined  # the joined organization is no longer joinable: said, not asked
        await keys(pilot, "J")
        assert isinstance(app.screen, JoinHost)
        assert said(app)[-1] == "You are already a member of this organization."


async def test_the_verbs_open_the_screens_of_the_organization_in_view(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    from folio.tui.screens.content.organization import OrganizationScreen
    from folio.tui.screens.insights.agent import AgentScreen
    from folio.tui.screens.people.sso import SsoScreen

    def start() -> OrganizationScreen:
        return OrganizationScreen(services, state.demo_org, title="Northwind Labs", trail=("Organizations",))

    async with open_app(start) as (app, pilot):
        for verb, kind in (("sso", SsoScreen), ("settings", SettingsScreen), ("agent", AgentScreen)):
            await keys(pilot, "colon")  # the command line opens before anything is typed into it
            await keys(pilot, *verb, "enter")
            assert isinstance(app.screen, kind) and app.screen.org_id == state.demo_org
            assert app.screen.trail == ("Organizations", "Northwind Labs", app.screen.crumb)
            await keys(pilot, "escape")
            assert isinstance(app.screen, OrganizationScreen)


async def test_words_after_the_verb_filter_the_settings(services: Services, state: SandboxState, open_app: Any) -> None:
    screen = routes.build(services, "settings", {"org_id": state.demo_org, "words": "host"})
    async with open_app(lambda: screen) as (app, _):
        assert list(shown(app.screen.settings_list)) == ["hostname"]
        assert app.screen.words == "host"  # what the session saves
