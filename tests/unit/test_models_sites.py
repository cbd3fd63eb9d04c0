"""Parsing the service's sites and their structure in the variants the public description allows (icon
variants, ads variants, both structure variants, nested groups, external links, unknown kinds and fields), and
the visitor schema rules of the spec."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from folio.models.site import Site, SiteIconEmoji, SiteIconImage
from folio.models.site_structure import (
    PublishedSite,
    SiteAdaptiveSchema,
    SiteExternalLink,
    SiteSection,
    SiteSectionGroup,
    SiteSectionsStructure,
    SiteSpace,
    SiteSpacesStructure,
    SiteStructure,
    SiteStructureItem,
    SiteStructureItemMovePosition,
    SiteStructureItemPointer,
    TemplateConditions,
    UnknownStructureItem,
    adaptive_schema_problems,
    with_claim_descriptions,
)

SITE: dict[str, Any] = {
    "object": "site",
    "id": "site1",
    "type": "ultimate",
    "appliedType": "basic",
    "title": "Docs",
    "hostname": "docs.example.com",
    "basename": "docs",
    "proxy": {"origin": "example.com/docs", "target": "https://example.gitbook.io/docs"},
    "visibility": "share-link",
    "defaultLevel": "inherit",
    "permissions": dict.fromkeys(
        ("view", "access", "edit", "create", "admin", "installIntegration", "viewAdaptiveSchema", "editAdaptiveSchema"),
        True,
    ),
    "published": True,
    "siteSpaces": 3.0,
    "createdAt": "2026-01-02T03:04:05.000Z",
    "adaptiveContent": {"enabled": True},
    "ads": {"status": "pending", "submittable": True},
    "features": [
        {"id": "sites-adaptive-content", "plan": "premium", "frozen": False},
        {
            "id": "sites-new-thing",
            "plan": "enterprise-2030",
            "frozen": True,
            "customizations": ["header-logo", "future-one"],
        },
    ],
    "urls": {
        "location": "https://api.x/v1/orgs/o/sites/site1",
        "app": "https://app.x/o/o/sites/site1",
        "preview": "https://app.x/preview",
        "published": "https://docs.example.com/",
    },
    "styleguide": {"kind": "space", "space": "s1"},
    "brandNewField": {"anything": [1, 2]},
}

SPACE = {
    "object": "space",
    "id": "sp1",
    "title": "Guide",
    "emoji": "📘",
    "visibility": "public",
    "organization": "o",
    "urls": {"app": "https://app.x/s/sp1", "location": "https://api.x/v1/spaces/sp1"},
    "revision": "r1",
    "comments": 2,
}


def site_space(sid: str, **extra: Any) -> dict[str, Any]:
    return {
        "object": "site-space",
        "id": sid,
        "path": sid,
        "space": SPACE,
        "title": "Guide",
        "draft": False,
        "urls": {"published": f"https://docs.example.com/{sid}"},
        **extra,
    }


def section(sid: str, *spaces: str, **extra: Any) -> dict[str, Any]:
    return {
        "object": "site-section",
        "id": sid,
        "title": sid.title(),
        "path": sid,
        "draft": False,
        "siteSpaces": [site_space(s, section=sid) for s in spaces],
        "urls": {},
        **extra,
    }


def test_site_with_every_field_and_some_unknown_ones() -> None:
    site = Site.model_validate(SITE)
    assert site.type == "ultimate" and site.applied_type == "basic" and site.visibility == "share-link"
    assert site.site_spaces == 3 and site.adaptive and site.published_url == "https://docs.example.com/"
    assert site.proxy is not None and site.proxy.origin == "example.com/docs"
    assert site.permissions is not None and site.permissions.edit_adaptive_schema
    assert site.ads is not None and site.ads.status == "pending" and site.ads.submittable
    assert site.features[1].id == "sites-new-thing" and site.features[1].customizations[1] == "future-one"
    assert site.has_feature("sites-adaptive-content") and not site.has_feature("sites-ads")
    assert site.model_extra == {"styleguide": {"kind": "space", "space": "s1"}, "brandNewField": {"anything": [1, 2]}}
    assert site.to_wire()["siteSpaces"] == 3 and site.to_wire()["appliedType"] == "basic"


def test_minimal_site() -> None:
    site = Site.model_validate({"id": "s", "visibility": "public"})
    assert site.title == "" and not site.published and site.icon is None and site.urls is None
    assert site.agents_context is None and site.features == [] and not site.adaptive


@pytest.mark.parametrize(
    ("icon", "kind"),
    [
        ({"icon": {"light": "https://x/l.png", "dark": "https://x/d.png"}}, SiteIconImage),
        ({"emoji": "🧭"}, SiteIconEmoji),
        ("book-open", str),
        ({}, type(None)),
        (None, type(None)),
    ],
)
def test_site_icon_variants(icon: Any, kind: type) -> None:
    site = Site.model_validate({**SITE, "icon": icon})
    assert isinstance(site.icon, kind)
    if isinstance(site.icon, SiteIconImage):
        assert site.icon.icon.dark == "https://x/d.png"


@pytest.mark.parametrize(
    "ads",
    [
        {"status": "in-review", "topic": "webdev"},
        {"status": "rejected", "reason": "Off topic"},
        {"status": "live", "topic": "crypto", "zoneId": "z1"},
        {"status": "disabled", "topic": "webdev", "zoneId": "z2"},
        {"status": "paused-for-review"},
    ],
)
def test_site_ads_variants(ads: dict[str, Any]) -> None:
    parsed = Site.model_validate({**SITE, "ads": ads}).ads
    assert parsed is not None and parsed.status == ads["status"]
    assert parsed.zone_id == ads.get("zoneId") and parsed.reason == ads.get("reason")


@pytest.mark.parametrize(
    ("field", "value"), [("visibility", "private"), ("agentsContext", "sometimes"), ("visibility", None), ("id", None)]
)
def test_site_refuses_values_outside_the_full_enumerations(field: str, value: Any) -> None:
    with pytest.raises(ValidationError):
        Site.model_validate({**SITE, field: value})


def test_sections_structure_with_nested_groups_links_and_unknown_items() -> None:
    data = {
        "type": "sections",
        "structure": [
            {
                "object": "site-section-group",
                "id": "g1",
                "title": "Product",
                "draft": False,
                "icon": "box",
                "sections": [section("start", "ss1")],
                "children": [
                    section("start", "ss1", "ss2", sectionGroup="g1", condition="visitor.claims.isBeta == true"),
                    {
                        "object": "site-section-group",
                        "id": "g2",
                        "title": "Ref",
                        "draft": False,
                        "sectionGroup": "g1",
                        "sections": ["api"],
                        "children": [section("api", "ss3", sectionGroup="g2")],
                    },
                    {
                        "object": "site-external-link",
                        "id": "l1",
                        "title": "Status",
                        "url": "https://status.x",
                        "draft": False,
                        "sectionGroup": "g1",
                    },
                ],
            },
            section("notes", "ss4", default=True, description="What changed", icon="megaphone"),
            {"object": "site-hologram", "id": "h1", "title": "From the future"},
        ],
    }
    structure = TypeAdapter(SiteStructure).validate_python(data)
    assert isinstance(structure, SiteSectionsStructure)
    kinds = [type(i).__name__ for i in structure.walk()]
    assert kinds == [
        "SiteSectionGroup",
        "SiteSection",
        "SiteSectionGroup",
        "SiteSection",
        "SiteExternalLink",
        "SiteSection",
        "UnknownStructureItem",
    ]
    assert [s.id for s in structure.sections()] == ["start", "api", "notes"]
    assert [ss.id for ss in structure.site_spaces()] == ["ss1", "ss2", "ss3", "ss4"]
    group = structure.structure[0]
    assert isinstance(group, SiteSectionGroup) and group.icon == "box"
    assert isinstance(group.sections[0], SiteSection)
    nested = group.children[1]
    assert isinstance(nested, SiteSectionGroup) and nested.sections == ["api"] and nested.section_group == "g1"
    link = structure.find("l1")
    assert isinstance(link, SiteExternalLink) and link.url == "https://status.x"
    ss = structure.find("ss3")
    assert (
        isinstance(ss, SiteSpace)
        and ss.section == "api"
        and ss.space
        and ss.space.revision == "r1"
        and ss.space.comments == 2
    )
    notes = structure.find("notes")
    assert isinstance(notes, SiteSection) and notes.default and notes.description == "What changed"
    assert isinstance(structure.find("h1"), UnknownStructureItem) and structure.find("nope") is None


def test_site_spaces_structure() -> None:
    data = {
        "type": "siteSpaces",
        "structure": [site_space("a", default=True), site_space("b", hidden=True, condition="x")],
    }
    structure = TypeAdapter(SiteStructure).validate_python(data)
    assert isinstance(structure, SiteSpacesStructure) and structure.sections() == []
    assert [ss.id for ss in structure.walk()] == ["a", "b"] and structure.site_spaces()[1].hidden
    found = structure.find("b")
    assert found is not None and found.condition == "x" and structure.find("c") is None
    assert structure.site_spaces()[0].urls and structure.site_spaces()[0].urls.published == "https://docs.example.com/a"


def test_structure_item_answers_of_the_sort() -> None:
    adapter = TypeAdapter(SiteStructureItem)
    assert isinstance(adapter.validate_python(site_space("a")), SiteSpace)
    assert isinstance(adapter.validate_python(section("s")), SiteSection)
    group = adapter.validate_python(
        {"object": "site-section-group", "id": "g", "title": "G", "draft": False, "sections": [], "children": []}
    )
    assert isinstance(group, SiteSectionGroup)


def test_pointer_and_position() -> None:
    position = SiteStructureItemMovePosition.model_validate(
        {"before": {"type": "site-section-group", "id": "g"}, "after": {"type": "site-external-link", "id": "l"}}
    )
    assert position.before == SiteStructureItemPointer(type="site-section-group", id="g")
    assert position.to_wire() == {
        "before": {"type": "site-section-group", "id": "g"},
        "after": {"type": "site-external-link", "id": "l"},
    }
    with pytest.raises(ValidationError):
        SiteStructureItemPointer.model_validate({"type": "page", "id": "p"})


def test_published_site() -> None:
    published = PublishedSite.model_validate(
        {
            "object": "published-content-site",
            "site": SITE,
            "structure": {"type": "siteSpaces", "structure": [site_space("a")]},
            "customizations": {"site": {"title": "Docs"}, "siteSpaces": {}},
            "scripts": [{"script": "https://x/s.js"}],
        }
    )
    assert published.site.id == "site1" and published.structure.type == "siteSpaces"
    assert published.customizations == {"site": {"title": "Docs"}, "siteSpaces": {}} and len(published.scripts) == 1


def test_adaptive_schema_and_template_conditions() -> None:
    schema = SiteAdaptiveSchema.model_validate(
        {
            "object": "site-adaptive-schema",
            "updatedAt": "2026-01-01T00:00:00Z",
            "jsonSchema": {
                "type": "object",
                "properties": {
                    "isBeta": {"type": "boolean", "description": "Beta"},
                    "unsigned": {
                        "type": "object",
                        "properties": {"optIn": {"type": "boolean", "description": "o"}},
                        "additionalProperties": False,
                        "description": "Unsigned claims of the site visitor.",
                    },
                },
                "additionalProperties": False,
            },
        }
    )
    assert schema.claims() == ["isBeta"] and schema.unsigned_claims() == ["optIn"]
    assert SiteAdaptiveSchema.model_validate({"jsonSchema": {}}).claims() == []
    conditions = TemplateConditions.model_validate(
        {"items": [{"description": "Beta", "condition": "visitor.claims.isBeta == true"}]}
    )
    assert conditions.items[0].condition == "visitor.claims.isBeta == true"


GOOD: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "isBeta": {"type": "boolean", "description": "Beta"},
        "plan": {"type": "boolean"},
        "unsigned": {"type": "object", "properties": {"optIn": {"type": "boolean"}}, "additionalProperties": False},
    },
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"type": "array"}, "jsonSchema.type"),
        ({"additionalProperties": True}, "jsonSchema.additionalProperties"),
        ({"$schema": "https://json-schema.org/draft/2020-12/schema"}, "jsonSchema.$schema"),
        ({"required": ["isBeta"]}, "jsonSchema"),
        ({"properties": "none"}, "jsonSchema.properties"),
        ({"properties": {"plan": {"type": "string", "enum": ["pro"]}}}, "jsonSchema.properties.plan.type"),
        ({"properties": {"plan": True}}, "jsonSchema.properties.plan"),
        ({"properties": {"plan": {"type": "boolean", "default": True}}}, "jsonSchema.properties.plan"),
        ({"properties": {"unsigned": {"type": "boolean"}}}, "jsonSchema.properties.unsigned.type"),
        (
            {"properties": {"unsigned": {"type": "object", "properties": {}}}},
            "jsonSchema.properties.unsigned.additionalProperties",
        ),
        (
            {
                "properties": {
                    "unsigned": {
                        "type": "object",
                        "properties": {"x": {"type": "number"}},
                        "additionalProperties": False,
                    }
                }
            },
            "jsonSchema.properties.unsigned.properties.x.type",
        ),
    ],
)
def test_visitor_schema_problems(change: dict[str, Any], where: str) -> None:
    assert adaptive_schema_problems(GOOD) == []
    assert adaptive_schema_problems({"type": "object", "properties": {}, "additionalProperties": False}) == []
    problems = adaptive_schema_problems({**GOOD, **change})
    assert problems and problems[0][0] == where
    assert adaptive_schema_problems("not a schema") == [("jsonSchema", "must be a JSON object")]


def test_claim_descriptions_are_filled_in() -> None:
    out = with_claim_descriptions(GOOD)
    assert out["properties"]["isBeta"]["description"] == "Beta"
    assert out["properties"]["plan"] == {"type": "boolean", "description": "plan"}
    assert out["properties"]["unsigned"]["description"] == "Unsigned claims of the site visitor."
    assert out["properties"]["unsigned"]["properties"]["optIn"]["description"] == "optIn"
    assert GOOD["properties"]["plan"] == {"type": "boolean"}  # the input is left alone
    assert with_claim_descriptions({"type": "object"}) == {"type": "object"}
