"""Sections of a site (spec 4.3) through the real client against the sandbox: listing, creating (the first one
gathers a site's root site spaces), updating (a section changes group through its update), deleting with its site
spaces, and the deprecated move."""

from __future__ import annotations

import pytest

from folio.api import GitBookClient
from folio.api.errors import BadRequest, InvalidRequest, NotFound
from folio.sandbox import SandboxState
from tests.api.sites_support import group, outline, section, sections_structure, site_id, space_id

# --- sections -------------------------------------------------------------------------------------------------


async def test_list_sections_in_site_order(client: GitBookClient, state: SandboxState) -> None:
    sections = await client.site_sections.list(state.demo_org, site_id(state)).collect()
    assert [s.title for s in sections] == ["Getting Started", "User Guide", "REST API", "SDKs", "Release Notes"]
    assert sections[0].default and not any(s.default for s in sections[1:])
    assert [len(s.site_spaces) for s in sections] == [2, 2, 1, 1, 3]
    assert sections[1].site_spaces[1].hidden and sections[1].icon == "book"
    page = await client.site_sections.list(state.demo_org, site_id(state), limit=2).fetch()
    assert page.count == 5 and len(page.items) == 2 and page.next_page


async def test_create_section(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    made = await client.site_sections.create(org, sid, space_id(state, "Onboarding"), title="Careers", icon="briefcase")
    assert made.title == "Careers" and made.path == "careers" and made.icon == "briefcase"
    assert [ss.space.title for ss in made.site_spaces if ss.space] == ["Onboarding"]
    assert state.site_sections[made.id]["sectionGroup"] is None
    structure = await sections_structure(client, state)
    assert structure.structure[-1].id == made.id
    in_group = await client.site_sections.create(
        org, sid, space_id(state, "Scratchpad"), section_group=group(state, "Reference")
    )
    assert in_group.title == "Scratchpad" and in_group.section_group == group(state, "Reference")


async def test_first_section_gathers_the_root_site_spaces(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state, "Internal Handbook")
    made = await client.site_sections.create(org, sid, space_id(state, "Brand Guidelines"), title="Brand")
    structure = await client.sites.structure(org, sid)
    assert structure.type == "sections"
    assert [s.title for s in structure.sections()] == ["Internal Handbook", "Brand"]
    first = structure.sections()[0]
    assert [ss.path for ss in first.site_spaces] == ["onboarding", "platform-runbooks", "architecture-decisions"]
    assert first.default and made.id == structure.sections()[1].id


async def test_create_section_limits_and_errors(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    before = dict(state.site_sections)
    space = space_id(state, "Onboarding")
    for kwargs, field in (({"title": "C"}, "title"), ({"title": "c" * 129}, "title"), ({"icon": "i" * 51}, "icon")):
        with pytest.raises(InvalidRequest) as caught:
            await client.site_sections.create(org, sid, space, **kwargs)
        assert caught.value.field == field
    with pytest.raises(InvalidRequest):
        await client.site_sections.create(org, sid, "")
    with pytest.raises(NotFound):
        await client.site_sections.create(org, sid, "no-such-space")
    url = f"/orgs/{org}/sites/{sid}/sections"
    for payload, word in (
        ({"title": "Careers"}, "spaceId"),
        ({"spaceId": space, "title": "C"}, "title"),
        ({"spaceId": space, "icon": "i" * 51}, "icon"),
        ({"spaceId": None}, "spaceId"),
    ):
        with pytest.raises(BadRequest, match=word):
            await client.request_json("POST", url, json=payload)
    with pytest.raises(NotFound):
        await client.request_json("POST", url, json={"spaceId": space, "siteSectionGroupId": "nope"})
    assert state.site_sections == before


async def test_update_section(client: GitBookClient, state: SandboxState) -> None:
    org, sid, sdks = state.demo_org, site_id(state), section(state, "SDKs")
    updated = await client.site_sections.update(
        org,
        sid,
        sdks,
        title="SDKs & CLIs",
        path="sdk",
        description="Client libraries",
        icon="terminal",
    )
    assert (updated.title, updated.path, updated.description, updated.icon) == (
        "SDKs & CLIs",
        "sdk",
        "Client libraries",
        "terminal",
    )
    assert updated.condition == "visitor.claims.isBeta == true"  # left out: unchanged
    cleared = await client.site_sections.update(org, sid, sdks, condition=None, icon=None, description=None)
    assert cleared.condition is None and cleared.icon is None and cleared.description is None
    record = state.site_sections[sdks]
    assert record["condition"] is None and record["path"] == "sdk" and record["title"] == "SDKs & CLIs"
    moved = await client.site_sections.update(org, sid, sdks, section_group=None)
    assert moved.section_group is None and record["sectionGroup"] is None
    structure = await sections_structure(client, state)
    assert [i.title for i in structure.structure] == ["Product", "Release Notes", "SDKs & CLIs"]
    await client.site_sections.update(org, sid, sdks, section_group=group(state, "Product"))
    assert outline((await sections_structure(client, state)).structure)[1][-1] == "SDKs & CLIs"


async def test_update_section_default_site_space(client: GitBookClient, state: SandboxState) -> None:
    org, sid, guide = state.demo_org, site_id(state), section(state, "User Guide")
    admin = next(k for k, r in state.site_spaces.items() if r["section"] == guide and r["path"] == "admin")
    updated = await client.site_sections.update(org, sid, guide, default_site_space=admin)
    assert [ss.default for ss in updated.site_spaces] == [False, True]
    other = next(k for k, r in state.site_spaces.items() if r["section"] != guide)
    with pytest.raises(BadRequest, match="defaultSiteSpace"):
        await client.site_sections.update(org, sid, guide, default_site_space=other)


async def test_update_section_limits_and_errors(client: GitBookClient, state: SandboxState) -> None:
    org, sid, sdks = state.demo_org, site_id(state), section(state, "SDKs")
    before = dict(state.site_sections[sdks])
    for kwargs, field in (
        ({"title": "S"}, "title"),
        ({"path": ""}, "path"),
        ({"path": "p" * 101}, "path"),
        ({"description": "d" * 257}, "description"),
        ({"condition": "c" * 1025}, "condition"),
        ({"icon": "i" * 51}, "icon"),
        ({"title": None}, "title"),
        ({"path": None}, "path"),
    ):
        with pytest.raises(InvalidRequest) as caught:
            await client.site_sections.update(org, sid, sdks, **kwargs)
        assert caught.value.field == field
    url = f"/orgs/{org}/sites/{sid}/sections/{sdks}"
    for payload, word in (
        ({"title": "S"}, "title"),
        ({"path": "p" * 101}, "path"),
        ({"description": "d" * 257}, "description"),
        ({"condition": "c" * 1025}, "condition"),
        ({"icon": 5}, "icon"),
        ({"path": "rest-api"}, "path"),
    ):
        with pytest.raises(BadRequest, match=word):
            await client.request_json("PATCH", url, json=payload)
    with pytest.raises(NotFound):
        await client.site_sections.update(org, sid, sdks, section_group="no-such-group")
    with pytest.raises(NotFound):
        await client.site_sections.update(org, sid, "no-such-section", title="Fine")
    assert state.site_sections[sdks] == before


async def test_delete_section_deletes_its_site_spaces(client: GitBookClient, state: SandboxState) -> None:
    org, sid, notes = state.demo_org, site_id(state), section(state, "Release Notes")
    await client.site_sections.delete(org, sid, notes)
    assert notes not in state.site_sections
    assert not any(r["section"] == notes for r in state.site_spaces.values())
    assert (await client.sites.get(org, sid)).site_spaces == 6
    await client.site_sections.delete(org, sid, notes)  # gone already: no error


async def test_move_section_deprecated(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    guide, started = section(state, "User Guide"), section(state, "Getting Started")
    moved = await client.site_sections.move(org, sid, guide, before=started)
    assert moved.id == guide and moved.default
    assert outline((await sections_structure(client, state)).structure)[1][:2] == ["User Guide", "Getting Started"]
    await client.site_sections.move(org, sid, guide, after=started)
    assert outline((await sections_structure(client, state)).structure)[1][:2] == ["Getting Started", "User Guide"]
    url = f"/orgs/{org}/sites/{sid}/sections/{guide}/move"
    with pytest.raises(BadRequest, match="type"):
        await client.request_json(
            "POST", url, json={"position": {"before": {"type": "site-space", "siteSpace": started}}}
        )
    with pytest.raises(BadRequest, match="siteSection"):
        await client.request_json("POST", url, json={"position": {"before": {"type": "site-section", "id": started}}})
    with pytest.raises(BadRequest, match="not a sibling"):
        await client.site_sections.move(org, sid, guide, before=section(state, "Release Notes"))
    with pytest.raises(NotFound):
        await client.site_sections.move(org, sid, guide, before="no-such-section")
    with pytest.raises(NotFound):
        await client.site_sections.move(org, sid, "no-such-section", before=started)
    with pytest.raises(InvalidRequest):
        await client.site_sections.move(org, sid, guide, before="")
