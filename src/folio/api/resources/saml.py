"""SAML single sign-on of an organization (spec section 4.6): its providers, and the SSO logins it offers.

provider = await client.saml.create(org_id, label="Okta", sso_url="https://idp.example.com/sso")
logins = await client.saml.logins(org_id)
"""

from __future__ import annotations

import builtins
from typing import Any

from folio.api import limits
from folio.api.errors import InvalidRequest
from folio.api.pagination import Paginator
from folio.api.resources._base import UNSET, Resource, body, path
from folio.api.resources.organizations import check_role
from folio.models.common import Role
from folio.models.member import SamlProvider, SsoLogin, SsoLogins

__all__ = ["SamlResource"]

# Limits of the public description (SAMLProviderLabel, SAMLProviderEntityID, SAMLProviderCertificate, URL).
LABEL_MAX = 30
ENTITY_ID_MAX = 1024
CERTIFICATE_MAX = 10_000


def _check(
    label: str | None,
    entity_id: str | None,
    certificate: str | None,
    sso_url: str | None,
    default_role: Role | None,
) -> None:
    if label is not UNSET:
        if label is None:
            raise InvalidRequest("label", "must not be null", f"1..{LABEL_MAX} characters")
        limits.check_length("label", label, min=1, max=LABEL_MAX)
    if entity_id is not UNSET:
        limits.check_length("entityID", entity_id, max=ENTITY_ID_MAX)
    if certificate is not UNSET:
        limits.check_length("certificate", certificate, max=CERTIFICATE_MAX)
    if sso_url is not UNSET:
        limits.check_uri("ssoURL", sso_url, max=2048)
    if default_role is not UNSET:
        check_role("defaultRole", default_role)


class SamlResource(Resource):
    """``client.saml``."""

    def list(self, organization_id: str, *, limit: int | None = None) -> Paginator[SamlProvider]:
        return self._list(SamlProvider, path("/orgs/{}/saml", organization_id), limit=limit)

    async def create(
        self,
        organization_id: str,
        *,
        label: str,
        entity_id: str = UNSET,
        certificate: str = UNSET,
        sso_url: str = UNSET,
        default_team: str = UNSET,
        default_role: Role | None = UNSET,
    ) -> SamlProvider:
        """Add a SAML provider; it is ``pending`` until its entity id, certificate and SSO URL are all set."""
        payload = _payload(label, entity_id, certificate, sso_url, default_team, default_role)
        return await self._send(SamlProvider, "POST", path("/orgs/{}/saml", organization_id), payload)

    async def get(self, organization_id: str, provider_id: str) -> SamlProvider:
        return await self._get(SamlProvider, path("/orgs/{}/saml/{}", organization_id, provider_id))

    async def update(
        self,
        organization_id: str,
        provider_id: str,
        *,
        label: str = UNSET,
        entity_id: str = UNSET,
        certificate: str = UNSET,
        sso_url: str = UNSET,
        default_team: str = UNSET,
        default_role: Role | None = UNSET,
    ) -> SamlProvider:
        payload = _payload(label, entity_id, certificate, sso_url, default_team, default_role)
        return await self._send(
            SamlProvider,
            "PATCH",
            path("/orgs/{}/saml/{}", organization_id, provider_id),
            payload,
            idempotent=True,
        )

    async def delete(self, organization_id: str, provider_id: str) -> None:
        """Remove a provider; a provider that does not exist is an error (NotFound), as the spec says."""
        await self._send_empty("DELETE", path("/orgs/{}/saml/{}", organization_id, provider_id))

    async def logins(self, organization_id: str) -> builtins.list[SsoLogin]:
        """The SSO logins the organization offers (not paged)."""
        answer: SsoLogins = await self._get(SsoLogins, path("/orgs/{}/sso", organization_id))
        return answer.items


def _payload(
    label: str, entity_id: str, certificate: str, sso_url: str, default_team: str, default_role: Role | None
) -> dict[str, Any]:
    """The create/update body (fields left UNSET are not sent), checked against the spec first."""
    _check(label, entity_id, certificate, sso_url, default_role)
    return body(
        label=label,
        entityID=entity_id,
        certificate=certificate,
        ssoURL=sso_url,
        defaultTeam=default_team,
        defaultRole=default_role,
    )
