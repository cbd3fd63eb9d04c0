"""The pure rules of single sign-on: a SAML provider's fields checked before sending (an https SSO URL, an X.509
certificate that parses, with its subject and expiry), and a provider's exact values as its form holds them.
Unit-tested in ``tests/services/test_access_service.py``; :mod:`folio.services.people.access` re-exports every name.
"""

from __future__ import annotations

import base64
import binascii
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from cryptography import x509

from folio.models.member import SamlProvider
from folio.services import format
from folio.services.errors import Refusal

__all__ = [
    "EXPIRY_WARNING_DAYS",
    "NONE",
    "NO_ROLE",
    "PROVIDER_FIELDS",
    "CertificateInfo",
    "CertificateProblem",
    "certificate_note",
    "check_provider",
    "check_sso_url",
    "control_character",
    "provider_fields",
    "provider_kwargs",
    "read_certificate",
]

EXPIRY_WARNING_DAYS = 30
LABEL_MAX = 30
ENTITY_ID_MAX = 1024
CERTIFICATE_MAX = 10_000
URI_MAX = 2048
NONE = "none"
"""The value of a choice that clears a setting (no default team, no default content)."""
NO_ROLE = "guest"
"""The value of the default-role choice that means null: new members join as guests."""


class CertificateProblem(Refusal, ValueError):
    """The text is not an X.509 certificate (in words)."""


@dataclass(frozen=True)
class CertificateInfo:
    subject: str
    issuer: str
    not_before: datetime
    not_after: datetime

    def days_left(self, at: datetime | None = None) -> float:
        return (self.not_after - (at or format.now())).total_seconds() / 86_400

    def expired(self, at: datetime | None = None) -> bool:
        return self.days_left(at) < 0

    def expires_soon(self, at: datetime | None = None) -> bool:
        return 0 <= self.days_left(at) < EXPIRY_WARNING_DAYS


def read_certificate(text: str) -> CertificateInfo:
    """A PEM certificate, or the base64 of its DER bytes, read as X.509 (raises :class:`CertificateProblem`)."""
    raw = text.strip()
    if not raw:
        raise CertificateProblem("The certificate is empty.")
    try:
        if "-----BEGIN" in raw:
            if "-----BEGIN CERTIFICATE-----" not in raw:
                raise CertificateProblem("This PEM block is not a certificate (it must begin BEGIN CERTIFICATE).")
            cert = x509.load_pem_x509_certificate(raw.encode("ascii", "replace"))
        else:
            der = base64.b64decode("".join(raw.split()), validate=True)
            cert = x509.load_der_x509_certificate(der)
    except CertificateProblem:
        raise
    except (binascii.Error, ValueError) as exc:
        kind = "PEM" if "-----BEGIN" in raw else "base64 DER"
        raise CertificateProblem(f"This is not an X.509 certificate ({kind} that does not parse).") from exc
    return CertificateInfo(
        subject=cert.subject.rfc4514_string() or "(no subject)",
        issuer=cert.issuer.rfc4514_string() or "(no issuer)",
        not_before=cert.not_valid_before_utc.astimezone(UTC),
        not_after=cert.not_valid_after_utc.astimezone(UTC),
    )


def certificate_note(info: CertificateInfo, at: datetime | None = None) -> tuple[str, bool]:
    """``("CN=idp, valid until 2027-01-01 00:00 UTC (in 400 days)", warn)``: warn when it expired, is not valid
    yet, or expires within :data:`EXPIRY_WARNING_DAYS` days."""
    at = at or format.now()
    days = info.days_left(at)
    until = format.stamp(info.not_after)
    if days < 0:
        return f"{info.subject}: EXPIRED on {until}: sign-ins through this provider will fail.", True
    if info.not_before > at:
        return f"{info.subject}: not valid before {format.stamp(info.not_before)} (until {until}).", True
    left = f"in {format.span(days * 86_400)}"
    if days < EXPIRY_WARNING_DAYS:
        return f"{info.subject}: expires {until} ({left}): replace it soon.", True
    return f"{info.subject}: valid until {until} ({left}).", False


