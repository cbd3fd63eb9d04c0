"""What a new user and a faulty server found on the sites screens (issue 14), each driven by keys over the seeded
sandbox: a create whose answer was lost is made once, a setting's typed text survives esc, a move that changes
the default says so before anything is sent (and a hidden default is refused), a broken condition is refused
with where it breaks, forms edit the server's exact values, and the rough edges of the published view, the
batch line and the settings' footer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Select

from folio.api import GitBookClient, RetryPolicy, Token
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.modals.site_forms import CreateSiteModal
from folio.tui.modals.structure_forms import EditNodeModal, NewNodeModal
from folio.tui.modals.structure_plan import StructurePlanModal
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.screens.sites.site import SiteScreen
from folio.tui.widgets.adaptive_schema import AdaptiveSchemaEditor
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.structure_editor import StructureEditor
from tests.api.sites_support import section, site_id
from tests.conftest import SANDBOX_URL, TOKEN
from tests.services.test_structure_service import outline
from tests.tui.conftest import settle
from tests.tui.test_local import Machine
from tests.tui.test_sites import VALID_SCHEMA, SitesHost, settings_rows, site_screen
from tests.tui.test_structure_editor import NORTHWIND, Host, host, idle, plan_rows, put_cursor, status, titles


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture
def faults() -> Faults:
    return Faults(seed=3)


@pytest.fixture
async def faulty(state: SandboxState, faults: Faults) -> AsyncIterator[Services]:
    """Services over the seeded sandbox behind ``faults`` (changed while a test runs)."""
    client = GitBookClient(
        token=Token(TOKEN),
        base_url=SANDBOX_URL,
        transport=SandboxTransport(create_app(state, faults=faults)),
        retry=RetryPolicy(sleep=_no_sleep),
    )
    yield Services(client, where="a faulty sandbox")
    await client.aclose()


def app_for(services: Services, start: Any) -> FolioApp:
    app = FolioApp(services, start=start)
    app.animation_level = "none"
    return app


def notes(app: FolioApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def writes(state: SandboxState) -> list[tuple[str, str]]:
    return [(method, path) for method, path in state.hits if method != "GET"]


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await idle(pilot)


# --- 1. a create whose answer was lost is looked for, not sent twice -----------------------------------------------


async def test_a_site_whose_answer_was_lost_is_created_once(
    faulty: Services, state: SandboxState, faults: Faults
) -> None:
    app = app_for(faulty, lambda: SitesHost(faulty, state.demo_org))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await keys(pilot, "n")
        assert isinstance(app.screen, CreateSiteModal)
        await keys(pilot, *"Partner", "space", *"Portal")
        faults.drop_after_write = 1.0  # the site is made, its answer lost
        await keys(pilot, "ctrl+s")
        faults.drop_after_write = 0.0
        if isinstance(app.screen, CreateSiteModal):  # as a form that gave up would invite: send again
            await keys(pilot, "ctrl+s")
        await settle(pilot)
        assert [s["title"] for s in state.sites.values()].count("Partner Portal") == 1
        assert isinstance(app.screen, SitesHost)
        assert "The answer was lost, but the service has it: it was sent once." in notes(app)


async def test_a_section_group_whose_answer_was_lost_is_created_once(
    faulty: Services, state: SandboxState, faults: Faults
) -> None:
    app = app_for(faulty, host(faulty, state))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await keys(pilot, "n")
        form = app.screen
        assert isinstance(form, NewNodeModal)
        form.query_one("#field-kind", Select).value = "site-section-group"
        await pilot.pause()
        form.query_one("#field-title", Input).value = "Guides"
        faults.drop_after_write = 1.0
        await keys(pilot, "ctrl+s")
        faults.drop_after_write = 0.0
        if isinstance(app.screen, NewNodeModal):
            await keys(pilot, "ctrl+s")
        await settle(pilot)
        assert [g["title"] for g in state.section_groups.values()].count("Guides") == 1
        assert not isinstance(app.screen, NewNodeModal)
        assert "The answer was lost, but the service has it: it was sent once." in notes(app)


async def test_a_move_whose_answer_was_lost_shows_what_the_service_holds(
    faulty: Services, state: SandboxState, faults: Faults
) -> None:
    app = app_for(faulty, host(faulty, state))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        editor = app.screen.query_one(StructureEditor)
        await put_cursor(pilot, editor, "SDKs")
        faults.drop_after_write = 1.0  # the move is made, its answer lost
        await keys(pilot, "K")  # before REST API
        faults.drop_after_write = 0.0
        await settle(pilot)
        assert outline(state)[1][3] == ["SDKs", "REST API"]
        shown = [t for t, _ in titles(editor)]
        assert shown.index("SDKs") < shown.index("REST API")  # not put back: the service has it
        assert "answer was lost" in status(editor) and "read again" in status(editor)


async def test_a_planned_move_whose_answer_was_lost_shows_what_the_service_holds(
    faulty: Services, state: SandboxState, faults: Faults
) -> None:
    app = app_for(faulty, host(faulty, state))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        editor = app.screen.query_one(StructureEditor)
        await put_cursor(pilot, editor, "User Guide")
        await keys(pilot, "K")  # a new default section: its plan first
        plan = app.screen
        assert isinstance(plan, StructurePlanModal)
        faults.drop_after_write = 1.0
        await keys(pilot, "a")
        faults.drop_after_write = 0.0
        assert "the answer was lost" in str(plan.query_one(".plan--status").render())
        await keys(pilot, "escape")
        await settle(pilot)
        assert outline(state)[1][:2] == ["User Guide", "Getting Started"]
        assert [t for t, _ in titles(editor)][1] == "User Guide"  # shown as the service holds it
        assert "read again" in status(editor)


async def test_a_schema_whose_answer_was_lost_says_it_may_be_saved(
    faulty: Services, state: SandboxState, faults: Faults
) -> None:
    sid = site_id(state)
    app = app_for(faulty, site_screen(faulty, state))
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await keys(pilot, "3")
        editor = app.screen.query_one(AdaptiveSchemaEditor)
        editor.text_area.load_text(VALID_SCHEMA)
        faults.drop_after_write = 1.0
        await keys(pilot, "ctrl+s")
        faults.drop_after_write = 0.0
        said = str(editor.query_one(".adaptive--problems").render())
        assert "The answer was lost" in said and "ctrl+s again" in said  # not a flat "Not saved"
        assert list(state.adaptive_schemas[sid]["jsonSchema"]["properties"]) == ["isPro", "unsigned"]
        assert editor.text_area.text == VALID_SCHEMA  # kept
        await keys(pilot, "ctrl+s")  # the same schema again: harmless
        assert "(saved)" in str(editor.query_one(".adaptive--problems").render())


# --- 2. a setting's typed text survives esc ------------------------------------------------------------------------


async def test_a_settings_typed_title_comes_back_after_esc(state: SandboxState, tmp_path: Path) -> None:
    machine = Machine(state, tmp_path / "home")  # drafts live in the account's local state
    sid = site_id(state)
    async with machine.run(lambda services: site_screen(services, state)) as (app, pilot):
        await keys(pilot, "enter")  # the Title
        modal = app.screen
        assert isinstance(modal, TextEntryModal) and modal.text == "Northwind Docs"
        await keys(pilot, "ctrl+u", *"Northwind", "space", *"Ref", "escape")
        assert isinstance(app.screen, SiteScreen) and state.sites[sid]["title"] == "Northwind Docs"
        await keys(pilot, "enter")
        modal = app.screen
        assert isinstance(modal, TextEntryModal) and modal.text == "Northwind Ref"  # kept, as the dialog says
        await keys(pilot, "enter")
        assert state.sites[sid]["title"] == "Northwind Ref"
        await keys(pilot, "enter")  # sent: the draft is gone, the form opens on the saved title
        modal = app.screen
        assert isinstance(modal, TextEntryModal) and modal.text == "Northwind Ref"
        await keys(pilot, "escape")


async def test_a_new_sites_form_is_kept_after_esc(state: SandboxState, tmp_path: Path) -> None:
    machine = Machine(state, tmp_path / "home")
    async with machine.run(lambda services: lambda: SitesHost(services, state.demo_org)) as (app, pilot):
        await keys(pilot, "n")
        form = app.screen
        assert isinstance(form, CreateSiteModal)
        await keys(pilot, *"Partner", "space", *"Portal")
        form.query_one("#field-type", Select).value = "premium"
        await keys(pilot, "escape")
        assert isinstance(app.screen, SitesHost) and len(state.sites) == 2
        await keys(pilot, "n")
        form = app.screen
        assert isinstance(form, CreateSiteModal)
        assert form.values()["title"] == "Partner Portal" and form.values()["type"] == "premium"


# --- 3. a move that changes the default says so first; a hidden default is refused ---------------------------------


async def test_a_move_that_changes_the_default_shows_its_plan_before_sending(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(site_screen(services, state), size=(160, 50)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, SiteScreen)
        assert settings_rows(screen)["Default section"] == "Getting Started"
        await keys(pilot, "2")
        editor = screen.query_one(StructureEditor)
        before = titles(editor)
        await put_cursor(pilot, editor, "User Guide")
        state.hits.clear()
        await keys(pilot, "K")  # to the top of Product: it would become the default section
        plan = app.screen
        assert isinstance(plan, StructurePlanModal)
        assert writes(state) == []  # nothing sent yet
        rows = " | ".join(r.strip() for r in plan_rows(app))
        assert "section “User Guide” becomes the default section" in rows
        assert "section “Getting Started” is no longer the default section" in rows
        assert "https://docs.northwind.dev/user-guide | → https://docs.northwind.dev/" in rows
        await keys(pilot, "escape")  # not wanted: nothing sent, the tree as it was
        assert app.screen is screen and writes(state) == [] and titles(editor) == before
        assert "Not moved" in status(editor)
        await keys(pilot, "K", "a")
        await keys(pilot, "escape")
        await settle(pilot)
        assert outline(state)[1][:2] == ["User Guide", "Getting Started"]
        assert status(editor).startswith("Done: Move section “User Guide” before section “Getting Started”")
        await keys(pilot, "1")  # the settings say so without r
        assert settings_rows(screen)["Default section"] == "User Guide"


@pytest.mark.parametrize("batch", [False, True], ids=["at once", "in a batch"])
async def test_a_hidden_site_space_cannot_become_the_default_by_a_move(
    services: Services, state: SandboxState, open_app: Any, batch: bool
) -> None:
    async with open_app(host(services, state), size=(100, 30)) as (app, pilot):
        editor = app.screen.query_one(StructureEditor)
        before = titles(editor)
        if batch:
            await keys(pilot, "b")
        await put_cursor(pilot, editor, "Admin Handbook")  # hidden, second in User Guide
        state.hits.clear()
        await keys(pilot, "K")
        assert isinstance(app.screen, Host)
        assert titles(editor) == before and writes(state) == [] and not editor.collected
        text = status(editor)
        assert "site space “Admin Handbook” is hidden" in text and "default of section “User Guide”" in text


# --- 4. a broken condition is refused before sending, saying where --------------------------------------------------


async def test_an_invalid_condition_is_refused_with_where_it_breaks(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(host(services, state), size=(100, 30)) as (app, pilot):
        editor = app.screen.query_one(StructureEditor)
        await put_cursor(pilot, editor, "Getting Started")
        await keys(pilot, "e")
        form = app.screen
        assert isinstance(form, EditNodeModal)
        form.query_one("#field-condition", Input).value = "visitor.claims.isBeta == (("
        await pilot.pause()
        assert "Column 28: expected a value" in form.problem_text  # as typed
        state.hits.clear()
        await keys(pilot, "ctrl+s")
        assert app.screen is form and writes(state) == []
        assert state.site_sections[section(state, "Getting Started")]["condition"] is None
        form.query_one("#field-condition", Input).value = "visitor.claims.isBeta == true"
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, Host)
        assert state.site_sections[section(state, "Getting Started")]["condition"] == "visitor.claims.isBeta == true"


# --- 5. forms edit the exact value --------------------------------------------------------------------------------

LONG_TITLE = "Kits \x1b[31mred\x1b[0m\x07" + "x" * 9979 + "\u202eend"


async def test_the_edit_form_holds_the_exact_title_and_saving_keeps_it(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    assert len(LONG_TITLE) == 10_001
    sdks = section(state, "SDKs")
    state.site_sections[sdks]["title"] = LONG_TITLE
    async with open_app(host(services, state), size=(100, 30)) as (app, pilot):
        editor = app.screen.query_one(StructureEditor)
        row = next(n for n, (key, _) in enumerate(editor.rows) if key == sdks)
        await keys(pilot, *["down"] * row)
        assert editor.current == sdks
        await keys(pilot, "e")
        form = app.screen
        assert isinstance(form, EditNodeModal)
        field = form.query_one("#field-title", Input)
        assert field.value == LONG_TITLE  # the server's, not a cleaned, shortened copy
        drawn = "".join(s.text for s in field.render_line(0))
        assert "\x1b" not in drawn and "\x07" not in drawn and "\u202e" not in drawn  # what is drawn is clean
        form.query_one("#field-path", Input).value = "kits"
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, Host)
        assert state.site_sections[sdks]["path"] == "kits"
        assert state.site_sections[sdks]["title"] == LONG_TITLE  # not changed behind the user's back


# --- 18. rough edges ------------------------------------------------------------------------------------------------


async def test_no_stray_scrollbar_under_the_published_view_at_120_columns(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(site_screen(services, state), size=(120, 40)) as (app, pilot):
        await keys(pilot, "2")
        await settle(pilot)
        assert "▌" not in app.export_screenshot()


async def test_the_batch_line_counts_in_words_and_fits_at_80_columns(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(host(services, state), size=(80, 24)) as (app, pilot):
        editor = app.screen.query_one(StructureEditor)
        await keys(pilot, "b")
        await put_cursor(pilot, editor, "SDKs")
        await keys(pilot, "K")
        line = editor.query_one(".structure--summary")
        text = line.content.plain  # type: ignore[attr-defined]
        assert text.startswith("BATCH: 1 move collected · P shows the plan")
        assert len(text) <= line.size.width  # whole words, nothing cut at the edge
        await keys(pilot, "J")
        assert line.content.plain.startswith("BATCH: 2 moves collected")  # type: ignore[attr-defined]
        assert outline(state) == NORTHWIND


async def test_enter_on_a_setting_is_called_edit_in_the_footer(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(site_screen(services, state)) as (app, _pilot):
        shown = {(k.key, k.description) for k in app.screen.query_one(KeysFooter).keys}
        assert ("enter", "Edit") in shown
        assert not any(description == "Open" for _, description in shown)
