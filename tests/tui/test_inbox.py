"""``:inbox``, driven by keys over the seeded sandbox: reached from the command line, its default sections list the
change requests awaiting Ada and hers across both organizations, the organization inbox's keys change a section's
filter, enter opens the change request; the sections of config.toml are used, and a bad one is said in words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static, TabbedContent

from folio.config import paths
from folio.sandbox import SandboxState
from folio.sandbox.domain.change_requests import open_change_request
from folio.sandbox.domain.reviews import request_review
from folio.services import Services
from folio.services.review.inbox_watch import InboxWatch
from folio.tui.screens.content.organizations import OrganizationsScreen
from folio.tui.screens.review.inbox import InboxScreen
from tests.conftest import FROZEN_AT
from tests.tui.conftest import settle

AWAITING = [
    "#1 Calibrate the arm",
    "#2 Weekend paging rotation",
    "#1 Clarify Linux install steps",
    "#1 Add pagination to the Robots API",
]


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)


@pytest.fixture
def guild_cr(state: SandboxState) -> dict[str, Any]:
    """A change request in the second organization (Open Robotics Guild) awaiting Ada's review."""
    space = next(s for s in state.spaces.values() if s["organization"] != state.demo_org)
    emeka = next(uid for uid, u in state.users.items() if u["email"].startswith("emeka@"))
    record = open_change_request(state, space["id"], emeka, subject="Calibrate the arm")
    request_review(state, record, state.default_user, emeka)
    return record


def cr_space(state: SandboxState, subject: str) -> str:
    return str(next(c["space"] for c in state.change_requests.values() if c["subject"].startswith(subject)))


def rows(screen: InboxScreen) -> list[str]:
    return [str(row.cells[0]) for row in screen.section.browser.list.visible_rows]


def write_config(text: str) -> None:
    path = paths().config_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


async def test_colon_inbox_lists_every_organization_by_section_and_enter_opens(
    open_app: Any, services: Services, state: SandboxState, guild_cr: dict[str, Any]
) -> None:
    async with open_app(lambda: OrganizationsScreen(services)) as (app, pilot):
        await pilot.press("colon")
        await settle(pilot)
        await pilot.press(*"inbox", "enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        tabs = [str(t.label) for t in screen.query("Tab")]
        assert tabs == ["1 Needs my review", "2 Mine"]
        assert sorted(rows(screen)) == sorted(AWAITING)
        named = {str(row.cells[0]): str(row.cells[1]) for row in screen.section.browser.list.visible_rows}
        assert named["#1 Calibrate the arm"] == state.spaces[guild_cr["space"]]["title"]  # the spaces are named
        assert named["#1 Clarify Linux install steps"] == state.spaces[cr_space(state, "Clarify")]["title"]

        await pilot.press("2")
        await settle(pilot)
        assert screen.query_one(TabbedContent).active == "section-2"
        assert sorted(rows(screen)) == ["#1 Failover: lower the DNS TTL first", "#2 Explain rollout waves"]
        await pilot.press("s")  # the status, as in an organization's inbox: open -> archived
        await settle(pilot)
        assert screen.section.inbox.status == "archived" and rows(screen) == []
        await pilot.press("s", "s")  # merged, then every status: Ada's draft comes too
        await settle(pilot)
        assert "#2 Reorganise troubleshooting" in rows(screen)

        await pilot.press("5")  # no fifth section: it says so
        await settle(pilot)
        assert any("has 2 sections" in str(n.message) for n in app._notifications)

        await pilot.press("1")
        await settle(pilot)
        top = rows(screen)[0]
        await pilot.press("enter")
        await settle(pilot)
        assert type(app.screen).__name__ == "ChangeRequestScreen"
        assert getattr(app.screen, "space_id", None) == next(
            c["space"] for c in state.change_requests.values() if f"#{c['number']} {c['subject']}" == top
        )


async def test_the_sections_of_config_toml_are_used(open_app: Any, services: Services, state: SandboxState) -> None:
    write_config(
        '[[inbox.sections]]\ntitle = "Merged, mine"\nfilter = "mine merged"\n'
        '[[inbox.sections]]\ntitle = "[b]Review[/b]"\nfilter = "awaiting-me outdated"\n'
    )
    merged = next(c for c in state.change_requests.values() if c["subject"] == "Explain rollout waves")
    merged["status"] = "merged"
    async with open_app(lambda: InboxScreen(services)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        assert [str(t.label) for t in screen.query("Tab")] == ["1 Merged, mine", "2 [b]Review[/b]"]  # not markup
        assert rows(screen) == ["#2 Explain rollout waves"]
        await pilot.press("2")
        await settle(pilot)
        assert rows(screen) == ["#1 Add pagination to the Robots API"]


async def test_a_bad_section_is_said_and_the_defaults_shown(
    open_app: Any, services: Services, isolated_home: Path
) -> None:
    write_config('[[inbox.sections]]\ntitle = "Soon"\nfilter = "awaiting-me soon"\n')
    async with open_app(lambda: InboxScreen(services)) as (app, _pilot):
        screen = app.screen
        said = str(screen.query_one("#inbox-problem", Static).render())
        assert "inbox.sections[1].filter: 'soon' is not a filter word" in said
        assert "default sections are shown" in said
        assert [str(t.label) for t in screen.query("Tab")] == ["1 Needs my review", "2 Mine"]


async def test_while_folio_is_open_a_new_review_request_is_a_toast_once(
    open_app: Any, services: Services, state: SandboxState, monkeypatch: pytest.MonkeyPatch
) -> None:
    looks: list[list[Any]] = []
    look = InboxWatch.poll

    async def counted(self: InboxWatch) -> list[Any]:
        found = await look(self)
        looks.append(found)
        return found

    monkeypatch.setattr(InboxWatch, "poll", counted)

    async def until(pilot: Any, done: Any) -> None:
        for _ in range(1000):  # (ordering, not timing: the bound only stops a broken build hanging)
            if done():
                return
            await pilot.pause(0.01)

    async with open_app(lambda: OrganizationsScreen(services)) as (app, pilot):
        app.inbox_watch = 0.01  # (started after open_app has let its workers finish: this one never does)
        app.start_inbox_watch()

        def toasts() -> list[str]:
            return [str(n.message) for n in app._notifications if n.title == "Inbox"]

        await until(pilot, lambda: len(looks) >= 2)
        assert toasts() == []  # the first look found three review requests waiting: taken as seen, not said

        record = next(c for c in state.change_requests.values() if c["subject"] == "December 2026 release notes")
        emeka = next(uid for uid, u in state.users.items() if u["email"].startswith("emeka@"))
        request_review(state, record, state.default_user, emeka)
        await until(pilot, toasts)
        seen = len(looks)
        await until(pilot, lambda: len(looks) >= seen + 2)  # two more looks: it is said once
        assert toasts() == ["Review asked of you by Emeka Nwosu: #1 December 2026 release notes (Northwind Labs)"]
        app.workers.cancel_group(app, "inbox-watch")


def test_the_session_reopens_the_inbox(services: Services) -> None:
    from folio.tui import session

    data = session.snapshot([InboxScreen(services, trail=("Organizations",))])
    assert [entry["screen"] for entry in data["screens"]] == ["inbox"]
    (screen,) = session.rebuild(services, data)
    assert isinstance(screen, InboxScreen) and screen.trail == ("Organizations", "Inbox")
