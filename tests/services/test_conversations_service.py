"""The conversations service against the seeded sandbox (clusters sorted and muted, a cluster's issues and linked
change requests, conversations by source, ingesting with each item checked), against a service without
conversations (``NotOfferedHere``), and its pure helpers: the sparkline, the trend in words, the filters' cycles,
reading and checking a conversations file."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from folio.api import GitBookClient, RetryPolicy, Token
from folio.models.conversation import IMPACTS
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.services.insights.conversations import (
    LOST_BUT_ARRIVED,
    NOT_OFFERED,
    SEND_ATTEMPTS,
    ConversationsService,
    IngestOutcome,
    IngestReport,
    NotOfferedHere,
    UnreadableFile,
    check_conversation,
    next_sort,
    next_source,
    read_conversations,
    sparkline,
    trend,
)
from tests.conftest import SANDBOX_URL, TOKEN

CONVERSATION_ROUTES = re.compile(r"^/v1/orgs/[^/]+/conversations")


class WithoutConversations(httpx.AsyncBaseTransport):
    """The sandbox, except that every conversations route answers 404 as a service without them does: the
    organization itself reads fine, so the client takes the 404 for "not offered", not "not found"."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.refused: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if CONVERSATION_ROUTES.match(request.url.path):
            self.refused.append(f"{request.method} {request.url.path}")
            return httpx.Response(404, json={"error": {"code": 404, "message": "Not Found"}}, request=request)
        return await self.inner.handle_async_request(request)


async def _no_sleep(seconds: float) -> None:
    return None


def client_without_conversations(state: SandboxState) -> tuple[GitBookClient, WithoutConversations]:
    transport = WithoutConversations(SandboxTransport(create_app(state)))
    client = GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=transport, retry=RetryPolicy(sleep=_no_sleep)
    )
    return client, transport


def cluster_id(state: SandboxState, label: str) -> str:
    return str(
        next(c["id"] for c in state.clusters.values() if c["label"] == label and c["organization"] == state.demo_org)
    )


def link_change_request(state: SandboxState, cluster: str, status: str | None = None) -> dict[str, Any]:
    """Link the first change request of the demo organization to ``cluster`` (the seed links one, to another)."""
    spaces = {sid for sid, s in state.spaces.items() if s["organization"] == state.demo_org}
    cr = next(c for c in state.change_requests.values() if c["space"] in spaces and c["status"] in ("open", "draft"))
    cr["conversationsIssuesCluster"] = cluster
    if status is not None:
        cr["status"] = status
    return cr


@pytest.fixture
def service(client: GitBookClient) -> ConversationsService:
    return ConversationsService(client)


@pytest.fixture
async def bare(state: SandboxState) -> AsyncIterator[ConversationsService]:
    client, _ = client_without_conversations(state)
    async with client:
        yield ConversationsService(client)


async def pages(iterator: AsyncIterator[list[Any]]) -> list[Any]:
    return [item async for page in iterator for item in page]


# --- pure helpers ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "line"),
    [
        ([0, 1, 2, 3, 4, 5, 6, 7], "▁▂▃▄▅▆▇█"),
        ([0, 0, 0], "▁▁▁"),
        ([5, 5], "██"),
        ([0, 10, 5], "▁█▅"),
        ([-3, 4], "▁█"),
        ([], ""),
    ],
)
def test_sparkline_scales_from_zero_to_the_top_week(values: list[float], line: str) -> None:
    assert sparkline(values) == line


