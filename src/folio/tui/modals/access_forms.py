"""The access screens' forms: a SAML provider (its certificate read as you type), one setting of an organization
(turning SSO enforcement on asks for the typed title first), invite links (make one, change its role, delete one
by its id), inviting people by email, and joining an organization by email domain.

SamlProviderForm    create (``provider=None``) or edit a provider; an edit sends only what changed -> SamlProvider
OrgSettingForm      one setting, opened with the service's exact value -> Organization
InviteDeleteForm    an invite link's id (or its URL) -> InviteDeletion (whether a link had that id)
InviteLinkForm      create (``link=None``) or change an invite link's role -> InviteLink
InvitePeopleForm    invite people by email (emails, role, SSO) -> InvitedUsers
JoinConfirm         "Join <title>?" (y joins, n or esc does not) -> bool; :func:`confirm_join` asks and joins
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from textual import work
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from folio.models.common import ROLES
from folio.services.errors import ServiceError
from folio.services.people.access import (
    INVITE_EMAILS_MAX,
    NO_ROLE,
    NONE,
    CertificateProblem,
    OrgSetting,
    certificate_note,
    check_invite_emails,
    check_org_setting,
    check_provider,
    org_settings,
    provider_fields,
    read_certificate,
    setting_change,
    why_not_join,
)
from folio.tui.errors import notify_error
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.form import Field, FormModal
from folio.tui.modals.site_forms import TypedConfirmModal
from folio.tui.safe import safe

if TYPE_CHECKING:
    from folio.models.invite import InvitedUsers, InviteLink
    from folio.models.member import SamlProvider, Team
    from folio.models.organization import Organization
    from folio.services.people.access import AccessService, InviteDeletion

__all__ = [
    "InviteDeleteForm",
    "InviteLinkForm",
    "InvitePeopleForm",
    "JoinConfirm",
    "OrgSettingForm",
    "SamlProviderForm",
    "confirm_join",
]

ROLE_CHOICES: Sequence[tuple[str, str]] = (*((role, role) for role in ROLES), ("none: guests", NO_ROLE))


# --- SAML provider -----------------------------------------------------------------------------------------------


class SamlProviderForm(FormModal["SamlProvider"]):
    """A SAML provider of ``org_id``: label, SSO URL (https), entity ID, certificate (PEM or base64 DER, read
    as an X.509 certificate as it is typed: its subject and expiry show under it), default team and role."""

    DEFAULT_CSS = """
    SamlProviderForm #certificate-note { height: auto; padding-left: 14; color: $text-muted; }
    SamlProviderForm #certificate-note.-warn { color: $text-warning; text-style: bold; }
    """
    FAILED = "Not saved"

    def __init__(
        self, access: AccessService, org_id: str, *, provider: SamlProvider | None = None, teams: Sequence[Team] = ()
    ) -> None:
        self.access = access
        self.org_id = org_id
        self.provider = provider
        self.teams = list(teams)
        title = (
            Content.assemble("Edit the SAML provider ", (safe(provider.label, limit=30).plain, "bold"))
            if provider is not None
            else Content("New SAML provider")
        )
        key = f"saml:{org_id}/{provider.id if provider else 'new'}"
        values: dict[str, Any] = provider_fields(provider)
        values.setdefault("default_role", NO_ROLE)
        team = provider.default_team if provider is not None else None
        if team is not None and all(t.id != team.id for t in self.teams):
            self.teams.append(team)
        super().__init__(values=values, draft=key, where="a SAML provider", title=title)

    def fields(self) -> Sequence[Field]:
        teams = [("No default team", NONE), *((t.title or t.id, t.id) for t in self.teams)]
        roles = [*((role, role) for role in ROLES), ("none: guests", NO_ROLE)]
        return (
            Field("label", "Label", placeholder="1..30 characters (Okta, Entra ID)"),
            Field("sso_url", "SSO URL", placeholder="https://… (the identity provider's sign-in URL)"),
            Field("entity_id", "Entity ID", placeholder="the identity provider's issuer (at most 1024)"),
            Field("certificate", "Certificate", kind="text", height=5, hint="PEM, or the base64 of the DER bytes"),
            Field("default_team", "Default team", kind="select", choices=teams),
            Field("default_role", "Default role", kind="select", choices=roles),
        )

    def on_mount(self) -> None:
        note = Static(id="certificate-note")
        self.query_one("#problem-certificate").parent.mount(  # type: ignore[union-attr]
            note, after=self.query_one("#problem-certificate")
        )
        super().on_mount()
        self.call_after_refresh(self._note_certificate)

    @property
    def editing(self) -> bool:
        return self.provider is not None

    def changed(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The fields whose value differs from the service's (an edit sends only these)."""
        return {k: v for k, v in values.items() if v != self.initial.get(k)}

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        if not self.editing:
            return check_provider(values)
        changed = self.changed(values)
        if not changed:
            return {"label": "Nothing changed yet."}
        return check_provider(values, only=set(changed))

    def live_check(self) -> bool:
        ok = super().live_check()
        self._note_certificate()
        return ok

    def _note_certificate(self) -> None:
        notes = self.query("#certificate-note").results(Static)
        note = next(iter(notes), None)
        if note is None:
            return
        text = str(self.values().get("certificate") or "").strip()
        warn = False
        if not text:
            said = "No certificate: the provider stays pending until it has one."
        else:
            try:
                said, warn = certificate_note(read_certificate(text))
            except CertificateProblem as exc:
                said = f"{exc}" if not self.touched else ""  # once typing, the problem line says it
                warn = bool(said)
        note.update(safe(said, limit=400))
        note.set_class(warn, "-warn")

    async def submit(self, values: Mapping[str, Any]) -> SamlProvider:
        if self.provider is None:
            return await self.access.create_provider(self.org_id, values)
        return await self.access.update_provider(self.org_id, self.provider.id, self.changed(values))

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        if self.provider is None:
            return await self.access.find_provider(self.org_id, values)
        return await self.access.find_update(self.org_id, self.provider.id, self.changed(values))


