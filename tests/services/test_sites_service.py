"""The sites service over the seeded sandbox: listing and filtering, creating and deleting, settings (limits
checked before sending), the published view with a share key, and the visitor schema."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient
from folio.api.errors import BadRequest, InvalidRequest
from folio.models.site_structure import SiteSectionsStructure, SiteSpacesStructure
from folio.sandbox import SandboxState
from folio.services import Services
from folio.services.sites.sites import SchemaRefused, SiteService, schema_text, settings
from tests.api.sites_support import site_id, space_id


@pytest.fixture
def sites(client: GitBookClient) -> SiteService:
    return Services(client).sites


def _routes_hit(state: SandboxState, method: str) -> int:
    """How many routes of this method the sandbox answered (a set: zero until the first one)."""
    return sum(1 for m, _ in state.hits if m == method)


async def test_list_and_filter_by_published(sites: SiteService, state: SandboxState) -> None:
    org = state.demo_org
    assert [s.title for s in await sites.list(org)] == ["Northwind Docs", "Internal Handbook"]
    assert [s.title for s in await sites.list(org, published=True)] == ["Northwind Docs"]
    assert [s.title for s in await sites.list(org, published=False)] == ["Internal Handbook"]
    assert [s.title for s in await sites.list(org, title="hand")] == ["Internal Handbook"]


async def test_spaces_to_publish_are_the_orgs_live_spaces(sites: SiteService, state: SandboxState) -> None:
    spaces = await sites.spaces(state.demo_org)
    assert "Getting Started" in [s.title for s in spaces]
    assert all(not s.deleted for s in spaces)


async def test_create_then_delete(sites: SiteService, state: SandboxState) -> None:
    org = state.demo_org
    runbooks = space_id(state, "Platform Runbooks")
    site = await sites.create(org, title="Partner Portal", visibility="share-link", spaces=[runbooks])
    record = state.sites[site.id]
    assert (record["title"], record["visibility"], record["published"]) == ("Partner Portal", "share-link", False)
    assert [r["space"] for r in state.site_spaces.values() if r["site"] == site.id] == [runbooks]
    await sites.delete(org, site.id)
    assert site.id not in state.sites
    assert not [r for r in state.site_spaces.values() if r["site"] == site.id]


async def test_create_refuses_a_short_title_before_sending(sites: SiteService, state: SandboxState) -> None:
    before = _routes_hit(state, "POST")
    with pytest.raises(InvalidRequest, match=r"2\.\.128"):
        await sites.create(state.demo_org, title="P")
    assert _routes_hit(state, "POST") == before and len(state.sites) == 2


async def test_overview_and_settings(sites: SiteService, state: SandboxState) -> None:
    site, structure = await sites.overview(state.demo_org, site_id(state))
    assert site.title == "Northwind Docs" and isinstance(structure, SiteSectionsStructure)
    rows = {s.key: s for s in settings(site, structure)}
    assert rows["defaultSiteSection"].value == "Getting Started"
    assert rows["defaultSiteSpace"].value == "Getting Started"
    handbook, root = await sites.overview(state.demo_org, site_id(state, "Internal Handbook"))
    assert isinstance(root, SiteSpacesStructure)
    assert {s.key: s for s in settings(handbook, root)}["basename"].value == "handbook"


@pytest.mark.parametrize(
    ("key", "value", "field", "expected"),
    [
        ("title", "Northwind Reference", "title", "Northwind Reference"),
        ("visibility", "unlisted", "visibility", "unlisted"),
        ("basename", "reference", "basename", "reference"),
        ("proxy", "northwind.dev/docs", "proxy", {"origin": "northwind.dev/docs"}),
        ("agentsContext", "excluded", "agentsContext", "excluded"),
        ("adaptiveContent", "off", "adaptiveContent", {"enabled": False}),
    ],
)
async def test_update_one_setting(
    sites: SiteService, state: SandboxState, key: str, value: str, field: str, expected: Any
) -> None:
    site = await sites.update_setting(state.demo_org, site_id(state), key, value)
    assert state.sites[site.id][field] == expected


async def test_proxy_null_removes_it(sites: SiteService, state: SandboxState) -> None:
    sid = site_id(state)
    site = await sites.update_setting(state.demo_org, sid, "proxy", "northwind.dev/docs")
    assert site.proxy is not None and site.proxy.origin == "northwind.dev/docs"
    site = await sites.update_setting(state.demo_org, sid, "proxy", "null")
    assert site.proxy is None and state.sites[sid]["proxy"] is None


async def test_limits_are_checked_before_sending(sites: SiteService, state: SandboxState) -> None:
    before = _routes_hit(state, "PATCH")
    with pytest.raises(InvalidRequest, match=r"2\.\.128"):
        await sites.update_setting(state.demo_org, site_id(state), "title", "N")
    with pytest.raises(InvalidRequest, match="pattern"):
        await sites.update_setting(state.demo_org, site_id(state), "proxy", "not a proxy")
    with pytest.raises(InvalidRequest, match="not a setting"):
        await sites.update_setting(state.demo_org, site_id(state), "colour", "blue")
    assert _routes_hit(state, "PATCH") == before
    assert state.sites[site_id(state)]["title"] == "Northwind Docs"


async def test_default_section_and_site_space(sites: SiteService, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    structure = await sites.structure(org, sid)
    notes = next(s for s in structure.sections() if s.title == "Release Notes")
    await sites.update_setting(org, sid, "defaultSiteSection", notes.id)
    onboarding = next(ss for ss in notes.site_spaces if ss.path == "onboarding")
    await sites.update_setting(org, sid, "defaultSiteSpace", onboarding.id)
    site, structure = await sites.overview(org, sid)
    rows = {s.key: s for s in settings(site, structure)}
    assert rows["defaultSiteSection"].value == "Release Notes"
    assert rows["defaultSiteSpace"].current == onboarding.id
    # A site space of another section is refused by the service, in its words.
    guide = next(s for s in structure.sections() if s.title == "User Guide").site_spaces[0]
    with pytest.raises(BadRequest, match="not in the site's default section"):
        await sites.update_setting(org, sid, "defaultSiteSpace", guide.id)


async def test_published_view_with_a_share_key(sites: SiteService, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    view = await sites.published(org, sid)
    assert view.published.site.published_url == "https://docs.northwind.dev/"
    assert view.editable is not None and len(view.editable.sections()) == 5
    await sites.update_setting(org, sid, "visibility", "share-link")
    shared = await sites.published(org, sid, share_key="s3cret")
    urls = [s.urls.published for s in shared.published.structure.sections() if s.urls]
    assert urls and all(u.endswith("?shareKey=s3cret") for u in urls)


async def test_visitor_schema_read_refused_and_saved(sites: SiteService, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    schema = await sites.adaptive_schema(org, sid)
    assert schema is not None and schema.claims() == ["isBeta", "isEnterprise"]
    conditions = await sites.template_conditions(org, sid)
    assert [c.condition for c in conditions][:1] == ["visitor.claims.isBeta == true"]
    before = _routes_hit(state, "PUT")
    with pytest.raises(SchemaRefused, match='Claim "isPro" must be of type "boolean"'):
        await sites.save_adaptive_schema(org, sid, '{"type": "object", "properties": {"isPro": {"type": "string"}}}')
    with pytest.raises(SchemaRefused, match="Not valid JSON"):
        await sites.save_adaptive_schema(org, sid, "{")
    assert _routes_hit(state, "PUT") == before
    text = schema_text({"type": "object", "properties": {"isPro": {"type": "boolean"}}, "additionalProperties": False})
    saved = await sites.save_adaptive_schema(org, sid, text)
    assert saved.claims() == ["isPro"]
    assert state.adaptive_schemas[sid]["jsonSchema"]["properties"]["isPro"]["type"] == "boolean"
    assert [c.condition for c in await sites.template_conditions(org, sid)] == ["visitor.claims.isPro == true"]


async def test_a_site_without_a_schema_has_none(sites: SiteService, state: SandboxState) -> None:
    assert await sites.adaptive_schema(state.demo_org, site_id(state, "Internal Handbook")) is None
    assert await sites.template_conditions(state.demo_org, site_id(state, "Internal Handbook")) == []
