"""The merge pre-flight on the change request screen, driven by keys over the sandbox: a space that requires a
reviewer who has not approved shows ✗, the merge needs the typed confirmation and the sandbox refuses it (said in
words); once that reviewer approved through the API, every line is ✓ and ``y`` merges."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from folio.api import GitBookClient
from folio.api.errors import ApiError
from folio.sandbox import SandboxState
from folio.sandbox.domain.change_requests import open_change_request
from folio.sandbox.seed.change_requests import commit, edit
from folio.sandbox.state import Record
from folio.services import Services
from folio.services.review.preflight import Preflight
from folio.tui.app import FolioApp
from folio.tui.modals.preflight import MergeAnywayModal, PreflightModal
from folio.tui.screens.review.change_request import ChangeRequestScreen
from tests.conftest import TOKEN
from tests.tui.conftest import settle

Opener = Callable[..., Any]


def space_id(state: SandboxState, title: str) -> str:
    return next(sid for sid, s in state.spaces.items() if s["title"] == title and s["organization"] == state.demo_org)


def user(state: SandboxState, name: str) -> str:
    return next(uid for uid, u in state.users.items() if u["email"].startswith(name + "@"))


def guarded_cr(state: SandboxState, reviewer: str) -> Record:
    """A change request of Getting Started editing one page, in a space that requires ``reviewer``'s approval."""
    space = space_id(state, "Getting Started")
    record = open_change_request(state, space, state.default_user, subject="Restart first", at=state.now())
    commit(state, record, [edit("Troubleshooting", "", "\nRestart the robot first.\n")], state.now())
    record["status"] = "open"
    rules = [{"rule": "require_specific_reviewers", "users": [reviewer]}]
    state.spaces[space]["mergeRules"] = {"type": "rules", "rules": rules}
    return record


def on_top(app: FolioApp) -> object:
    """The screen in front (not narrowed by an earlier isinstance check)."""
    return app.screen


def notes(app: FolioApp) -> list[str]:
    return [n.message for n in app._notifications]


async def checklist(pilot: Pilot[None]) -> tuple[PreflightModal, str]:
    """After ``m``: the pre-flight modal once its checks ran, and its lines as text."""
    await pilot.pause()
    modal = pilot.app.screen
    assert isinstance(modal, PreflightModal)
    await modal.checked.wait()
    await pilot.pause()
    return modal, str(modal.query_one("#preflight-lines Static", Static).render())


async def confirm_merge(pilot: Pilot[None]) -> None:
    """After ``m``: wait for the checklist, press ``y``, and type ``merge`` when a failing line asks for it (for the
    tests of other screens that merge; the merge itself still runs: settle after)."""
    await checklist(pilot)
    await pilot.press("y")
    await pilot.pause()
    if isinstance(pilot.app.screen, MergeAnywayModal):
        await pilot.press(*"merge", "enter")
        await pilot.pause()


async def test_confirm_merge_types_it_when_a_line_fails(
    services: Services, state: SandboxState, open_app: Opener
) -> None:
    record = guarded_cr(state, user(state, "chen"))
    state.spaces[record["space"]]["mergeRules"] = {"type": "none"}  # the pages are not viewed: still a ✗
    screen = ChangeRequestScreen(services, record["space"], record["id"])
    async with open_app(lambda: screen) as (app, pilot):
        await pilot.press("m")
        await confirm_merge(pilot)
        await settle(pilot)
        assert record["status"] == "merged" and on_top(app) is screen


