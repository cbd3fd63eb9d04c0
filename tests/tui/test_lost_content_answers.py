"""Writes of the content area whose answer is lost (the sandbox's ``drop_after_write``), driven by keys: a
collection transfer (``t``), a move in the collections tree, a space transfer and a restore from the trash
(``u``). Folio reads what is true and says it was done: no refusal is shown, the tree keeps the row where it was
dropped, and nothing is sent a second time (counted in the requests the sandbox received)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from textual.widgets import OptionList

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.services import Services
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.site_forms import ChoiceModal
from folio.tui.screens.content.organization import OrganizationScreen
from folio.tui.screens.content.trash import TrashScreen
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN
from tests.tui.test_collections_admin import go_to, indented, keys, order, space_named, status, tree_of


class Counting(httpx.AsyncBaseTransport):
    """The sandbox's transport, keeping the writes it is sent (method and path)."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.writes: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method != "GET":
            self.writes.append(f"{request.method} {request.url.path.removeprefix('/v1')}")
        return await self.inner.handle_async_request(request)


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


@pytest.fixture
def faults() -> Faults:
    return Faults(seed=3)


@pytest.fixture
def transport(state: SandboxState, faults: Faults) -> Counting:
    return Counting(SandboxTransport(create_app(state, faults=faults)))


@pytest.fixture
async def client(transport: Counting) -> AsyncIterator[GitBookClient]:
    made = GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=transport, retry=RetryPolicy(sleep=_no_sleep)
    )
    yield made
    await made.aclose()


@pytest.fixture
def org_screen(services: Services, state: SandboxState) -> Any:
    return lambda: OrganizationScreen(services, state.demo_org, title="Northwind Labs", trail=("Organizations",))


def said(app: Any) -> list[tuple[str, str]]:
    return [(str(n.severity), str(n.message)) for n in app._notifications]


def errors_said(app: Any) -> list[str]:
    return [text for severity, text in said(app) if severity == "error"]


def guild_of(state: SandboxState) -> str:
    return next(o for o in state.orgs if o != state.demo_org)


async def test_a_collection_transfer_whose_answer_was_lost_says_it_was_done(
    open_app: Any, org_screen: Any, services: Services, state: SandboxState, faults: Faults, transport: Counting
) -> None:
    drafts = await services.collections.create(state.demo_org, "Drafts")
    guild = guild_of(state)
    async with open_app(org_screen) as (app, pilot):
        await go_to(pilot, "Drafts")
        await keys(pilot, "t", "enter")
        assert isinstance(app.screen, ConfirmModal)
        faults.drop_after_write = 1.0  # the transfer is done, its answer lost
        await keys(pilot, "y")
        assert state.collections[drafts.id]["organization"] == guild
        assert transport.writes.count(f"POST /collections/{drafts.id}/transfer") == 1
        assert errors_said(app) == []
        assert ("information", "Transferred the collection “Drafts” to another organization.") in said(app)
        assert "▾ Drafts" not in indented(tree_of(pilot))


async def test_a_move_whose_answer_was_lost_stays_where_it_was_dropped(
    open_app: Any, org_screen: Any, state: SandboxState, faults: Faults, transport: Counting
) -> None:
    reference = state.collections[next(k for k, c in state.collections.items() if c["title"] == "Reference")]
    guide = space_named(state, "User Guide")
    async with open_app(org_screen) as (app, pilot):
        tree = tree_of(pilot)
        await go_to(pilot, "User Guide")
        await keys(pilot, "space", "down", "down")
        faults.drop_after_write = 1.0
        await keys(pilot, "enter")
        assert order(state, reference["id"]) == ["User Guide", "REST API Reference", "SDK Reference"]
        assert transport.writes.count(f"POST /spaces/{guide['id']}/move") == 1
        assert errors_said(app) == []
        assert "Done: Move space “User Guide” to collection “Reference”." in [text for _, text in said(app)]
        assert indented(tree)[4:6] == ["  ▾ Reference", "    User Guide"]  # not put back
        assert "back where it was" not in status(tree)


async def test_a_space_transfer_whose_answer_was_lost_says_it_was_done(
    open_app: Any, org_screen: Any, state: SandboxState, faults: Faults, transport: Counting
) -> None:
    scratch = space_named(state, "Scratchpad")
    guild = guild_of(state)
    async with open_app(org_screen) as (app, pilot):
        await go_to(pilot, "Scratchpad")
        await keys(pilot, "t")
        picker = app.screen
        assert isinstance(picker, ChoiceModal)
        picker.query_one("#field-value", OptionList).highlighted = [c.value for c in picker.choices].index(guild)
        await keys(pilot, "enter")
        assert isinstance(app.screen, ChoiceModal)  # the collection there: the root
        faults.drop_after_write = 1.0
        await keys(pilot, "enter")
        assert scratch["organization"] == guild
        assert transport.writes.count(f"POST /spaces/{scratch['id']}/transfer") == 1
        assert errors_said(app) == []
        assert "Transferred “Scratchpad”." in [text for _, text in said(app)]


async def test_a_restore_whose_answer_was_lost_says_it_was_restored(
    open_app: Any, services: Services, state: SandboxState, faults: Faults, transport: Counting
) -> None:
    sid = space_named(state, "Scratchpad")["id"]
    async with open_app(lambda: TrashScreen(services, state.demo_org, trail=("Northwind Labs",))) as (app, pilot):
        await services.client.spaces.delete(sid)  # deleted after Folio saw it listed
        await keys(pilot, "r")
        faults.drop_after_write = 1.0
        await keys(pilot, "u")
        assert state.spaces[sid]["deletedAt"] is None
        assert transport.writes.count(f"POST /spaces/{sid}/restore") == 1
        assert errors_said(app) == []
        assert "“Scratchpad” restored: it is back in the organization." in [text for _, text in said(app)]
