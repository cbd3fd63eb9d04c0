"""The review sweep driven by keys over the sandbox: space on the changes tab walks the changed pages in the list's
order, each followed by its open threads (oldest first, resolved ones skipped), then the threads on anything else;
leaving a page marks it viewed; a progress bar counts the stops. With ``[review] approve_requires``, approving says
what is missing until the sweep's work is done."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Static, TabbedContent

from folio.config.settings import Settings, SettingsError
from folio.sandbox import SandboxState
from folio.services import Services
from folio.services.review.sweep import approve_requires
from folio.tui.modals.review import ReviewModal
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.screens.review.thread import ThreadScreen
from folio.tui.widgets.change_overview import ChangesPane

SIZE = (120, 32)
LINUX = "Clarify Linux install steps"


@pytest.fixture(autouse=True)
def side_by_side_preferred(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ChangesPane, "prefer_side_by_side", True)


async def settle(pilot: Pilot[None]) -> None:
    app = pilot.app
    for _ in range(500):
        await pilot.pause()
        asking = isinstance(app.screen, ModalScreen)
        if not [w for w in app.workers if w.is_running and not (asking and w.group == "thread-write")]:
            break
    await pilot.pause()


async def press(pilot: Pilot[None], *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


def the_cr(state: SandboxState) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == LINUX)


def bar_text(screen: Any) -> str:
    bar = screen.query_one("#thread-review-bar" if isinstance(screen, ThreadScreen) else "#cr-review-bar", Static)
    return str(bar.render()) if bar.display else ""


async def threads(services: Services, state: SandboxState) -> dict[str, str]:
    """Adds threads through the API: a second one on each changed page, a resolved one, one on the whole change
    request. Returns the ids by name (``linux-seeded`` is the seeded open thread on Linux)."""
    record = the_cr(state)
    sid, cid = record["space"], record["id"]
    changes = await services.review.changes(sid, await services.review.change_request(sid, cid))
    pages = {p.title: p.id for p in changes.changed}
    assert set(pages) == {"Linux", "Windows"}
    seeded = next(c["id"] for c in state.comments.values() if c["changeRequest"] == cid and c["status"] == "open")
    create = services.client.comments.create
    made = {
        "linux-mine": (await create(sid, "Mine on Linux", change_request=cid, page=pages["Linux"])).id,
        "windows": (await create(sid, "On Windows", change_request=cid, page=pages["Windows"])).id,
        "resolved": (await create(sid, "Done already", change_request=cid, page=pages["Windows"])).id,
        "whole": (await create(sid, "On everything", change_request=cid)).id,
    }
    await services.client.comments.update(sid, made["resolved"], change_request=cid, resolved=True)
    return {"linux-seeded": seeded, **made}


def opener(services: Services, state: SandboxState) -> Any:
    record = the_cr(state)
    return lambda: ChangeRequestScreen(services, record["space"], record["number"], trail=("Northwind Labs",))


async def test_space_walks_pages_then_their_threads_in_order(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    ids = await threads(services, state)
    record = the_cr(state)
    async with open_app(opener(services, state), size=SIZE) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        await press(pilot, "2")
        order = [getattr(row.data, "title", "") for row in screen.changes.pages.list.visible_rows]
        per_page = {"Linux": ["linux-seeded", "linux-mine"], "Windows": ["windows"]}
        expected: list[str] = []
        for title in order:
            expected += [f"page {title}", *per_page[title]]
        expected.append("whole")  # what is on no changed page comes last; the resolved thread never

        walked: list[str] = []
        for n in range(1, len(expected) + 1):
            await press(pilot, "space")
            assert f" {n}/{len(expected)} " in bar_text(screen)
            shown: Any = app.screen
            if isinstance(shown, ThreadScreen):
                walked.append(next(k for k, v in ids.items() if v == shown.comment_id))
                await press(pilot, "escape")
                assert app.screen is screen
            else:
                assert screen.query_one(TabbedContent).active == "changes"
                page = screen.changes.page
                assert page is not None
                walked.append(f"page {page.title}")
        assert walked == expected

        viewed = services.review.viewed.viewed(record["id"], record["revision"])
        assert viewed == {p.id for p in screen.changes.change_set.changed}  # type: ignore[union-attr]
        await press(pilot, "space")
        assert bar_text(screen) == ""
        assert any("Sweep done: 6 stops walked." in n.message for n in app._notifications)
        await press(pilot, "space")  # all viewed: only the open threads are left to walk again
        assert " 1/4 " in bar_text(screen) and isinstance(app.screen, ThreadScreen)


async def test_approving_says_what_is_missing_until_the_sweep_is_done(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    ids = await threads(services, state)
    record = the_cr(state)
    services.approve_requires = ("viewed", "resolved")
    reviews = len(record["reviews"])
    async with open_app(opener(services, state), size=SIZE) as (app, pilot):
        screen = app.screen
        await press(pilot, "R", "a", "f2")
        modal = app.screen
        assert isinstance(modal, ReviewModal)
        assert modal.problem_text == (
            "Not yet: see above (c requests changes).\nNot sent: fix Verdict (see above). What you typed is kept."
        )
        waits = str(modal.query_one(".review--missing", Static).render())
        assert waits.startswith("Approving waits for: 2 changed pages not viewed yet: ")
        assert "3 threads you started are not resolved" in waits
        assert len(record["reviews"]) == reviews  # refused here, nothing sent
        await press(pilot, "c", "f2")  # asking for changes needs nothing
        assert app.screen is screen and record["reviews"][-1]["status"] == "changes-requested"

        await press(pilot, "2")
        for _ in range(8):
            await press(pilot, "space")
            if isinstance(app.screen, ThreadScreen):
                await press(pilot, "escape")
        update = services.client.comments.update
        for name in ("linux-mine", "windows", "whole"):
            await update(record["space"], ids[name], change_request=record["id"], resolved=True)
        await press(pilot, "R", "a", "f2")
        assert app.screen is screen and record["reviews"][-1]["status"] == "approved"


async def test_the_command_line_sweeps_the_change_request_in_view(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(opener(services, state), size=SIZE) as (app, pilot):
        screen = app.screen
        assert screen.query_one(TabbedContent).active == "overview"
        await press(pilot, "colon", *"sweep", "enter")
        assert app.screen is screen and screen.query_one(TabbedContent).active == "changes"
        assert " 1/3 " in bar_text(screen)  # two pages, the seeded thread on Linux
        page = screen.changes.page  # type: ignore[attr-defined]
        assert page is not None and page.title == "Linux"


def test_approve_requires_is_read_from_config_toml(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert approve_requires(Settings.load(path)) == ()  # no file: nothing required
    path.write_text('[review]\napprove_requires = ["resolved", "viewed", "viewed"]\n')
    assert approve_requires(Settings.load(path)) == ("resolved", "viewed")
    path.write_text('[review]\napprove_requires = ["reviewed"]\n')
    with pytest.raises(SettingsError, match=r'"viewed" \(every changed page viewed\)'):
        approve_requires(Settings.load(path))
    path.write_text('review = "strict"\n')
    with pytest.raises(SettingsError, match=r"\[review\] must be a table"):
        approve_requires(Settings.load(path))


async def test_space_sweeps_from_the_diff_and_goes_on_from_the_thread_it_opened(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    ids = await threads(services, state)
    async with open_app(opener(services, state), size=SIZE) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        await press(pilot, "2", "enter")  # the focus in the diff, where space used to page down
        diff = screen.changes.diff_view
        assert diff.has_focus
        await press(pilot, "space")
        assert app.screen is screen and " 1/6 " in bar_text(screen)
        first = screen.changes.page
        assert first is not None and first.title == "Linux"  # the list's first page, then its two threads
        diff.focus()
        await press(pilot, "space")  # from the diff again: the sweep goes on (the first page is left viewed)
        thread = app.screen
        assert isinstance(thread, ThreadScreen) and " 2/6 " in bar_text(screen)
        assert first.id in screen.changes.viewed
        on_thread = bar_text(thread)  # the thread the sweep opened shows where the sweep is
        assert on_thread.startswith("Sweep ") and " 2/6 " in on_thread and "space: next" in on_thread
        await press(pilot, "space")  # ... and space there takes the next step: the next thread opens
        nxt = app.screen
        assert isinstance(nxt, ThreadScreen) and nxt is not thread and " 3/6 " in bar_text(nxt)
        assert (thread.comment_id, nxt.comment_id) == (ids["linux-seeded"], ids["linux-mine"])
        await press(pilot, "space")  # the next page: back on the change request
        assert app.screen is screen and " 4/6 " in bar_text(screen)
        assert app.screen_stack.count(screen) == 1 and not any(isinstance(s, ThreadScreen) for s in app.screen_stack)


async def test_a_thread_not_opened_by_the_sweep_leaves_space_alone(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    record = the_cr(state)
    seeded = next(c["id"] for c in state.comments.values() if c["changeRequest"] == record["id"])
    opened = lambda: ThreadScreen(services, record["space"], seeded, change_request=record["id"])  # noqa: E731
    async with open_app(opened, size=SIZE) as (app, pilot):
        thread = app.screen
        assert isinstance(thread, ThreadScreen)
        await press(pilot, "space")
        assert app.screen is thread and bar_text(thread) == ""