# --- one setting of an organization ------------------------------------------------------------------------------


class OrgSettingForm(FormModal["Organization"]):
    """One setting of the organization, opened with its exact value on the service; the spec's limits are
    checked as it is typed. Turning SSO enforcement on first asks for the organization's title to be typed,
    saying who will need SSO to sign in."""

    FAILED = "Not saved"

    def __init__(self, access: AccessService, org: Organization, setting: OrgSetting) -> None:
        self.access = access
        self.org = org
        self.setting = setting
        self.confirmed = False
        """Turning SSO enforcement on: the title was typed."""
        title = Content.assemble((setting.label, "bold"), " · ", setting.help)
        super().__init__(
            values={"value": setting.current},
            draft=f"org-setting:{org.id}/{setting.key}",
            where=f"the setting {setting.label} of an organization",
            title=title,
        )

    def fields(self) -> Sequence[Field]:
        s = self.setting
        if s.kind == "toggle":
            return (Field("value", s.label, kind="check", hint=f"{s.label}: on"),)
        if s.kind == "choice":
            # A drop-down opens on the current value (a radio set would start on its first button).
            return (Field("value", s.label, kind="select", choices=s.choices),)
        if s.kind == "json":
            return (Field("value", s.label, kind="text", height=10),)
        return (Field("value", s.label, placeholder=s.help),)

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        problem = check_org_setting(self.setting.key, values.get("value"))
        return {"value": problem} if problem else {}

    def action_send(self) -> None:
        turning_on = self.setting.key == "sso" and bool(self.values().get("value")) and not self.org.sso
        if turning_on and not self.confirmed:
            if not self.sending:
                self._confirm_sso()
            return
        super().action_send()

    @work(exclusive=True, group="sso-impact", exit_on_error=False)
    async def _confirm_sso(self) -> None:
        """Say who will need SSO to sign in, and ask for the title to be typed; only then send."""
        self.say(Content("Counting who signs in without SSO…"))
        impact = await self.access.sso_impact(self.org.id)
        name = self.org.title or self.org.id
        title = Content.assemble("Enforce SSO for ", (safe(name, limit=120).plain, "bold"), "?")
        expected = name
        if impact.confirm_word is not None:
            title = Content.assemble(
                "Enforce SSO for ", (safe(name, limit=120).plain, "bold"), " and lock yourself out?"
            )
            expected = impact.confirm_word
        body = safe(
            "Every member will have to sign in through the organization's SAML provider. " + impact.words(),
            limit=800,
        )

        def answered(ok: bool | None) -> None:
            if ok:
                self.confirmed = True
                self.action_send()
            else:
                what = "the title" if impact.confirm_word is None else "the confirmation"
                self.say(Content(f"SSO enforcement not turned on: {what} was not typed. Nothing was sent."))

        self.say(None)
        noun = "title" if impact.confirm_word is None else ("email" if impact.your_email else "phrase")
        modal = TypedConfirmModal(title, expected, body=body, action="Enforce SSO", noun=noun)
        self.app.push_screen(modal, answered)

    async def submit(self, values: Mapping[str, Any]) -> Organization:
        return await self.access.update_setting(self.org.id, self.setting.key, values.get("value"))

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        org = await self.access.organization(self.org.id)
        now = next((s.current for s in org_settings(org) if s.key == self.setting.key), None)
        key, value = self.setting.key, values.get("value")
        return org if setting_change(key, now) == setting_change(key, value) else None


class InviteDeleteForm(FormModal["InviteDeletion"]):
    """Delete one invite link of the organization by its id, or the link itself (its last path segment)."""

    TITLE = "Delete an invite link"
    INTRO = "Paste the link (or its id) from where it was shared. Whoever holds it can no longer join with it."
    FIELDS = (Field("invite", "Link or id", placeholder="https://…/invite/<id>, or the id"),)
    SEND_LABEL = "Delete"
    FAILED = "Not deleted"
    DANGER = True

    def __init__(self, access: AccessService, org_id: str) -> None:
        self.access = access
        self.org_id = org_id
        super().__init__()

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        return {} if str(values.get("invite") or "").strip() else {"invite": "Paste the invite link or its id."}

    async def submit(self, values: Mapping[str, Any]) -> InviteDeletion:
        return await self.access.delete_invite(self.org_id, str(values["invite"]))


