"""The space screen's changes to the space (edit, lock, duplicate, transfer, delete) and what it adds to its tabs
(the header's Git sync, where a file is used, the current revision compared with a change request, a page's
links), driven by keys over the seeded sandbox; every write is checked in what the sandbox now holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Input, RadioButton, Select, SelectionList, Static

from folio.sandbox import SandboxState
from folio.sandbox.seed.content import MISSING_PAGE
from folio.services import Services
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.content_forms import EditSpaceModal
from folio.tui.modals.site_forms import ChoiceModal, TypedConfirmModal
from folio.tui.screens.content.space import SpaceScreen
from folio.tui.widgets.diff_view import DiffView
from folio.tui.widgets.space_extras import FileDetail, PageLinksModal, RevisionPanel
from tests.conftest import FROZEN_AT

ASKING = {"space-change", "revision-compare", "space-page-links"}
"""Worker groups that wait on a modal: settled once the modal is up."""


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


def space_of(state: SandboxState, title: str) -> dict[str, Any]:
    return next(s for s in state.spaces.values() if s["title"] == title)


@pytest.fixture
def open_space(open_app: Callable[..., Any], services: Services, state: SandboxState) -> Callable[..., Any]:
    def run(title: str = "Getting Started", **kwargs: Any) -> Any:
        sid = space_of(state, title)["id"]
        return open_app(lambda: SpaceScreen(services, sid, trail=("Northwind Labs",)), **kwargs)

    return run


async def settle(pilot: Pilot[None]) -> None:
    """Let workers finish (those waiting on an open modal excepted) and the screen redraw."""
    app = pilot.app
    for _ in range(500):
        await pilot.pause()
        asking = isinstance(app.screen, ModalScreen)
        busy = [w for w in app.workers if w.is_running and not (asking and w.group in ASKING)]
        if not busy:
            break
    else:
        raise AssertionError(f"workers still running: {busy}")
    await pilot.pause()


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await settle(pilot)


def facts(pilot: Pilot[None]) -> str:
    return str(pilot.app.screen.query_one("#space-facts", Static).render())


def notes(pilot: Pilot[None]) -> list[str]:
    return [n.message for n in pilot.app._notifications]


def rendered(widget: Static) -> str:
    return str(widget.render())


# --- the header ------------------------------------------------------------------------------------------------


async def test_the_header_says_the_git_sync_and_the_lock(open_space: Any, state: SandboxState) -> None:
    async with open_space("REST API Reference") as (_app, pilot):
        assert facts(pilot) == (
            "Public · Live editing · Git: northwind/rest-api-docs (github, synced 8 mo ago) · Language en · "
            "2 open change requests · 1 open comment"
        )
        await keys(pilot, "L")
        assert space_of(state, "REST API Reference")["editMode"] == "locked"
        assert facts(pilot).startswith("Public · Locked: no edits · Git: northwind/rest-api-docs")
        assert "Locked “REST API Reference”: nobody can edit it until it is unlocked." in notes(pilot)
        await keys(pilot, "L")
        assert space_of(state, "REST API Reference")["editMode"] == "live"
        assert facts(pilot).startswith("Public · Live editing")


# --- edit, duplicate, transfer, delete ---------------------------------------------------------------------------


async def test_the_space_is_edited_with_specific_reviewers(open_space: Any, state: SandboxState) -> None:
    async with open_space() as (app, pilot):
        await keys(pilot, "e")
        form = app.screen
        assert isinstance(form, EditSpaceModal)
        assert form.values()["title"] == "Getting Started" and form.values()["merge"] == "inherit"
        await keys(pilot, "end", "ctrl+u", *"Start here", "tab", "ctrl+u", *"🚀")
        form.query_one("#field-language", Select).value = "fr"
        form.query_one("#field-default_level", Select).value = "comment"
        form.query_one("#choice-merge-1", RadioButton).value = True
        await keys(pilot, "ctrl+s")
        assert "Pick at least one reviewer" in form.problem_text  # nothing sent yet
        assert space_of(state, "Getting Started")["title"] == "Getting Started"
        picker = form.query_one(SelectionList)
        picker.select(picker.get_option_at_index(0).value)
        await keys(pilot, "ctrl+s")
        space = space_of(state, "Start here")
        reviewer = picker.get_option_at_index(0).value
        assert space["emoji"] == "🚀" and space["language"] == "fr" and space["defaultLevel"] == "comment"
        assert space["mergeRules"] == {
            "type": "rules",
            "rules": [{"rule": "require_specific_reviewers", "users": [reviewer]}],
        }
        assert "Language fr" in facts(pilot)
        assert pilot.app.screen.sub_title.endswith("🚀 Start here")
        assert "Saved the space “Start here”." in notes(pilot)


async def test_an_emoji_that_is_not_one_is_refused_as_typed_and_nothing_is_sent(
    open_space: Any, state: SandboxState
) -> None:
    async with open_space() as (app, pilot):
        await keys(pilot, "e", "tab", "ctrl+u", *"hello")
        form = app.screen
        assert isinstance(form, EditSpaceModal)
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, EditSpaceModal) and form.values()["emoji"] == "hello"
        assert "Not an emoji" in form.problem_text
        assert space_of(state, "Getting Started")["emoji"] != "hello"
        await keys(pilot, "ctrl+u", *"1f389", "ctrl+s")  # its code point is an emoji too
        assert space_of(state, "Getting Started")["emoji"] == "1f389"


async def test_an_emoji_the_service_holds_is_not_checked_again(open_space: Any, state: SandboxState) -> None:
    space = space_of(state, "Getting Started")
    space["emoji"] = "hello"  # set by another client, before the check existed
    async with open_space() as (app, pilot):
        await keys(pilot, "e", "end", "ctrl+u", *"Renamed", "ctrl+s")
        assert not isinstance(app.screen, EditSpaceModal)
        assert space["title"] == "Renamed" and space["emoji"] == "hello"


async def test_a_refused_edit_keeps_what_was_typed(open_space: Any, state: SandboxState) -> None:
    async with open_space() as (app, pilot):
        await keys(pilot, "e", "end", "ctrl+u", *"Kept title")
        space_of(state, "Getting Started")["deletedAt"] = state.now()  # deleted elsewhere meanwhile
        await keys(pilot, "ctrl+s")
        form = app.screen
        assert isinstance(form, EditSpaceModal)
        assert form.values()["title"] == "Kept title" and "Not saved" in form.problem_text


async def test_the_space_is_duplicated_and_the_copy_opens(open_space: Any, state: SandboxState) -> None:
    async with open_space() as (app, pilot):
        await keys(pilot, "d")
        assert isinstance(app.screen, ConfirmModal)
        await keys(pilot, "y")
        copy = space_of(state, "Getting Started (copy)")
        screen = app.screen
        assert isinstance(screen, SpaceScreen) and screen.space_id == copy["id"]
        assert copy["parent"] == space_of(state, "Getting Started")["parent"]
        assert "Duplicated “Getting Started” as “Getting Started (copy)”." in notes(pilot)


async def test_the_space_is_transferred_to_another_organization(open_space: Any, state: SandboxState) -> None:
    guild = next(o for o in state.orgs if o != state.demo_org)
    async with open_space("Scratchpad") as (app, pilot):
        assert app.screen.sub_title == "Northwind Labs \u203a 📝 Scratchpad"
        await keys(pilot, "t")
        picker = app.screen
        assert isinstance(picker, ChoiceModal)
        assert [c.label for c in picker.choices] == ["Northwind Labs (where it is now)", "Open Robotics Guild"]
        await keys(pilot, "down", "enter")
        where = app.screen
        assert isinstance(where, ChoiceModal) and where.choices[0].label == "No collection: the organization's root"
        await keys(pilot, "enter")
        assert space_of(state, "Scratchpad")["organization"] == guild
        assert "Transferred “Scratchpad”." in notes(pilot)
        assert app.screen.sub_title == "Open Robotics Guild \u203a 📝 Scratchpad"  # the header names where it is now


async def test_the_transfer_pickers_say_their_keys_once(open_space: Any) -> None:
    async with open_space("Scratchpad") as (app, pilot):
        await keys(pilot, "t")
        for _ in range(2):  # the organization, then the collection there
            said = " ".join(rendered(app.screen.query_one(f".form--{part}", Static)) for part in ("intro", "help"))
            assert said.count("enter") == 1 and said.count("esc") == 1, said
            await keys(pilot, "enter")


async def test_a_published_space_is_not_transferred_and_says_why(open_space: Any, state: SandboxState) -> None:
    async with open_space() as (_app, pilot):
        await keys(pilot, "t", "down", "enter", "enter")
        assert space_of(state, "Getting Started")["organization"] == state.demo_org
        assert any("published on a site" in n for n in notes(pilot))


async def test_the_space_is_deleted_once_its_title_is_typed(open_space: Any, state: SandboxState) -> None:
    async with open_space("Scratchpad") as (app, pilot):
        await keys(pilot, "D")
        confirm = app.screen
        assert isinstance(confirm, TypedConfirmModal)
        confirm.query_one(Input).value = "Scratch"
        await keys(pilot, "enter")
        assert isinstance(app.screen, TypedConfirmModal) and not space_of(state, "Scratchpad").get("deletedAt")
        confirm.query_one(Input).value = "Scratchpad"
        await keys(pilot, "enter")
        assert space_of(state, "Scratchpad")["deletedAt"]
        assert facts(pilot).startswith("Deleted, restorable until 2026-11-08 09:00 UTC")
        assert "Deleted “Scratchpad”: it can be restored for 7 days." in notes(pilot)
        assert app.screen.why_not("edit_space") == "The space is deleted: restore it first."  # type: ignore[attr-defined]


# --- what the tabs add -------------------------------------------------------------------------------------------


async def test_the_file_under_the_cursor_says_where_it_is_used(open_space: Any) -> None:
    async with open_space(size=(100, 30)) as (app, pilot):
        await keys(pilot, "2")
        detail = app.screen.query_one(FileDetail)
        text = rendered(detail)
        assert text.splitlines()[0].startswith("“getting-started-diagram.png” · image/png · ")
        assert "Used on 1 page in 1 space:" in text and "• Getting Started \u203a Welcome" in text
        await keys(pilot, "j")
        assert "Not used on any page." in rendered(detail)


async def test_the_revision_is_shown_with_its_commit_and_compared_with_a_change_request(
    open_space: Any, state: SandboxState
) -> None:
    api = space_of(state, "REST API Reference")
    state.revisions[api["revision"]]["git"] = {
        "oid": "0123456789abcdef0123",
        "message": "Document the rollout waves",
        "createdByGitBook": False,
        "url": "https://github.com/northwind/rest-api-docs/commit/0123456789abcdef0123",
        "ref": "refs/heads/main",
    }
    async with open_space("REST API Reference", size=(120, 36)) as (app, pilot):
        await keys(pilot, "6")
        panel = app.screen.query_one(RevisionPanel)
        lines = rendered(panel.query_one("#revision-facts", Static)).splitlines()
        assert lines[0].startswith(f"Revision {api['revision']} · edits · created ")
        assert lines[2] == "Git commit 0123456789ab on main: Document the rollout waves"
        assert app.screen.current_item().id == api["revision"]  # type: ignore[union-attr]
        await keys(pilot, "j")
        page = rendered(panel.query_one("#revision-page .page-view--title", Static))
        assert page.startswith("Robots")

        await keys(pilot, "c")
        picker = app.screen
        assert isinstance(picker, ChoiceModal)
        titles = [c.label for c in picker.choices]
        assert any("Remove the deprecated Rollouts API page" in t for t in titles)
        target = next(n for n, t in enumerate(titles) if "Remove the deprecated Rollouts API page" in t)
        await keys(pilot, *(["down"] * target), "enter")
        changed = [[str(c) for c in row.cells] for row in panel.changed.list.visible_rows]
        assert ["deleted", "Rollouts API"] in changed
        diff = panel.query_one("#revision-diff", DiffView)
        assert panel.changed.display and diff.display and not panel.pages.display
        title = rendered(panel.query_one("#revision-diff-title", Static))
        assert title.startswith("Current revision → #2 Remove the deprecated Rollouts API page")
        await keys(pilot, "p")
        assert panel.pages.display and not panel.changed.display


async def test_a_page_lists_its_links_with_the_broken_ones_marked(open_space: Any) -> None:
    async with open_space() as (app, pilot):
        screen = app.screen
        assert isinstance(screen, SpaceScreen)
        trouble = next(e for e in screen.pages if e.page.title == "Troubleshooting")
        screen.page_tree.list.move_to(trouble.page.id)
        await keys(pilot, "l")
        modal = app.screen
        assert isinstance(modal, PageLinksModal)
        assert "Links of “Troubleshooting” · 1 broken of 2" in rendered(modal.query_one(".page-links--title", Static))
        rows = [[str(c) for c in row.cells] for row in modal.query_one("#page-links").list.visible_rows]  # type: ignore[attr-defined]
        assert ["✗ broken", f"Missing page {MISSING_PAGE}", "page"] in rows
        await keys(pilot, "escape")
        assert isinstance(app.screen, SpaceScreen)
