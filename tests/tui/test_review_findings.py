"""What a new user and a faulty server found on the change request, comments and thread screens (issue 14), each
driven by keys over the seeded sandbox: every test failed before its fix."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from rich.cells import get_character_cell_size
from textual import events
from textual.pilot import Pilot
from textual.widgets import Static
from textual.worker import WorkerState

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.modals.review import ReviewModal
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.screens.content.space import SpaceScreen
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.screens.review.thread import ThreadScreen
from folio.tui.widgets.comments_panel import CommentsPanel, PagePickerModal
from folio.tui.widgets.footer import KeysFooter
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN
from tests.tui.conftest import settle
from tests.tui.test_preflight import confirm_merge


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


def cr_of(state: SandboxState, subject: str) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == subject)


def cr_screen(services: Services, state: SandboxState, subject: str) -> Callable[[], ChangeRequestScreen]:
    record = cr_of(state, subject)
    return lambda: ChangeRequestScreen(services, record["space"], record["number"], trail=("Northwind Labs", "Space"))


def notes(app: FolioApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot)


OPEN = "Clarify Linux install steps"
MERGED = "Document the canary channel"


# --- 13 and 23: a key that cannot act says why, and means one thing -----------------------------------------------


async def test_u_on_a_change_request_up_to_date_says_why(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """#13: `u` on a change request that is not outdated said nothing."""
    async with open_app(cr_screen(services, state, OPEN)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen) and screen.cr is not None and not screen.cr.outdated
        await press(pilot, "u")
        assert notes(app)[-1:] == ["This change request is up to date with main."]
        assert app.screen is screen


async def test_r_and_m_on_a_merged_change_request_say_why_and_reload_nothing(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """#23: `R` on a merged change request reloaded every screen of the trail (the app's `R`); `m` said nothing."""
    async with open_app(cr_screen(services, state, MERGED)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen) and screen.cr is not None and screen.cr.status == "merged"
        loads: list[str] = []
        screen.action_refresh = lambda: loads.append("reloaded")  # type: ignore[method-assign]
        await press(pilot, "R")
        assert notes(app)[-1:] == ["It is merged: nothing to review."]
        assert "Loading every screen of the trail again." not in notes(app)
        assert loads == [], "R reloaded the trail"
        await press(pilot, "m")
        assert notes(app)[-1:] == ["Only an open change request can be merged; this one is merged."]
        await press(pilot, "S")
        assert notes(app)[-1:] == ["A merged change request keeps its status."]
        assert app.screen is screen and loads == []
        assert not {"R", "m", "u", "S"} & {key for key, _, _ in footer_keys(app)}, "the footer offers them"


# --- 18: what fits at 80 columns -----------------------------------------------------------------------------------


def footer_keys(app: FolioApp) -> list[tuple[str, str, bool]]:
    """The footer's keys left of the palette key, as (key, description, fully shown)."""
    footer = app.screen.query_one(KeysFooter)
    return [(p.key.display, p.key.description, p.whole) for p in footer.placed if not p.key.palette]


@pytest.mark.parametrize("tab", ["1", "2", "3"])
async def test_the_change_request_footer_shows_the_keys_that_fit(
    services: Services, state: SandboxState, open_app: Any, tab: str
) -> None:
    """#18: at 80 columns the footer showed only `R Review  m Merge` of the change request's keys (and, on the
    changes tab, cut `r Refresh` in two): the most useful keys are shown whole, `?` has the rest."""
    async with open_app(cr_screen(services, state, OPEN)) as (app, pilot):
        await press(pilot, tab)
        shown = footer_keys(app)
        assert all(whole for _, _, whole in shown), f"a key is cut off: {shown}"
        keys = [key for key, _, _ in shown]
        assert "?" in keys and "R" in keys
        if tab == "1":
            assert {"m", "S"} <= set(keys), keys
        if tab == "2":
            assert {"n", "v"} <= set(keys), keys
        if tab == "3":
            assert {"c", "x"} <= set(keys), keys


async def test_x_on_a_resolved_thread_says_reopen(services: Services, state: SandboxState, open_app: Any) -> None:
    """#18: the thread's footer said `x Resolve` on a resolved thread."""
    handbook = next(s["id"] for s in state.spaces.values() if s["title"] == "Admin Handbook")
    record = next(c for c in state.comments.values() if c["space"] == handbook and c["body"].startswith("Typo:"))
    assert record["status"] == "resolved"
    start = lambda: ThreadScreen(services, record["space"], record["id"], trail=("Admin Handbook",))  # noqa: E731
    async with open_app(start) as (app, pilot):
        shown = {key: description for key, description, _ in footer_keys(app)}
        assert shown.get("x") == "Reopen"
        await press(pilot, "x")
        assert record["status"] == "open" and notes(app)[-1] == "Thread reopened"
        shown = {key: description for key, description, _ in footer_keys(app)}
        assert shown.get("x") == "Resolve"
        await press(pilot, "x")
        assert record["status"] == "resolved"


# --- 21: a tab opened while it loads takes the keys that follow ----------------------------------------------------


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture
def faults() -> Faults:
    return Faults(seed=3)


@pytest.fixture
async def flaky(state: SandboxState, faults: Faults) -> AsyncIterator[Services]:
    """Services over the seeded sandbox behind ``faults`` (changeable while a test runs)."""
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state, faults=faults)),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    yield Services(client, where="a flaky sandbox")
    await client.aclose()


