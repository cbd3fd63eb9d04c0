"""An organization's settings and its invite links, in two tabs.

1 Settings: one row each: title, email domains, hostname, default role, default content, logo, SSO enforcement,
AI, invite links and merge rules are edited in place (enter, or e, opens the setting alone with its exact value on
the service, the spec's limits checked as you type); plan, billing and trial are shown read-only (enter says why).
Turning SSO enforcement on asks for the organization's title to be typed and says who will need SSO to sign in
(your email, when it would lock you out). ``D`` deletes an invite link by its id or URL, and says when no link
has that id.

2 Invite links: the organization's invite links (what each gives, to what, whether it is redundant for you);
n makes one, e changes its role, D deletes it. ``i`` invites people by email from either tab. A service that has
no invite links is told so in words.

Keys (binding ids ``settings.*`` and ``invites.*``): 1 / 2 tabs, e / enter edit, D delete an invite link, i invite
by email; n, e, D on the invite links tab. Only admins change settings and invites.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Hashable, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.dom import NoScreen
from textual.widgets import Header, Static, TabbedContent, TabPane

from folio.services import format
from folio.services.people.access import (
    INVITES_NOT_OFFERED,
    AccessError,
    InviteDeletion,
    InvitesNotOffered,
    OrgSetting,
    org_settings,
    why_not_admin,
)
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.errors import notify_error
from folio.tui.modals.access_forms import InviteDeleteForm, InviteLinkForm, InvitePeopleForm, OrgSettingForm
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.screens.panel_screen import PanelScreen
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.resource_browser import ResourceBrowser
from folio.tui.widgets.resource_list import Column, ResourceList, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from folio.models.invite import InvitedUsers, InviteLink
    from folio.models.organization import Organization
    from folio.models.site import Site
    from folio.services import Services

__all__ = ["InviteLinksPanel", "SettingsPanel", "SettingsScreen", "deleted_words"]

SETTINGS = Route(
    kind="settings",
    noun="organization settings",
    plural="organization settings",
    screen="SettingsScreen",
    verbs=("settings",),
    find="organization",
    key="comma",
    label="Settings",
    hint="The organization's settings and invite links",
    order=40,
    summary="the organization's settings: title, domains, roles, SSO, AI, invite links, merge rules",
)

COLUMNS = (Column("setting", "Setting", 16), Column("value", "Value"))
CHANGE = "change its settings"
INVITES = "manage invite links"


def deleted_words(deletion: InviteDeletion) -> str:
    """What a delete of an invite link did, in words: deleted, or no link had that id."""
    shown = safe(deletion.invite_id, limit=60).plain
    if deletion.existed:
        return f"Invite link {shown} deleted."
    return f"No invite link has that id ({shown}): nothing was deleted."


class SettingsPanel(ResourcePanel["OrgSetting"]):
    """The organization's settings, one row each, read from the organization (and its sites, for the default
    content): a line about it above (its title, whether you may change them), what the setting under the cursor
    is below. Enter is the screen's ``e``: it edits the setting."""

    org_id: str

    COLUMNS = COLUMNS
    EMPTY = "No settings to show."
    NOUN = "setting"
    FAILED = "Could not load the settings"

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.org: Organization | None = None
        self.sites: list[Site] = []

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield Static(id="settings-help", classes="access--help")

    def hint(self) -> Content:
        org = self.org
        if org is None:
            return Content("Loading the organization…")
        role = "you are an admin" if org.permissions.admin else "read-only: only admins change them"
        return Content.assemble((safe(org.title or org.id, limit=120).plain, "bold"), f" · {role}")

    async def fetch(self) -> AsyncIterator[Sequence[OrgSetting]]:
        org = await self.services.access.organization(self.org_id)
        self.sites = await self.services.access.sites(self.org_id)
        self.org = org
        yield org_settings(org, self.sites)

    def row(self, setting: OrgSetting) -> Row:
        shown = safe(setting.shown.replace("\n", " "), limit=300)
        return Row(key=setting.key, cells=[setting.label, shown], style="" if setting.editable else "dim", data=setting)

    def loaded(self, items: list[OrgSetting], *, complete: bool) -> None:
        super().loaded(items, complete=complete)
        self.shown()

    def show(self, org: Organization) -> None:
        """The organization as a write left it: its settings shown again, without a load."""
        self.org = org
        current = self.current
        self.browser.set_rows(
            (self.row(s) for s in org_settings(org, self.sites)), keep=current.key if current else None, staged=False
        )
        self.shown()

    def shown(self) -> None:
        """The organization is read: the line about it, the help, and who may manage the invite links."""
        try:
            screen = self.screen
        except NoScreen:  # taken down while loading
            return
        for invites in screen.query(InviteLinksPanel):
            invites.org = self.org
        self.draw_hint()
        self.draw_help()
        screen.refresh_bindings()

    def draw_help(self) -> None:
        setting = self.current
        text = ""
        if setting is not None:
            how = "Enter edits it." if setting.editable else "Enter says why it cannot be edited here."
            text = f"{setting.label}: {setting.help} {how}"
            if setting.key == "inviteLinks":
                text += " D deletes one invite link by its id or URL; tab 2 lists them."
        for line in self.query("#settings-help").results(Static):
            line.update(safe(text, limit=500))

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        super().on_resource_list_highlighted(event)
        self.draw_help()

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.prevent_default()  # not a route to open: the screen's handler edits the setting


