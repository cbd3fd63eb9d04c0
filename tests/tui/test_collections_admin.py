"""The organization's collections tab: collections created, edited, deleted and transferred; spaces and collections
moved by keys and by the mouse (the grab), a refused move put back; space actions from the spaces list. Driven by
keys over the seeded sandbox; every write is checked in what the sandbox now holds (``state``)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Input, Select, Static

from folio.sandbox import SandboxState
from folio.sandbox.domain.spaces import siblings
from folio.services import Services
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.content_forms import EditCollectionModal, NewCollectionModal
from folio.tui.modals.site_forms import ChoiceModal, TypedConfirmModal
from folio.tui.screens.content.organization import OrganizationScreen
from folio.tui.widgets.collections_tree import CollectionsTree
from tests.conftest import FROZEN_AT

ASKING = {"organization-content-write"}
"""Worker groups that wait on a modal: settled once the modal is up."""

TREE = [
    "▾ Product",
    "  ▾ Guides",
    "    Getting Started",
    "    User Guide",
    "    Admin Handbook",
    "  ▾ Reference",
    "    REST API Reference",
    "    SDK Reference",
    "  Release Notes",
    "▾ Engineering",
    "  ▾ Runbooks",
    "    Platform Runbooks",
    "  Architecture Decisions",
    "▾ Company",
    "  Onboarding",
    "  Brand Guidelines",
    "▾ Not in a collection",
    "  Centre d'aide",
    "  Scratchpad",
]


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


@pytest.fixture
def org_screen(services: Services, state: SandboxState) -> Any:
    return lambda: OrganizationScreen(services, state.demo_org, title="Northwind Labs", trail=("Organizations",))


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


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await settle(pilot)


def screen_of(pilot: Pilot[None]) -> OrganizationScreen:
    screen = pilot.app.screen
    assert isinstance(screen, OrganizationScreen)
    return screen


def tree_of(pilot: Pilot[None]) -> CollectionsTree:
    return screen_of(pilot).content_tree


def plain(cell: Any) -> str:
    return cell if isinstance(cell, str) else str(cell.plain)


def indented(tree: CollectionsTree) -> list[str]:
    return ["  " * row.indent + plain(row.cells[0]) for row in tree.list.visible_rows]


def status(tree: CollectionsTree) -> str:
    return str(tree.query_one(".resource-browser--status").render())


def notes(pilot: Pilot[None]) -> list[str]:
    return [n.message for n in pilot.app._notifications]


def space_named(state: SandboxState, title: str) -> dict[str, Any]:
    return next(s for s in state.spaces.values() if s["title"] == title)


def collection_named(state: SandboxState, title: str) -> dict[str, Any] | None:
    return next((c for c in state.collections.values() if c["title"] == title), None)


def order(state: SandboxState, parent: str | None) -> list[str]:
    """The titles under ``parent`` (None: the root) in the sandbox's sidebar order."""
    return [item["title"] for _, item in siblings(state, state.demo_org, parent)]


def row_of(tree: CollectionsTree, title: str) -> int:
    for n, row in enumerate(tree.list.visible_rows):
        if plain(row.cells[0]).lstrip("▾▸➜ ") == title:
            return n
    raise AssertionError(f"no row {title!r}: {indented(tree)}")


async def go_to(pilot: Pilot[None], title: str) -> None:
    tree = tree_of(pilot)
    tree.list.cursor = row_of(tree, title)
    await settle(pilot)


# --- collections -----------------------------------------------------------------------------------------------


async def test_a_collection_is_created_inside_the_one_under_the_cursor_and_at_the_root(
    open_app: Any, org_screen: Any, state: SandboxState
) -> None:
    async with open_app(org_screen) as (app, pilot):
        tree = tree_of(pilot)
        await go_to(pilot, "Engineering")
        await keys(pilot, "n")
        form = app.screen
        assert isinstance(form, NewCollectionModal)
        assert "inside “Engineering”" in str(form.query_one(".form--title", Static).render())
        await keys(pilot, *"Postmortems", "ctrl+s")
        made = collection_named(state, "Postmortems")
        assert made is not None and made["parent"] == collection_named(state, "Engineering")["id"]  # type: ignore[index]
        assert indented(tree)[10:13] == ["  ▾ Runbooks", "    Platform Runbooks", "  ▾ Postmortems"]
        assert tree.list.highlighted is not None and tree.list.highlighted.key == f"c:{made['id']}"
        assert "Created the collection “Postmortems” in “Engineering”." in notes(pilot)

        await go_to(pilot, "Not in a collection")
        await keys(pilot, "n")
        assert "at the root" in str(app.screen.query_one(".form--title", Static).render())
        await keys(pilot, *"Archive", "ctrl+s")
        archive = collection_named(state, "Archive")
        assert archive is not None and archive.get("parent") is None
        assert order(state, None)[-1] == "Archive"  # created last at the root
        assert indented(tree)[-4:] == ["▾ Archive", "▾ Not in a collection", "  Centre d'aide", "  Scratchpad"]


