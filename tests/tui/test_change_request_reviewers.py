"""Who is asked to review a change request, driven by keys over the seeded sandbox: the overview lists them, `a`
asks a member picked from the organization, `A` stops asking one; a withdrawal whose answer was lost is looked
for, not sent again; a service without review requests says so. Asserted on what the sandbox now holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from textual.pilot import Pilot
from textual.widgets import OptionList, SelectionList

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.modals.change_request_forms import RequestReviewersModal
from folio.tui.screens.review.change_request import ChangeRequestScreen
from folio.tui.screens.review.change_request_reviewers import WithdrawModal
from tests.conftest import SANDBOX_URL, TOKEN
from tests.tui.test_change_request import LINUX, cr_of, notes, opener, text

Opener = Callable[..., Any]


def user(state: SandboxState, name: str) -> str:
    return next(uid for uid, u in state.users.items() if u["email"].startswith(name + "@"))


async def settle(pilot: Pilot[None], *, asking: type | None = None) -> None:
    """Let the workers finish (but the one waiting on an open ``asking`` modal)."""
    app = pilot.app
    for _ in range(500):
        await pilot.pause()
        busy = [w for w in app.workers if w.is_running and not (asking and isinstance(app.screen, asking))]
        if not busy:
            break
    await pilot.pause()


async def until(pilot: Pilot[None], kind: type) -> Any:
    for _ in range(500):
        if isinstance(pilot.app.screen, kind):
            break
        await pilot.pause()
    await settle(pilot, asking=kind)
    return pilot.app.screen


async def test_a_stops_asking_the_reviewer_picked(services: Services, state: SandboxState, open_app: Opener) -> None:
    record = cr_of(state, LINUX)
    dana = user(state, "dana")
    asked = list(record["requestedReviewers"])
    assert dana in asked
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen)
        assert "Dana Moreau  \u2026 review requested" in text(screen, "#overview-reviewers")
        assert "A stops asking one" in text(screen, "#overview-reviewers")
        await pilot.press("A")
        modal = await until(pilot, WithdrawModal)
        options = modal.query_one(OptionList)
        offered = [str(options.get_option_at_index(i).id) for i in range(options.option_count)]
        assert offered == asked
        options.highlighted = offered.index(dana)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen
        assert record["requestedReviewers"] == [uid for uid in asked if uid != dana]
        assert "Dana Moreau is no longer asked to review #1." in notes(app)
        assert "Dana Moreau  \u2026 review requested" not in text(screen, "#overview-reviewers")  # reloaded


async def test_a_asks_a_member_picked_from_the_organization(
    services: Services, state: SandboxState, open_app: Opener
) -> None:
    record = cr_of(state, LINUX)
    async with open_app(opener(services, state, LINUX)) as (app, pilot):
        screen = app.screen
        await pilot.press("a")
        form = await until(pilot, RequestReviewersModal)
        picker = form.query_one(SelectionList)
        first = str(picker.get_option_at_index(0).value)
        assert first not in record["requestedReviewers"]  # those asked already are not offered again
        await pilot.press("space", "ctrl+s")
        await settle(pilot)
        assert app.screen is screen and first in record["requestedReviewers"]
        name = state.users[first]["displayName"]
        assert f"{name}  \u2026 review requested" in text(screen, "#overview-reviewers")


async def _no_sleep(seconds: float) -> None:
    return None


class Sent(httpx.AsyncBaseTransport):
    """Counts the POSTs that reach the sandbox (answered or not)."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.posts = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.posts += request.method == "POST"
        return await self.inner.handle_async_request(request)


async def test_a_withdrawal_whose_answer_was_lost_is_found_not_sent_again(state: SandboxState) -> None:
    faults = Faults()
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state, faults=faults)),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    services = Services(client, where="the test sandbox")
    record = cr_of(state, LINUX)
    dana = user(state, "dana")
    try:
        app = FolioApp(services, start=opener(services, state, LINUX))
        app.animation_level = "none"
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = app.screen
            await pilot.press("A")
            modal = await until(pilot, WithdrawModal)
            options = modal.query_one(OptionList)
            options.highlighted = [options.get_option_at_index(i).id for i in range(options.option_count)].index(dana)
            faults.drop_after_write = 1.0  # withdrawn, the answer lost
            await pilot.press("enter")
            await settle(pilot)
            faults.drop_after_write = 0.0
            assert app.screen is screen  # looked for: found withdrawn, not offered to send again
            assert dana not in record["requestedReviewers"]
            assert "Dana Moreau is no longer asked to review #1." in notes(app)
    finally:
        await client.aclose()


async def test_asking_whose_answer_was_lost_is_found_not_sent_again(state: SandboxState) -> None:
    faults = Faults()
    sent = Sent(SandboxTransport(create_app(state, faults=faults)))
    client = GitBookClient(token=Token(TOKEN), base_url=SANDBOX_URL, transport=sent, retry=RetryPolicy(sleep=_no_sleep))
    services = Services(client, where="the test sandbox")
    record = cr_of(state, LINUX)
    try:
        app = FolioApp(services, start=opener(services, state, LINUX))
        app.animation_level = "none"
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = app.screen
            await pilot.press("a")
            form = await until(pilot, RequestReviewersModal)
            first = str(form.query_one(SelectionList).get_option_at_index(0).value)
            await pilot.press("space")
            faults.drop_after_write = 1.0  # asked, the answer lost
            await pilot.press("ctrl+s")
            await settle(pilot)
            faults.drop_after_write = 0.0
            assert app.screen is screen  # looked for (who is asked now): found, not offered to send again
            assert record["requestedReviewers"].count(first) == 1
            assert sent.posts == 1
            assert any(n.startswith("Asked to review: ") for n in notes(app))
    finally:
        await client.aclose()


async def test_a_service_without_review_requests_says_so(state: SandboxState) -> None:
    sandbox = create_app(state)
    sandbox.router.routes = [r for r in sandbox.router.routes if "requested-reviewers" not in getattr(r, "path", "")]
    client = GitBookClient(token=Token(TOKEN), base_url=SANDBOX_URL, transport=SandboxTransport(sandbox))
    services = Services(client, where="the test sandbox")
    try:
        app = FolioApp(services, start=opener(services, state, LINUX))
        app.animation_level = "none"
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, ChangeRequestScreen) and screen.cr is not None  # the rest loaded
            reviewers = text(screen, "#overview-reviewers")
            assert "This service does not offer asking for reviewers." in reviewers
            assert "review requested" not in reviewers
            for key in ("A", "a"):
                await pilot.press(key)
                await settle(pilot)
                assert app.screen is screen
            said = notes(app)
            assert said.count("This service does not offer asking for reviewers.") == 2, said
    finally:
        await client.aclose()
