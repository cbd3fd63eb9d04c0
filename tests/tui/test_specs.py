"""The OpenAPI specs screen, a spec's versions and a version's files, driven by keys over the seeded sandbox;
what a write did is checked in what the sandbox now holds.

The sandbox finishes processing a spec on the first read after the write (``folio.sandbox.domain.openapi``), so a
spec is seen ``pending`` only in the answer to its creation. To follow a spec through pending, in progress and
complete, :func:`held` keeps the sandbox from finishing until the test lets it, and :class:`Timers` stands in for
the panel's timer, so each look is made when the test says and the waits asked for can be read.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Log, Static

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.domain import openapi as openapi_domain
from folio.sandbox.faults import Faults
from folio.sandbox.routes import openapi as openapi_routes
from folio.sandbox.state import Record
from folio.services import Services
from folio.services.insights.references import Usage, Usages
from folio.tui import routes
from folio.tui.app import FolioApp
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.site_forms import TypedConfirmModal
from folio.tui.modals.spec_forms import NewSpecForm, SpecSourceForm
from folio.tui.screens.insights.spec import SpecScreen, SpecVersionScreen, usage_text
from folio.tui.screens.insights.specs import SpecsPanel, SpecsScreen
from folio.tui.screens.panel_screen import PanelScreen
from folio.tui.widgets.diff_view import DiffView
from tests.conftest import SANDBOX_URL, TOKEN
from tests.tui.conftest import settle


def specs_screen(services: Services, state: SandboxState) -> Callable[[], SpecsScreen]:
    return lambda: SpecsScreen(services, state.demo_org, trail=("Northwind Labs",))


def rows(panel: Any) -> list[list[str]]:
    return [[c if isinstance(c, str) else c.plain for c in r.cells] for r in panel.browser.list.visible_rows]


def row_of(panel: SpecsPanel, slug: str) -> list[str]:
    return next(r for r in rows(panel) if r[0] == slug)


def notes(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await settle(pilot)


class FakeTimer:
    def __init__(self, delay: float, callback: Callable[[], object]) -> None:
        self.delay = delay
        self.callback = callback
        self.stopped = False

    def stop(self) -> None:
        self.stopped = True


class Timers:
    """The panel's ``set_timer``: records each wait asked for; :meth:`fire` runs the one due."""

    def __init__(self) -> None:
        self.made: list[FakeTimer] = []

    def __call__(self, delay: float, callback: Callable[[], object], **_: Any) -> FakeTimer:
        timer = FakeTimer(delay, callback)
        self.made.append(timer)
        return timer

    @property
    def waits(self) -> list[float]:
        return [t.delay for t in self.made]

    @property
    def live(self) -> list[FakeTimer]:
        return [t for t in self.made if not t.stopped]

    async def fire(self, pilot: Pilot[None]) -> None:
        (timer,) = self.live
        timer.stopped = True
        timer.callback()
        await settle(pilot)


@pytest.fixture
def timers(monkeypatch: pytest.MonkeyPatch) -> Timers:
    fake = Timers()
    monkeypatch.setattr(SpecsPanel, "set_timer", fake)
    return fake


class Hold:
    held = True


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[Hold]:
    """While ``hold.held``, the sandbox leaves a spec being processed as it is (a slow service)."""
    hold = Hold()
    real = openapi_domain.settle

    def settle_unless_held(state: SandboxState, rec: Record) -> Record:
        return rec if hold.held else real(state, rec)

    monkeypatch.setattr(openapi_domain, "settle", settle_unless_held)
    monkeypatch.setattr(openapi_routes, "settle", settle_unless_held)
    yield hold


# --- the list --------------------------------------------------------------------------------------------------


async def test_the_list_shows_state_visibility_and_a_failed_run(
    services: Services, state: SandboxState, open_app: Any, timers: Timers
) -> None:
    async with open_app(specs_screen(services, state)) as (app, pilot):
        panel = app.screen.panel
        assert [(r[0], r[1], r[2]) for r in rows(panel)] == [
            ("billing-api", "private", "\u2713 complete"),
            ("partner-gateway", "private", "\u2717 failed FETCH_TIMEOUT"),
            ("petstore", "public", "\u2713 complete"),
            ("search-v2", "private", "\u2713 complete"),  # seeded pending: the list read finished it
        ]
        assert row_of(panel, "billing-api")[5] == "(from text)"
        assert row_of(panel, "petstore")[5] == "https://petstore3.swagger.io/api/v3/openapi.json"
        await keys(pilot, "j")
        detail = str(app.screen.query_one("#spec-detail", Static).render())
        assert "partner-gateway" in detail and "FETCH_TIMEOUT" in detail
        assert "Fetching https://timeout.partners.northwind.dev/openapi.yaml timed out" in detail
        assert timers.made == [] and not panel.polling  # nothing is processing: nothing is asked
        assert ("spec", f"{state.demo_org}/petstore") in app.loaded