def test_sparkline_of_a_pulse_has_one_block_a_week() -> None:
    line = sparkline([3, 0, 9, 1, 4, 4, 2, 8, 0, 6, 5, 7, 1])
    assert len(line) == 13 and line[2] == "█" and line[1] == line[8] == "▁"


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ([0] * 5 + [5, 5, 5, 5] + [7, 7, 7, 7], "up 40 % over 4 weeks"),
        ([0] * 5 + [4, 4, 4, 4] + [3, 3, 3, 3], "down 25 % over 4 weeks"),
        ([0] * 5 + [10, 10, 10, 10] + [10, 10, 10, 11], "steady over 4 weeks"),
        ([0] * 5 + [5, 5, 5, 5] + [5, 5, 5, 6], "up 5 % over 4 weeks"),
        ([0] * 9 + [0, 1, 0, 0], "new in the last 4 weeks"),
        ([9] * 5 + [0] * 8, "quiet for 8 weeks"),
        ([0] * 5 + [2, 2, 2, 2] + [0, 0, 0, 0], "down 100 % over 4 weeks"),
    ],
)
def test_trend_in_words(values: list[float], words: str) -> None:
    assert trend(values) == words


def test_trend_over_other_spans() -> None:
    assert trend([1, 3], weeks=1) == "up 200 % over 1 week"


def test_sort_and_source_cycles() -> None:
    assert [next_sort("updated"), next_sort("impact"), next_sort("pulse")] == ["impact", "pulse", "updated"]
    known = ["zendesk", "intercom", "slack", "intercom"]
    seen: list[str | None] = [None]
    for _ in range(4):
        seen.append(next_source(seen[-1], known))
    assert seen == [None, "intercom", "slack", "zendesk", None]
    assert next_source(None, []) is None
    assert next_source("gone", ["slack"]) == "slack"


GOOD = {"subject": "Cannot log in", "parts": [{"role": "user", "body": "The login page loops."}]}


@pytest.mark.parametrize(
    ("item", "problems"),
    [
        (GOOD, []),
        ({"parts": [{"body": {"markdown": "a document"}}], "id": "t-1"}, []),
        ({"subject": "No parts"}, ["parts: Field required"]),
        ({"parts": []}, ["parts: List should have at least 1 item after validation, not 0"]),
        ({"parts": [{"role": 3, "body": "x"}]}, ["parts[0].role: Input should be a valid string"]),
        ({"parts": [{"body": 12}]}, ["parts[0].body: must be text or a rich-text document (an object)"]),
        ({"parts": [{"body": "x"}], "subject": ""}, ["subject: String should have at least 1 character"]),
        ({"parts": [{"body": "x"}], "topic": "x"}, ["topic: Extra inputs are not permitted"]),
        (
            {"parts": [{"body": "x"}], "metadata": {"url": "not a url", "attributes": {"plan": 3}}},
            [
                "metadata.url: must be an absolute http(s) URL",
                "metadata.attributes.plan: Input should be a valid string",
            ],
        ),
        ({"parts": [{"body": "x"}], "metadata": {"createdAt": "yesterday"}}, None),
        (["not", "an", "object"], ["conversation: must be an object, not a list"]),
    ],
)
def test_check_conversation_names_the_field_and_the_problem(item: Any, problems: list[str] | None) -> None:
    found = check_conversation(item)
    if problems is None:
        assert len(found) == 1 and found[0].startswith("metadata.createdAt: ")
    else:
        assert found == problems


def test_read_conversations(tmp_path: Path) -> None:
    one = tmp_path / "one.json"
    one.write_text(json.dumps(GOOD))
    assert read_conversations(one) == [GOOD]
    many = tmp_path / "many.json"
    many.write_text(json.dumps([GOOD, 3]))
    assert read_conversations(str(many)) == [GOOD, 3]
    cases = {
        tmp_path / "missing.json": "no such file",
        tmp_path: "is a folder, not a file",
    }
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    cases[broken] = "is not JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))"
    number = tmp_path / "number.json"
    number.write_text("42")
    cases[number] = "holds a number: expected a conversation object or a list of them"
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    cases[binary] = "is not UTF-8 text"
    for path, problem in cases.items():
        with pytest.raises(UnreadableFile) as caught:
            read_conversations(path)
        assert caught.value.problem == problem and caught.value.describe() == f"{path}: {problem}"


