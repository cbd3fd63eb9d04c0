"""Conversations and the issues clusters derived from them (spec 2.10, 4.11), as the clusters, cluster,
conversations and conversation screens and ``folio conversations ingest`` use them.

    sparkline(cluster.pulse)            ``▁▂▅█▃…``: 13 weeks in 13 block characters, scaled from 0 to the top week
    trend(cluster.pulse)                ``up 40 % over 4 weeks``: the last 4 weeks against the 4 before
    await service.cluster_view(org, id) the cluster, its issues (with their conversations), its change requests
    await service.ingest(org, items)    each item checked against the API's shape, then sent; one outcome each

The operations are absent from the service's current public description, so a service may not offer them: every
call here turns the client's ``NotOffered`` into :class:`NotOfferedHere`, which the screens test for (they never
import the API layer) and say in one plain sentence, :data:`NOT_OFFERED`.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from folio.api.errors import ApiError, NotOffered
from folio.api.limits import LIST_LIMIT_MAX
from folio.models.conversation import IssuesCluster
from folio.services.errors import Refusal
from folio.services.insights.conversation_files import (
    CONFIRM_ABOVE,
    IngestItem,
    IngestOutcome,
    IngestReport,
    UnreadableFile,
    check_conversation,
    check_path,
    count_words,
    label_of,
    needs_confirming,
    read_conversations,
)
from folio.services.writes import may_have_reached

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.change_request import ChangeRequest
    from folio.models.conversation import Conversation, ConversationDetail, IssueWithConversation

__all__ = [
    "CLUSTER_SORTS",
    "CONFIRM_ABOVE",
    "LOST_BUT_ARRIVED",
    "NOT_OFFERED",
    "SEND_ATTEMPTS",
    "ClusterSort",
    "ClusterView",
    "ConversationView",
    "ConversationsService",
    "IngestItem",
    "IngestOutcome",
    "IngestReport",
    "NotOfferedHere",
    "UnreadableFile",
    "check_conversation",
    "check_path",
    "count_words",
    "describe_sources",
    "needs_confirming",
    "next_sort",
    "next_source",
    "read_conversations",
    "sort_label",
    "sparkline",
    "trend",
]

NOT_OFFERED = "This service does not offer conversations."
SEND_ATTEMPTS = 3
"""How many times an ingested conversation is sent when each answer is lost and each look finds it not there."""
LOST_BUT_ARRIVED = "the answer was lost; Folio checked: it arrived, once"
PAGE_SIZE = 100
TREND_WEEKS = 4
BLOCKS = "▁▂▃▄▅▆▇█"
CHANGE_REQUEST_STATUSES = ("draft", "open", "merged", "archived")
"""The linked change requests of every status: a merged one is part of a cluster's story too."""

ClusterSort = Literal["updated", "impact", "pulse"]
CLUSTER_SORTS: tuple[ClusterSort, ...] = ("updated", "impact", "pulse")
_SORT_LABELS = {"updated": "latest update first", "impact": "highest impact first", "pulse": "busiest 4 weeks first"}
_ORDER_BY = {"updated": "updatedAt", "impact": "impact"}


class NotOfferedHere(Refusal):
    """This service does not offer conversations (it answered that the operation does not exist)."""

    def __init__(self) -> None:
        super().__init__(NOT_OFFERED)

    def describe(self) -> str:
        return NOT_OFFERED


@contextmanager
def _offered() -> Iterator[None]:
    try:
        yield
    except NotOffered as exc:
        raise NotOfferedHere() from exc


# -- the weekly pulse, in characters and in words ---------------------------------------------------------------


def sparkline(values: Sequence[float]) -> str:
    """One block character a value, scaled from 0 (``▁``) to the largest value (``█``); negatives count as 0."""
    clean = [max(0.0, float(v)) for v in values]
    top = max(clean, default=0.0)
    if top <= 0:
        return BLOCKS[0] * len(clean)
    last = len(BLOCKS) - 1
    return "".join(BLOCKS[round(v / top * last)] for v in clean)


