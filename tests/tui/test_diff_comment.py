"""Comment from the diff: ``c`` on the changes tab comments on the block of the new revision that the line under
the diff's cursor belongs to, over the seeded sandbox; the sandbox then holds a comment on that page and block,
and the comments tab titles it by the block's first words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Static

from folio.api import GitBookClient, RetryPolicy, Token
from folio.models.common import document_text
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.sandbox.domain.block_keys import with_keys
from folio.sandbox.domain.content import markdown_document
from folio.sandbox.revisions import find_page
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.widgets.change_overview import ChangesPane
from folio.tui.widgets.comments_panel import CommentsPanel
from folio.tui.widgets.diff_comment import BlockCommentModal
from folio.tui.widgets.diff_view import DiffView
from tests.conftest import SANDBOX_URL, TOKEN

ASKING = {"changes-comment"}
"""The worker that waits on the comment box: settled once the box is up."""


@pytest.fixture(autouse=True)
def defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ChangesPane, "prefer_side_by_side", True)
    monkeypatch.setattr(ChangesPane, "prefer_wrap", False)


async def settle(pilot: Pilot[None]) -> None:
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


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot)


async def type_text(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*[{" ": "space"}.get(ch, ch) for ch in text])


def cr_of(state: SandboxState, subject: str) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == subject)


def opener(services: Services, state: SandboxState, subject: str) -> Any:
    record = cr_of(state, subject)
    return lambda: ChangeRequestScreen(services, record["space"], record["number"], trail=("Northwind Labs",))


def block_holding(state: SandboxState, cr: dict[str, Any], title: str, words: str) -> tuple[str, str]:
    """(page id, key) of the block of ``title`` in the change request's content whose text holds ``words``."""
    pages = state.revisions[cr["revision"]]["pages"]
    page = next(p for p, *_ in _walk(pages) if p.get("title") == title)
    document = with_keys(markdown_document(page["markdown"]), page["id"])
    key = next(n["key"] for n in document["nodes"] if words in document_text(n))
    return page["id"], key


def _walk(pages: list[dict[str, Any]]) -> list[tuple[dict[str, Any], int]]:
    out: list[tuple[dict[str, Any], int]] = []
    for page in pages:
        out.append((page, 0))
        out.extend(_walk(page.get("pages") or []))
    return out


def new_comments(state: SandboxState, before: set[str]) -> list[dict[str, Any]]:
    return [c for cid, c in state.comments.items() if cid not in before]


LINUX = "Clarify Linux install steps"
WELCOME = "Refresh the welcome page"


async def test_c_comments_on_the_block_under_the_cursor(services: Services, state: SandboxState, open_app: Any) -> None:
    cr = cr_of(state, LINUX)
    page_id, key = block_holding(state, cr, "Linux", "Ubuntu 22.04")
    before = set(state.comments)
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        await press(pilot, "2", "enter")  # the Linux page's diff, the focus in it
        view = screen.query_one(DiffView)
        assert view.has_focus and view.line_at_cursor() is not None
        assert view.line_at_cursor().text == "sudo apt update"  # type: ignore[union-attr]  # the first change
        await press(pilot, "j", "j", "j", "j")
        assert view.line_at_cursor().text.startswith("The package needs Ubuntu")  # type: ignore[union-attr]
        await press(pilot, "c")
        modal = app.screen
        assert isinstance(modal, BlockCommentModal)
        assert modal.target.node == key and modal.target.page_id == page_id
        quoted = str(modal.query_one(".diff-comment--block", Static).render())
        assert quoted == "The package needs Ubuntu 22.04 or newer (Debian 12 works too)."
        assert "New comment on “The package needs Ubuntu" in str(modal.query_one(".form--title", Static).render())
        await type_text(pilot, "Which kernel?")
        await press(pilot, "ctrl+s")
        assert not isinstance(app.screen, ModalScreen)
        [posted] = new_comments(state, before)
        assert posted["changeRequest"] == cr["id"] and posted["body"] == "Which kernel?"
        assert posted["target"]["page"] == {"id": page_id} and posted["target"]["node"] == {"id": key}
        assert app._notifications and list(app._notifications)[-1].message.startswith(
            "Comment posted on “The package needs Ubuntu"
        )

        await press(pilot, "3")  # the comments tab: the thread under the block's first words, not its id
        panel = screen.query_one(CommentsPanel)
        await settle(pilot)
        rows = [str(r.cells[0]) for r in panel.browser.list.visible_rows]
        at = rows.index("Which kernel?")
        assert rows[at - 1] == "¶ “The package needs Ubuntu 22.04 or newer (Debian 12 works to…”"  # first words
        assert key not in " ".join(rows)


