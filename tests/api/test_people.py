"""Members, teams, team membership, SAML providers and SSO logins, through the real client against the
sandbox."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient
from folio.api.errors import BadRequest, Conflict, Forbidden, InvalidRequest, NotFound
from folio.models.member import Member, MemberSpace, SamlProvider, Team, TeamMemberEntry
from folio.sandbox import SandboxState
from folio.sandbox.seed.people import make_org


def uid(state: SandboxState, name: str) -> str:
    return next(u for u, rec in state.users.items() if rec["displayName"].startswith(name))


def team_id(state: SandboxState, title: str) -> str:
    return next(t for t, rec in state.teams.items() if rec["title"] == title)


def guild(state: SandboxState) -> str:
    return next(oid for oid in state.orgs if oid != state.demo_org and state.default_user in state.members[oid])


# --- members ------------------------------------------------------------------------------------------------


async def test_list_members_newest_first(client: GitBookClient, state: SandboxState) -> None:
    members = await client.members.list(state.demo_org).collect()
    assert len(members) == len(state.members[state.demo_org]) == 12
    assert all(isinstance(m, Member) for m in members)
    joined = [m.joined_at for m in members]
    assert joined == sorted(joined, reverse=True)  # type: ignore[type-var]
    ada = next(m for m in members if m.id == state.default_user)
    assert ada.role == "admin" and ada.teams == 1 and ada.user.email == "ada@northwind.dev"


async def test_list_members_filters(client: GitBookClient, state: SandboxState) -> None:
    admins = await client.members.list(state.demo_org, role="admin").collect()
    assert {m.user.display_name for m in admins} == {"Ada Okafor", "Bruno Lindqvist"}
    guests = await client.members.list(state.demo_org, role="guest").collect()
    assert [m.user.display_name for m in guests] == ["Kofi Mensah"] and guests[0].is_guest
    found = await client.members.list(state.demo_org, search="CONTRACTOR.IO").collect()
    assert [m.user.display_name for m in found] == ["Kofi Mensah"]
    by_name = await client.members.list(state.demo_org, sort="name", order="asc").collect()
    names = [m.user.display_name for m in by_name]
    assert names == sorted(names) and names[0] == "Ada Okafor"
    state.members[state.demo_org][uid(state, "Ivan")]["lastSeenAt"] = None
    active = await client.members.list(state.demo_org, sort="lastSeenAt").collect()
    assert len(active) == 11 and active[0].id == state.default_user


async def test_list_members_argument_checks(client: GitBookClient, state: SandboxState) -> None:
    with pytest.raises(InvalidRequest) as caught:
        client.members.list(state.demo_org, sort="age")  # type: ignore[arg-type]
    assert caught.value.field == "sort"
    with pytest.raises(InvalidRequest):
        client.members.list(state.demo_org, limit=1001)
    assert not state.hits
    with pytest.raises(BadRequest):
        await client.request_json("GET", f"/orgs/{state.demo_org}/members", params={"order": "sideways"})
    elsewhere = make_org(state, "Elsewhere", hostname="elsewhere", created_days_ago=1)
    with pytest.raises(Forbidden):  # not a member there
        await client.members.list(elsewhere).collect()
    with pytest.raises(NotFound):
        await client.members.list("no-such-org").collect()


async def test_get_and_update_member(client: GitBookClient, state: SandboxState) -> None:
    chen = uid(state, "Chen")
    member = await client.members.get(state.demo_org, chen)
    assert member.role == "create" and member.user.display_name == "Chen Wei"
    updated = await client.members.update(state.demo_org, chen, role="review")
    assert updated.role == "review" and state.members[state.demo_org][chen]["role"] == "review"
    guest = await client.members.update(state.demo_org, chen, role=None)
    assert guest.role is None and guest.spaces == 0
    with pytest.raises(NotFound):
        await client.members.get(state.demo_org, "no-such-user")
    with pytest.raises(InvalidRequest):
        await client.members.update(state.demo_org, chen, role="owner")  # type: ignore[arg-type]
    with pytest.raises(BadRequest):
        await client.request_json("PATCH", f"/orgs/{state.demo_org}/members/{chen}", json={"role": "owner"})
    assert state.members[state.demo_org][chen]["role"] is None


async def test_an_organization_keeps_an_admin(client: GitBookClient, state: SandboxState) -> None:
    await client.members.update(state.demo_org, uid(state, "Bruno"), role="edit")
    with pytest.raises(Conflict, match="at least one admin"):
        await client.members.update(state.demo_org, state.default_user, role="edit")
    assert state.members[state.demo_org][state.default_user]["role"] == "admin"


async def test_delete_member(client: GitBookClient, state: SandboxState) -> None:
    dana = uid(state, "Dana")
    await client.members.delete(state.demo_org, dana)
    assert dana not in state.members[state.demo_org]
    assert all(dana not in t["members"] for t in state.teams.values())
    await client.members.delete(state.demo_org, dana)  # already gone: 204, no error
    with pytest.raises(Forbidden):  # only admins remove members
        await client.members.delete(guild(state), state.default_user)


async def test_set_sso_member(client: GitBookClient, state: SandboxState) -> None:
    hana = uid(state, "Hana")
    member = await client.members.set_sso(state.demo_org, hana)
    assert member.sso is True and state.members[state.demo_org][hana]["sso"] is True
    with pytest.raises(NotFound):
        await client.members.set_sso(state.demo_org, "no-such-user")


async def test_member_spaces(client: GitBookClient, state: SandboxState) -> None:
    for n in range(3):
        state.spaces[f"test-space-{n}"] = {
            "id": f"test-space-{n}",
            "organization": state.demo_org,
            "parent": None,
            "title": f"Space {n}",
            "emoji": None,
            "visibility": "private",
            "createdAt": f"2026-0{n + 1}-01T00:00:00.000Z",
            "updatedAt": None,
            "deletedAt": "2026-10-01T00:00:00.000Z" if n == 2 else None,
            "editMode": "live",
            "language": "en",
            "revision": f"rev{n}",
            "defaultLevel": "inherit",
            "mergeRules": {"type": "inherit"},
            "order": n,
        }
    mine = await client.members.spaces(state.demo_org, uid(state, "Emeka"), order="asc").collect()
    ours = [entry for entry in mine if entry.space.id.startswith("test-space-")]
    assert all(isinstance(e, MemberSpace) for e in ours)
    assert [e.space.title for e in ours] == ["Space 0", "Space 1"]  # the deleted one is left out
    assert {e.permission for e in ours} == {"edit"}
    guest = await client.members.spaces(state.demo_org, uid(state, "Kofi")).collect()
    assert guest == []
    with pytest.raises(NotFound):
        await client.members.spaces(state.demo_org, "no-such-user").collect()


async def test_member_teams(client: GitBookClient, state: SandboxState) -> None:
    dana = uid(state, "Dana")
    teams = await client.members.teams(state.demo_org, dana).collect()
    assert {(t.team.title, t.member.role) for t in teams} == {
        ("Docs Core", "member"),
        ("API Writers", "member"),
        ("Reviewers", "owner"),
    }
    only = await client.members.teams(state.demo_org, dana, title="review").collect()
    assert [t.team.title for t in only] == ["Reviewers"]


# --- teams --------------------------------------------------------------------------------------------------


async def test_list_and_get_teams(client: GitBookClient, state: SandboxState) -> None:
    teams = await client.teams.list(state.demo_org).collect()
    assert [t.title for t in teams] == ["API Writers", "Docs Core", "Reviewers"]
    assert all(isinstance(t, Team) and t.permissions.admin for t in teams)
    owned = await client.teams.list(state.demo_org, owner=uid(state, "Chen")).collect()
    assert [t.title for t in owned] == ["API Writers"]
    found = await client.teams.list(state.demo_org, title="CORE").collect()
    assert [t.title for t in found] == ["Docs Core"]
    core = await client.teams.get(state.demo_org, team_id(state, "Docs Core"))
    assert core.members == 4 and core.created_at is not None
    with pytest.raises(NotFound):
        await client.teams.get(state.demo_org, "no-such-team")


async def test_create_team(client: GitBookClient, state: SandboxState) -> None:
    members = [uid(state, "Farah"), uid(state, "Julia")]
    team = await client.teams.create(state.demo_org, title="Design", members=members)
    assert team.title == "Design" and team.members == 2
    assert state.teams[team.id]["members"] == dict.fromkeys(members, "member")
    twin = await client.teams.create(state.demo_org, title="Design")  # a PUT that creates: a second team
    assert twin.id != team.id and twin.members == 0


@pytest.mark.parametrize("title", ["", "t" * 65])
async def test_team_title_limits(client: GitBookClient, state: SandboxState, title: str) -> None:
    count = len(state.teams)
    with pytest.raises(InvalidRequest) as caught:
        await client.teams.create(state.demo_org, title=title)
    assert caught.value.field == "title"
    with pytest.raises(InvalidRequest):
        await client.teams.update(state.demo_org, team_id(state, "Docs Core"), title=title)
    assert len(state.teams) == count and not state.hits
    with pytest.raises(BadRequest):
        await client.request_json("PUT", f"/orgs/{state.demo_org}/teams", json={"title": title})
    with pytest.raises(BadRequest):
        await client.request_json("PUT", f"/orgs/{state.demo_org}/teams", json={"title": "Ok", "members": ["x"]})
    assert len(state.teams) == count


async def test_update_and_delete_team(client: GitBookClient, state: SandboxState) -> None:
    reviewers = team_id(state, "Reviewers")
    renamed = await client.teams.update(state.demo_org, reviewers, title="Review Board")
    assert renamed.title == "Review Board" and state.teams[reviewers]["title"] == "Review Board"
    core = team_id(state, "Docs Core")
    await client.teams.delete(state.demo_org, core)
    assert core not in state.teams
    assert all(p["defaultTeam"] != core for p in state.saml.values())
    await client.teams.delete(state.demo_org, core)  # already gone: no error
    with pytest.raises(NotFound):
        await client.teams.update(state.demo_org, core, title="Back")


# --- team members -------------------------------------------------------------------------------------------


async def test_list_team_members(client: GitBookClient, state: SandboxState) -> None:
    entries = await client.teams.list_members(state.demo_org, team_id(state, "API Writers")).collect()
    assert all(isinstance(e, TeamMemberEntry) and e.permissions.view for e in entries)
    assert entries[0].team.role == "owner" and entries[0].organization.user.display_name == "Chen Wei"
    assert len(entries) == 5


async def test_update_team_members(client: GitBookClient, state: SandboxState) -> None:
    core = team_id(state, "Docs Core")
    ivan, lena, chen = uid(state, "Ivan"), uid(state, "Lena"), uid(state, "Chen")
    await client.teams.update_members(
        state.demo_org, core, add=["ivan@northwind.dev", lena], remove=[lena], memberships={chen: "owner"}
    )
    members = state.teams[core]["members"]
    assert members[ivan] == "member" and members[chen] == "owner"
    assert lena not in members  # in both add and remove: removed
    with pytest.raises(InvalidRequest):
        await client.teams.update_members(state.demo_org, core, memberships={ivan: "boss"})  # type: ignore[dict-item]
    with pytest.raises(BadRequest):
        await client.teams.update_members(state.demo_org, core, add=["nobody@nowhere.dev"])
    assert "nobody@nowhere.dev" not in members


async def test_put_and_delete_one_team_member(client: GitBookClient, state: SandboxState) -> None:
    reviewers, gus = team_id(state, "Reviewers"), uid(state, "Gustavo")
    await client.teams.set_member(state.demo_org, reviewers, gus)
    assert state.teams[reviewers]["members"][gus] == "member"
    await client.teams.set_member(state.demo_org, reviewers, gus, role="owner")
    assert state.teams[reviewers]["members"][gus] == "owner"
    await client.teams.remove_member(state.demo_org, reviewers, gus)
    assert gus not in state.teams[reviewers]["members"]
    await client.teams.remove_member(state.demo_org, reviewers, gus)  # not a member: 204
    with pytest.raises(NotFound):
        await client.teams.set_member(state.demo_org, reviewers, "no-such-user")
    with pytest.raises(BadRequest):
        await client.request_json(
            "PUT", f"/orgs/{state.demo_org}/teams/{reviewers}/members/{gus}", json={"role": "captain"}
        )


# --- SAML and SSO -------------------------------------------------------------------------------------------


async def test_list_and_get_saml_providers(client: GitBookClient, state: SandboxState) -> None:
    providers = await client.saml.list(state.demo_org).collect()
    assert [(p.label, p.status) for p in providers] == [("Okta", "active"), ("Entra ID (testing)", "pending")]
    okta = await client.saml.get(state.demo_org, providers[0].id)
    assert isinstance(okta, SamlProvider) and okta.default_team and okta.default_team.title == "Docs Core"
    assert okta.service and okta.service.start_url and okta.entity_id == "http://www.okta.com/exk4northwind"
    with pytest.raises(NotFound):
        await client.saml.get(state.demo_org, "no-such-provider")
    with pytest.raises(Forbidden):
        await client.saml.list(guild(state)).collect()


async def test_create_update_delete_saml_provider(client: GitBookClient, state: SandboxState) -> None:
    created = await client.saml.create(state.demo_org, label="OneLogin", default_role="comment")
    assert created.status == "pending" and state.saml[created.id]["label"] == "OneLogin"
    updated = await client.saml.update(
        state.demo_org,
        created.id,
        entity_id="urn:onelogin",
        certificate="MIIC",
        sso_url="https://ol.dev/sso",
        default_team=team_id(state, "Reviewers"),
    )
    assert updated.status == "active" and updated.default_team and updated.default_team.title == "Reviewers"
    logins = await client.saml.logins(state.demo_org)
    assert {login.label for login in logins} == {"Okta", "OneLogin"}
    await client.saml.delete(state.demo_org, created.id)
    assert created.id not in state.saml
    with pytest.raises(NotFound):  # spec section 7: deleting a missing provider is an error
        await client.saml.delete(state.demo_org, created.id)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"label": ""}, "label"),
        ({"label": "l" * 31}, "label"),
        ({"label": "Ok", "sso_url": "ftp:/nowhere"}, "ssoURL"),
        ({"label": "Ok", "entity_id": "e" * 1025}, "entityID"),
        ({"label": "Ok", "default_role": "owner"}, "defaultRole"),
    ],
)
async def test_saml_limits(client: GitBookClient, state: SandboxState, kwargs: dict[str, Any], field: str) -> None:
    count = len(state.saml)
    with pytest.raises(InvalidRequest) as caught:
        await client.saml.create(state.demo_org, **kwargs)
    assert caught.value.field == field and len(state.saml) == count


async def test_saml_server_side_checks(client: GitBookClient, state: SandboxState) -> None:
    count = len(state.saml)
    for body in (
        {},
        {"label": "l" * 31},
        {"label": "Ok", "defaultTeam": "no-such-team"},
        {"label": "Ok", "ssoURL": "nope"},
    ):
        with pytest.raises(BadRequest):
            await client.request_json("POST", f"/orgs/{state.demo_org}/saml", json=body)
    assert len(state.saml) == count
