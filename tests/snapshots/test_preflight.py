"""The merge pre-flight pinned as SVG: the checklist of a change request whose space requires a reviewer who has
not approved (with a rule only the service checks, an open thread, an unviewed page and a broken link) at 80x24
and 160x50, every line passing at 80x24, and the typed confirmation of a merge with failing lines.

Update with ``pytest tests/snapshots/test_preflight.py --snapshot-update`` only after looking at the report.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from folio.sandbox import SandboxState
from folio.sandbox.domain.change_requests import open_change_request
from folio.sandbox.domain.reviews import add_review
from folio.sandbox.seed.change_requests import commit, edit
from folio.sandbox.state import Record
from folio.tui.app import FolioApp
from folio.tui.modals.preflight import PreflightModal
from folio.tui.screens.review.change_request import ChangeRequestScreen
from tests.snapshots.support import sandbox_services

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]


def _user(state: SandboxState, name: str) -> str:
    return next(uid for uid, u in state.users.items() if u["email"].startswith(name + "@"))


def _guarded(state: SandboxState, *, failing: bool) -> Record:
    """A change request of Getting Started in a space requiring Chen's approval (and a custom rule); ``failing``:
    Chen has not approved, a thread is open and an edit links to a page that does not exist."""
    space = next(s for s, r in state.spaces.items() if r["title"] == "Getting Started")
    record = open_change_request(state, space, state.default_user, subject="Restart first", at=state.now())
    text = "\nRestart the robot first. See [the FAQ](/pages/no-such-faq).\n" if failing else "\nRestart first.\n"
    commit(state, record, [edit("Troubleshooting", "", text)], state.now())
    record["status"] = "open"
    chen = _user(state, "chen")
    rules: list[Record] = [{"rule": "require_specific_reviewers", "users": [chen]}]
    if failing:
        rules.append({"rule": "custom", "expression": "true", "message": "Docs team sign-off"})
        cid = state.new_id()
        state.comments[cid] = {
            "id": cid,
            "space": space,
            "changeRequest": record["id"],
            "postedBy": chen,
            "postedAt": state.now(),
            "editedAt": None,
            "body": "Is the FAQ link right?",
            "target": {},
            "status": "open",
            "resolvedAt": None,
            "resolvedBy": None,
            "reactions": [],
            "replies": [],
        }
    else:
        add_review(state, record, chen, "approved", None, at=state.now())
    state.spaces[space]["mergeRules"] = {"type": "rules", "rules": rules}
    return record


def _app(sandbox: Any, state: SandboxState, record: Record, *, viewed: bool = False) -> FolioApp:
    services = sandbox_services(sandbox)
    if viewed:
        revision = state.revisions[record["revision"]]
        for page in revision["pages"]:
            services.review.viewed.set_viewed(record["id"], record["revision"], page["id"])
    trail = (state.orgs[state.demo_org]["title"], state.spaces[record["space"]]["title"])
    app = FolioApp(
        services, start=lambda: ChangeRequestScreen(services, record["space"], record["number"], trail=trail)
    )
    app.animation_level = "none"
    return app


def _checklist(*then: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    async def run(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        modal = pilot.app.screen
        assert isinstance(modal, PreflightModal)
        await modal.checked.wait()
        await pilot.pause()
        for key in then:
            await pilot.press(key)
            await pilot.pause()

    return run


@pytest.mark.parametrize("size", SIZES)
def test_preflight_failing(snap_compare: Any, app: Any, state: SandboxState, size: tuple[int, int]) -> None:
    record = _guarded(state, failing=True)
    assert snap_compare(_app(app, state, record), terminal_size=size, run_before=_checklist())


def test_preflight_passing(snap_compare: Any, app: Any, state: SandboxState) -> None:
    record = _guarded(state, failing=False)
    app_ = _app(app, state, record, viewed=True)
    assert snap_compare(app_, terminal_size=(80, 24), run_before=_checklist())


def test_preflight_typed_confirmation(snap_compare: Any, app: Any, state: SandboxState) -> None:
    record = _guarded(state, failing=True)
    assert snap_compare(_app(app, state, record), terminal_size=(80, 24), run_before=_checklist("y"))
