"""What a new user and a hostile server found, fixed in the shared mechanisms (the list's filter, the routes and
jumps, the forms): each test failed before its fix."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui.screens.base import FolioScreen
from folio.tui.screens.content.organization import OrganizationScreen
from folio.tui.screens.content.organizations import OrganizationsScreen
from tests.conftest import FROZEN_AT
from tests.tui.conftest import settle
from tests.tui.test_preflight import confirm_merge


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


@pytest.fixture
def org_screen(services: Services, state: SandboxState) -> Any:
    return lambda: OrganizationScreen(services, state.demo_org, title="Northwind Labs", trail=("Organizations",))


def burst(app: Any, *keys: str) -> None:
    """Keys as a paste or a fast typist sends them: all queued on the app (as the terminal driver does) before
    any is handled."""
    for key in keys:
        character = {"slash": "/", "space": " "}.get(key, key if len(key) == 1 else None)
        app.post_message(events.Key(key, character))


async def test_keys_typed_right_after_slash_reach_the_filter_box(open_app: Any, org_screen: Any) -> None:
    """#21: `/paging` in one burst on the inbox filters by "paging"; the `a` does not switch "awaiting me" on."""
    async with open_app(org_screen) as (app, pilot):
        screen = app.screen
        await pilot.press("3")
        await settle(pilot)
        inbox = screen.inbox
        burst(app, "slash", "p", "a", "g", "i", "n", "g")
        await settle(pilot)
        assert inbox.browser.typed_filter == "paging"
        assert not inbox.inbox.awaiting_me
        titles = [str(row.cells[0]) for row in inbox.browser.list.visible_rows]
        assert titles == ["#2 Weekend paging rotation"]


async def test_esc_after_enter_in_the_filter_clears_it_first(open_app: Any, services: Any) -> None:
    """#10: esc with a live filter (the list focused again) clears the filter; the next esc goes back."""
    async with open_app(lambda: OrganizationsScreen(services)) as (app, pilot):
        await pilot.press("enter")  # into the first organization
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, OrganizationScreen)
        await pilot.press("2", "slash", "g", "u", "i", "d", "e", "enter")  # filter, then back to the list
        await settle(pilot)
        assert screen.spaces_list.list.has_focus and screen.spaces_list.typed_filter == "guide"
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen, "esc cleared the filter instead of leaving"
        assert screen.spaces_list.typed_filter == "" and screen.spaces_list.list.filter_text == ""
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, OrganizationsScreen)


async def test_esc_after_a_jump_goes_to_the_screen_the_breadcrumb_shows(services: Any, open_app: Any) -> None:
    """#9: from an organization, `:space Getting` then esc lands on the organization, not the organizations."""
    async with open_app(lambda: OrganizationsScreen(services)) as (app, pilot):
        await pilot.press("enter")
        await settle(pilot)
        organization = app.screen
        assert isinstance(organization, OrganizationScreen)
        await pilot.press("colon")
        await settle(pilot)
        await pilot.press(*"space", "space", *"Getting", "enter")
        await settle(pilot)
        assert type(app.screen).__name__ == "SpaceScreen"
        assert "Northwind Labs" in app.screen.sub_title
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is organization


class Poking(FolioScreen):
    """A screen with one action that cannot act while ``ready`` is False, and says why."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "poke", "Poke", id="test.poke", tooltip="Poke")]

    def __init__(self, services: Services) -> None:
        super().__init__(services)
        self.ready = False
        self.pokes = 0

    def compose(self) -> ComposeResult:
        yield Footer()

    def why_not(self, action: str) -> str | None:
        return "Nothing to poke yet." if action == "poke" and not self.ready else None

    def action_poke(self) -> None:
        self.pokes += 1


async def test_a_key_that_cannot_act_says_why(open_app: Any, services: Services) -> None:
    """#13: a greyed-out key tells why when pressed, and acts once it can."""
    async with open_app(lambda: Poking(services)) as (app, pilot):
        screen = app.screen
        assert screen.check_action("poke", ()) is None  # greyed out in the footer
        await pilot.press("x")
        await settle(pilot)
        assert screen.pokes == 0
        assert [n.message for n in app._notifications][-1:] == ["Nothing to poke yet."]
        screen.ready = True
        screen.refresh_bindings()
        await pilot.press("x")
        await settle(pilot)
        assert screen.pokes == 1