async def test_a_collection_title_past_the_limit_is_refused_as_typed(open_app: Any, org_screen: Any) -> None:
    async with open_app(org_screen) as (app, pilot):
        await keys(pilot, "n", *("x" * 51), "ctrl+s")
        form = app.screen
        assert isinstance(form, NewCollectionModal)
        assert "At most 50 characters" in form.problem_text
        assert form.values()["title"] == "x" * 51


async def test_a_collection_is_renamed_described_and_given_a_default_role(
    open_app: Any, org_screen: Any, state: SandboxState
) -> None:
    async with open_app(org_screen) as (app, pilot):
        await go_to(pilot, "Guides")
        await keys(pilot, "e")
        form = app.screen
        assert isinstance(form, EditCollectionModal)
        assert form.values()["title"] == "Guides"
        await keys(pilot, "end", "ctrl+u", *"Tutorials", "tab", *"How to use the fleet")
        form.query_one("#field-default_level", Select).value = "edit"
        await keys(pilot, "ctrl+s")
        guides = collection_named(state, "Tutorials")
        assert guides is not None
        assert guides["description"] == "How to use the fleet" and guides["defaultLevel"] == "edit"
        assert "  ▾ Tutorials" in indented(tree_of(pilot))
        assert "Saved the collection “Tutorials”." in notes(pilot)


async def test_a_refused_edit_keeps_what_was_typed(open_app: Any, org_screen: Any, state: SandboxState) -> None:
    async with open_app(org_screen) as (app, pilot):
        await go_to(pilot, "Guides")
        await keys(pilot, "e", "end", "ctrl+u", *"Handbooks")
        guides = collection_named(state, "Guides")
        assert guides is not None
        del state.collections[guides["id"]]  # someone deleted it meanwhile
        await keys(pilot, "ctrl+s")
        form = app.screen
        assert isinstance(form, EditCollectionModal)
        assert form.values()["title"] == "Handbooks"
        assert "Not saved" in form.problem_text


async def test_deleting_a_collection_says_what_becomes_of_its_spaces(
    open_app: Any, org_screen: Any, state: SandboxState
) -> None:
    async with open_app(org_screen) as (app, pilot):
        await go_to(pilot, "Product")
        await keys(pilot, "D")
        confirm = app.screen
        assert isinstance(confirm, TypedConfirmModal)
        body = str(confirm.query_one(".site-form--body", Static).render())
        assert "It holds 6 spaces and 2 collections." in body
        assert "can be restored for 7 days" in body
        await keys(pilot, "escape")
        assert collection_named(state, "Product") is not None

        await go_to(pilot, "Reference")
        await keys(pilot, "D", *"Referenc", "enter")
        assert isinstance(app.screen, TypedConfirmModal)
        assert "That is not the title" in str(app.screen.query_one(".site-form--problem", Static).render())
        await keys(pilot, "e", "enter")
        assert collection_named(state, "Reference") is None
        assert space_named(state, "REST API Reference")["deletedAt"]
        assert space_named(state, "SDK Reference")["deletedAt"]
        shown = indented(tree_of(pilot))
        assert "  ▾ Reference" not in shown and "    REST API Reference" not in shown
        assert "Deleted the collection “Reference” and its 2 spaces." in notes(pilot)


async def test_a_collection_is_transferred_to_another_organization(
    open_app: Any, org_screen: Any, services: Services, state: SandboxState
) -> None:
    drafts = await services.collections.create(state.demo_org, "Drafts")
    scratch = space_named(state, "Scratchpad")
    await services.client.spaces.move(scratch["id"], parent=drafts.id)
    guild = next(o for o in state.orgs if o != state.demo_org)
    async with open_app(org_screen) as (app, pilot):
        await go_to(pilot, "Company")  # its spaces are published on a site: refused
        await keys(pilot, "t")
        picker = app.screen
        assert isinstance(picker, ChoiceModal) and [c.label for c in picker.choices] == ["Open Robotics Guild"]
        await keys(pilot, "enter", "y")
        assert collection_named(state, "Company")["organization"] == state.demo_org  # type: ignore[index]
        assert any("published on a site" in n for n in notes(pilot))

        await go_to(pilot, "Drafts")
        await keys(pilot, "t", "enter")
        assert isinstance(app.screen, ConfirmModal)
        await keys(pilot, "y")
        assert state.collections[drafts.id]["organization"] == guild
        assert scratch["organization"] == guild
        shown = indented(tree_of(pilot))
        assert "▾ Drafts" not in shown and "  Scratchpad" not in shown
        assert "Transferred the collection “Drafts” to another organization." in notes(pilot)


