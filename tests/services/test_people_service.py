"""The people service over the seeded sandbox: members listed, filtered, searched and sorted; roles changed one at
a time and as a plan (refused whole when it leaves no admin, stopped at the first refusal); SSO and removal; teams
and their members (one request for a bulk change); what the caller may do; the once-an-hour ping."""

from __future__ import annotations

from pathlib import Path

import pytest

from folio.api import GitBookClient
from folio.api.errors import NotFound
from folio.config.settings import Settings, SettingsError, ping_enabled
from folio.models.common import User
from folio.models.member import Member
from folio.sandbox import SandboxState
from folio.services import Services
from folio.services.people.people import PING_EVERY, PeopleService, Refused
from folio.services.people.people_plan import (
    check_team_title,
    next_role_filter,
    plan_roles,
    role_name,
    role_value,
)
from tests.conftest import TOKEN


def uid(state: SandboxState, email: str) -> str:
    return next(u for u, user in state.users.items() if user.get("email") == email)


def team_id(state: SandboxState, title: str) -> str:
    return next(t for t, team in state.teams.items() if team["title"] == title)


def roles(state: SandboxState) -> dict[str, str | None]:
    """email -> role of every member of the demo organization."""
    return {state.users[u]["email"]: m.get("role") for u, m in state.members[state.demo_org].items()}


def member(name: str, role: str | None, user_id: str | None = None) -> Member:
    user_id = user_id or name.lower()
    return Member(id=user_id, role=role, user=User(id=user_id, display_name=name))  # type: ignore[arg-type]


@pytest.fixture
def services(client: GitBookClient) -> Services:
    return Services(client)


@pytest.fixture
def people(services: Services) -> PeopleService:
    return services.people


async def _all(pages: object) -> list[Member]:
    out: list[Member] = []
    async for page in pages:  # type: ignore[attr-defined]
        out.extend(page)
    return out


# --- members ------------------------------------------------------------------------------------------------


async def test_members_filtered_searched_and_sorted(people: PeopleService, state: SandboxState) -> None:
    org = state.demo_org
    everyone = await _all(people.member_pages(org))
    assert len(everyone) == 12
    assert everyone[0].user.display_name == "Lena Vogel"  # joined last: newest first
    admins = await _all(people.member_pages(org, role="admin"))
    assert sorted(m.user.display_name for m in admins) == ["Ada Okafor", "Bruno Lindqvist"]
    guests = await _all(people.member_pages(org, role="guest"))
    assert [m.user.email for m in guests] == ["kofi@contractor.io"]
    found = await _all(people.member_pages(org, search="NORTHWIND.dev", role="edit"))
    assert sorted(m.user.display_name for m in found) == ["Emeka Nwosu", "Farah Haddad", "Julia Kowalska"]
    state.members[org][uid(state, "ivan@northwind.dev")]["disabled"] = True
    seen = await _all(people.member_pages(org, sort="lastSeenAt"))
    assert seen[0].user.display_name == "Ada Okafor"  # seen an hour ago
    assert "Ivan Petrov" not in [m.user.display_name for m in seen]  # only active members


async def test_pages_come_one_request_at_a_time(people: PeopleService, state: SandboxState) -> None:
    pages = [page async for page in people.member_pages(state.demo_org, limit=5)]
    assert [len(p) for p in pages] == [5, 5, 2]


async def test_a_members_spaces_and_teams(people: PeopleService, state: SandboxState) -> None:
    chen = uid(state, "chen@northwind.dev")
    spaces = [s for page in [p async for p in people.member_space_pages(state.demo_org, chen)] for s in page]
    assert spaces and all(s.permission == "create" for s in spaces)
    teams = [t for page in [p async for p in people.member_team_pages(state.demo_org, chen)] for t in page]
    assert sorted((t.team.title, t.member.role) for t in teams) == [
        ("API Writers", "owner"),
        ("Docs Core", "member"),
    ]


