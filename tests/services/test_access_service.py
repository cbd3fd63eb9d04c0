"""AccessService over the seeded sandbox (SAML providers, settings, SSO enforcement's count, invite links,
joining, agent instructions), asserting on what the sandbox holds afterwards; and its pure rules (certificates,
the providers' and settings' checks, the settings rows)."""

from __future__ import annotations

import base64
from datetime import timedelta

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from folio.api import GitBookClient, Token, errors
from folio.models.organization import Organization
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.faults import Faults
from folio.services import Services
from folio.services.people.access import (
    NO_ROLE,
    NONE,
    AccessService,
    CertificateProblem,
    certificate_note,
    check_org_setting,
    check_provider,
    check_sso_url,
    invite_id_of,
    org_settings,
    read_certificate,
    setting_change,
    why_not_admin,
    why_not_join,
)
from folio.services.writes import may_have_reached
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN


def make_certificate(*, days: int = 365, cn: str = "idp.example.com", der: bool = False) -> str:
    """A self-signed certificate valid from 400 days before FROZEN_AT until ``days`` days after it: PEM, or
    base64 DER."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(FROZEN_AT - timedelta(days=400))
        .not_valid_after(FROZEN_AT + timedelta(days=days))
        .sign(key, hashes.SHA256())
    )
    if der:
        return base64.b64encode(cert.public_bytes(serialization.Encoding.DER)).decode()
    return cert.public_bytes(serialization.Encoding.PEM).decode()


@pytest.fixture(autouse=True)
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


@pytest.fixture
def faults() -> Faults:
    return Faults()  # all off: a test turns one on for a moment


@pytest.fixture
def app(state: SandboxState, faults: Faults):  # type: ignore[no-untyped-def]
    return create_app(state, faults=faults)


@pytest.fixture
def access(client: GitBookClient) -> AccessService:
    return Services(client).access


def providers(state: SandboxState) -> dict[str, dict[str, object]]:
    return {p["label"]: p for p in state.saml.values() if p["organization"] == state.demo_org}


def member_with(state: SandboxState, role: str | None) -> str:
    return next(u for u, m in state.members[state.demo_org].items() if m["role"] == role)


# --- certificates and provider checks -------------------------------------------------------------------------


def test_a_certificate_is_read_as_pem_or_base64_der() -> None:
    for text in (make_certificate(cn="okta.test"), make_certificate(cn="okta.test", der=True)):
        info = read_certificate(text)
        assert info.subject == "CN=okta.test"
        assert info.not_after == FROZEN_AT + timedelta(days=365)
        said, warn = certificate_note(info)
        assert said == "CN=okta.test: valid until 2027-11-01 09:00 UTC (in 365 days)." and not warn


@pytest.mark.parametrize(
    ("days", "expected"),
    [(10, "expires 2026-11-11 09:00 UTC (in 10 days): replace it soon."), (-3, "EXPIRED on 2026-10-29")],
)
def test_a_certificate_near_or_past_its_end_is_a_warning(days: int, expected: str) -> None:
    said, warn = certificate_note(read_certificate(make_certificate(days=days)))
    assert expected in said and warn


@pytest.mark.parametrize(
    "text",
    [
        "not base64 at all!",
        base64.b64encode(b"just some bytes").decode(),
        "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----",
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----",
    ],
)
def test_what_is_not_a_certificate_is_refused_in_words(text: str) -> None:
    with pytest.raises(CertificateProblem):
        read_certificate(text)
    assert "certificate" in check_provider({"label": "X", "sso_url": "https://a.b", "certificate": text})


def test_provider_checks() -> None:
    good = {"label": "Okta", "sso_url": "https://idp.example.com/sso", "certificate": make_certificate()}
    assert check_provider(good) == {}
    assert check_provider({**good, "certificate": ""}) == {}  # a pending provider
    assert check_sso_url("http://idp.example.com/sso") == "Must be an https URL (https://idp.example.com/…)."
    assert check_sso_url("https://") is not None and check_sso_url("https://a.b/c d") is not None
    assert set(check_provider({**good, "label": "x" * 31, "sso_url": "ftp://x"})) == {"label", "sso_url"}
    assert check_provider({**good, "label": ""}, only={"sso_url"}) == {}


# --- settings rules ---------------------------------------------------------------------------------------------


def test_setting_limits() -> None:
    assert check_org_setting("title", "N") == "2 to 255 characters."
    assert check_org_setting("title", "x" * 256) is not None and check_org_setting("title", "No") is None
    assert check_org_setting("hostname", "ab") == "3 to 32 characters."
    assert check_org_setting("hostname", "x" * 33) is not None and check_org_setting("hostname", "abc") is None
    assert check_org_setting("logo", "https://cdn.example.com/" + "x" * 2048) == "At most 2048 characters."
    assert check_org_setting("logo", "not a url") is not None and check_org_setting("logo", "") is None
    assert check_org_setting("emailDomains", "northwind.dev, bad domain") == "Not a domain name: bad domain."
    assert check_org_setting("mergeRules", "{") is not None
    assert check_org_setting("mergeRules", '{"type": "rules", "rules": [{"rule": "allow_bypass"}]}') is None


def test_setting_changes_are_the_update_arguments() -> None:
    assert setting_change("emailDomains", "a.dev; b.dev") == {"email_domains": ["a.dev", "b.dev"]}
    assert setting_change("defaultRole", NO_ROLE) == {"default_role": None}
    assert setting_change("defaultContent", NONE) == {"default_content": None}
    assert setting_change("defaultContent", "s1") == {"default_content": {"type": "site", "site": "s1"}}
    assert setting_change("logo", " ") == {"logo": None}
    assert setting_change("inviteLinks", False) == {"invite_links": False}


def test_settings_rows_hold_the_exact_values() -> None:
    org = Organization.model_validate(
        {"id": "o", "title": "Acme", "emailDomains": ["acme.dev"], "plan": "pro_2024", "sso": False, "ai": True}
    )
    rows = {s.key: s for s in org_settings(org)}
    assert rows["title"].current == "Acme" and rows["emailDomains"].current == "acme.dev"
    assert rows["ai"].shown == "on" and rows["sso"].current is False
    assert rows["plan"].shown == "Pro" and not rows["plan"].editable
    assert why_not_admin(org, "change its settings") == "Only admins of the organization can change its settings."


def test_joining_rules_and_invite_ids() -> None:
    org = Organization.model_validate({"id": "o", "title": "Acme", "emailDomains": ["acme.dev"]})
    assert why_not_join(org, "ada@acme.dev") is None
    assert "not one this organization admits" in (why_not_join(org, "ada@else.dev") or "")
    assert invite_id_of(" https://app.example.com/invite/o/AbC123/ ") == "AbC123"
    assert invite_id_of("AbC123") == "AbC123"


# --- against the sandbox ----------------------------------------------------------------------------------------


async def test_create_update_delete_a_provider(access: AccessService, state: SandboxState) -> None:
    cert = make_certificate()
    created = await access.create_provider(
        state.demo_org,
        {"label": "Auth0", "sso_url": "https://acme.auth0.com/sso", "entity_id": "urn:auth0", "certificate": cert},
    )
    assert created.status == "active" and providers(state)["Auth0"]["certificate"] == cert.strip()
    sent = {"label": "Auth0", "sso_url": "https://acme.auth0.com/sso", "entity_id": "urn:auth0", "certificate": cert}
    assert await access.find_provider(state.demo_org, sent) == created
    updated = await access.update_provider(state.demo_org, created.id, {"label": "Auth0 (prod)"})
    assert updated.label == "Auth0 (prod)" and providers(state)["Auth0 (prod)"]["entityID"] == "urn:auth0"
    logins = await access.logins(state.demo_org)
    assert "Auth0 (prod)" in [login.label for login in logins]
    await access.delete_provider(state.demo_org, created.id)
    assert "Auth0 (prod)" not in providers(state)


async def test_a_provider_that_breaks_a_rule_is_not_sent(access: AccessService, state: SandboxState) -> None:
    before = dict(state.saml)
    with pytest.raises(errors.InvalidRequest):
        await access.create_provider(state.demo_org, {"label": "Bad", "sso_url": "http://idp.example.com"})
    with pytest.raises(errors.InvalidRequest):
        await access.create_provider(
            state.demo_org, {"label": "Bad", "sso_url": "https://idp.example.com", "certificate": "nope"}
        )
    assert state.saml == before


async def test_update_a_setting_and_refuse_a_limit(access: AccessService, state: SandboxState) -> None:
    org = await access.update_setting(state.demo_org, "title", "Northwind Group")
    assert org.title == "Northwind Group" == state.orgs[state.demo_org]["title"]
    with pytest.raises(errors.InvalidRequest):
        await access.update_setting(state.demo_org, "hostname", "nw")
    assert state.orgs[state.demo_org]["hostname"] == "northwind"


async def test_sso_impact_counts_members_without_sso(access: AccessService, state: SandboxState) -> None:
    members = state.members[state.demo_org]
    next(iter(members.values()))["sso"] = True
    impact = await access.sso_impact(state.demo_org)
    assert (impact.members, impact.without_sso, impact.active_providers) == (len(members), len(members) - 1, 1)
    assert f"{len(members) - 1} of {len(members)} members do not sign in through SSO" in impact.words()


class NoMemberList(httpx.AsyncBaseTransport):
    """The sandbox, except that listing members is refused (403), as for a caller who may not list them."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/members"):
            body = b'{"error":{"code":403,"message":"You cannot list the members"}}'
            return httpx.Response(403, headers={"content-type": "application/json"}, content=body)
        return await self.inner.handle_async_request(request)


