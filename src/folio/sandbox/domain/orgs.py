"""Organizations (spec 2.2, 4.4b): rendering them to the wire, with the caller's permissions, and who may
join one (a user whose email domain is one of the organization's email domains).

An organization is visible to its members, and to a non-member whose email domain may join it (with no
permissions); only members see its billing. The list of a user's organizations is :func:`org_list_page`.

Imports neither Starlette nor the models: ``folio.sandbox.first_answer`` renders the list with this module alone.
"""

from __future__ import annotations

from typing import Any

from folio.sandbox.domain.membership import member_of
from folio.sandbox.errors import bad_request
from folio.sandbox.paging import page_body
from folio.sandbox.state import Record, SandboxState

_PRICES = {
    "members": {"plus_2024": {"monthly": 8, "yearly": 80}, "pro_2024": {"monthly": 12, "yearly": 120}},
    "sites": {"premium": {"monthly": 65, "yearly": 650}, "ultimate": {"monthly": 249, "yearly": 2490}},
}
_BILLING = {
    "interval": "monthly",
    "endDate": None,
    "hasPaymentFailed": False,
    "canCheckout": True,
    "isScheduledToCancel": False,
    "pricing": _PRICES,
    "usageAddons": {},
    "canChangeInterval": True,
    "canUseSAML": True,
    "creditsBundle": None,
    "aiCreditAlertThreshold": None,
}
_OPTIONAL = (
    "hostname",
    "useCase",
    "communityType",
    "sso",
    "ai",
    "customHostname",
    "blocked",
    "auditLogs",
    "internal_billingMigration",
)


def org_permissions(state: SandboxState, org_id: str, user_id: str) -> dict[str, bool]:
    role = (member_of(state, org_id, user_id) or {}).get("role", "none")
    member, admin, creator = role != "none", role == "admin", role in ("admin", "create")
    staff = member and role is not None
    owns = any(
        t.get("organization") == org_id and t.get("members", {}).get(user_id) == "owner" for t in state.teams.values()
    )
    return {
        "view": True,
        "access": member,
        "admin": admin,
        "ownTeam": owns,
        "createContent": creator,
        "createOpenAPISpec": creator,
        "ingestConversations": creator,
        "viewBilling": admin,
        "listMembers": staff,
        "listTeams": staff,
        "listIntegrations": staff,
        "listInstallations": admin,
        "installIntegration": admin,
    }


def render_org(state: SandboxState, org_id: str, user_id: str) -> Record:
    rec = state.orgs[org_id]
    urls = {"location": f"{state.api_base}/orgs/{org_id}", "app": f"{state.app_base}/o/{org_id}/"}
    if rec.get("logo"):
        urls["logo"] = rec["logo"]
    out: Record = {
        "object": "organization",
        "id": org_id,
        "title": rec["title"],
        "createdAt": rec["createdAt"],
        "emailDomains": list(rec.get("emailDomains", [])),
        "type": rec.get("type", "business"),
        "defaultRole": rec.get("defaultRole"),
        "inviteLinks": bool(rec.get("inviteLinks", False)),
        "plan": rec.get("plan", "free_2024"),
        "mergeRules": rec.get("mergeRules") or {"type": "none"},
        "urls": urls,
        "trial": {"status": "notapplicable", "count": 0, **(rec.get("trial") or {})},
        "permissions": org_permissions(state, org_id, user_id),
    }
    out.update({k: rec[k] for k in _OPTIONAL if rec.get(k) is not None})
    if rec.get("defaultContent"):
        out["defaultContent"] = rec["defaultContent"]
    if member_of(state, org_id, user_id) is not None:
        out["billing"] = {**_BILLING, **(rec.get("billing") or {})}
    return out


def org_list_page(state: SandboxState, user_id: str, offset: int, limit: int) -> Record:
    """A page of ``GET /orgs``: the organizations the user is a member of, in the order they were made."""
    ids = [oid for oid in state.orgs if member_of(state, oid, user_id) is not None]
    return page_body(ids, offset, limit, lambda oid: render_org(state, oid, user_id))


def joinable(state: SandboxState, org_id: str, user_id: str) -> bool:
    email = str(state.users.get(user_id, {}).get("email", ""))
    domain = email.rpartition("@")[2].lower()
    return bool(domain) and domain in {d.lower() for d in state.orgs[org_id].get("emailDomains", [])}


def check_org_merge_rules(value: Any) -> Record:
    if not isinstance(value, dict) or value.get("type") not in ("rules", "none"):
        raise bad_request("mergeRules must be {type: rules, rules: [...]} or {type: none}")
    rules = value.get("rules", [])
    if value["type"] == "rules" and (
        not isinstance(rules, list) or not all(isinstance(r, dict) and isinstance(r.get("rule"), str) for r in rules)
    ):
        raise bad_request("mergeRules.rules must be an array of {rule, users}")
    return value
