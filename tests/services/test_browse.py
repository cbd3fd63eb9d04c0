"""BrowseService against the seeded sandbox, and its pure pieces (the collection tree, the inbox filter, ages)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from folio.api import GitBookClient
from folio.models.change_request import ChangeRequestSummary
from folio.models.space import Collection, Space, SpaceSummary
from folio.sandbox import SandboxState
from folio.services.browse import STATUS_CYCLE, BrowseService, InboxFilter, Verdicts, build_tree, relative_age
from tests.conftest import FROZEN_AT


@pytest.fixture
def browse(client: GitBookClient) -> BrowseService:
    return BrowseService(client, where="the test sandbox")


def _space(state: SandboxState, title: str) -> str:
    return next(sid for sid, s in state.spaces.items() if s["title"] == title)


# --- against the sandbox --------------------------------------------------------------------------------------


async def test_spaces_come_page_by_page(browse: BrowseService, state: SandboxState) -> None:
    pages = [page async for page in browse.spaces_pages(state.demo_org, limit=5)]
    assert [len(p) for p in pages] == [5, 5, 2]
    titles = [s.title for page in pages for s in page]
    assert titles[:3] == ["Getting Started", "User Guide", "Admin Handbook"]
    assert "Legacy Docs (v1)" not in titles  # deleted
    assert all(type(s) is SpaceSummary for page in pages for s in page)  # a list reads what its rows show


async def test_the_tree_of_the_demo_organization(browse: BrowseService, state: SandboxState) -> None:
    collections = await browse.collections(state.demo_org)
    spaces = [s async for page in browse.spaces_pages(state.demo_org) for s in page]
    tree = build_tree(collections, spaces)
    assert [n.collection.title for n in tree.roots] == ["Product", "Engineering", "Company"]
    product = tree.roots[0]
    assert [c.collection.title for c in product.children] == ["Guides", "Reference"]
    assert [s.title for s in product.children[0].spaces] == ["Getting Started", "User Guide", "Admin Handbook"]
    assert [s.title for s in product.spaces] == ["Release Notes"]
    assert product.space_count() == 6
    assert [s.title for s in tree.loose] == ["Centre d'aide", "Scratchpad"]


async def test_the_inbox_by_status_and_switch(browse: BrowseService, state: SandboxState) -> None:
    org, me = state.demo_org, state.default_user

    async def subjects(inbox: InboxFilter) -> list[str]:
        return [cr.subject async for page in browse.change_request_pages(org, inbox, me=me) for cr in page]

    assert await subjects(InboxFilter()) == [
        "Weekend paging rotation",
        "Remove the deprecated Rollouts API page",
        "Explain rollout waves",
        "Failover: lower the DNS TTL first",
        "Clarify Linux install steps",
        "Add pagination to the Robots API",
    ]
    assert await subjects(InboxFilter("draft")) == ["December 2026 release notes", "Reorganise troubleshooting"]
    assert await subjects(InboxFilter("merged")) == ["Document the canary channel"]
    assert len(await subjects(InboxFilter("all"))) == 10
    assert await subjects(InboxFilter("all", awaiting_me=True)) == [
        "Weekend paging rotation",
        "Clarify Linux install steps",
        "Add pagination to the Robots API",
    ]
    assert await subjects(InboxFilter("all", mine=True)) == [
        "Reorganise troubleshooting",
        "Explain rollout waves",
        "Failover: lower the DNS TTL first",
    ]
    assert await subjects(InboxFilter("all", outdated=True)) == ["Add pagination to the Robots API"]
    with pytest.raises(ValueError, match="signed-in user"):
        await subjects_without_me(browse, org)


async def subjects_without_me(browse: BrowseService, org: str) -> list[str]:
    return [cr.subject async for page in browse.change_request_pages(org, InboxFilter(mine=True)) for cr in page]


async def test_the_inbox_pages_and_asks_for_every_status(browse: BrowseService, state: SandboxState) -> None:
    pages = [p async for p in browse.change_request_pages(state.demo_org, InboxFilter("all"), limit=4)]
    assert [len(p) for p in pages] == [4, 4, 2]
    assert {cr.status for p in pages for cr in p} == {"draft", "open", "archived", "merged"}
    assert all(type(cr) is ChangeRequestSummary for p in pages for cr in p)  # the inbox's rows, not full ones


async def test_verdicts_count_each_reviewers_current_review(browse: BrowseService, state: SandboxState) -> None:
    by_subject = {cr["subject"]: cr for cr in state.change_requests.values()}

    async def verdicts(subject: str) -> Verdicts:
        cr = by_subject[subject]
        return await browse.verdicts(cr["space"], cr["id"])

    assert await verdicts("Weekend paging rotation") == Verdicts(approved=1)
    assert await verdicts("Explain rollout waves") == Verdicts(changes_requested=1)
    assert await verdicts("Clarify Linux install steps") == Verdicts()  # Dana's review went out of date
    assert await verdicts("Failover: lower the DNS TTL first") == Verdicts()


async def test_sites_and_the_organization(browse: BrowseService, state: SandboxState) -> None:
    sites = [s async for page in browse.sites_pages(state.demo_org) for s in page]
    assert [(s.title, s.published, s.site_spaces) for s in sites] == [
        ("Northwind Docs", True, 9),
        ("Internal Handbook", False, 3),
    ]
    org = await browse.organization(state.demo_org)
    assert org.title == "Northwind Labs"


async def test_age_uses_the_module_clock(browse: BrowseService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.browse.now", lambda: FROZEN_AT)
    assert browse.age(FROZEN_AT - timedelta(days=3, hours=5)) == "3 d ago"
    assert browse.age(None) == ""


# --- pure pieces ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("delta", "words"),
    [
        (timedelta(seconds=-30), "just now"),
        (timedelta(seconds=59), "just now"),
        (timedelta(minutes=5), "5 min ago"),
        (timedelta(hours=3, minutes=59), "3 h ago"),
        (timedelta(days=1), "1 d ago"),
        (timedelta(days=13, hours=23), "13 d ago"),
        (timedelta(days=21), "3 wk ago"),
        (timedelta(days=100), "3 mo ago"),
        (timedelta(days=800), "2 yr ago"),
    ],
)
def test_relative_age(delta: timedelta, words: str) -> None:
    assert relative_age(FROZEN_AT - delta, FROZEN_AT) == words


def test_relative_age_of_a_naive_time_counts_it_as_utc() -> None:
    assert relative_age((FROZEN_AT - timedelta(hours=2)).replace(tzinfo=None), FROZEN_AT) == "2 h ago"


def test_a_tree_survives_unknown_parents_and_cycles() -> None:
    collections = [
        Collection(id="a", title="A", parent="b"),
        Collection(id="b", title="B", parent="a"),  # a cycle: one of them becomes a root
        Collection(id="c", title="C", parent="gone"),
    ]
    spaces = [Space(id="s1", parent="c"), Space(id="s2", parent="nowhere"), Space(id="s3")]
    tree = build_tree(collections, spaces)
    assert sorted(n.collection.id for n in tree.roots) == ["b", "c"]
    assert [n.collection.id for n in tree.roots[0].children] == ["a"]
    assert [s.id for s in tree.roots[1].spaces] == ["s1"]
    assert [s.id for s in tree.loose] == ["s2", "s3"]


def test_the_inbox_filter_cycles_and_toggles() -> None:
    inbox = InboxFilter()
    seen = [inbox.status]
    for _ in STATUS_CYCLE:
        inbox = inbox.next_status()
        seen.append(inbox.status)
    assert seen == ["open", "archived", "merged", "all", "draft", "open"]
    assert InboxFilter("all").statuses == ("draft", "open", "archived", "merged")
    both = InboxFilter().toggled("awaiting_me").toggled("outdated")
    assert both.describe() == "open · awaiting my review · outdated" and both.needs_me
    assert not both.toggled("awaiting_me").needs_me
    assert InboxFilter("all", mine=True).describe() == "every status · mine"
    with pytest.raises(ValueError):
        InboxFilter().toggled("status")
    assert str(Verdicts(2, 1)) == "✓2 ✗1" and str(Verdicts()) == "none"
