"""The pure rules of the organization's access screens: its settings as the settings screen lists and edits them
(the spec's limits checked as you type, the request body of each), who may change them or join, invite link ids,
and what turning SSO enforcement on means for the members. Unit-tested in ``tests/services/test_access_service.py``;
:mod:`folio.services.people.access` re-exports every name.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

from folio.models.common import ROLES
from folio.models.organization import Organization
from folio.models.site import Site
from folio.services import format
from folio.services.people.access_saml import NO_ROLE, NONE, URI_MAX, control_character

__all__ = [
    "INVITE_EMAILS_MAX",
    "OrgSetting",
    "SsoImpact",
    "check_invite_emails",
    "check_org_setting",
    "invite_emails",
    "invite_id_of",
    "merge_rules_text",
    "org_settings",
    "setting_change",
    "why_not_admin",
    "why_not_join",
]

_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$", re.IGNORECASE)


# --- permissions -----------------------------------------------------------------------------------------------


def why_not_admin(org: Organization | None, doing: str) -> str | None:
    """Why the caller cannot ``doing`` (``change its settings``), or None when they are an admin."""
    if org is None:
        return "The organization is still loading."
    if not org.permissions.admin:
        return f"Only admins of the organization can {doing}."
    return None


def why_not_join(org: Organization, email: str | None = None) -> str | None:
    """Why joining ``org`` cannot work (already a member; no email domain matches), or None."""
    if org.permissions.access:
        return "You are already a member of this organization."
    if not org.email_domains:
        return "This organization lets nobody join by email domain: ask an admin for an invite."
    domain = (email or "").rpartition("@")[2].lower()
    if email and domain not in {d.lower() for d in org.email_domains}:
        shown = ", ".join(org.email_domains)
        return f"Your email domain ({domain}) is not one this organization admits ({shown})."
    return None


def invite_id_of(text: str) -> str:
    """An invite link's id from the id itself or the link's URL (its last path segment)."""
    raw = text.strip()
    if "/" in raw:
        raw = urlsplit(raw).path.rstrip("/").rpartition("/")[2] if "://" in raw else raw.rstrip("/").rpartition("/")[2]
    return raw


INVITE_EMAILS_MAX = 100
"""At most this many people invited by email at once."""
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")


def invite_emails(text: str) -> list[str]:
    """The emails typed (separated by commas, semicolons, spaces or lines), each once, in the order typed."""
    seen: dict[str, str] = {}
    for email in re.split(r"[,;\s]+", text):
        if email and email.lower() not in seen:
            seen[email.lower()] = email
    return list(seen.values())


def check_invite_emails(text: str) -> str | None:
    """What is wrong with the emails typed (None: they may be sent): at least one, each an email, at most
    :data:`INVITE_EMAILS_MAX`."""
    emails = invite_emails(text)
    if not emails:
        return "Type at least one email (separate them with commas or spaces)."
    if control_character(text.replace("\n", " ").replace("\t", " ")):
        return control_character(text.replace("\n", " ").replace("\t", " "))
    bad = [e for e in emails if not _EMAIL.match(e)]
    if bad:
        return f"Not an email: {', '.join(bad[:3])}{' …' if len(bad) > 3 else ''}."
    if len(emails) > INVITE_EMAILS_MAX:
        return f"At most {INVITE_EMAILS_MAX} emails at once ({len(emails)} typed)."
    return None


# --- organization settings -------------------------------------------------------------------------------------

SettingKind = Literal["text", "choice", "toggle", "json", "readonly"]


@dataclass(frozen=True)
class OrgSetting:
    """One setting of an organization: how it is shown, how it is edited, and its exact value on the service
    (``current``, what the form opens with)."""

    key: str
    label: str
    shown: str
    kind: SettingKind
    help: str
    current: Any = None
    choices: Sequence[tuple[str, str]] = ()
    """``(label, value)`` of a choice."""

    @property
    def editable(self) -> bool:
        return self.kind != "readonly"


def _words(value: str | None) -> str:
    if not value:
        return format.DASH
    base = value.rsplit("_", 1)[0] if value.rsplit("_", 1)[-1].isdigit() else value
    spaced = "".join(f" {c.lower()}" if c.isupper() else c for c in base).replace("_", " ")
    return spaced.strip()[:1].upper() + spaced.strip()[1:]


def _on(flag: bool | None) -> str:
    return "on" if flag else "off"


def merge_rules_text(org: Organization) -> str:
    """The organization's merge rules as the service sent them, as JSON (``{"type": "none"}`` when absent)."""
    rules = org.merge_rules.to_wire() if org.merge_rules is not None else {"type": "none"}
    return json.dumps(rules, indent=2, sort_keys=True)


