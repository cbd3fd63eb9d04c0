"""The invite links tab of ``:settings`` and inviting people by email, driven by keys over the seeded sandbox: the
links listed, one made, its role changed, one deleted, people invited with the limits checked under the field, a
lost answer looked for before anything is sent again, and a service without invite links told so plainly; each
checked in what the sandbox now holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Select, Static, TextArea

from folio.sandbox import SandboxState, create_app
from folio.sandbox.faults import Faults
from folio.services import Services
from folio.services.people.access import INVITES_NOT_OFFERED
from folio.tui.modals.access_forms import InviteDeleteForm, InviteLinkForm, InvitePeopleForm
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.screens.people.settings import SettingsScreen
from folio.tui.widgets.resource_browser import ResourceBrowser
from tests.conftest import FROZEN_AT, TOKEN
from tests.services.test_access_service import member_with
from tests.tui.conftest import settle


@pytest.fixture(autouse=True)
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


@pytest.fixture
def faults() -> Faults:
    return Faults()  # all off: a test turns one on for a moment


@pytest.fixture
def offered() -> bool:
    return True


@pytest.fixture
def app(state: SandboxState, faults: Faults, offered: bool):  # type: ignore[no-untyped-def]
    return create_app(state, faults=faults, offer_optional=offered)


def settings(services: Services, state: SandboxState) -> Callable[[], SettingsScreen]:
    return lambda: SettingsScreen(services, state.demo_org, trail=("Northwind Labs",))


def rows(browser: ResourceBrowser) -> list[list[str]]:
    return [[c if isinstance(c, str) else c.plain for c in r.cells] for r in browser.list.visible_rows]


def said(app: Any) -> list[str]:
    return [n.message for n in app._notifications]


def links(state: SandboxState) -> dict[str, dict[str, Any]]:
    return state.invites[state.demo_org]


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await settle(pilot)


async def choose(pilot: Pilot[None], form: Any, field: str, value: str) -> None:
    """Pick ``value`` in a drop-down by keys: open it, move to the value, enter."""
    select = form.query_one(f"#field-{field}", Select)
    select.focus()
    await keys(pilot, "enter")
    values = [v for _, v in next(f for f in form.fields() if f.name == field).choices]
    now = values.index(select.value)
    target = values.index(value)
    await keys(pilot, *(["down"] * (target - now) if target > now else ["up"] * (now - target)), "enter")
    assert select.value == value


async def test_the_links_are_listed_made_changed_and_deleted(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    read_link = next(i for i, link in links(state).items() if link["role"] == "read")
    async with open_app(settings(services, state), size=(100, 30)) as (app, pilot):
        screen = app.screen
        await keys(pilot, "2")
        panel = screen.invites
        assert sorted(r[1] for r in rows(panel.browser)) == ["edit", "read"]
        assert all(r[2] == "the organization" and r[3] == "yes" for r in rows(panel.browser))  # you are an admin
        await keys(pilot, "n")
        form = app.screen
        assert isinstance(form, InviteLinkForm)
        await choose(pilot, form, "role", "comment")
        await keys(pilot, "ctrl+s")
        assert app.screen is screen
        [made] = [i for i, link in links(state).items() if link["role"] == "comment"]
        assert any(m.startswith(f"Invite link made: {made} gives comment") for m in said(app))
        assert panel.browser.list.move_to(read_link)
        await keys(pilot, "e")
        form = app.screen
        assert isinstance(form, InviteLinkForm)
        await keys(pilot, "ctrl+s")  # nothing changed yet
        assert app.screen is form and "Nothing changed yet" in form.problem_text
        await choose(pilot, form, "role", "review")
        await keys(pilot, "ctrl+s")
        assert links(state)[read_link]["role"] == "review"
        assert panel.browser.list.move_to(made)
        await keys(pilot, "D")
        assert isinstance(app.screen, ConfirmModal)
        await keys(pilot, "y")
        assert made not in links(state) and f"Invite link {made} deleted." in said(app)
        assert made not in [r[0] for r in rows(panel.browser)]


async def test_d_on_a_made_up_id_says_no_link_has_it(services: Services, state: SandboxState, open_app: Any) -> None:
    before = dict(links(state))
    async with open_app(settings(services, state)) as (app, pilot):
        await keys(pilot, "D")
        assert isinstance(app.screen, InviteDeleteForm)
        await keys(pilot, *"madeUpInvite", "ctrl+s")
        assert isinstance(app.screen, SettingsScreen)
        assert "No invite link has that id (madeUpInvite): nothing was deleted." in said(app)
        assert not any("deleted." in m and "nothing" not in m for m in said(app))
    assert links(state) == before


async def test_invite_people_by_email_with_its_limits(services: Services, state: SandboxState, open_app: Any) -> None:
    org = state.demo_org
    async with open_app(settings(services, state), size=(100, 30)) as (app, pilot):
        await keys(pilot, "i")
        form = app.screen
        assert isinstance(form, InvitePeopleForm)
        emails = form.query_one("#field-emails", TextArea)
        emails.focus()
        await keys(pilot, *"ann@example.org, bob@", "ctrl+s")
        assert app.screen is form and "Not an email: bob@." in form.problem_text
        assert emails.text == "ann@example.org, bob@"  # kept as typed
        await keys(pilot, *"example.org")
        await choose(pilot, form, "role", "comment")
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, SettingsScreen) and "Invited 2 people." in said(app)
    members = {state.users[uid]["email"]: m for uid, m in state.members[org].items()}
    assert members["ann@example.org"]["role"] == members["bob@example.org"]["role"] == "comment"


async def test_a_lost_answer_is_looked_for_not_sent_again(
    services: Services, state: SandboxState, faults: Faults, open_app: Any
) -> None:
    async with open_app(settings(services, state), size=(100, 30)) as (app, pilot):
        await keys(pilot, "2", "n")
        form = app.screen
        assert isinstance(form, InviteLinkForm)
        faults.drop_after_write = 1.0  # made, its answer lost
        await keys(pilot, "ctrl+s")
        faults.drop_after_write = 0.0
        assert isinstance(app.screen, SettingsScreen)
        assert "The answer was lost, but the service has it: it was sent once." in said(app)
        assert sorted(link["role"] for link in links(state).values()) == ["edit", "read", "read"]  # made once


@pytest.mark.parametrize("offered", [False])
async def test_a_service_without_invite_links_says_so(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(settings(services, state), size=(100, 30)) as (app, pilot):
        screen = app.screen
        await keys(pilot, "2")
        status = screen.invites.browser.query_one(".resource-browser--status", Static)
        assert str(status.render()) == INVITES_NOT_OFFERED  # in words, not "404"
        await keys(pilot, "n")
        assert app.screen is screen and INVITES_NOT_OFFERED in said(app)
        await keys(pilot, "i")
        assert app.screen is screen and said(app).count(INVITES_NOT_OFFERED) == 2


async def test_only_admins_manage_invites(services: Services, state: SandboxState, open_app: Any) -> None:
    state.tokens = {TOKEN: member_with(state, "edit")}
    async with open_app(settings(services, state)) as (app, pilot):
        screen = app.screen
        assert screen.why_not("invite_people") == "Only admins of the organization can invite people."
        await keys(pilot, "2")
        assert screen.invites.why_not("new_link") == "Only admins of the organization can manage invite links."
