"""A site's structure (getSiteStructure, sortSiteStructure), its sections (spec 4.3) and section groups (4.4),
through the real client against the sandbox: reorders really reorder, and the published view follows."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient
from folio.api.errors import BadRequest, InvalidRequest, NotFound, NotOffered
from folio.models.site_structure import (
    SiteSection,
    SiteSectionGroup,
    SiteSpace,
    SiteStructureItemPointer,
)
from folio.sandbox import SandboxState, SandboxTransport, create_app
from tests.api.sites_support import group, outline, section, sections_structure, site_id
from tests.conftest import SANDBOX_URL, TOKEN

# --- structure and sort ---------------------------------------------------------------------------------------


async def test_structure_of_a_site_with_sections(client: GitBookClient, state: SandboxState) -> None:
    structure = await sections_structure(client, state)
    assert outline(structure.structure) == [
        "Product",
        ["Getting Started", "User Guide", "Reference", ["REST API", "SDKs"]],
        "Release Notes",
    ]
    product = structure.structure[0]
    assert isinstance(product, SiteSectionGroup) and [s.title for s in product.sections] == [  # type: ignore[union-attr]
        "Getting Started",
        "User Guide",
    ]
    sdks = structure.find(section(state, "SDKs"))
    assert isinstance(sdks, SiteSection) and sdks.condition == "visitor.claims.isBeta == true"
    assert sdks.section_group == group(state, "Reference")
    assert len(structure.site_spaces()) == 9
    french = next(ss for ss in structure.site_spaces() if ss.path == "fr")
    assert french.condition and french.space and french.space.title == "Centre d'aide"


async def test_sort_moves_a_section_before_a_group_and_urls_follow(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    notes, product = section(state, "Release Notes"), group(state, "Product")
    moved = await client.sites.sort_structure(
        org, sid, ("site-section", notes), before=SiteStructureItemPointer(type="site-section-group", id=product)
    )
    assert isinstance(moved, SiteSection) and moved.id == notes and moved.default
    assert state.site_sections[notes]["order"] < state.section_groups[product]["order"]
    structure = await sections_structure(client, state)
    assert [i.title for i in structure.structure] == ["Release Notes", "Product"]
    # The first section is now the default one: it takes the site's root URL.
    published = await client.sites.published(org, sid)
    urls = {s.title: s.urls.published if s.urls else None for s in published.structure.sections()}
    assert urls["Release Notes"] == "https://docs.northwind.dev/"
    assert urls["Getting Started"] == "https://docs.northwind.dev/getting-started"


async def test_sort_inside_a_group_and_after(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    ref = group(state, "Reference")
    await client.sites.sort_structure(
        org, sid, ("site-section-group", ref), after=("site-section", section(state, "Getting Started"))
    )
    structure = await sections_structure(client, state)
    assert outline(structure.structure)[1] == ["Getting Started", "Reference", ["REST API", "SDKs"], "User Guide"]
    await client.sites.sort_structure(org, sid, ("site-section", section(state, "REST API")))  # to the end
    structure = await sections_structure(client, state)
    assert outline(structure.structure)[1][2] == ["SDKs", "REST API"]


async def test_sort_site_spaces_of_a_section(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    notes = section(state, "Release Notes")
    rows = sorted((r for r in state.site_spaces.values() if r["section"] == notes), key=lambda r: r["order"])
    last = rows[-1]["id"]
    moved = await client.sites.sort_structure(org, sid, ("site-space", last), before=("site-space", rows[0]["id"]))
    assert isinstance(moved, SiteSpace) and moved.default and moved.path == "onboarding"
    published = await client.sites.published(org, sid)
    found = published.structure.find(notes)
    assert isinstance(found, SiteSection)
    assert [(ss.path, ss.urls.published if ss.urls else None) for ss in found.site_spaces] == [
        ("onboarding", "https://docs.northwind.dev/release-notes"),
        ("changelog", "https://docs.northwind.dev/release-notes/changelog"),
        ("brand", "https://docs.northwind.dev/release-notes/brand"),
    ]


async def test_sort_refuses_other_levels_before_sending(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    notes = section(state, "Release Notes")
    a_space = next(iter(state.site_spaces))
    before = {k: v["order"] for k, v in state.site_sections.items()}
    cases: list[tuple[Any, dict[str, Any], str]] = [
        (("site-section", notes), {"before": ("site-space", a_space)}, "position.before"),
        (("site-section", notes), {"after": ("site-section", notes)}, "position.after"),
        (("page", notes), {}, "item.type"),
        (("site-section", ""), {}, "item.id"),
    ]
    for item, position, field in cases:
        with pytest.raises(InvalidRequest) as caught:
            await client.sites.sort_structure(org, sid, item, **position)
        assert caught.value.field == field
    assert {k: v["order"] for k, v in state.site_sections.items()} == before


async def test_sort_errors_from_the_service(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    url = f"/orgs/{org}/sites/{sid}/structure/sort"
    notes, sdks = section(state, "Release Notes"), section(state, "SDKs")
    a_space = next(iter(state.site_spaces))
    item = {"type": "site-section", "id": notes}
    with pytest.raises(BadRequest, match="another level"):
        await client.request_json(
            "PATCH", url, json={"item": item, "position": {"before": {"type": "site-space", "id": a_space}}}
        )
    with pytest.raises(BadRequest, match="not a sibling"):  # SDKs sits in the Reference group
        await client.request_json(
            "PATCH", url, json={"item": item, "position": {"before": {"type": "site-section", "id": sdks}}}
        )
    with pytest.raises(BadRequest, match="item"):
        await client.request_json("PATCH", url, json={"position": {}})
    with pytest.raises(BadRequest, match="item"):
        await client.request_json("PATCH", url, json={"item": None, "position": {}})
    with pytest.raises(BadRequest, match=r"item\.type"):
        await client.request_json("PATCH", url, json={"item": {"type": "page", "id": notes}})
    with pytest.raises(NotFound):
        await client.sites.sort_structure(org, sid, ("site-section", "no-such-section"))
    with pytest.raises(NotFound):
        await client.sites.sort_structure(org, sid, ("site-section", notes), after=("site-section-group", "nope"))
    guide, product = section(state, "User Guide"), group(state, "Product")
    with pytest.raises(BadRequest, match="neighbours"):
        await client.sites.sort_structure(
            org,
            sid,
            ("site-section", guide),
            before=("site-section", section(state, "Getting Started")),
            after=("site-section-group", group(state, "Reference")),
        )
    assert state.section_groups[product]["order"] == 0


async def test_sort_answers_204_when_asked_for_a_minimal_answer(state: SandboxState) -> None:
    import httpx

    org, sid = state.demo_org, site_id(state)
    transport = SandboxTransport(create_app(state))
    async with httpx.AsyncClient(transport=transport, base_url=SANDBOX_URL + "/v1") as http:
        response = await http.patch(
            f"/orgs/{org}/sites/{sid}/structure/sort",
            json={"item": {"type": "site-section", "id": section(state, "Getting Started")}, "position": {}},
            headers={"Authorization": f"Bearer {TOKEN}", "Prefer": "return=minimal"},
        )
    assert response.status_code == 204 and response.headers["Preference-Applied"] == "return=minimal"
    product = group(state, "Product")
    kids = sorted((r for r in state.site_sections.values() if r["sectionGroup"] == product), key=lambda r: r["order"])
    assert kids[-1]["title"] == "Getting Started"


async def test_structure_of_a_missing_site_is_404(client: GitBookClient, state: SandboxState) -> None:
    with pytest.raises(NotFound):
        await client.sites.structure(state.demo_org, "no-such-site")


# --- section groups -------------------------------------------------------------------------------------------


async def test_list_section_groups(client: GitBookClient, state: SandboxState) -> None:
    groups = await client.sites.section_groups(state.demo_org, site_id(state)).collect()
    assert [(g.title, g.section_group) for g in groups] == [("Product", None), ("Reference", group(state, "Product"))]
    assert [c.title for c in groups[1].children] == ["REST API", "SDKs"] and groups[0].icon == "box"


async def test_create_section_group(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    ref = group(state, "Reference")
    made = await client.sites.create_section_group(
        org, sid, "Libraries", icon="books", sections=[section(state, "SDKs")], parent=ref
    )
    assert made.title == "Libraries" and made.section_group == ref and [c.title for c in made.children] == ["SDKs"]
    assert state.section_groups[made.id]["sectionGroup"] == ref
    assert state.site_sections[section(state, "SDKs")]["sectionGroup"] == made.id
    structure = await sections_structure(client, state)
    assert outline(structure.structure)[1][-1] == ["REST API", "Libraries", ["SDKs"]]


async def test_create_section_group_limits_and_errors(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    before = dict(state.section_groups)
    for args, kwargs, field in (
        ("", {}, "title"),
        ("t" * 101, {}, "title"),
        ("Fine", {"icon": "i" * 51}, "icon"),
        ("Fine", {"sections": [""]}, "sections[0]"),
        ("Fine", {"parent": ""}, "parent"),
    ):
        with pytest.raises(InvalidRequest) as caught:
            await client.sites.create_section_group(org, sid, args, **kwargs)
        assert caught.value.field == field
    url = f"/orgs/{org}/sites/{sid}/section-groups"
    for payload, word in (
        ({}, "title"),
        ({"title": ""}, "title"),
        ({"title": "t" * 101}, "title"),
        ({"title": "Ok", "sections": "abc"}, "sections"),
    ):
        with pytest.raises(BadRequest, match=word):
            await client.request_json("POST", url, json=payload)
    with pytest.raises(NotFound):
        await client.sites.create_section_group(org, sid, "Fine", parent="no-such-group")
    with pytest.raises(NotFound):
        await client.sites.create_section_group(org, sid, "Fine", sections=["no-such-section"])
    assert state.section_groups == before


async def test_update_section_group(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    ref, product = group(state, "Reference"), group(state, "Product")
    updated = await client.sites.update_section_group(org, sid, ref, title="API", icon=None)
    assert updated.title == "API" and updated.icon is None and state.section_groups[ref]["title"] == "API"
    moved = await client.sites.update_section_group(org, sid, ref, parent=None)
    assert moved.section_group is None and state.section_groups[ref]["sectionGroup"] is None
    assert [i.title for i in (await sections_structure(client, state)).structure] == ["Product", "Release Notes", "API"]
    with pytest.raises(BadRequest, match="itself"):
        await client.sites.update_section_group(org, sid, product, parent=product)
    await client.sites.update_section_group(org, sid, product, parent=ref)
    with pytest.raises(BadRequest, match="itself"):  # Product is now inside API: API cannot go into it
        await client.sites.update_section_group(org, sid, ref, parent=product)
    for kwargs, field in (
        ({"title": ""}, "title"),
        ({"icon": "i" * 51}, "icon"),
        ({"parent": ""}, "parentSectionGroupId"),
    ):
        with pytest.raises(InvalidRequest) as caught:
            await client.sites.update_section_group(org, sid, ref, **kwargs)
        assert caught.value.field == field
    with pytest.raises(BadRequest, match="title"):
        await client.request_json("PATCH", f"/orgs/{org}/sites/{sid}/section-groups/{ref}", json={"title": ""})
    with pytest.raises(NotFound):
        await client.sites.update_section_group(org, sid, "no-such-group", title="X")


async def test_delete_group_puts_its_children_in_its_place(client: GitBookClient, state: SandboxState) -> None:
    org, sid, product = state.demo_org, site_id(state), group(state, "Product")
    await client.sites.delete_section_group(org, sid, product)
    assert product not in state.section_groups
    structure = await sections_structure(client, state)
    assert outline(structure.structure) == [
        "Getting Started",
        "User Guide",
        "Reference",
        ["REST API", "SDKs"],
        "Release Notes",
    ]
    assert state.site_sections[section(state, "User Guide")]["sectionGroup"] is None
    await client.sites.delete_section_group(org, sid, product)  # gone already: no error


async def test_add_section_to_group(client: GitBookClient, state: SandboxState) -> None:
    org, sid, product = state.demo_org, site_id(state), group(state, "Product")
    notes = section(state, "Release Notes")
    updated = await client.sites.add_section_to_group(org, sid, product, notes)
    assert updated.id == product and [c.title for c in updated.children][-1] == "Release Notes"
    assert state.site_sections[notes]["sectionGroup"] == product
    with pytest.raises(NotFound):
        await client.sites.add_section_to_group(org, sid, product, "no-such-section")
    with pytest.raises(BadRequest, match="sectionId"):
        await client.request_json("POST", f"/orgs/{org}/sites/{sid}/section-groups/{product}/sections", json={})


async def test_add_section_to_group_not_offered(state: SandboxState) -> None:
    app = create_app(state, offer_optional=False)
    org, sid, product = state.demo_org, site_id(state), group(state, "Product")
    notes = section(state, "Release Notes")
    async with GitBookClient(token=TOKEN, base_url=SANDBOX_URL, transport=SandboxTransport(app)) as c:
        with pytest.raises(NotOffered):
            await c.sites.add_section_to_group(org, sid, product, notes)
        with pytest.raises(NotOffered):  # remembered: no second request
            await c.sites.add_section_to_group(org, sid, product, notes)
        moved = await c.site_sections.update(org, sid, notes, section_group=product)  # the way that works
    assert moved.section_group == product and state.site_sections[notes]["sectionGroup"] == product
