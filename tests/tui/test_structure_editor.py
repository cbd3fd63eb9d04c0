"""The structure editor, driven by keys and by the mouse inside a small host screen, over the seeded sandbox:
what the tree shows, and the order and grouping the sandbox holds after each operation."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.widgets import Checkbox, Header, Input, Select

from folio.api import GitBookClient, Token
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.services import Services
from folio.tui.app import FolioApp
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.structure_forms import EditNodeModal, NewNodeModal
from folio.tui.modals.structure_plan import StructurePlanModal
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.widgets.condition_picker import ConditionPicker
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.structure_editor import StructureEditor
from tests.api.sites_support import group, section, site_id, space_id
from tests.conftest import SANDBOX_URL, TOKEN
from tests.services.test_structure_service import ADD_TO_GROUP, SECTION_MOVE, SECTION_UPDATE, outline, spaces_of
from tests.tui.conftest import settle

NORTHWIND = ["Product", ["Getting Started", "User Guide", "Reference", ["REST API", "SDKs"]], "Release Notes"]


class Host(FolioScreen):
    """A screen holding only the editor, as the site screen embeds it."""

    crumb = "Structure"

    def __init__(self, services: Services, org_id: str, site_id: str) -> None:
        super().__init__(services)
        self.org_id, self.site_id = org_id, site_id

    def compose(self) -> ComposeResult:
        yield Header()
        yield StructureEditor(self.services, self.org_id, self.site_id)
        yield KeysFooter()

    def action_refresh(self) -> None:
        self.query_one(StructureEditor).reload()

    def current_item(self) -> Item | None:
        return self.query_one(StructureEditor).current_item()


def host(services: Services, state: SandboxState, title: str = "Northwind Docs") -> Callable[[], Host]:
    return lambda: Host(services, state.demo_org, site_id(state, title))


def editor_of(app: FolioApp) -> StructureEditor:
    return app.screen.query_one(StructureEditor)


def titles(editor: StructureEditor) -> list[tuple[str, int]]:
    tree = editor.structure
    assert tree is not None
    return [(tree.nodes[key].title, depth) for key, depth in editor.rows]


def line(editor: StructureEditor, n: int, width: int = 120) -> str:
    return "".join(segment.text for segment in editor.render_row(n, width))


def summary(editor: StructureEditor) -> str:
    return editor.query_one(".structure--summary").content.plain  # type: ignore[attr-defined,no-any-return]


def status(editor: StructureEditor) -> str:
    return editor.query_one(".structure--status").content.plain  # type: ignore[attr-defined,no-any-return]


async def idle(pilot: Pilot[None]) -> None:
    """Let everything finish but the editor's workers that wait for a form or plan to close."""
    await pilot.pause()
    running = [w for w in pilot.app.workers if w.group != "structure-ask" and not w.is_finished]
    await asyncio.gather(*(w.wait() for w in running), return_exceptions=True)
    await pilot.pause()


async def accept_plan(pilot: Pilot[None]) -> None:
    """A move that changes a default shows its plan first: apply it (a), then close the plan."""
    await idle(pilot)
    assert isinstance(pilot.app.screen, StructurePlanModal), "a move that changes a default shows its plan"
    await pilot.press("a")
    await idle(pilot)
    await pilot.press("escape")
    await settle(pilot)


async def put_cursor(pilot: Pilot[None], editor: StructureEditor, title: str) -> None:
    tree = editor.structure
    assert tree is not None
    target = next(n for n, (key, _) in enumerate(editor.rows) if tree.nodes[key].title == title)
    await pilot.press(
        *(["down"] * (target - editor.cursor) if target > editor.cursor else ["up"] * (editor.cursor - target))
    )
    assert tree.nodes[editor.current or ""].title == title


# --- what it shows ----------------------------------------------------------------------------------------------