_CONTROL_NAMES = {0x00: "NUL", 0x07: "BEL", 0x08: "BS", 0x09: "tab", 0x0A: "newline", 0x0D: "CR", 0x1B: "ESC"}


def control_character(text: str) -> str | None:
    """What is wrong with ``text`` when it holds a control character (ESC, BEL, NUL…), in words; None when it
    holds none. The service refuses them; they are checked before sending."""
    bad = next((c for c in text if unicodedata.category(c) == "Cc"), None)
    if bad is None:
        return None
    name = _CONTROL_NAMES.get(ord(bad), f"U+{ord(bad):04X}")
    return f"Holds a control character ({name}): remove it."


def check_sso_url(value: str) -> str | None:
    """The identity provider's sign-in URL: an https URI of at most 2048 characters, no control characters."""
    text = value.strip()
    if not text:
        return "The SSO URL is needed (https://…)."
    control = control_character(text)
    if control:
        return control
    if len(text) > URI_MAX:
        return f"At most {URI_MAX} characters."
    parts = urlsplit(text)
    if parts.scheme.lower() != "https" or not parts.hostname or any(c.isspace() for c in text):
        return "Must be an https URL (https://idp.example.com/…)."
    return None


def check_provider(values: Mapping[str, Any], *, only: set[str] | None = None) -> dict[str, str]:
    """``{field: problem}`` for a provider's form: label 1..30, SSO URL https, entity ID at most 1024, the
    certificate an X.509 certificate (empty leaves the provider pending). ``only``: the fields to check (an
    edit checks what changed)."""
    problems: dict[str, str] = {}

    def wanted(name: str) -> bool:
        return only is None or name in only

    label = str(values.get("label") or "")
    if wanted("label") and not 1 <= len(label.strip()) <= LABEL_MAX:
        problems["label"] = f"1 to {LABEL_MAX} characters."
    elif wanted("label") and control_character(label):
        problems["label"] = str(control_character(label))
    if wanted("sso_url"):
        problem = check_sso_url(str(values.get("sso_url") or ""))
        if problem:
            problems["sso_url"] = problem
    entity_id = str(values.get("entity_id") or "")
    if wanted("entity_id") and len(entity_id) > ENTITY_ID_MAX:
        problems["entity_id"] = f"At most {ENTITY_ID_MAX} characters."
    elif wanted("entity_id") and control_character(entity_id.strip()):
        problems["entity_id"] = str(control_character(entity_id.strip()))
    certificate = str(values.get("certificate") or "").strip()
    if wanted("certificate") and certificate:
        if len(certificate) > CERTIFICATE_MAX:
            problems["certificate"] = f"At most {CERTIFICATE_MAX:,} characters."
        else:
            try:
                read_certificate(certificate)
            except CertificateProblem as exc:
                problems["certificate"] = str(exc)
    return problems


PROVIDER_FIELDS = ("label", "sso_url", "entity_id", "certificate", "default_team", "default_role")


def provider_fields(provider: SamlProvider | None) -> dict[str, str]:
    """A provider's exact values, as its form holds them (choices: :data:`NONE` / :data:`NO_ROLE` for null)."""
    if provider is None:
        return {"label": "", "sso_url": "", "entity_id": "", "certificate": "", "default_team": NONE}
    return {
        "label": provider.label,
        "sso_url": provider.sso_url or "",
        "entity_id": provider.entity_id or "",
        "certificate": provider.certificate or "",
        "default_team": provider.default_team.id if provider.default_team else NONE,
        "default_role": provider.default_role or NO_ROLE,
    }


def provider_kwargs(values: Mapping[str, Any], *, create: bool) -> dict[str, Any]:
    """The client's keyword arguments for the form's ``values`` (a create leaves empty fields out; an update
    sends what it was given, null for a cleared team or role)."""
    out: dict[str, Any] = {}
    for name in PROVIDER_FIELDS:
        if name not in values:
            continue
        value = values[name]
        if name == "default_team":
            value = None if value in (NONE, None, "") else value
        elif name == "default_role":
            value = None if value in (NO_ROLE, None, "") else value
        elif isinstance(value, str):
            value = value.strip()
        if create and value in (None, ""):
            continue
        out[name] = value
    return out
