"""Organizations through the real client against the sandbox: the current user, listing, reading and updating
organizations, invite links, joining, search, agent instructions and ping."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient
from folio.api.errors import BadRequest, Forbidden, InvalidRequest, NotFound
from folio.models.common import Document, User
from folio.models.organization import Organization
from folio.sandbox import SandboxState
from folio.sandbox.seed.people import make_org, make_user


def other_org(state: SandboxState) -> str:
    """The seeded organization where the demo user only edits."""
    return next(oid for oid in state.orgs if oid != state.demo_org and state.default_user in state.members[oid])


# --- the current user ---------------------------------------------------------------------------------------


async def test_me_is_the_token_owner(client: GitBookClient, state: SandboxState) -> None:
    me = await client.users.me()
    assert isinstance(me, User)
    assert me.id == state.default_user
    assert me.display_name == "Ada Okafor"
    assert me.email == "ada@northwind.dev"
    assert me.photo_url and me.photo_url.startswith("https://")


# --- list and read ------------------------------------------------------------------------------------------


async def test_list_returns_only_the_callers_organizations(client: GitBookClient, state: SandboxState) -> None:
    stranger = make_org(state, "Not Mine Inc", hostname="notmine", created_days_ago=10)
    orgs = await client.organizations.list().collect()
    assert [o.title for o in orgs] == ["Northwind Labs", "Open Robotics Guild"]
    assert stranger not in {o.id for o in orgs}
    assert all(isinstance(o, Organization) and o.object == "organization" for o in orgs)


async def test_list_pages_with_a_limit(client: GitBookClient) -> None:
    first = await client.organizations.list(limit=1).fetch()
    assert len(first.items) == 1 and first.count == 2 and first.next_page
    second = await client.organizations.list(limit=1).fetch(first.next_page)
    assert second.items[0].title == "Open Robotics Guild" and second.next_page is None


async def test_permissions_follow_the_members_role(client: GitBookClient, state: SandboxState) -> None:
    demo = await client.organizations.get(state.demo_org)
    assert demo.title == "Northwind Labs" and demo.email_domains == ["northwind.dev"]
    assert demo.permissions.admin and demo.permissions.view_billing and demo.permissions.create_content
    assert demo.permissions.own_team  # Ada owns "Docs Core"
    assert demo.billing is not None and demo.billing.interval == "yearly"
    guild = await client.organizations.get(other_org(state))
    assert guild.type == "community" and guild.community_type == "nonProfit"
    assert guild.permissions.view and guild.permissions.list_members
    assert not guild.permissions.admin and not guild.permissions.create_content


async def test_get_missing_organization_is_not_found(client: GitBookClient) -> None:
    with pytest.raises(NotFound):
        await client.organizations.get("no-such-org")


# --- update -------------------------------------------------------------------------------------------------


async def test_update_changes_the_settings(client: GitBookClient, state: SandboxState) -> None:
    org = await client.organizations.update(
        state.demo_org,
        title="Northwind",
        hostname="nwind",
        default_role=None,
        logo="https://cdn.nw.dev/l.png",
        invite_links=False,
        email_domains=["northwind.dev", "nw.io"],
        merge_rules={"type": "none"},
    )
    assert org.title == "Northwind" and org.hostname == "nwind" and org.default_role is None
    assert org.logo == "https://cdn.nw.dev/l.png" and org.invite_links is False
    assert org.merge_rules is not None and org.merge_rules.type == "none"
    record = state.orgs[state.demo_org]
    assert record["title"] == "Northwind" and record["emailDomains"] == ["northwind.dev", "nw.io"]
    cleared = await client.organizations.update(state.demo_org, logo=None)
    assert cleared.logo is None and record["logo"] is None


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"title": "N"}, "title"),
        ({"title": "x" * 256}, "title"),
        ({"title": None}, "title"),
        ({"hostname": "nw"}, "hostname"),
        ({"hostname": "h" * 33}, "hostname"),
        ({"logo": "https://x.dev/" + "a" * 2040}, "logo"),
        ({"logo": "not a uri"}, "logo"),
        ({"default_role": "owner"}, "defaultRole"),
    ],
)
async def test_update_limits_are_checked_before_sending(
    client: GitBookClient, state: SandboxState, kwargs: dict[str, Any], field: str
) -> None:
    before = dict(state.orgs[state.demo_org])
    with pytest.raises(InvalidRequest) as caught:
        await client.organizations.update(state.demo_org, **kwargs)
    assert caught.value.field == field
    assert state.orgs[state.demo_org] == before
    assert ("PATCH", "/orgs/{organizationId}") not in state.hits


@pytest.mark.parametrize(
    ("body", "word"),
    [
        ({"title": "N"}, "title"),
        ({"hostname": "h" * 33}, "hostname"),
        ({"logo": "https://x.dev/" + "a" * 2040}, "logo"),
        ({"defaultRole": "owner"}, "defaultRole"),
        ({"inviteLinks": "yes"}, "inviteLinks"),
        ({"mergeRules": {"type": "sometimes"}}, "mergeRules"),
        ({"defaultContent": {"type": "site", "site": "no-such-site"}}, "defaultContent"),
    ],
)
async def test_update_rejects_invalid_bodies(
    client: GitBookClient, state: SandboxState, body: dict[str, Any], word: str
) -> None:
    before = dict(state.orgs[state.demo_org])
    with pytest.raises(BadRequest) as caught:
        await client.request_json("PATCH", f"/orgs/{state.demo_org}", json=body)
    assert word in caught.value.message
    assert state.orgs[state.demo_org] == before


async def test_only_admins_update(client: GitBookClient, state: SandboxState) -> None:
    guild = other_org(state)
    with pytest.raises(Forbidden):
        await client.organizations.update(guild, title="Taken over")
    assert state.orgs[guild]["title"] == "Open Robotics Guild"


# --- invite links and joining -------------------------------------------------------------------------------


async def test_delete_invite_link(client: GitBookClient, state: SandboxState) -> None:
    invite = sorted(state.invites[state.demo_org])[0]
    await client.organizations.delete_invite(state.demo_org, invite)
    assert invite not in state.invites[state.demo_org] and len(state.invites[state.demo_org]) == 1
    # Already gone: the service answers 204 and the client does not complain.
    await client.organizations.delete_invite(state.demo_org, invite)
    with pytest.raises(NotFound):
        await client.organizations.delete_invite("no-such-org", invite)


async def test_join_by_email_domain(client: GitBookClient, state: SandboxState) -> None:
    partners = make_org(state, "Northwind Partners", hostname="nwpartners", created_days_ago=30)
    state.orgs[partners]["emailDomains"] = ["northwind.dev"]
    state.orgs[partners]["defaultRole"] = "comment"
    owner = make_user(state, "Pat Partner", "pat@northwind.dev")
    state.members[partners][owner] = {
        "role": "admin",
        "disabled": False,
        "joinedAt": state.now(),
        "sso": False,
    }
    # Joinable: the organization is visible before joining, with no permissions.
    preview = await client.organizations.get(partners)
    assert preview.permissions.view and not preview.permissions.access and preview.billing is None
    await client.organizations.join(partners)
    assert state.members[partners][state.default_user]["role"] == "comment"
    assert partners in {o.id for o in await client.organizations.list().collect()}
    await client.organizations.join(partners)  # already a member: nothing changes
    assert len(state.members[partners]) == 2


async def test_join_needs_a_matching_email_domain(client: GitBookClient, state: SandboxState) -> None:
    closed = make_org(state, "Closed Shop", hostname="closed", created_days_ago=5)
    with pytest.raises(BadRequest):
        await client.organizations.join(closed)
    assert state.default_user not in state.members.get(closed, {})
    with pytest.raises(NotFound):
        await client.organizations.get(closed)
    with pytest.raises(NotFound):
        await client.organizations.join("no-such-org")


# --- ping ---------------------------------------------------------------------------------------------------


async def test_ping_updates_last_seen(client: GitBookClient, state: SandboxState) -> None:
    state.clock.advance(hours=5)
    result = await client.organizations.ping(state.demo_org)
    assert result.visitor_claims and result.visitor_claims.count(".") == 2
    assert state.members[state.demo_org][state.default_user]["lastSeenAt"] == state.now()
    with pytest.raises(NotFound):
        await client.organizations.ping("no-such-org")


# --- agent instructions -------------------------------------------------------------------------------------


async def test_get_agent_instructions(client: GitBookClient, state: SandboxState) -> None:
    got = await client.agent_instructions.get(state.demo_org)
    assert got.object == "agent-instructions"
    assert got.text().startswith("Write for engineers")
    assert got.updated_by == list(state.members[state.demo_org])[1]
    assert got.urls is not None and got.urls.location and got.urls.location.endswith("/agent-instructions")
    # An organization that never set any answers an empty document.
    empty = await client.agent_instructions.get(other_org(state))
    assert empty.instructions is not None and empty.text() == ""


async def test_put_agent_instructions(client: GitBookClient, state: SandboxState) -> None:
    state.clock.advance(minutes=1)
    got = await client.agent_instructions.update(state.demo_org, "Be brief.\nCite sources.")
    assert got.text() == "Be brief.\nCite sources." and got.updated_by == state.default_user
    record = state.agent_instructions[state.demo_org]
    assert record["updatedAt"] == state.now() and len(record["instructions"]["nodes"]) == 2
    again = await client.agent_instructions.update(state.demo_org, Document.from_text("One line"))
    assert again.text() == "One line"


async def test_agent_instructions_errors(client: GitBookClient, state: SandboxState) -> None:
    before = state.agent_instructions[state.demo_org]
    with pytest.raises(InvalidRequest):
        await client.agent_instructions.update(state.demo_org, {"object": "paragraph"})
    with pytest.raises(BadRequest):
        await client.request_json(
            "PUT", f"/orgs/{state.demo_org}/agent-instructions", json={"instructions": "plain text"}
        )
    assert state.agent_instructions[state.demo_org] is before
    with pytest.raises(Forbidden):
        await client.agent_instructions.update(other_org(state), "Mine now")
    with pytest.raises(NotFound):
        await client.agent_instructions.get("no-such-org")


# --- search -------------------------------------------------------------------------------------------------


@pytest.fixture
def handbook(state: SandboxState) -> str:
    """A space of the demo organization with a small page tree (record shapes of sandbox/state.py)."""
    space, revision = "space-handbook", "rev-handbook"
    state.revisions[revision] = {
        "id": revision,
        "space": space,
        "type": "edits",
        "parents": [],
        "createdAt": state.now(),
        "files": [],
        "variables": {},
        "pages": [
            {
                "id": "pg-intro",
                "title": "Introduction",
                "type": "document",
                "slug": "intro",
                "description": "",
                "markdown": "Welcome to the handbook.\n\n## Zyphrodex tuning\nTune the zyphrodex weekly.",
                "pages": [
                    {
                        "id": "pg-deep",
                        "title": "Zyphrodex internals",
                        "type": "document",
                        "slug": "internals",
                        "description": "How the zyphrodex works",
                        "markdown": "Gears.",
                        "pages": [],
                    },
                ],
            },
            {
                "id": "pg-other",
                "title": "Other",
                "type": "document",
                "slug": "other",
                "markdown": "Nothing.",
                "pages": [],
            },
        ],
    }
    state.spaces[space] = {
        "id": space,
        "organization": state.demo_org,
        "parent": None,
        "title": "Handbook",
        "emoji": "📘",
        "visibility": "private",
        "createdAt": state.now(),
        "updatedAt": state.now(),
        "deletedAt": None,
        "editMode": "live",
        "language": "en",
        "revision": revision,
        "defaultLevel": "inherit",
        "mergeRules": {"type": "inherit"},
        "order": 0,
    }
    return space


async def test_search_finds_pages_and_sections(client: GitBookClient, state: SandboxState, handbook: str) -> None:
    results = await client.organizations.search(state.demo_org, "ZYPHRODEX").collect()
    assert [r.id for r in results] == [handbook]
    space = results[0]
    assert space.title == "Handbook"
    by_id = {p.id: p for p in space.pages}
    assert set(by_id) == {"pg-intro", "pg-deep"}
    deep = by_id["pg-deep"]
    assert deep.path == "intro/internals" and [a.title for a in deep.ancestors] == ["Introduction"]
    intro = by_id["pg-intro"]
    assert [s.title for s in intro.sections] == ["Zyphrodex tuning"]
    assert "zyphrodex weekly" in intro.sections[0].body
    assert intro.urls is not None and intro.urls.app and intro.urls.app.endswith("/intro")


async def test_search_skips_deleted_spaces(client: GitBookClient, state: SandboxState, handbook: str) -> None:
    state.spaces[handbook]["deletedAt"] = state.now()
    assert await client.organizations.search(state.demo_org, "zyphrodex").collect() == []


async def test_search_query_limits(client: GitBookClient, state: SandboxState, handbook: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        client.organizations.search(state.demo_org, "q" * 513)
    assert caught.value.field == "query"
    with pytest.raises(InvalidRequest):
        client.organizations.search(state.demo_org, "")
    assert ("GET", "/orgs/{organizationId}/search") not in state.hits
    with pytest.raises(BadRequest):
        await client.request_json("GET", f"/orgs/{state.demo_org}/search", params={"query": "q" * 513})
    with pytest.raises(BadRequest):
        await client.request_json("GET", f"/orgs/{state.demo_org}/search")
    with pytest.raises(NotFound):
        await client.organizations.search("no-such-org", "zyphrodex").collect()