def test_report_summary() -> None:
    assert IngestReport().summary() == "The file holds no conversation: nothing was sent."
    assert not IngestReport().all_sent
    assert IngestReport([IngestOutcome(1, "a", True)]).summary() == "The conversation was sent."
    both = IngestReport([IngestOutcome(1, "a", True), IngestOutcome(2, "b", True)])
    assert both.all_sent and both.summary() == "All 2 conversations sent."
    mixed = IngestReport([IngestOutcome(1, "a", True), IngestOutcome(2, "b", False, "why")])
    assert (mixed.sent, mixed.refused, mixed.all_sent) == (1, 1, False)
    assert mixed.summary() == "1 of 2 conversations sent, 1 refused."


# --- clusters -------------------------------------------------------------------------------------------------


async def test_clusters_sorted_by_update_impact_and_pulse(service: ConversationsService, state: SandboxState) -> None:
    org = state.demo_org
    by_update = await pages(service.cluster_pages(org))
    assert [c.updated_at for c in by_update] == sorted((c.updated_at for c in by_update), reverse=True)  # type: ignore[type-var]
    by_impact = await pages(service.cluster_pages(org, sort="impact"))
    ranks = [IMPACTS.index(c.impact) for c in by_impact if c.impact]
    assert ranks == sorted(ranks, reverse=True) and ranks[0] == 2
    by_pulse = await pages(service.cluster_pages(org, sort="pulse"))
    recent = [sum(c.pulse[-4:]) for c in by_pulse]
    assert recent == sorted(recent, reverse=True)
    assert {c.id for c in by_pulse} == {c.id for c in by_update} == {c.id for c in by_impact}


async def test_hiding_muted_clusters(service: ConversationsService, state: SandboxState) -> None:
    shown = await pages(service.cluster_pages(state.demo_org, hide_muted=True))
    every = await pages(service.cluster_pages(state.demo_org))
    muted = {c.id for c in every if c.muted}
    assert muted and {c.id for c in shown} == {c.id for c in every} - muted
    pulse_shown = await pages(service.cluster_pages(state.demo_org, sort="pulse", hide_muted=True))
    assert {c.id for c in pulse_shown} == {c.id for c in shown}


async def test_mute_and_unmute(service: ConversationsService, state: SandboxState) -> None:
    cid = cluster_id(state, "Login loops after SSO redirect")
    muted = await service.set_muted(state.demo_org, cid, True)
    assert muted.muted and state.clusters[cid]["muted"] is True
    unmuted = await service.set_muted(state.demo_org, cid, False)
    assert not unmuted.muted and state.clusters[cid]["muted"] is False


async def test_cluster_view_has_issues_with_conversations_and_linked_change_requests(
    service: ConversationsService, state: SandboxState
) -> None:
    cid = cluster_id(state, "Login loops after SSO redirect")
    linked = link_change_request(state, cid, status="merged")
    view = await service.cluster_view(state.demo_org, cid)
    assert view.cluster.id == cid
    assert isinstance(view.issues, list) and len(view.issues) == 3
    assert all(i.issue.cluster == cid and i.conversation is not None for i in view.issues)
    assert isinstance(view.change_requests, list)
    assert [cr.id for cr in view.change_requests] == [linked["id"]]  # a merged one too


async def test_linked_change_requests_leave_out_other_clusters(
    service: ConversationsService, state: SandboxState
) -> None:
    """A service that ignored the filter would list change requests naming another cluster: they are left out."""
    cid = cluster_id(state, "PDF export drops images")
    link_change_request(state, "some-other-cluster")
    assert await service.linked_change_requests(state.demo_org, cid) == []


# --- conversations --------------------------------------------------------------------------------------------


async def test_conversations_by_source(service: ConversationsService, state: SandboxState) -> None:
    every = await pages(service.conversation_pages(state.demo_org))
    assert len(every) == 13
    slack = await pages(service.conversation_pages(state.demo_org, source="slack"))
    assert slack and {c.source for c in slack} == {"slack"}
    assert len(slack) == sum(1 for c in every if c.source == "slack")