async def test_the_pending_review_banner_keeps_the_cursor_on_its_line(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """P shows a line above the diff (and takes it away again): the cursor stays on the line it was on, in view,
    so the next c comments on the block the reader sees marked."""
    cr = cr_of(state, LINUX)
    page = next(p for p, _ in _walk(state.revisions[cr["revision"]]["pages"]) if p.get("title") == "Linux")
    page["markdown"] += "\n\n" + "\n\n".join(f"Paragraph {i} of a long tail." for i in range(60))
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        screen = app.screen
        await press(pilot, "2", "enter", "G", *["j"] * 12)  # the last line, at the bottom of the diff
        view = screen.query_one(DiffView)
        marked = view.line_at_cursor()
        assert marked is not None and marked.text == "Paragraph 59 of a long tail."

        def in_view() -> bool:
            top = round(view.scroll_y)
            return top <= view.cursor < top + view.scrollable_content_region.height

        assert in_view()
        for _ in range(3):  # the banner appears, goes, appears
            height = view.size.height
            await press(pilot, "P")
            assert view.size.height != height  # the diff was made shorter (taller)
            assert view.line_at_cursor() is marked and in_view()
        await press(pilot, "c")
        modal = app.screen
        assert isinstance(modal, BlockCommentModal)
        assert str(modal.query_one(".diff-comment--block", Static).render()) == "Paragraph 59 of a long tail."


async def test_a_deleted_line_says_so_and_offers_the_page(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    cr = cr_of(state, WELCOME)
    before = set(state.comments)
    async with open_app(opener(services, state, WELCOME)) as (app, pilot):
        await press(pilot, "2", "enter")
        view = app.screen.query_one(DiffView)
        line = view.line_at_cursor()
        assert line is not None and line.kind == "delete" and line.new is None  # unified at 80 columns
        await press(pilot, "c")
        question = app.screen
        assert isinstance(question, ConfirmModal)
        assert question.title_text.plain == "This line is deleted: it belongs to no block of the new revision."
        assert question.body_text.plain == "Comment on “Welcome” instead?"
        await press(pilot, "y")
        modal = app.screen
        assert isinstance(modal, BlockCommentModal) and modal.target.node is None
        assert not modal.query(".diff-comment--block")  # no block to show
        await type_text(pilot, "Plain is better")
        await press(pilot, "ctrl+s")
        [posted] = new_comments(state, before)
        welcome = find_page(state.revisions[cr["revision"]]["pages"], posted["target"]["page"]["id"])
        assert welcome is not None and welcome[0]["title"] == "Welcome"
        assert "node" not in posted["target"]


async def test_a_deleted_line_and_no_thanks_posts_nothing(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    before = set(state.comments)
    async with open_app(opener(services, state, WELCOME)) as (app, pilot):
        await press(pilot, "2", "enter", "c")
        assert isinstance(app.screen, ConfirmModal)
        await press(pilot, "n")
        assert not isinstance(app.screen, ModalScreen) and not new_comments(state, before)


async def test_side_by_side_comments_on_the_new_side(services: Services, state: SandboxState, open_app: Any) -> None:
    cr = cr_of(state, WELCOME)
    page_id, key = block_holding(state, cr, "Welcome", "safely and quickly")
    before = set(state.comments)
    async with open_app(opener(services, state, WELCOME), size=(160, 50)) as (app, pilot):
        await press(pilot, "2", "enter")
        view = app.screen.query_one(DiffView)
        assert view.side_by_side
        line = view.line_at_cursor()  # the changed row: its new side
        assert line is not None and line.kind == "add" and line.new == 3
        await press(pilot, "c")
        modal = app.screen
        assert isinstance(modal, BlockCommentModal) and modal.target.node == key
        await type_text(pilot, "Plain")
        await press(pilot, "ctrl+s")
        [posted] = new_comments(state, before)
        assert posted["target"]["node"] == {"id": key} and posted["target"]["page"] == {"id": page_id}


async def test_c_before_the_pages_load_says_why(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(opener(services, state, LINUX)) as (app, _pilot):
        pane = app.screen.query_one(ChangesPane)
        assert pane.why_not("comment") is None
        shown, pane.shown = pane.shown, None
        assert pane.why_not("comment") == "No page is shown: pick one in the list."
        pane.shown, pane.change_set = shown, None
        assert pane.why_not("comment") == "The changed pages are still loading."


# --- the layout: a moved page, wrapping, the page list's room ------------------------------------------------

MOVE = "Reorganise troubleshooting"


def _title_text(screen: Any) -> str:
    return str(screen.query_one("#diff-title", Static).render())


async def test_a_moved_page_says_from_where_to_where(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(opener(services, state, MOVE), size=(160, 50)) as (app, pilot):
        screen = app.screen
        await press(pilot, "2")
        pane = screen.query_one(ChangesPane)
        row = next(r for r in pane.pages.list.visible_rows if r.data.title == "Troubleshooting")  # type: ignore[union-attr]
        cell = row.cells[2]
        assert getattr(cell, "plain", cell) == "Troubleshooting (top level \u2192 your-first-robot)"
        pane.pages.list.move_to(row.key)
        await settle(pilot)
        title = _title_text(screen)
        assert "moved from the top level to under \u201cyour-first-robot\u201d" in title


def _drawn(view: DiffView) -> list[str]:
    return [view.render_line(y).text for y in range(view.size.height)]


async def test_w_wraps_long_lines_side_by_side(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(opener(services, state, LINUX), size=(160, 50)) as (app, pilot):
        screen = app.screen
        await press(pilot, "2", "enter")
        view = screen.query_one(DiffView)
        assert view.side_by_side and not view.wrap
        assert not any("too)." in line for line in _drawn(view))  # cut at the column's edge
        rows = view.virtual_size.height
        await press(pilot, "w")
        assert view.wrap and ChangesPane.prefer_wrap and ", wrapped" in _title_text(screen)
        drawn = _drawn(view)
        assert any(line.endswith("(Debian 12 works") for line in map(str.rstrip, drawn))  # cut between words
        assert any("too)." in line for line in drawn)  # the rest, on the next line, under the text
        assert view.virtual_size.height > rows and view.virtual_size.width == view.scrollable_content_region.width
        at = next(i for i, line in enumerate(drawn) if "too)." in line)
        assert "\u21aa" in drawn[at]  # a continuation: no line number, a mark
        assert view.line_at_cursor() is not None and view.line_at_cursor().text == "sudo apt update"  # type: ignore[union-attr]
        await press(pilot, "j", "j", "j", "j")  # the cursor moves by lines of the diff, wrapped or not
        assert view.line_at_cursor().text.startswith("The package needs")  # type: ignore[union-attr]
        await press(pilot, "w")
        assert not view.wrap and view.virtual_size.height == rows


async def test_side_by_side_under_140_columns_narrows_the_page_list(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(opener(services, state, LINUX), size=(130, 40)) as (app, pilot):
        screen = app.screen
        await press(pilot, "2")
        pane = screen.query_one(ChangesPane)
        assert pane.diff_view.side_by_side and pane.has_class("-roomy-diff")
        assert pane.pages.outer_size.width == 26
        await press(pilot, "s")  # unified: the list has its room back
        assert not pane.has_class("-roomy-diff") and pane.pages.outer_size.width == 38


async def test_a_created_page_comments_on_its_blocks(services: Services, state: SandboxState, open_app: Any) -> None:
    cr = cr_of(state, LINUX)
    before = set(state.comments)
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        await press(pilot, "2", "j", "enter")  # Windows, a page the change request creates
        view = app.screen.query_one(DiffView)
        line = view.line_at_cursor()
        assert line is not None and line.kind == "add" and line.new == 1
        await press(pilot, "c")
        modal = app.screen
        assert isinstance(modal, BlockCommentModal) and modal.target.page_title == "Windows"
        page_id, key = block_holding(state, cr, "Windows", modal.target.block_text or "?")
        assert modal.target.node == key and modal.target.page_id == page_id
        await type_text(pilot, "Which Windows?")
        await press(pilot, "ctrl+s")
        [posted] = new_comments(state, before)
        assert posted["target"] == {"revision": cr["revision"], "page": {"id": page_id}, "node": {"id": key}}


async def test_a_hostile_block_is_quoted_as_text(services: Services, state: SandboxState, open_app: Any) -> None:
    cr = cr_of(state, LINUX)
    linux = next(p for p, _ in _walk(state.revisions[cr["revision"]]["pages"]) if p.get("title") == "Linux")
    linux["markdown"] = linux["markdown"].replace(
        "The package needs", "[bold red]Loud[/] \x1b]0;pwned\x07 The package needs"
    )
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        await press(pilot, "2", "enter", "j", "j", "j", "j", "c")
        modal = app.screen
        assert isinstance(modal, BlockCommentModal)
        quoted = modal.query_one(".diff-comment--block", Static).render()
        assert "[bold red]Loud[/]" in str(quoted) and "\x1b" not in str(quoted) and "\x07" not in str(quoted)
        assert "[bold red]" in str(modal.query_one(".form--title", Static).render())
        await press(pilot, "escape")


async def test_a_deleted_page_offers_the_whole_change_request(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    subject = "Remove the deprecated Rollouts API page"
    cr = cr_of(state, subject)
    before = set(state.comments)
    async with open_app(opener(services, state, subject)) as (app, pilot):
        pane = app.screen.query_one(ChangesPane)
        await press(pilot, "2")
        assert pane.page is not None and pane.page.after is None  # the page it deletes
        await press(pilot, "c")
        question = app.screen
        assert isinstance(question, ConfirmModal)
        assert question.title_text.plain.startswith("This page is deleted by this change request")
        assert question.body_text.plain == "Comment on the whole change request instead?"
        await press(pilot, "y")
        assert isinstance(app.screen, BlockCommentModal)
        await type_text(pilot, "Redirect it")
        await press(pilot, "ctrl+s")
        [posted] = new_comments(state, before)
        assert posted["changeRequest"] == cr["id"] and "page" not in posted["target"]


async def _no_sleep(seconds: float) -> None:
    return None


async def test_a_comment_whose_answer_was_lost_is_looked_for_not_sent_twice(state: SandboxState) -> None:
    faults = Faults(seed=3)
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state, faults=faults)),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    services = Services(client, where="a flaky sandbox")
    before = set(state.comments)
    app = FolioApp(services, start=opener(services, state, LINUX))
    app.animation_level = "none"
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await press(pilot, "2", "enter", "j", "j", "j", "j", "c")
            assert isinstance(app.screen, BlockCommentModal)
            await type_text(pilot, "Which kernel?")
            state.clock.freeze()  # the service's clock at this machine's time: "posted since the send" holds
            faults.drop_after_write = 1.0  # the comment is made, its answer lost
            await press(pilot, "ctrl+s")
            if isinstance(app.screen, BlockCommentModal):  # what the box invites when it could not check
                await press(pilot, "ctrl+s")
            faults.drop_after_write = 0.0
            posted = new_comments(state, before)
            assert len(posted) == 1 and posted[0]["body"] == "Which kernel?" and posted[0]["target"].get("node")
            assert "The answer was lost, but the service has it: it was sent once." in [
                n.message for n in app._notifications
            ]
    finally:
        await client.aclose()


async def test_the_cursor_stays_on_screen_when_the_diff_scrolls() -> None:
    from textual.app import App, ComposeResult

    from folio.services.review.diff import diff_markdown

    before = "\n".join(f"line {i}" for i in range(300))
    after = "\n".join(f"line {i}" if i % 20 else f"changed {i}" for i in range(300))

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield DiffView(cursor=True)

    app = One()
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.query_one(DiffView)
        view.show(diff_markdown(before, after))
        view.focus()
        await pilot.pause()
        assert view.line_at_cursor() is not None and view.line_at_cursor().text == "line 0"  # type: ignore[union-attr]
        await pilot.press("G")
        await pilot.pause()
        top, height = round(view.scroll_y), view.scrollable_content_region.height
        assert top > 0 and top <= view.cursor < top + height  # brought along to the bottom screen
        await pilot.press("g")
        await pilot.pause()
        assert round(view.scroll_y) == 0 and view.cursor < height
        for _ in range(height + 3):
            await pilot.press("j")
        await pilot.pause()
        assert round(view.scroll_y) <= view.cursor < round(view.scroll_y) + height  # the view follows the cursor


async def test_offline_a_comment_from_the_diff_goes_to_the_outbox(
    client: GitBookClient, state: SandboxState, open_app: Any, tmp_path: Path
) -> None:
    from folio.services.local import Local
    from folio.services.review.comments import Queued
    from folio.services.review.outbox import outbox_of

    local = Local(client, cache_dir=tmp_path / "cache", state_dir=tmp_path / "state")
    local.confirm(state.default_user, "Ada")
    services = Services(client, where="the test sandbox", local=local)
    before = set(state.comments)
    try:
        app = FolioApp(services, start=opener(services, state, LINUX))
        app.animation_level = "none"
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await press(pilot, "2", "enter", "j", "j", "j", "j")  # read online: the page's blocks are cached
            await press(pilot, "c", "escape")
            services.client.set_offline("asked")
            await press(pilot, "c")
            assert isinstance(app.screen, BlockCommentModal)
            await type_text(pilot, "Offline")
            await press(pilot, "ctrl+s")
            assert [str(n.message) for n in app._notifications][-1] == Queued.message
            outbox = outbox_of(services)
            assert outbox is not None
            [item] = outbox.items()
            assert item.kind == "comment" and item.payload["node"] and item.payload["markdown"] == "Offline"
            assert item.where.startswith("a comment on \u201cThe package needs Ubuntu")
            assert not new_comments(state, before)
    finally:
        local.close()