def trend(values: Sequence[float], weeks: int = TREND_WEEKS) -> str:
    """The last ``weeks`` weeks against the ``weeks`` before them, in words: ``up 40 % over 4 weeks``,
    ``down 25 % over 4 weeks``, ``steady over 4 weeks`` (a change under 5 %), ``new in the last 4 weeks``, ``quiet for
    8 weeks``."""
    recent = sum(max(0.0, float(v)) for v in values[-weeks:]) if weeks else 0.0
    before = sum(max(0.0, float(v)) for v in values[-2 * weeks : -weeks]) if weeks else 0.0
    span = f"{weeks} week{'s' if weeks != 1 else ''}"
    if before == 0:
        return f"new in the last {span}" if recent > 0 else f"quiet for {2 * weeks} weeks"
    change = round((recent - before) / before * 100)
    if abs(change) < 5:
        return f"steady over {span}"
    return f"{'up' if change > 0 else 'down'} {abs(change)} % over {span}"


def _busy(cluster: IssuesCluster) -> tuple[float, float]:
    pulse = cluster.pulse
    return sum(pulse[-TREND_WEEKS:]), sum(pulse)


def next_sort(current: ClusterSort) -> ClusterSort:
    return CLUSTER_SORTS[(CLUSTER_SORTS.index(current) + 1) % len(CLUSTER_SORTS)]


def sort_label(sort: ClusterSort) -> str:
    return _SORT_LABELS[sort]


def describe_sources(sources: Mapping[str, float]) -> str:
    """``intercom 2, zendesk 1``: where a cluster's issues came from, the most frequent first."""
    ordered = sorted(sources.items(), key=lambda item: (-item[1], item[0]))
    return ", ".join(
        f"{name} {number:,.0f}" if float(number).is_integer() else f"{name} {number}" for name, number in ordered
    )


def next_source(current: str | None, known: Sequence[str]) -> str | None:
    """The source filter after ``current``: every source in turn (sorted), then all again (None)."""
    ordered = sorted(set(known))
    if not ordered:
        return None
    if current not in ordered:
        return ordered[0]
    index = ordered.index(current) + 1
    return ordered[index] if index < len(ordered) else None


# -- what a screen loads ------------------------------------------------------------------------------------------


@dataclass
class ClusterView:
    """A cluster with its issues and the change requests linked to it; a part that could not be read holds the
    error instead (the others still show)."""

    cluster: IssuesCluster
    issues: list[IssueWithConversation] | Exception
    change_requests: list[ChangeRequest] | Exception
    space_titles: dict[str, str] = field(default_factory=dict)
    """The titles of the linked change requests' spaces (a space not found shows its id)."""


@dataclass
class ConversationView:
    """A conversation with its parts and metadata, its issues and the labels of their clusters."""

    detail: ConversationDetail
    issues: list[IssueWithConversation] | Exception
    cluster_labels: dict[str, str] = field(default_factory=dict)


# -- the service ---------------------------------------------------------------------------------------------------


