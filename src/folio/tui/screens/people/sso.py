"""Single sign-on of an organization: its SAML providers (label, status, SSO URL, entity ID, default team and
role) with what the identity provider needs to know about the service beside the one under the cursor (ACS URL,
start URL, entity ID: ``y`` copies one), and the SSO sign-in options the organization offers.

Keys (binding ids ``sso.*``): 1 providers, 2 sign-in options; n adds a provider, e (or enter) edits it, D deletes
it after its label is typed, y copies a value for the identity provider. Only admins manage providers: the keys
say so to anyone else. Every change ends in a message and reloads both lists.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widgets import Header, Static, TabbedContent, TabPane

from folio.services import format
from folio.services.errors import ServiceError
from folio.services.people.access import CertificateProblem, certificate_note, read_certificate, why_not_admin
from folio.services.sites.sites import Choice
from folio.tui import styles_dir
from folio.tui.clipboard import copy
from folio.tui.declare import Route
from folio.tui.errors import notify_error
from folio.tui.modals.access_forms import SamlProviderForm
from folio.tui.modals.site_forms import ChoiceModal, TypedConfirmModal
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.screens.panel_screen import PanelScreen
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.resource_list import Column, ResourceList, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from folio.models.member import SamlProvider, SsoLogin
    from folio.models.organization import Organization
    from folio.services import Services

__all__ = ["CopyForIdp", "LoginsPanel", "ProvidersPanel", "SsoScreen", "provider_detail"]

SSO = Route(
    kind="sso",
    noun="single sign-on",
    plural="single sign-on",
    screen="SsoScreen",
    verbs=("sso", "saml"),
    find="organization",
    key="I",
    label="Single sign-on",
    hint="SAML providers and sign-in options",
    order=30,
    summary="the organization's SAML providers and the SSO sign-in options they offer",
)

MANAGE = "manage SAML providers"
DASH = format.DASH


def _key(key: str, action: str, label: str, name: str, tooltip: str, *, show: bool = True) -> Binding:
    return Binding(key, action, label, show=show, id=f"sso.{name}", tooltip=tooltip)


def _missing(provider: SamlProvider) -> list[str]:
    wanted = (("entity ID", provider.entity_id), ("certificate", provider.certificate), ("SSO URL", provider.sso_url))
    return [name for name, value in wanted if not value]


def provider_detail(provider: SamlProvider | None) -> Content:
    """The pane under the providers: what the identity provider needs, and the certificate read."""
    if provider is None:
        return Content("No provider is selected.")
    status = provider.status
    missing = _missing(provider)
    if status != "active" and missing:
        status += " (needs " + ", ".join(missing) + ")"
    service = provider.service
    lines: list[Content] = [
        Content.assemble(
            (safe(provider.label or provider.id, limit=30).plain, "bold"),
            " · ",
            safe(status, limit=80),
            f" · created {format.when(provider.created_at)}",
        ),
        Content.styled("For the identity provider (y copies):", "dim"),
    ]
    for label, value in (
        ("ACS URL", service.acs_url if service else None),
        ("Start URL", service.start_url if service else None),
        ("Entity ID", service.entity_id if service else None),
    ):
        lines.append(Content.assemble(f"  {label:<11}", safe(value, limit=300) if value else DASH))
    cert = (provider.certificate or "").strip()
    if not cert:
        lines.append(Content.assemble("Certificate  ", ("none yet", "dim")))
    else:
        try:
            said, warn = certificate_note(read_certificate(cert))
        except CertificateProblem as exc:
            said, warn = str(exc), True
        lines.append(Content.assemble("Certificate  ", (safe(said, limit=300).plain, "bold" if warn else "")))
    return Content("\n").join(lines)


class CopyForIdp(ChoiceModal):
    """Pick the value to copy for the identity provider: one line says how (enter copies, esc closes)."""

    HOW = "enter copies the value under the cursor · esc closes"

    def compose_intro(self) -> ComposeResult:
        yield from ()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(".form--help", Static).update(Content(self.HOW))


class ProvidersPanel(ResourcePanel["SamlProvider"]):
    """The organization's SAML providers, with their keys (admins only)."""

    org_id: str

    COLUMNS = (
        Column("label", "Provider", 18, title=True),
        Column("status", "Status", 7),
        Column("sso", "SSO URL"),
        Column("entity", "Entity ID"),
        Column("team", "Default team", 12),
        Column("role", "Role", 6),
    )
    EMPTY = "No SAML provider yet. Press n to add one."
    NOUN = "SAML provider"
    FAILED = "Could not load the SAML providers"
    BINDINGS: ClassVar[list[BindingType]] = [
        _key("n", "new_provider", "New", "new", "Add a SAML provider"),
        _key("e", "edit_provider", "Edit", "edit", "Edit the provider under the cursor"),
        _key("D", "delete_provider", "Delete", "delete", "Delete the provider (type its label)"),
        _key("y", "copy_for_idp", "Copy", "copy", "Copy the ACS URL, start URL, entity ID or id", show=False),
    ]

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.org: Organization | None = None

    def hint(self) -> str:
        return "n adds · e edits · D deletes · y copies for the identity provider · / filters"

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield Static(Content(""), id="sso-detail", classes="access--detail")

    def draw_detail(self) -> None:
        for detail in self.query("#sso-detail").results(Static):
            detail.update(provider_detail(self.current) if self.items or self.current else Content(""))
            detail.display = self.current is not None

    def loaded(self, items: list[SamlProvider], *, complete: bool) -> None:
        super().loaded(items, complete=complete)
        self.draw_detail()

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        super().on_resource_list_highlighted(event)
        self.draw_detail()

    def fetch(self) -> AsyncIterator[Sequence[SamlProvider]]:
        return self.services.access.providers_pages(self.org_id)

    def row(self, p: SamlProvider) -> Row:
        team = p.default_team.title if p.default_team else None
        return Row(
            key=p.id,
            cells=[
                safe(p.label or p.id, limit=30),
                safe(p.status, limit=12),
                safe(p.sso_url, limit=300) if p.sso_url else DASH,
                safe(p.entity_id, limit=300) if p.entity_id else DASH,
                safe(team, limit=64) if team else DASH,
                safe(p.default_role, limit=10) if p.default_role else "guest",
            ],
            style="" if p.status == "active" else "dim",
            data=p,
        )

    def item_of(self, p: SamlProvider) -> Item | None:
        return Item(p.id, None, "SAML provider")

    def why_not(self, action: str) -> str | None:
        if action in ("new_provider", "edit_provider", "delete_provider"):
            reason = why_not_admin(self.org, MANAGE)
            if reason:
                return reason
        if action in ("edit_provider", "delete_provider", "copy_for_idp"):
            return self.needs_current(action)
        return None

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        event.prevent_default()  # enter edits here: ResourcePanel's handler would say it opens nothing
        reason = self.why_not("edit_provider")
        if reason:
            self.notify(reason, severity="warning", markup=False)
            return
        self.action_edit_provider()

    # -- actions ---------------------------------------------------------------------------------------------------

    def action_new_provider(self) -> None:
        self._open_form(None)

    def action_edit_provider(self) -> None:
        if self.current is not None:
            self._open_form(self.current)

    @work(exclusive=True, group="sso-form", exit_on_error=False)
    async def _open_form(self, provider: SamlProvider | None) -> None:
        teams = await self.services.access.teams(self.org_id)
        form = SamlProviderForm(self.services.access, self.org_id, provider=provider, teams=teams)

        def saved(saved: SamlProvider | None) -> None:
            if saved is None:
                self.notify("No SAML provider was changed.", markup=False)
                return
            verb = "updated" if provider is not None else "added"
            label = safe(saved.label, limit=30).plain
            self.notify(f"SAML provider {verb}: {label} ({saved.status}).", markup=False)
            self._changed(keep=saved.id)

        self.app.push_screen(form, saved)

    def action_delete_provider(self) -> None:
        provider = self.current
        if provider is None:
            return
        label = provider.label or provider.id
        title = Content.assemble("Delete the SAML provider ", (safe(label, limit=30).plain, "bold"), "?")
        body = Content(
            "Members who sign in through it will no longer be able to"
            + (" (it is active now)." if provider.status == "active" else ".")
        )

        def confirmed(ok: bool | None) -> None:
            if ok:
                self._delete(provider)
            else:
                self.notify("Nothing was deleted.", markup=False)

        self.app.push_screen(TypedConfirmModal(title, label, body=body, noun="label"), confirmed)

    @work(exclusive=False, group="sso-delete", exit_on_error=False)
    async def _delete(self, provider: SamlProvider) -> None:
        name = safe(provider.label or provider.id, limit=30).plain
        try:
            await self.services.access.delete_provider(self.org_id, provider.id)
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not delete the SAML provider {name}")
            return
        self.notify(f"SAML provider deleted: {name}.", markup=False)
        self._changed()

    def _changed(self, keep: str | None = None) -> None:
        self.reload(keep=keep)
        for logins in self.screen.query(LoginsPanel):
            logins.reload()

    def action_copy_for_idp(self) -> None:
        provider = self.current
        if provider is None:
            return
        service = provider.service
        values = {
            "acs": ("ACS URL", service.acs_url if service else None, True),
            "start": ("start URL", service.start_url if service else None, True),
            "entity": ("entity ID", service.entity_id if service else None, False),
            "id": ("provider id", provider.id, False),
        }
        choices = [Choice(key, f"{label}: {value or DASH}") for key, (label, value, _) in values.items()]

        async def submit(key: str) -> None:
            label, value, is_url = values[key]
            copy(self.app, value, what=label, url=is_url)

        self.app.push_screen(CopyForIdp("Copy for the identity provider", choices, submit))


