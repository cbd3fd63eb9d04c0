"""The change request screen, driven by keys over the seeded sandbox: overview, changes and diffs, viewed marks,
and the decisions, asserting on what the screen shows and on what the sandbox now holds."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static, TabbedContent, TextArea

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.preflight import PreflightModal
from folio.tui.modals.review import ReviewModal
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.widgets.change_overview import ChangeOverview, ChangesPane
from folio.tui.widgets.diff_view import DiffView
from folio.tui.widgets.markdown_view import SafeMarkdown
from tests.tui.conftest import settle
from tests.tui.test_preflight import checklist, confirm_merge

Opener = Callable[..., Any]


@pytest.fixture(autouse=True)
def side_by_side_preferred(monkeypatch: pytest.MonkeyPatch) -> None:
    """The layout preference lives for a session: each test starts from the default."""
    monkeypatch.setattr(ChangesPane, "prefer_side_by_side", True)


def cr_of(state: SandboxState, subject: str) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == subject)


def opener(services: Services, state: SandboxState, subject: str, *, by_number: bool = True) -> Callable[[], Any]:
    record = cr_of(state, subject)
    ref = record["number"] if by_number else record["id"]
    return lambda: ChangeRequestScreen(services, record["space"], ref, trail=("Northwind Labs", "A space"))


def text(screen: Any, selector: str) -> str:
    widget = screen.query_one(selector, Static)
    return str(widget.render()) if widget.display else ""


def notes(app: FolioApp) -> list[str]:
    return [n.message for n in app._notifications]


def page_titles(screen: ChangeRequestScreen) -> list[str]:
    return [str(row.cells[2]) for row in screen.changes.pages.list.visible_rows]


def tab_label(screen: ChangeRequestScreen) -> str:
    return screen.query_one(TabbedContent).get_tab("changes").label.plain


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot)


async def ask(pilot: Pilot[None], *keys: str) -> None:
    """Press keys that open a question: a worker waits on it, so do not wait for the workers."""
    await pilot.press(*keys)
    await pilot.pause()


LINUX = "Clarify Linux install steps"


async def test_overview_shows_subject_status_reviewers_and_changes(
    services: Services, state: SandboxState, open_app: Opener
) -> None:
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        assert screen.sub_title.endswith("#1 Clarify Linux install steps")
        assert text(screen, "#overview-subject") == "#1 Clarify Linux install steps"
        meta = text(screen, "#overview-meta")
        assert meta.startswith("Open \u00b7 by Chen Wei \u00b7 created 2026-10-20 09:00")
        reviewers = text(screen, "#overview-reviewers")
        assert "Ada Okafor  \u2026 review requested" in reviewers
        assert (
            "Dana Moreau  \u2026 review requested" in reviewers and "asked again after changes requested" in reviewers
        )
        assert "1 page created, 1 page edited" in text(screen, "#overview-changes")
        assert "Adds the apt update step" in screen.query_one("#overview-description", SafeMarkdown).source
        assert tab_label(screen) == "2 Changes 0/2 viewed"
        assert not screen.query_one("#cr-banner").display
        assert ("change-request", "{space}/{id}".format(**cr_of(state, LINUX))) in app.loaded
        await press(pilot, "o")  # the URL of the change request itself
        assert app.clipboard.endswith("/~/changes/1/")


async def test_changes_tab_lists_the_pages_and_shows_the_diff(
    services: Services, state: SandboxState, open_app: Opener
) -> None:
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        screen = app.screen
        await press(pilot, "2")
        assert screen.query_one(TabbedContent).active == "changes"
        assert page_titles(screen) == ["Linux", "Windows"]
        view = screen.query_one(DiffView)
        assert view.diff is not None and not view.side_by_side  # 80 columns: unified
        added = [line.text for line in view.diff.unified if line.kind == "add"]
        assert "sudo apt update" in added
        title = text(screen, "#diff-title")
        assert title.startswith("installation/linux \u00b7 edited \u00b7 +3 -0")
        assert "unified (side by side: 120+ columns)" in title
        await press(pilot, "j")
        assert view.diff is not None and view.diff.status == "added"
        assert text(screen, "#diff-title").startswith("installation/windows \u00b7 created")
        await press(pilot, "o")  # on the changes tab: the page under the cursor
        assert "/installation/windows" in app.clipboard
        await press(pilot, "f")  # every page, unchanged ones included
        assert len(page_titles(screen)) > 2 and "Installation" in page_titles(screen)
        await press(pilot, "f")
        assert page_titles(screen) == ["Linux", "Windows"]
        await press(pilot, "enter")  # into the diff, to read it
        assert view.has_focus


async def test_s_toggles_side_by_side_where_there_is_room(
    services: Services, state: SandboxState, open_app: Opener
) -> None:
    async with open_app(opener(services, state, LINUX), size=(160, 50)) as (app, pilot):
        screen = app.screen
        await press(pilot, "2")
        view = screen.query_one(DiffView)
        assert view.side_by_side and text(screen, "#diff-title").endswith("side by side")
        await press(pilot, "s")
        assert not view.side_by_side and text(screen, "#diff-title").endswith("unified")
        await press(pilot, "s")
        assert view.side_by_side
        assert view.diff is not None and view.rows is view.diff.side_by_side


async def test_s_says_why_it_stays_unified_when_narrow(
    services: Services, state: SandboxState, open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ChangesPane, "prefer_side_by_side", False)
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        await press(pilot, "2", "s")
        assert not app.screen.query_one(DiffView).side_by_side
        assert any("Side by side needs 120 columns (this terminal has 80)" in n for n in notes(app))


async def test_next_and_previous_change_cross_pages(services: Services, state: SandboxState, open_app: Opener) -> None:
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        screen = app.screen
        await press(pilot, "2")
        view, pane = screen.query_one(DiffView), screen.query_one(ChangesPane)
        assert view.current_hunk is None
        await press(pilot, "right_square_bracket", "c")
        assert pane.shown == pane.page.id and pane.page.title == "Linux" and view.current_hunk == 0
        await press(pilot, "right_square_bracket", "c")
        assert pane.page is not None and pane.page.title == "Windows" and view.current_hunk == 0
        await press(pilot, "n")
        assert any("No more changes after this one." in n for n in notes(app))
        await press(pilot, "left_square_bracket", "c")
        assert pane.page is not None and pane.page.title == "Linux" and view.current_hunk == 0
        await press(pilot, "N")
        assert any("No changes before this one." in n for n in notes(app))
        await press(pilot, "right_square_bracket", "x", "u")  # a broken sequence: u alone asks nothing here
        assert not isinstance(app.screen, ConfirmModal)


async def test_viewed_marks_count_and_survive_reopening(
    services: Services, state: SandboxState, open_app: Opener
) -> None:
    record = cr_of(state, LINUX)
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        screen = app.screen
        await press(pilot, "2", "v")
        assert tab_label(screen) == "2 Changes 1/2 viewed"
        assert str(screen.changes.pages.list.rows[0].cells[0]) == "\u2713"
        await press(pilot, "U")  # the next unviewed page
        assert screen.changes.page is not None and screen.changes.page.title == "Windows"
        await press(pilot, "g", "right_square_bracket", "u")
        assert screen.changes.page is not None and screen.changes.page.title == "Windows"
        await app.push_screen(ChangeRequestScreen(services, record["space"], record["id"]))
        await settle(pilot)
        again = app.screen
        assert again is not screen and tab_label(again) == "2 Changes 1/2 viewed"
        await press(pilot, "2", "v")
        assert tab_label(again) == "2 Changes 0/2 viewed"  # v again unmarks
    assert services.review.viewed.viewed(record["id"], record["revision"]) == set()


async def test_approve_through_the_review_modal(services: Services, state: SandboxState, open_app: Opener) -> None:
    record = cr_of(state, LINUX)
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        await press(pilot, "R")
        assert isinstance(app.screen, ReviewModal)
        await press(pilot, "a", "tab")
        await pilot.press(*"Ship it")
        await press(pilot, "f2")
        assert isinstance(app.screen, ChangeRequestScreen)
        review = record["reviews"][-1]
        assert review["reviewer"] == state.default_user and review["status"] == "approved"
        assert review["comment"]["body"] == "Ship it"
        assert any("Approved #1." in n for n in notes(app))
        assert "\u2713 approved" in text(app.screen, "#overview-reviewers")


async def test_request_changes_and_a_failed_review_keeps_the_comment(
    services: Services, state: SandboxState, open_app: Opener
) -> None:
    record = cr_of(state, LINUX)
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        record["status"] = "archived"  # behind the screen's back: the service now refuses reviews
        await press(pilot, "R", "c", "tab")
        await pilot.press(*"Split it")
        await press(pilot, "f2")
        modal = app.screen
        assert isinstance(modal, ReviewModal) and modal.status == "changes-requested"
        problem = modal.problem_text
        assert problem.startswith("Review not sent:") and "archived" in problem and "(409)" in problem
        assert modal.query_one(TextArea).text == "Split it"
        record["status"] = "open"
        await press(pilot, "f2")
        assert record["reviews"][-1]["status"] == "changes-requested"
        assert any("Asked for changes on #1." in n for n in notes(app))


MINE = "Failover: lower the DNS TTL first"


async def test_merge_asks_then_merges(services: Services, state: SandboxState, open_app: Opener) -> None:
    record = cr_of(state, MINE)
    space = state.spaces[record["space"]]
    before = space["revision"]
    async with open_app(opener(services, state, MINE)) as (app, pilot):
        await ask(pilot, "m")
        await confirm_merge(pilot)  # the pre-flight's checklist, then y (and the typed word when a line fails)
        await settle(pilot)
        assert record["status"] == "merged" and space["revision"] != before
        assert space["revision"] == record["revisionMerged"]
        assert any(n.startswith("Merged #1 into main") for n in notes(app))
        assert text(app.screen, "#overview-meta").startswith("Merged")
        assert app.screen.check_action("merge", ()) is None  # greyed out now


async def test_merge_cancelled_changes_nothing(services: Services, state: SandboxState, open_app: Opener) -> None:
    record = cr_of(state, MINE)
    before = state.spaces[record["space"]]["revision"]
    async with open_app(opener(services, state, MINE)) as (app, pilot):
        await ask(pilot, "m")
        await checklist(pilot)
        await press(pilot, "n")
        assert isinstance(app.screen, ChangeRequestScreen)
        assert record["status"] == "open" and state.spaces[record["space"]]["revision"] == before
        await ask(pilot, "m")
        await checklist(pilot)
        await ask(pilot, "m")  # the key that asked does not confirm
        assert isinstance(app.screen, PreflightModal)
        await press(pilot, "escape")
    assert record["status"] == "open"


async def test_a_failed_merge_is_said_in_words(services: Services, state: SandboxState, open_app: Opener) -> None:
    record = cr_of(state, MINE)
    async with open_app(opener(services, state, MINE)) as (app, pilot):
        record["status"] = "merged"  # merged elsewhere meanwhile
        await ask(pilot, "m")
        await confirm_merge(pilot)
        await settle(pilot)
        failures = [n for n in notes(app) if n.startswith("Could not merge #1")]
        assert failures and "The change request is merged" in failures[0] and "(409)" in failures[0]
        assert app.is_running


OUTDATED = "Add pagination to the Robots API"


async def test_update_from_main_on_an_outdated_change_request(
    services: Services, state: SandboxState, open_app: Opener
) -> None:
    record = cr_of(state, OUTDATED)
    async with open_app(opener(services, state, OUTDATED)) as (app, pilot):
        screen = app.screen
        assert text(screen, "#cr-banner").startswith("Outdated:")
        await ask(pilot, "u")
        await press(pilot, "y")
        assert record["revisionMergedAncestor"] == state.spaces[record["space"]]["revision"]
        assert any(n.startswith("Updated #1 from main") for n in notes(app))
        assert not screen.query_one("#cr-banner").display
        assert screen.check_action("update_from_main", ()) is None


async def test_subject_limit_is_checked_as_you_type(services: Services, state: SandboxState, open_app: Opener) -> None:
    subject = "Reorganise troubleshooting"
    record = cr_of(state, subject)
    async with open_app(opener(services, state, subject)) as (app, pilot):
        await press(pilot, "t")
        modal = app.screen
        assert isinstance(modal, TextEntryModal)
        modal.query_one(Input).value = "x" * 101
        await settle(pilot)
        assert "at most 100" in modal.problem_text
        modal.query_one(Input).value = "Move troubleshooting under the first robot"
        await press(pilot, "enter")
        assert record["subject"] == "Move troubleshooting under the first robot"
        assert app.screen.sub_title.endswith("#2 Move troubleshooting under the first robot")


async def test_status_and_description(services: Services, state: SandboxState, open_app: Opener) -> None:
    subject = "Reorganise troubleshooting"
    record = cr_of(state, subject)
    async with open_app(opener(services, state, subject)) as (app, pilot):
        await ask(pilot, "S")
        await press(pilot, "y")
        assert record["status"] == "open"
        assert any("#2 is now open." in n for n in notes(app))
        await press(pilot, "d")
        assert isinstance(app.screen, TextEntryModal)
        app.screen.query_one(TextArea).text = "Moves the page.\nAdds the QR code section."
        await press(pilot, "f2")
        assert [n["nodes"][0]["leaves"][0]["text"] for n in record["description"]["nodes"]] == [
            "Moves the page.",
            "Adds the QR code section.",
        ]
        assert "Adds the QR code section." in app.screen.query_one("#overview-description", SafeMarkdown).source


async def test_e_edits_the_description_in_the_editor(
    services: Services, state: SandboxState, open_app: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = cr_of(state, LINUX)
    monkeypatch.setenv("EDITOR", "sed -i s/Windows/macOS/")
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        monkeypatch.setattr(app, "suspend", contextlib.nullcontext)  # headless: no terminal to hand over
        await press(pilot, "e")
        assert any("Description of #1 saved." in n for n in notes(app))
        text_now = record["description"]["nodes"][0]["nodes"][0]["leaves"][0]["text"]
        assert text_now == "Adds the apt update step and a macOS page."


async def test_e_without_a_terminal_says_so(services: Services, state: SandboxState, open_app: Opener) -> None:
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        await press(pilot, "e")
        assert any(n.startswith("Description not edited:") and "press d" in n.lower() for n in notes(app))


async def test_p_copies_the_pdf_link(services: Services, state: SandboxState, open_app: Opener) -> None:
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        await press(pilot, "p")
        assert app.clipboard.startswith("https://") and ".pdf?" in app.clipboard
        assert any(n.startswith("Copied PDF link") for n in notes(app))


async def test_failed_load_is_said_and_r_tries_again(services: Services, state: SandboxState, open_app: Opener) -> None:
    record = cr_of(state, LINUX)
    screen_of = lambda: ChangeRequestScreen(services, record["space"], 99)  # noqa: E731
    async with open_app(screen_of) as (app, pilot):
        message = text(app.screen, "#cr-message")
        assert message.startswith("Could not load the change request:") and "Press r to try again." in message
        assert "(404)" in message and app.screen.current_item() is None
        record["number"] = 99  # now there is one
        await press(pilot, "r")
        assert text(app.screen, "#cr-message") == ""
        assert text(app.screen, "#overview-subject") == "#99 Clarify Linux install steps"


async def test_hostile_subject_is_shown_as_text(services: Services, state: SandboxState, open_app: Opener) -> None:
    start = opener(services, state, LINUX)
    cr_of(state, LINUX)["subject"] = "[@click=app.quit]x\x1b]52;c;ZXZpbA==\x07[b]y"
    async with open_app(start) as (app, _pilot):
        assert text(app.screen, "#overview-subject") == "#1 [@click=app.quit]x[b]y"
        assert app.is_running


async def test_comments_tab_embeds_the_panel(services: Services, state: SandboxState, open_app: Opener) -> None:
    panel_module = pytest.importorskip("folio.tui.widgets.comments_panel")
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        await press(pilot, "3")
        assert app.screen.query_one(TabbedContent).active == "comments"
        assert len(app.screen.query(panel_module.CommentsPanel)) == 1
        await press(pilot, "r")  # reloads the comments as well
        assert app.is_running and app.screen.query_one(TabbedContent).active == "comments"


def test_bindings_have_ids_and_tooltips() -> None:
    for cls in (ChangeRequestScreen, ChangesPane, DiffView, ReviewModal):
        for binding in cls.BINDINGS:
            assert not isinstance(binding, tuple)
            assert binding.id and binding.tooltip, binding
    assert ChangeOverview is not None


async def test_the_lists_of_the_tabs_sit_one_column_in(
    services: Services, state: SandboxState, open_app: Opener
) -> None:
    """As the lists of the other screens (the organization's tabs): the changed pages, the comments, the checks."""
    from folio.tui.widgets.resource_list import ResourceList

    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        screen = app.screen
        for tab, where in (("2", "#changes-pages"), ("3", "#comments"), ("4", "#checks-list")):
            await press(pilot, tab)
            table = screen.query_one(where).query_one(ResourceList)
            assert table.content_region.x == 1, tab
