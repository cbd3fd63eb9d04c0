"""Search, the trash and new change requests as services: the pure pieces (words checked before sending, where the
words are in a text, anchors, the history, time left), and each against the seeded sandbox (grouped and paged
results, a deleted space found and restored, a change request made and found again, reviewers asked)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from folio.api import GitBookClient
from folio.models.search import SearchSection
from folio.models.space import SpaceSummary
from folio.sandbox import SandboxState
from folio.services import Services
from folio.services.content.search import (
    QUERY_MAX,
    SearchHistory,
    SearchService,
    SpaceHits,
    anchor_of,
    check_words,
    match_spans,
    merge_pages,
)
from folio.services.content.space import deleted_note
from folio.services.content.trash import restorable_until, time_left
from folio.services.local import Local
from folio.services.review.authoring import AuthoringService, check_subject
from tests.conftest import FROZEN_AT


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("folio.services.format.now", lambda: FROZEN_AT)


@pytest.fixture
def services(client: GitBookClient) -> Services:
    made = Services(client, where="the test sandbox")
    made.authoring.clock = lambda: FROZEN_AT
    return made


def space_id(state: SandboxState, title: str) -> str:
    return next(sid for sid, s in state.spaces.items() if s["title"] == title)


def searches(state: SandboxState) -> list[str]:
    return [path for method, path in state.hits if method == "GET" and path.endswith("/search")]


# --- pure pieces ----------------------------------------------------------------------------------------------


def test_words_are_checked_before_sending() -> None:
    assert check_words("fleet") is None
    assert check_words("x" * QUERY_MAX) is None
    assert check_words("   ") == "Type the words to look for."
    too_long = check_words("x" * (QUERY_MAX + 1))
    assert too_long is not None and "at most 512 characters" in too_long and "513" in too_long


@pytest.mark.parametrize(
    ("text", "words", "spans"),
    [
        ("Install the robot agent", "robot", [(12, 17)]),
        ("Robots and robot fleets", "ROBOT", [(0, 5), (11, 16)]),
        ("Create a fleet of robots", "fleet robots", [(9, 14), (18, 24)]),
        ("the fleet robots", "fleet robots", [(4, 16)]),  # the phrase, one span
        ("nothing here", "fleet", []),
        ("[b]markup[/b] stays text", "markup", [(3, 9)]),
        ("a.b (c)", "(c)", [(4, 7)]),  # the words are text, not a pattern
    ],
)
def test_match_spans(text: str, words: str, spans: list[tuple[int, int]]) -> None:
    assert match_spans(text, words) == spans


def test_anchor_of_a_section() -> None:
    assert anchor_of(SearchSection(id="page1#install-with-apt", title="Install")) == "install-with-apt"
    assert anchor_of(SearchSection(id="s1", title="Install", path="linux#apt")) == "apt"
    assert anchor_of(SearchSection(id="s1", title="Install")) == "s1"


def test_history_keeps_the_newest_once_and_at_most_fifty() -> None:
    history = SearchHistory(most=3)
    for words in ("fleet", "robot", "fleet", "  ", "apt", "token"):
        history.add("org", words)
    assert history.lines("org") == ["fleet", "apt", "token"]
    assert history.lines("other") == []
    history.add("org", "x" * (QUERY_MAX + 1))
    assert history.lines("org") == ["fleet", "apt", "token"]


def test_merging_a_next_page_keeps_one_group_per_space() -> None:
    first = [SpaceHits("a", "A"), SpaceHits("b", "B")]
    merged = merge_pages(first, [SpaceHits("b", "B"), SpaceHits("c", "C")])
    assert [s.id for s in merged] == ["a", "b", "c"]


def test_time_left_and_the_deleted_note() -> None:
    deleted = SpaceSummary(id="s", title="Old", deleted_at=FROZEN_AT - timedelta(days=3))
    until = restorable_until(deleted)
    assert until == FROZEN_AT + timedelta(days=4)
    assert time_left(until, FROZEN_AT) == "4 days left"
    assert time_left(until, until - timedelta(days=1)) == "1 day left"
    assert time_left(until, until - timedelta(hours=5, minutes=3)) == "5 h left"
    assert time_left(until, until - timedelta(minutes=3)) == "less than an hour left"
    assert time_left(until, until) == "removed for good"
    assert deleted_note(deleted) == "Deleted, restorable until 2026-11-05 09:00 UTC"
    assert deleted_note(SpaceSummary(id="s", title="Live")) is None


def test_a_subject_is_needed_and_at_most_100_characters() -> None:
    assert check_subject("Fix typos") is None
    assert check_subject(" ") is not None
    assert check_subject("x" * 101) == "At most 100 characters; this has 101."


# --- against the sandbox ------------------------------------------------------------------------------------


async def test_an_organization_search_groups_pages_by_space(client: GitBookClient, state: SandboxState) -> None:
    page = await SearchService(client).organization(state.demo_org, "install")
    assert [s.title for s in page.spaces] == ["Getting Started", "Centre d'aide"]
    first = page.spaces[0].pages[0]
    assert first.title == "Installation" and first.sections[0].title == "Installation"
    linux = next(p for p in page.spaces[0].pages if p.title == "Linux")
    assert linux.ancestors == ("Installation",)
    assert page.next is None


async def test_results_come_a_page_at_a_time(client: GitBookClient, state: SandboxState) -> None:
    search = SearchService(client)
    first = await search.organization(state.demo_org, "robot", limit=2)
    assert len(first.spaces) == 2 and first.next is not None
    second = await search.organization(state.demo_org, "robot", page=first.next, limit=2)
    assert {s.id for s in first.spaces}.isdisjoint({s.id for s in second.spaces})


async def test_a_space_search_is_one_group(client: GitBookClient, state: SandboxState) -> None:
    sid = space_id(state, "REST API Reference")
    page = await SearchService(client).space(sid, "robot", title="REST API Reference")
    assert [g.id for g in page.spaces] == [sid]
    robots = page.spaces[0].pages[0]
    assert robots.title == "Robots"
    assert [s.anchor for s in robots.sections] == ["robots", "list-robots", "get-a-robot"]


async def test_a_refused_search_sends_nothing(client: GitBookClient, state: SandboxState) -> None:
    with pytest.raises(ValueError, match="at most 512"):
        await SearchService(client).organization(state.demo_org, "x" * (QUERY_MAX + 1))
    assert searches(state) == []


async def test_a_space_deleted_after_it_was_seen_is_in_the_trash(services: Services, state: SandboxState) -> None:
    trash = services.trash
    assert await trash.deleted_spaces(state.demo_org) == []  # the seeded deleted space was never seen
    sid = space_id(state, "Scratchpad")
    await services.client.spaces.delete(sid)
    found = await trash.deleted_spaces(state.demo_org)
    assert [s.title for s in found] == ["Scratchpad"]
    assert time_left(restorable_until(found[0]), FROZEN_AT) == "7 days left"
    restored = await trash.restore(found[0])
    assert not restored.deleted and state.spaces[sid]["deletedAt"] is None
    assert await trash.deleted_spaces(state.demo_org) == []


async def test_the_trash_shows_what_it_knows_soonest_first(services: Services, state: SandboxState) -> None:
    legacy = space_id(state, "Legacy Docs (v1)")
    services.trash.saw(state.demo_org, [SpaceSummary(id=legacy, title="Legacy Docs (v1)")])
    scratch = await services.space.space(space_id(state, "Scratchpad"))
    assert await services.trash.delete(scratch) is True
    found = await services.trash.deleted_spaces(state.demo_org)
    assert [s.title for s in found] == ["Legacy Docs (v1)", "Scratchpad"]  # 4 days left, then 7
    state.clock.advance(days=5)  # Legacy Docs is past its 7 days: removed for good
    assert [s.title for s in await services.trash.deleted_spaces(state.demo_org)] == ["Scratchpad"]


async def test_a_space_in_the_cached_list_is_found_by_a_new_run(
    client: GitBookClient, state: SandboxState, tmp_path: Path
) -> None:
    """The organization's list kept in the local cache (an earlier run read it) names a space deleted since."""
    local = Local(client, cache_dir=tmp_path / "cache", state_dir=tmp_path / "state")
    local.confirm(state.default_user, "Ada")
    try:
        earlier = Services(client, local=local)
        assert [s async for page in earlier.browse.spaces_pages(state.demo_org) for s in page]  # cached now
        sid = space_id(state, "Onboarding")
        await client.spaces.delete(sid)
        later = Services(client, local=local)  # a new run: its trash saw nothing yet
        assert [s.title for s in await later.trash.deleted_spaces(state.demo_org)] == ["Onboarding"]
    finally:
        local.close()


