"""A change request started from a space's list, driven by keys over the seeded sandbox: ``n`` opens the form, the
sandbox holds what was sent (subject and description) and the new change request opens at once; a subject over
100 characters is refused before sending and the text stays; an answer lost on the way back is found (one change
request, not two); reviewers picked from the organization's members are asked, and a service without review
requests says so."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Footer, SelectionList

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.faults import Faults
from folio.services import Services
from folio.services.review.authoring import ReviewRequestsNotOffered
from folio.tui.app import FolioApp
from folio.tui.modals.change_request_forms import NewChangeRequestModal, RequestReviewersModal, ask_for_reviewers
from folio.tui.screens.content.space import SpaceScreen
from folio.tui.screens.review.change_request import ChangeRequestScreen
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN
from tests.tui.conftest import settle


async def _no_sleep(seconds: float) -> None:
    return None


def space_id(state: SandboxState, title: str = "User Guide") -> str:
    return next(sid for sid, s in state.spaces.items() if s["title"] == title)


def crs_titled(state: SandboxState, subject: str) -> list[dict[str, Any]]:
    return [cr for cr in state.change_requests.values() if cr["subject"] == subject]


def posts(state: SandboxState) -> int:
    return sum(1 for method, path in state.hits if method == "POST" and path.endswith("/change-requests"))


def notes(app: FolioApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


@pytest.fixture(autouse=True)
def pinned(services: Services) -> None:
    services.authoring.clock = lambda: FROZEN_AT


async def new_form(pilot: Pilot[None]) -> NewChangeRequestModal:
    """On a space screen: the change requests tab, then ``n``."""
    await pilot.press("4")
    await settle(pilot)
    await pilot.press("n")
    await settle(pilot)
    form = pilot.app.screen
    assert isinstance(form, NewChangeRequestModal)
    return form


async def test_a_change_request_made_from_the_space_list_opens(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    sid = space_id(state)
    async with open_app(lambda: SpaceScreen(services, sid, title="User Guide")) as (app, pilot):
        await new_form(pilot)
        await pilot.press(*"Document rollout waves", "tab", *"Waves reach a share of the fleet.")
        await pilot.press("ctrl+s")
        await settle(pilot)
        made = crs_titled(state, "Document rollout waves")
        assert len(made) == 1 and made[0]["space"] == sid and made[0]["status"] == "draft"
        assert "Waves reach a share of the fleet." in str(made[0]["description"])
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen) and screen.ref == made[0]["id"]
        assert f"Change request #{made[0]['number']} “Document rollout waves” created." in notes(app)


async def test_a_subject_over_100_characters_is_refused_before_sending(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(lambda: SpaceScreen(services, space_id(state), title="User Guide")) as (app, pilot):
        form = await new_form(pilot)
        before = posts(state)
        await pilot.press(*("x" * 101), "ctrl+s")
        await settle(pilot)
        assert app.screen is form
        assert "At most 100 characters; this has 101." in form.problem_text
        assert form.values()["subject"] == "x" * 101  # what was typed stays
        assert posts(state) == before and crs_titled(state, "x" * 101) == []
        await pilot.press("backspace", "ctrl+s")
        await settle(pilot)
        assert len(crs_titled(state, "x" * 100)) == 1


@pytest.fixture
async def flaky(state: SandboxState) -> AsyncIterator[tuple[Services, Faults]]:
    """Services over the seeded sandbox behind faults that can be switched while a test runs."""
    faults = Faults(seed=3)
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state, faults=faults)),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    made = Services(client, where="a flaky sandbox")
    made.authoring.clock = lambda: FROZEN_AT
    yield made, faults
    await client.aclose()


async def test_a_lost_answer_is_found_not_sent_twice(flaky: tuple[Services, Faults], state: SandboxState) -> None:
    services, faults = flaky
    sid = space_id(state)
    app = FolioApp(services, start=lambda: SpaceScreen(services, sid, title="User Guide"))
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await new_form(pilot)
        await pilot.press(*"Split the telemetry page")
        faults.drop_after_write = 1.0  # the create is done, its answer lost
        await pilot.press("ctrl+s")
        await settle(pilot)
        made = crs_titled(state, "Split the telemetry page")
        assert len(made) == 1  # found, not sent again
        assert "The answer was lost, but the service has it: it was sent once." in notes(app)
        screen = app.screen
        assert isinstance(screen, ChangeRequestScreen) and screen.ref == made[0]["id"]


class ReviewHost(Screen[None]):
    """A screen with the key the change request screen binds to ask for reviewers."""

    BINDINGS = [("a", "ask", "Ask for reviewers")]

    def __init__(self, services: Services, space_id: str, cr_id: str) -> None:
        super().__init__()
        self.services = services
        self.space_id = space_id
        self.cr_id = cr_id
        self.reloaded = 0

    def compose(self) -> ComposeResult:
        yield Footer()

    def action_ask(self) -> None:
        ask_for_reviewers(self, self.services, self.space_id, self.cr_id, then=self.reload)

    def reload(self) -> None:
        self.reloaded += 1


async def settle_form(pilot: Pilot[None]) -> None:
    """Let the form's own workers finish (the worker that opened it waits for it to close: not that one)."""
    for _ in range(200):  # the worker reads the space and who was asked, then opens the form
        if isinstance(pilot.app.screen, RequestReviewersModal):
            break
        await pilot.pause()
    form = pilot.app.screen
    own = [w for w in pilot.app.workers if w.node is form]
    if own:  # (an empty list would mean every worker)
        await pilot.app.workers.wait_for_complete(own)
    await pilot.pause()


async def test_reviewers_picked_from_the_members_are_asked(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    sid = space_id(state)
    cr = (await services.authoring.create_change_request(sid, "Needs eyes")).change_request
    host = ReviewHost(services, sid, cr.id)
    async with open_app(lambda: host) as (app, pilot):
        await pilot.press("a")
        await settle_form(pilot)
        form = app.screen
        assert isinstance(form, RequestReviewersModal)
        picker = form.query_one(SelectionList)
        offered = [str(picker.get_option_at_index(i).value) for i in range(picker.option_count)]
        assert state.default_user not in offered  # you do not review your own request
        await pilot.press("ctrl+s")  # nobody picked yet: refused
        await settle_form(pilot)
        assert "Pick at least one member" in form.problem_text and app.screen is form
        await pilot.press("space", "down", "space", "ctrl+s")
        await settle(pilot)
        assert state.change_requests[cr.id]["requestedReviewers"] == offered[:2]
        assert host.reloaded == 1
        assert any(n.startswith("Asked to review: ") for n in notes(app))


async def test_a_service_without_review_requests_says_so(
    services: Services, state: SandboxState, open_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def not_offered(*args: Any, **kwargs: Any) -> Any:
        raise ReviewRequestsNotOffered()

    monkeypatch.setattr(services.authoring, "requested_reviewers", not_offered)
    host: Callable[[], Screen[None]] = lambda: ReviewHost(services, space_id(state), "cr")  # noqa: E731
    async with open_app(host) as (app, pilot):
        await pilot.press("a")
        await settle(pilot)
        assert "This service does not offer asking for reviewers." in notes(app)
        assert not isinstance(app.screen, RequestReviewersModal)
