"""Invite links and invites by email through AccessService over the seeded sandbox: list, create, change and
delete links (an id that is no link is said, not "deleted"), invite people by email with its limits checked
before sending, a lost answer looked for before anything is sent again, and a service without invite links told
plainly. Each checked in what the sandbox now holds."""

from __future__ import annotations

import pytest

from folio.api import GitBookClient, Token, errors
from folio.api.retry import RetryPolicy
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.faults import Faults
from folio.services import Services
from folio.services.people.access import (
    INVITES_NOT_OFFERED,
    NO_ROLE,
    AccessService,
    InvitesNotOffered,
    check_invite_emails,
    invite_emails,
)
from folio.services.writes import may_have_reached
from tests.conftest import EXCHANGES, SANDBOX_URL, TOKEN


@pytest.fixture
def faults() -> Faults:
    return Faults()  # all off: a test turns one on for a moment


@pytest.fixture
def app(state: SandboxState, faults: Faults):  # type: ignore[no-untyped-def]
    return create_app(state, faults=faults)


@pytest.fixture
def access(client: GitBookClient) -> AccessService:
    return Services(client).access


def links(state: SandboxState) -> dict[str, dict[str, object]]:
    return state.invites[state.demo_org]


def writes(mark: int) -> list[tuple[str, str]]:
    return [(str(e["method"]), str(e["path"])) for e in EXCHANGES[mark:] if e["method"] != "GET"]


async def listed(access: AccessService, org: str) -> list[tuple[str, str | None]]:
    return [(link.id, link.access) async for page in access.invite_link_pages(org) for link in page]


def test_emails_are_read_and_checked_before_sending() -> None:
    assert invite_emails("a@x.dev, b@x.dev;\nA@x.dev  c@x.dev") == ["a@x.dev", "b@x.dev", "c@x.dev"]
    assert check_invite_emails(" ") == "Type at least one email (separate them with commas or spaces)."
    assert check_invite_emails("a@x.dev, nope, b@") == "Not an email: nope, b@."
    assert (
        check_invite_emails(", ".join(f"p{n}@x.dev" for n in range(101))) == "At most 100 emails at once (101 typed)."
    )
    assert check_invite_emails("a@x.dev\x1b[2J") is not None
    assert check_invite_emails("a@x.dev b@x.dev") is None


async def test_list_create_change_and_delete_invite_links(access: AccessService, state: SandboxState) -> None:
    org = state.demo_org
    assert sorted(role for _, role in await listed(access, org)) == ["edit", "read"]
    made = await access.create_invite_link(org, "comment")
    assert made.kind == "organization" and links(state)[made.id]["role"] == "comment"
    guests = await access.create_invite_link(org, NO_ROLE)
    assert links(state)[guests.id]["role"] is None and guests.access is None
    changed = await access.update_invite_link(org, made, "review")
    assert changed.role == "review" == links(state)[made.id]["role"]
    gone = await access.delete_invite(org, made.id)
    assert gone.existed and made.id not in links(state)


async def test_deleting_an_id_that_is_no_invite_link_says_so_and_sends_nothing(
    access: AccessService, state: SandboxState
) -> None:
    before = dict(links(state))
    mark = len(EXCHANGES)
    gone = await access.delete_invite(state.demo_org, "https://app.example.com/invite/madeUpId")
    assert gone.invite_id == "madeUpId" and gone.existed is False
    assert links(state) == before
    assert writes(mark) == []


async def test_a_lost_create_is_found_not_made_twice(
    access: AccessService, state: SandboxState, faults: Faults
) -> None:
    org = state.demo_org
    seeded_edit = next(i for i, link in links(state).items() if link["role"] == "edit")
    faults.drop_after_write = 1.0  # applied, its answer lost
    with pytest.raises(errors.ApiError) as lost:
        await access.create_invite_link(org, "edit")
    faults.drop_after_write = 0.0
    assert may_have_reached(lost.value)
    [new] = [i for i, link in links(state).items() if link["role"] == "edit" and i != seeded_edit]
    found = await access.find_invite_link(org, "edit")
    assert found is not None and found.id == new  # the new one, not the link that existed before the send
    assert await access.find_invite_link(org, "admin") is None


async def test_a_lost_delete_says_it_was_deleted(access: AccessService, state: SandboxState, faults: Faults) -> None:
    invite = next(iter(links(state)))
    faults.drop_after_write = 1.0  # the delete is applied, every answer lost (the re-send's "there was none" too)
    gone = await access.delete_invite(state.demo_org, invite)
    faults.drop_after_write = 0.0
    assert gone.existed and invite not in links(state)  # read from the list: it was deleted


async def test_invite_people_by_email(access: AccessService, state: SandboxState, faults: Faults) -> None:
    org = state.demo_org
    known = next(u for u in state.users.values() if u["email"] == "kofi@contractor.io")
    del state.members[org][known["id"]]
    invited = await access.invite_people(org, "kofi@contractor.io, new.person@example.org", "comment")
    assert invited.invited == 2
    by_email = {state.users[uid]["email"]: m for uid, m in state.members[org].items()}
    assert (
        by_email["kofi@contractor.io"]["role"] == "comment" and by_email["new.person@example.org"]["role"] == "comment"
    )
    mark = len(EXCHANGES)
    with pytest.raises(errors.InvalidRequest):
        await access.invite_people(org, "someone@, other", "read")
    assert EXCHANGES[mark:] == []  # refused before sending
    faults.drop_after_write = 1.0
    with pytest.raises(errors.ApiError):
        await access.invite_people(org, "lost.answer@example.org", NO_ROLE)
    faults.drop_after_write = 0.0
    found = await access.find_invited(org, "lost.answer@example.org")
    assert found is not None and found.invited == 1
    assert await access.find_invited(org, "never.sent@example.org") is None


async def test_a_service_without_invite_links_says_so(state: SandboxState) -> None:
    transport = SandboxTransport(create_app(state, offer_optional=False))
    async with GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=transport, retry=RetryPolicy(sleep=_no_sleep)
    ) as client:
        access = Services(client).access
        with pytest.raises(InvitesNotOffered) as raised:
            await listed(access, state.demo_org)
        assert str(raised.value) == INVITES_NOT_OFFERED == raised.value.describe()
        with pytest.raises(InvitesNotOffered):
            await access.invite_people(state.demo_org, "a@example.org", "read")
        invite = next(iter(links(state)))
        gone = await access.delete_invite(state.demo_org, invite)  # the delete is in every service
        assert gone.existed and invite not in links(state)
        assert (await access.delete_invite(state.demo_org, "madeUpId")).existed is False  # its 204 says so


async def _no_sleep(seconds: float) -> None:
    return None