async def test_access_follows_the_organizations_permissions(
    services: Services, people: PeopleService, state: SandboxState
) -> None:
    access = await people.access(state.demo_org)
    assert access.admin and access.why_not_admin("remove members") is None
    assert access.user_id == uid(state, "ada@northwind.dev")
    state.tokens[TOKEN] = uid(state, "chen@northwind.dev")
    other = PeopleService(services.client, Services(services.client))
    chen = await other.access(state.demo_org)
    assert not chen.admin and chen.own_team  # Chen owns API Writers
    assert chen.why_not_admin("change roles") == "Only admins of the organization can change roles."


async def test_set_role_and_guest(people: PeopleService, state: SandboxState) -> None:
    dana = await people.member(state.demo_org, uid(state, "dana@northwind.dev"))
    changed = await people.set_role(state.demo_org, dana, "edit")
    assert changed.role == "edit" and roles(state)["dana@northwind.dev"] == "edit"
    await people.set_role(state.demo_org, changed, None)
    assert roles(state)["dana@northwind.dev"] is None


async def test_demoting_the_last_admin_is_refused_before_sending(people: PeopleService, state: SandboxState) -> None:
    org = state.demo_org
    state.members[org][uid(state, "bruno@northwind.dev")]["role"] = "edit"
    ada = await people.member(org, uid(state, "ada@northwind.dev"))
    state.hits.clear()
    with pytest.raises(Refused, match="only admin"):
        await people.set_role(org, ada, "read")
    with pytest.raises(Refused, match="only admin"):
        await people.remove_member(org, ada)
    assert roles(state)["ada@northwind.dev"] == "admin"
    assert not any(method in ("PATCH", "DELETE") for method, _ in state.hits)


async def test_sso_and_remove(people: PeopleService, state: SandboxState, services: Services) -> None:
    org = state.demo_org
    ivan = uid(state, "ivan@northwind.dev")
    seen = services.changes.version(("members", org))
    assert (await people.set_sso(org, ivan)).sso and state.members[org][ivan]["sso"] is True
    await people.remove_member(org, await people.member(org, ivan))
    assert ivan not in state.members[org]
    assert services.changes.version(("members", org)) == seen + 2


# --- the plan of a bulk role change ---------------------------------------------------------------------------


def test_plan_orders_new_admins_first_and_counts_admins() -> None:
    marked = [member("Ada", "admin"), member("Chen", "create"), member("Ivan", "read")]
    plan = plan_roles(marked, "admin", admins_now=2)
    assert [c.name for c in plan.changes] == ["Chen", "Ivan"] and plan.unchanged == ("Ada",)
    assert plan.admins_after == 4 and plan.problem is None
    demote = plan_roles(
        [member("Ada", "admin"), member("Bruno", "admin"), member("Chen", "create")], "admin", admins_now=2
    )
    assert [c.describe() for c in demote.changes] == ["Chen: create \u2192 admin"]
    mixed = plan_roles([member("Ada", "admin"), member("Ivan", "read")], "edit", admins_now=1)
    assert mixed.admins_after == 0
    assert mixed.problem is not None and mixed.problem.startswith("No admin would remain")
    assert plan_roles([member("Ivan", "read")], "read", admins_now=1).problem == (
        "Nothing to change: every marked member is already read."
    )


def test_plan_of_promotion_and_demotion_promotes_first() -> None:
    plan = plan_roles([member("Ada", "admin"), member("Chen", "create")], "admin", admins_now=1)
    swap = plan_roles([member("Ada", "admin")], "read", admins_now=2)
    assert plan.admins_after == 2 and swap.admins_after == 1
    both = plan_roles([member("Ada", "admin"), member("Chen", "create")], None, admins_now=1)
    assert [role_name(c.after) for c in both.changes] == ["guest", "guest"]
    assert both.problem is not None  # Ada is the only admin


async def test_a_plan_that_leaves_no_admin_is_not_sent(people: PeopleService, state: SandboxState) -> None:
    org = state.demo_org
    admins = await people.members(org, role="admin")
    plan = await people.plan(org, admins, "edit")
    assert plan.admins_now == 2 and plan.admins_after == 0
    state.hits.clear()
    with pytest.raises(Refused, match="No admin would remain"):
        await people.apply_role_plan(org, plan)
    assert not any(method == "PATCH" for method, _ in state.hits)
    assert roles(state)["ada@northwind.dev"] == roles(state)["bruno@northwind.dev"] == "admin"