KEY_NAMES = {" ": "space", "/": "slash", ";": "semicolon", ",": "comma", ".": "full_stop"}


def burst(app: Any, *keys: str) -> None:
    """Keys as a fast typist sends them: all queued on the app (as the terminal driver does) before any is
    handled, and without waiting for the screen to go quiet."""
    characters = {name: char for char, name in KEY_NAMES.items()}
    for key in keys:
        character = characters.get(key, key if len(key) == 1 else None)
        app.post_message(events.Key(key, character))


def loading(app: FolioApp) -> bool:
    return any(w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in app.workers)


async def test_a_tab_opened_while_it_loads_takes_the_keys_that_follow(
    flaky: Services, state: SandboxState, faults: Faults
) -> None:
    """#21: `2` on a change request under latency left the focus behind: `j` after it moved nothing until `tab`."""
    faults.latency = 3600.0  # no answer during the first part: the keys are pressed before the load ends
    app = FolioApp(flaky, start=cr_screen(flaky, state, OPEN))
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        burst(app, "2", "j")
        for _ in range(5):
            await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen) and screen.tabs.active == "changes"
        assert loading(app), "the load ended before the keys were pressed"
        assert screen.focused is not None and screen.changes in (screen.focused, *screen.focused.ancestors)
        faults.latency = 0.0  # the service answers now: r loads again (the slow load is dropped)
        burst(app, "r")
        app.workers.cancel_group(app, "who-am-i")  # the app's own slow question: not this screen's to wait for
        await settle(pilot)
        pages = screen.changes.pages.list
        assert pages.has_focus, f"the focus is on {screen.focused!r}"
        assert screen.changes.page is not None and screen.changes.page.title == "Windows"  # the j typed ahead
        await press(pilot, "k")  # and the next keys, without tab
        assert screen.changes.page is not None and screen.changes.page.title == "Linux"


# --- 14: a write refreshes what it changed --------------------------------------------------------------------------


async def test_after_a_merge_the_page_picker_has_the_merged_pages(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """#14: the space's comments tab was loaded before a merge; back on it, `c` offered the pages of before."""
    record = cr_of(state, OPEN)  # creates "Windows" in Getting Started
    start = lambda: SpaceScreen(services, record["space"], title="Getting Started")  # noqa: E731
    async with open_app(start, size=(100, 30)) as (app, pilot):
        space = app.screen
        await press(pilot, "5")
        await app.push_screen(cr_screen(services, state, OPEN)())
        await settle(pilot)
        await pilot.press("m")
        await confirm_merge(pilot)
        await settle(pilot)
        assert record["status"] == "merged"
        await press(pilot, "escape")
        assert app.screen is space and space.tabs.active == "tab-comments"
        await pilot.press("c")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, PagePickerModal)
        assert "Windows" in [choice.title for choice in picker.choices]


