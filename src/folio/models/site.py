"""Published docs sites (spec section 2.8): the site itself with its icon, proxy, ads, features and adaptive
content switch, and its visitor (adaptive content) schema with the spec's rules for it and the template
conditions derived from it. The site's structure (sections, groups, site spaces) lives in
:mod:`folio.models.site_structure`, which also re-exports the visitor schema's names."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import field_validator

from folio.models._base import Count, Json, Model, OpenEnum, Timestamp
from folio.models.common import Urls

__all__ = [
    "AGENTS_CONTEXTS",
    "KNOWN_ADS_STATUSES",
    "KNOWN_SITE_CUSTOMIZATIONS",
    "KNOWN_SITE_FEATURES",
    "KNOWN_SITE_TYPES",
    "SITE_VISIBILITIES",
    "UNSIGNED_DESCRIPTION",
    "AgentsContext",
    "Site",
    "SiteAdaptiveContent",
    "SiteAdaptiveSchema",
    "SiteAds",
    "SiteFeature",
    "SiteIcon",
    "SiteIconEmoji",
    "SiteIconImage",
    "SitePermissions",
    "SiteProxy",
    "SiteUrls",
    "SiteVisibility",
    "TemplateCondition",
    "TemplateConditions",
    "ThemedUrl",
    "adaptive_schema_problems",
    "with_claim_descriptions",
]

SiteVisibility = Literal["public", "unlisted", "share-link", "visitor-auth"]
SITE_VISIBILITIES: tuple[SiteVisibility, ...] = ("public", "unlisted", "share-link", "visitor-auth")

AgentsContext = Literal["excluded", "included"]
AGENTS_CONTEXTS: tuple[AgentsContext, ...] = ("excluded", "included")

KNOWN_SITE_TYPES = ("basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium")
KNOWN_ADS_STATUSES = ("pending", "in-review", "rejected", "live", "disabled")
KNOWN_SITE_FEATURES = (
    "sites-adaptive-content",
    "sites-advanced-customization",
    "sites-advanced-insights",
    "sites-ads",
    "sites-ai-search",
    "sites-ai-assistant",
    "sites-ai-insights",
    "sites-fix-broken-links",
    "sites-connections",
    "sites-content-gaps",
    "sites-channels",
    "sites-embed",
    "sites-api-playground",
    "sites-basic-customization",
    "sites-broken-links",
    "sites-custom-domain",
    "sites-custom-fonts",
    "sites-custom-subdirectory",
    "sites-full-text-search",
    "sites-multivariant-site",
    "sites-no-custom-domain",
    "sites-page-feedback",
    "sites-page-traffic-insights",
    "sites-pdf-export",
    "sites-preview-deployments",
    "sites-public-visibility",
    "sites-redirects",
    "sites-search-insights",
    "sites-sections",
    "sites-seo",
    "sites-share-links",
    "sites-unlisted-visibility",
    "sites-user-contribution",
    "sites-visitor-authentication",
    "sites-visitors",
)
KNOWN_SITE_CUSTOMIZATIONS = (
    "header-logo",
    "header-primary-link",
    "theme-preset",
    "premium-fonts",
    "custom-icons",
    "footer-logo",
    "footer-links",
    "footer-copyright",
    "semantic-colors",
)


class ThemedUrl(Model):
    """An image for the light and the dark theme."""

    light: str
    dark: str


class SiteIconImage(Model):
    """An icon given as images: ``{icon: {light, dark}}``."""

    icon: ThemedUrl


class SiteIconEmoji(Model):
    """An icon given as an emoji: ``{emoji}``."""

    emoji: str


SiteIcon = SiteIconImage | SiteIconEmoji | str
"""A site's icon: images for both themes, an emoji, or the name of an icon (an enumerated string)."""


class SiteProxy(Model):
    """Where the site is also served: ``origin`` (e.g. ``company.com/docs``) proxied to ``target``."""

    origin: str
    target: str | None = None


class SiteAdaptiveContent(Model):
    enabled: bool = False


class SiteAds(Model):
    """Ads on the site: one model for the variants (pending, in-review, rejected, live, disabled)."""

    status: OpenEnum
    submittable: bool | None = None
    topic: OpenEnum | None = None
    zone_id: str | None = None
    reason: str | None = None


class SiteFeature(Model):
    """A premium feature enabled on the site, the plan it belongs to and whether it is frozen."""

    id: OpenEnum
    plan: OpenEnum | None = None
    frozen: bool = False
    customizations: list[OpenEnum] = []


class SitePermissions(Model):
    view: bool = False
    access: bool = False
    edit: bool = False
    create: bool = False
    admin: bool = False
    install_integration: bool = False
    view_adaptive_schema: bool = False
    edit_adaptive_schema: bool = False


class SiteUrls(Urls):
    """A site's urls: ``published`` only while the site is published."""

    preview: str | None = None
    login: str | None = None
    logout: str | None = None