async def test_a_merge_updates_the_inbox_that_showed_the_change_request(open_app: Any, org_screen: Any) -> None:
    """#24: after a merge, going back to the organization's inbox shows the change request merged, without r."""
    async with open_app(org_screen, size=(120, 40)) as (app, pilot):
        screen = app.screen
        await pilot.press("3")
        await settle(pilot)
        first = screen.inbox.browser.list.highlighted
        assert first is not None
        await pilot.press("enter")
        await settle(pilot)
        assert type(app.screen).__name__ == "ChangeRequestScreen"
        await pilot.press("m")  # the pre-flight asks first (the merge waits for the answer: no settle here)
        await confirm_merge(pilot)
        await settle(pilot)
        assert any("erged" in n.message for n in app._notifications), [n.message for n in app._notifications]
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        assert first.key not in [row.key for row in screen.inbox.browser.list.rows], "the merged one left the open list"


class Reviewing(Poking):
    """A screen that binds R (as the change request screen does for its review) and cannot act on it now."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("R", "poke", "Review", id="test.review", tooltip="Review")]


async def test_a_screen_key_never_falls_through_to_the_apps_key(open_app: Any, services: Services) -> None:
    """#23: R greyed out on a screen says why; it does not reload every screen (the app's R)."""
    async with open_app(lambda: Reviewing(services)) as (app, pilot):
        await pilot.press("R")
        await settle(pilot)
        messages = [n.message for n in app._notifications]
        assert messages == ["Nothing to poke yet."], messages
        assert not any("trail again" in m for m in messages)


