"""Conversations and what is derived from them (spec section 2.10): issues clusters, conversations,
conversation issues, and the detail of one conversation.

These operations are absent from the current public description of the service: a service may not offer
them at all (the client then raises :class:`folio.api.errors.NotOffered`).
"""

from __future__ import annotations

from typing import Literal

from folio.models._base import Json, Model, OpenEnum, Timestamp
from folio.models.common import Document, Urls, document_text

__all__ = [
    "IMPACTS",
    "KNOWN_PART_ROLES",
    "KNOWN_PART_TYPES",
    "WEEKLY_PULSE_WEEKS",
    "ClusterStats",
    "Conversation",
    "ConversationDetail",
    "ConversationIssue",
    "ConversationMetadata",
    "ConversationPart",
    "ConversationUrls",
    "Impact",
    "IssueWithConversation",
    "IssuesCluster",
]

Impact = Literal["low", "medium", "high"]
IMPACTS: tuple[Impact, ...] = ("low", "medium", "high")

WEEKLY_PULSE_WEEKS = 13
"""``weeklyPulse`` holds one number per week over the past three months."""

KNOWN_PART_TYPES = ("message",)
KNOWN_PART_ROLES = ("user", "assistant")


class ClusterStats(Model):
    """How many issues, and from how many conversations, a cluster holds."""

    issues: int = 0
    conversations: int = 0


class IssuesCluster(Model):
    """A cluster of similar issues (``object`` = ``issues-cluster``).

    ``muted`` keeps the cluster from prompting change requests; ``weeklyPulse`` has one number a week.
    """

    object: str = "issues-cluster"
    id: str
    label: str = ""
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    icon: str | None = None
    summary: Document | None = None
    muted: bool = False
    impact: Impact | None = None
    weekly_pulse: list[float] = []
    sources: dict[str, float] = {}
    stats: ClusterStats | None = None
    urls: Urls | None = None

    @property
    def pulse(self) -> tuple[float, ...]:
        """The weekly pulse as exactly 13 numbers, oldest first (missing weeks count as 0)."""
        weeks = list(self.weekly_pulse[-WEEKLY_PULSE_WEEKS:])
        return tuple([0.0] * (WEEKLY_PULSE_WEEKS - len(weeks)) + weeks)


class ConversationUrls(Urls):
    """``urls`` of a conversation: ``location`` and ``source`` (where the conversation happened)."""

    source: str | None = None


class Conversation(Model):
    """A conversation ingested from a source (``object`` = ``conversation``)."""

    object: str = "conversation"
    id: str
    subject: str | None = None
    created_at: Timestamp | None = None
    processed_at: Timestamp | None = None
    source: str | None = None
    impact: Impact | None = None
    urls: ConversationUrls | None = None


class ConversationIssue(Model):
    """An issue found in a conversation (``object`` = ``conversation-issue``), filed in a cluster."""

    object: str = "conversation-issue"
    id: str
    title: str = ""
    details: Document | None = None
    impact: Impact | None = None
    created_at: Timestamp | None = None
    ingested_at: Timestamp | None = None
    conversation: str | None = None
    cluster: str | None = None
    urls: Urls | None = None


class IssueWithConversation(Model):
    """An item of the issues list, and the answer of the single-issue read: ``{issue, conversation}``."""

    issue: ConversationIssue
    conversation: Conversation | None = None


class ConversationPart(Model):
    """One part of a conversation: ``{type (message), role (user), body}``."""

    type: OpenEnum = "message"
    role: OpenEnum = "user"
    body: Json = None

    @property
    def text(self) -> str:
        if isinstance(self.body, str):
            return self.body
        return document_text(self.body)


class ConversationMetadata(Model):
    """Where a conversation happened (``url``), its ``attributes`` and when it started."""

    url: str | None = None
    attributes: dict[str, str] = {}
    created_at: Timestamp | None = None


class ConversationDetail(Model):
    """One conversation with its parts and metadata."""

    conversation: Conversation
    parts: list[ConversationPart] = []
    metadata: ConversationMetadata | None = None