async def test_specs_verb_filters_by_the_words_given(services: Services, state: SandboxState, open_app: Any) -> None:
    start = lambda: routes.build(services, "specs", {"org_id": state.demo_org, "words": "pet"})  # noqa: E731
    async with open_app(start) as (app, _pilot):
        assert isinstance(app.screen, SpecsScreen)
        assert [r[0] for r in rows(app.screen.panel)] == ["petstore"]
        assert app.screen.words == "pet"  # through PanelScreen and the panel's filter: what the session saves
        assert app.screen.panel.browser.list.filter_text == "pet"


# --- adding, and following the processing --------------------------------------------------------------------


async def test_a_spec_added_is_followed_until_processed(
    services: Services, state: SandboxState, open_app: Any, timers: Timers
) -> None:
    """The creation answers pending; the sandbox processes it over a few seconds of its clock; the next look
    after that finds it processed."""
    async with open_app(specs_screen(services, state)) as (app, pilot):
        panel = app.screen.panel
        await keys(pilot, "n")
        form = app.screen
        assert isinstance(form, NewSpecForm)
        await keys(pilot, *"orders v2")
        assert "letters and digits in groups" in form.problem_text  # checked as typed
        await keys(pilot, "backspace", "backspace", "backspace", "tab", *"https://api.northwind.dev/orders.json")
        await keys(pilot, "ctrl+s")
        assert app.screen is not form
        assert row_of(panel, "orders")[2] == "\u25cc pending"
        state.clock.advance(seconds=6)
        await timers.fire(pilot)
        rec = state.openapi_specs[state.demo_org]["orders"]
        assert rec["source"] == {"url": "https://api.northwind.dev/orders.json"} and len(rec["versions"]) == 1
        assert rec["processingState"] == "complete"
        assert row_of(panel, "orders")[2] == "\u2713 complete"
        assert panel.browser.list.highlighted is not None and panel.browser.list.highlighted.key == rec["id"]
        assert "orders: processed; its latest version is ready." in notes(app)
        assert not panel.polling


