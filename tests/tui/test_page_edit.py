"""A page edited in $EDITOR from the TUI (``folio.tui.page_edit``), driven by keys over the seeded sandbox with
``EDITOR`` set to a small script that edits the file in place: from a space into a new change request, from a
change request into it, an unchanged file that sends nothing, a colleague's revision met before sending (rebase,
and send anyway), a lost answer not sent twice, and suggesting from the diff and from a thread."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Input, RadioButton

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.sandbox.revisions import walk
from folio.services import Services
from folio.services.editor import open_at_line
from folio.tui.app import FolioApp
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.page_edit import MovedOnModal, PageSendModal
from folio.tui.screens.content.space import SpaceScreen
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.screens.review.thread import ThreadScreen
from tests.conftest import SANDBOX_URL, TOKEN
from tests.tui.conftest import settle

Opener = Callable[..., Any]
LINUX = "Clarify Linux install steps"

EDITOR_SCRIPT = """\
import json, sys
from pathlib import Path

here = Path(__file__).parent
path = Path(sys.argv[-1])
with open(here / "ran.log", "a", encoding="utf-8") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
plan = json.loads((here / "plan.json").read_text(encoding="utf-8"))
text = path.read_text(encoding="utf-8")
step = plan.pop(0) if plan else {}
(here / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
if "append" in step:
    text = text.rstrip("\\n") + "\\n\\n" + step["append"] + "\\n"
if "replace" in step:
    old, new = step["replace"]
    text = text.replace(old, new)
if "resolve" in step:  # keep both sides of every conflict, without the marks
    text = "\\n".join(l for l in text.splitlines() if not l.startswith(("<<<<<<<", "=======", ">>>>>>>"))) + "\\n"
path.write_text(text, encoding="utf-8")
"""


class Editor:
    """The script $EDITOR runs: each run does the next step of ``plan`` (append a line, replace words, resolve
    the conflict marks by keeping both sides) and records its arguments."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.script = folder / "vim"  # named as an editor that takes +N: the line is passed
        self.script.write_text(f"#!{sys.executable}\n{EDITOR_SCRIPT}", encoding="utf-8")
        self.script.chmod(0o755)
        self.plan([])

    def plan(self, steps: list[dict[str, Any]]) -> None:
        (self.folder / "plan.json").write_text(json.dumps(steps), encoding="utf-8")

    @property
    def runs(self) -> list[list[str]]:
        log = self.folder / "ran.log"
        return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


@pytest.fixture
def editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Editor]:
    folder = tmp_path / "editor"
    folder.mkdir()
    made = Editor(folder)
    monkeypatch.setenv("EDITOR", str(made.script))
    monkeypatch.delenv("VISUAL", raising=False)
    yield made


def headless(app: FolioApp, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app, "suspend", contextlib.nullcontext)  # no terminal to hand over in a Pilot test


def notes(app: FolioApp) -> list[str]:
    return [n.message for n in app._notifications]


async def until(pilot: Pilot[None], ready: Callable[[], bool]) -> None:
    for _ in range(400):
        if ready():
            return
        await pilot.pause()
    raise AssertionError("never came")


async def dialog(pilot: Pilot[None], kind: type) -> Any:
    await until(pilot, lambda: isinstance(pilot.app.screen, kind))
    await pilot.pause()
    return pilot.app.screen


def space_of(state: SandboxState, title: str = "Getting Started") -> str:
    return next(sid for sid, s in state.spaces.items() if s["title"] == title and s["organization"] == state.demo_org)


def cr_of(state: SandboxState, subject: str) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == subject)


def page_in(state: SandboxState, revision: str, title: str) -> dict[str, Any]:
    return next(p for p, _, _ in walk(state.revisions[revision]["pages"]) if p["title"] == title)


def cr_screen(services: Services, state: SandboxState, subject: str = LINUX) -> Callable[[], ChangeRequestScreen]:
    record = cr_of(state, subject)
    return lambda: ChangeRequestScreen(services, record["space"], record["number"])


async def to_linux_diff(pilot: Pilot[None], screen: ChangeRequestScreen) -> None:
    """The changes tab, on the Linux page's diff."""
    await pilot.press("2")
    await settle(pilot)
    assert screen.changes.pages.list.move_to(
        next(p.id for p in screen.changes.change_set.changed if p.title == "Linux")
    )  # type: ignore[union-attr]
    await settle(pilot)