# --- moves -----------------------------------------------------------------------------------------------------


async def test_a_space_is_moved_into_another_collection_by_keys(
    open_app: Any, org_screen: Any, state: SandboxState
) -> None:
    reference = collection_named(state, "Reference")
    assert reference is not None
    async with open_app(org_screen) as (_app, pilot):
        tree = tree_of(pilot)
        await go_to(pilot, "User Guide")
        await keys(pilot, "space")
        assert tree.grab is not None and "Moving space “User Guide”" in status(tree)
        await keys(pilot, "down")
        assert "in collection “Guides”, at the end" in status(tree)
        await keys(pilot, "down")
        assert "in collection “Reference”, before space “REST API Reference”" in status(tree)
        assert indented(tree)[4:7] == ["  ▾ Reference", "    ➜ User Guide", "    REST API Reference"]
        assert space_named(state, "User Guide")["parent"] != reference["id"]  # nothing sent before the drop
        await keys(pilot, "enter")
        assert space_named(state, "User Guide")["parent"] == reference["id"]
        assert order(state, reference["id"]) == ["User Guide", "REST API Reference", "SDK Reference"]
        assert indented(tree)[4:8] == ["  ▾ Reference", "    User Guide", "    REST API Reference", "    SDK Reference"]
        assert tree.grab is None and tree.list.highlighted.key == f"s:{space_named(state, 'User Guide')['id']}"  # type: ignore[union-attr]
        assert "Done: Move space “User Guide” to collection “Reference”." in notes(pilot)


async def test_out_of_and_into_collections_with_the_angle_keys(
    open_app: Any, org_screen: Any, state: SandboxState
) -> None:
    async with open_app(org_screen) as (_app, pilot):
        tree = tree_of(pilot)
        await go_to(pilot, "Runbooks")
        await keys(pilot, "less_than_sign")  # without a grab: moved at once, just after Engineering
        assert collection_named(state, "Runbooks").get("parent") is None  # type: ignore[union-attr]
        assert order(state, None)[:4] == ["Product", "Engineering", "Runbooks", "Company"]
        assert indented(tree)[9:14] == [
            "▾ Engineering",
            "  Architecture Decisions",
            "▾ Runbooks",
            "  Platform Runbooks",
            "▾ Company",
        ]
        await go_to(pilot, "Scratchpad")
        await keys(pilot, "space", "greater_than_sign")  # in hand: into the last collection of the root, at its end
        assert "in collection “Company”, at the end" in status(tree)
        await keys(pilot, "enter")
        company = collection_named(state, "Company")
        assert company is not None and space_named(state, "Scratchpad")["parent"] == company["id"]
        assert order(state, company["id"]) == ["Onboarding", "Brand Guidelines", "Scratchpad"]
        await go_to(pilot, "Product")
        await keys(pilot, "less_than_sign")
        assert "Nothing to move collection “Product” out of: it is in no collection." in status(tree)
        assert indented(tree)[0] == "▾ Product"


async def test_esc_puts_the_row_back_and_sends_nothing(open_app: Any, org_screen: Any, state: SandboxState) -> None:
    async with open_app(org_screen) as (app, pilot):
        tree = tree_of(pilot)
        await go_to(pilot, "Getting Started")
        await keys(pilot, "space", "down", "down", "down")
        assert tree.grab is not None
        await keys(pilot, "escape")
        assert tree.grab is None and indented(tree) == TREE
        assert isinstance(app.screen, OrganizationScreen)  # esc put it back; it did not leave the screen
        assert not any(path.endswith("/move") for _, path in state.hits)
        assert "space “Getting Started” is back where it was." in status(tree)


async def test_a_refused_move_is_put_back_and_says_why(open_app: Any, org_screen: Any, state: SandboxState) -> None:
    guides = collection_named(state, "Guides")
    assert guides is not None
    async with open_app(org_screen) as (_app, pilot):
        tree = tree_of(pilot)
        await go_to(pilot, "User Guide")
        await keys(pilot, "space", "down", "down")
        space_named(state, "REST API Reference")["deletedAt"] = state.now()  # deleted by someone meanwhile
        await keys(pilot, "enter")
        assert space_named(state, "User Guide")["parent"] == guides["id"]
        assert indented(tree) == TREE
        assert status(tree).startswith("Refused: Move space “User Guide” to collection “Reference”")
        assert "It is back where it was." in status(tree)
        assert tree.query_one(".resource-browser--status").has_class("-error")
        assert tree.sending is None and tree.grab is None