def _merge_rules_shown(org: Organization) -> str:
    rules = org.merge_rules
    if rules is None or rules.type == "none" or (rules.type == "rules" and not rules.rules):
        return "none"
    if rules.type != "rules":
        return rules.type
    return ", ".join(_words(r.rule).lower() for r in rules.rules)


def _billing(org: Organization) -> str:
    b = org.billing
    if b is None:
        return "not shown to you"
    parts = [b.interval or "", format.count(b.paid_members, "paid member") if b.paid_members is not None else ""]
    if b.end_date is not None:
        parts.append(f"ends {format.stamp(b.end_date)}")
    if b.has_payment_failed:
        parts.append("a payment failed")
    if b.is_scheduled_to_cancel:
        parts.append("cancels at the end of the period")
    return " · ".join(p for p in parts if p) or format.DASH


def _trial(org: Organization) -> str:
    t = org.trial
    if t is None or t.status in ("notapplicable", "none"):
        return "none"
    text = t.status + (f", ends {format.stamp(t.end_date)}" if t.end_date else "")
    return text + (f", then {t.decision}" if t.decision else "")


def org_settings(org: Organization, sites: Sequence[Site] = ()) -> list[OrgSetting]:
    """The organization's settings in the order the screen lists them (``sites``: what default content may be)."""
    content = org.default_content.site if org.default_content else None
    site_titles = {s.id: s.title or s.id for s in sites}
    content_shown = site_titles.get(content, content) if content else "none"
    roles = (*((role, role) for role in ROLES), ("none: new members join as guests", NO_ROLE))
    ro = "read-only"
    return [
        OrgSetting("title", "Title", org.title, "text", "2..255 characters.", org.title),
        OrgSetting(
            "emailDomains",
            "Email domains",
            ", ".join(org.email_domains) or "none",
            "text",
            "People whose verified email is at one of these domains may join (comma-separated; empty: nobody).",
            ", ".join(org.email_domains),
        ),
        OrgSetting(
            "hostname",
            "Hostname",
            org.hostname or format.DASH,
            "text",
            "Default hostname: 3..32 characters.",
            org.hostname or "",
        ),
        OrgSetting(
            "defaultRole",
            "Default role",
            org.default_role or "none (guests)",
            "choice",
            "The role new members get.",
            org.default_role or NO_ROLE,
            roles,
        ),
        OrgSetting(
            "defaultContent",
            "Default content",
            content_shown,
            "choice",
            "The site visitors of the organization's hostname land on.",
            content or NONE,
            (*((s.title or s.id, s.id) for s in sites), ("none", NONE)),
        ),
        OrgSetting(
            "logo",
            "Logo URL",
            org.logo or "none",
            "text",
            "An http(s) URL of at most 2048 characters; empty removes it.",
            org.logo or "",
        ),
        OrgSetting(
            "sso",
            "SSO enforced",
            _on(org.sso),
            "toggle",
            "Every member must sign in through SSO (turning it on asks for the title typed; your email if it "
            "locks you out).",
            bool(org.sso),
        ),
        OrgSetting("ai", "AI", _on(org.ai), "toggle", "All AI features of the organization.", bool(org.ai)),
        OrgSetting(
            "inviteLinks",
            "Invite links",
            _on(org.invite_links),
            "toggle",
            "Whether invite links may be made and used (tab 2 lists them).",
            org.invite_links,
        ),
        OrgSetting(
            "mergeRules",
            "Merge rules",
            _merge_rules_shown(org),
            "json",
            'JSON: {"type": "none"} or {"type": "rules", "rules": [{"rule": …, "users": […]}]}.',
            merge_rules_text(org),
        ),
        OrgSetting("plan", "Plan", _words(org.plan), "readonly", f"{ro}: the plan changes in billing on the service."),
        OrgSetting("billing", "Billing", _billing(org), "readonly", f"{ro}: billing is managed on the service."),
        OrgSetting("trial", "Trial", _trial(org), "readonly", f"{ro}: trials are managed on the service."),
    ]


