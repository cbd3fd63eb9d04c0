"""Organizations (spec section 2.2): the organization itself, its billing, trial and merge rules, and the
answer of the ``ping`` operation."""

from __future__ import annotations

from pydantic import Field

from folio.models._base import Model, OpenEnum, Timestamp
from folio.models.common import Role, Urls

__all__ = [
    "KNOWN_BILLING_INTERVALS",
    "KNOWN_COMMUNITY_TYPES",
    "KNOWN_MERGE_RULES",
    "KNOWN_ORGANIZATION_TYPES",
    "KNOWN_PLANS",
    "KNOWN_TRIAL_STATUSES",
    "KNOWN_USE_CASES",
    "Billing",
    "BillingMigration",
    "Blocked",
    "DefaultContent",
    "MergeRule",
    "MergeRules",
    "Organization",
    "OrganizationPermissions",
    "PingResult",
    "PricePair",
    "Pricing",
    "Trial",
    "UsageAddon",
]

KNOWN_ORGANIZATION_TYPES = ("business", "community")
KNOWN_USE_CASES = (
    "internalDocs",
    "docsSite",
    "audienceControlledSite",
    "productDocs",
    "teamKnowledgeBase",
    "designSystem",
    "openSourceDocs",
    "notes",
    "other",
)
KNOWN_COMMUNITY_TYPES = ("nonProfit", "openSource", "education")
KNOWN_PLANS = (
    "free_2024",
    "plus_2024",
    "pro_2024",
    "enterprise_2024",
    "community_2024",
    "free",
    "plus",
    "pro",
    "internal",
)
KNOWN_BILLING_INTERVALS = ("monthly", "yearly")
KNOWN_TRIAL_STATUSES = ("notapplicable", "none", "active", "ended", "expired")
KNOWN_MERGE_RULES = (
    "require_specific_reviewers",
    "require_one_of_specific_reviewers",
    "allow_bypass",
    "require_at_least_one_review",
    "require_at_least_one_approved_review",
    "require_all_reviews_approved",
    "require_agent_review",
    "require_up_to_date_change_request",
    "require_change_request_subject",
    "require_change_request_description",
    "require_author_to_merge",
    "custom",
)


class MergeRule(Model):
    """One merge rule: its name, and the users it names (or the expression of a ``custom`` rule)."""

    rule: OpenEnum
    users: list[str] = []
    expression: str | None = None
    message: str | None = None


class MergeRules(Model):
    """``{type: inherit}``, ``{type: none}`` or ``{type: rules, rules: [...]}``."""

    type: OpenEnum = "rules"
    rules: list[MergeRule] = []


class DefaultContent(Model):
    """What visitors of the organization's hostname land on: ``{type: site, site: <id>}``."""

    type: OpenEnum = "site"
    site: str | None = None


class PricePair(Model):
    monthly: float | None = None
    yearly: float | None = None


class Pricing(Model):
    members: dict[str, PricePair] = {}
    sites: dict[str, PricePair] = {}


class UsageAddon(Model):
    enabled: bool = False


class Billing(Model):
    """Billing details; only members see them."""

    interval: OpenEnum | None = None
    end_date: Timestamp | None = None
    has_payment_failed: bool | None = None
    can_checkout: bool | None = None
    is_scheduled_to_cancel: bool | None = None
    pricing: Pricing | None = None
    usage_addons: dict[str, UsageAddon] = {}
    min_users: float | None = None
    max_users: float | None = None
    paid_members: float | None = None
    can_use_saml: bool | None = Field(default=None, alias="canUseSAML")


class Trial(Model):
    status: OpenEnum = "notapplicable"
    count: int = 0
    end_date: Timestamp | None = None
    decision: OpenEnum | None = None


class Blocked(Model):
    source: OpenEnum | None = None
    reason: str | None = None


class BillingMigration(Model):
    deadline: Timestamp | None = None
    discount_percent: float | None = None
    discount_end_date: Timestamp | None = None


class OrganizationPermissions(Model):
    """What the caller may do in the organization (absent flags are False)."""

    view: bool = False
    access: bool = False
    admin: bool = False
    own_team: bool = False
    create_content: bool = False
    create_open_api_spec: bool = Field(default=False, alias="createOpenAPISpec")
    ingest_conversations: bool = False
    view_billing: bool = False
    list_members: bool = False
    list_teams: bool = False
    list_integrations: bool = False
    list_installations: bool = False
    install_integration: bool = False


class Organization(Model):
    """An organization (``object`` = ``organization``)."""

    object: str = "organization"
    id: str
    title: str = ""
    created_at: Timestamp | None = None
    email_domains: list[str] = []
    hostname: str | None = None
    type: OpenEnum = "business"
    use_case: OpenEnum | None = None
    community_type: OpenEnum | None = None
    default_role: Role | None = None
    default_content: DefaultContent | None = None
    sso: bool | None = None
    ai: bool | None = None
    invite_links: bool = False
    audit_logs: bool | None = None
    plan: OpenEnum | None = None
    billing: Billing | None = None
    merge_rules: MergeRules | None = None
    urls: Urls | None = None
    trial: Trial | None = None
    custom_hostname: str | None = None
    blocked: Blocked | None = None
    internal_billing_migration: BillingMigration | None = Field(default=None, alias="internal_billingMigration")
    permissions: OrganizationPermissions = Field(default_factory=OrganizationPermissions)

    @property
    def logo(self) -> str | None:
        return self.urls.logo if self.urls else None


class PingResult(Model):
    """The answer of ``POST /orgs/{id}/ping``: the claims to attach to a site visitor, under either name the
    service has used (``serviceVisitorClaims`` in the spec, ``gitbookVisitorClaims`` in the public
    description)."""

    service_visitor_claims: str | None = None
    gitbook_visitor_claims: str | None = None

    @property
    def visitor_claims(self) -> str | None:
        return self.service_visitor_claims or self.gitbook_visitor_claims