async def test_sso_impact_says_plainly_when_it_cannot_count(state: SandboxState) -> None:
    transport = NoMemberList(SandboxTransport(create_app(state)))
    async with GitBookClient(token=Token(TOKEN), base_url=SANDBOX_URL, transport=transport) as client:
        impact = await Services(client).access.sso_impact(state.demo_org)
    assert impact.without_sso is None and impact.active_providers == 1
    assert "cannot say how many" in impact.words()


async def test_delete_an_invite_and_join(access: AccessService, state: SandboxState) -> None:
    invite = next(iter(state.invites[state.demo_org]))
    deleted = await access.delete_invite(state.demo_org, f"https://app.example.com/invite/{invite}")
    assert deleted.invite_id == invite and deleted.existed
    assert invite not in state.invites[state.demo_org]
    other = next(o for o in state.orgs if o != state.demo_org)
    newcomer = member_with(state, "read")
    state.orgs[other]["emailDomains"] = ["northwind.dev"]
    state.tokens = {TOKEN: newcomer}
    joined = await access.join(other)
    assert newcomer in state.members[other] and joined.permissions.access


async def test_agent_instructions_round_trip(access: AccessService, state: SandboxState) -> None:
    view = await access.instructions(state.demo_org)
    assert view.updated_by == "Bruno Lindqvist" and view.text.startswith("Write for engineers")
    saved = await access.save_instructions(state.demo_org, "Be brief.\nCite the API reference.")
    assert saved.text() == "Be brief.\nCite the API reference."
    assert state.agent_instructions[state.demo_org]["updatedBy"] == state.default_user
    assert await access.find_instructions(state.demo_org, "Be brief.\nCite the API reference.") is not None
    assert await access.find_instructions(state.demo_org, "Something else") is None