async def test_join_an_organization_from_the_organizations_list(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """#11: J on the organizations list joins an organization whose email domain admits the user."""
    from tests.conftest import TOKEN
    from tests.tui.test_settings import member_with

    other = next(o for o in state.orgs if o != state.demo_org)
    newcomer = member_with(state, "read")
    state.orgs[other]["emailDomains"] = ["northwind.dev"]
    state.tokens = {TOKEN: newcomer}
    async with open_app(lambda: OrganizationsScreen(services)) as (app, pilot):
        screen = app.screen
        assert [o.id for o in screen.organizations] == [state.demo_org]
        await pilot.press("J")
        await settle(pilot)
        await pilot.press(*"nope", "enter")
        await settle(pilot)
        assert "Not sent" in app.screen.problem_text  # refused by the service, the id is kept
        await pilot.press("ctrl+a", "ctrl+k")
        await pilot.press(*other, "enter")
        await settle(pilot)
        assert newcomer in state.members[other]
        assert app.screen is screen and sorted(o.id for o in screen.organizations) == sorted([state.demo_org, other])


async def test_the_inbox_hint_fits_one_line_with_two_filters(open_app: Any, org_screen: Any) -> None:
    """#18: at 80 columns the inbox's hint line does not wrap with two filters on."""
    async with open_app(org_screen, size=(80, 24)) as (app, pilot):
        screen = app.screen
        await pilot.press("3")
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        hint = screen.inbox.query_one(".resource-panel--hint")
        text = str(hint.render())
        assert "awaiting my review · mine" in text
        assert hint.size.height == 1 and len(text) <= 78, text


async def test_a_refused_empty_comment_keeps_the_buttons_on_screen(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """#16: sending an empty comment says "Write something first"; at 24 rows the buttons stay in view."""
    from folio.tui.modals.text_entry import TextEntryModal
    from folio.tui.screens.content.space import SpaceScreen

    sid = next(s["id"] for s in state.spaces.values() if s["title"] == "Getting Started")
    async with open_app(lambda: SpaceScreen(services, sid), size=(80, 24)) as (app, pilot):
        await pilot.press("5")
        await settle(pilot)
        await pilot.press("c")
        await pilot.pause()
        await pilot.pause()
        if not isinstance(app.screen, TextEntryModal):  # a page picker first: the whole space
            await pilot.press("enter")
            await pilot.pause()
            await pilot.pause()
        modal = app.screen
        assert isinstance(modal, TextEntryModal)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Write something first." in modal.problem_text
        send = modal.query_one("#send")
        assert send.region.bottom <= 24 and send.region.height >= 1, send.region


async def test_an_organization_command_from_the_organizations_list_uses_the_one_under_the_cursor(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """:members on the organizations list opens the members of the organization under the cursor."""
    async with open_app(lambda: OrganizationsScreen(services)) as (app, pilot):
        await pilot.press("j")  # the second organization
        await pilot.press("colon")
        await settle(pilot)
        await pilot.press(*"members", "enter")
        await settle(pilot)
        second = app.screen_stack[1].organizations[1]  # type: ignore[attr-defined]
        assert type(app.screen).__name__ == "MembersScreen"
        assert getattr(app.screen, "org_id", None) == second.id
        assert second.title in app.screen.sub_title


async def test_a_search_hit_opens_its_page_in_the_space(services: Services, state: SandboxState, open_app: Any) -> None:
    """#12: Open("space", {"space_id", "page_id"}) (enter on a search hit) opens the space on that page."""
    from folio.tui import routes

    space = next(s for s in state.spaces.values() if s["title"] == "Getting Started")
    pages = state.revisions[space["revision"]]["pages"]
    wanted = pages[-1]
    ids = {"space_id": space["id"], "page_id": wanted["id"]}
    async with open_app(lambda: routes.build(services, "space", ids)) as (app, pilot):
        await settle(pilot)
        entry = app.screen.page_tree.entry
        assert entry is not None and entry.page.id == wanted["id"]
        assert app.screen.page_view.page_id == wanted["id"]


async def test_the_status_button_says_what_it_does(services: Services, state: SandboxState, open_app: Any) -> None:
    """#18: S on an open change request asks with an "Archive" button, not "Archived"."""
    from textual.widgets import Button

    from folio.tui.modals.confirm import ConfirmModal
    from folio.tui.screens.review.change_request import ChangeRequestScreen

    cr = next(c for c in state.change_requests.values() if c["status"] == "open")
    async with open_app(lambda: ChangeRequestScreen(services, cr["space"], cr["number"])) as (app, pilot):
        await pilot.press("S")
        await pilot.pause()
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, ConfirmModal)
        labels = [str(b.label) for b in modal.query(Button)]
        assert any(label.startswith("Archive") and "Archived" not in label for label in labels), labels
        await pilot.press("escape")


async def test_a_on_a_change_request_asks_members_to_review(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """#12: a on the change request screen picks members and asks them to review (the sandbox records them)."""
    from textual.widgets import SelectionList

    from folio.tui.modals.change_request_forms import RequestReviewersModal
    from folio.tui.screens.review.change_request import ChangeRequestScreen

    cr = next(c for c in state.change_requests.values() if c["status"] == "open")
    async with open_app(lambda: ChangeRequestScreen(services, cr["space"], cr["number"])) as (app, pilot):
        await pilot.press("a")
        for _ in range(20):
            if isinstance(app.screen, RequestReviewersModal):
                break
            await pilot.pause(0.05)
        form = app.screen
        assert isinstance(form, RequestReviewersModal)
        picker = form.query_one(SelectionList)
        first = str(picker.get_option_at_index(0).value)
        await pilot.press("space", "ctrl+s")
        await settle(pilot)
        assert first in state.change_requests[cr["id"]]["requestedReviewers"]