async def test_a_url_with_a_space_is_refused_under_its_field(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(specs_screen(services, state)) as (app, pilot):
        await keys(pilot, "n")
        form = app.screen
        assert isinstance(form, NewSpecForm)
        await keys(pilot, *"orders", "tab", *"https://exa mple.com/x", "ctrl+s")
        assert app.screen is form
        assert "Source URL has a space at character 12" in form.problem_text
        assert form.values()["url"] == "https://exa mple.com/x"  # what was typed is kept
        assert "orders" not in state.openapi_specs[state.demo_org]


async def test_processing_is_followed_with_growing_waits(
    services: Services, state: SandboxState, open_app: Any, timers: Timers, held: Hold
) -> None:
    async with open_app(specs_screen(services, state)) as (app, pilot):
        panel = app.screen.panel
        assert row_of(panel, "search-v2")[2] == "\u25cc pending"
        assert timers.waits == [2.0]
        assert "Following 1 spec being processed (next look in 2 s)" in str(
            panel.query_one(".resource-panel--hint", Static).render()
        )
        await timers.fire(pilot)
        assert timers.waits == [2.0, 4.0]  # still pending: the next look waits twice as long
        state.openapi_specs[state.demo_org]["search-v2"]["processingState"] = "progress"
        await timers.fire(pilot)
        assert row_of(panel, "search-v2")[2] == "\u25d0 in progress" and timers.waits == [2.0, 4.0, 8.0]
        for _ in range(3):
            await timers.fire(pilot)
        assert timers.waits[-2:] == [30.0, 30.0]  # never longer than 30 s
        assert not any("search-v2" in n for n in notes(app))
        held.held = False
        await timers.fire(pilot)
        assert row_of(panel, "search-v2")[2] == "\u2713 complete"
        assert "search-v2: processed; its latest version is ready." in notes(app)
        assert timers.live == [] and not panel.polling  # nothing left to follow: no more looks


async def test_a_failed_processing_says_why(
    services: Services, state: SandboxState, open_app: Any, timers: Timers, held: Hold
) -> None:
    async with open_app(specs_screen(services, state)) as (app, pilot):
        panel = app.screen.panel
        await keys(pilot, "n", *"slow", "tab", *"https://timeout.example.com/openapi.yaml", "ctrl+s")
        assert row_of(panel, "slow")[2] == "\u25cc pending"
        assert [t.delay for t in timers.live] == [2.0]  # a new spec is looked at soon, whatever the wait was
        held.held = False
        state.clock.advance(seconds=6)
        await timers.fire(pilot)
        assert row_of(panel, "slow")[2] == "\u2717 failed FETCH_TIMEOUT"
        failed = next(n for n in notes(app) if n.startswith("slow:"))
        assert failed.startswith("slow: processing failed.\nFETCH_TIMEOUT:")
        assert "Fetching https://timeout.example.com/openapi.yaml timed out after 30 seconds" in failed
        detail = str(app.screen.query_one("#spec-detail", Static).render())
        assert "timed out" in detail


async def test_looks_stop_while_another_screen_is_on_top(
    services: Services, state: SandboxState, open_app: Any, timers: Timers, held: Hold
) -> None:
    async with open_app(specs_screen(services, state)) as (app, pilot):
        screen = app.screen
        panel = screen.panel
        assert panel.polling
        assert panel.browser.list.move_to(state.openapi_specs[state.demo_org]["petstore"]["id"])
        await keys(pilot, "enter")
        assert isinstance(app.screen, SpecScreen)
        assert panel.paused and timers.live == [] and not panel.polling
        await keys(pilot, "escape")
        assert app.screen is screen and not panel.paused
        assert [t.delay for t in timers.live] == [2.0]  # following again, from the first wait


# --- source, visibility, delete ------------------------------------------------------------------------------


async def test_a_new_source_makes_a_new_version(services: Services, state: SandboxState, open_app: Any) -> None:
    rec = state.openapi_specs[state.demo_org]["petstore"]
    versions = len(rec["versions"])
    async with open_app(specs_screen(services, state)) as (app, pilot):
        assert app.screen.panel.browser.list.move_to(rec["id"])
        await keys(pilot, "e")
        form = app.screen
        assert isinstance(form, SpecSourceForm)
        assert form.values()["url"] == "https://petstore3.swagger.io/api/v3/openapi.json"  # the exact URL
        await keys(pilot, "ctrl+u", *"petstore.invalid", "ctrl+s")
        assert app.screen is form and "not an absolute URI" in form.problem_text
        assert len(rec["versions"]) == versions  # refused before sending
        await keys(pilot, "ctrl+u", *"https://petstore.northwind.dev/v4/openapi.json", "ctrl+s")
        assert app.screen is not form
        assert rec["source"] == {"url": "https://petstore.northwind.dev/v4/openapi.json"}
        assert len(rec["versions"]) == versions + 1


@pytest.fixture
async def flaky(state: SandboxState) -> AsyncIterator[tuple[Services, Faults]]:
    """Services over the seeded sandbox behind faults a test switches on while it runs."""
    faults = Faults(seed=3)
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state, faults=faults)),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    yield Services(client, where="a flaky sandbox"), faults
    await client.aclose()


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.mark.parametrize("url", ["https://petstore.northwind.dev/v5/openapi.json", None])
async def test_a_new_source_whose_answer_is_lost_is_looked_for_and_made_once(
    flaky: tuple[Services, Faults], state: SandboxState, url: str | None
) -> None:
    # ``None``: the same URL sent again (a re-fetch): only a new version tells that it arrived.
    services, faults = flaky
    rec = state.openapi_specs[state.demo_org]["petstore"]
    versions = len(rec["versions"])
    app = FolioApp(services, start=specs_screen(services, state))
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.panel.browser.list.move_to(rec["id"])
        await keys(pilot, "e")
        form = app.screen
        assert isinstance(form, SpecSourceForm)
        if url is not None:
            await keys(pilot, "ctrl+u", *url)
        faults.drop_after_write = 1.0  # the PUT is done, its answer lost
        await keys(pilot, "ctrl+s")
        faults.drop_after_write = 0.0
        assert len(rec["versions"]) == versions + 1  # looked for, not sent again
        assert app.screen is not form
        assert "The answer was lost, but the service has it: it was sent once." in notes(app)