def test_the_seeded_active_provider_has_a_real_certificate(state: SandboxState) -> None:
    okta = providers(state)["Okta"]
    info = read_certificate(str(okta["certificate"]))
    assert "CN=northwind.okta.com" in info.subject and not info.expired(FROZEN_AT)
    said, warn = certificate_note(info, FROZEN_AT)
    assert said.startswith(info.subject + ": valid until") and not warn


# --- control characters are refused before sending, and by the sandbox -------------------------------------------


@pytest.mark.parametrize(("bad", "name"), [("\x1b[31m", "ESC"), ("\x07", "BEL"), ("\x00", "NUL")])
def test_control_characters_are_refused_before_sending(bad: str, name: str) -> None:
    assert check_sso_url(f"https://idp.example.com/{bad}sso") == f"Holds a control character ({name}): remove it."
    assert "Holds a control character" in (check_org_setting("title", f"North{bad}wind") or "")
    good = {"label": "Okta", "sso_url": "https://idp.example.com/sso"}
    assert set(check_provider({**good, "label": f"Ok{bad}ta", "entity_id": f"urn:{bad}"})) == {"label", "entity_id"}


@pytest.mark.parametrize(
    ("where", "body"),
    [
        ("saml", {"label": "Bell", "ssoURL": "https://idp.example.com/\x07sso"}),
        ("saml", {"label": "Esc", "ssoURL": "https://idp.example.com/\x1b[2Jsso"}),
        ("org", {"title": "North\x00wind"}),
        ("org", {"title": "North\x1b[31mwind"}),
    ],
)
async def test_the_sandbox_refuses_control_characters(
    client: GitBookClient, state: SandboxState, where: str, body: dict[str, str]
) -> None:
    before_saml, before_title = dict(state.saml), state.orgs[state.demo_org]["title"]
    method, url = ("POST", f"/orgs/{state.demo_org}/saml") if where == "saml" else ("PATCH", f"/orgs/{state.demo_org}")
    with pytest.raises(errors.BadRequest) as raised:
        await client.request(method, url, json=body)
    assert "control characters" in str(raised.value)
    assert state.saml == before_saml and state.orgs[state.demo_org]["title"] == before_title