class ConversationsService:
    """Issues clusters, conversations and their issues of an organization, and ingesting conversations."""

    def __init__(self, client: GitBookClient) -> None:
        self._client = client

    async def cluster_pages(
        self, org_id: str, *, sort: ClusterSort = "updated", hide_muted: bool = False, limit: int = PAGE_SIZE
    ) -> AsyncIterator[list[IssuesCluster]]:
        """The clusters a page at a time, sorted by the service (``updated``, ``impact``: its ``orderBy``) or,
        for ``pulse`` (which it cannot sort by), all read and sorted here by the last 4 weeks' pulse."""
        with _offered():
            if sort == "pulse":
                every = await self._client.conversations.clusters(org_id, limit=LIST_LIMIT_MAX).collect()
                every.sort(key=_busy, reverse=True)
                yield [c for c in every if not (hide_muted and c.muted)]
                return
            paginator = self._client.conversations.clusters(org_id, order="desc", order_by=_ORDER_BY[sort], limit=limit)
            async for envelope in paginator.pages():
                yield [c for c in envelope.items if not (hide_muted and c.muted)]

    async def cluster(self, org_id: str, cluster_id: str) -> IssuesCluster:
        with _offered():
            return await self._client.conversations.cluster(org_id, cluster_id)

    async def set_muted(self, org_id: str, cluster_id: str, muted: bool) -> IssuesCluster:
        """Mute (True) or unmute a cluster: a muted cluster prompts no change requests. Returns it as it is now."""
        with _offered():
            return await self._client.conversations.update_cluster(org_id, cluster_id, muted=muted)

    async def issues(
        self, org_id: str, *, cluster: str | None = None, conversation: str | None = None
    ) -> list[IssueWithConversation]:
        with _offered():
            paginator = self._client.conversations.issues(
                org_id, cluster=cluster, conversation=conversation, limit=LIST_LIMIT_MAX
            )
            return await paginator.collect()

    async def linked_change_requests(self, org_id: str, cluster_id: str) -> list[ChangeRequest]:
        """The change requests of every status linked to the cluster (the list's ``conversationsIssuesCluster``
        filter). One that names another cluster is left out: a service that ignores the filter lists them all."""
        paginator = self._client.change_requests.list_for_organization(
            org_id, cluster=cluster_id, status=list(CHANGE_REQUEST_STATUSES), limit=LIST_LIMIT_MAX
        )
        found = await paginator.collect()
        return [cr for cr in found if cr.conversations_issues_cluster in (None, cluster_id)]

    async def cluster_view(self, org_id: str, cluster_id: str) -> ClusterView:
        cluster = await self.cluster(org_id, cluster_id)
        issues, linked = await asyncio.gather(
            self.issues(org_id, cluster=cluster_id),
            self.linked_change_requests(org_id, cluster_id),
            return_exceptions=True,
        )
        view = ClusterView(cluster, _or_error(issues), _or_error(linked))
        if isinstance(view.change_requests, list) and view.change_requests:
            try:
                spaces = await self._client.spaces.summaries(org_id, limit=LIST_LIMIT_MAX).collect()
            except ApiError:
                return view  # the change requests still show, with their space's id
            view.space_titles = {space.id: space.title for space in spaces if space.title}
        return view

    async def conversation_pages(
        self, org_id: str, *, source: str | None = None, limit: int = PAGE_SIZE
    ) -> AsyncIterator[list[Conversation]]:
        """The conversations, newest first, a page at a time; ``source`` keeps one source's."""
        with _offered():
            async for envelope in self._client.conversations.list(org_id, source=source, limit=limit).pages():
                yield list(envelope.items)

    async def conversation_view(self, org_id: str, conversation_id: str) -> ConversationView:
        with _offered():
            detail = await self._client.conversations.get(org_id, conversation_id)
        issues: list[IssueWithConversation] | Exception
        try:
            issues = await self.issues(org_id, conversation=conversation_id)
        except Exception as exc:  # the conversation still shows; its issues say what failed
            issues = exc
        labels: dict[str, str] = {}
        if isinstance(issues, list) and any(i.issue.cluster for i in issues):
            try:
                async for page in self.cluster_pages(org_id, limit=LIST_LIMIT_MAX):
                    labels.update((c.id, c.label) for c in page)
            except (ApiError, NotOfferedHere):
                pass  # the issues still show, with their cluster's id
        return ConversationView(detail, issues, labels)

    async def ingest_each(self, org_id: str, items: Sequence[Any]) -> AsyncIterator[IngestOutcome]:
        """Check each item, send the good ones one by one, and say what became of each as it is known: a bad
        item or a refusal does not stop the others.

        A conversation whose answer was lost is looked for before it is sent again: the conversations listed
        before the first send are known; one with the item's subject listed now that was not (or was processed
        again since), beyond those of the items already sent with that subject, is the one that arrived. Only
        when none is found is it sent again (at most :data:`SEND_ATTEMPTS` times in all)."""
        look = _Look(self, org_id)
        for position, item in enumerate(items, 1):
            label = label_of(position, item)
            problems = check_conversation(item)
            if problems:
                yield IngestOutcome(position, label, False, "; ".join(problems))
                continue
            await look.prepare()
            outcome = await self._send_one(org_id, position, label, item, look)
            if outcome.sent:
                look.sent(item)
            yield outcome

    async def _send_one(
        self, org_id: str, position: int, label: str, item: Mapping[str, Any], look: _Look
    ) -> IngestOutcome:
        for attempt in range(1, SEND_ATTEMPTS + 1):
            try:
                await self._client.conversations.ingest(
                    org_id,
                    parts=item["parts"],
                    **{key: item[key] for key in ("subject", "id", "metadata") if item.get(key) is not None},
                )
            except NotOffered:
                return IngestOutcome(position, label, False, NOT_OFFERED)
            except ApiError as exc:
                why = exc.describe()
                if not may_have_reached(exc):
                    return IngestOutcome(position, label, False, why)
                try:
                    arrived = await look.arrived(item)
                except (ApiError, NotOfferedHere) as failed:
                    reason = failed.describe()
                    return IngestOutcome(
                        position,
                        label,
                        False,
                        f"{why}; it may have arrived and Folio could not check ({reason}): "
                        "look before sending it again",
                    )
                if arrived is None:
                    return IngestOutcome(
                        position,
                        label,
                        False,
                        f"{why}; it may have arrived and Folio cannot check: look before sending it again",
                    )
                if arrived:
                    return IngestOutcome(position, label, True, LOST_BUT_ARRIVED)
                if attempt == SEND_ATTEMPTS:
                    return IngestOutcome(
                        position,
                        label,
                        False,
                        f"{why}; Folio checked after each of {SEND_ATTEMPTS} tries: it did not arrive",
                    )
                continue  # looked for and not there: sending it again makes it once
            return IngestOutcome(position, label, True)
        raise AssertionError("unreachable: every attempt returns")

    async def ingest(self, org_id: str, items: Sequence[Any]) -> IngestReport:
        return IngestReport([outcome async for outcome in self.ingest_each(org_id, items)])

    async def ingest_file(self, org_id: str, path: str | Path) -> IngestReport:
        """Read, check and send a conversations file (raises :class:`UnreadableFile` before sending anything)."""
        return await self.ingest(org_id, read_conversations(str(path).strip() if isinstance(path, str) else path))


