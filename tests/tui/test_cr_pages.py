"""The pages tab of a change request (``folio.tui.widgets.cr_pages``), driven by keys over the seeded sandbox: a
batch of new/rename/move/delete/revert/file edits planned, shown and sent as one revision; a colleague's revision
met before sending; a lost answer found, not sent twice."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.sandbox.revisions import walk
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.modals.cr_pages import CrPlanModal, MovedOnModal
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.widgets.cr_pages import CrPages
from tests.conftest import SANDBOX_URL, TOKEN
from tests.tui.conftest import settle

LINUX = "Clarify Linux install steps"


async def _no_sleep(seconds: float) -> None:
    return None


class Counting(httpx.AsyncBaseTransport):
    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.writes: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method != "GET":
            self.writes.append(f"{request.method} {request.url.path}")
        return await self.inner.handle_async_request(request)

    @property
    def content_posts(self) -> list[str]:
        return [w for w in self.writes if w.endswith("/content")]


@pytest.fixture
def faults() -> Faults:
    return Faults(seed=5)


@pytest.fixture
def transport(state: SandboxState, faults: Faults) -> Counting:
    return Counting(SandboxTransport(create_app(state, faults=faults)))


@pytest.fixture
async def counted(transport: Counting) -> AsyncIterator[Services]:
    client = GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=transport, retry=RetryPolicy(sleep=_no_sleep)
    )
    yield Services(client, where="the test sandbox")
    await client.aclose()


@pytest.fixture
def cr(state: SandboxState) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == LINUX)


def tree(state: SandboxState, revision: str) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p, _, _ in walk(state.revisions[revision]["pages"])}


@pytest.fixture
def open_cr(counted: Services, cr: dict[str, Any]) -> Callable[..., Any]:
    @asynccontextmanager
    async def run(size: tuple[int, int] = (80, 24)) -> AsyncIterator[tuple[FolioApp, Pilot[None]]]:
        app = FolioApp(counted, start=lambda: ChangeRequestScreen(counted, cr["space"], cr["number"], trail=("Org",)))
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
    return app.screen.query_one(CrPages) if isinstance(app.screen, ChangeRequestScreen) else app.screen_stack[-2].query_one(CrPages)


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
    transport: Counting,
    counted: Services,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # (a short path to type)
    first = cr["revision"]
    before = tree(state, first)
    by_title = {p["title"]: pid for pid, p in before.items()}
    image = tmp_path / "diagram.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    async with open_cr() as (app, pilot):
        pages = pages_of(app)
        assert pages.has_focus_within and rows(app)[:3] == [("Welcome", 0, ""), ("Installation", 0, ""), ("Linux", 1, "")]

        await to_row(app, pilot, "Installation")  # n: a new page, under the page under the cursor (the default)
        await ask(pilot, "n")
        await press(pilot, *"Upgrading", "ctrl+s")
        assert ("Upgrading", 1, "new") in rows(app)

        await to_row(app, pilot, "Welcome")  # e: the title and the slug, apart; the slug warns the URL changes
        await ask(pilot, "e")
        await ask(pilot, "home", "ctrl+k", *"Start here", "tab", "home", "ctrl+k", *"start-here")
        assert "URL" in str(app.screen.query_one("#rename-url").render())
        await press(pilot, "ctrl+s")
        assert ("Start here", 0, "renamed") in rows(app)

        await to_row(app, pilot, "Your first robot")  # space picks up, up moves it into Installation, enter drops
        await press(pilot, "space", "up")
        assert "Moving “Your first robot”: under “Installation”, at the end" in str(
            pages.query_one("#cr-pages-note").render()
        )
        await press(pilot, "enter")
        assert ("Your first robot", 1, "moved") in rows(app)

        await to_row(app, pilot, "Troubleshooting")  # D: type the title
        await ask(pilot, "D")
        await press(pilot, *"Troubleshooting", "enter")
        assert ("Troubleshooting", 0, "deleted") in rows(app)

        await to_row(app, pilot, "Linux")  # v: asks, y
        await ask(pilot, "v")
        await press(pilot, "y")
        assert ("Linux", 1, "revert") in rows(app)

        await ask(pilot, "f")  # f: a local path; the link is shown and copied
        await press(pilot, *image.name, "ctrl+s")
        assert "![diagram.png](./diagram.png)" in str(pages.query_one("#cr-pages-note").render())
        assert app.clipboard == "![diagram.png](./diagram.png)"

        await ask(pilot, "P")  # the plan: six numbered lines
        modal = app.screen
        assert isinstance(modal, CrPlanModal)
        lines = [str(r.cells[1]) for r in modal.query_one("ResourceBrowser").list.rows]  # type: ignore[attr-defined]
        assert len(lines) == 6 and lines[0] == "New page “Upgrading” under “Installation”"
        await press(pilot, "escape")
        assert transport.content_posts == []  # nothing sent yet: every edit is in the plan

        await ask(pilot, "ctrl+s")  # the plan shown first; y sends it
        assert isinstance(app.screen, CrPlanModal)
        await press(pilot, "y")
        await settle(pilot)
        assert "Sent into change request #" in str(pages.query_one("#cr-pages-note").render())
        assert rows(app)[0] == ("Start here", 0, "")  # read again: what the service holds, nothing planned

    assert len(transport.content_posts) == 1
    now = state.change_requests[cr["id"]]
    after = tree(state, now["revision"])
    assert now["revision"] != first
    welcome = after[by_title["Welcome"]]
    assert (welcome["title"], welcome["slug"]) == ("Start here", "start-here")
    installation = after[by_title["Installation"]]
    kids = [p["title"] for p in installation["pages"]]
    assert kids[-2:] == ["Upgrading", "Your first robot"]
    assert by_title["Troubleshooting"] not in after
    main = tree(state, state.spaces[cr["space"]]["revision"])
    assert after[by_title["Linux"]]["markdown"] == main[by_title["Linux"]]["markdown"]
    files = await counted.client.content.files(cr["space"], change_request=cr["id"], limit=100).collect()
    assert "diagram.png" in [f.name for f in files]


async def test_smoke(open_cr: Any) -> None:
    async with open_cr() as (app, pilot):
        print(rows(app))
        print(pages_of(app).query_one("#cr-pages-summary").render())
