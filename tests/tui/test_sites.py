"""The sites panel (inside a host screen of the test's own) and the site screen, driven by keys over the seeded
sandbox; mutations are checked in what the sandbox now holds."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest
from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.widgets import Footer, Header, Input, Static, TabbedContent, TextArea

from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui.commands import key_entries
from folio.tui.modals.site_forms import ChoiceModal, CreateSiteModal, TypedConfirmModal
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.screens.sites.site import SiteScreen
from folio.tui.widgets.adaptive_schema import AdaptiveSchemaEditor
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.site_published import PublishedBeside, SitePublishedView
from folio.tui.widgets.site_structure_view import SiteStructureView
from folio.tui.widgets.sites_panel import SitesPanel
from tests.api.sites_support import site_id, space_id
from tests.tui.conftest import settle
from tests.tui.test_structure_editor import accept_plan


class SitesHost(FolioScreen):
    """Stands in for the organization screen: the sites panel and nothing else."""

    crumb = "Northwind Labs"

    def __init__(self, services: Services, org_id: str) -> None:
        super().__init__(services)
        self.org_id = org_id

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield SitesPanel(self.services, self.org_id, id="sites")
        yield Footer()

    @property
    def panel(self) -> SitesPanel:
        return self.query_one(SitesPanel)

    def on_mount(self) -> None:
        self.set_crumb(self.crumb)
        self.panel.browser.focus_list()

    def current_item(self) -> Item | None:
        return self.panel.current_item()

    def action_refresh(self) -> None:
        self.panel.reload()


def host(services: Services, state: SandboxState) -> Callable[[], SitesHost]:
    return lambda: SitesHost(services, state.demo_org)


def rows(browser: ResourceBrowser) -> list[list[str]]:
    return [[c if isinstance(c, str) else c.plain for c in r.cells] for r in browser.list.visible_rows]


def text_of(widget: Static) -> str:
    return str(widget.render())


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await settle(pilot)


async def type_text(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*text)
    await settle(pilot)


# --- the sites panel --------------------------------------------------------------------------------------------


async def test_panel_lists_sites_and_filters_by_published(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        panel = app.screen.panel
        assert rows(panel.browser) == [
            ["Northwind Docs", "public", "yes", "9", "https://docs.northwind.dev/"],
            ["Internal Handbook", "visitor-auth", "no", "3", "/handbook"],
        ]
        filter_line = panel.query_one(".resource-panel--hint", Static)
        await keys(pilot, "p")
        assert [r[0] for r in rows(panel.browser)] == ["Northwind Docs"]
        assert text_of(filter_line).startswith("Published sites")
        await keys(pilot, "p")
        assert [r[0] for r in rows(panel.browser)] == ["Internal Handbook"]
        await keys(pilot, "p")
        assert len(rows(panel.browser)) == 2 and text_of(filter_line).startswith("All sites")
        await keys(pilot, "slash", *"hand", "enter")
        assert [r[0] for r in rows(panel.browser)] == ["Internal Handbook"]
        assert ("site", f"{state.demo_org}/{site_id(state)}") in app.loaded  # remembered for the palette


async def test_create_a_site_through_the_modal(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        await keys(pilot, "n")
        modal = app.screen
        assert isinstance(modal, CreateSiteModal)
        await type_text(pilot, "P")
        assert "2..128 characters" in modal.problem_text  # checked as typed
        await type_text(pilot, "artner Portal")
        assert modal.problem_text == ""
        await keys(pilot, "tab", "right", "enter")  # visibility: unlisted
        await keys(pilot, "tab", "tab", "space")  # the first space: Getting Started
        await keys(pilot, "ctrl+s")
        assert not isinstance(app.screen, CreateSiteModal)
        created = [s for s in state.sites.values() if s["title"] == "Partner Portal"]
        assert len(created) == 1
        site = created[0]
        assert (site["visibility"], site["published"], site["type"]) == ("unlisted", False, "basic")
        spaces = [r["space"] for r in state.site_spaces.values() if r["site"] == site["id"]]
        assert spaces == [space_id(state, "Getting Started")]
        panel = app.screen.panel
        assert "Partner Portal" in [r[0] for r in rows(panel.browser)]
        assert panel.browser.list.highlighted is not None and panel.browser.list.highlighted.key == site["id"]


async def test_create_refuses_a_short_title_and_keeps_the_form(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        await keys(pilot, "n")
        await type_text(pilot, "P")
        await keys(pilot, "ctrl+s")
        assert isinstance(app.screen, CreateSiteModal) and len(state.sites) == 2
        assert "Title is too short" in app.screen.problem_text
        await keys(pilot, "escape")
        assert isinstance(app.screen, SitesHost) and len(state.sites) == 2


async def test_delete_needs_the_title_typed(services: Services, state: SandboxState, open_app: Any) -> None:
    handbook = site_id(state, "Internal Handbook")
    async with open_app(host(services, state)) as (app, pilot):
        await keys(pilot, "j", "D")
        modal = app.screen
        assert isinstance(modal, TypedConfirmModal) and modal.expected == "Internal Handbook"
        await type_text(pilot, "Internal")
        await keys(pilot, "enter")
        assert app.screen is modal and handbook in state.sites  # wrong text: refused
        assert "nothing was done" in text_of(modal.query_one(".site-form--problem", Static))
        await keys(pilot, "ctrl+u")
        await type_text(pilot, "Internal Handbook")
        await keys(pilot, "enter")
        assert isinstance(app.screen, SitesHost)
        assert handbook not in state.sites
        assert not [r for r in state.site_spaces.values() if r["site"] == handbook]
        assert [r[0] for r in rows(app.screen.panel.browser)] == ["Northwind Docs"]


async def test_enter_opens_the_site_screen(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(host(services, state)) as (app, pilot):
        await keys(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, SiteScreen) and screen.site_id == site_id(state)
        assert screen.trail == ("Northwind Labs", "Northwind Docs")
        assert screen.sub_title == "Northwind Labs \u203a Northwind Docs"


# --- the site screen ------------------------------------------------------------------------------------------------


def site_screen(services: Services, state: SandboxState, title: str = "Northwind Docs") -> Callable[[], SiteScreen]:
    return lambda: SiteScreen(services, state.demo_org, site_id(state, title), trail=("Northwind Labs",))


def settings_rows(screen: SiteScreen) -> dict[str, str]:
    return {r[0]: r[1] for r in rows(screen.settings_list)}


async def to_setting(pilot: Pilot[None], screen: SiteScreen, key: str) -> None:
    assert screen.settings_list.list.move_to(key)
    await settle(pilot)


async def test_settings_are_listed(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(site_screen(services, state)) as (app, _pilot):
        screen = app.screen
        assert isinstance(screen, SiteScreen) and screen.crumb == "Northwind Docs"
        assert settings_rows(screen) == {
            "Title": "Northwind Docs",
            "Visibility": "public",
            "Basename": "—",
            "Proxy": "—",
            "Agents context": "included",
            "Adaptive content": "on",
            "Default section": "Getting Started",
            "Default site space": "Getting Started",
        }
        assert "2..128" in text_of(screen.query_one("#site-setting-help", Static))
        assert ("site", f"{state.demo_org}/{site_id(state)}") in app.loaded


async def test_edit_the_title(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = site_id(state)
    async with open_app(site_screen(services, state)) as (app, pilot):
        screen = app.screen
        await keys(pilot, "enter")
        assert isinstance(app.screen, TextEntryModal)
        await keys(pilot, "ctrl+u")
        await type_text(pilot, "Northwind Reference")
        await keys(pilot, "enter")
        assert app.screen is screen
        assert state.sites[sid]["title"] == "Northwind Reference"
        assert settings_rows(screen)["Title"] == "Northwind Reference"
        assert screen.crumb == "Northwind Reference"


async def test_a_too_short_title_is_refused_before_sending(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    sid = site_id(state)
    async with open_app(site_screen(services, state)) as (app, pilot):
        await keys(pilot, "e")
        modal = app.screen
        assert isinstance(modal, TextEntryModal)
        await keys(pilot, "ctrl+u", "N", "enter")
        assert app.screen is modal  # kept open, the text kept
        assert modal.text == "N"
        message = modal.problem_text
        assert "too short" in message and "2..128 characters" in message
        assert state.sites[sid]["title"] == "Northwind Docs"
        assert ("PATCH", "/v1/orgs/{organizationId}/sites/{siteId}") not in state.hits


async def test_a_failed_update_keeps_the_text_and_says_why(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    sid = site_id(state)
    async with open_app(site_screen(services, state)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, SiteScreen)
        await to_setting(pilot, screen, "basename")
        await keys(pilot, "enter")
        modal = app.screen
        assert isinstance(modal, TextEntryModal)
        del state.sites[sid]  # the site goes away meanwhile
        await type_text(pilot, "reference")
        await keys(pilot, "enter")
        assert app.screen is modal and modal.text == "reference"
        assert "Not sent" in modal.problem_text


async def test_change_the_visibility(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = site_id(state)
    async with open_app(site_screen(services, state)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, SiteScreen)
        await keys(pilot, "j", "enter")
        assert isinstance(app.screen, ChoiceModal)
        await keys(pilot, "down", "enter")
        assert app.screen is screen
        assert state.sites[sid]["visibility"] == "unlisted"
        assert settings_rows(screen)["Visibility"] == "unlisted"


async def test_proxy_cleared_with_null(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = site_id(state)
    state.sites[sid]["proxy"] = {"origin": "northwind.dev/docs"}
    async with open_app(site_screen(services, state)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, SiteScreen)
        assert settings_rows(screen)["Proxy"] == "northwind.dev/docs"
        await to_setting(pilot, screen, "proxy")
        await keys(pilot, "enter")
        modal = app.screen
        assert isinstance(modal, TextEntryModal) and modal.text == "northwind.dev/docs"
        await keys(pilot, "ctrl+u")
        await type_text(pilot, "northwind")
        assert "domain and a path" in modal.problem_text
        await keys(pilot, "ctrl+u")
        await type_text(pilot, "null")
        await keys(pilot, "enter")
        assert app.screen is screen
        assert state.sites[sid]["proxy"] is None
        assert settings_rows(screen)["Proxy"] == "—"


async def test_structure_tab_embeds_the_structure_editor(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    editor = pytest.importorskip("folio.tui.widgets.structure_editor")
    async with open_app(site_screen(services, state)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, SiteScreen)
        assert not screen.query(editor.StructureEditor)  # mounted when first shown
        await keys(pilot, "2")
        assert screen.query_one(TabbedContent).active == "structure"
        assert screen.query(editor.StructureEditor)
        assert app.focused is not None and screen.query_one(editor.StructureEditor) in app.focused.ancestors


async def test_a_broken_structure_editor_fails_loudly_not_as_a_read_only_tree(
    services: Services, state: SandboxState, open_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The editor is imported plainly (issue 25): a part that cannot be imported is a bug to see, not a quiet
    fallback to the read-only tree."""
    monkeypatch.setitem(sys.modules, "folio.tui.widgets.structure_editor", None)  # import fails
    with pytest.raises(ModuleNotFoundError):
        async with open_app(site_screen(services, state)) as (app, pilot):
            assert isinstance(app.screen, SiteScreen)
            await keys(pilot, "2")


