"""The pages tab of a change request (``folio.tui.widgets.cr_pages``), driven by keys over the seeded sandbox: a
batch of new/rename/move/delete/revert/file edits planned, shown and sent as one revision; a colleague's revision
met before sending; a lost answer found, not sent twice."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from folio.sandbox import Faults, SandboxState
from folio.sandbox.revisions import walk
from folio.services import Services
from folio.services.review.writing import MAX_FILE_BYTES
from folio.tui.app import FolioApp
from folio.tui.modals.cr_pages import AddFileModal, CrPlanModal, MovedOnModal
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.widgets.cr_pages import CrPages
from folio.tui.widgets.resource_browser import ResourceBrowser
from tests.conftest import Counting
from tests.tui.conftest import settle

LINUX = "Clarify Linux install steps"


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture
def cr(state: SandboxState) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == LINUX)


def tree(state: SandboxState, revision: str) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p, _, _ in walk(state.revisions[revision]["pages"])}


@pytest.fixture
def open_cr(flaky: Services, cr: dict[str, Any]) -> Callable[..., Any]:
    @asynccontextmanager
    async def run(size: tuple[int, int] = (80, 24)) -> AsyncIterator[tuple[FolioApp, Pilot[None]]]:
        app = FolioApp(flaky, start=lambda: ChangeRequestScreen(flaky, cr["space"], cr["number"], trail=("Org",)))
        app.animation_level = "none"
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await press(pilot, "5")
            yield app, pilot

    return run


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot)


async def ask(pilot: Pilot[None], *keys: str) -> None:
    """Keys that open a question: a worker waits on it, so do not wait for the workers."""
    await pilot.press(*keys)
    await pilot.pause()
    await pilot.pause()


def pages_of(app: FolioApp) -> CrPages:
    return (
        app.screen.query_one(CrPages)
        if isinstance(app.screen, ChangeRequestScreen)
        else app.screen_stack[-2].query_one(CrPages)
    )


def rows(app: FolioApp) -> list[tuple[str, int, str]]:
    pages = pages_of(app)
    return [(str(r.cells[0]), r.indent, str(r.cells[2])) for r in pages.browser.list.rows]


async def to_row(app: FolioApp, pilot: Pilot[None], title: str) -> None:
    pages = pages_of(app)
    key = next(r.key for r in pages.browser.list.rows if str(r.cells[0]) == title)
    assert pages.browser.list.move_to(key)
    await pilot.pause()


async def test_a_batch_of_every_edit_is_planned_shown_and_sent_as_one_revision(
    open_cr: Any,
    state: SandboxState,
    cr: dict[str, Any],
    counting: Counting,
    flaky: Services,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # (a short path to type)
    first = cr["revision"]
    before = tree(state, first)
    by_title = {p["title"]: pid for pid, p in before.items()}
    image = tmp_path / "d.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    async with open_cr() as (app, pilot):
        pages = pages_of(app)
        assert pages.has_focus_within and rows(app)[:3] == [
            ("Welcome", 0, ""),
            ("Installation", 0, ""),
            ("Linux", 1, ""),
        ]

        await to_row(app, pilot, "Installation")  # n: a new page, under the page under the cursor (the default)
        await ask(pilot, "n")
        await press(pilot, *"FAQ", "ctrl+s")
        assert ("FAQ", 1, "new") in rows(app)

        await to_row(app, pilot, "Welcome")  # e: the title and the slug, apart; the slug warns the URL changes
        await ask(pilot, "e")
        await ask(pilot, "home", "ctrl+k", *"Hi", "tab", "home", "ctrl+k", *"hi")
        assert "URL" in str(app.screen.query_one("#rename-url").render())
        await press(pilot, "ctrl+s")
        assert ("Hi", 0, "renamed") in rows(app)

        await to_row(app, pilot, "Your first robot")  # space picks up, up moves it into Installation, enter drops
        await press(pilot, "space", "up")
        assert "Moving “Your first robot”: under “Installation”, at the end" in str(
            pages.query_one("#cr-pages-note").render()
        )
        await press(pilot, "enter")
        assert ("Your first robot", 1, "moved") in rows(app)

        await to_row(app, pilot, "Windows")  # D: type the title
        await ask(pilot, "D")
        await press(pilot, *"Windows", "enter")
        assert ("Windows", 1, "deleted") in rows(app)

        await to_row(app, pilot, "Linux")  # v: asks, y
        await ask(pilot, "v")
        await press(pilot, "y")
        assert ("Linux", 1, "revert") in rows(app)

        await ask(pilot, "f")  # f: a local path; the link is shown and copied
        await press(pilot, *image.name, "ctrl+s")
        assert "![d.png](./d.png)" in str(pages.query_one("#cr-pages-note").render())
        assert app.clipboard == "![d.png](./d.png)"

        await ask(pilot, "P")  # the plan: six numbered lines
        modal = app.screen
        assert isinstance(modal, CrPlanModal)
        lines = [str(r.cells[1]) for r in modal.query_one(ResourceBrowser).list.rows]
        assert len(lines) == 6 and lines[0] == "New page “FAQ” under “Installation”"
        await press(pilot, "escape")
        assert counting.content_posts == []  # nothing sent yet: every edit is in the plan

        await ask(pilot, "ctrl+s")  # the plan shown first; y sends it
        assert isinstance(app.screen, CrPlanModal)
        await press(pilot, "y")
        await settle(pilot)
        assert "Sent into change request #" in str(pages.query_one("#cr-pages-note").render())
        assert rows(app)[0] == ("Hi", 0, "")  # read again: what the service holds, nothing planned

    assert len(counting.content_posts) == 1
    now = state.change_requests[cr["id"]]
    after = tree(state, now["revision"])
    assert now["revision"] != first
    welcome = after[by_title["Welcome"]]
    assert (welcome["title"], welcome["slug"]) == ("Hi", "hi")
    installation = after[by_title["Installation"]]
    assert [p["title"] for p in installation["pages"]] == ["Linux", "macOS", "FAQ", "Your first robot"]
    assert by_title["Windows"] not in after
    main = tree(state, state.spaces[cr["space"]]["revision"])
    assert after[by_title["Linux"]]["markdown"] == main[by_title["Linux"]]["markdown"]
    files = await flaky.client.content.files(cr["space"], change_request=cr["id"], limit=100).collect()
    assert "d.png" in [f.name for f in files]


def note(app: FolioApp) -> str:
    return str(pages_of(app).query_one("#cr-pages-note").render())


async def test_a_colleagues_revision_is_met_before_sending_and_the_plan_is_re_applied(
    open_cr: Any, state: SandboxState, cr: dict[str, Any], counting: Counting, flaky: Services
) -> None:
    async with open_cr() as (app, pilot):
        await ask(pilot, "n")  # under Welcome (the page under the cursor), or at the top level: chosen here
        await ask(pilot, *"Mine", "tab", "down", "enter")
        assert app.screen.values()["where"] == "top"  # type: ignore[attr-defined]
        await press(pilot, "ctrl+s")
        await to_row(app, pilot, "Troubleshooting")
        await ask(pilot, "e")
        await ask(pilot, "home", "ctrl+k", *"Help")
        await press(pilot, "ctrl+s")
        assert len(pages_of(app).plan.steps) == 2  # type: ignore[union-attr]

        colleague = await flaky.writing.plan(cr["space"], cr["id"])  # meanwhile, someone sends their own
        colleague.add_page("Theirs")
        colleague.delete(next(e.page.id for e in colleague.pages if e.page.title == "Troubleshooting"))
        await flaky.writing.send_plan(colleague)

        await ask(pilot, "ctrl+s")
        await ask(pilot, "y")
        await settle_until(pilot, lambda: isinstance(app.screen, MovedOnModal))
        assert "newer revision" in str(app.screen.query_one(".moved--body").render())
        assert len(counting.content_posts) == 1  # theirs only: nothing of mine was sent
        await press(pilot, "r")  # read again: the plan re-applied; the rename of a deleted page no longer applies
        said = note(app)
        assert "1 step of your plan still applies" in said and "Rename “Troubleshooting”" in said
        titles = [t for t, _, _ in rows(app)]
        assert "Theirs" in titles and "Troubleshooting" not in titles and ("Mine", 0, "new") in rows(app)

        await ask(pilot, "ctrl+s")
        await press(pilot, "y")
    assert len(counting.content_posts) == 2
    titles = {p["title"] for p in tree(state, state.change_requests[cr["id"]]["revision"]).values()}
    assert {"Mine", "Theirs"} <= titles and "Help" not in titles


async def test_sending_anyway_after_a_colleagues_revision(
    open_cr: Any, state: SandboxState, cr: dict[str, Any], counting: Counting, flaky: Services
) -> None:
    async with open_cr() as (app, pilot):
        await ask(pilot, "n")
        await press(pilot, *"Mine", "ctrl+s")
        colleague = await flaky.writing.plan(cr["space"], cr["id"])
        colleague.add_page("Theirs")
        await flaky.writing.send_plan(colleague)
        await ask(pilot, "ctrl+s")
        await ask(pilot, "y")
        await settle_until(pilot, lambda: isinstance(app.screen, MovedOnModal))
        await press(pilot, "escape")  # neither: the plan is kept
        assert "the plan is kept" in note(app) and len(pages_of(app).plan.steps) == 1  # type: ignore[union-attr]
        await ask(pilot, "ctrl+s")
        await ask(pilot, "y")
        await settle_until(pilot, lambda: isinstance(app.screen, MovedOnModal))
        await press(pilot, "f")
        assert "Sent into change request" in note(app)
    titles = {p["title"] for p in tree(state, state.change_requests[cr["id"]]["revision"]).values()}
    assert {"Mine", "Theirs"} <= titles and len(counting.content_posts) == 2


async def test_a_lost_answer_is_found_not_sent_again(
    open_cr: Any, state: SandboxState, cr: dict[str, Any], counting: Counting, faults: Faults
) -> None:
    async with open_cr() as (app, pilot):
        await ask(pilot, "n")
        await press(pilot, *"Found", "ctrl+s")
        await ask(pilot, "ctrl+s")
        faults.drop_after_write = 1.0
        await press(pilot, "y")
        faults.drop_after_write = 0.0
        assert "the answer was lost; read again, it was done" in note(app)
        assert ("Found", 1, "") in rows(app)  # read again: the page is there, nothing left planned
        assert not pages_of(app).plan.steps  # type: ignore[union-attr]
    assert len(counting.content_posts) == 1
    titles = [p["title"] for p in tree(state, state.change_requests[cr["id"]]["revision"]).values()]
    assert titles.count("Found") == 1


async def test_a_failed_send_keeps_the_plan(
    open_cr: Any, state: SandboxState, cr: dict[str, Any], counting: Counting, faults: Faults
) -> None:
    async with open_cr() as (app, pilot):
        await ask(pilot, "n")
        await press(pilot, *"Kept", "ctrl+s")
        await ask(pilot, "ctrl+s")
        faults.error_rate = 1.0
        await press(pilot, "y")
        faults.error_rate = 0.0
        assert note(app).startswith("Not sent") and "The plan is kept" in note(app)
        assert ("Kept", 1, "new") in rows(app)


async def test_esc_asks_before_a_plan_is_dropped(open_cr: Any) -> None:
    async with open_cr() as (app, pilot):
        await ask(pilot, "n")
        await press(pilot, *"Draft", "ctrl+s")
        await ask(pilot, "escape")
        await press(pilot, "n")  # no: kept
        assert isinstance(app.screen, ChangeRequestScreen) and "Kept: the 1 planned change" in note(app)
        assert ("Draft", 1, "new") in rows(app)
        await ask(pilot, "escape")
        await press(pilot, "y")  # yes: dropped
        assert not pages_of(app).plan.steps  # type: ignore[union-attr]
        assert [t for t, _, m in rows(app) if m] == []


async def test_keys_that_cannot_act_say_why(open_cr: Any, flaky: Services, state: SandboxState) -> None:
    async with open_cr() as (app, pilot):
        await press(pilot, "P")  # nothing planned: said, and the screen's P (hold comments) is not taken
        assert "Nothing is planned yet" in note(app)
        assert not flaky.pending_review.get(pages_of(app).space_id, pages_of(app).cr.id).holding  # type: ignore[union-attr]
        await press(pilot, "ctrl+s")
        assert "Nothing is planned: there is nothing to send." in note(app)
        await to_row(app, pilot, "↗ Status page")
        await press(pilot, "E")
        assert "a link to elsewhere" in note(app)
        await ask(pilot, "e")  # a link page: its title only (it has no slug)
        assert "no slug" in str(app.screen.query_one("#rename-url").render())
        assert not app.screen.query("#field-slug")
        await press(pilot, "escape")
        await ask(pilot, "n")  # under a link: not offered, only the top level
        assert [b.name for b in app.screen.query("RadioButton")] == ["top"]
        await press(pilot, "escape")
        await to_row(app, pilot, "Welcome")
        await press(pilot, "space", "escape")  # picked up, put back
        assert "back where it was" in note(app) and not pages_of(app).plan.steps  # type: ignore[union-attr]
        pages_of(app).follow(pages_of(app).cr.model_copy(update={"status": "merged"}))  # type: ignore[union-attr]
        await press(pilot, "n")
        assert note(app) == "It is merged: its pages cannot change."


async def settle_until(pilot: Pilot[None], done: Callable[[], bool]) -> None:
    for _ in range(100):
        if done():
            return
        await pilot.pause(0.01)
    raise AssertionError("never happened")


async def test_esc_on_another_tab_with_a_plan_asks_on_the_pages_tab(open_cr: Any) -> None:
    async with open_cr() as (app, pilot):
        await ask(pilot, "n")
        await press(pilot, *"Draft", "ctrl+s")
        await press(pilot, "1")
        await ask(pilot, "escape")
        assert type(app.screen).__name__ == "ConfirmModal"
        await press(pilot, "n")
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen) and screen.tabs.active == "pages" and pages_of(app).planned == 1


async def test_moves_land_where_the_tree_showed_them(
    open_cr: Any, state: SandboxState, cr: dict[str, Any], counting: Counting
) -> None:
    """Out (<), into (>) and the grab, after a deletion beside them: the service's tree after sending is the tree
    shown before (a deleted page is not flaky in a move's position: the service no longer has it)."""
    async with open_cr() as (app, pilot):
        await to_row(app, pilot, "Windows")
        await ask(pilot, "D")
        await press(pilot, *"Windows", "enter")
        await to_row(app, pilot, "Your first robot")
        await press(pilot, "greater_than_sign")  # into the page above it, at once
        assert ("Your first robot", 1, "moved") in rows(app)
        await to_row(app, pilot, "Linux")
        await press(pilot, "less_than_sign")  # out of its parent, after it
        assert [t for t, d, _ in rows(app) if d == 0][:3] == ["Welcome", "Installation", "Linux"]
        await to_row(app, pilot, "Welcome")
        await press(pilot, "space", "down", "down", "space")  # into macOS
        shown = [(t, d) for t, d, m in rows(app) if "deleted" not in m]
        assert ("Welcome", 2) in shown
        await ask(pilot, "ctrl+s")
        await press(pilot, "y")
        assert [(t, d) for t, d, _ in rows(app)] == shown
    assert len(counting.content_posts) == 1


async def test_a_file_too_large_is_refused_before_and_a_step_is_dropped_from_the_plan(
    open_cr: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "big.bin").write_bytes(b"\0" * (MAX_FILE_BYTES + 1))
    async with open_cr() as (app, pilot):
        await ask(pilot, "f")
        await ask(pilot, *"big.bin", "ctrl+s")
        form = app.screen
        assert isinstance(form, AddFileModal) and "at most 1,048,576 (1 MiB)" in form.problem_text
        await press(pilot, "escape")
        assert not pages_of(app).planned and "Nothing was planned." in note(app)

        await ask(pilot, "n")
        await press(pilot, *"One", "ctrl+s")
        await ask(pilot, "n")
        await press(pilot, *"Two", "ctrl+s")
        await ask(pilot, "P")
        await ask(pilot, "x")  # the first step (the cursor's) is dropped; the plan shows the other
        modal = app.screen
        assert isinstance(modal, CrPlanModal)
        assert [str(r.cells[1]) for r in modal.query_one(ResourceBrowser).list.rows] == [
            "New page “Two” under “Welcome”"
        ]
        await press(pilot, "escape")
        assert pages_of(app).planned == 1 and [t for t, _, m in rows(app) if m] == ["Two"]
        assert "1 step dropped; 1 change planned." in note(app)