async def test_a_change_request_is_made_and_found_again(services: Services, state: SandboxState) -> None:
    sid = space_id(state, "User Guide")
    authoring = services.authoring
    made = await authoring.create_change_request(sid, "Explain waves", "Waves roll out to a share of a fleet.")
    cr = made.change_request
    assert made.description_error is None
    record = state.change_requests[cr.id]
    assert record["subject"] == "Explain waves" and record["description"] is not None
    found = await authoring.find_change_request(sid, "Explain waves", since=FROZEN_AT)
    assert found is not None and found.change_request.id == cr.id
    assert await authoring.find_change_request(sid, "Never sent", since=FROZEN_AT) is None
    later = FROZEN_AT + timedelta(hours=1)
    assert await authoring.find_change_request(sid, "Explain waves", since=later) is None


async def test_reviewers_are_asked_and_found(services: Services, state: SandboxState) -> None:
    sid = space_id(state, "User Guide")
    cr = (await services.authoring.create_change_request(sid, "Ask for review")).change_request
    others = [uid for uid in state.members[state.demo_org] if uid != state.default_user][:2]
    authoring: AuthoringService = services.authoring
    assert await authoring.find_requested(sid, cr.id, others) is None
    asked = await authoring.request_reviewers(sid, cr.id, others)
    assert [r.reviewer_id for r in asked] == others
    assert state.change_requests[cr.id]["requestedReviewers"] == others
    found = await authoring.find_requested(sid, cr.id, others)
    assert found is not None and [r.reviewer_id for r in found] == others


def test_the_clock_of_the_lookups_is_utc(client: GitBookClient) -> None:
    assert AuthoringService(client).clock().tzinfo == UTC
    assert isinstance(AuthoringService(client).clock(), datetime)
