"""The single sign-on screen driven by keys over the seeded sandbox: the providers with what the identity provider
needs, the sign-in options, and every write (create with a real certificate, refusals before sending, update,
delete), checked in what the sandbox now holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static, TextArea

from folio.sandbox import SandboxState, create_app
from folio.sandbox.faults import Faults
from folio.services import Services
from folio.tui import routes
from folio.tui.modals.access_forms import SamlProviderForm
from folio.tui.modals.site_forms import ChoiceModal, TypedConfirmModal
from folio.tui.screens.people.sso import SsoScreen
from folio.tui.widgets.resource_browser import ResourceBrowser
from tests.conftest import FROZEN_AT, TOKEN
from tests.services.test_access_service import make_certificate, member_with, providers
from tests.tui.conftest import settle


@pytest.fixture
def faults() -> Faults:
    return Faults()  # all off: a test turns one on for a moment


@pytest.fixture
def app(state: SandboxState, faults: Faults):  # type: ignore[no-untyped-def]
    return create_app(state, faults=faults)


@pytest.fixture(autouse=True)
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


def sso(services: Services, state: SandboxState) -> Callable[[], SsoScreen]:
    return lambda: SsoScreen(services, state.demo_org, trail=("Northwind Labs",))


def rows(browser: ResourceBrowser) -> list[list[str]]:
    return [[c if isinstance(c, str) else c.plain for c in r.cells] for r in browser.list.visible_rows]


def text_of(widget: Static) -> str:
    return str(widget.render())


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await settle(pilot)


def fill(form: SamlProviderForm, **values: str) -> None:
    """Put values in the form's fields as if typed (each change is checked as typing would be)."""
    for name, value in values.items():
        widget = form.widget(name)
        if isinstance(widget, TextArea):
            widget.load_text(value)
        else:
            assert isinstance(widget, Input)
            widget.value = value