async def test_conversation_view(service: ConversationsService, state: SandboxState) -> None:
    conversation = next(c for c in state.conversations.values() if c["subject"] == "Stuck in a login loop")
    view = await service.conversation_view(state.demo_org, conversation["id"])
    assert view.detail.conversation.subject == "Stuck in a login loop"
    assert [p.role for p in view.detail.parts] == ["user", "assistant"]
    assert view.detail.metadata is not None and view.detail.metadata.attributes["source"] == "intercom"
    assert isinstance(view.issues, list) and len(view.issues) == 1
    cluster = view.issues[0].issue.cluster
    assert cluster is not None and view.cluster_labels[cluster] == "Login loops after SSO redirect"


async def test_ingest_sends_the_good_items_and_says_why_of_the_bad(
    service: ConversationsService, state: SandboxState
) -> None:
    before = len(state.conversations)
    items = [
        GOOD,
        {"subject": "No parts at all"},
        {"id": "t-7", "parts": [{"role": "user", "body": "Search is slow"}], "metadata": {"url": "https://x.test/7"}},
    ]
    report = await service.ingest(state.demo_org, items)
    assert [(o.position, o.label, o.sent) for o in report.outcomes] == [
        (1, "Cannot log in", True),
        (2, "No parts at all", False),
        (3, "t-7", True),
    ]
    assert report.outcomes[1].why == "parts: Field required"
    assert len(state.conversations) == before + 2
    subjects = {c.get("subject") for c in state.conversations.values()}
    assert "Cannot log in" in subjects and "No parts at all" not in subjects


async def test_ingest_reports_what_the_service_refused(service: ConversationsService, state: SandboxState) -> None:
    """The service's own refusal (here a role it does not allow) is one item's outcome; the next still goes."""
    member = state.members[state.demo_org][state.default_user]
    role = member["role"]
    member["role"] = "read"
    refused = await service.ingest(state.demo_org, [GOOD])
    member["role"] = role
    assert not refused.outcomes[0].sent and "(403)" in refused.outcomes[0].why
    assert (await service.ingest(state.demo_org, [GOOD])).all_sent


async def test_ingest_file(service: ConversationsService, state: SandboxState, tmp_path: Path) -> None:
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([GOOD, 5]))
    report = await service.ingest_file(state.demo_org, path)
    assert [o.sent for o in report.outcomes] == [True, False]
    assert report.outcomes[1].why == "conversation: must be an object, not a number"
    with pytest.raises(UnreadableFile):
        await service.ingest_file(state.demo_org, tmp_path / "nope.json")


# --- a lost answer is looked for before the conversation is sent again -----------------------------------------


class LosesAnswers(httpx.AsyncBaseTransport):
    """The sandbox, except that the first ``lose`` ingests are cut: ``arrive`` says whether each reached the
    sandbox before its answer was lost (True: done, answer lost; False: cut before it arrived)."""

    def __init__(self, inner: httpx.AsyncBaseTransport, *, lose: int, arrive: bool) -> None:
        self.inner = inner
        self.lose = lose
        self.arrive = arrive
        self.posts = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and CONVERSATION_ROUTES.match(request.url.path):
            self.posts += 1
            if self.lose > 0:
                self.lose -= 1
                if self.arrive:
                    await self.inner.handle_async_request(request)
                raise httpx.ReadError("connection reset by peer", request=request)
        return await self.inner.handle_async_request(request)


def losing(state: SandboxState, *, lose: int, arrive: bool) -> tuple[GitBookClient, LosesAnswers]:
    transport = LosesAnswers(SandboxTransport(create_app(state)), lose=lose, arrive=arrive)
    client = GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=transport, retry=RetryPolicy(sleep=_no_sleep)
    )
    return client, transport


def subjects_in(state: SandboxState) -> list[str]:
    return sorted(c.get("subject") or "" for c in state.conversations.values() if c["organization"] == state.demo_org)