async def test_a_missing_approval_blocks_the_merge_until_the_reviewer_approves(
    services: Services, client: GitBookClient, state: SandboxState, open_app: Opener
) -> None:
    chen = user(state, "chen")
    record = guarded_cr(state, chen)
    space, name = record["space"], state.users[chen]["displayName"]
    main = state.spaces[space]["revision"]
    screen = ChangeRequestScreen(services, space, record["number"], trail=("Northwind Labs", "Getting Started"))
    async with open_app(lambda: screen) as (app, pilot):
        await pilot.press("m")
        modal, lines = await checklist(pilot)
        assert f"✗ Approved by {name}" in lines and f"Not yet approved by {name}." in lines
        assert "a ask for a review" in lines
        assert modal.flight is not None and not modal.flight.passed

        await pilot.press("y")  # a failing line: the merge must be typed
        await pilot.pause()
        assert isinstance(app.screen, MergeAnywayModal)
        await pilot.press(*"mrege", "enter")  # a typo merges nothing
        await pilot.pause()
        assert isinstance(app.screen, MergeAnywayModal) and record["status"] == "open"
        app.screen.query_one("#confirm-text").value = ""  # type: ignore[attr-defined]
        await pilot.press(*"merge", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ChangeRequestScreen)
        refused = [n for n in notes(app) if n.startswith(f"Could not merge #{record['number']}")]
        assert refused and f"{name} must approve it" in refused[0] and "(409)" in refused[0]
        assert record["status"] == "open" and state.spaces[space]["revision"] == main

        state.tokens = {TOKEN: chen}  # the reviewer approves, through the API
        await client.reviews.submit(space, record["id"], "approved", "Good")
        state.tokens = {TOKEN: state.default_user}
        changed = await services.review.changes(space, screen.cr)  # type: ignore[arg-type]
        for page in changed.changed:  # and the pages are looked at
            services.review.viewed.set_viewed(record["id"], record["revision"], page.id)

        await pilot.press("m")
        modal, lines = await checklist(pilot)
        assert f"✓ Approved by {name}" in lines and "✗" not in lines
        assert modal.flight is not None and modal.flight.passed
        await pilot.press("y")  # every line passes: one confirmation
        await settle(pilot)
        assert record["status"] == "merged" and state.spaces[space]["revision"] == record["revisionMerged"] != main
        assert any(n.startswith(f"Merged #{record['number']} into main") for n in notes(app))


async def test_a_fix_key_leaves_the_checklist_for_the_fix(
    services: Services, state: SandboxState, open_app: Opener
) -> None:
    record = guarded_cr(state, user(state, "chen"))
    screen = ChangeRequestScreen(services, record["space"], record["id"])
    async with open_app(lambda: screen) as (app, pilot):
        await pilot.press("m")
        await checklist(pilot)
        await pilot.press("u")  # up to date: nothing on the list needs it, so the checklist stays and says so
        await pilot.pause()
        assert isinstance(app.screen, PreflightModal)
        assert any("No failing check needs u" in n for n in notes(app))
        await pilot.press("2")  # the pages are not viewed: the changes tab
        await settle(pilot)
        assert on_top(app) is screen and screen.tabs.active == "changes"
        await pilot.press("m")
        await checklist(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert on_top(app) is screen and record["status"] == "open"


async def test_checks_that_cannot_run_say_so_and_the_merge_must_be_typed(
    services: Services, state: SandboxState, open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = guarded_cr(state, user(state, "chen"))
    state.spaces[record["space"]]["mergeRules"] = {"type": "none"}

    async def unreachable(space_id: str, cr: str | int) -> Preflight:
        raise ApiError("The service did not answer")

    monkeypatch.setattr(services.preflight, "check", unreachable)
    screen = ChangeRequestScreen(services, record["space"], record["id"])
    async with open_app(lambda: screen) as (app, pilot):
        await pilot.press("m")
        modal, lines = await checklist(pilot)
        assert "Could not run the checks: The service did not answer" in lines and modal.flight is None
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, MergeAnywayModal)
        assert "Nothing could be checked" in str(app.screen.query_one(".site-form--body", Static).render())
        await pilot.press(*str(record["number"]), "enter")  # the number confirms too
        await settle(pilot)
        assert record["status"] == "merged"


async def test_y_while_the_checks_run_says_why_and_merges_nothing(
    services: Services, state: SandboxState, open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = guarded_cr(state, user(state, "chen"))
    release = asyncio.Event()
    real = services.preflight.check

    async def slow(space_id: str, cr: str | int) -> Preflight:
        await release.wait()
        return await real(space_id, cr)

    monkeypatch.setattr(services.preflight, "check", slow)
    screen = ChangeRequestScreen(services, record["space"], record["id"])
    async with open_app(lambda: screen) as (app, pilot):
        await pilot.press("m")
        await pilot.pause()
        await pilot.press("y", "a")
        await pilot.pause()
        assert isinstance(app.screen, PreflightModal) and record["status"] == "open"
        assert notes(app)[-2:] == ["The checks are still running.", "The checks are still running."]
        release.set()
        _, lines = await checklist(pilot)
        assert "✗ Approved by" in lines
        await pilot.press("escape")
        await settle(pilot)
        assert on_top(app) is screen and record["status"] == "open"