async def test_providers_their_service_side_and_the_sign_in_options(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(sso(services, state)) as (app, pilot):
        screen = app.screen
        assert [r[:2] for r in rows(screen.providers.browser)] == [
            ["Okta", "active"],
            ["Entra ID (testing)", "pending"],
        ]
        detail = text_of(screen.query_one("#sso-detail", Static))
        okta = providers(state)["Okta"]
        assert f"/__/auth/saml/{state.demo_org}/{okta['id']}/acs" in detail
        assert "CN=northwind.okta.com,O=Okta: valid until" in detail  # the seeded certificate is a real one
        assert "not an X.509 certificate" not in detail
        await keys(pilot, "j")
        assert "pending (needs entity ID, certificate)" in text_of(screen.query_one("#sso-detail", Static))
        await keys(pilot, "k", "y")
        assert isinstance(app.screen, ChoiceModal)
        said = " ".join(text_of(s) for s in app.screen.query(Static))
        assert said.count("enter") == 1 and said.count("esc closes") == 1  # the hint, said once
        assert "saves" not in said and "sends" not in said  # it copies: nothing is sent
        await keys(pilot, "enter")  # the first choice: the ACS URL
        assert app.clipboard.endswith(f"/{okta['id']}/acs") and app.clipboard.startswith("https://")
        await keys(pilot, "2")
        assert rows(screen.logins.browser) == [["Okta", app.clipboard.removesuffix("/acs") + "/start"]]


async def test_words_after_the_verb_filter_the_providers(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    screen = routes.build(services, "sso", {"org_id": state.demo_org, "words": "entra"})
    async with open_app(lambda: screen) as (app, _pilot):
        assert isinstance(app.screen, SsoScreen)
        assert [r[0] for r in rows(app.screen.providers.browser)] == ["Entra ID (testing)"]
        assert app.screen.words == "entra"  # what the session saves
        assert len(rows(app.screen.logins.browser)) == 1  # the sign-in options are not filtered


async def test_create_a_provider_with_a_real_certificate(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    cert = make_certificate(days=20, cn="login.northwind.dev")
    async with open_app(sso(services, state), size=(100, 40)) as (app, pilot):
        await keys(pilot, "n")
        form = app.screen
        assert isinstance(form, SamlProviderForm)
        await keys(pilot, *"Auth0")
        fill(form, sso_url="https://northwind.auth0.com/samlp", entity_id="urn:northwind.auth0.com", certificate=cert)
        await settle(pilot)
        note = text_of(form.query_one("#certificate-note", Static))
        assert note == "CN=login.northwind.dev: expires 2026-11-21 09:00 UTC (in 20 days): replace it soon."
        assert form.query_one("#certificate-note").has_class("-warn")
        await keys(pilot, "ctrl+s")
        assert not isinstance(app.screen, SamlProviderForm)
        created = providers(state)["Auth0"]
        assert created["ssoURL"] == "https://northwind.auth0.com/samlp" and created["certificate"] == cert.strip()
        assert [r[:2] for r in rows(app.screen.providers.browser)][-1] == ["Auth0", "active"]
        assert any("SAML provider added: Auth0 (active)." in n.message for n in app._notifications)
        assert "Auth0" in [r[0] for r in rows(app.screen.logins.browser)]


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("sso_url", "http://northwind.auth0.com/samlp", "Must be an https URL"),
        ("certificate", "MIIBthisisnotacertificate", "not an X.509 certificate"),
        ("sso_url", "https://northwind.auth0.com/\x1b]0;pwned\x07samlp", "Holds a control character (ESC)"),
        ("sso_url", "https://northwind.auth0.com/\x07samlp", "Holds a control character (BEL)"),
    ],
)
async def test_a_provider_is_refused_before_sending(
    services: Services, state: SandboxState, open_app: Any, field: str, value: str, said: str
) -> None:
    before = {k: dict(v) for k, v in state.saml.items()}
    async with open_app(sso(services, state), size=(100, 40)) as (app, pilot):
        await keys(pilot, "n")
        form = app.screen
        assert isinstance(form, SamlProviderForm)
        good = {"label": "Auth0", "sso_url": "https://northwind.auth0.com/samlp", "certificate": make_certificate()}
        fill(form, **{**good, field: value})
        await keys(pilot, "ctrl+s")
        assert app.screen is form  # still open, as typed
        assert said in form.problem_text
        assert form.values()[field] == value
    assert {k: dict(v) for k, v in state.saml.items()} == before


async def test_edit_a_provider_sends_what_changed(services: Services, state: SandboxState, open_app: Any) -> None:
    okta = providers(state)["Okta"]
    seeded_certificate = okta["certificate"]
    async with open_app(sso(services, state), size=(100, 40)) as (app, pilot):
        await keys(pilot, "e")
        form = app.screen
        assert isinstance(form, SamlProviderForm) and form.values()["label"] == "Okta"
        assert form.values()["certificate"] == seeded_certificate  # the exact value, not a cleaned copy
        await keys(pilot, "ctrl+s")
        assert "Nothing changed yet." in form.problem_text
        await keys(pilot, "end", *" (prod)", "ctrl+s")
        assert not isinstance(app.screen, SamlProviderForm)
    assert okta["label"] == "Okta (prod)" and okta["certificate"] == seeded_certificate


async def test_delete_a_provider_after_typing_its_label(services: Services, state: SandboxState, open_app: Any) -> None:
    async with open_app(sso(services, state)) as (app, pilot):
        await keys(pilot, "j", "D")
        assert isinstance(app.screen, TypedConfirmModal)
        await keys(pilot, *"Entra", "enter")
        assert isinstance(app.screen, TypedConfirmModal)  # not the label: nothing done
        assert "Entra ID (testing)" in providers(state)
        await keys(pilot, "ctrl+u", *"Entra ID (testing)", "enter")
        assert "Entra ID (testing)" not in providers(state)
        assert [r[0] for r in rows(app.screen.providers.browser)] == ["Okta"]
        assert any("SAML provider deleted: Entra ID (testing)." in n.message for n in app._notifications)


async def test_a_delete_whose_answer_was_lost_says_it_was_deleted(
    services: Services, state: SandboxState, faults: Faults, open_app: Any
) -> None:
    async with open_app(sso(services, state)) as (app, pilot):
        await keys(pilot, "j", "D", *"Entra ID (testing)")
        faults.drop_after_write = 1.0  # deleted, every answer lost: the client's own re-send meets a 404
        await keys(pilot, "enter")
        faults.drop_after_write = 0.0
        assert "Entra ID (testing)" not in providers(state)
        told = [n.message for n in app._notifications]
        assert "SAML provider deleted: Entra ID (testing)." in told
        assert not any("Could not delete" in m or "404" in m for m in told)


async def test_a_lost_create_is_looked_for_and_sent_once(
    services: Services, state: SandboxState, faults: Faults, open_app: Any
) -> None:
    okta = providers(state)["Okta"]
    cert = make_certificate(cn="okta-2.test")
    async with open_app(sso(services, state), size=(100, 40)) as (app, pilot):
        await keys(pilot, "n")
        form = app.screen
        assert isinstance(form, SamlProviderForm)
        # The same label and URL as the seeded Okta, with another entity ID and certificate.
        fill(form, label="Okta", sso_url=str(okta["ssoURL"]), entity_id="urn:okta-2", certificate=cert)
        await settle(pilot)
        faults.drop_after_write = 1.0  # made, its answer lost
        await keys(pilot, "ctrl+s")
        faults.drop_after_write = 0.0
        assert isinstance(app.screen, SsoScreen)
        assert any("it was sent once" in n.message for n in app._notifications)
    made = [p for p in state.saml.values() if p["label"] == "Okta" and p["id"] != okta["id"]]
    assert len(made) == 1 and made[0]["certificate"] == cert.strip() and made[0]["entityID"] == "urn:okta-2"


async def test_only_admins_manage_providers(services: Services, state: SandboxState, open_app: Any) -> None:
    state.tokens = {TOKEN: member_with(state, "edit")}
    async with open_app(sso(services, state)) as (app, pilot):
        panel = app.screen.providers
        assert panel.check_action("new_provider", ()) is None  # greyed, with the reason
        assert panel.why_not("new_provider") == "Only admins of the organization can manage SAML providers."
        assert "Could not load the SAML providers" in (panel.failed.plain if panel.failed else "")
        await keys(pilot, "n")
        assert isinstance(app.screen, SsoScreen)