class InviteLinksPanel(ResourcePanel["InviteLink"]):
    """The organization's invite links (admins only): what each gives and to what; n, e, D manage them."""

    org_id: str

    COLUMNS = (
        Column("id", "Invite id", 22),
        Column("gives", "Gives", 8),
        Column("to", "To"),
        Column("redundant", "Redundant", 9),
    )
    EMPTY = "No invite link yet. Press n to make one, i to invite people by email."
    NOUN = "invite link"
    FAILED = "Could not load the invite links"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_link", "New link", id="invites.new", tooltip="Make an invite link to the organization"),
        Binding("e", "edit_link", "Change", id="invites.edit", tooltip="Change the role the link gives"),
        Binding("D", "delete_link", "Delete", id="invites.delete", tooltip="Delete the invite link under the cursor"),
    ]

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.org: Organization | None = None
        self.not_offered = False
        """The service answered that it has no invite links."""

    def hint(self) -> str:
        if self.not_offered:
            return ""
        return "n new link · e changes its role · D deletes · i invites people by email"

    def topics(self) -> tuple[Hashable, ...]:
        return (("invites", self.org_id),)

    async def fetch(self) -> AsyncIterator[Sequence[InviteLink]]:
        try:
            async for page in self.services.access.invite_link_pages(self.org_id):
                yield page
        except InvitesNotOffered:
            self.not_offered = True
            raise

    def loaded(self, items: list[InviteLink], *, complete: bool) -> None:
        if self.not_offered:
            self.browser.set_error(Content(INVITES_NOT_OFFERED))
            self.draw_hint()
        super().loaded(items, complete=complete)

    def row(self, link: InviteLink) -> Row:
        if link.kind == "organization":
            to = "the organization"
        else:
            to = f"{link.kind}: {safe(link.target_title or format.DASH, limit=120).plain}"
        return Row(
            key=link.id,
            cells=[
                safe(link.id, limit=60),
                safe(link.access, limit=10) if link.access else "guest",
                to,
                "yes" if link.redundant else format.DASH,
            ],
            data=link,
        )

    def item_of(self, link: InviteLink) -> Item | None:
        return Item(link.id, None, "invite link")

    def why_not(self, action: str) -> str | None:
        if action in ("new_link", "edit_link", "delete_link"):
            if self.not_offered:
                return INVITES_NOT_OFFERED
            reason = why_not_admin(self.org, INVITES)
            if reason:
                return reason
        if action in ("edit_link", "delete_link"):
            return self.needs_current(action)
        return None

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        event.prevent_default()  # enter edits here: ResourcePanel's handler would say it opens nothing
        reason = self.why_not("edit_link")
        if reason:
            self.notify(reason, severity="warning", markup=False)
            return
        self.action_edit_link()

    def action_new_link(self) -> None:
        self._open(None)

    def action_edit_link(self) -> None:
        if self.current is not None:
            self._open(self.current)

    def _open(self, link: InviteLink | None) -> None:
        def saved(saved: InviteLink | None) -> None:
            if saved is None:
                self.notify("No invite link was changed.", markup=False)
                return
            gives = saved.access or "guest"
            verb = "made" if link is None else "changed"
            self.notify(f"Invite link {verb}: {safe(saved.id, limit=60).plain} gives {gives}.", markup=False)
            self.reload(keep=saved.id)

        self.app.push_screen(InviteLinkForm(self.services.access, self.org_id, link=link), saved)

    def action_delete_link(self) -> None:
        link = self.current
        if link is None:
            return
        shown = safe(link.id, limit=60).plain
        title = Content.assemble("Delete the invite link ", (shown, "bold"), "?")
        body = f"It gives {link.access or 'guest'}. Whoever holds it can no longer join with it."

        def confirmed(ok: bool | None) -> None:
            if ok:
                self._delete(link)
            else:
                self.notify("Nothing was deleted.", markup=False)

        self.app.push_screen(ConfirmModal(title, body, accept_key="y", accept_label="Delete"), confirmed)

    @work(exclusive=False, group="invite-delete", exit_on_error=False)
    async def _delete(self, link: InviteLink) -> None:
        try:
            deletion = await self.services.access.delete_invite(self.org_id, link.id)
        except (AccessError, InvitesNotOffered) as exc:
            notify_error(self, exc, doing=f"Could not delete the invite link {safe(link.id, limit=60).plain}")
            self.reload()
            return
        self.notify(deleted_words(deletion), markup=False)
        self.reload()