class _Look:
    """What an ingest knows to tell a conversation it sent from one that was there before: the conversations
    listed before its first send, each with when it was processed (None: they could not be read, so a lost
    answer cannot be checked), and how many of its items of each subject it knows arrived. One that arrived is
    listed now and was not before, or was processed again (an item with the ``id`` of one there before)."""

    def __init__(self, service: ConversationsService, org_id: str) -> None:
        self.service = service
        self.org_id = org_id
        self.before: dict[str, object] | None = None
        self.ready = False
        self.arrived_by_subject: Counter[str] = Counter()

    async def _listed(self) -> list[Conversation]:
        with _offered():
            return await self.service._client.conversations.list(self.org_id, limit=LIST_LIMIT_MAX).collect()

    async def prepare(self) -> None:
        """Read the ids listed now, once, before the first send."""
        if self.ready:
            return
        self.ready = True
        try:
            self.before = {c.id: c.processed_at for c in await self._listed()}
        except (ApiError, NotOfferedHere):
            self.before = None  # sending still goes; a lost answer then says it cannot be checked

    def sent(self, item: Mapping[str, Any]) -> None:
        self.arrived_by_subject[_subject(item)] += 1

    async def arrived(self, item: Mapping[str, Any]) -> bool | None:
        """Whether the item whose answer was lost is listed now (None: there is nothing to compare with). An item
        without a subject is matched by count alone (a service may give it a subject of its own): any new
        conversation beyond those of this run's items known to have arrived."""
        if self.before is None:
            return None
        subject = _subject(item)
        before = self.before
        new = [c for c in await self._listed() if c.id not in before or before[c.id] != c.processed_at]
        if not subject:
            return len(new) > sum(self.arrived_by_subject.values())
        return sum(1 for c in new if c.subject == subject) > self.arrived_by_subject[subject]


def _subject(item: Mapping[str, Any]) -> str:
    value = item.get("subject")
    return value if isinstance(value, str) else ""


def _or_error(value: Any) -> Any:
    """A result of ``gather(..., return_exceptions=True)``: an error is kept in its place, a cancellation raised."""
    if isinstance(value, BaseException) and not isinstance(value, Exception):
        raise value
    return value