async def test_the_tree_shows_every_node_with_its_marks(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        assert titles(editor)[:8] == [
            ("Product", 0),
            ("Getting Started", 1),
            ("Getting Started", 2),
            ("Centre d'aide", 2),
            ("User Guide", 1),
            ("User Guide", 2),
            ("Admin Handbook", 2),
            ("Reference", 1),
        ]
        assert len(editor.rows) == 16
        assert line(editor, 0).startswith("▣ Product") and "box" in line(editor, 0)
        started = line(editor, 1)
        assert "§ Getting Started" in started and "/getting-started" in started and "rocket" in started
        assert "★" in started  # the default section
        assert "⊘" in line(editor, 6)  # Admin Handbook is hidden
        assert "if visitor.claims.unsigned.prefersFrench" in line(editor, 3)
        assert "Northwind Docs · 2 groups, 5 sections, 9 site spaces" in str(
            editor.query_one(".structure--summary").content  # type: ignore[attr-defined]
        )
        assert "No URL of its own" in status(editor)
        assert editor.view.has_focus
        assert app.screen.current_item() == Item(editor.rows[0][0], None, "group")
        await pilot.press("j", "j")
        assert "Published at https://docs.northwind.dev/ ·" in status(editor)
        await pilot.press("j", "j")
        assert app.screen.current_item() == Item(editor.rows[4][0], "https://docs.northwind.dev/user-guide", "section")


async def test_a_site_without_sections_shows_its_root_site_spaces_and_reorders_them(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(host(services, state, "Internal Handbook")) as (app, pilot):
        editor = editor_of(app)
        assert titles(editor) == [("Onboarding", 0), ("Platform Runbooks", 0), ("Architecture Decisions", 0)]
        assert "Not published" in status(editor)
        await pilot.press("J")  # one step down, by the fallback every terminal sends
        await accept_plan(pilot)  # Platform Runbooks becomes the site's default site space: its plan shows first
        handbook = site_id(state, "Internal Handbook")
        order = sorted((r for r in state.site_spaces.values() if r["site"] == handbook), key=lambda r: r["order"])
        assert [r["path"] for r in order] == ["platform-runbooks", "onboarding", "architecture-decisions"]
        assert "Done: Move site space “Onboarding”" in status(editor)


# --- moving by keyboard ------------------------------------------------------------------------------------------


async def test_pick_up_move_and_drop_into_a_nested_group(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        await put_cursor(pilot, editor, "Release Notes")
        await pilot.press("space", "up")
        assert "in group “Product”, at the end" in status(editor)
        await pilot.press("up")
        # The tree shows where it would land: at the end of Reference, after SDKs (its site spaces follow it).
        assert titles(editor)[10:14] == [("SDKs", 2), ("SDK Reference", 3), ("Release Notes", 2), ("Release Notes", 3)]
        assert "in group “Reference”, at the end" in status(editor)
        assert "➜" in line(editor, 12)
        assert outline(state) == NORTHWIND  # nothing sent while it is held
        await pilot.press("up", "up")  # before SDKs, then before REST API
        await pilot.press("enter")
        await settle(pilot)
        assert outline(state) == [
            "Product",
            ["Getting Started", "User Guide", "Reference", ["Release Notes", "REST API", "SDKs"]],
        ]
        assert editor.grab is None and "Done:" in status(editor)


async def test_esc_puts_it_back_and_sends_nothing(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        before = titles(editor)
        state.hits.clear()
        await pilot.press("space", "down", "down", "down", "escape")
        await settle(pilot)
        assert titles(editor) == before and editor.grab is None
        assert "back where it was" in status(editor)
        assert not any(method != "GET" for method, _ in state.hits)
        assert isinstance(app.screen, Host)  # esc cancelled the grab, it did not leave the screen


async def test_one_step_moves_and_in_and_out_of_groups(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        await put_cursor(pilot, editor, "SDKs")
        await pilot.press("alt+up")  # before REST API
        await settle(pilot)
        assert outline(state)[1][3] == ["SDKs", "REST API"]
        await pilot.press("less_than_sign")  # out of Reference, just after it
        await settle(pilot)
        assert outline(state)[1] == ["Getting Started", "User Guide", "Reference", ["REST API"], "SDKs"]
        await pilot.press("greater_than_sign")  # into the group just above: Reference, at its end
        await settle(pilot)
        assert outline(state)[1][3] == ["REST API", "SDKs"]
        await put_cursor(pilot, editor, "Release Notes")
        await pilot.press("K")  # up one step: into the end of Product
        await settle(pilot)
        assert outline(state) == ["Product", [*NORTHWIND[1], "Release Notes"]]
        await pilot.press("alt+down")  # and out again
        await settle(pilot)
        assert outline(state) == NORTHWIND


async def test_a_site_space_stays_in_its_section(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        await put_cursor(pilot, editor, "Brand Guidelines")
        await pilot.press("greater_than_sign")
        assert "A site space stays in its section" in status(editor)
        await pilot.press("J", "J")  # the last place it can go, then nowhere further
        await settle(pilot)
        assert spaces_of(state, "Release Notes") == ["changelog", "onboarding", "brand"]
        assert "Nothing to move" in status(editor)


async def test_z_undoes_the_last_applied_change(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        await put_cursor(pilot, editor, "User Guide")
        await pilot.press("K")
        await accept_plan(pilot)  # it becomes the default section
        assert outline(state)[1][:2] == ["User Guide", "Getting Started"]
        await pilot.press("z")
        await settle(pilot)
        assert outline(state) == NORTHWIND
        await pilot.press("z")
        assert "Nothing to undo" in status(editor)


async def test_a_refused_undo_stays_undoable(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        await put_cursor(pilot, editor, "User Guide")
        await pilot.press("K")
        await accept_plan(pilot)
        member = state.members[state.demo_org][state.default_user]
        member["role"] = "read"
        await pilot.press("z")
        await settle(pilot)
        assert status(editor).startswith("Refused: Undo: Move section “User Guide”")
        assert outline(state)[1][:2] == ["User Guide", "Getting Started"]
        assert [t for t, _ in titles(editor)][1] == "User Guide"  # the tree shows what the service holds
        member["role"] = "admin"
        await pilot.press("z")
        await settle(pilot)
        assert outline(state) == NORTHWIND


async def test_r_reads_the_structure_again(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        state.site_sections[section(state, "SDKs")]["title"] = "Kits"  # changed elsewhere
        await pilot.press("r")
        await settle(pilot)
        assert ("Kits", 2) in titles(editor)


# --- moving by mouse ----------------------------------------------------------------------------------------------


async def test_drag_and_drop_with_the_mouse(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        view = editor.view
        notes = next(n for n, (t, d) in enumerate(titles(editor)) if t == "Release Notes" and d == 0)
        reference = next(n for n, (t, _) in enumerate(titles(editor)) if t == "Reference")
        await pilot.mouse_down(view, offset=(4, notes))
        await pilot.hover(view, offset=(4, reference))
        assert editor.grab is not None and "in group “Product”, before group “Reference”" in status(editor)
        await pilot.mouse_up(view, offset=(4, reference))
        await settle(pilot)
        assert outline(state) == [
            "Product",
            ["Getting Started", "User Guide", "Release Notes", "Reference", ["REST API", "SDKs"]],
        ]
        # Dragged back out, to the right depth: below the last row, pulled left to the root.
        last = len(editor.rows) - 1
        moved = next(n for n, (t, d) in enumerate(titles(editor)) if t == "Release Notes" and d == 1)
        await pilot.mouse_down(view, offset=(6, moved))
        await pilot.hover(view, offset=(0, last))
        await pilot.mouse_up(view, offset=(0, last))
        await settle(pilot)
        assert outline(state) == NORTHWIND


async def test_a_drag_in_the_site_screen_at_80x24_lands_and_starts_no_text_selection(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    from folio.tui.screens.sites.site import SiteScreen

    start = lambda: SiteScreen(services, state.demo_org, site_id(state), trail=("Northwind Labs",))  # noqa: E731
    async with open_app(start, size=(80, 24)) as (app, pilot):
        await pilot.press("2")
        await settle(pilot)
        editor = editor_of(app)
        view = editor.view
        notes = next(n for n, (t, d) in enumerate(titles(editor)) if t == "Release Notes" and d == 0)
        reference = next(n for n, (t, _) in enumerate(titles(editor)) if t == "Reference")
        await pilot.mouse_down(view, offset=(4, notes))
        for line in range(notes - 1, reference - 1, -1):
            await pilot.hover(view, offset=(4, line))
        assert editor.grab is not None and "in group “Product”, before group “Reference”" in status(editor)
        assert not app.screen.selections
        await pilot.mouse_up(view, offset=(4, reference))
        await settle(pilot)
        assert outline(state) == [
            "Product",
            ["Getting Started", "User Guide", "Release Notes", "Reference", ["REST API", "SDKs"]],
        ]


async def test_a_click_without_a_drag_only_moves_the_cursor(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        await pilot.click(editor.view, offset=(4, 4))
        await settle(pilot)
        assert editor.cursor == 4 and editor.grab is None and outline(state) == NORTHWIND


# --- refusals and older services ----------------------------------------------------------------------------------


async def test_a_refused_move_is_rolled_back_and_says_why(state: SandboxState) -> None:
    slow = SandboxTransport(create_app(state, faults=Faults(latency=0.3)))  # to see the move before the answer
    async with GitBookClient(token=Token(TOKEN), base_url=SANDBOX_URL, transport=slow) as client:
        services = Services(client, where="a slow sandbox")
        app = FolioApp(services, start=host(services, state))
        app.animation_level = "none"
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            editor = editor_of(app)
            before = titles(editor)
            state.members[state.demo_org][state.default_user]["role"] = "read"
            await put_cursor(pilot, editor, "Release Notes")
            await pilot.press("K")
            assert titles(editor) != before and "sending 1" in summary(editor)  # shown at once...
            await settle(pilot)
            assert titles(editor) == before  # ...and put back when refused
            text = status(editor)
            assert text.startswith("Refused: Move section “Release Notes” to group “Product”")
            assert "permission to change the sites" in text and "The tree is back" in text
            assert outline(state) == NORTHWIND


async def test_moving_into_a_group_without_the_add_to_group_operation(state: SandboxState, open_app: Any) -> None:
    transport = SandboxTransport(create_app(state, offer_optional=False))
    async with GitBookClient(token=Token(TOKEN), base_url=SANDBOX_URL, transport=transport) as client:
        services = Services(client, where="an older sandbox")
        app = FolioApp(services, start=host(services, state))
        app.animation_level = "none"
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            editor = editor_of(app)
            await put_cursor(pilot, editor, "Release Notes")
            state.hits.clear()
            await pilot.press("K")
            await settle(pilot)
            assert outline(state) == ["Product", [*NORTHWIND[1], "Release Notes"]]
            assert SECTION_UPDATE in state.hits and ADD_TO_GROUP not in state.hits


async def test_without_the_sort_a_section_takes_the_section_move_and_a_group_is_put_back(
    state: SandboxState, open_app: Any
) -> None:
    transport = SandboxTransport(create_app(state, offer_optional=False))  # answers 404 for the structure sort
    async with GitBookClient(token=Token(TOKEN), base_url=SANDBOX_URL, transport=transport) as client:
        services = Services(client, where="an older sandbox")
        app = FolioApp(services, start=host(services, state))
        app.animation_level = "none"
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            editor = editor_of(app)
            before = titles(editor)
            await put_cursor(pilot, editor, "Reference")
            await pilot.press("K")  # a group has no other way to be reordered
            await settle(pilot)
            assert titles(editor) == before and outline(state) == NORTHWIND
            text = status(editor)
            assert text.startswith("Refused: Move group “Reference” before section “User Guide”")
            assert "offers no structure sort, the only operation that reorders a group" in text
            assert "The tree is back" in text
            state.hits.clear()
            await put_cursor(pilot, editor, "User Guide")
            await pilot.press("K")  # a section: the deprecated section move
            await accept_plan(pilot)
            assert outline(state)[1][:2] == ["User Guide", "Getting Started"]
            assert state.hits == {SECTION_MOVE}
            assert status(editor).startswith("Done: Move section “User Guide” before section “Getting Started”")


# --- batches and their plan -------------------------------------------------------------------------------------


def plan_rows(app: FolioApp) -> list[str]:
    return [" ".join(str(c) for c in row.cells) for row in app.screen.query_one(ResourceBrowser).list.rows]


async def test_a_batch_is_planned_then_applied_step_by_step(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(host(services, state), size=(160, 50)) as (app, pilot):
        editor = editor_of(app)
        await put_cursor(pilot, editor, "Release Notes")
        state.hits.clear()
        await pilot.press("b", "space", "up", "up", "up", "enter")  # into Reference, before SDKs
        await put_cursor(pilot, editor, "Product")
        await pilot.press("J")  # Product below Release Notes? No: Release Notes left the root; Product is alone
        await put_cursor(pilot, editor, "Getting Started")
        await pilot.press("J")  # after User Guide: User Guide becomes the default section
        await settle(pilot)
        assert not any(method != "GET" for method, _ in state.hits)  # collected, not sent
        assert editor.collected is not None and len(editor.collected) == 2
        await pilot.press("P")
        await idle(pilot)
        assert isinstance(app.screen, StructurePlanModal)
        rows = plan_rows(app)
        assert rows[0] == "1. Move section “Release Notes” to group “Reference”, before section “SDKs” to send"
        assert any("(section update)" in r for r in rows) and any("(structure sort)" in r for r in rows)
        assert "Published URLs that move: 6" in " | ".join(rows)
        at = next(n for n, r in enumerate(rows) if r.strip() == "section “User Guide”")
        assert [r.strip() for r in rows[at + 1 : at + 3]] == [
            "https://docs.northwind.dev/user-guide",
            "→ https://docs.northwind.dev/",
        ]
        assert any(r.strip() == "→ https://docs.northwind.dev/" for r in rows)
        await pilot.press("a")
        await idle(pilot)
        assert [r.split()[-1] for r in plan_rows(app) if r[:1].isdigit()] == ["done", "done"]
        await pilot.press("escape")
        await settle(pilot)
        assert outline(state) == [
            "Product",
            ["User Guide", "Getting Started", "Reference", ["REST API", "Release Notes", "SDKs"]],
        ]
        assert editor.collected is None and "Applied the plan: 2 moves" in status(editor)
        await pilot.press("z")  # one undo takes the whole plan back
        await settle(pilot)
        assert outline(state) == NORTHWIND


async def test_a_plan_that_fails_half_way_offers_to_undo_the_applied_steps(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(host(services, state), size=(160, 50)) as (app, pilot):
        editor = editor_of(app)
        await pilot.press("b")
        await put_cursor(pilot, editor, "Release Notes")
        await pilot.press("K")  # into Product
        await put_cursor(pilot, editor, "User Guide")
        await pilot.press("K")  # before Getting Started
        await put_cursor(pilot, editor, "SDKs")
        await pilot.press("less_than_sign")  # out of Reference
        await pilot.press("P")
        await idle(pilot)
        state.site_sections.pop(section(state, "SDKs"))  # gone meanwhile: the third step fails
        await pilot.press("a")
        await idle(pilot)
        modal = app.screen
        assert isinstance(modal, StructurePlanModal)
        assert [r.split()[-1] for r in plan_rows(app) if r[:1].isdigit()] == ["done", "done", "failed"]
        text = str(modal.query_one(".plan--status").render())
        assert "Step 3 failed" in text and "No matching site section" in text and "press u" in text.lower()
        assert outline(state)[1][:2] == ["User Guide", "Getting Started"]
        await pilot.press("u")
        await idle(pilot)
        assert [r.split()[-1] for r in plan_rows(app) if r[:1].isdigit()] == ["undone", "undone", "failed"]
        await pilot.press("escape")
        await settle(pilot)
        assert outline(state) == [
            "Product",
            ["Getting Started", "User Guide", "Reference", ["REST API"]],
            "Release Notes",
        ]
        assert "undone: nothing changed" in status(editor)
        assert [t for t, _ in titles(editor)][:2] == ["Product", "Getting Started"]


async def test_leaving_a_batch_discards_its_moves(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        before = titles(editor)
        await pilot.press("b", "J", "K", "z", "b")
        await idle(pilot)
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        assert titles(editor) == before and editor.collected is None and outline(state) == NORTHWIND


# --- create, edit, remove -----------------------------------------------------------------------------------------


async def test_edit_a_section_checks_limits_first(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state), size=(100, 30)) as (app, pilot):
        editor = editor_of(app)
        await put_cursor(pilot, editor, "SDKs")
        await pilot.press("e")
        await idle(pilot)
        form = app.screen
        assert isinstance(form, EditNodeModal)
        title = form.query_one("#field-title", Input)
        title.value = "K"
        await pilot.press("ctrl+s")
        await idle(pilot)
        assert isinstance(app.screen, EditNodeModal)
        assert "Title: is too short (1 characters) (2..128 characters)" in form.problem_text
        title.value = "Kits"
        form.query_one("#field-condition", Input).value = ""  # empty: the condition is removed
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, Host)
        rec = state.site_sections[section(state, "Kits")]
        assert rec["condition"] is None and rec["path"] == "sdks"
        assert "Kits" in line(editor, editor.cursor) and "if visitor" not in line(editor, editor.cursor)
        await pilot.press("z")
        await settle(pilot)
        assert state.site_sections[section(state, "SDKs")]["condition"] == "visitor.claims.isBeta == true"


async def to_condition(pilot: Pilot[None], app: FolioApp) -> EditNodeModal:
    """Open the edit form of the node under the cursor and tab to its condition field."""
    await pilot.press("e")
    await idle(pilot)
    form = app.screen
    assert isinstance(form, EditNodeModal)
    for _ in range(6):
        if app.focused is not None and app.focused.id == "field-condition":
            return form
        await pilot.press("tab")
    raise AssertionError("the condition field was not reached by tab")


def picked(form: EditNodeModal) -> list[str]:
    return form.query_one(ConditionPicker).matches


def hint(form: EditNodeModal) -> str:
    return str(form.query_one(".condition--hint").render())


async def test_a_template_condition_is_picked_by_keys(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        await put_cursor(pilot, editor, "Getting Started")
        form = await to_condition(pilot, app)
        assert picked(form) == [
            "visitor.claims.isBeta == true",
            "visitor.claims.isEnterprise == true",
            "visitor.claims.unsigned.prefersFrench == true",
        ]
        await pilot.press(*"enterprise")  # filters by the condition and by what it means
        assert picked(form) == ["visitor.claims.isEnterprise == true"]
        await pilot.press("space", *"plan")
        assert picked(form) == ["visitor.claims.isEnterprise == true"]  # "an enterprise plan"
        await pilot.press("ctrl+u", *"claims")
        assert len(picked(form)) == 3 and "↓ to pick one of 3 template conditions" in hint(form)
        await pilot.press("down", "down", "enter")  # into the list, the second one, put it in
        field = form.query_one("#field-condition", Input)
        assert field.value == "visitor.claims.isEnterprise == true" and app.focused is field
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, Host)
        assert state.site_sections[section(state, "Getting Started")]["condition"] == (
            "visitor.claims.isEnterprise == true"
        )
        assert "if visitor.claims.isEnterprise == true" in line(editor, editor.cursor)


async def test_clearing_the_condition_sends_null_and_free_text_stays(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        await put_cursor(pilot, editor, "SDKs")
        form = await to_condition(pilot, app)
        field = form.query_one("#field-condition", Input)
        assert field.value == "visitor.claims.isBeta == true"
        await pilot.press(*"visitor.claims.isPartner")  # typed over the selected text: no template matches
        assert picked(form) == [] and "kept as typed" in hint(form)
        await pilot.press("down", "escape")  # nothing to go down to; esc still closes the form
        assert isinstance(app.screen, Host)
        assert state.site_sections[section(state, "SDKs")]["condition"] == "visitor.claims.isBeta == true"
        form = await to_condition(pilot, app)
        await pilot.press("down", "escape")  # into the list and back to the field, nothing picked
        field = form.query_one("#field-condition", Input)
        assert app.focused is field and field.value == "visitor.claims.isBeta == true"
        await pilot.press("ctrl+u")  # the field emptied: the condition goes
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, Host)
        assert state.site_sections[section(state, "SDKs")]["condition"] is None
        assert "if visitor" not in line(editor, editor.cursor)


async def test_a_site_without_a_visitor_schema_says_so_in_the_form(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(host(services, state, "Internal Handbook")) as (app, pilot):
        editor = editor_of(app)
        await put_cursor(pilot, editor, "Onboarding")
        form = await to_condition(pilot, app)
        assert "This site has no visitor schema" in hint(form) and picked(form) == []
        assert not form.query_one(ConditionPicker).options.display
        await pilot.press("ctrl+u", *"visitor.claims.isStaff")
        assert form.query_one("#field-condition", Input).value == "visitor.claims.isStaff"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, Host)
        key = editor.current or ""
        assert state.site_spaces[key]["site"] == site_id(state, "Internal Handbook")
        assert state.site_spaces[key]["condition"] == "visitor.claims.isStaff"


async def test_a_refused_edit_keeps_what_was_typed(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state), size=(100, 30)) as (app, pilot):
        editor = editor_of(app)
        await put_cursor(pilot, editor, "REST API")
        await pilot.press("e")
        await idle(pilot)
        state.members[state.demo_org][state.default_user]["role"] = "read"
        app.screen.query_one("#field-path", Input).value = "rest"
        await pilot.press("ctrl+s")
        await idle(pilot)
        form = app.screen
        assert isinstance(form, EditNodeModal) and form.query_one("#field-path", Input).value == "rest"
        assert "Not saved" in str(form.query_one(".form--problem").render())
        assert state.site_sections[section(state, "REST API")]["path"] == "rest-api"
        assert "/rest-api" in line(editor, editor.cursor)  # rolled back in the tree


async def test_make_a_site_space_the_default_and_hide_another(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(host(services, state), size=(100, 30)) as (app, pilot):
        editor = editor_of(app)
        await put_cursor(pilot, editor, "Onboarding")
        await pilot.press("e")
        await idle(pilot)
        form = app.screen
        assert isinstance(form, EditNodeModal)
        form.query_one("#field-default", Checkbox).value = True
        form.query_one("#field-hidden", Checkbox).value = True
        await pilot.press("f2")
        await settle(pilot)
        rec = next(r for r in state.site_spaces.values() if r["path"] == "onboarding")
        assert rec["hidden"] is True
        assert state.site_sections[section(state, "Release Notes")]["defaultSiteSpace"] == rec["id"]
        assert "★ ⊘" in line(editor, editor.cursor)
        await pilot.press("up", "down")  # the row's own line, now that the saved message has been read
        assert status(editor).startswith("Hidden and the default: visitors land on it")  # explained


async def test_create_a_section_a_group_and_a_site_space(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(host(services, state), size=(100, 30)) as (app, pilot):
        editor = editor_of(app)
        await put_cursor(pilot, editor, "REST API")
        await pilot.press("n")
        await idle(pilot)
        form = app.screen
        assert isinstance(form, NewNodeModal)
        assert form.query_one("#field-where", Select).value == group(state, "Reference")
        form.query_one("#field-space", Select).value = space_id(state, "Platform Runbooks")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert outline(state)[1][3] == ["REST API", "SDKs", "Platform Runbooks"]
        assert any(t == "Platform Runbooks" and d == 2 for t, d in titles(editor))
        # A group gathering two sections, at the root.
        await pilot.press("n")
        await idle(pilot)
        form = app.screen
        assert isinstance(form, NewNodeModal)
        form.query_one("#field-kind", Select).value = "site-section-group"
        form.query_one("#field-where", Select).value = "(root)"
        await pilot.pause()
        form.query_one("#field-title", Input).value = "Extras"
        form.query_one("#field-sections").select(section(state, "Release Notes"))  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert outline(state)[-2:] == ["Extras", ["Platform Runbooks", "Release Notes"]]  # and the one at the cursor
        # A site space in the section under the cursor.
        await put_cursor(pilot, editor, "SDKs")
        await pilot.press("n")
        await idle(pilot)
        form = app.screen
        assert isinstance(form, NewNodeModal)
        form.query_one("#field-kind", Select).value = "site-space"
        form.query_one("#field-space", Select).value = space_id(state, "Onboarding")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert spaces_of(state, "SDKs") == ["sdk", "onboarding"]
        await pilot.press("z")  # undo removes what was made last
        await settle(pilot)
        assert spaces_of(state, "SDKs") == ["sdk"]


async def test_remove_asks_first(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        await put_cursor(pilot, editor, "Reference")
        await pilot.press("D")
        await idle(pilot)
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("n")
        await idle(pilot)
        assert outline(state) == NORTHWIND and "Nothing removed" in status(editor)
        await pilot.press("D")
        await idle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert outline(state) == ["Product", ["Getting Started", "User Guide", "REST API", "SDKs"], "Release Notes"]
        await put_cursor(pilot, editor, "Release Notes")
        await pilot.press("D")
        await idle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert outline(state) == ["Product", ["Getting Started", "User Guide", "REST API", "SDKs"]]
        assert not any(r["path"] == "changelog" for r in state.site_spaces.values())
        assert ("Release Notes", 0) not in titles(editor)


async def test_a_refused_removal_puts_the_node_back(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        editor = editor_of(app)
        before = titles(editor)
        state.members[state.demo_org][state.default_user]["role"] = "comment"
        await put_cursor(pilot, editor, "Reference")
        await pilot.press("D")
        await idle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert titles(editor) == before and "Refused: Remove group “Reference”" in status(editor)
        assert outline(state) == NORTHWIND


# --- the mouse all the way --------------------------------------------------------------------------------------


async def click_key(pilot: Pilot[None], description: str) -> None:
    """Click the footer's key for an action, as a mouse user does."""
    footer = pilot.app.screen.query_one(KeysFooter)
    place = next(p for p in footer.placed if p.key.description == description)
    await pilot.click(footer, offset=(place.start + 1, 0))
    await idle(pilot)


async def test_every_operation_by_mouse(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state), size=(160, 50)) as (app, pilot):
        editor = editor_of(app)
        view = editor.view
        row: dict[str, int] = {}
        for n, (title, _) in enumerate(titles(editor)):
            row.setdefault(title, n)  # a section's row comes before its site space of the same title
        # Edit: click the row, the footer's Edit, type, click Save.
        await pilot.click(view, offset=(4, row["SDKs"]))
        await click_key(pilot, "Edit")
        form = app.screen
        assert isinstance(form, EditNodeModal)
        await pilot.click(form.query_one("#field-icon", Input))
        form.query_one("#field-icon", Input).value = ""
        await pilot.click(form.query_one("#send"))
        await settle(pilot)
        assert state.site_sections[section(state, "SDKs")]["icon"] is None
        # A batch of one drag, planned and applied by clicks.
        await click_key(pilot, "Batch")
        await pilot.mouse_down(view, offset=(4, row["User Guide"]))
        await pilot.hover(view, offset=(4, row["Getting Started"]))
        await pilot.mouse_up(view, offset=(4, row["Getting Started"]))
        await idle(pilot)
        assert editor.collected is not None and len(editor.collected) == 1
        await click_key(pilot, "Plan")
        plan = app.screen
        assert isinstance(plan, StructurePlanModal)
        await pilot.click(plan.query_one("#apply"))
        await idle(pilot)
        await pilot.click(plan.query_one("#close"))
        await settle(pilot)
        assert outline(state)[1][:2] == ["User Guide", "Getting Started"]
        # Undo from the footer, then remove with the confirmation's button.
        await click_key(pilot, "Undo")
        await settle(pilot)
        assert outline(state) == NORTHWIND
        await pilot.click(view, offset=(4, row["Reference"]))
        await click_key(pilot, "Remove")
        assert isinstance(app.screen, ConfirmModal)
        await pilot.click(app.screen.query_one("#accept"))
        await settle(pilot)
        assert outline(state) == ["Product", ["Getting Started", "User Guide", "REST API", "SDKs"], "Release Notes"]
