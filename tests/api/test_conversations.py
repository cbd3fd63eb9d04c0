"""Conversations through the real client against the sandbox: issues clusters (ordering, muting),
conversations (listing, ingesting, reading), conversation issues, and telling a service without these
operations (``NotOffered``) from an id that is simply unknown (``NotFound``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from folio.api import GitBookClient, RetryPolicy, Token
from folio.api.errors import BadRequest, Forbidden, InvalidRequest, NotFound, NotOffered
from folio.models.conversation import (
    IMPACTS,
    Conversation,
    ConversationDetail,
    IssuesCluster,
    IssueWithConversation,
)
from folio.sandbox import SandboxState, SandboxTransport, create_app
from tests.conftest import SANDBOX_URL, TOKEN


def clusters_of(state: SandboxState) -> dict[str, dict[str, Any]]:
    return {c["label"]: c for c in state.clusters.values() if c["organization"] == state.demo_org}


def other_org(state: SandboxState) -> str:
    return next(o for o in state.orgs if o != state.demo_org and state.default_user in state.members[o])


@pytest.fixture
async def bare_client(state: SandboxState) -> AsyncIterator[GitBookClient]:
    """A client of a sandbox without the operations the public description lacks."""
    app = create_app(state, offer_optional=False)

    async def no_sleep(seconds: float) -> None:
        return None

    async with GitBookClient(token=Token(TOKEN), base_url=SANDBOX_URL, transport=SandboxTransport(app),
                             retry=RetryPolicy(sleep=no_sleep)) as c:  # fmt: skip
        yield c


# --- clusters -----------------------------------------------------------------------------------------------


async def test_clusters_are_listed_by_last_update_with_their_counts(client: GitBookClient, state: SandboxState) -> None:
    listed = await client.conversations.clusters(state.demo_org).collect()
    assert len(listed) == len(clusters_of(state)) == 7
    assert all(isinstance(c, IssuesCluster) and c.object == "issues-cluster" for c in listed)
    stamps = [c.updated_at for c in listed]
    assert stamps == sorted(stamps, reverse=True)  # type: ignore[type-var]
    for cluster in listed:
        assert len(cluster.weekly_pulse) == 13 and cluster.pulse == tuple(cluster.weekly_pulse)
        assert cluster.impact in IMPACTS
        assert cluster.icon and len(cluster.icon) <= 50
        assert cluster.summary is not None and cluster.summary.plain_text()
    login = next(c for c in listed if c.label == "Login loops after SSO redirect")
    issues = [i for i in state.conversation_issues.values() if i["cluster"] == login.id]
    assert login.stats is not None and login.stats.issues == len(issues) == 3
    assert login.stats.conversations == 3
    assert sum(login.sources.values()) == 3
    assert set(login.sources) <= {"intercom", "zendesk", "docs-assistant"}


async def test_clusters_order_by_impact_ascending(client: GitBookClient, state: SandboxState) -> None:
    listed = await client.conversations.clusters(state.demo_org, order="asc", order_by="impact").collect()
    ranks = [IMPACTS.index(c.impact) for c in listed if c.impact]
    assert ranks == sorted(ranks) and ranks[0] == 0 and ranks[-1] == 2
    by_issues = await client.conversations.clusters(state.demo_org, order_by="issues", limit=2).fetch()
    assert by_issues.items[0].stats is not None and by_issues.items[1].stats is not None
    assert by_issues.items[0].stats.issues >= by_issues.items[1].stats.issues
    assert by_issues.next_page is not None


async def test_cluster_order_is_checked(client: GitBookClient, state: SandboxState) -> None:
    with pytest.raises(InvalidRequest) as caught:
        client.conversations.clusters(state.demo_org, order="up")  # type: ignore[arg-type]
    assert caught.value.field == "order"
    with pytest.raises(BadRequest) as refused:
        await client.conversations.clusters(state.demo_org, order_by="colour").collect()
    assert "orderBy" in refused.value.message


async def test_get_cluster_and_toggle_muted(client: GitBookClient, state: SandboxState) -> None:
    record = clusters_of(state)["Search misses recently published pages"]
    cluster = await client.conversations.cluster(state.demo_org, record["id"])
    assert cluster.id == record["id"] and cluster.muted is False
    muted = await client.conversations.update_cluster(state.demo_org, record["id"], muted=True)
    assert muted.muted is True and record["muted"] is True
    unmuted = await client.conversations.update_cluster(state.demo_org, record["id"], muted=False)
    assert unmuted.muted is False and record["muted"] is False


async def test_muting_needs_edit_rights_and_a_boolean(client: GitBookClient, state: SandboxState) -> None:
    record = clusters_of(state)["PDF export drops images"]
    with pytest.raises(InvalidRequest):
        await client.conversations.update_cluster(state.demo_org, record["id"], muted="yes")  # type: ignore[arg-type]
    url = f"/orgs/{state.demo_org}/conversations-clusters/{record['id']}"
    with pytest.raises(BadRequest) as caught:
        await client.request_json("PATCH", url, json={"muted": "yes"})
    assert "muted must be a boolean" in caught.value.message
    with pytest.raises(BadRequest):
        await client.request_json("PATCH", url, json={})
    state.members[state.demo_org][state.default_user]["role"] = "read"
    with pytest.raises(Forbidden):
        await client.conversations.update_cluster(state.demo_org, record["id"], muted=True)
    assert record["muted"] is False


# --- conversations and ingest -------------------------------------------------------------------------------


async def test_conversations_list_and_filter_by_source(client: GitBookClient, state: SandboxState) -> None:
    every = await client.conversations.list(state.demo_org).collect()
    assert len(every) == 13 and all(isinstance(c, Conversation) for c in every)
    slack = await client.conversations.list(state.demo_org, source="slack").collect()
    assert slack and {c.source for c in slack} == {"slack"}
    assert slack[0].urls is not None and slack[0].urls.source and slack[0].urls.source.startswith("https://slack.")


async def test_ingest_files_an_issue_in_the_matching_cluster(client: GitBookClient, state: SandboxState) -> None:
    login = clusters_of(state)["Login loops after SSO redirect"]
    pulse_before = list(login["weeklyPulse"])
    conversations_before = len(state.conversations)
    await client.conversations.ingest(
        state.demo_org,
        id="chat-42",
        subject="Redirect loop on login",
        metadata={"url": "https://chat.example.com/42", "attributes": {"source": "chat"},
                  "createdAt": "2026-10-31T08:00:00Z"},
        parts=[{"role": "user", "body": "Every login sends me through the redirect loop again."},
               {"role": "assistant", "body": "Sorry about that."}],
    )  # fmt: skip
    assert len(state.conversations) == conversations_before + 1
    conv = next(c for c in state.conversations.values() if c.get("externalId") == "chat-42")
    issue = next(i for i in state.conversation_issues.values() if i["conversation"] == conv["id"])
    assert issue["cluster"] == login["id"] and issue["title"] == "Redirect loop on login"
    assert login["weeklyPulse"] == [*pulse_before[:-1], pulse_before[-1] + 1]
    cluster = await client.conversations.cluster(state.demo_org, login["id"])
    assert cluster.sources.get("chat") == 1 and cluster.stats is not None and cluster.stats.issues == 4
    # The same conversation again replaces it: no second conversation, no second issue.
    await client.conversations.ingest(
        state.demo_org,
        id="chat-42",
        subject="Redirect loop on login (edited)",
        parts=[{"body": "Still looping after the redirect."}],
    )
    assert len(state.conversations) == conversations_before + 1
    assert sum(1 for i in state.conversation_issues.values() if i["conversation"] == conv["id"]) == 1
    assert conv["subject"] == "Redirect loop on login (edited)"


async def test_ingest_with_nothing_in_common_opens_a_new_cluster(client: GitBookClient, state: SandboxState) -> None:
    before = set(state.clusters)
    await client.conversations.ingest(
        state.demo_org,
        subject="Kangaroo mascot request",
        parts=[{"role": "user", "body": "Please add a kangaroo mascot."}],
    )
    new = set(state.clusters) - before
    assert len(new) == 1
    cluster = state.clusters[new.pop()]
    assert cluster["label"] == "Kangaroo mascot request" and cluster["weeklyPulse"] == [0] * 12 + [1]
    assert cluster["impact"] == "low"


async def test_ingest_answers_204(client: GitBookClient, state: SandboxState) -> None:
    response = await client.request(
        "POST",
        f"/orgs/{state.demo_org}/conversations",
        json={"parts": [{"type": "message", "role": "user", "body": "Search is slow"}]},
    )
    assert response.status_code == 204 and response.content == b""


async def test_ingest_is_checked_before_sending(client: GitBookClient, state: SandboxState) -> None:
    before = len(state.conversations)
    with pytest.raises(InvalidRequest) as caught:
        await client.conversations.ingest(state.demo_org, parts=[])
    assert caught.value.field == "parts"
    with pytest.raises(InvalidRequest) as caught:
        await client.conversations.ingest(state.demo_org, parts=[{"body": "x"}], metadata={"url": "nowhere"})
    assert caught.value.field == "metadata.url"
    assert len(state.conversations) == before


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"subject": "Hi"}, "parts is required"),
        ({"parts": []}, "parts must be a non-empty array"),
        ({"parts": ["hello"]}, "parts[0] must be an object"),
        ({"parts": [{"role": "user"}]}, "parts[0].body"),
        ({"parts": [{"role": 3, "body": "x"}]}, "parts[0].role"),
        ({"parts": [{"body": "x"}], "subject": 5}, "subject"),
        ({"parts": [{"body": "x"}], "metadata": {"url": "relative"}}, "metadata.url"),
        ({"parts": [{"body": "x"}], "metadata": {"attributes": {"a": 1}}}, "metadata.attributes"),
        ({"parts": [{"body": "x"}], "metadata": {"createdAt": "yesterday"}}, "metadata.createdAt"),
    ],
)
async def test_invalid_ingest_bodies_are_refused(
    client: GitBookClient, state: SandboxState, body: dict[str, Any], words: str
) -> None:
    before = len(state.conversations)
    with pytest.raises(BadRequest) as caught:
        await client.request_json("POST", f"/orgs/{state.demo_org}/conversations", json=body)
    assert words in caught.value.message
    assert len(state.conversations) == before


async def test_get_conversation_detail(client: GitBookClient, state: SandboxState) -> None:
    conv = next(c for c in state.conversations.values() if c.get("externalId") == "slack-1007")
    detail = await client.conversations.get(state.demo_org, conv["id"])
    assert isinstance(detail, ConversationDetail)
    assert detail.conversation.id == conv["id"] and detail.conversation.subject == "Webhook sent twice"
    assert detail.conversation.impact == "high"  # "data lost"
    assert [p.role for p in detail.parts] == ["user", "assistant"]
    assert "duplicate events" in detail.parts[0].text
    assert detail.metadata is not None and detail.metadata.attributes["source"] == "slack"
    assert detail.metadata.url == "https://slack.example.com/conversations/1007"
    with pytest.raises(NotFound) as caught:
        await client.conversations.get(state.demo_org, "nope")
    assert not isinstance(caught.value, NotOffered)


# --- issues -------------------------------------------------------------------------------------------------


async def test_issues_with_their_conversations_and_filters(client: GitBookClient, state: SandboxState) -> None:
    every = await client.conversations.issues(state.demo_org).collect()
    assert len(every) == 13 and all(isinstance(i, IssueWithConversation) for i in every)
    assert all(i.conversation is not None and i.conversation.id == i.issue.conversation for i in every)
    webhook = clusters_of(state)["Webhook retries deliver duplicate events"]
    in_cluster = await client.conversations.issues(state.demo_org, cluster=webhook["id"]).collect()
    assert len(in_cluster) == 2 and {i.issue.cluster for i in in_cluster} == {webhook["id"]}
    one = every[0].issue.conversation
    of_conversation = await client.conversations.issues(state.demo_org, conversation=one).collect()
    assert [i.issue.id for i in of_conversation] == [every[0].issue.id]


async def test_get_issue(client: GitBookClient, state: SandboxState) -> None:
    record = next(iter(state.conversation_issues.values()))
    entry = await client.conversations.issue(state.demo_org, record["id"])
    assert entry.issue.id == record["id"] and entry.issue.object == "conversation-issue"
    assert entry.issue.title == record["title"] and entry.issue.details is not None
    assert entry.issue.ingested_at is not None and entry.issue.impact in IMPACTS
    assert entry.conversation is not None and entry.conversation.id == record["conversation"]
    with pytest.raises(NotFound):
        await client.conversations.issue(state.demo_org, "nope")


async def test_other_organizations_records_are_not_found(client: GitBookClient, state: SandboxState) -> None:
    record = next(iter(state.clusters.values()))
    with pytest.raises(NotFound):
        await client.conversations.cluster(other_org(state), record["id"])


# --- not offered versus not found ---------------------------------------------------------------------------


async def test_a_service_without_conversations_raises_not_offered(
    bare_client: GitBookClient, state: SandboxState
) -> None:
    org = state.demo_org
    cluster = next(iter(state.clusters))
    with pytest.raises(NotOffered):
        await bare_client.conversations.clusters(org).collect()
    with pytest.raises(NotOffered):
        await bare_client.conversations.cluster(org, cluster)
    with pytest.raises(NotOffered):
        await bare_client.conversations.update_cluster(org, cluster, muted=True)
    with pytest.raises(NotOffered):
        await bare_client.conversations.list(org).collect()
    with pytest.raises(NotOffered):
        await bare_client.conversations.ingest(org, parts=[{"body": "hello"}])
    with pytest.raises(NotOffered):
        await bare_client.conversations.get(org, next(iter(state.conversations)))
    with pytest.raises(NotOffered):
        await bare_client.conversations.issues(org).collect()
    with pytest.raises(NotOffered):
        await bare_client.conversations.issue(org, next(iter(state.conversation_issues)))
    assert state.clusters[cluster]["muted"] is False


async def test_an_unknown_cluster_is_not_found_but_still_offered(client: GitBookClient, state: SandboxState) -> None:
    with pytest.raises(NotFound) as caught:
        await client.conversations.cluster(state.demo_org, "no-such-cluster")
    assert not isinstance(caught.value, NotOffered)
    with pytest.raises(NotFound) as caught:
        await client.conversations.update_cluster(state.demo_org, "no-such-cluster", muted=True)
    assert not isinstance(caught.value, NotOffered)
    # The miss did not mark the operation as missing: a known cluster still reads.
    known = next(iter(clusters_of(state).values()))
    assert (await client.conversations.cluster(state.demo_org, known["id"])).id == known["id"]


async def test_an_unknown_organization_is_not_found_not_not_offered(client: GitBookClient) -> None:
    with pytest.raises(NotFound) as caught:
        await client.conversations.clusters("no-such-org").collect()
    assert not isinstance(caught.value, NotOffered)
    with pytest.raises(NotFound) as caught:
        await client.conversations.cluster("no-such-org", "c")
    assert not isinstance(caught.value, NotOffered)