TWIN = {"subject": "Cannot log in", "parts": [{"role": "user", "body": "Same subject, another user."}]}
WITH_ID = {"id": "t-9", "subject": "Export is slow", "parts": [{"body": "The export takes minutes."}]}


async def test_a_lost_answer_that_arrived_is_found_and_not_sent_again(state: SandboxState) -> None:
    before = subjects_in(state)
    client, transport = losing(state, lose=10, arrive=True)  # every answer lost, every ingest done
    async with client:
        report = await ConversationsService(client).ingest(state.demo_org, [GOOD, TWIN, WITH_ID])
    assert [(o.sent, o.why) for o in report.outcomes] == [(True, LOST_BUT_ARRIVED)] * 3
    assert transport.posts == 3  # each sent once: looked for, found
    assert subjects_in(state) == sorted([*before, "Cannot log in", "Cannot log in", "Export is slow"])


async def test_a_lost_answer_without_a_subject_is_found_by_count(state: SandboxState) -> None:
    before = len(state.conversations)
    client, transport = losing(state, lose=10, arrive=True)
    plain = {"parts": [{"body": "No subject here."}]}
    async with client:
        report = await ConversationsService(client).ingest(state.demo_org, [GOOD, plain, plain])
    assert [(o.sent, o.why) for o in report.outcomes] == [(True, LOST_BUT_ARRIVED)] * 3
    assert transport.posts == 3 and len(state.conversations) == before + 3


async def test_a_lost_answer_that_did_not_arrive_is_sent_again_once(state: SandboxState) -> None:
    before = subjects_in(state)
    client, transport = losing(state, lose=1, arrive=False)  # the first ingest is cut before it arrives
    async with client:
        report = await ConversationsService(client).ingest(state.demo_org, [GOOD, TWIN])
    assert [(o.sent, o.why) for o in report.outcomes] == [(True, ""), (True, "")]
    assert transport.posts == 3  # the first looked for, not there, sent again
    assert subjects_in(state) == sorted([*before, "Cannot log in", "Cannot log in"])


async def test_an_ingest_that_never_arrives_stops_after_its_tries(state: SandboxState) -> None:
    before = subjects_in(state)
    client, transport = losing(state, lose=10, arrive=False)
    async with client:
        report = await ConversationsService(client).ingest(state.demo_org, [GOOD])
    [outcome] = report.outcomes
    assert not outcome.sent and f"after each of {SEND_ATTEMPTS} tries: it did not arrive" in outcome.why
    assert transport.posts == SEND_ATTEMPTS and subjects_in(state) == before


# --- a service without conversations -------------------------------------------------------------------------


async def test_a_service_without_conversations_says_so(bare: ConversationsService, state: SandboxState) -> None:
    with pytest.raises(NotOfferedHere) as caught:
        await pages(bare.cluster_pages(state.demo_org))
    assert caught.value.describe() == NOT_OFFERED == "This service does not offer conversations."
    with pytest.raises(NotOfferedHere):
        await pages(bare.conversation_pages(state.demo_org, source="slack"))
    with pytest.raises(NotOfferedHere):
        await bare.cluster_view(state.demo_org, "any-cluster")
    with pytest.raises(NotOfferedHere):
        await bare.set_muted(state.demo_org, "any-cluster", True)
    with pytest.raises(NotOfferedHere):
        await bare.conversation_view(state.demo_org, "any-conversation")
    report = await bare.ingest(state.demo_org, [GOOD, GOOD])
    assert [(o.sent, o.why) for o in report.outcomes] == [(False, NOT_OFFERED)] * 2


async def test_the_fake_service_answers_everything_else(state: SandboxState) -> None:
    client, transport = client_without_conversations(state)
    async with client:
        org = await client.organizations.get(state.demo_org)
        assert org.id == state.demo_org
        with pytest.raises(NotOfferedHere):
            await ConversationsService(client).cluster(state.demo_org, "x")
    assert transport.refused and all("/conversations" in r for r in transport.refused)