async def test_a_plan_applied_in_order_with_progress(people: PeopleService, state: SandboxState) -> None:
    org = state.demo_org
    marked = [await people.member(org, uid(state, f"{n}@northwind.dev")) for n in ("bruno", "ivan", "julia")]
    plan = await people.plan(org, marked, "review")
    seen: list[tuple[int, str]] = []
    outcome = await people.apply_role_plan(org, plan, progress=lambda n, change: seen.append((n, change.name)))
    assert outcome.complete and outcome.headline() == "All 3 changes made."
    assert seen == [(0, "Ivan Petrov"), (1, "Julia Kowalska"), (2, "Bruno Lindqvist")]  # the admin last
    assert {roles(state)[f"{n}@northwind.dev"] for n in ("bruno", "ivan", "julia")} == {"review"}


async def test_a_plan_stops_at_the_first_refusal(people: PeopleService, state: SandboxState) -> None:
    org = state.demo_org
    marked = [await people.member(org, uid(state, f"{n}@northwind.dev")) for n in ("gustavo", "hana", "ivan")]
    plan = await people.plan(org, marked, "edit")
    del state.members[org][uid(state, "hana@northwind.dev")]  # someone removed Hana meanwhile
    outcome = await people.apply_role_plan(org, plan)
    assert [c.name for c in outcome.done] == ["Gustavo Ribeiro"]
    assert outcome.refused is not None and outcome.refused.name == "Hana Sato"
    assert isinstance(outcome.error, NotFound)
    assert [c.name for c in outcome.not_tried] == ["Ivan Petrov"]
    assert outcome.headline() == "Stopped: 1 of 3 changes made."
    assert roles(state)["gustavo@northwind.dev"] == "edit" and roles(state)["ivan@northwind.dev"] == "read"


def test_role_names_and_filters() -> None:
    assert role_value("guest") is None and role_value("edit") == "edit"
    with pytest.raises(ValueError):
        role_value("owner")
    assert next_role_filter(None) == "admin" and next_role_filter("read") == "guest"
    assert next_role_filter("guest") is None
    assert check_team_title("") and check_team_title("x" * 65) and check_team_title("   ")
    assert check_team_title("x" * 64) is None


# --- teams --------------------------------------------------------------------------------------------------


async def test_teams_filtered_by_title_and_owner(people: PeopleService, state: SandboxState) -> None:
    org = state.demo_org
    titles = [t.title for page in [p async for p in people.team_pages(org)] for t in page]
    assert titles == ["API Writers", "Docs Core", "Reviewers"]
    found = [t.title for page in [p async for p in people.team_pages(org, title="RE")] for t in page]
    assert found == ["Docs Core", "Reviewers"]
    chen = uid(state, "chen@northwind.dev")
    owned = [t.title for page in [p async for p in people.team_pages(org, owner=chen)] for t in page]
    assert owned == ["API Writers"]


async def test_create_find_rename_delete_a_team(people: PeopleService, state: SandboxState) -> None:
    org = state.demo_org
    members = [uid(state, "ivan@northwind.dev"), uid(state, "lena@northwind.dev")]
    team = await people.create_team(org, "Platform", members)
    assert team.members == 2 and set(state.teams[team.id]["members"]) == set(members)
    assert (await people.find_team(org, "Platform")) is not None
    assert await people.find_team(org, "Plat") is None  # exact titles only
    renamed = await people.rename_team(org, team.id, "Platform Guild")
    assert renamed.title == "Platform Guild" == state.teams[team.id]["title"]
    await people.delete_team(org, team.id)
    assert team.id not in state.teams and members[0] in state.members[org]


