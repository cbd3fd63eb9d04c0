"""People and access as the service enforces them (spec 2.2-2.4, 4.4b, 4.6): who may change members, teams,
SAML providers and the organization's settings; an organization keeps an admin; team titles; what removing a
member and deleting a team leave behind.

A test acts as another user the way the sandbox identifies callers: ``state.tokens = {TOKEN: user id}`` (see
:mod:`folio.sandbox.app`). Raw HTTP through ``httpx.ASGITransport``, to see each status and error body."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from folio.sandbox import SandboxState
from tests.conftest import SANDBOX_URL, TOKEN


@pytest.fixture
async def http(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(transport=transport, base_url=SANDBOX_URL + "/v1", headers=headers) as client:
        yield client


def user(state: SandboxState, name: str) -> str:
    return next(uid for uid, u in state.users.items() if u["email"].startswith(name + "@"))


def team(state: SandboxState, title: str) -> str:
    return next(t for t, rec in state.teams.items() if rec["title"] == title)


def act_as(state: SandboxState, name: str) -> str:
    uid = user(state, name)
    state.tokens = {TOKEN: uid}
    return uid


def error_of(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text[:300]
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == status
    return str(body["error"]["message"])


def test_the_seed_has_members_of_every_role(state: SandboxState) -> None:
    roles = {m["role"] for m in state.members[state.demo_org].values()}
    assert roles == {"admin", "create", "review", "edit", "comment", "read", None}
    assert state.members[state.demo_org][user(state, "ivan")]["role"] == "read"
    assert state.members[state.demo_org][state.default_user]["role"] == "admin"


# --- who may write ------------------------------------------------------------------------------------------


def writes(state: SandboxState) -> list[tuple[str, str, dict[str, Any] | None]]:
    org, chen, docs = state.demo_org, user(state, "chen"), team(state, "Docs Core")
    saml = next(iter(state.saml))
    invite = next(iter(state.invites[org]))
    return [
        ("PATCH", f"/orgs/{org}", {"title": "Taken over"}),
        ("PUT", f"/orgs/{org}/agent-instructions", {"instructions": {"object": "document", "nodes": []}}),
        ("DELETE", f"/orgs/{org}/link-invites/{invite}", None),
        ("PATCH", f"/orgs/{org}/members/{chen}", {"role": "admin"}),
        ("POST", f"/orgs/{org}/members/{chen}/sso", None),
        ("PUT", f"/orgs/{org}/teams", {"title": "Shadow team"}),
        ("PATCH", f"/orgs/{org}/teams/{docs}", {"title": "Renamed"}),
        ("PUT", f"/orgs/{org}/teams/{docs}/members", {"add": [chen]}),
        ("PUT", f"/orgs/{org}/teams/{docs}/members/{chen}", {"role": "owner"}),
        ("DELETE", f"/orgs/{org}/teams/{docs}/members/{user(state, 'ada')}", None),
        ("DELETE", f"/orgs/{org}/teams/{docs}", None),
        ("DELETE", f"/orgs/{org}/members/{chen}", None),
        ("GET", f"/orgs/{org}/saml", None),
        ("POST", f"/orgs/{org}/saml", {"label": "Rogue"}),
        ("PATCH", f"/orgs/{org}/saml/{saml}", {"label": "Rogue"}),
        ("DELETE", f"/orgs/{org}/saml/{saml}", None),
    ]


@pytest.mark.parametrize("name", ["ivan", "gustavo", "emeka", "dana", "chen", "kofi"])
async def test_a_member_who_is_not_an_admin_gets_403_on_every_write(
    http: httpx.AsyncClient, state: SandboxState, name: str
) -> None:
    act_as(state, name)
    before = (repr(state.orgs), repr(dict(state.members)), repr(state.teams), repr(state.saml))
    for method, path, body in writes(state):
        response = await http.request(method, path, json=body)
        error_of(response, 403)
    assert (repr(state.orgs), repr(dict(state.members)), repr(state.teams), repr(state.saml)) == before


async def test_an_admin_may_make_those_writes(http: httpx.AsyncClient, state: SandboxState) -> None:
    for method, path, body in writes(state):  # in an order where each still finds what it changes
        response = await http.request(method, path, json=body)
        assert response.status_code < 300, (method, path, response.text[:200])


async def test_a_team_owner_manages_the_members_of_their_team_only(
    http: httpx.AsyncClient, state: SandboxState
) -> None:
    chen = act_as(state, "chen")  # create role, owner of "API Writers", a member of "Docs Core"
    org, writers, docs = state.demo_org, team(state, "API Writers"), team(state, "Docs Core")
    assert state.teams[writers]["members"][chen] == "owner"
    ivan = user(state, "ivan")
    assert (await http.put(f"/orgs/{org}/teams/{writers}/members/{ivan}", json={})).status_code == 204
    assert state.teams[writers]["members"][ivan] == "member"
    assert (await http.delete(f"/orgs/{org}/teams/{writers}/members/{ivan}")).status_code == 205
    listed = (await http.get(f"/orgs/{org}/teams/{writers}")).json()
    assert listed["permissions"]["admin"] is True
    error_of(await http.patch(f"/orgs/{org}/teams/{writers}", json={"title": "Mine now"}), 403)
    error_of(await http.delete(f"/orgs/{org}/teams/{writers}"), 403)
    error_of(await http.put(f"/orgs/{org}/teams/{docs}/members/{ivan}", json={}), 403)
    assert ivan not in state.teams[docs]["members"] and writers in state.teams


async def test_a_guest_cannot_list_members_or_teams(http: httpx.AsyncClient, state: SandboxState) -> None:
    act_as(state, "kofi")
    org = state.demo_org
    for path in (
        f"/orgs/{org}/members",
        f"/orgs/{org}/teams",
        f"/orgs/{org}/teams/{team(state, 'Docs Core')}/members",
        f"/orgs/{org}/members/{state.default_user}/teams",
        f"/orgs/{org}/members/{state.default_user}/spaces",
    ):
        error_of(await http.get(path), 403)
    rendered = (await http.get(f"/orgs/{org}")).json()
    assert rendered["permissions"]["listMembers"] is False and rendered["permissions"]["listTeams"] is False
    act_as(state, "ivan")  # a reader lists them
    assert (await http.get(f"/orgs/{org}/members")).status_code == 200


async def test_a_stranger_gets_403_and_an_unknown_organization_404(
    http: httpx.AsyncClient, state: SandboxState
) -> None:
    other = next(o for o in state.orgs if o != state.demo_org)
    act_as(state, "ivan")
    error_of(await http.get(f"/orgs/{other}/members"), 403)
    error_of(await http.patch(f"/orgs/{other}", json={"title": "Mine"}), 403)
    error_of(await http.get("/orgs/no-such-org/members"), 404)


# --- an organization keeps an admin -------------------------------------------------------------------------


async def test_the_last_admin_cannot_be_demoted(http: httpx.AsyncClient, state: SandboxState) -> None:
    org, ada, bruno = state.demo_org, state.default_user, user(state, "bruno")
    assert (await http.patch(f"/orgs/{org}/members/{ada}", json={"role": "edit"})).status_code == 200
    act_as(state, "bruno")  # now the only admin
    message = error_of(await http.patch(f"/orgs/{org}/members/{bruno}", json={"role": "read"}), 409)
    assert "at least one admin" in message
    error_of(await http.patch(f"/orgs/{org}/members/{bruno}", json={"role": None}), 409)
    assert state.members[org][bruno]["role"] == "admin"
    same = await http.patch(f"/orgs/{org}/members/{bruno}", json={"role": "admin"})
    assert same.status_code == 200  # staying admin is no demotion


async def test_the_last_admin_cannot_be_removed(http: httpx.AsyncClient, state: SandboxState) -> None:
    org, ada, bruno = state.demo_org, state.default_user, user(state, "bruno")
    assert (await http.delete(f"/orgs/{org}/members/{bruno}")).status_code == 205
    message = error_of(await http.delete(f"/orgs/{org}/members/{ada}"), 409)
    assert "at least one admin" in message
    assert ada in state.members[org]
    assert (await http.patch(f"/orgs/{org}/members/{user(state, 'chen')}", json={"role": "admin"})).status_code == 200
    assert (await http.delete(f"/orgs/{org}/members/{ada}")).status_code == 205


# --- teams --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("title", ["", "t" * 65])
async def test_team_titles_outside_1_to_64_characters_are_refused(
    http: httpx.AsyncClient, state: SandboxState, title: str
) -> None:
    org, docs = state.demo_org, team(state, "Docs Core")
    count = len(state.teams)
    assert "title" in error_of(await http.put(f"/orgs/{org}/teams", json={"title": title}), 400)
    assert "title" in error_of(await http.patch(f"/orgs/{org}/teams/{docs}", json={"title": title}), 400)
    error_of(await http.put(f"/orgs/{org}/teams", json={"title": 64}), 400)
    assert len(state.teams) == count and state.teams[docs]["title"] == "Docs Core"


async def test_a_team_title_of_64_characters_is_taken(http: httpx.AsyncClient, state: SandboxState) -> None:
    created = await http.put(f"/orgs/{state.demo_org}/teams", json={"title": "t" * 64})
    assert created.status_code == 201 and created.json()["title"] == "t" * 64


async def test_removing_a_member_removes_them_from_their_teams(http: httpx.AsyncClient, state: SandboxState) -> None:
    org, dana = state.demo_org, user(state, "dana")
    teams = [t for t, rec in state.teams.items() if dana in rec["members"]]
    assert len(teams) == 3
    sizes = {t: len(state.teams[t]["members"]) for t in teams}
    assert (await http.delete(f"/orgs/{org}/members/{dana}")).status_code == 205
    for t in teams:
        entries = (await http.get(f"/orgs/{org}/teams/{t}/members")).json()["items"]
        assert dana not in {e["organization"]["id"] for e in entries}
        assert (await http.get(f"/orgs/{org}/teams/{t}")).json()["members"] == sizes[t] - 1
    error_of(await http.get(f"/orgs/{org}/members/{dana}"), 404)
    assert (await http.delete(f"/orgs/{org}/members/{dana}")).status_code == 204


async def test_deleting_a_team_leaves_its_members_in_the_organization(
    http: httpx.AsyncClient, state: SandboxState
) -> None:
    org, docs = state.demo_org, team(state, "Docs Core")
    members = list(state.teams[docs]["members"])
    counts = {m: (await http.get(f"/orgs/{org}/members/{m}")).json()["teams"] for m in members}
    assert (await http.delete(f"/orgs/{org}/teams/{docs}")).status_code == 205
    for m in members:
        member = (await http.get(f"/orgs/{org}/members/{m}")).json()
        assert member["teams"] == counts[m] - 1
    error_of(await http.get(f"/orgs/{org}/teams/{docs}"), 404)
    assert all(p["defaultTeam"] != docs for p in state.saml.values())
    assert (await http.delete(f"/orgs/{org}/teams/{docs}")).status_code == 204
