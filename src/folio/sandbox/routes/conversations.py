"""Sandbox routes: conversations, conversation issues and issues clusters (spec section 4.11). Records,
ingestion and rendering are in :mod:`folio.sandbox.domain.conversations`.

Every route here is OPTIONAL (absent from the current public description): a sandbox built with
``offer_optional=False`` leaves them all out.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.domain.access import can_edit, org_access
from folio.sandbox.domain.conversations import (
    IMPACT_RANK,
    cluster_counts,
    ingest_conversation,
    owned,
    render_cluster,
    render_conversation,
    render_issue_entry,
    validate_ingest,
)
from folio.sandbox.errors import bad_request, forbidden
from folio.sandbox.http import RouteSpec, empty, json_body, ok, route
from folio.sandbox.paging import paginate
from folio.sandbox.state import Record

BASE = "/orgs/{organizationId}"
ORDER_KEYS = ("updatedAt", "createdAt", "impact", "issues", "conversations")


# --- clusters ---------------------------------------------------------------------------------------------


@route("GET", BASE + "/conversations-clusters", optional=True)
async def list_clusters(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    order = request.query_params.get("order", "desc")
    order_by = request.query_params.get("orderBy", "updatedAt")
    if order not in ("asc", "desc"):
        raise bad_request("order must be one of asc, desc")
    if order_by not in ORDER_KEYS:
        raise bad_request("orderBy must be one of " + ", ".join(ORDER_KEYS))
    counts = cluster_counts(state, org_id)
    clusters = [c for c in state.clusters.values() if c["organization"] == org_id]

    def key(c: Record) -> Any:
        entry = counts.get(c["id"]) or {"issues": 0, "conversations": set()}
        value = {
            "updatedAt": c["updatedAt"],
            "createdAt": c["createdAt"],
            "impact": IMPACT_RANK[c["impact"]],
            "issues": entry["issues"],
            "conversations": len(entry["conversations"]),
        }[order_by]
        return (value, c["createdAt"], c["id"])

    clusters.sort(key=key, reverse=order == "desc")
    return ok(paginate(request, clusters, lambda c: render_cluster(state, c, counts.get(c["id"]))))


@route("GET", BASE + "/conversations-clusters/{clusterId}", optional=True)
async def get_cluster(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    rec = owned(state.clusters, request.path_params["clusterId"], org_id, "issues cluster")
    counts = cluster_counts(state, org_id, only=rec["id"])
    return ok(render_cluster(state, rec, counts.get(rec["id"])))


@route("PATCH", BASE + "/conversations-clusters/{clusterId}", optional=True)
async def update_cluster(request: Request) -> Response:
    state, org_id, member = org_access(request)
    rec = owned(state.clusters, request.path_params["clusterId"], org_id, "issues cluster")
    body = await json_body(request)
    if "muted" not in body:
        raise bad_request("muted is required")
    if not isinstance(body["muted"], bool):
        raise bad_request("muted must be a boolean")
    if not can_edit(member):
        raise forbidden("You cannot manage the issues clusters of this organization")
    if rec["muted"] != body["muted"]:
        rec["muted"] = body["muted"]
        rec["updatedAt"] = state.now()
    counts = cluster_counts(state, org_id, only=rec["id"])
    return ok(render_cluster(state, rec, counts.get(rec["id"])))


# --- conversations ----------------------------------------------------------------------------------------


@route("GET", BASE + "/conversations", optional=True)
async def list_conversations(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    source = request.query_params.get("source")
    items = [
        c
        for c in state.conversations.values()
        if c["organization"] == org_id and (source is None or (c.get("source") or "api") == source)
    ]
    items.sort(key=lambda c: (c["createdAt"], c["id"]), reverse=True)
    return ok(paginate(request, items, lambda c: render_conversation(state, c)))


@route("POST", BASE + "/conversations", optional=True)
async def ingest(request: Request) -> Response:
    state, org_id, member = org_access(request)
    body = await json_body(request)
    validate_ingest(body)
    if member.get("role") not in ("admin", "create", "edit"):
        raise forbidden("You cannot ingest conversations into this organization")
    ingest_conversation(state, org_id, body)
    return empty(204)


@route("GET", BASE + "/conversations/{conversationId}", optional=True)
async def get_conversation(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    rec = owned(state.conversations, request.path_params["conversationId"], org_id, "conversation")
    metadata = dict(rec.get("metadata") or {})
    metadata.setdefault("attributes", {})
    return ok(
        {
            "conversation": render_conversation(state, rec),
            "parts": list(rec.get("parts") or []),
            "metadata": metadata,
        }
    )


# --- issues -----------------------------------------------------------------------------------------------


@route("GET", BASE + "/conversations-issues", optional=True)
async def list_issues(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    cluster = request.query_params.get("cluster")
    conversation = request.query_params.get("conversation")
    items = [
        i
        for i in state.conversation_issues.values()
        if i["organization"] == org_id
        and (cluster is None or i["cluster"] == cluster)
        and (conversation is None or i["conversation"] == conversation)
    ]
    items.sort(key=lambda i: (i["createdAt"], i["id"]), reverse=True)
    return ok(paginate(request, items, lambda i: render_issue_entry(state, i)))


@route("GET", BASE + "/conversations-issues/{issueId}", optional=True)
async def get_issue(request: Request) -> Response:
    state, org_id, _ = org_access(request)
    rec = owned(state.conversation_issues, request.path_params["issueId"], org_id, "conversation issue")
    return ok(render_issue_entry(state, rec))


routes: list[RouteSpec] = [
    list_clusters,
    get_cluster,
    update_cluster,
    list_conversations,
    ingest,
    get_conversation,
    list_issues,
    get_issue,
]