class InviteLinkForm(FormModal["InviteLink"]):
    """A new invite link to the organization (``link=None``), or the role an existing link gives (the level, for
    a link to a space or collection). After a lost answer the link is looked for before it is made again."""

    FAILED = "Not saved"

    def __init__(self, access: AccessService, org_id: str, *, link: InviteLink | None = None) -> None:
        self.access = access
        self.org_id = org_id
        self.link = link
        if link is None:
            title = Content("New invite link to the organization")
        else:
            title = Content.assemble("Change the invite link ", (safe(link.id, limit=40).plain, "bold"))
        current = (link.access or NO_ROLE) if link is not None else "read"
        super().__init__(
            values={"role": current},
            draft=f"invite-link:{org_id}/{link.id if link else 'new'}",
            where="an invite link",
            title=title,
        )

    def fields(self) -> Sequence[Field]:
        label = "Level" if self.link is not None and self.link.kind != "organization" else "Role"
        return (Field("role", label, kind="select", choices=ROLE_CHOICES, hint="what joining with the link gives"),)

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        if self.link is not None and values.get("role") == self.initial.get("role"):
            return {"role": "Nothing changed yet: choose another role."}
        return {} if values.get("role") else {"role": "Choose a role."}

    async def submit(self, values: Mapping[str, Any]) -> InviteLink:
        if self.link is None:
            return await self.access.create_invite_link(self.org_id, values["role"])
        return await self.access.update_invite_link(self.org_id, self.link, values["role"])

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        if self.link is None:
            return await self.access.find_invite_link(self.org_id, values["role"])
        return await self.access.find_invite_update(self.org_id, self.link.id, values["role"])


class InvitePeopleForm(FormModal["InvitedUsers"]):
    """Invite people by email: the emails (1..100, separated by commas, spaces or lines), the role they get, and
    whether they join as SSO members. After a lost answer the members are looked for before it is sent again."""

    TITLE = "Invite people by email"
    FAILED = "Not invited"
    SEND_LABEL = "Invite"

    def __init__(self, access: AccessService, org_id: str, *, default_role: str | None = None) -> None:
        self.access = access
        self.org_id = org_id
        super().__init__(
            values={"emails": "", "role": default_role or NO_ROLE, "sso": False},
            draft=f"invite-people:{org_id}",
            where="an invite by email",
        )

    def fields(self) -> Sequence[Field]:
        return (
            Field(
                "emails", "Emails", kind="text", height=4, hint=f"1 to {INVITE_EMAILS_MAX}, commas or spaces between"
            ),
            Field("role", "Role", kind="select", choices=ROLE_CHOICES),
            Field("sso", "SSO", kind="check", hint="They sign in through the organization's SAML provider"),
        )

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        problem = check_invite_emails(str(values.get("emails") or ""))
        return {"emails": problem} if problem else {}

    async def submit(self, values: Mapping[str, Any]) -> InvitedUsers:
        return await self.access.invite_people(
            self.org_id, str(values["emails"]), values.get("role"), sso=bool(values.get("sso"))
        )

    async def find_sent(self, values: Mapping[str, Any]) -> Any:
        return await self.access.find_invited(self.org_id, str(values["emails"]))


# --- joining -----------------------------------------------------------------------------------------------------


class JoinConfirm(ConfirmModal):
    """``Join <title>?``: y joins, n or esc does not (the key that asks, J, never confirms)."""

    def __init__(self, org: Organization) -> None:
        name = safe(org.title or org.id, limit=120).plain
        domains = ", ".join(org.email_domains) or "none"
        body = safe(
            f"Your verified email's domain must be one of its email domains ({domains}). "
            f"You join with its default role ({org.default_role or 'guest'}).",
            limit=400,
        )
        super().__init__(Content.assemble("Join ", (name, "bold"), "?"), body, accept_key="y", accept_label="Join")


def confirm_join(
    owner: Widget,
    access: AccessService,
    org: Organization,
    *,
    email: str | None = None,
    joined: Callable[[Organization], object] | None = None,
) -> None:
    """Ask (:class:`JoinConfirm`), then join ``org`` in a worker of ``owner`` and say how it went; ``joined`` is
    called with the organization as the new member sees it. ``email``: the signed-in user's, to say early that
    the domain does not match."""
    reason = why_not_join(org, email)
    if reason:
        owner.notify(reason, severity="warning", markup=False)
        return
    name = safe(org.title or org.id, limit=120).plain

    async def join() -> None:
        try:
            now = await access.join(org.id)
        except ServiceError as exc:
            notify_error(owner, exc, doing=f"Could not join {name}")
            return
        owner.notify(f"You joined {name} (role: {now.default_role or 'guest'}).", markup=False)
        if joined is not None:
            joined(now)

    def answered(ok: bool | None) -> None:
        if ok:
            owner.run_worker(join(), group="access-join", exclusive=True, exit_on_error=False)
        else:
            owner.notify(f"Not joined {name}.", markup=False)

    owner.app.push_screen(JoinConfirm(org), answered)