async def test_a_new_source_lost_before_it_arrived_is_said_not_done(
    flaky: tuple[Services, Faults], state: SandboxState
) -> None:
    services, faults = flaky
    rec = state.openapi_specs[state.demo_org]["petstore"]
    versions = len(rec["versions"])
    app = FolioApp(services, start=specs_screen(services, state))
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.panel.browser.list.move_to(rec["id"])
        await keys(pilot, "e")
        form = app.screen
        assert isinstance(form, SpecSourceForm)
        faults.drop_rate = 1.0  # every request is cut before it is processed
        await keys(pilot, "ctrl+s")
        faults.drop_rate = 0.0
        assert app.screen is form and len(rec["versions"]) == versions
        await keys(pilot, "ctrl+s")  # sent again by the user: one version
        assert app.screen is not form and len(rec["versions"]) == versions + 1


async def test_visibility_is_toggled(services: Services, state: SandboxState, open_app: Any) -> None:
    rec = state.openapi_specs[state.demo_org]["petstore"]
    async with open_app(specs_screen(services, state)) as (app, pilot):
        panel = app.screen.panel
        assert panel.browser.list.move_to(rec["id"])
        await keys(pilot, "v")  # public -> private: no question
        assert rec["visibility"] == "private" and row_of(panel, "petstore")[1] == "private"
        assert "petstore is now private." in notes(app)
        await keys(pilot, "v")
        assert isinstance(app.screen, ConfirmModal)  # private -> public asks first
        await keys(pilot, "n")
        assert rec["visibility"] == "private"
        await keys(pilot, "v", "p")
        assert rec["visibility"] == "public" and row_of(panel, "petstore")[1] == "public"


async def test_delete_needs_the_slug_typed(services: Services, state: SandboxState, open_app: Any) -> None:
    specs = state.openapi_specs[state.demo_org]
    async with open_app(specs_screen(services, state)) as (app, pilot):
        panel = app.screen.panel
        assert panel.browser.list.move_to(specs["billing-api"]["id"])
        await keys(pilot, "D")
        modal = app.screen
        assert isinstance(modal, TypedConfirmModal) and modal.expected == "billing-api"
        await keys(pilot, *"billing", "enter")
        assert app.screen is modal and "billing-api" in specs
        await keys(pilot, "ctrl+u", *"billing-api", "enter")
        assert "billing-api" not in specs
        assert "billing-api" not in [r[0] for r in rows(panel)]
        assert "Deleted the OpenAPI spec billing-api." in notes(app)


