"""Conversations of an organization and the issues derived from them (spec section 4.11).

async for cluster in client.conversations.clusters(org_id, order_by="updatedAt"): ...
await client.conversations.update_cluster(org_id, cluster_id, muted=True)
await client.conversations.ingest(org_id, subject="Login loop", parts=[{"role": "user", "body": "..."}])

The current public description of the service lacks all of these operations, so a service may not offer them.
Operations without an id of their own pass ``optional``/``probe`` to the client: a 404 while the organization
itself reads fine means "not offered". For a read by id a 404 is ambiguous (the id may simply be unknown), so
those check the list of the same family, which exists exactly when the family is offered, before saying so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from folio.api import limits
from folio.api.errors import ApiError, InvalidRequest, NotFound, NotOffered
from folio.api.pagination import Paginator
from folio.api.resources._base import UNSET, Resource, body, path
from folio.models.conversation import (
    Conversation,
    ConversationDetail,
    ConversationPart,
    IssuesCluster,
    IssueWithConversation,
)

__all__ = ["ConversationsResource"]

Order = Literal["asc", "desc"]
ORDERS: tuple[Order, ...] = ("asc", "desc")
KNOWN_CLUSTER_ORDER_BY = ("updatedAt", "createdAt", "impact", "issues", "conversations")

_LISTS = {
    "conversations.clusters": "/orgs/{}/conversations-clusters",
    "conversations.list": "/orgs/{}/conversations",
    "conversations.issues": "/orgs/{}/conversations-issues",
}


def _part(part: ConversationPart | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(part, ConversationPart):
        return part.model_dump(mode="json", by_alias=True, exclude_none=True)
    if not isinstance(part, Mapping):
        raise InvalidRequest("parts", f"holds a {type(part).__name__}", "objects {type, role, body}")
    return {"type": "message", "role": "user", **part}


class ConversationsResource(Resource):
    """``client.conversations``: issues clusters, conversations and conversation issues."""

    # -- plumbing: telling "not offered" from "not found" ----------------------------------------------------

    @staticmethod
    def _probe(organization_id: str) -> str:
        """The parent every operation of the area hangs under: it reads fine wherever the area is offered."""
        return path("/orgs/{}", organization_id)

    async def _by_id(
        self, family: str, organization_id: str, model: Any, method: str, url: str, json: Any = None
    ) -> Any:
        try:
            return await self._send(model, method, url, json, idempotent=method in ("GET", "PATCH"))
        except NotOffered:
            raise
        except NotFound as missing:
            # Unknown id, or no such operation on this service? The family's list answers which.
            try:
                await self._client.request(
                    "GET",
                    path(_LISTS[family], organization_id),
                    params={"limit": 1},
                    optional=family,
                    probe=self._probe(organization_id),
                )
            except NotOffered:
                raise
            except ApiError:
                pass
            raise missing

    # -- issues clusters -------------------------------------------------------------------------------------

    def clusters(
        self,
        organization_id: str,
        *,
        order: Order | None = None,
        order_by: str | None = None,
        limit: int | None = None,
    ) -> Paginator[IssuesCluster]:
        """Issues clusters, newest ``updatedAt`` first unless ``order``/``order_by`` say otherwise."""
        limits.check_one_of("order", order, ORDERS)
        return self._list(
            IssuesCluster,
            path("/orgs/{}/conversations-clusters", organization_id),
            {"order": order, "orderBy": order_by},
            limit=limit,
            optional="conversations.clusters",
            probe=self._probe(organization_id),
        )

    async def cluster(self, organization_id: str, cluster_id: str) -> IssuesCluster:
        url = path("/orgs/{}/conversations-clusters/{}", organization_id, cluster_id)
        result: IssuesCluster = await self._by_id("conversations.clusters", organization_id, IssuesCluster, "GET", url)
        return result

    async def update_cluster(self, organization_id: str, cluster_id: str, *, muted: bool) -> IssuesCluster:
        """Mute (or unmute) a cluster: a muted cluster prompts no change requests."""
        if not isinstance(muted, bool):
            raise InvalidRequest("muted", f"must be true or false, not {type(muted).__name__}", "boolean")
        url = path("/orgs/{}/conversations-clusters/{}", organization_id, cluster_id)
        result: IssuesCluster = await self._by_id(
            "conversations.clusters", organization_id, IssuesCluster, "PATCH", url, {"muted": muted}
        )
        return result

    # -- conversations ---------------------------------------------------------------------------------------

    def list(
        self, organization_id: str, *, source: str | None = None, limit: int | None = None
    ) -> Paginator[Conversation]:
        """Ingested conversations, optionally only those of one ``source``."""
        return self._list(
            Conversation,
            path("/orgs/{}/conversations", organization_id),
            {"source": source},
            limit=limit,
            optional="conversations.list",
            probe=self._probe(organization_id),
        )

    async def ingest(
        self,
        organization_id: str,
        *,
        parts: Sequence[ConversationPart | Mapping[str, Any]],
        subject: str = UNSET,
        id: str = UNSET,
        metadata: Mapping[str, Any] = UNSET,
    ) -> None:
        """Hand a conversation to the service, which finds its issues and files them in clusters.

        ``parts`` are ``{type, role, body}`` (type defaults to ``message``, role to ``user``); ``id`` is the
        conversation's id in its source, ``metadata`` may hold ``url``, ``attributes`` and ``createdAt``.
        """
        if isinstance(parts, (str, bytes)) or not isinstance(parts, Sequence) or not parts:
            raise InvalidRequest("parts", "is empty" if not parts else "must be a list", "at least one part")
        if metadata is not UNSET and metadata.get("url") is not None:
            limits.check_uri("metadata.url", metadata["url"])
        payload = body(
            id=id,
            subject=subject,
            metadata=dict(metadata) if metadata is not UNSET else UNSET,
            parts=[_part(p) for p in parts],
        )
        await self._send_empty(
            "POST",
            path("/orgs/{}/conversations", organization_id),
            payload,
            optional="conversations.ingest",
            probe=self._probe(organization_id),
        )

    async def get(self, organization_id: str, conversation_id: str) -> ConversationDetail:
        """One conversation with its parts and metadata."""
        url = path("/orgs/{}/conversations/{}", organization_id, conversation_id)
        result: ConversationDetail = await self._by_id(
            "conversations.list", organization_id, ConversationDetail, "GET", url
        )
        return result

    # -- conversation issues ---------------------------------------------------------------------------------

    def issues(
        self,
        organization_id: str,
        *,
        cluster: str | None = None,
        conversation: str | None = None,
        limit: int | None = None,
    ) -> Paginator[IssueWithConversation]:
        """Issues with their conversation, optionally of one ``cluster`` or one ``conversation``."""
        return self._list(
            IssueWithConversation,
            path("/orgs/{}/conversations-issues", organization_id),
            {"cluster": cluster, "conversation": conversation},
            limit=limit,
            optional="conversations.issues",
            probe=self._probe(organization_id),
        )

    async def issue(self, organization_id: str, issue_id: str) -> IssueWithConversation:
        url = path("/orgs/{}/conversations-issues/{}", organization_id, issue_id)
        result: IssueWithConversation = await self._by_id(
            "conversations.issues", organization_id, IssueWithConversation, "GET", url
        )
        return result
