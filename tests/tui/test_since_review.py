"""Since your last review, on the change request screen: reviewed, then updated by another user through the API,
the overview says how many pages changed since, and V shows only the new changes (in the same page list and diff
view); pages untouched since keep their viewed mark."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Static, TabbedContent

from folio.sandbox import SandboxState, SandboxTransport
from folio.sandbox.domain.change_requests import merge_change_request, open_change_request
from folio.sandbox.revisions import find_page, walk
from folio.services import Services
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.widgets.change_overview import ChangesPane
from tests.conftest import SANDBOX_URL, TOKEN
from tests.tui.conftest import settle

Opener = Callable[..., Any]
OTHER = "gb_api_other_user_token"
LINUX = "Clarify Linux install steps"


@pytest.fixture(autouse=True)
def unified(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ChangesPane, "prefer_side_by_side", True)


def cr_of(state: SandboxState, subject: str) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == subject)


def user(state: SandboxState, name: str) -> str:
    return next(uid for uid, u in state.users.items() if u["email"].startswith(name + "@"))


def page_id(state: SandboxState, revision: str, title: str) -> str:
    return str(next(p["id"] for p, _, _ in walk(state.revisions[revision]["pages"]) if p["title"] == title))


def opener(services: Services, record: dict[str, Any]) -> Callable[[], ChangeRequestScreen]:
    return lambda: ChangeRequestScreen(services, record["space"], record["number"], trail=("Northwind Labs", "Space"))


def titles(screen: ChangeRequestScreen) -> list[str]:
    return [str(row.cells[2]) for row in screen.changes.pages.list.visible_rows]


def marks(screen: ChangeRequestScreen) -> dict[str, str]:
    return {str(row.cells[2]): str(row.cells[0]) for row in screen.changes.pages.list.visible_rows}


def shown(screen: ChangeRequestScreen, selector: str) -> str:
    found = screen.query(selector)
    widget = found.first(Static) if found else None
    return str(widget.render()) if widget is not None and widget.display else ""


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot)


@pytest.fixture
def as_emeka(state: SandboxState, app: Any) -> httpx.AsyncClient:
    state.tokens = {TOKEN: state.default_user, OTHER: user(state, "emeka")}
    return httpx.AsyncClient(
        transport=SandboxTransport(app), base_url=SANDBOX_URL + "/v1", headers={"Authorization": f"Bearer {OTHER}"}
    )


async def edit_as(other: httpx.AsyncClient, record: dict[str, Any], changes: list[dict[str, Any]]) -> None:
    path = f"/spaces/{record['space']}/change-requests/{record['id']}/content"
    answer = await other.post(path, json={"changes": changes})
    assert answer.status_code == 200, answer.text


async def reviewed_then_edited(services: Services, state: SandboxState, other: httpx.AsyncClient) -> dict[str, Any]:
    """I mark Linux and Windows viewed and approve; then Emeka edits Linux and adds a macOS page."""
    record = cr_of(state, LINUX)
    seen = record["revision"]
    linux, windows = page_id(state, seen, "Linux"), page_id(state, seen, "Windows")
    services.review.viewed.set_viewed(record["id"], seen, linux)
    services.review.viewed.set_viewed(record["id"], seen, windows)
    await services.review.submit(record["space"], record["id"], "approved", "Fine")
    found = find_page(state.revisions[seen]["pages"], linux)
    assert found is not None
    await edit_as(
        other,
        record,
        [
            {"operation": "update_page", "page": linux, "document": {"markdown": found[0]["markdown"] + "\nArch.\n"}},
            {"operation": "insert_page", "title": "macOS", "document": {"markdown": "# macOS\n\nbrew install it\n"}},
        ],
    )
    return record


async def test_reviewed_then_updated_by_another_user_shows_only_the_new_changes(
    services: Services, state: SandboxState, open_app: Opener, as_emeka: httpx.AsyncClient
) -> None:
    record = await reviewed_then_edited(services, state, as_emeka)
    async with open_app(opener(services, record)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        line = shown(screen, "#overview-since")
        assert "2 pages changed since you reviewed on 2026-11-01 09:00 UTC" in line and "Press V" in line
        await press(pilot, "2")
        assert titles(screen) == ["Linux", "Windows", "macOS"]  # every change of the change request first
        await press(pilot, "V")
        assert screen.query_one(TabbedContent).active == "changes"
        assert titles(screen) == ["Linux", "macOS"]  # only what changed since my review
        assert "Since you reviewed on 2026-11-01 09:00 UTC: 2 pages." in shown(screen, "#since-hint")
        linux = screen.changes.page
        assert linux is not None and linux.title == "Linux"
        diff = screen.changes.diff(linux)
        assert (diff.added, diff.removed) == (2, 0)  # the blank line and "Arch.": not the change request's own edit
        assert marks(screen) == {"Linux": "\u2022", "macOS": "\u2022"}  # changed since: not viewed
        await press(pilot, "V")
        assert titles(screen) == ["Linux", "Windows", "macOS"] and not shown(screen, "#since-hint")
        assert marks(screen)["Windows"] == "\u2713"  # untouched since my review: it keeps its viewed mark
        assert services.review.viewed.viewed(record["id"], record["revision"]) == {
            page_id(state, record["revision"], "Windows")
        }


async def test_v_says_why_when_there_is_nothing_to_compare(
    services: Services, state: SandboxState, open_app: Opener
) -> None:
    record = cr_of(state, LINUX)
    async with open_app(opener(services, record)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        assert not shown(screen, "#overview-since")
        why = screen.why_not("since_review")
        assert why is not None and "not reviewed this change request" in why
        await press(pilot, "2", "V")
        assert titles(screen) == ["Linux", "Windows"]


async def test_after_an_update_from_main_the_changes_from_main_are_said(
    services: Services, state: SandboxState, open_app: Opener, as_emeka: httpx.AsyncClient
) -> None:
    record = cr_of(state, LINUX)
    await services.review.submit(record["space"], record["id"], "approved")
    other = open_change_request(state, record["space"], user(state, "emeka"), subject="Robots")
    robot = page_id(state, other["revision"], "Your first robot")
    await edit_as(as_emeka, other, [{"operation": "update_page", "page": robot, "document": {"markdown": "New.\n"}}])
    merge_change_request(state, other, user(state, "emeka"))
    answer = await as_emeka.post(f"/spaces/{record['space']}/change-requests/{record['id']}/update")
    assert answer.status_code == 200
    async with open_app(opener(services, record)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        assert "1 page changed since you reviewed on" in shown(screen, "#overview-since")
        assert "(1 from main, by an update)" in shown(screen, "#overview-since")
        await press(pilot, "2", "V")
        assert titles(screen) == ["Your first robot"]
        assert [str(row.cells[1]) for row in screen.changes.pages.list.visible_rows] == ["edit+main"]
        assert "1 from main" in shown(screen, "#since-hint")
