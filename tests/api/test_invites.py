"""Invite links and invites by email through the real client against the sandbox (the public description's
organization-invites): list, create, read, change and delete links (205 deleted, 204 none), invite people by
email, the limits checked before sending, 404/400/403 as the other routes answer, and a service without them."""

from __future__ import annotations

import pytest

from folio.api import GitBookClient, Token
from folio.api.errors import BadRequest, Forbidden, InvalidRequest, NotFound, NotOffered
from folio.api.retry import RetryPolicy
from folio.models.invite import InvitedUsers, InviteLink
from folio.sandbox import SandboxState, SandboxTransport, create_app
from tests.conftest import SANDBOX_URL, TOKEN


def member_with(state: SandboxState, role: str | None) -> str:
    return next(u for u, m in state.members[state.demo_org].items() if m["role"] == role)


async def test_invite_links_round_trip(client: GitBookClient, state: SandboxState) -> None:
    org = state.demo_org
    listed = await client.organizations.invite_links(org).collect()
    assert {link.role for link in listed} == {"read", "edit"} and all(link.redundant for link in listed)
    made = await client.organizations.create_invite_link(org, role="comment")
    assert isinstance(made, InviteLink) and made.kind == "organization" and made.role == "comment"
    assert (await client.organizations.get_invite_link(org, made.id)).role == "comment"
    guests = await client.organizations.update_invite_link(org, made.id, role=None)
    assert guests.role is None and state.invites[org][made.id]["role"] is None
    assert await client.organizations.delete_invite(org, made.id) is True
    assert await client.organizations.delete_invite(org, made.id) is False  # 204: there was none
    with pytest.raises(NotFound):
        await client.organizations.get_invite_link(org, made.id)


async def test_a_link_to_a_space_gives_a_level(client: GitBookClient, state: SandboxState) -> None:
    org = state.demo_org
    space = next(s for s in state.spaces.values() if s["organization"] == org and not s.get("deletedAt"))
    response = await client.request("POST", f"/orgs/{org}/link-invites", json={"space": space["id"], "level": "read"})
    link = InviteLink.model_validate(response.json())
    assert link.kind == "space" and link.access == "read" and link.target_title == space["title"]
    changed = await client.organizations.update_invite_link(org, link.id, level="comment")
    assert changed.level == "comment"
    with pytest.raises(BadRequest):  # a link to a space changes its level, not a role
        await client.organizations.update_invite_link(org, link.id, role="read")


async def test_invite_people_by_email(client: GitBookClient, state: SandboxState) -> None:
    org = state.demo_org
    invited = await client.organizations.invite_users(org, ["zoe@example.org", "yan@example.org"], role="read")
    assert isinstance(invited, InvitedUsers) and invited.invited == 2 and len(invited.users) == 2
    assert all(state.members[org][uid]["role"] == "read" for uid in invited.users)
    again = await client.organizations.invite_users(org, ["zoe@example.org"], role="read")
    assert again.invited == 0  # already a member: nobody added twice


async def test_bad_input_is_refused(client: GitBookClient, state: SandboxState) -> None:
    org = state.demo_org
    with pytest.raises(InvalidRequest):
        await client.organizations.invite_users(org, [])
    with pytest.raises(InvalidRequest):
        await client.organizations.invite_users(org, [f"p{n}@example.org" for n in range(101)])
    with pytest.raises(InvalidRequest):
        await client.organizations.create_invite_link(org, role="owner")  # type: ignore[arg-type]
    with pytest.raises(BadRequest):
        await client.request("POST", f"/orgs/{org}/invites", json={"emails": ["not an email"]})
    with pytest.raises(BadRequest):
        await client.request("POST", f"/orgs/{org}/link-invites", json={"role": "owner"})
    with pytest.raises(NotFound):
        await client.organizations.update_invite_link(org, "nope", role="read")
    state.orgs[org]["inviteLinks"] = False
    with pytest.raises(BadRequest):
        await client.organizations.create_invite_link(org, role="read")


async def test_only_admins(client: GitBookClient, state: SandboxState) -> None:
    state.tokens = {TOKEN: member_with(state, "edit")}
    with pytest.raises(Forbidden):
        await client.organizations.invite_links(state.demo_org).collect()
    with pytest.raises(Forbidden):
        await client.organizations.invite_users(state.demo_org, ["a@example.org"])


async def _no_sleep(seconds: float) -> None:
    return None


async def test_a_service_without_them_is_told(state: SandboxState) -> None:
    transport = SandboxTransport(create_app(state, offer_optional=False))
    async with GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=transport, retry=RetryPolicy(sleep=_no_sleep)
    ) as client:
        with pytest.raises(NotOffered):
            await client.organizations.invite_links(state.demo_org).collect()
        with pytest.raises(NotOffered):
            await client.organizations.create_invite_link(state.demo_org, role="read")