async def test_team_members_one_at_a_time_and_in_bulk(people: PeopleService, state: SandboxState) -> None:
    org, team = state.demo_org, team_id(state, "Reviewers")
    ivan, julia, lena = (uid(state, f"{n}@northwind.dev") for n in ("ivan", "julia", "lena"))
    await people.add_team_member(org, team, "IVAN@northwind.dev", "owner")
    assert state.teams[team]["members"][ivan] == "owner"
    found = await people.find_team_member(org, team, "ivan@northwind.dev")
    assert found is not None and found.team.role == "owner"
    await people.set_team_role(org, team, ivan, "member")
    assert state.teams[team]["members"][ivan] == "member"
    await people.remove_team_member(org, team, ivan)
    assert ivan not in state.teams[team]["members"]
    dana = uid(state, "dana@northwind.dev")
    await people.change_team_members(org, team, add=[julia, lena], remove=[dana], roles={julia: "owner"})
    assert state.teams[team]["members"][julia] == "owner" and lena in state.teams[team]["members"]
    assert dana not in state.teams[team]["members"]
    with pytest.raises(Refused):
        await people.change_team_members(org, team)


# --- the ping -----------------------------------------------------------------------------------------------


async def test_ping_at_most_once_an_hour_per_organization(services: Services, state: SandboxState) -> None:
    clock = [1000.0]
    people = PeopleService(services.client, services, clock=lambda: clock[0])
    org = state.demo_org
    ada = state.members[org][uid(state, "ada@northwind.dev")]
    ada["lastSeenAt"] = "2020-01-01T00:00:00.000Z"
    assert await people.ping_if_due(org) is True
    assert ada["lastSeenAt"] == state.now()
    ada["lastSeenAt"] = "2020-01-01T00:00:00.000Z"
    clock[0] += PING_EVERY - 1
    assert await people.ping_if_due(org) is False
    assert ada["lastSeenAt"] == "2020-01-01T00:00:00.000Z"  # not sent
    clock[0] += 1
    assert await people.ping_if_due(org) is True and ada["lastSeenAt"] == state.now()


async def test_a_failed_ping_is_tried_again(services: Services, state: SandboxState) -> None:
    people = PeopleService(services.client, services, clock=lambda: 5.0)
    assert await people.ping_if_due("no-such-org") is False  # a 404, logged, not raised
    org = state.demo_org
    assert await people.ping_if_due(org) is True
    assert await people.ping_if_due(org) is False


def test_ping_setting(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert ping_enabled(Settings.load(path)) is True  # no file: on
    path.write_text('ping = false\n[profiles.default]\ntoken_env = "X"\n')
    settings = Settings.load(path)
    assert ping_enabled(settings) is False
    assert settings.to_toml()["ping"] is False  # kept when the file is written again
    path.write_text('ping = "no"\n')
    with pytest.raises(SettingsError, match="ping must be true or false"):
        ping_enabled(Settings.load(path))


# --- your own admin role (issue 24, 2) ------------------------------------------------------------------------------


async def test_your_own_demotion_or_removal_is_refused_unless_confirmed(
    people: PeopleService, state: SandboxState
) -> None:
    org = state.demo_org
    ada = await people.member(org, uid(state, "ada@northwind.dev"))  # the signed-in user, one of two admins
    state.hits.clear()
    with pytest.raises(Refused, match="takes away your own admin role"):
        await people.set_role(org, ada, "read")
    plan = await people.plan(org, [ada], "edit")
    assert plan.demotes_me is not None and plan.problem is None
    with pytest.raises(Refused, match="takes away your own admin role"):
        await people.apply_role_plan(org, plan)
    with pytest.raises(Refused, match="removes you from the organization"):
        await people.remove_member(org, ada)
    assert not any(method in ("PATCH", "DELETE") for method, _ in state.hits)
    assert roles(state)["ada@northwind.dev"] == "admin"
    outcome = await people.apply_role_plan(org, plan, confirmed_self=True)
    assert outcome.complete and roles(state)["ada@northwind.dev"] == "edit"


def test_your_own_demotion_comes_last_in_a_plan() -> None:
    marked = [member("Ada", "admin", "me"), member("Bruno", "admin"), member("Ivan", "read")]
    plan = plan_roles(marked, "comment", admins_now=3, me="me")
    assert [c.name for c in plan.changes] == ["Ivan", "Bruno", "Ada"]
    assert plan.demotes_me is not None and plan.demotes_me.name == "Ada"
    assert plan_roles(marked, "comment", admins_now=3).demotes_me is None  # who you are not known: nothing said
    assert plan_roles(marked, "admin", admins_now=3, me="me").demotes_me is None