class LoginsPanel(ResourcePanel["SsoLogin"]):
    """The SSO sign-in options the organization offers (its active providers)."""

    org_id: str

    COLUMNS = (Column("label", "Sign-in option", 24), Column("start", "Start URL"))
    EMPTY = "No SSO sign-in is offered: a provider is active once it has an entity ID, a certificate and an SSO URL."
    NOUN = "sign-in option"
    FAILED = "Could not load the SSO sign-in options"

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id

    def hint(self) -> str:
        return "What members see on the sign-in page · o shows and Y copies the start URL"

    async def fetch(self) -> AsyncIterator[Sequence[SsoLogin]]:
        yield await self.services.access.logins(self.org_id)

    def row(self, login: SsoLogin) -> Row:
        start = safe(login.start_url, limit=300) if login.start_url else DASH
        return Row(key=login.id, cells=[safe(login.label or login.id, limit=30), start], data=login)

    def item_of(self, login: SsoLogin) -> Item | None:
        return Item(login.id, login.start_url, "SSO sign-in option")


class SsoScreen(PanelScreen[ProvidersPanel]):
    """``:sso``: the SAML providers of organization ``org_id`` (the screen's panel, in the first tab) and the SSO
    sign-in options it offers (a second panel, in the second tab): ``compose`` puts them in tabs. ``words`` (from
    ``:sso okta``) filter the providers."""

    org_id: str

    ROUTE: ClassVar[str | None] = SSO.kind
    CSS_PATH = [styles_dir() / "access.tcss"]
    PANEL = ProvidersPanel
    CRUMB = "Single sign-on"
    BINDINGS: ClassVar[list[BindingType]] = [
        _key("1", "show_tab('providers')", "Providers", "tab-providers", "Show the SAML providers", show=False),
        _key("2", "show_tab('logins')", "Sign-in", "tab-logins", "Show the SSO sign-in options", show=False),
    ]

    org: Organization | None = None
    """The organization, once read: who may manage its providers."""

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        with TabbedContent(initial="providers", id="sso-tabs"):
            with TabPane("1 Providers", id="providers"):
                yield self.make_panel()
            with TabPane("2 Sign-in options", id="logins"):
                yield LoginsPanel(self.services, self.org_id, id="sso-logins")
        yield KeysFooter()

    @property
    def providers(self) -> ProvidersPanel:
        return self.panel

    @property
    def logins(self) -> LoginsPanel:
        return self.query_one(LoginsPanel)

    @property
    def tabs(self) -> TabbedContent:
        return self.query_one("#sso-tabs", TabbedContent)

    def on_mount(self) -> None:  # PanelScreen's runs too (Textual calls both): it applies the words
        self.providers.browser.focus_list()
        self.load_organization()

    @work(exclusive=True, group="sso-organization", exit_on_error=False)
    async def load_organization(self) -> None:
        try:
            self.org = await self.services.access.organization(self.org_id)
        except ServiceError as exc:
            notify_error(self, exc, doing="Could not read the organization (who may manage SSO)")
            return
        self.providers.org = self.org
        self.refresh_bindings()

    def action_show_tab(self, tab: str) -> None:
        self.tabs.active = tab
        panel = self.providers if tab == "providers" else self.logins
        self.call_after_refresh(panel.browser.focus_list)

    def current_item(self) -> Item | None:
        panel = self.providers if self.tabs.active == "providers" else self.logins
        return panel.current_item()

    def action_refresh(self) -> None:
        self.load_organization()
        self.providers.reload()
        self.logins.reload()