class StructureHost(FolioScreen):
    """The read-only structure view alone (what the Structure tab shows without the structure editor)."""

    def __init__(self, services: Services, org_id: str, site_id: str) -> None:
        super().__init__(services)
        self.org_id = org_id
        self.site_id = site_id

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield SiteStructureView(self.services, self.org_id, self.site_id, id="site-structure")
        yield Footer()

    def on_mount(self) -> None:
        view = self.query_one(SiteStructureView)
        view.set_site_title("Northwind Docs")
        view.outline_tree.focus()


async def test_read_only_structure_view(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(lambda: StructureHost(services, state.demo_org, site_id(state))) as (app, pilot):
        view = app.screen.query_one(SiteStructureView)
        tree = view.outline_tree
        assert str(tree.root.label) == "Northwind Docs"
        assert [str(n.label).split("  ")[0] for n in tree.root.children] == [
            "▤ Product",
            "§ Release Notes",
        ]
        product = tree.root.children[0]
        assert [str(n.label).split("  ")[0] for n in product.children] == [
            "§ Getting Started",
            "§ User Guide",
            "▤ Reference",
        ]
        summary = text_of(view.query_one(".structure-view--summary", Static))
        assert summary == (
            "Read-only · 5 sections in 2 groups (1 with a condition) · 9 site spaces (2 hidden, 2 with a condition)"
        )
        await keys(pilot, "down", "down")
        assert view.current is not None and view.current.title == "Getting Started  /getting-started"


async def test_published_view_beside_the_structure_and_share_key(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    sid = site_id(state)
    state.sites[sid]["visibility"] = "share-link"
    async with open_app(site_screen(services, state), size=(160, 50)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, SiteScreen)
        assert screen.check_action("share_key", ()) is False  # no published view before the Structure tab
        await keys(pilot, "2")
        view = screen.query_one(SitePublishedView)
        tree = view.outline_tree
        structure = screen.query_one(PublishedBeside).structure
        assert view.display and structure.display  # side by side: the structure on the left, as wide
        assert structure.region.right <= view.region.x and view.region.width >= 70 and structure.region.width >= 70
        assert "not given" in text_of(view.query_one(".published--summary", Static))
        assert "visitors see the same" in text_of(view.query_one(".published--editable", Static))
        tree.focus()
        await keys(pilot, "down", "down")  # root, Product, Getting Started
        node = view.current
        assert node is not None and node.url == "https://docs.northwind.dev/"
        assert screen.current_item() == Item(node.id, node.url, "site-section")
        await keys(pilot, "s")
        assert isinstance(app.screen, TextEntryModal)
        await type_text(pilot, "s3cret")
        await keys(pilot, "enter")
        assert app.screen is screen and view.share_key == "s3cret"
        node = view.current
        assert node is not None and node.url == "https://docs.northwind.dev/?shareKey=s3cret"
        await keys(pilot, "Y")
        assert app.clipboard == "https://docs.northwind.dev/?shareKey=s3cret"
        await keys(pilot, "p")  # hidden at any width: the editor has the room, and the focus
        assert not view.display and not screen.query_one(PublishedBeside).published_visible
        assert app.focused is not None and view not in app.focused.ancestors_with_self
        assert screen.check_action("share_key", ()) is False


async def test_p_shows_the_published_view_in_place_of_the_editor_when_narrow(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    editor = pytest.importorskip("folio.tui.widgets.structure_editor")
    async with open_app(site_screen(services, state)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, SiteScreen)
        await keys(pilot, "2")
        structure = screen.query_one(editor.StructureEditor)
        view = screen.query_one(SitePublishedView)
        assert structure.display and not view.display  # 80 columns: the editor alone
        assert screen.check_action("toggle_published", ()) is True
        listed = {e.id: e.keys for e in key_entries(screen) if e.enabled}  # what ? lists
        assert listed["site.published"] == ["p"]
        await keys(pilot, "p")
        assert view.display and not structure.display and view.outline_tree.has_focus
        assert view.region.width >= 70
        assert "Published" in text_of(view.query_one(".published--summary", Static))
        await keys(pilot, "p")
        assert structure.display and not view.display
        assert app.focused is not None and structure in app.focused.ancestors
        await pilot.resize_terminal(160, 50)  # wide enough: side by side again, until p hides it
        await settle(pilot)
        assert structure.display and view.display


def published_sections(view: SitePublishedView) -> list[tuple[str, str]]:
    """The published tree's sections as shown, in order: (title, published URL)."""
    tree = view.outline_tree
    lines = [str(node.label) for n in range(tree.last_line + 1) if (node := tree.get_node_at_line(n)) is not None]
    parts = [line.split("  ") for line in lines if line.startswith("§ ")]
    return [(p[0].removeprefix("§ "), p[-1]) for p in parts]


async def test_the_published_view_follows_a_move_in_the_editor(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    editor_module = pytest.importorskip("folio.tui.widgets.structure_editor")
    async with open_app(site_screen(services, state), size=(160, 50)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, SiteScreen)
        await keys(pilot, "2")
        editor = screen.query_one(editor_module.StructureEditor)
        view = screen.query_one(SitePublishedView)
        before = published_sections(view)
        assert before[:2] == [
            ("Getting Started", "https://docs.northwind.dev/"),
            ("User Guide", "https://docs.northwind.dev/user-guide"),
        ]
        tree = editor.structure
        assert tree is not None
        while tree.nodes[editor.current or ""].title != "Getting Started":
            await keys(pilot, "down")
        await pilot.press("J")  # Getting Started one step down, after User Guide: a new default, so a plan first
        await accept_plan(pilot)
        for _ in range(20):  # the read that follows the move; bounded only so a broken build cannot hang
            if published_sections(view) != before:
                break
            await settle(pilot)
        # The new order, and the URLs that moved with it: the first section is the default now.
        assert published_sections(view)[:2] == [
            ("User Guide", "https://docs.northwind.dev/"),
            ("Getting Started", "https://docs.northwind.dev/getting-started"),
        ]
        assert published_sections(view)[2:] == before[2:]
        assert "visitors see the same" in text_of(view.query_one(".published--editable", Static))


async def test_share_key_is_not_offered_for_a_public_site(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(site_screen(services, state), size=(160, 50)) as (app, pilot):
        screen = app.screen
        await keys(pilot, "2", "s")
        assert app.screen is screen
        assert screen.check_action("share_key", ()) is None  # greyed: not a share-link site


SCHEMA_WITH_A_STRING_CLAIM = (
    '{"type": "object", "properties": {"isPro": {"type": "string"}}, "additionalProperties": false}'
)
VALID_SCHEMA = (
    '{"type": "object", "properties": {"isPro": {"type": "boolean"}, "unsigned": {"type": "object", '
    '"properties": {"likesDark": {"type": "boolean"}}, "additionalProperties": false}}, "additionalProperties": false}'
)


async def paste(app: Any, pilot: Pilot[None], text: str) -> None:
    app.copy_to_clipboard(text)
    await keys(pilot, "f7", "ctrl+v")  # select all, paste over it


async def test_adaptive_schema_is_validated_and_saved(services: Services, state: SandboxState, open_app: Any) -> None:
    sid = site_id(state)
    saved_before = state.adaptive_schemas[sid]
    async with open_app(site_screen(services, state), size=(100, 40)) as (app, pilot):
        screen = app.screen
        await keys(pilot, "3")
        editor = screen.query_one(AdaptiveSchemaEditor)
        assert editor.text_area.has_focus and '"isBeta"' in editor.text_area.text
        problems = editor.query_one(".adaptive--problems", Static)
        assert "Valid: 2 claims, 1 unsigned" in text_of(problems)
        assert [r[0] for r in rows(editor.conditions)] == [
            "visitor.claims.isBeta == true",
            "visitor.claims.isEnterprise == true",
            "visitor.claims.unsigned.prefersFrench == true",
        ]

        await paste(app, pilot, '{"type": "object",')
        assert "Not valid JSON" in text_of(problems)
        await keys(pilot, "ctrl+s")
        assert state.adaptive_schemas[sid] is saved_before

        await paste(app, pilot, SCHEMA_WITH_A_STRING_CLAIM)
        assert 'Claim "isPro" must be of type "boolean", not "string"' in text_of(problems)
        await keys(pilot, "ctrl+s")
        assert state.adaptive_schemas[sid] is saved_before
        assert editor.text_area.text == SCHEMA_WITH_A_STRING_CLAIM  # kept

        await paste(app, pilot, VALID_SCHEMA)
        assert "Valid: 1 claim, 1 unsigned (unsaved changes)" in text_of(problems)
        await keys(pilot, "ctrl+s")
        stored = state.adaptive_schemas[sid]["jsonSchema"]
        assert list(stored["properties"]) == ["isPro", "unsigned"]
        # Sent in the service's form: a claim without a description gets its name as one.
        assert stored["properties"]["unsigned"]["properties"]["likesDark"] == {
            "type": "boolean",
            "description": "likesDark",
        }
        assert [r[0] for r in rows(editor.conditions)] == [
            "visitor.claims.isPro == true",
            "visitor.claims.unsigned.likesDark == true",
        ]
        assert "(saved)" in text_of(problems)


async def test_template_condition_is_copied(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(site_screen(services, state)) as (app, pilot):
        screen = app.screen
        await keys(pilot, "3")
        editor = screen.query_one(AdaptiveSchemaEditor)
        editor.conditions.focus_list()
        await keys(pilot, "j", "y")
        assert app.clipboard == "visitor.claims.isEnterprise == true"
        await keys(pilot, "enter")
        assert app.clipboard == "visitor.claims.isEnterprise == true"


async def test_refresh_keeps_schema_edits(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(site_screen(services, state)) as (app, pilot):
        screen = app.screen
        await keys(pilot, "3")
        editor = screen.query_one(AdaptiveSchemaEditor)
        await paste(app, pilot, VALID_SCHEMA)
        editor.conditions.focus_list()
        await keys(pilot, "r")
        assert editor.text_area.text == VALID_SCHEMA
        await keys(pilot, "ctrl+r")
        assert '"isBeta"' in editor.text_area.text


async def test_a_site_without_a_schema(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(site_screen(services, state, "Internal Handbook")) as (app, pilot):
        screen = app.screen
        await keys(pilot, "3")
        editor = screen.query_one(AdaptiveSchemaEditor)
        assert "No visitor schema yet" in text_of(editor.query_one(".adaptive--status", Static))
        assert rows(editor.conditions) == []
        assert isinstance(editor.text_area, TextArea) and '"unsigned"' in editor.text_area.text
        assert isinstance(screen.query_one("#site-settings", ResourceBrowser).filter_input, Input)