async def test_adding_a_slug_taken_keeps_the_form(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(specs_screen(services, state)) as (app, pilot):
        await keys(pilot, "n", *"petstore", "tab", *"https://example.com/pets.json", "ctrl+s")
        form = app.screen
        assert isinstance(form, NewSpecForm)
        assert form.values() == {"slug": "petstore", "url": "https://example.com/pets.json"}
        assert "already exists" in form.problem_text
        assert state.openapi_specs[state.demo_org]["petstore"]["source"]["url"] != "https://example.com/pets.json"


# --- versions, files, comparing ------------------------------------------------------------------------------


def spec_screen(services: Services, state: SandboxState, slug: str = "petstore") -> Callable[[], SpecScreen]:
    return lambda: SpecScreen(services, state.demo_org, slug, trail=("Northwind Labs", "OpenAPI specs"))


async def test_versions_newest_first_with_the_latest_marked(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    stored = state.openapi_specs[state.demo_org]["petstore"]["versions"]
    async with open_app(spec_screen(services, state)) as (app, _pilot):
        panel = app.screen.panel
        shown = rows(panel)
        assert [r[1] for r in shown] == ["1.0.19", "1.0.18", "1.0.17"]  # the description's own info.version
        assert [r[2] for r in shown] == [v["id"] for v in reversed(stored)]
        assert [r[4] for r in shown] == ["latest", "", ""]
        summary = str(app.screen.query_one("#spec-summary", Static).render())
        assert "petstore" in summary and "public" in summary and "complete" in summary
        usage = str(app.screen.query_one("#spec-usage", Static).render())
        assert usage.startswith("Where it is used: not known yet")  # nothing cached in these tests


async def test_the_spec_screen_is_a_resource_screen_of_its_route_ids(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """Built by its route from the organization and the slug, which it keeps for the session; its crumb is the
    slug."""
    start = lambda: routes.build(services, "spec", {"org_id": state.demo_org, "slug": "petstore"})  # noqa: E731
    async with open_app(start) as (app, _pilot):
        screen = app.screen
        assert isinstance(screen, SpecScreen) and isinstance(screen, PanelScreen)
        assert screen.scope == {"org_id": state.demo_org, "slug": "petstore"}
        assert (screen.org_id, screen.slug, screen.crumb) == (state.demo_org, "petstore", "petstore")
        assert len(rows(screen.panel)) == 3


async def test_a_version_opens_to_its_files(services: Services, state: SandboxState, open_app: Any) -> None:
    newest = state.openapi_specs[state.demo_org]["petstore"]["versions"][-1]
    async with open_app(spec_screen(services, state)) as (app, pilot):
        await keys(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, SpecVersionScreen) and screen.version_id == newest["id"] and screen.base is None
        assert rows(screen.files) == [["openapi.json (entry)", "35"]]
        log = screen.query_one(Log)
        assert log.lines[:3] == ["{", '  "openapi": "3.0.3",', '  "info": {']
        assert '    "version": "1.0.19"' in log.lines
        await keys(pilot, "Y")
        assert app.clipboard == "https://petstore3.swagger.io/api/v3/openapi.json"
        await keys(pilot, "enter")
        assert screen.focused is log


async def test_two_versions_compared(services: Services, state: SandboxState, open_app: Any) -> None:
    versions = state.openapi_specs[state.demo_org]["petstore"]["versions"]  # oldest first
    async with open_app(spec_screen(services, state)) as (app, pilot):
        await keys(pilot, "d")
        assert isinstance(app.screen, SpecScreen)  # nothing marked: d says why instead
        await keys(pilot, "space")
        panel = app.screen.panel
        assert rows(panel)[0][0] == "\u25cf"
        highlighted = panel.browser.list.highlighted
        assert highlighted is not None and highlighted.key == versions[-2]["id"]  # marked, and moved down one
        await keys(pilot, "j", "d")
        screen = app.screen
        assert isinstance(screen, SpecVersionScreen)
        assert (screen.base, screen.version_id) == (versions[0]["id"], versions[-1]["id"])  # older -> newer
        assert rows(screen.files) == [["~", "openapi.json", "changed"]]
        summary = str(screen.query_one("#version-summary", Static).render()).splitlines()
        assert summary[0].endswith(": 1 changed.")
        assert summary[1] == "Operations: 1 added (GET /pet/findByStatus) · 1 changed (DELETE /pet/{petId})."
        diff = screen.query_one(DiffView).diff
        assert diff is not None and diff.added > 0 and diff.removed > 0
        changed = [(line.kind, line.text.strip()) for line in diff.unified if line.kind in ("add", "delete")]
        assert ("delete", '"version": "1.0.17"') in changed and ("add", '"version": "1.0.19"') in changed


async def test_server_text_is_shown_as_text(services: Services, state: SandboxState, open_app: Any) -> None:
    partner = state.openapi_specs[state.demo_org]["partner-gateway"]
    partner["lastProcessedErrors"] = [{"message": "[bold red]boom[/] \x1b]52;c;aGk=\x07\x1b[2J[@click=app.quit]x[/]"}]
    async with open_app(specs_screen(services, state)) as (app, pilot):
        await keys(pilot, "j")
        detail = str(app.screen.query_one("#spec-detail", Static).render())
        assert "[bold red]boom[/] [@click=app.quit]x[/]" in detail and "\x1b" not in detail
        assert app.is_running


def test_where_a_spec_is_used_in_words() -> None:
    api = Usage("s1", "REST API Reference", "p1", "Pet API")
    assert usage_text(Usages([api], 3, 13)) == (
        "Used on 1 page: REST API Reference \u203a Pet API (from the cached pages of 3 of 13 spaces)."
    )
    assert usage_text(Usages([], 0, 13)) == "Used on no page, from the cached pages of 0 of 13 spaces."
    assert usage_text(Usages([api] * 6, 1, 1)).endswith("; and 2 more (from the cached pages of 1 of 1 space).")


async def test_a_file_is_shown_as_text(services: Services, state: SandboxState, open_app: Any) -> None:
    newest = state.openapi_specs[state.demo_org]["billing-api"]["versions"][-1]
    newest["document"] = "openapi: 3.1.0\ninfo:\n  title: \x1b]52;c;aGk=\x07[b]Billing[/b]\x1b[2J\r\n\tversion: 2\n"
    start = lambda: SpecVersionScreen(services, state.demo_org, "billing-api", newest["id"])  # noqa: E731
    async with open_app(start) as (app, _pilot):
        screen = app.screen
        assert isinstance(screen, SpecVersionScreen)
        assert rows(screen.files) == [["openapi.yaml (entry)", "4"]]
        assert screen.query_one(Log).lines == [
            "openapi: 3.1.0",
            "info:",
            "  title: [b]Billing[/b]",
            "    version: 2",
        ]
