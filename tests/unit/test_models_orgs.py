"""Parsing the service's organizations, members, teams, SAML providers, SSO logins, subdomains and agent
instructions, in the variants the public description allows (full, minimal, nulls, fields we do not know)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from folio.models.agent import AgentInstructions
from folio.models.member import (
    Member,
    MemberSpace,
    MemberTeam,
    SamlProvider,
    SsoLogins,
    Subdomain,
    TeamMemberEntry,
    is_valid_subdomain,
)
from folio.models.organization import Organization, PingResult

USER = {"object": "user", "id": "u1", "displayName": "Ada", "urls": {"location": "https://api.x/v1/users/u1"}}
PERMISSIONS = dict.fromkeys(
    (
        "view",
        "access",
        "admin",
        "ownTeam",
        "createContent",
        "createOpenAPISpec",
        "viewBilling",
        "listMembers",
        "listTeams",
        "listIntegrations",
        "listInstallations",
        "installIntegration",
    ),
    True,
)
PAIR = {"monthly": 8, "yearly": 80}
FULL_ORG: dict[str, Any] = {
    "object": "organization",
    "id": "o1",
    "title": "Northwind",
    "createdAt": "2024-01-02T03:04:05.678Z",
    "emailDomains": ["northwind.dev"],
    "hostname": "northwind",
    "type": "business",
    "useCase": "productDocs",
    "defaultRole": "read",
    "defaultContent": {"type": "site", "site": "site1"},
    "sso": True,
    "ai": False,
    "inviteLinks": True,
    "auditLogs": True,
    "plan": "enterprise_2024",
    "billing": {
        "interval": "yearly",
        "endDate": None,
        "hasPaymentFailed": False,
        "canCheckout": True,
        "isScheduledToCancel": False,
        "pricing": {
            "members": {"plus_2024": PAIR, "pro_2024": PAIR},
            "sites": {"premium": PAIR, "ultimate": PAIR},
        },
        "usageAddons": {"ai": {"enabled": True}},
        "minUsers": 5,
        "maxUsers": 50,
        "paidMembers": 12,
        "canChangeInterval": False,
        "canUseSAML": True,
        "creditsBundle": None,
        "aiCreditAlertThreshold": 80,
    },
    "mergeRules": {
        "type": "rules",
        "rules": [
            {"rule": "require_specific_reviewers", "users": ["u1"]},
            {"rule": "require_at_least_one_review"},
            {"rule": "custom", "expression": "true", "message": "ok"},
        ],
    },
    "urls": {
        "location": "https://api.x/v1/orgs/o1",
        "app": "https://app.x/o/o1/",
        "logo": "https://cdn.x/l.png",
    },
    "trial": {"status": "ended", "count": 1, "endDate": "2024-02-01T00:00:00.000Z", "decision": "downgrade"},
    "customHostname": "docs.northwind.dev",
    "blocked": {"source": "backoffice", "reason": "unpaid"},
    "internal_billingMigration": {"deadline": "2025-01-01T00:00:00Z", "discountPercent": 20},
    "permissions": PERMISSIONS,
    "brandNewField": {"x": 1},
}


def test_full_organization() -> None:
    org = Organization.model_validate(FULL_ORG)
    assert org.title == "Northwind" and org.use_case == "productDocs" and org.default_role == "read"
    assert org.default_content is not None and org.default_content.site == "site1"
    assert org.billing is not None and org.billing.pricing is not None
    assert org.billing.pricing.members["pro_2024"].yearly == 80 and org.billing.usage_addons["ai"].enabled
    assert org.billing.can_use_saml is True
    assert org.merge_rules is not None and org.merge_rules.rules[0].rule == "require_specific_reviewers"
    assert org.merge_rules.rules[2].expression == "true"
    assert org.trial is not None and org.trial.decision == "downgrade"
    assert org.blocked is not None and org.blocked.source == "backoffice"
    assert org.internal_billing_migration is not None and org.internal_billing_migration.discount_percent == 20
    assert org.permissions.create_open_api_spec and org.permissions.own_team and org.logo == "https://cdn.x/l.png"
    assert org.model_extra == {"brandNewField": {"x": 1}}
    assert org.to_wire()["internal_billingMigration"]["discountPercent"] == 20


def test_minimal_organization_with_unknown_enum_values() -> None:
    org = Organization.model_validate(
        {
            "object": "organization",
            "id": "o2",
            "title": "Guild",
            "createdAt": "2024-01-02T03:04:05Z",
            "emailDomains": [],
            "type": "cooperative",
            "plan": "galactic_2030",
            "inviteLinks": False,
            "mergeRules": {"type": "none"},
            "defaultRole": None,
            "urls": {"location": "https://api.x/v1/orgs/o2", "app": "https://app.x/o/o2/"},
            "trial": {"status": "notapplicable", "count": 0},
            "permissions": {"view": True},
        }
    )
    assert org.type == "cooperative" and org.plan == "galactic_2030" and org.default_role is None
    assert org.billing is None and org.permissions.view and not org.permissions.admin and org.logo is None


def test_organization_needs_an_id() -> None:
    with pytest.raises(ValidationError):
        Organization.model_validate({"object": "organization", "title": "No id"})


@pytest.mark.parametrize(
    ("body", "claims"),
    [({"serviceVisitorClaims": "a.b.c"}, "a.b.c"), ({"gitbookVisitorClaims": "d.e.f"}, "d.e.f"), ({}, None)],
)
def test_ping_result_under_either_name(body: dict[str, str], claims: str | None) -> None:
    assert PingResult.model_validate(body).visitor_claims == claims


MEMBER = {
    "object": "member",
    "id": "u1",
    "role": "edit",
    "user": USER,
    "disabled": False,
    "joinedAt": "2024-05-01T00:00:00Z",
    "lastSeenAt": "2026-10-31T00:00:00Z",
    "sso": False,
    "spaces": 3,
    "teams": 2,
    "sites": 1,
}
TEAM = {
    "object": "team",
    "id": "t1",
    "title": "Docs",
    "members": 4,
    "spaces": 0,
    "createdAt": "2024-01-01T00:00:00Z",
    "permissions": {"admin": False, "view": True},
}


def test_member_and_guest() -> None:
    member = Member.model_validate(MEMBER)
    assert member.role == "edit" and member.spaces == 3 and member.sites == 1 and not member.is_guest
    guest = Member.model_validate({**MEMBER, "role": None, "lastSeenAt": None, "newThing": True})
    assert guest.is_guest and guest.last_seen_at is None and guest.model_extra == {"newThing": True}
    with pytest.raises(ValidationError):
        Member.model_validate({**MEMBER, "role": "owner"})


def test_team_entries() -> None:
    entry = TeamMemberEntry.model_validate(
        {"organization": MEMBER, "team": {"role": "owner"}, "permissions": {"view": True}}
    )
    assert entry.organization.user.display_name == "Ada" and entry.team.role == "owner" and entry.permissions.view
    mine = MemberTeam.model_validate({"team": TEAM, "member": {"role": "member"}})
    assert mine.team.title == "Docs" and mine.team.permissions.view and mine.member.role == "member"


def test_member_space_with_a_full_space() -> None:
    space = {
        "object": "space",
        "id": "s1",
        "title": "Handbook",
        "emoji": "📘",
        "organization": "o1",
        "visibility": "in-collection",
        "revision": "r1",
        "createdAt": "2024-01-01T00:00:00Z",
        "updatedAt": "2024-01-02T00:00:00Z",
        "comments": 2,
        "changeRequests": 5,
        "changeRequestsOpen": 1,
        "changeRequestsDraft": 0,
        "mergeRules": {"type": "inherit"},
        "defaultLevel": "inherit",
        "urls": {"location": "https://api.x/v1/spaces/s1", "app": "https://app.x/o/o1/s/s1/"},
        "permissions": {"view": True, "edit": True},
        "gitSync": {"repoName": "docs"},
        "parent": "c1",
    }
    entry = MemberSpace.model_validate({"permission": "edit", "space": space})
    assert entry.permission == "edit" and entry.space.title == "Handbook" and entry.space.parent == "c1"
    assert entry.space.model_extra is not None and entry.space.model_extra["changeRequests"] == 5


def test_saml_provider_active_and_pending() -> None:
    active = SamlProvider.model_validate(
        {
            "object": "saml-provider",
            "id": "p1",
            "label": "Okta",
            "ssoURL": "https://idp.x/sso",
            "entityID": "urn:okta",
            "certificate": "MIIC",
            "defaultTeam": TEAM,
            "defaultRole": "read",
            "createdAt": "2024-01-01T00:00:00Z",
            "status": "active",
            "service": {
                "acsURL": "https://app.x/acs",
                "startURL": "https://app.x/start",
                "entityID": "urn:x",
            },
            "urls": {"location": "https://api.x/v1/orgs/o1/saml/p1"},
        }
    )
    assert active.sso_url == "https://idp.x/sso" and active.entity_id == "urn:okta"
    assert active.default_team is not None and active.default_team.id == "t1"
    assert active.service is not None and active.service.acs_url == "https://app.x/acs"
    assert active.to_wire()["ssoURL"] == "https://idp.x/sso"
    pending = SamlProvider.model_validate(
        {"object": "saml-provider", "id": "p2", "label": "New", "defaultRole": None, "status": "pending"}
    )
    assert pending.status == "pending" and pending.default_team is None and pending.sso_url is None


def test_sso_logins() -> None:
    logins = SsoLogins.model_validate({"items": [{"id": "p1", "label": "Okta", "startURL": "https://a.x/s"}]})
    assert logins.items[0].start_url == "https://a.x/s"


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("my-company", True),
        ("abc", True),
        ("a" * 32, True),
        ("ab", False),
        ("a" * 33, False),
        ("-abc", False),
        ("abc-", False),
        ("My-Company", False),
        ("my_company", False),
    ],
)
def test_subdomain_pattern(value: str, valid: bool) -> None:
    assert is_valid_subdomain(value) is valid
    parsed = Subdomain.model_validate(
        {
            "object": "subdomain",
            "subdomain": value,
            "target": {"type": "organization", "organization": "o1"},
            "isActive": True,
        }
    )
    assert parsed.is_valid is valid and parsed.target is not None and parsed.target.organization == "o1"


def test_agent_instructions() -> None:
    parsed = AgentInstructions.model_validate(
        {
            "object": "agent-instructions",
            "instructions": {
                "object": "document",
                "data": {"schemaVersion": 1},
                "nodes": [
                    {
                        "object": "block",
                        "type": "paragraph",
                        "nodes": [
                            {
                                "object": "text",
                                "leaves": [{"object": "leaf", "text": "Be brief.", "marks": []}],
                            }
                        ],
                    }
                ],
            },
            "updatedAt": "2026-10-01T00:00:00Z",
            "updatedBy": "u1",
            "urls": {"location": "https://api.x/v1/orgs/o1/agent-instructions"},
        }
    )
    assert parsed.text() == "Be brief." and parsed.updated_by == "u1"
    assert AgentInstructions.model_validate({"object": "agent-instructions"}).text() == ""
