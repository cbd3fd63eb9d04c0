"""Site spaces (spec 4.5): listing with the default filter, adding a space to a section or to the root,
updating, deleting and moving — through the real client against the sandbox."""

from __future__ import annotations

import pytest

from folio.api import GitBookClient
from folio.api.errors import BadRequest, InvalidRequest, NotFound
from folio.models.site_structure import SiteSpace
from folio.sandbox import SandboxState
from tests.api.sites_support import section, site_id, space_id


def paths_of(state: SandboxState, section_id: str | None, site: str) -> list[str]:
    rows = [r for r in state.site_spaces.values() if r["site"] == site and r["section"] == section_id]
    return [r["path"] for r in sorted(rows, key=lambda r: r["order"])]


async def test_list_site_spaces_with_the_default_filter(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    every = await client.site_spaces.list(org, sid).collect()
    assert len(every) == 9 and all(isinstance(ss, SiteSpace) for ss in every)
    assert [ss.path for ss in every[:3]] == ["getting-started", "fr", "guide"]
    assert every[0].space and every[0].space.title == "Getting Started" and every[0].title == "Getting Started"
    assert every[0].urls and every[0].urls.published == "https://docs.northwind.dev/"
    only = await client.site_spaces.list(org, sid, default=True).collect()
    assert [ss.id for ss in only] == [every[0].id] and only[0].default
    others = await client.site_spaces.list(org, sid, default=False).collect()
    assert len(others) == 8 and every[0].id not in {ss.id for ss in others}
    handbook = await client.site_spaces.list(org, site_id(state, "Internal Handbook")).collect()
    assert [ss.section for ss in handbook] == [None, None, None] and handbook[0].default
    assert handbook[0].urls is None or handbook[0].urls.published is None  # unpublished
    with pytest.raises(NotFound):
        await client.site_spaces.list(org, "no-such-site").collect()


async def test_create_site_space_in_a_section_and_by_default(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    guide = section(state, "User Guide")
    made = await client.site_spaces.create(org, sid, space_id(state, "Scratchpad"), section_id=guide)
    assert made.section == guide and made.path == "scratchpad" and not made.default
    assert paths_of(state, guide, sid) == ["guide", "admin", "scratchpad"]
    # No section named: the default section (the first one) takes it; the same space twice gets a new path.
    started = section(state, "Getting Started")
    again = await client.site_spaces.create(org, sid, space_id(state, "Getting Started"))
    assert again.section == started and again.path == "getting-started-2"
    handbook = site_id(state, "Internal Handbook")
    root = await client.site_spaces.create(org, handbook, space_id(state, "Scratchpad"))
    assert root.section is None and paths_of(state, None, handbook)[-1] == "scratchpad"


async def test_create_site_space_errors(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    before = dict(state.site_spaces)
    with pytest.raises(InvalidRequest) as caught:
        await client.site_spaces.create(org, sid, "")
    assert caught.value.field == "spaceId"
    with pytest.raises(InvalidRequest):
        await client.site_spaces.create(org, sid, space_id(state, "Scratchpad"), section_id="")
    with pytest.raises(NotFound):
        await client.site_spaces.create(org, sid, "no-such-space")
    with pytest.raises(NotFound):
        await client.site_spaces.create(org, sid, space_id(state, "Scratchpad"), section_id="no-such-section")
    with pytest.raises(BadRequest, match="spaceId"):
        await client.request_json("POST", f"/orgs/{org}/sites/{sid}/site-spaces", json={})
    assert state.site_spaces == before


async def test_update_site_space(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    admin = next(k for k, r in state.site_spaces.items() if r["path"] == "admin")
    updated = await client.site_spaces.update(
        org,
        sid,
        admin,
        path="administration",
        hidden=False,
        condition="visitor.claims.isEnterprise == true",
        space_id=space_id(state, "Platform Runbooks"),
    )
    assert updated.path == "administration" and not updated.hidden
    assert updated.condition == "visitor.claims.isEnterprise == true"
    assert updated.space and updated.space.title == "Platform Runbooks"
    assert updated.urls and updated.urls.published == "https://docs.northwind.dev/user-guide/administration"
    record = state.site_spaces[admin]
    assert record["space"] == space_id(state, "Platform Runbooks") and record["hidden"] is False
    cleared = await client.site_spaces.update(org, sid, admin, condition=None)
    assert cleared.condition is None and record["condition"] is None and record["path"] == "administration"


async def test_update_site_space_limits_and_errors(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    admin = next(k for k, r in state.site_spaces.items() if r["path"] == "admin")
    before = dict(state.site_spaces[admin])
    for kwargs, field in (
        ({"path": ""}, "path"),
        ({"path": "p" * 101}, "path"),
        ({"path": None}, "path"),
        ({"condition": "c" * 1025}, "condition"),
        ({"space_id": ""}, "spaceId"),
        ({"hidden": "yes"}, "hidden"),
    ):
        with pytest.raises(InvalidRequest) as caught:
            await client.site_spaces.update(org, sid, admin, **kwargs)  # type: ignore[arg-type]
        assert caught.value.field == field
    url = f"/orgs/{org}/sites/{sid}/site-spaces/{admin}"
    for payload, word in (
        ({"path": ""}, "path"),
        ({"path": "guide"}, "path"),
        ({"condition": "c" * 1025}, "condition"),
        ({"hidden": "yes"}, "hidden"),
        ({"spaceId": 3}, "spaceId"),
    ):
        with pytest.raises(BadRequest, match=word):
            await client.request_json("PATCH", url, json=payload)
    with pytest.raises(NotFound):
        await client.site_spaces.update(org, sid, admin, space_id="no-such-space")
    with pytest.raises(NotFound):
        await client.site_spaces.update(org, sid, "no-such-site-space", hidden=True)
    assert state.site_spaces[admin] == before


async def test_delete_site_space(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    brand = next(k for k, r in state.site_spaces.items() if r["path"] == "brand")
    await client.site_spaces.delete(org, sid, brand)
    assert brand not in state.site_spaces
    assert paths_of(state, section(state, "Release Notes"), sid) == ["changelog", "onboarding"]
    await client.site_spaces.delete(org, sid, brand)  # gone already: 204, no error
    with pytest.raises(NotFound):
        await client.site_spaces.delete(org, "no-such-site", brand)


async def test_move_site_space(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    notes = section(state, "Release Notes")
    ids = {r["path"]: k for k, r in state.site_spaces.items() if r["section"] == notes}
    moved = await client.site_spaces.move(org, sid, ids["changelog"], after=ids["onboarding"])
    assert moved.id == ids["changelog"] and not moved.default
    assert paths_of(state, notes, sid) == ["brand", "onboarding", "changelog"]
    first = await client.site_spaces.move(org, sid, ids["onboarding"], before=ids["brand"])
    assert first.default and first.urls and first.urls.published == "https://docs.northwind.dev/release-notes"
    assert paths_of(state, notes, sid) == ["onboarding", "brand", "changelog"]
    await client.site_spaces.move(org, sid, ids["onboarding"])  # no position: to the end
    assert paths_of(state, notes, sid) == ["brand", "changelog", "onboarding"]


async def test_move_site_space_errors(client: GitBookClient, state: SandboxState) -> None:
    org, sid = state.demo_org, site_id(state)
    notes = section(state, "Release Notes")
    ids = {r["path"]: k for k, r in state.site_spaces.items() if r["site"] == sid}
    before = paths_of(state, notes, sid)
    url = f"/orgs/{org}/sites/{sid}/site-spaces/{ids['brand']}/move"
    with pytest.raises(BadRequest, match="not a sibling"):  # "guide" is in another section
        await client.site_spaces.move(org, sid, ids["brand"], before=ids["guide"])
    with pytest.raises(BadRequest, match="itself"):
        await client.site_spaces.move(org, sid, ids["brand"], after=ids["brand"])
    with pytest.raises(BadRequest, match="type"):
        await client.request_json(
            "POST", url, json={"position": {"after": {"type": "site-section", "siteSection": notes}}}
        )
    with pytest.raises(BadRequest, match="position"):
        await client.request_json("POST", url, json={"position": "first"})
    with pytest.raises(NotFound):
        await client.site_spaces.move(org, sid, ids["brand"], before="no-such-site-space")
    with pytest.raises(NotFound):
        await client.site_spaces.move(org, sid, "no-such-site-space", before=ids["brand"])
    with pytest.raises(InvalidRequest):
        await client.site_spaces.move(org, sid, ids["brand"], after="")
    assert paths_of(state, notes, sid) == before
