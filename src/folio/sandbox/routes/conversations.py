"""Sandbox routes: conversations, conversation issues and issues clusters (spec section 4.11).

Every route here is OPTIONAL (absent from the current public description): a sandbox built with
``offer_optional=False`` leaves them all out.

Records: ``state.clusters[id]`` = ``{id, organization, label, createdAt, updatedAt, icon, summary, muted,
impact, weeklyPulse (13 numbers), keywords}``; ``state.conversations[id]`` = ``{id, organization,
externalId, subject, createdAt, processedAt, source, impact, metadata, parts}``;
``state.conversation_issues[id]`` = ``{id, organization, title, details, impact, createdAt, ingestedAt,
conversation, cluster}``. A cluster's ``stats`` and ``sources`` are counted from the issues at render time.

Ingesting (POST, 204) is processed at once and deterministically: the conversation gets one issue, filed in
the cluster whose keywords share most words (4+ letters) with the subject and the user's parts (the oldest
such cluster on a tie); with no shared word a new cluster is opened. Re-ingesting the same ``id`` replaces the
conversation and keeps its issue. See :func:`folio.sandbox.seed.conversations.ingest_conversation`, which the
seed uses too.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from folio.sandbox.errors import bad_request, forbidden, not_found
from folio.sandbox.http import RouteSpec, empty, json_body, ok, route
from folio.sandbox.paging import paginate
from folio.sandbox.routes.openapi import can_edit, org_access
from folio.sandbox.seed.conversations import IMPACT_RANK, ingest_conversation, validate_ingest
from folio.sandbox.state import Record, SandboxState

BASE = "/orgs/{organizationId}"
ORDER_KEYS = ("updatedAt", "createdAt", "impact", "issues", "conversations")


def _cluster_counts(state: SandboxState, org_id: str, only: str | None = None) -> dict[str, Record]:
    """Per cluster: issues, distinct conversations, conversations by source."""
    out: dict[str, Record] = {}
    for issue in state.conversation_issues.values():
        if issue["organization"] != org_id or (only is not None and issue["cluster"] != only):
            continue
        entry = out.setdefault(issue["cluster"], {"issues": 0, "conversations": set(), "sources": Counter()})
        entry["issues"] += 1
        if issue["conversation"] not in entry["conversations"]:
            entry["conversations"].add(issue["conversation"])
            conv = state.conversations.get(issue["conversation"])
            entry["sources"][(conv or {}).get("source") or "api"] += 1
    return out


def render_cluster(state: SandboxState, rec: Record, counts: Record | None) -> Record:
    counts = counts or {"issues": 0, "conversations": set(), "sources": Counter()}
    return {
        "object": "issues-cluster",
        "id": rec["id"],
        "label": rec["label"],
        "createdAt": rec["createdAt"],
        "updatedAt": rec["updatedAt"],
        "icon": rec["icon"],
        "summary": rec["summary"],
        "muted": rec["muted"],
        "impact": rec["impact"],
        "weeklyPulse": list(rec["weeklyPulse"]),
        "sources": dict(counts["sources"]),
        "stats": {"issues": counts["issues"], "conversations": len(counts["conversations"])},
        "urls": {"location": f"{state.api_base}/orgs/{rec['organization']}/conversations-clusters/{rec['id']}"},
    }


def render_conversation(state: SandboxState, rec: Record) -> Record:
    urls = {"location": f"{state.api_base}/orgs/{rec['organization']}/conversations/{rec['id']}"}
    if (rec.get("metadata") or {}).get("url"):
        urls["source"] = rec["metadata"]["url"]
    out = {
        "object": "conversation",
        "id": rec["id"],
        "subject": rec.get("subject") or "",
        "createdAt": rec["createdAt"],
        "processedAt": rec["processedAt"],
        "source": rec.get("source") or "api",
        "urls": urls,
    }
    if rec.get("impact"):
        out["impact"] = rec["impact"]
    return out


def render_issue(state: SandboxState, rec: Record) -> Record:
    return {
        "object": "conversation-issue",
        "id": rec["id"],
        "title": rec["title"],
        "details": rec["details"],
        "impact": rec["impact"],
        "createdAt": rec["createdAt"],
        "ingestedAt": rec["ingestedAt"],
        "conversation": rec["conversation"],
        "cluster": rec["cluster"],
        "urls": {"location": f"{state.api_base}/orgs/{rec['organization']}/conversations-issues/{rec['id']}"},
    }


def render_issue_entry(state: SandboxState, rec: Record) -> Record:
    conv = state.conversations.get(rec["conversation"])
    out: Record = {"issue": render_issue(state, rec)}
    if conv is not None:
        out["conversation"] = render_conversation(state, conv)
    return out


def _owned(store: dict[str, Record], key: str, org_id: str, what: str) -> Record:
    rec = store.get(key)
    if rec is None or rec.get("organization") != org_id:
        raise not_found(f"No matching {what} found for {key!r}")
    return rec


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
    counts = _cluster_counts(state, org_id)
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
    rec = _owned(state.clusters, request.path_params["clusterId"], org_id, "issues cluster")
    counts = _cluster_counts(state, org_id, only=rec["id"])
    return ok(render_cluster(state, rec, counts.get(rec["id"])))


@route("PATCH", BASE + "/conversations-clusters/{clusterId}", optional=True)
async def update_cluster(request: Request) -> Response:
    state, org_id, member = org_access(request)
    rec = _owned(state.clusters, request.path_params["clusterId"], org_id, "issues cluster")
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
    counts = _cluster_counts(state, org_id, only=rec["id"])
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
    rec = _owned(state.conversations, request.path_params["conversationId"], org_id, "conversation")
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
    rec = _owned(state.conversation_issues, request.path_params["issueId"], org_id, "conversation issue")
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