# --- lost answers: what is true is read, never guessed ----------------------------------------------------------


async def test_a_lost_create_is_not_found_in_a_provider_that_existed_before(
    access: AccessService, state: SandboxState, faults: Faults
) -> None:
    okta = providers(state)["Okta"]
    values = {
        "label": "Okta",
        "sso_url": okta["ssoURL"],
        "entity_id": "http://www.okta.com/exk4northwind-2",
        "certificate": make_certificate(cn="okta-2.test"),
    }
    # Same label and URL as the seeded Okta, not its certificate nor its entity ID: not the same provider.
    assert await access.find_provider(state.demo_org, values) is None
    # An older provider holding every field sent is not the one either: it existed before the send.
    okta["entityID"], okta["certificate"] = values["entity_id"], values["certificate"].strip()
    before = set(state.saml)
    faults.drop_after_write = 1.0  # applied, its answer lost
    with pytest.raises(errors.ApiError) as lost:
        await access.create_provider(state.demo_org, values)
    faults.drop_after_write = 0.0
    assert may_have_reached(lost.value)
    [new] = set(state.saml) - before
    found = await access.find_provider(state.demo_org, values)
    assert found is not None and found.id == new != okta["id"]
    assert found.entity_id == values["entity_id"] and found.certificate == values["certificate"].strip()


async def test_a_found_provider_without_the_certificate_sent_is_not_the_same(
    access: AccessService, state: SandboxState
) -> None:
    values = {"label": "Auth0", "sso_url": "https://acme.auth0.com/sso", "entity_id": "urn:auth0"}
    await access.create_provider(state.demo_org, values)  # made without a certificate
    assert await access.find_provider(state.demo_org, values) is not None
    assert await access.find_provider(state.demo_org, {**values, "certificate": make_certificate()}) is None
    assert await access.find_provider(state.demo_org, {**values, "entity_id": "urn:other"}) is None


async def test_a_delete_whose_answer_was_lost_says_it_was_deleted(
    access: AccessService, state: SandboxState, faults: Faults
) -> None:
    okta = providers(state)["Okta"]["id"]
    faults.drop_after_write = 1.0  # every answer to a write is lost: the client's own re-send meets a 404
    await access.delete_provider(state.demo_org, okta)  # no error: it is gone, as was asked
    faults.drop_after_write = 0.0
    assert okta not in state.saml
    entra = providers(state)["Entra ID (testing)"]["id"]
    del state.saml[entra]  # gone already (the first answer was lost, the re-send is a 404): reading confirms it
    await access.delete_provider(state.demo_org, entra)
    assert len(providers(state)) == 0