class Site(Model):
    """A published docs site (``object`` = ``site``)."""

    object: str = "site"
    id: str
    type: OpenEnum = "basic"
    applied_type: OpenEnum | None = None
    title: str = ""
    icon: SiteIcon | None = None
    hostname: str | None = None
    basename: str | None = None
    proxy: SiteProxy | None = None
    visibility: SiteVisibility
    default_level: str | None = None
    permissions: SitePermissions | None = None
    published: bool = False
    site_spaces: Count = 0
    created_at: Timestamp | None = None
    last_scan_at: Timestamp | None = None
    adaptive_content: SiteAdaptiveContent | None = None
    ads: SiteAds | None = None
    agents_context: AgentsContext | None = None
    features: list[SiteFeature] = []
    urls: SiteUrls | None = None

    @field_validator("icon", mode="before")
    @classmethod
    def _empty_icon(cls, value: Any) -> Any:
        # The service's third icon variant is an empty object: no icon.
        return None if value == {} else value

    @property
    def adaptive(self) -> bool:
        """Whether adaptive content is on."""
        return bool(self.adaptive_content and self.adaptive_content.enabled)

    @property
    def published_url(self) -> str | None:
        return self.urls.published if self.urls else None

    def has_feature(self, feature: str) -> bool:
        return any(f.id == feature for f in self.features)


# --- adaptive content ---------------------------------------------------------------------------------------


class SiteAdaptiveSchema(Model):
    """The schema of a site's visitor claims (``object`` = ``site-adaptive-schema``)."""

    object: str = "site-adaptive-schema"
    json_schema: dict[str, Json] = {}
    updated_at: Timestamp | None = None

    def claims(self) -> list[str]:
        """The names of the signed claims (every property but ``unsigned``)."""
        props = self.json_schema.get("properties")
        return [k for k in props if k != "unsigned"] if isinstance(props, dict) else []

    def unsigned_claims(self) -> list[str]:
        props = self.json_schema.get("properties")
        unsigned = props.get("unsigned") if isinstance(props, dict) else None
        inner = unsigned.get("properties") if isinstance(unsigned, dict) else None
        return list(inner) if isinstance(inner, dict) else []


class TemplateCondition(Model):
    """A condition generated from the visitor schema, ready for a section's or site space's ``condition``."""

    description: str = ""
    condition: str


class TemplateConditions(Model):
    items: list[TemplateCondition] = []


_DRAFT_07 = "http://json-schema.org/draft-07/schema#"
_CLAIM_KEYS = {"type", "description"}


def _claim_problems(where: str, claims: Any) -> list[tuple[str, str]]:
    if not isinstance(claims, dict):
        return [(where, "must be an object of claims")]
    out: list[tuple[str, str]] = []
    for name, claim in claims.items():
        at = f"{where}.{name}"
        if not isinstance(claim, dict):
            out.append((at, "must be an object"))
        elif claim.get("type") != "boolean":
            out.append((f"{at}.type", "must be boolean"))
        elif set(claim) - _CLAIM_KEYS:
            out.append((at, "has unknown keys: " + ", ".join(sorted(set(claim) - _CLAIM_KEYS))))
        elif not isinstance(claim.get("description", ""), str):
            out.append((f"{at}.description", "must be a string"))
    return out


def adaptive_schema_problems(schema: Any) -> list[tuple[str, str]]:
    """What is wrong with a visitor schema, as (where, problem) pairs; empty when it is acceptable.

    The spec's rules: a draft-07 JSON schema of type object whose properties are boolean-typed claims, with an
    ``unsigned`` object property holding the unsigned (boolean) claims, and ``additionalProperties`` false on
    both objects."""
    where = "jsonSchema"
    if not isinstance(schema, dict):
        return [(where, "must be a JSON object")]
    out: list[tuple[str, str]] = []
    if "$schema" in schema and schema["$schema"] != _DRAFT_07:
        out.append((f"{where}.$schema", f"must be {_DRAFT_07}"))
    if schema.get("type") != "object":
        out.append((f"{where}.type", "must be object"))
    if schema.get("additionalProperties") is not False:
        out.append((f"{where}.additionalProperties", "must be false"))
    unknown = set(schema) - {"$schema", "type", "properties", "additionalProperties", "description"}
    if unknown:
        out.append((where, "has unknown keys: " + ", ".join(sorted(unknown))))
    props = schema.get("properties")
    if not isinstance(props, dict):
        out.append((f"{where}.properties", "must be an object of claims"))
        return out
    signed = {k: v for k, v in props.items() if k != "unsigned"}
    out.extend(_claim_problems(f"{where}.properties", signed))
    if "unsigned" in props:
        at = f"{where}.properties.unsigned"
        unsigned = props["unsigned"]
        if not isinstance(unsigned, dict):
            out.append((at, "must be an object"))
        else:
            if unsigned.get("type") != "object":
                out.append((f"{at}.type", "must be object"))
            if unsigned.get("additionalProperties") is not False:
                out.append((f"{at}.additionalProperties", "must be false"))
            out.extend(_claim_problems(f"{at}.properties", unsigned.get("properties")))
    return out


UNSIGNED_DESCRIPTION = "Unsigned claims of the site visitor."


def _described(claims: Any) -> dict[str, Any]:
    if not isinstance(claims, dict):
        return {}
    return {
        name: {**claim, "description": claim.get("description") or name} if isinstance(claim, dict) else claim
        for name, claim in claims.items()
    }


def with_claim_descriptions(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with a ``description`` on every claim (the claim's name where none was given) and the fixed
    description of ``unsigned``: the service's form of the spec's schema, which leaves descriptions out."""
    out = dict(schema)
    props = schema.get("properties")
    if not isinstance(props, dict):
        return out
    new_props = _described({k: v for k, v in props.items() if k != "unsigned"})
    unsigned = props.get("unsigned")
    if isinstance(unsigned, dict):
        new_props["unsigned"] = {
            **unsigned,
            "description": UNSIGNED_DESCRIPTION,
            "properties": _described(unsigned.get("properties")),
        }
    out["properties"] = new_props
    return out
