"""The checks tab of the change request screen, driven by keys over the sandbox: the lint's findings and the
overlapping change requests; enter on a finding shows that page's diff, enter on a change request opens it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from folio.sandbox import SandboxState
from folio.sandbox.domain.change_requests import open_change_request
from folio.sandbox.revisions import walk
from folio.sandbox.seed.change_requests import Edit, commit, create, delete, edit
from folio.services import Services
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.widgets.review_checks import ReviewChecks
from tests.tui.conftest import settle

Opener = Callable[..., Any]


def space_id(state: SandboxState, title: str) -> str:
    return next(sid for sid, s in state.spaces.items() if s["title"] == title and s["organization"] == state.demo_org)


def make_cr(state: SandboxState, subject: str, edits: list[Edit]) -> dict[str, Any]:
    space = space_id(state, "Getting Started")
    record = open_change_request(state, space, state.default_user, subject=subject, at=state.now())
    commit(state, record, edits, state.now())
    record["status"] = "open"
    return record


def rows(screen: ChangeRequestScreen) -> list[tuple[str, str, str]]:
    pane = screen.query_one(ReviewChecks)
    return [tuple(str(c) for c in row.cells) for row in pane.browser.list.visible_rows]  # type: ignore[misc]


def page_id(state: SandboxState, record: dict[str, Any], title: str) -> str:
    pages = state.revisions[state.spaces[record["space"]]["revision"]]["pages"]
    return str(next(p["id"] for p, _, _ in walk(pages) if p["title"] == title))


async def test_enter_on_a_finding_shows_the_page_in_the_diff(
    services: Services, state: SandboxState, open_app: Opener
) -> None:
    record = make_cr(
        state,
        "Drop troubleshooting",
        [delete("Troubleshooting"), create("Glossary", "# Glossary\n"), edit("Linux", "", "\nArm64 too.\n")],
    )
    screen = ChangeRequestScreen(services, record["space"], record["number"])
    async with open_app(lambda: screen) as (_app, pilot):
        await pilot.press("4")
        await settle(pilot)
        found = rows(screen)
        assert found[0] == ("\u2717 broken link", "Your first robot", "Links to page “Troubleshooting” (removed).")
        assert ("! empty page", "Glossary", "The page is empty: no text under its title.") in found
        linux = next(r for r in found if r[0] == "\u21c4 overlaps")
        assert linux[1].endswith("Clarify Linux install steps") and "both edit “Linux”" in linux[2]
        item = screen.current_item()  # o and y act on the finding's page
        assert item is not None and (item.id, item.kind) == (page_id(state, record, "Your first robot"), "page")
        assert item.url and item.url.startswith("https://")
        summary = str(screen.query_one("#checks-summary").render())
        assert "1 broken link" in summary and "1 empty page" in summary
        # The first finding is on a page the change request leaves unchanged: every page is listed to show it.
        await pilot.press("enter")
        await settle(pilot)
        assert screen.tabs.active == "changes"
        assert screen.changes.shown == page_id(state, record, "Your first robot")
        assert screen.changes.page is not None and screen.changes.page.title == "Your first robot"
        await pilot.press("4", "j")  # the second finding: the deleted page, still linked
        await settle(pilot)
        assert rows(screen)[1][:2] == ("! still linked", "Troubleshooting")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.tabs.active == "changes" and screen.changes.shown == page_id(state, record, "Troubleshooting")


async def test_enter_on_an_overlapping_change_request_opens_it(
    services: Services, state: SandboxState, open_app: Opener
) -> None:
    linux = next(c for c in state.change_requests.values() if c["subject"] == "Clarify Linux install steps")
    mine = make_cr(state, "Linux: arm64", [edit("Linux", "", "\nArm64 too.\n")])
    screen = ChangeRequestScreen(services, linux["space"], linux["number"])
    async with open_app(lambda: screen) as (app, pilot):
        await pilot.press("4")
        await settle(pilot)
        found = rows(screen)
        at = next(i for i, r in enumerate(found) if r[0] == "\u21c4 overlaps")
        assert found[at][1] == f"#{mine['number']} Linux: arm64"
        assert "merging this one makes it outdated" in found[at][2]
        await pilot.press(*["j"] * at)
        item = screen.current_item()
        assert item is not None and (item.id, item.kind) == (mine["id"], "change request")
        await pilot.press("enter")
        await settle(pilot)
        opened = app.screen
        assert isinstance(opened, ChangeRequestScreen) and opened is not screen
        assert opened.cr is not None and opened.cr.id == mine["id"]
        await pilot.press("4")
        await settle(pilot)
        assert any(r[1].endswith("Clarify Linux install steps") for r in rows(opened))  # each lists the other


async def test_the_space_list_marks_change_requests_that_overlap(
    services: Services, state: SandboxState, open_app: Opener
) -> None:
    from folio.tui.screens.content.space import SpaceScreen
    from folio.tui.widgets.space_panels import ChangeRequestsPanel

    linux = next(c for c in state.change_requests.values() if c["subject"] == "Clarify Linux install steps")
    mine = make_cr(state, "Linux: arm64", [edit("Linux", "", "\nArm64 too.\n")])
    alone = make_cr(state, "Welcome wording", [edit("Welcome", "", "\nWelcome aboard.\n")])
    async with open_app(lambda: SpaceScreen(services, linux["space"]), size=(160, 50)) as (app, pilot):
        await pilot.press("4")
        await settle(pilot)
        panel = app.screen.query_one(ChangeRequestsPanel)
        subjects = {row.key: str(row.cells[1]) for row in panel.browser.list.rows}
        assert subjects[linux["id"]] == "\u21c4 Clarify Linux install steps"
        assert subjects[mine["id"]] == "\u21c4 Linux: arm64"
        assert subjects[alone["id"]] == "Welcome wording"
        hint = str(panel.query_one(".resource-panel--hint").render())
        assert "\u21c4 edits pages another open one edits" in hint


async def test_a_forecast_that_fails_is_said_and_the_lint_still_shows(
    services: Services, state: SandboxState, open_app: Opener, monkeypatch: Any
) -> None:
    from folio.api.errors import ServerError

    async def broken(space_id: str, cr_id: str) -> None:
        raise ServerError("The service failed.", status=503)

    monkeypatch.setattr(services.forecast, "forecast", broken)
    record = make_cr(state, "Drop troubleshooting", [delete("Troubleshooting")])
    screen = ChangeRequestScreen(services, record["space"], record["number"])
    async with open_app(lambda: screen) as (_app, pilot):
        await pilot.press("4")
        await settle(pilot)
        summary = str(screen.query_one("#checks-summary").render())
        assert "Could not read the other change requests" in summary and "Press r to try again." in summary
        assert rows(screen)[0][0] == "\u2717 broken link"
        monkeypatch.undo()
        await pilot.press("r")
        await settle(pilot)
        summary = str(screen.query_one("#checks-summary").render())
        assert "Could not read" not in summary and "other open change request" in summary


async def test_the_tab_shown_before_the_change_request_loaded_checks_it_once_in(
    services: Services, state: SandboxState, open_app: Opener, monkeypatch: Any
) -> None:
    import asyncio

    record = make_cr(state, "Drop troubleshooting", [delete("Troubleshooting")])
    gate = asyncio.Event()
    real = services.review.overview

    async def held(space_id: str, ref: str | int) -> Any:
        await gate.wait()
        return await real(space_id, ref)

    monkeypatch.setattr(services.review, "overview", held)
    screen = ChangeRequestScreen(services, record["space"], record["number"])
    async with open_app() as (app, pilot):
        await app.push_screen(screen)  # its load waits at the gate: the tab is shown before the change request
        await pilot.press("4")
        await pilot.pause()
        pane = screen.query_one(ReviewChecks)
        assert screen.tabs.active == "checks" and not pane.loaded
        assert "Checking this change request" in str(screen.query_one("#checks-summary").render())
        gate.set()
        await settle(pilot)
        assert pane.loaded and rows(screen)[0][0] == "\u2717 broken link"