class Counting(httpx.AsyncBaseTransport):
    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.posts: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            self.posts.append(request.url.path)
        return await self.inner.handle_async_request(request)


async def _no_sleep(seconds: float) -> None:
    return None


# --- from a space, into a new change request ---------------------------------------------------------------


async def test_E_on_a_page_sends_the_edit_into_a_new_change_request(
    services: Services, state: SandboxState, open_app: Opener, editor: Editor, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = space_of(state)
    main = state.spaces[sid]["revision"]
    before = len(state.change_requests)
    editor.plan([{"append": "A line written in the terminal."}])
    async with open_app(lambda: SpaceScreen(services, sid)) as (app, pilot):
        headless(app, monkeypatch)
        await pilot.press("j")  # Installation
        await settle(pilot)
        await pilot.press("E")
        modal = await dialog(pilot, PageSendModal)
        assert modal.page.title == "Installation" and modal.page.change_request is None
        assert "A line written in the terminal." in "\n".join(line.text for line in modal.diff.unified)
        assert modal.query_one("#to-new", RadioButton).value  # read from main: a new change request first
        assert modal.query_one("#page-send-subject", Input).value == "Edit Installation"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert len(state.change_requests) == before + 1
        made = max(state.change_requests.values(), key=lambda c: c["number"])
        assert made["subject"] == "Edit Installation"
        assert "A line written in the terminal." in page_in(state, made["revision"], "Installation")["markdown"]
        assert state.spaces[sid]["revision"] == main  # main untouched
        assert any(n.startswith(f"Made change request #{made['number']} “Edit Installation”") for n in notes(app))
        assert editor.runs and editor.runs[0][-1].endswith(".md")


async def test_the_edit_can_go_into_one_of_your_open_change_requests(
    services: Services, state: SandboxState, open_app: Opener, editor: Editor, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = space_of(state)
    mine = cr_of(state, "Reorganise troubleshooting")  # the test user's draft
    revision = mine["revision"]
    editor.plan([{"append": "Into my draft."}])
    async with open_app(lambda: SpaceScreen(services, sid)) as (app, pilot):
        headless(app, monkeypatch)
        await pilot.press("j", "E")
        modal = await dialog(pilot, PageSendModal)
        await pilot.press("right")  # a new one → one of your open ones
        await until(pilot, lambda: modal.mine is not None)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert mine["revision"] != revision
        assert "Into my draft." in page_in(state, mine["revision"], "Installation")["markdown"]
        assert any(n.startswith(f"Sent into change request #{mine['number']}") for n in notes(app))


async def test_an_unchanged_file_sends_nothing(
    services: Services, state: SandboxState, open_app: Opener, editor: Editor, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = space_of(state)
    before = len(state.change_requests)
    editor.plan([{}])  # saved as it was
    async with open_app(lambda: SpaceScreen(services, sid)) as (app, pilot):
        headless(app, monkeypatch)
        await pilot.press("E")
        await settle(pilot)
        assert "Nothing changed: nothing was sent." in notes(app)
        assert not isinstance(app.screen, PageSendModal)
    assert len(state.change_requests) == before and len(editor.runs) == 1


async def test_a_link_page_says_why_it_cannot_be_edited(
    services: Services, state: SandboxState, open_app: Opener, editor: Editor
) -> None:
    sid = space_of(state)
    async with open_app(lambda: SpaceScreen(services, sid)) as (app, pilot):
        await pilot.press("G")  # the last page: a link
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SpaceScreen)
        assert screen.why_not("edit_page") == "This page is a link to elsewhere: it has no text to edit."
        await pilot.press("E")
        await settle(pilot)
        assert "This page is a link to elsewhere: it has no text to edit." in notes(app)
    assert editor.runs == []


# --- from a change request, into it -------------------------------------------------------------------------


async def test_E_in_the_diff_sends_into_the_change_request_opened_at_the_cursor(
    services: Services, state: SandboxState, open_app: Opener, editor: Editor, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = cr_of(state, LINUX)
    revision = record["revision"]
    editor.plan([{"replace": ["sudo apt update", "sudo apt-get update"]}])
    async with open_app(cr_screen(services, state)) as (app, pilot):
        headless(app, monkeypatch)
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        await to_linux_diff(pilot, screen)
        cursor = screen.changes.diff_view.line_at_cursor()
        assert cursor is not None and cursor.new is not None
        await pilot.press("E")
        modal = await dialog(pilot, PageSendModal)
        assert modal.query_one("#to-here", RadioButton).value  # this change request first
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert record["revision"] != revision
        assert "sudo apt-get update" in page_in(state, record["revision"], "Linux")["markdown"]
        assert any(n.startswith(f"Sent into change request #{record['number']}") for n in notes(app))
        assert screen.changes.change_set is not None and screen.changes.change_set.cr.revision == record["revision"]
    assert editor.runs[0][0] == f"+{cursor.new}"  # vim opens at the diff's line


async def test_esc_keeps_the_draft_and_E_offers_it_again(
    services: Services, state: SandboxState, open_app: Opener, editor: Editor, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = cr_of(state, LINUX)
    revision = record["revision"]
    editor.plan([{"append": "Kept for later."}, {"append": "And more."}])
    async with open_app(cr_screen(services, state)) as (app, pilot):
        headless(app, monkeypatch)
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        await to_linux_diff(pilot, screen)
        await pilot.press("E")
        await dialog(pilot, PageSendModal)
        await pilot.press("escape")
        await settle(pilot)
        assert any(n.startswith("Not sent: your edit is kept as a draft") for n in notes(app))
        assert record["revision"] == revision
        await pilot.press("E")
        await dialog(pilot, ConfirmModal)  # continue the unsent edit?
        await pilot.press("y")
        modal = await dialog(pilot, PageSendModal)
        assert "Kept for later." in modal.text and "And more." in modal.text
        await pilot.press("ctrl+s")
        await settle(pilot)
        stored = page_in(state, record["revision"], "Linux")["markdown"]
        assert "Kept for later." in stored and "And more." in stored


# --- a colleague's revision -------------------------------------------------------------------------------


async def _edit_while_a_colleague_writes(
    services: Services, state: SandboxState, pilot: Pilot[None], screen: ChangeRequestScreen
) -> None:
    """E on the Linux page; their revision lands while the editor is open; ctrl+s meets it."""
    record = cr_of(state, LINUX)
    await to_linux_diff(pilot, screen)
    await pilot.press("E")
    await dialog(pilot, PageSendModal)
    theirs = await services.writing.open(
        record["space"], page_in(state, record["revision"], "Linux")["id"], change_request=record["id"]
    )
    await services.writing.send(theirs, "# Their heading\n\n" + theirs.markdown.split("\n", 1)[1])
    await pilot.press("ctrl+s")


async def test_a_colleagues_revision_is_shown_and_rebased(
    services: Services, state: SandboxState, open_app: Opener, editor: Editor, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = cr_of(state, LINUX)
    editor.plan([{"append": "My closing line."}, {}])  # the rebased text saved as it came
    async with open_app(cr_screen(services, state)) as (app, pilot):
        headless(app, monkeypatch)
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        await _edit_while_a_colleague_writes(services, state, pilot, screen)
        moved = await dialog(pilot, MovedOnModal)
        assert "moved on since you opened the page" in moved.moved.describe()
        assert moved.moved.theirs is not None and "# Their heading" in moved.moved.theirs
        after_theirs = record["revision"]
        await pilot.press("r")
        modal = await dialog(pilot, PageSendModal)
        assert modal.page.revision == after_theirs  # read again: their text is the base now
        assert "# Their heading" in modal.text and "My closing line." in modal.text
        await pilot.press("ctrl+s")
        await settle(pilot)
        stored = page_in(state, record["revision"], "Linux")["markdown"]
        assert "# Their heading" in stored and "My closing line." in stored  # neither lost
        assert record["revision"] != after_theirs


async def test_a_colleagues_revision_can_be_overwritten_on_purpose(
    services: Services, state: SandboxState, open_app: Opener, editor: Editor, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = cr_of(state, LINUX)
    editor.plan([{"append": "Mine wins."}])
    async with open_app(cr_screen(services, state)) as (app, pilot):
        headless(app, monkeypatch)
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        await _edit_while_a_colleague_writes(services, state, pilot, screen)
        await dialog(pilot, MovedOnModal)
        await pilot.press("f")
        await settle(pilot)
        stored = page_in(state, record["revision"], "Linux")["markdown"]
        assert "Mine wins." in stored and "# Their heading" not in stored
        assert any(n.startswith(f"Sent into change request #{record['number']}") for n in notes(app))


def test_the_editor_is_opened_at_a_line_where_it_takes_one() -> None:
    assert open_at_line(["nvim"], "/t/a.md", 12) == ["nvim", "+12", "/t/a.md"]
    assert open_at_line(["/usr/bin/nano", "-w"], "/t/a.md", 3) == ["/usr/bin/nano", "-w", "+3", "/t/a.md"]
    assert open_at_line(["hx"], "/t/a.md", 7) == ["hx", "/t/a.md:7"]
    assert open_at_line(["code", "--wait"], "/t/a.md", 7) == ["code", "--wait", "/t/a.md"]
    assert open_at_line(["vim"], "/t/a.md", None) == ["vim", "/t/a.md"]


# --- a lost answer --------------------------------------------------------------------------------------------


async def test_a_lost_answer_is_found_not_sent_twice(
    state: SandboxState, editor: Editor, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = cr_of(state, LINUX)
    faults = Faults(seed=3)
    counting = Counting(SandboxTransport(create_app(state, faults=faults)))
    client = GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=counting, retry=RetryPolicy(sleep=_no_sleep)
    )
    services = Services(client, where="a flaky sandbox")
    editor.plan([{"append": "Sent once."}])
    try:
        app = FolioApp(services, start=cr_screen(services, state))
        app.animation_level = "none"
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            headless(app, monkeypatch)
            screen = app.screen
            assert isinstance(screen, ChangeRequestScreen)
            await to_linux_diff(pilot, screen)
            await pilot.press("E")
            await dialog(pilot, PageSendModal)
            faults.drop_after_write = 1.0  # done, the answer lost
            await pilot.press("ctrl+s")
            await settle(pilot)
            faults.drop_after_write = 0.0
            assert [p for p in counting.posts if p.endswith("/content")] == [
                f"/v1/spaces/{record['space']}/change-requests/{record['id']}/content"
            ]
            assert any("the answer was lost; read again, it was done" in n for n in notes(app))
            assert "Sent once." in page_in(state, record["revision"], "Linux")["markdown"]
            assert not isinstance(app.screen, PageSendModal)
    finally:
        await client.aclose()


# --- suggest from the review ------------------------------------------------------------------------------


async def test_i_in_the_diff_suggests_into_the_change_request(
    services: Services, state: SandboxState, open_app: Opener, editor: Editor, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = cr_of(state, LINUX)
    editor.plan([{"replace": ["22.04 or newer", "22.04 LTS or newer"]}])
    async with open_app(cr_screen(services, state)) as (app, pilot):
        headless(app, monkeypatch)
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        await to_linux_diff(pilot, screen)
        await pilot.press("n")  # the next change: the cursor on its first line
        await settle(pilot)
        cursor = screen.changes.diff_view.line_at_cursor()
        assert cursor is not None and cursor.new is not None
        await pilot.press("i")
        await dialog(pilot, PageSendModal)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "22.04 LTS or newer" in page_in(state, record["revision"], "Linux")["markdown"]
    assert editor.runs[0][0] == f"+{cursor.new}"


async def test_s_in_a_thread_of_an_archived_change_request_suggests_in_a_new_one_and_replies(
    services: Services, state: SandboxState, open_app: Opener, editor: Editor, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = cr_of(state, LINUX)
    main = state.spaces[record["space"]]["revision"]
    page = page_in(state, record["revision"], "Linux")
    comment = next(
        c
        for c in state.comments.values()
        if c["changeRequest"] == record["id"] and (c["target"].get("page") or {}).get("id") == page["id"]
    )
    editor.plan([{"append": "Suggested from the thread."}, {}])
    before = len(state.change_requests)
    async with open_app(
        lambda: ThreadScreen(services, record["space"], comment["id"], change_request=record["id"])
    ) as (app, pilot):
        headless(app, monkeypatch)
        record["status"] = "archived"
        await pilot.press("s")
        modal = await dialog(pilot, PageSendModal)
        assert modal.query_one("#to-here", RadioButton).disabled and modal.query_one("#to-new", RadioButton).value
        subject = modal.query_one("#page-send-subject", Input).value
        assert subject == f"Suggestion for #{record['number']}: Linux"
        await pilot.press("ctrl+s")
        moved = await dialog(pilot, MovedOnModal)  # main never had the archived change: carried onto main's text
        assert moved.moved.number == "main"
        await pilot.press("r")
        modal = await dialog(pilot, PageSendModal)
        assert modal.page.change_request is None and modal.page.markdown == page_in(state, main, "Linux")["markdown"]
        assert modal.query_one("#page-send-subject", Input).value == subject
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert len(state.change_requests) == before + 1
        made = max(state.change_requests.values(), key=lambda c: c["number"])
        assert made["subject"] == subject
        stored = page_in(state, made["revision"], "Linux")["markdown"]
        assert stored.rstrip().endswith("Suggested from the thread.")
        assert "22.04" not in stored  # the archived change stays out: only the suggestion is new
        bodies = [r["body"] for r in comment["replies"]]
        assert any(b.startswith(f"Suggested in change request #{made['number']}: https://") for b in bodies), bodies
        assert "Reply posted: it links the change request." in notes(app)


def test_the_dialogs_go_side_by_side_where_the_changes_tab_does() -> None:
    from folio.tui.modals import page_edit
    from folio.tui.widgets import change_overview

    assert page_edit.SIDE_BY_SIDE_MIN == change_overview.SIDE_BY_SIDE_MIN


async def test_s_in_a_thread_opens_the_page_at_the_comments_block_and_sends_into_its_change_request(
    services: Services, state: SandboxState, open_app: Opener, editor: Editor, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = cr_of(state, "Reorganise troubleshooting")  # a draft: the suggestion goes into it
    comment = next(c for c in state.comments.values() if c["changeRequest"] == record["id"] and c["target"].get("node"))
    page_id = comment["target"]["page"]["id"]
    markdown = next(p for p, _, _ in walk(state.revisions[record["revision"]]["pages"]) if p["id"] == page_id)[
        "markdown"
    ]
    blocks = await services.comments.page_blocks(record["space"], page_id, markdown, change_request=record["id"])
    block = next(b for b in blocks or () if b.key == comment["target"]["node"]["id"])
    assert block.first > 1 and markdown.splitlines()[block.first - 1].strip()
    editor.plan([{"append": "Linked from the installation pages too."}])
    async with open_app(
        lambda: ThreadScreen(services, record["space"], comment["id"], change_request=record["id"])
    ) as (app, pilot):
        headless(app, monkeypatch)
        await pilot.press("s")
        modal = await dialog(pilot, PageSendModal)
        assert modal.query_one("#to-here", RadioButton).value
        await pilot.press("ctrl+s")
        await settle(pilot)
        stored = next(p for p, _, _ in walk(state.revisions[record["revision"]]["pages"]) if p["id"] == page_id)
        assert "Linked from the installation pages too." in stored["markdown"]
        assert comment["replies"][-1]["body"].startswith(f"Suggested in change request #{record['number']}: ")
    assert editor.runs[0][0] == f"+{block.first}"  # the editor opened at the comment's block


async def test_a_refused_send_is_said_in_the_dialog_and_the_draft_is_kept(
    services: Services, state: SandboxState, open_app: Opener, editor: Editor, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = cr_of(state, LINUX)
    revision = record["revision"]
    editor.plan([{"append": "Too late for this one."}])
    async with open_app(cr_screen(services, state)) as (app, pilot):
        headless(app, monkeypatch)
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        await to_linux_diff(pilot, screen)
        await pilot.press("E")
        first = await dialog(pilot, PageSendModal)
        record["status"] = "merged"  # merged by someone while the dialog was open
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.screen is not first and isinstance(app.screen, PageSendModal))
        again = app.screen
        assert isinstance(again, PageSendModal)
        problem = str(again.query_one("#page-send-problem").render())
        assert problem.startswith("Not sent (your edit is kept):") and "is merged" in problem
        await pilot.press("escape")
        await settle(pilot)
        kept = services.writing.draft(again.page)
        assert kept is not None and kept.text.rstrip().endswith("Too late for this one.")
    assert record["revision"] == revision
