"""An organization's settings, one row each: title, email domains, hostname, default role, default content, logo,
SSO enforcement, AI, invite links and merge rules are edited in place (enter, or e, opens the setting alone with
its exact value on the service, the spec's limits checked as you type); plan, billing and trial are shown
read-only (enter says why). Turning SSO enforcement on asks for the organization's title to be typed and says
who will need SSO to sign in. ``D`` deletes an invite link by its id (the API lists none).

Keys (binding ids ``settings.*``): e / enter edit, D delete an invite link. Only admins change settings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Header, Static

from folio.services.access import OrgSetting, org_settings, why_not_admin
from folio.tui import styles_dir
from folio.tui.errors import error_message
from folio.tui.fresh import cache_first, is_cached_only
from folio.tui.modals.access_forms import InviteDeleteForm, OrgSettingForm
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row

if TYPE_CHECKING:
    from folio.models.organization import Organization
    from folio.models.site import Site
    from folio.services import Services

__all__ = ["SettingsScreen"]

COLUMNS = (Column("setting", "Setting", 16), Column("value", "Value"))
CHANGE = "change its settings"


class SettingsScreen(FolioScreen):
    """``:settings``: the settings of organization ``org_id``."""

    ROUTE: ClassVar[str | None] = "settings"
    CSS_PATH = [styles_dir() / "access.tcss"]
    AUTO_FOCUS = "ResourceList"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "edit_setting", "Edit", id="settings.edit", tooltip="Edit the setting under the cursor"),
        Binding(
            "D",
            "delete_invite",
            "Delete invite",
            id="settings.delete-invite",
            tooltip="Delete an invite link by its id or URL",
        ),
    ]

    def __init__(
        self, services: Services, org_id: str, *, query: str | None = None, trail: tuple[str, ...] = ()
    ) -> None:
        super().__init__(services, trail=trail)
        self.org_id = org_id
        self.query_text = query
        self.crumb = "Settings"
        self.org: Organization | None = None
        self.sites: list[Site] = []

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static(Content("Loading the organization…"), id="settings-summary", classes="access--summary")
        yield ResourceBrowser(COLUMNS, empty="No settings to show.", id="org-settings")
        yield Static(id="settings-help", classes="access--help")
        yield KeysFooter()

    @property
    def settings_list(self) -> ResourceBrowser:
        return self.query_one("#org-settings", ResourceBrowser)

    @property
    def setting(self) -> OrgSetting | None:
        row = self.settings_list.list.highlighted
        return row.data if row is not None else None  # type: ignore[return-value]

    def on_mount(self) -> None:
        self._draw_sub_title()
        self.settings_list.focus_list()
        self.load()

    # -- loading -----------------------------------------------------------------------------------------------------

    @work(exclusive=True, group="settings", exit_on_error=False)
    @cache_first
    async def load(self) -> None:
        browser = self.settings_list
        browser.set_error(None)
        browser.set_loading(True)
        try:
            org = await self.services.access.organization(self.org_id)
        except Exception as exc:
            if not is_cached_only():  # a first paint from the cache that missed paints nothing
                browser.set_error(error_message(exc, doing="Could not load the settings", hint="Press r to try again."))
            return
        self.sites = await self.services.access.sites(self.org_id)
        self.show(org)

    def show(self, org: Organization) -> None:
        self.org = org
        role = "you are an admin" if org.permissions.admin else "read-only: only admins change them"
        summary = Content.assemble((safe(org.title or org.id, limit=120).plain, "bold"), f" · {role}")
        self.query_one("#settings-summary", Static).update(summary)
        browser = self.settings_list
        browser.set_loading(False)
        keep = self.setting.key if self.setting is not None else None
        browser.set_rows((self._row(s) for s in org_settings(org, self.sites)), keep=keep)
        if self.query_text:
            browser.list.filter(self.query_text)
            self.query_text = None
        self._draw_help()
        self.refresh_bindings()

    @staticmethod
    def _row(setting: OrgSetting) -> Row:
        shown = safe(setting.shown.replace("\n", " "), limit=300)
        return Row(key=setting.key, cells=[setting.label, shown], style="" if setting.editable else "dim", data=setting)

    def _draw_help(self) -> None:
        setting = self.setting
        text = ""
        if setting is not None:
            how = "Enter edits it." if setting.editable else "Enter says why it cannot be edited here."
            text = f"{setting.label}: {setting.help} {how}"
            if setting.key == "inviteLinks":
                text += " D deletes one invite link by its id or URL (the API offers no list of them)."
        self.query_one("#settings-help", Static).update(safe(text, limit=500))

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        self._draw_help()
        self.refresh_bindings()

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        self.action_edit_setting()

    # -- editing -----------------------------------------------------------------------------------------------------

    def why_not(self, action: str) -> str | None:
        if action == "edit_setting":
            setting = self.setting
            if setting is None:
                return "No setting is selected."
            if not setting.editable:
                return f"{setting.label} is {setting.help}"
            return why_not_admin(self.org, CHANGE)
        if action == "delete_invite":
            return why_not_admin(self.org, "delete invite links")
        return super().why_not(action)

    def action_edit_setting(self) -> None:
        reason = self.why_not("edit_setting")
        setting, org = self.setting, self.org
        if reason or setting is None or org is None:
            self.notify(reason or "Nothing to edit here.", severity="warning", markup=False)
            return

        def saved(org: Organization | None) -> None:
            if org is None:
                self.notify(f"{setting.label}: nothing was changed.", markup=False)
                return
            self.show(org)
            now = next((s.shown for s in org_settings(org, self.sites) if s.key == setting.key), "")
            self.notify(f"{setting.label} saved: {safe(now, limit=200).plain}", markup=False)

        self.app.push_screen(OrgSettingForm(self.services.access, org, setting), saved)

    def action_delete_invite(self) -> None:
        def deleted(invite_id: str | None) -> None:
            if invite_id is None:
                self.notify("No invite link was deleted.", markup=False)
            else:
                self.notify(f"Invite link {safe(invite_id, limit=60).plain} deleted.", markup=False)

        self.app.push_screen(InviteDeleteForm(self.services.access, self.org_id), deleted)

    # -- what is selected ------------------------------------------------------------------------------------------

    def current_item(self) -> Item | None:
        org = self.org
        if org is None:
            return None
        return Item(org.id, org.urls.app if org.urls else None, "organization")

    def action_refresh(self) -> None:
        self.load()