async def test_a_space_is_dragged_into_another_collection_with_the_mouse(
    open_app: Any, org_screen: Any, state: SandboxState
) -> None:
    async with open_app(org_screen, size=(100, 30)) as (_app, pilot):
        tree = tree_of(pilot)
        view = tree.list
        notes_row, target = row_of(tree, "Release Notes"), row_of(tree, "User Guide")
        await pilot.mouse_down(view, offset=(6, notes_row))
        await pilot.hover(view, offset=(6, target))
        assert tree.grab is not None and "in collection “Guides”, before space “User Guide”" in status(tree)
        await pilot.mouse_up(view, offset=(6, target))
        await settle(pilot)
        guides = collection_named(state, "Guides")
        assert guides is not None and space_named(state, "Release Notes")["parent"] == guides["id"]
        assert order(state, guides["id"]) == ["Getting Started", "Release Notes", "User Guide", "Admin Handbook"]


async def test_a_row_dragged_up_from_the_last_line_at_80x24_lands_and_starts_no_text_selection(
    open_app: Any, org_screen: Any, state: SandboxState
) -> None:
    # Lifting a row makes the status line two lines high, so the pointer on the list's last line is then over
    # the status line: a text selection started by the press ran on into it and Folio exited (KeyError
    # 'screen--selection', the organization screen had lost Textual's Screen styles).
    async with open_app(org_screen, size=(80, 24)) as (app, pilot):
        tree = tree_of(pilot)
        view = tree.list
        bottom = view.size.height - 1
        row = view.visible_rows[round(view.scroll_y) + bottom]
        title = plain(row.cells[0]).strip()
        await pilot.mouse_down(view, offset=(7, bottom))
        for up in (1, 2, 3):
            await pilot.hover(view, offset=(7, bottom - up))
        assert tree.grab is not None and tree.grab.item == row.key
        assert not app.screen.selections
        await pilot.mouse_up(view, offset=(7, bottom - 3))
        await settle(pilot)
        company = collection_named(state, "Company")
        assert company is not None and space_named(state, title)["parent"] == company["id"]
        assert order(state, company["id"]) == [title, "Onboarding", "Brand Guidelines"]
        assert tree.grab is None and tree.sending is None


async def test_the_grab_waits_for_the_filter_to_be_cleared(open_app: Any, org_screen: Any) -> None:
    async with open_app(org_screen) as (_app, pilot):
        tree = tree_of(pilot)
        await keys(pilot, "slash", *"guide", "enter", "space")
        assert tree.grab is None
        assert "Clear the filter" in (tree.why_not_move() or "")


# --- spaces from the organization's lists ----------------------------------------------------------------------


async def test_spaces_are_locked_duplicated_and_deleted_from_the_spaces_list(
    open_app: Any, org_screen: Any, state: SandboxState
) -> None:
    async with open_app(org_screen) as (app, pilot):
        screen = screen_of(pilot)
        await keys(pilot, "2")
        scratch = space_named(state, "Scratchpad")
        screen.spaces_list.list.move_to(scratch["id"])
        await keys(pilot, "l")
        assert scratch["editMode"] == "locked"
        assert any(n.startswith("Locked “Scratchpad”") for n in notes(pilot))
        await keys(pilot, "l")
        assert scratch["editMode"] == "live"

        await keys(pilot, "d")
        assert isinstance(app.screen, ConfirmModal)
        await keys(pilot, "y")
        copy = space_named(state, "Scratchpad (copy)")
        assert type(app.screen).__name__ == "SpaceScreen" and app.screen.space_id == copy["id"]  # type: ignore[attr-defined]
        await keys(pilot, "escape")

        screen.spaces_list.list.move_to(scratch["id"])
        await keys(pilot, "D")
        assert isinstance(app.screen, TypedConfirmModal)
        app.screen.query_one(Input).value = "Scratchpad"
        await keys(pilot, "enter")
        assert scratch["deletedAt"]
        assert "Scratchpad" not in [plain(r.cells[0]) for r in screen.spaces_list.list.rows]


async def test_a_space_in_the_tree_is_edited_and_a_collection_is_not_duplicated(
    open_app: Any, org_screen: Any, state: SandboxState
) -> None:
    async with open_app(org_screen) as (app, pilot):
        await go_to(pilot, "Guides")
        await keys(pilot, "d")
        assert isinstance(app.screen, OrganizationScreen)
        assert screen_of(pilot).why_not("duplicate_space") == "Only a space is duplicated or locked: pick a space."
        await go_to(pilot, "Scratchpad")
        await keys(pilot, "e", "end", "ctrl+u", *"Sandbox notes", "ctrl+s")
        assert space_named(state, "Sandbox notes")
        assert "  Sandbox notes" in indented(tree_of(pilot))
