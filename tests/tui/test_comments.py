"""The comments panel (inside a small host screen) and the thread screen, driven by keys over the seeded
sandbox; every write is checked in what the sandbox now holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Footer, Header, Static

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.reaction import ReactionModal
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.screens.review.thread import ThreadScreen
from folio.tui.widgets.comments_panel import CommentsPanel, PagePickerModal
from folio.tui.widgets.diff_comment import BlockCommentModal
from folio.tui.widgets.resource_list import ResourceList
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN

SIZE = (120, 36)


class Host(FolioScreen):
    """Stands in for the space and change request screens that embed the panel."""

    crumb = "Host"

    def __init__(self, services: Services, space_id: str, change_request: str | None = None) -> None:
        super().__init__(services)
        self.space_id = space_id
        self.change_request = change_request
        self.counted: list[tuple[int, int]] = []

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield CommentsPanel(self.services, self.space_id, change_request=self.change_request)
        yield Footer()

    @property
    def panel(self) -> CommentsPanel:
        return self.query_one(CommentsPanel)

    def current_item(self) -> Item | None:
        return self.panel.current_item()

    def on_comments_panel_counted(self, event: CommentsPanel.Counted) -> None:
        self.counted.append((event.open, event.resolved))


async def _no_sleep(seconds: float) -> None:
    return None


def space_of(state: SandboxState, title: str = "Admin Handbook") -> str:
    return next(s["id"] for s in state.spaces.values() if s["title"] == title and s["organization"] == state.demo_org)


def host(
    services: Services, state: SandboxState, title: str = "Admin Handbook", cr: str | None = None
) -> Callable[[], Host]:
    services.comments.clock = lambda: FROZEN_AT
    sid = space_of(state, title)
    return lambda: Host(services, sid, cr)


def texts(panel: CommentsPanel) -> list[str]:
    return [
        row.cells[0].plain if hasattr(row.cells[0], "plain") else str(row.cells[0])
        for row in panel.browser.list.visible_rows
    ]


async def move_to(app: FolioApp, panel: CommentsPanel, comment_id: str) -> None:
    assert panel.browser.list.move_to(comment_id)


async def type_text(pilot: Any, text: str) -> None:
    await pilot.press(*[{" ": "space"}.get(ch, ch) for ch in text])


ASKING = {"comments-panel-new", "thread-write"}
"""Worker groups that wait on a modal: settled once the modal is up (the tui conftest's settle would wait for
the modal to close)."""


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


# --- the panel -------------------------------------------------------------------------------------------------


async def test_panel_groups_by_page_and_block_and_filters(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(host(services, state), size=SIZE) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, Host)
        panel = screen.panel
        assert texts(panel) == [
            "The whole space (1)",
            "Should Admin Handbook move under the Reference collection?",
            "Single sign-on (1)",
            "The screenshot on Single sign-on shows the old navigation.",
            "Audit log (1)",
            "Is Audit log still accurate after the November release?",
        ]
        assert screen.counted == [(3, 1)]
        summary = str(panel.query_one(".resource-panel--hint", Static).render())
        assert summary == "3 open · 1 resolved · showing open (3 of 4) · f changes"
        assert panel.browser.list.has_focus
        first = panel.browser.list.highlighted
        assert first is not None and first.cells[1].plain == "Ada Okafor"  # type: ignore[union-attr]
        assert [c.plain if hasattr(c, "plain") else c for c in first.cells[2:]] == ["1 d ago", "3", "", "open"]

        await pilot.press("f")
        assert panel.status == "resolved"
        resolved = texts(panel)
        # The block is titled by its first words (the seeded node is a real block of the page), never its id.
        assert resolved[0] == "Roles and permissions (1)"
        assert resolved[1] == "¶ “Admins manage members; editors edit content.”"
        assert resolved[2] == "Typo: recieve → receive."
        await pilot.press("f")
        assert panel.status == "all" and len(panel.browser.list.visible_rows) == 4 + 4 + 1
        await pilot.press("f")
        assert panel.status == "open"


async def test_an_empty_space_says_so(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state, "Onboarding"), size=SIZE) as (app, _pilot):
        panel = app.screen.panel
        status = str(panel.browser.query_one(".resource-browser--status", Static).render())
        assert status == "No comments in this space yet. Press c to comment on a page."


async def test_new_comment_on_a_picked_page(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_of(state)
    async with open_app(host(services, state), size=SIZE) as (app, pilot):
        panel = app.screen.panel
        screenshot = next(c for c in state.comments.values() if c["space"] == sid and "screenshot" in c["body"])
        await move_to(app, panel, screenshot["id"])
        await pilot.press("c")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, PagePickerModal)
        row = picker.query_one(ResourceList).highlighted
        assert row is not None and row.key == screenshot["target"]["page"]["id"]  # starts on the comment's page
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TextEntryModal)
        await type_text(pilot, "Add the new menu screenshot")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is not picker and isinstance(app.screen, Host)
        new = [c for c in state.comments.values() if c["body"] == "Add the new menu screenshot"]
        assert len(new) == 1
        assert new[0]["space"] == sid and new[0]["changeRequest"] is None and new[0]["postedBy"] == state.default_user
        assert new[0]["target"]["page"] == screenshot["target"]["page"] and "node" not in new[0]["target"]
        assert "Add the new menu screenshot" in texts(panel)
        assert app.screen.counted[-1] == (4, 1)


async def test_new_comment_on_the_block_under_the_cursor(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    sid = space_of(state)
    async with open_app(host(services, state), size=SIZE) as (app, pilot):
        panel = app.screen.panel
        typo = next(c for c in state.comments.values() if c["space"] == sid and c["body"].startswith("Typo"))
        await pilot.press("f")  # the block comment is resolved
        await move_to(app, panel, typo["id"])
        await pilot.press("c")
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, BlockCommentModal)  # no page to pick: the block is the one under the cursor
        quoted = str(modal.query_one(".diff-comment--block", Static).render())
        assert quoted == "Admins manage members; editors edit content."  # its words above the box
        await type_text(pilot, "Same typo in the next paragraph")
        await pilot.press("ctrl+s")
        await settle(pilot)
        new = [c for c in state.comments.values() if c["body"] == "Same typo in the next paragraph"]
        assert len(new) == 1
        assert new[0]["target"]["node"] == typo["target"]["node"]
        assert new[0]["target"]["page"] == typo["target"]["page"]


async def test_new_comment_on_the_whole_change_request(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_of(state, "Getting Started")
    cr = next(c for c in state.change_requests.values() if c["space"] == sid and c["number"] == 1)
    async with open_app(host(services, state, "Getting Started", cr["id"]), size=SIZE) as (app, pilot):
        assert texts(app.screen.panel)[0] == "Linux (1)"  # the seeded thread is on the page it changes
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("g", "enter")  # the first row: the whole change request
        await settle(pilot)
        await type_text(pilot, "Ready to merge")
        await pilot.press("f2")
        await settle(pilot)
        new = next(c for c in state.comments.values() if c["body"] == "Ready to merge")
        assert new["changeRequest"] == cr["id"] and "page" not in new["target"]
        assert texts(app.screen.panel)[:2] == ["The whole change request (1)", "Ready to merge"]


async def test_the_page_picker_of_a_change_request_lists_its_changed_pages_first(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    sid = space_of(state, "Getting Started")
    cr = next(c for c in state.change_requests.values() if c["space"] == sid and c["number"] == 1)
    async with open_app(host(services, state, "Getting Started", cr["id"]), size=SIZE) as (app, pilot):
        await pilot.press("c")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, PagePickerModal)
        rows = picker.query_one(ResourceList).visible_rows
        cells = [[c.plain if hasattr(c, "plain") else str(c) for c in row.cells] for row in rows]
        assert cells[0] == ["", "The whole change request"]
        assert cells[1:3] == [["\u2022 edited", "Linux"], ["\u2022 created", "Windows"]]  # changed, marked, first
        assert all(mark == "" for mark, _ in cells[3:]) and "Welcome" in [title for _, title in cells[3:]]
        hint = str(picker.query_one(".picker--hint", Static).render())
        assert hint == "The 2 pages this change request changes come first (\u2022)."
        assert picker.query_one(ResourceList).highlighted.key == rows[1].key  # type: ignore[union-attr]
        await pilot.press("j", "enter")  # from Linux (the page of the comment under the cursor) to Windows
        await settle(pilot)
        await type_text(pilot, "Needs a screenshot")
        await pilot.press("ctrl+s")
        await settle(pilot)
        new = next(c for c in state.comments.values() if c["body"] == "Needs a screenshot")
        assert new["changeRequest"] == cr["id"] and new["target"]["page"]["id"] == rows[2].key


async def test_the_page_picker_of_a_space_marks_nothing(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state), size=SIZE) as (app, pilot):
        await pilot.press("g", "c")  # on the whole space's row: the picker
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, PagePickerModal) and not picker.changed and not picker.query(".picker--hint")


async def test_a_refused_comment_keeps_what_was_typed(services: Services, state: SandboxState, open_app: Any) -> None:
    reader = next(u for u, m in state.members[state.demo_org].items() if m["role"] == "read")
    state.tokens = {TOKEN: reader}
    before = {k: dict(v) for k, v in state.comments.items()}
    async with open_app(host(services, state), size=SIZE) as (app, pilot):
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await type_text(pilot, "Can I comment")
        await pilot.press("ctrl+s")
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, TextEntryModal)
        assert modal.text == "Can I comment"
        problem = modal.problem_text
        assert problem.startswith("Not sent: You cannot comment in this space (403)")
        assert "What you typed is kept" in problem and "folio-home" not in problem  # no file path in messages
    assert {k: dict(v) for k, v in state.comments.items()} == before


async def test_resolve_and_reopen_from_the_panel(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_of(state)
    record = next(c for c in state.comments.values() if c["space"] == sid and "Audit log" in c["body"])
    async with open_app(host(services, state), size=SIZE) as (app, pilot):
        panel = app.screen.panel
        await move_to(app, panel, record["id"])
        await pilot.press("x")
        await settle(pilot)
        assert record["status"] == "resolved" and record["resolvedBy"] == state.default_user
        assert record["resolvedAt"] == "2026-11-01T09:00:00.000Z"
        assert "Is Audit log still accurate after the November release?" not in texts(panel)  # showing open
        await pilot.press("f")
        await move_to(app, panel, record["id"])
        await pilot.press("x")
        await settle(pilot)
        assert record["status"] == "open" and record["resolvedBy"] is None


async def test_resolve_is_greyed_on_a_page_row(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state), size=SIZE) as (app, pilot):
        panel = app.screen.panel
        panel.browser.list.cursor = 0
        await pilot.pause()
        assert panel.highlighted is None and panel.check_action("resolve", ()) is None
        before = {k: dict(v) for k, v in state.comments.items()}
        await pilot.press("x")
        await settle(pilot)
        assert {k: dict(v) for k, v in state.comments.items()} == before


async def test_a_failing_service_is_said_in_words(state: SandboxState) -> None:
    failing = create_app(state, faults=Faults(error_rate=1.0))
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(failing),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    services = Services(client)
    app = FolioApp(services, start=host(services, state))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.screen.panel
        status = str(panel.browser.query_one(".resource-browser--status", Static).render())
        assert status.startswith("Could not load the comments: Injected server error (50")
        assert status.endswith("Press r to try again.")
        assert panel.check_action("new_comment", ()) is None and app.is_running
    await client.aclose()


async def test_a_reader_cannot_resolve(services: Services, state: SandboxState, open_app: Any) -> None:
    reader = next(u for u, m in state.members[state.demo_org].items() if m["role"] == "read")
    state.tokens = {TOKEN: reader}
    before = {k: dict(v) for k, v in state.comments.items()}
    async with open_app(host(services, state), size=SIZE) as (app, pilot):
        panel = app.screen.panel
        assert panel.highlighted is not None and panel.check_action("resolve", ()) is None
        await pilot.press("x")
        await settle(pilot)
    assert {k: dict(v) for k, v in state.comments.items()} == before


async def test_hostile_bodies_are_shown_as_text(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_of(state)
    record = next(c for c in state.comments.values() if c["space"] == sid and "Audit log" in c["body"])
    record["body"] = "[@click=app.quit]x\x1b]52;c;ZXZpbA==\x07\u202e[b]y"
    async with open_app(host(services, state), size=SIZE) as (app, pilot):
        assert "[@click=app.quit]x[b]y" in texts(app.screen.panel)
        await open_thread(app, pilot, record["id"])
        assert app.is_running


# --- the thread ------------------------------------------------------------------------------------------------


async def open_thread(app: FolioApp, pilot: Any, comment_id: str) -> ThreadScreen:
    await move_to(app, app.screen.panel, comment_id)
    await pilot.press("enter")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, ThreadScreen)
    return screen


def post_texts(screen: ThreadScreen) -> list[str]:
    return [p.item.text for p in screen.posts]


async def test_thread_shows_the_comment_and_its_replies(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_of(state)
    record = next(c for c in state.comments.values() if c["space"] == sid and c["postedBy"] == state.default_user)
    async with open_app(host(services, state), size=SIZE) as (app, pilot):
        screen = await open_thread(app, pilot, record["id"])
        assert post_texts(screen) == [record["body"], *(r["body"] for r in record["replies"])]
        assert str(screen.query_one("#thread-where", Static).render()) == "On the whole space"
        assert screen.sub_title == "Host \u203a Comment by Ada Okafor"
        header = str(screen.posts[0].query_one(".post--header", Static).render())
        assert header == "Ada Okafor (you) · 2026-10-31 03:00 UTC · 1 d ago · open"
        assert [p.has_class("-reply") for p in screen.posts] == [False, True, True, True]
        assert screen.posts[0].has_focus
        await pilot.press("j", "j")
        assert screen.selected is screen.posts[2]
        assert screen.current_item() == Item(record["replies"][1]["id"], screen.posts[2].item.urls.location, "reply")  # type: ignore[union-attr]
        await pilot.press("k")
        assert screen.selected is screen.posts[1]


async def test_reply_react_resolve_in_a_thread(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_of(state)
    record = next(c for c in state.comments.values() if c["space"] == sid and "screenshot" in c["body"])
    async with open_app(host(services, state), size=SIZE) as (app, pilot):
        screen = await open_thread(app, pilot, record["id"])
        assert not screen.check_action("edit", ()) and not screen.check_action("delete", ())

        await pilot.press("c")
        await settle(pilot)
        await type_text(pilot, "On it")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert [r["body"] for r in record["replies"]] == ["On it"]
        assert record["replies"][0]["postedBy"] == state.default_user
        assert post_texts(screen) == [record["body"], "On it"]
        assert screen.selected is screen.posts[1]  # the new reply

        await pilot.press("k", "plus")
        await settle(pilot)
        assert isinstance(app.screen, ReactionModal)
        await pilot.press("3")
        await settle(pilot)
        party = next(r for r in record["reactions"] if r["emoji"] == "🎉")
        assert [u["user"] for u in party["users"]] == [state.default_user]
        assert screen.check_action("unreact", ())
        await pilot.press("underscore")  # two reactions of yours (👀 was there): which one?
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, ReactionModal) and picker.choices == ["👀", "🎉"]
        await pilot.press("2")
        await settle(pilot)
        assert all(r["emoji"] != "🎉" for r in record["reactions"])
        assert record["reactions"][0]["emoji"] == "👀" and len(record["reactions"][0]["users"]) == 3

        await pilot.press("x")
        await settle(pilot)
        assert record["status"] == "resolved" and record["resolvedBy"] == state.default_user
        assert "resolved by Ada Okafor" in str(screen.posts[0].query_one(".post--header", Static).render())

        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, Host)
        assert app.screen.counted[-1] == (2, 2)  # reloaded
        assert texts(app.screen.panel)[2:4] == [
            "Audit log (1)",
            "Is Audit log still accurate after the November release?",
        ]


async def test_edit_and_delete_your_own_posts(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_of(state)
    record = next(c for c in state.comments.values() if c["space"] == sid and c["postedBy"] == state.default_user)
    mine = next(r for r in record["replies"] if r["postedBy"] == state.default_user)
    theirs = next(r for r in record["replies"] if r["postedBy"] != state.default_user)
    async with open_app(host(services, state), size=SIZE) as (app, pilot):
        screen = await open_thread(app, pilot, record["id"])
        posts = {p.item.id: p for p in screen.posts}

        posts[theirs["id"]].focus()
        await pilot.pause()
        assert screen.check_action("edit", ()) is False and screen.check_action("delete", ()) is False
        before = {k: dict(v) for k, v in state.comments.items()}
        await pilot.press("e", "d")
        await settle(pilot)
        assert app.screen is screen and {k: dict(v) for k, v in state.comments.items()} == before

        posts[mine["id"]].focus()
        await pilot.pause()
        await pilot.press("e")
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, TextEntryModal) and modal.text == mine["body"]
        await pilot.press("end", "exclamation_mark", "ctrl+s")
        await settle(pilot)
        assert mine["body"].endswith("!") and mine["editedAt"] == "2026-11-01T09:00:00.000Z"

        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("d")  # the asking key does not confirm
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        assert all(r["id"] != mine["id"] for r in record["replies"]) and len(record["replies"]) == 2

        screen.posts[0].focus()
        await pilot.pause()
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert record["id"] not in state.comments
        assert isinstance(app.screen, Host)
        assert "Should Admin Handbook move under the Reference collection?" not in texts(app.screen.panel)
        assert app.screen.counted[-1] == (2, 1)


async def test_a_thread_inside_a_change_request(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_of(state, "Getting Started")
    cr = next(c for c in state.change_requests.values() if c["space"] == sid and c["number"] == 2)
    record = next(c for c in state.comments.values() if c["changeRequest"] == cr["id"] and c["replies"])
    async with open_app(host(services, state, "Getting Started", cr["id"]), size=SIZE) as (app, pilot):
        screen = await open_thread(app, pilot, record["id"])
        assert screen.change_request == cr["id"] and len(screen.posts) == 1 + len(record["replies"])
        where = str(screen.query_one("#thread-where", Static).render())
        assert where == "On “Check the network and retry `nw register --scan`.” of “Troubleshooting”"
        await pilot.press("c")
        await settle(pilot)
        await type_text(pilot, "Aligned now")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert record["replies"][-1]["body"] == "Aligned now"
        assert [n.message for n in app._notifications][-1] == "Reply posted"


async def test_a_failed_write_is_said_in_words(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_of(state)
    record = next(c for c in state.comments.values() if c["space"] == sid and "Audit log" in c["body"])
    async with open_app(host(services, state), size=SIZE) as (app, pilot):
        screen = await open_thread(app, pilot, record["id"])
        del state.comments[record["id"]]  # deleted by someone else meanwhile
        await pilot.press("x")
        await settle(pilot)
        last = list(app._notifications)[-1]
        assert last.severity == "error"
        assert last.message.startswith("Could not resolve the thread: No matching comment found")
        assert app.screen is screen and len(screen.posts) == 2  # what was shown stays


async def test_thread_fails_in_words(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = space_of(state)
    services.comments.clock = lambda: FROZEN_AT
    async with open_app(lambda: ThreadScreen(services, sid, "no-such-comment"), size=SIZE) as (app, _pilot):
        screen = app.screen
        assert isinstance(screen, ThreadScreen)
        message = str(screen.query_one("#thread-message", Static).render())
        assert message.startswith("Could not load the thread: No matching comment found")
        assert message.endswith("Press r to try again.")
        assert not screen.check_action("reply", ()) and screen.posts == []