class SettingsScreen(PanelScreen[SettingsPanel]):
    """``:settings``: the settings of organization ``org_id`` (the screen's panel, in the first tab) and its invite
    links (a second panel, in the second tab): ``compose`` puts them in tabs. ``words`` (from ``:settings host``)
    filter the settings."""

    org_id: str

    ROUTE: ClassVar[str | None] = SETTINGS.kind
    CSS_PATH = [styles_dir() / "access.tcss"]
    PANEL = SettingsPanel
    CRUMB = "Settings"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "1", "show_tab('settings')", "Settings", id="settings.tab-settings", show=False, tooltip="Show the settings"
        ),
        Binding(
            "2",
            "show_tab('invites')",
            "Invite links",
            id="settings.tab-invites",
            show=False,
            tooltip="Show the invite links",
        ),
        Binding("e", "edit_setting", "Edit", id="settings.edit", tooltip="Edit the setting under the cursor"),
        Binding(
            "D",
            "delete_invite",
            "Delete invite",
            id="settings.delete-invite",
            tooltip="Delete an invite link by its id or URL",
        ),
        Binding("i", "invite_people", "Invite", id="settings.invite", tooltip="Invite people by email"),
    ]

    def make_panel(self) -> SettingsPanel:
        return SettingsPanel(self.services, self.org_id, id="org-settings")  # (#settings: the first tab)

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        with TabbedContent(initial="settings", id="settings-tabs"):
            with TabPane("1 Settings", id="settings"):
                yield self.make_panel()
            with TabPane("2 Invite links", id="invites"):
                yield InviteLinksPanel(self.services, self.org_id, id="invite-links")
        yield KeysFooter()

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#settings-tabs", TabbedContent)

    @property
    def invites(self) -> InviteLinksPanel:
        return self.query_one(InviteLinksPanel)

    def action_show_tab(self, tab: str) -> None:
        self.tabs.active = tab
        focus = self.settings_list.focus_list if tab == "settings" else self.invites.browser.focus_list
        self.call_after_refresh(focus)
        self.refresh_bindings()

    @property
    def settings_list(self) -> ResourceBrowser:
        return self.panel.browser

    @property
    def org(self) -> Organization | None:
        """The organization, once read (who may change what)."""
        return self.panel.org

    @property
    def setting(self) -> OrgSetting | None:
        return self.panel.current

    def on_mount(self) -> None:  # PanelScreen's runs too (Textual calls both): it applies the words
        self.settings_list.focus_list()

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        self.refresh_bindings()

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        self.action_edit_setting()

    def show(self, org: Organization) -> None:
        """The organization as a write left it: its settings shown again (without a load)."""
        self.panel.show(org)

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
        if action == "invite_people":
            if self.invites.not_offered:
                return INVITES_NOT_OFFERED
            return why_not_admin(self.org, "invite people")
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
            now = next((s.shown for s in org_settings(org, self.panel.sites) if s.key == setting.key), "")
            self.notify(f"{setting.label} saved: {safe(now, limit=200).plain}", markup=False)

        self.app.push_screen(OrgSettingForm(self.services.access, org, setting), saved)

    def action_delete_invite(self) -> None:
        def deleted(deletion: InviteDeletion | None) -> None:
            if deletion is None:
                self.notify("No invite link was deleted.", markup=False)
                return
            self.notify(deleted_words(deletion), markup=False)
            self.invites.reload_if_started()

        self.app.push_screen(InviteDeleteForm(self.services.access, self.org_id), deleted)

    def action_invite_people(self) -> None:
        reason = self.why_not("invite_people")
        if reason:
            self.notify(reason, severity="warning", markup=False)
            return
        default = self.org.default_role if self.org is not None else None

        def invited(result: InvitedUsers | None) -> None:
            if result is None:
                self.notify("Nobody was invited.", markup=False)
                return
            said = f"Invited {format.count(result.invited, 'person', 'people')}."
            if result.failed_sso_emails:
                failed = ", ".join(result.failed_sso_emails[:5])
                said += f" Not made SSO members (they belong to another organization): {failed}."
            self.notify(safe(said, limit=400).plain, markup=False)

        self.app.push_screen(InvitePeopleForm(self.services.access, self.org_id, default_role=default), invited)

    # -- what is selected ------------------------------------------------------------------------------------------

    def current_item(self) -> Item | None:
        if self.tabs.active == "invites":
            return self.invites.current_item()
        org = self.org
        if org is None:
            return None
        return Item(org.id, org.urls.app if org.urls else None, "organization")

    def action_refresh(self) -> None:
        self.panel.reload()
        self.invites.reload_if_started()