async def test_a_comment_posted_on_a_change_request_updates_its_count(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """#14: after a comment was posted, the change request still said "1 open comment"."""
    async with open_app(cr_screen(services, state, OPEN), size=(100, 30)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        assert "· 1 open comment" in str(screen.query_one("#overview-meta", Static).render())
        await press(pilot, "3")
        await pilot.press("c")
        await pilot.pause()
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, PagePickerModal)
        await pilot.press("enter")  # the whole change request
        for _ in range(3):
            await pilot.pause()
        await pilot.press(*"Ready", "ctrl+s")
        await settle(pilot)
        assert app.screen is screen and any(c["body"] == "Ready" for c in state.comments.values())
        assert "· 2 open comments" in str(screen.query_one("#overview-meta", Static).render())


# --- 18: rendering at 80x24 and 120x40 ------------------------------------------------------------------------------


def drawn_lines(app: FolioApp) -> list[Any]:
    return list(app.screen._compositor.render_strips())


def per_character(text: str) -> int:
    """The width a terminal that measures character by character gives ``text`` (a variation selector: none)."""
    return sum(get_character_cell_size(char) for char in text)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_heart_reaction_keeps_its_line_inside_its_box(
    services: Services, state: SandboxState, open_app: Any, size: tuple[int, int]
) -> None:
    """#18: `❤️` (a one-cell heart made two cells wide by a variation selector) was drawn two cells wide by Folio and
    one by many terminals: the rest of its line moved, and the box's right border was drawn outside the box."""
    canary = cr_of(state, MERGED)
    record = next(
        c for c in state.comments.values() if c.get("changeRequest") == canary["id"] and "canary" in c["body"]
    )
    assert any(r["emoji"] == "\u2764\ufe0f" for r in record["reactions"])
    start = lambda: ThreadScreen(  # noqa: E731
        services, record["space"], record["id"], change_request=canary["id"], trail=("User Guide",)
    )
    async with open_app(start, size=size) as (app, pilot):
        lines = [strip for strip in drawn_lines(app) if "Reactions:" in strip.text]
        assert lines, "no reaction line drawn"
        for strip in lines:
            assert per_character(strip.text) == strip.cell_length == size[0], strip.text
        await app.push_screen(cr_screen(services, state, MERGED)())
        await settle(pilot)
        await press(pilot, "3")
        rows = [strip for strip in drawn_lines(app) if "\u2764" in strip.text]
        assert rows, "no heart in the comments list"
        assert all(per_character(strip.text) == strip.cell_length for strip in rows)


async def test_a_comment_on_a_block_is_not_titled_by_its_node_id(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """#18: a comment on a block was titled `Block 5DWp4n4L8VNH`; it is titled by the block's first words."""
    handbook = next(s for s in state.spaces.values() if s["title"] == "Admin Handbook")
    node = next(
        c["target"]["node"]["id"]
        for c in state.comments.values()
        if c["space"] == handbook["id"] and "node" in c["target"]
    )
    start = lambda: SpaceScreen(services, handbook["id"], title="Admin Handbook")  # noqa: E731
    async with open_app(start, size=(100, 30)) as (app, pilot):
        await press(pilot, "5", "f")  # the resolved comments: the one on a block
        panel = app.screen.query_one(CommentsPanel)
        labels = [str(row.cells[0]) for row in panel.browser.list.visible_rows]
        assert "\u00b6 \u201cAdmins manage members; editors edit content.\u201d" in labels, labels
        assert not any(node in label for label in labels), labels


# --- 1: a review whose answer was lost is looked for before it is sent again ----------------------------------------


async def test_a_review_whose_answer_was_lost_is_made_once(
    flaky: Services, state: SandboxState, faults: Faults
) -> None:
    """#1: the review was made, its answer lost; the dialog could not check, so a second ctrl+s made it twice."""
    record = cr_of(state, OPEN)
    before = len(record["reviews"])
    app = FolioApp(flaky, start=cr_screen(flaky, state, OPEN))
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        await press(pilot, "R", "a", "tab")
        await pilot.press(*"Ship", "space", *"it")
        faults.drop_after_write = 1.0  # the review is made, its answer lost
        await press(pilot, "ctrl+s")
        if isinstance(app.screen, ReviewModal):  # what the dialog invites when it could not check
            await press(pilot, "ctrl+s")
        mine = [r for r in record["reviews"][before:] if r["reviewer"] == state.default_user]
        assert len(mine) == 1 and mine[0]["status"] == "approved" and mine[0]["comment"]["body"] == "Ship it"
        assert app.screen is screen
        assert "The answer was lost, but the service has it: it was sent once." in notes(app)
        assert "Approved #1." in notes(app)


# --- 22: a reply typed fast and sent at once is sent whole ----------------------------------------------------------


async def test_a_reply_typed_in_one_burst_with_ctrl_s_is_sent_whole(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """#22: typed quickly and sent with ctrl+s at once, a reply posted a prefix ("Fixed in") of what was typed."""
    notes_space = next(s["id"] for s in state.spaces.values() if s["title"] == "Release Notes")
    record = next(c for c in state.comments.values() if c["space"] == notes_space and c["body"].startswith("The first"))
    before = len(record["replies"])
    text = "Fixed in the change request that updates the CLI requirements; thanks for the careful read."
    start = lambda: ThreadScreen(services, record["space"], record["id"], trail=("Release Notes",))  # noqa: E731
    async with open_app(start) as (app, pilot):
        screen = app.screen
        await pilot.press("c")
        for _ in range(3):
            await pilot.pause()
        assert isinstance(app.screen, TextEntryModal)
        modal = app.screen
        burst(app, *[KEY_NAMES.get(char, char) for char in text], "ctrl+s")
        quiet = 0
        for _ in range(500):  # until the dialog closed, or stays open with nothing in flight (not a time limit)
            await pilot.pause()
            sending = modal.sending or any(w.group == "form-send" and w.is_running for w in modal.workers)
            quiet = 0 if sending else quiet + 1
            if app.screen is not modal or quiet > 20:
                break
        assert app.screen is screen, f"the reply was not sent: {modal.problem_text}"
        await settle(pilot)
        assert [r["body"] for r in record["replies"][before:]] == [text]
