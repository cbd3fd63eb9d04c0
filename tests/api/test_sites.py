"""Sites (spec 4.2): listing, creating, reading, updating and deleting sites, the visitor schema with its
template conditions, and the published profile — through the real client against the sandbox."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient
from folio.api.errors import BadRequest, Forbidden, InvalidRequest, NotFound
from folio.models.site import Site, SiteIconEmoji, SiteIconImage
from folio.models.site_structure import (
    PublishedSite,
    SiteAdaptiveSchema,
    SiteSection,
    SiteSectionGroup,
    SiteSectionsStructure,
)
from folio.sandbox import SandboxState
from tests.api.sites_support import site_id, space_id

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "isAdmin": {"type": "boolean", "description": "An administrator"},
        "my-plan": {"type": "boolean"},
        "unsigned": {
            "type": "object",
            "properties": {"optedIn": {"type": "boolean"}},
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}


def guild(state: SandboxState) -> str:
    return next(o for o in state.orgs if o != state.demo_org)


# --- sites ----------------------------------------------------------------------------------------------------


async def test_list_sites_with_filters(client: GitBookClient, state: SandboxState) -> None:
    org = state.demo_org
    sites = await client.sites.list(org).collect()
    assert [s.title for s in sites] == ["Northwind Docs", "Internal Handbook"]
    docs, handbook = sites
    assert isinstance(docs, Site) and docs.published and docs.visibility == "public"
    assert docs.site_spaces == 9 and docs.adaptive and docs.has_feature("sites-adaptive-content")
    assert isinstance(docs.icon, SiteIconEmoji) and docs.published_url == "https://docs.northwind.dev/"
    assert docs.permissions is not None and docs.permissions.admin
    assert isinstance(handbook.icon, SiteIconImage) and handbook.visibility == "visitor-auth"
    assert not handbook.published and handbook.published_url is None and handbook.agents_context == "excluded"
    assert [s.title for s in await client.sites.list(org, published=False).collect()] == ["Internal Handbook"]
    assert [s.title for s in await client.sites.list(org, title="north").collect()] == ["Northwind Docs"]
    runbooks = space_id(state, "Platform Runbooks")
    assert [s.title for s in await client.sites.list(org, space=runbooks).collect()] == ["Internal Handbook"]


async def test_create_site_publishes_spaces_at_its_root(client: GitBookClient, state: SandboxState) -> None:
    spaces = [space_id(state, "Release Notes"), space_id(state, "Brand Guidelines")]
    site = await client.sites.create(state.demo_org, title="Press Kit", visibility="unlisted", spaces=spaces)
    assert site.title == "Press Kit" and site.visibility == "unlisted" and not site.published
    assert site.type == "basic" and site.site_spaces == 2
    record = state.sites[site.id]
    assert record["organization"] == state.demo_org
    rows = sorted((r for r in state.site_spaces.values() if r["site"] == site.id), key=lambda r: r["order"])
    assert [r["space"] for r in rows] == spaces and all(r["section"] is None for r in rows)
    structure = await client.sites.structure(state.demo_org, site.id)
    assert structure.type == "siteSpaces" and [ss.space.id for ss in structure.structure if ss.space] == spaces


async def test_create_site_checks_before_sending(client: GitBookClient, state: SandboxState) -> None:
    before = dict(state.sites)
    for kwargs, field in (
        ({"title": "X"}, "title"),
        ({"title": "x" * 129}, "title"),
        ({"visibility": "private"}, "visibility"),
        ({"spaces": "abc"}, "spaces"),
        ({"spaces": [""]}, "spaces[0]"),
    ):
        with pytest.raises(InvalidRequest) as caught:
            await client.sites.create(state.demo_org, **kwargs)
        assert caught.value.field == field
    assert state.sites == before


async def test_create_site_errors_from_the_service(client: GitBookClient, state: SandboxState) -> None:
    org = state.demo_org
    with pytest.raises(NotFound):
        await client.sites.create(org, title="Ghost", spaces=["no-such-space"])
    with pytest.raises(BadRequest, match="title"):
        await client.request_json("POST", f"/orgs/{org}/sites", json={"title": "x"})
    with pytest.raises(BadRequest, match="visibility"):
        await client.request_json("POST", f"/orgs/{org}/sites", json={"visibility": "private"})
    with pytest.raises(Forbidden):  # the demo user only edits in the second organization
        await client.sites.create(guild(state), title="Not allowed")
    assert len(state.sites) == 2


async def test_get_and_delete_site(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state, "Northwind Docs")
    site = await client.sites.get(org, sid)
    assert site.id == sid and site.title == "Northwind Docs" and site.urls and site.urls.preview
    await client.sites.delete(org, sid)
    assert sid not in state.sites and sid not in state.adaptive_schemas
    assert not any(r["site"] == sid for r in state.site_spaces.values())
    assert not any(r["site"] == sid for r in state.site_sections.values())
    assert not any(r["site"] == sid for r in state.section_groups.values())
    with pytest.raises(NotFound):
        await client.sites.get(org, sid)
    await client.sites.delete(org, sid)  # already gone: 204, not an error
    with pytest.raises(NotFound):
        await client.sites.get("no-such-org", sid)


async def test_update_site_settings(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state, "Internal Handbook")
    site = await client.sites.update(
        org,
        sid,
        title="Handbook",
        visibility="share-link",
        basename="hb",
        adaptive_content=True,
        agents_context="included",
        proxy="northwind.dev/handbook",
    )
    assert site.title == "Handbook" and site.visibility == "share-link" and site.basename == "hb"
    assert site.adaptive and site.agents_context == "included"
    assert site.proxy is not None and site.proxy.origin == "northwind.dev/handbook" and site.proxy.target
    record = state.sites[sid]
    assert record["visibility"] == "share-link" and record["proxy"] == {"origin": "northwind.dev/handbook"}
    site = await client.sites.update(org, sid, proxy=None)
    assert site.proxy is None and state.sites[sid]["proxy"] is None and state.sites[sid]["title"] == "Handbook"


@pytest.mark.parametrize("visibility", ["public", "unlisted", "share-link", "visitor-auth"])
async def test_visibility_takes_each_of_the_four_values(
    client: GitBookClient, state: SandboxState, visibility: str
) -> None:
    sid = site_id(state, "Northwind Docs")
    site = await client.sites.update(state.demo_org, sid, visibility=visibility)  # type: ignore[arg-type]
    assert site.visibility == visibility == state.sites[sid]["visibility"]


async def test_update_site_checks_limits_before_sending(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state, "Northwind Docs")
    before = dict(state.sites[sid])
    for kwargs, field in (
        ({"title": "N"}, "title"),
        ({"basename": ""}, "basename"),
        ({"basename": "b" * 101}, "basename"),
        ({"visibility": "in-collection"}, "visibility"),
        ({"agents_context": "maybe"}, "agentsContext"),
        ({"proxy": "not a proxy"}, "proxy"),
        ({"proxy": "northwind.dev"}, "proxy"),  # no subdirectory
        ({"proxy": "northwind.dev/" + "d" * 510}, "proxy"),
        ({"title": None}, "title"),
        ({"default_site_space": ""}, "defaultSiteSpace"),
    ):
        with pytest.raises(InvalidRequest) as caught:
            await client.sites.update(org, sid, **kwargs)
        assert caught.value.field == field
    assert state.sites[sid] == before


@pytest.mark.parametrize(
    ("payload", "word"),
    [
        ({"visibility": "private"}, "visibility"),
        ({"title": "x" * 129}, "title"),
        ({"basename": ""}, "basename"),
        ({"agentsContext": "all"}, "agentsContext"),
        ({"adaptiveContent": True}, "adaptiveContent"),
        ({"proxy": "https://northwind.dev/docs"}, "proxy"),
        ({"hostname": "localhost"}, "hostname"),
        ({"hostname": "a." * 300 + "dev"}, "hostname"),
        ({"defaultSiteSection": "nope"}, "defaultSiteSection"),
        ({"defaultSiteSpace": "nope"}, "defaultSiteSpace"),
    ],
)
async def test_update_site_rejects_invalid_bodies(
    client: GitBookClient, state: SandboxState, payload: dict[str, Any], word: str
) -> None:
    sid = site_id(state, "Northwind Docs")
    before = dict(state.sites[sid])
    with pytest.raises(BadRequest, match=word):
        await client.request_json("PATCH", f"/orgs/{state.demo_org}/sites/{sid}", json=payload)
    assert state.sites[sid] == before


async def test_hostname_sets_the_published_urls(client: GitBookClient, state: SandboxState) -> None:
    sid = site_id(state, "Northwind Docs")
    data = await client.request_json(
        "PATCH", f"/orgs/{state.demo_org}/sites/{sid}", json={"hostname": "help.northwind.dev"}
    )
    assert Site.model_validate(data).published_url == "https://help.northwind.dev/"


async def test_default_section_and_site_space(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state, "Northwind Docs")
    sections = await client.site_sections.list(org, sid).collect()
    notes = next(s for s in sections if s.title == "Release Notes")
    site = await client.sites.update(org, sid, default_site_section=notes.id)
    assert state.sites[sid]["defaultSiteSection"] == notes.id and site.id == sid
    brand = next(ss for ss in notes.site_spaces if ss.path == "brand")
    await client.sites.update(org, sid, default_site_space=brand.id)
    assert state.site_sections[notes.id]["defaultSiteSpace"] == brand.id
    published = await client.sites.published(org, sid)
    assert isinstance(published.structure, SiteSectionsStructure)
    notes_now = published.structure.find(notes.id)
    assert isinstance(notes_now, SiteSection) and notes_now.default
    assert notes_now.urls and notes_now.urls.published == "https://docs.northwind.dev/"
    assert [(ss.path, ss.default) for ss in notes_now.site_spaces][1] == ("brand", True)
    other = next(s for s in sections if s.title == "User Guide")
    with pytest.raises(BadRequest, match="default section"):
        await client.sites.update(org, sid, default_site_space=other.site_spaces[0].id)


async def test_members_who_cannot_administer_get_403(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state, "Northwind Docs")
    state.members[org][state.default_user]["role"] = "create"
    with pytest.raises(Forbidden):
        await client.sites.update(org, sid, title="Renamed")
    with pytest.raises(Forbidden):
        await client.sites.update_adaptive_schema(org, sid, SCHEMA)
    state.members[org][state.default_user]["role"] = "read"
    assert (await client.sites.get(org, sid)).permissions.view  # type: ignore[union-attr]
    with pytest.raises(Forbidden):
        await client.sites.delete(org, sid)
    assert state.sites[sid]["title"] == "Northwind Docs"


# --- visitor schema -----------------------------------------------------------------------------------------


async def test_adaptive_schema_and_its_conditions(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state, "Northwind Docs")
    schema = await client.sites.adaptive_schema(org, sid)
    assert isinstance(schema, SiteAdaptiveSchema) and schema.updated_at is not None
    assert schema.claims() == ["isBeta", "isEnterprise"] and schema.unsigned_claims() == ["prefersFrench"]
    conditions = await client.sites.template_conditions(org, sid)
    assert [c.condition for c in conditions] == [
        "visitor.claims.isBeta == true",
        "visitor.claims.isEnterprise == true",
        "visitor.claims.unsigned.prefersFrench == true",
    ]
    assert "beta programme" in conditions[0].description


async def test_put_adaptive_schema_replaces_it(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state, "Internal Handbook")
    with pytest.raises(NotFound):
        await client.sites.adaptive_schema(org, sid)
    assert await client.sites.template_conditions(org, sid) == []
    saved = await client.sites.update_adaptive_schema(org, sid, SCHEMA)
    assert saved.claims() == ["isAdmin", "my-plan"] and saved.unsigned_claims() == ["optedIn"]
    # Descriptions the caller left out are sent as the claim's name, as the service's shape requires.
    stored = state.adaptive_schemas[sid]["jsonSchema"]["properties"]
    assert stored["my-plan"] == {"type": "boolean", "description": "my-plan"}
    assert stored["isAdmin"]["description"] == "An administrator"
    assert stored["unsigned"]["description"] == "Unsigned claims of the site visitor."
    conditions = [c.condition for c in await client.sites.template_conditions(org, sid)]
    assert saved.json_schema["properties"]["unsigned"]["properties"]["optedIn"]["description"] == "optedIn"
    assert conditions == [
        "visitor.claims.isAdmin == true",
        'visitor.claims["my-plan"] == true',
        "visitor.claims.unsigned.optedIn == true",
    ]


async def test_the_sandbox_describes_claims_sent_without_descriptions(
    client: GitBookClient, state: SandboxState
) -> None:
    org, sid = state.demo_org, site_id(state, "Internal Handbook")
    state.adaptive_schemas[sid] = {"jsonSchema": SCHEMA, "updatedAt": state.now()}  # as the spec allows
    schema = await client.sites.adaptive_schema(org, sid)
    assert schema.json_schema["properties"]["my-plan"] == {"type": "boolean", "description": "my-plan"}
    assert schema.json_schema["properties"]["unsigned"]["description"] == "Unsigned claims of the site visitor."


def _broken(path: list[str], value: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            "a": {"type": "boolean"},
            "unsigned": {"type": "object", "properties": {"b": {"type": "boolean"}}, "additionalProperties": False},
        },
        "additionalProperties": False,
    }
    target = schema
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return schema


@pytest.mark.parametrize(
    ("path", "value", "where"),
    [
        (["type"], "array", "jsonSchema.type"),
        (["additionalProperties"], True, "jsonSchema.additionalProperties"),
        (["properties", "a"], {"type": "string"}, "jsonSchema.properties.a.type"),
        (["properties", "unsigned", "type"], "boolean", "jsonSchema.properties.unsigned.type"),
        (
            ["properties", "unsigned", "properties", "b"],
            {"type": "number"},
            "jsonSchema.properties.unsigned.properties.b.type",
        ),
        (
            ["properties", "unsigned", "additionalProperties"],
            True,
            "jsonSchema.properties.unsigned.additionalProperties",
        ),
        (["properties"], [], "jsonSchema.properties"),
    ],
)
async def test_invalid_visitor_schemas(
    client: GitBookClient, state: SandboxState, path: list[str], value: Any, where: str
) -> None:
    org, sid = state.demo_org, site_id(state, "Northwind Docs")
    before = state.adaptive_schemas[sid]
    schema = _broken(path, value)
    with pytest.raises(InvalidRequest) as caught:
        await client.sites.update_adaptive_schema(org, sid, schema)
    assert caught.value.field == where
    with pytest.raises(BadRequest) as refused:
        await client.request_json("PUT", f"/orgs/{org}/sites/{sid}/adaptive-schema", json={"jsonSchema": schema})
    assert where in refused.value.message
    assert state.adaptive_schemas[sid] is before


# --- published profile ----------------------------------------------------------------------------------------


async def test_published_profile(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state, "Northwind Docs")
    published = await client.sites.published(org, sid)
    assert isinstance(published, PublishedSite) and published.site.id == sid
    assert published.customizations and published.customizations["site"]["title"] == "Northwind Docs"
    structure = published.structure
    assert isinstance(structure, SiteSectionsStructure)
    product = structure.structure[0]
    assert isinstance(product, SiteSectionGroup) and product.title == "Product"
    urls = {s.title: s.urls.published if s.urls else None for s in structure.sections()}
    assert urls == {
        "Getting Started": "https://docs.northwind.dev/",
        "User Guide": "https://docs.northwind.dev/user-guide",
        "REST API": "https://docs.northwind.dev/rest-api",
        "SDKs": "https://docs.northwind.dev/sdks",
        "Release Notes": "https://docs.northwind.dev/release-notes",
    }
    guide = next(s for s in structure.sections() if s.title == "User Guide")
    assert [(ss.path, ss.hidden, ss.urls.published if ss.urls else None) for ss in guide.site_spaces] == [
        ("guide", False, "https://docs.northwind.dev/user-guide"),
        ("admin", True, "https://docs.northwind.dev/user-guide/admin"),
    ]


async def test_published_profile_of_an_unpublished_share_link_site(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state, "Internal Handbook")
    await client.sites.update(org, sid, visibility="share-link")
    published = await client.sites.published(org, sid, share_key="k3y")
    assert published.structure.type == "siteSpaces" and not published.site.published
    urls = [ss.urls.published if ss.urls else None for ss in published.structure.site_spaces()]
    base = "https://northwind.gitbook.io/handbook"
    assert urls == [
        f"{base}/?shareKey=k3y",
        f"{base}/platform-runbooks?shareKey=k3y",
        f"{base}/architecture-decisions?shareKey=k3y",
    ]
    # Outside the published profile, an unpublished site has no published URLs.
    plain = await client.sites.structure(org, sid)
    assert all(ss.urls is None or ss.urls.published is None for ss in plain.site_spaces())
    with pytest.raises(NotFound):
        await client.sites.published(org, "no-such-site")