def check_org_setting(key: str, value: Any) -> str | None:
    """What breaks a limit of the spec in the value typed for ``key`` (None: it may be sent)."""
    text = value if isinstance(value, str) else ""
    if key in ("title", "hostname", "logo") and control_character(text):
        return control_character(text)
    match key:
        case "title":
            return None if 2 <= len(text) <= 255 else "2 to 255 characters."
        case "hostname":
            return None if 3 <= len(text) <= 32 else "3 to 32 characters."
        case "emailDomains":
            bad = [d for d in _domains(text) if not _DOMAIN.match(d)]
            return f"Not a domain name: {', '.join(bad[:3])}." if bad else None
        case "logo":
            if not text.strip():
                return None
            if len(text) > URI_MAX:
                return f"At most {URI_MAX} characters."
            parts = urlsplit(text.strip())
            return None if parts.scheme in ("http", "https") and parts.hostname else "An http(s) URL, or empty."
        case "mergeRules":
            return _merge_rules_problem(text)
        case "defaultRole":
            return None if value in (*ROLES, NO_ROLE) else "Choose a role."
        case "defaultContent":
            return None if isinstance(value, str) and value else "Choose a site, or none."
    return None


def _domains(text: str) -> list[str]:
    return [d.strip() for d in text.replace(";", ",").replace("\n", ",").split(",") if d.strip()]


def _merge_rules_problem(text: str) -> str | None:
    try:
        data = json.loads(text)
    except ValueError as exc:
        return f"Not JSON: {exc.args[0] if exc.args else exc}."
    if not isinstance(data, dict) or data.get("type") not in ("rules", "none"):
        return 'An object whose "type" is "rules" or "none".'
    rules = data.get("rules", [])
    if not isinstance(rules, list) or not all(isinstance(r, dict) and isinstance(r.get("rule"), str) for r in rules):
        return 'Each of "rules" is an object with a "rule" name (and "users").'
    return None


def setting_change(key: str, value: Any) -> dict[str, Any]:
    """The keyword arguments of ``client.organizations.update`` that set ``key`` to the typed ``value``."""
    match key:
        case "title" | "hostname":
            return {key: value}
        case "emailDomains":
            return {"email_domains": _domains(value)}
        case "defaultRole":
            return {"default_role": None if value == NO_ROLE else value}
        case "defaultContent":
            return {"default_content": None if value == NONE else {"type": "site", "site": value}}
        case "logo":
            return {"logo": value.strip() or None}
        case "sso" | "ai":
            return {key: bool(value)}
        case "inviteLinks":
            return {"invite_links": bool(value)}
        case "mergeRules":
            return {"merge_rules": json.loads(value)}
    raise ValueError(f"{key!r} is not a setting Folio can change")


# --- SSO enforcement -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SsoImpact:
    """What turning SSO enforcement on means: how many members do not sign in through SSO yet (None: the members
    list could not tell), and how many providers are active (None: unknown)."""

    members: int | None
    without_sso: int | None
    active_providers: int | None
    you_without_sso: bool | None = None
    """You yourself do not sign in through SSO (None: Folio could not tell): enforcing it locks you out."""
    your_email: str | None = None

    LOCKOUT_WORD = "lock me out"
    """What is typed to confirm a lockout when your email is not known."""

    @property
    def locks_you_out(self) -> bool:
        return self.you_without_sso is True

    @property
    def confirm_word(self) -> str | None:
        """What must be typed to confirm a change that locks you out (your email), or None when it does not."""
        return (self.your_email or self.LOCKOUT_WORD) if self.locks_you_out else None

    def words(self) -> str:
        if self.without_sso is None or self.members is None:
            who = (
                "Folio cannot read the member list here, so it cannot say how many: every member who does not "
                "sign in through SSO now will need SSO to sign in."
            )
        elif self.without_sso == 0:
            who = f"All {format.count(self.members, 'member')} already sign in through SSO."
        else:
            who = (
                f"{self.without_sso} of {format.count(self.members, 'member')} "
                f"{'does' if self.without_sso == 1 else 'do'} not sign in through SSO yet and will need SSO to "
                "sign in."
            )
        if self.active_providers == 0:
            who += " No SAML provider is active yet: nobody could sign in through SSO."
        if self.locks_you_out:
            who = (
                "YOU DO NOT SIGN IN THROUGH SSO: once it is enforced you are locked out of this organization, "
                "and could not turn it off again, until you sign in through its SAML provider. " + who
            )
        elif self.you_without_sso is None:
            who += " Folio cannot tell whether you sign in through SSO yourself: if you do not, you are locked out."
        return who
