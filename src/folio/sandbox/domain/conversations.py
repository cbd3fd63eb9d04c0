"""Conversations, conversation issues and issues clusters (spec 2.10, 4.11): ingestion, rendering and the
weekly pulse of a cluster.

Records: ``state.clusters[id]`` = ``{id, organization, label, createdAt, updatedAt, icon, summary, muted,
impact, weeklyPulse (13 numbers), pulseWeek, keywords}``; ``state.conversations[id]`` = ``{id, organization,
externalId, subject, createdAt, processedAt, source, impact, metadata, parts}``;
``state.conversation_issues[id]`` = ``{id, organization, title, details, impact, createdAt, ingestedAt,
conversation, cluster}``. A cluster's ``stats`` and ``sources`` are counted from the issues at render time.

Ingesting (POST, 204) is processed at once and deterministically: the conversation gets one issue, filed in
the cluster whose keywords share most words (4+ letters) with the subject and the user's parts (the oldest
such cluster on a tie); with no shared word a new cluster is opened. Re-ingesting the same ``id`` replaces the
conversation and keeps its issue.

The weekly pulse counts a cluster's issues per calendar week (Monday to Sunday, UTC) over the last 13 weeks of
the sandbox's clock, the current week last (``pulseWeek`` is the Monday of that last entry). An issue counts in
the week it is ingested in; as the clock moves on, the pulse rolls: new weeks start at 0 and the oldest drop out.

The issue's impact comes from the words too (``crash``, ``cannot``... high; ``slow``, ``confusing``...
medium; otherwise low).
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from folio.sandbox.clock import parse_iso
from folio.sandbox.errors import bad_request, not_found
from folio.sandbox.state import Record, SandboxState

IMPACT_RANK = {"low": 0, "medium": 1, "high": 2}
WEEKS = 13
WEEK = timedelta(days=7)
_HIGH = ("crash", "cannot", "can't", "broken", "data loss", "lost", "fails", "failed", "error", "blocked")
_MEDIUM = ("slow", "confus", "unclear", "workaround", "missing", "wrong", "duplicate", "stale")
_STOP_WORDS = (
    "this that with from have when what where there they will your about after again been does into just"
    " keeps like only some than then them were would could should still hello thanks please"
)
_STOP = set(_STOP_WORDS.split())
_ICONS = {"high": "triangle-exclamation", "medium": "circle-exclamation", "low": "circle-info"}


def _document(text: str) -> Record:
    return {
        "object": "document",
        "data": {"schemaVersion": 1},
        "nodes": [
            {
                "object": "block",
                "type": "paragraph",
                "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": line, "marks": []}]}],
            }
            for line in text.split("\n")
        ],
    }


def _part_text(part: Record) -> str:
    value = part.get("body")
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return str(value.get("text") or value.get("markdown") or "")
    return ""


def words_of(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]{4,}", text.lower()) if w not in _STOP}


def impact_of(text: str) -> str:
    lowered = text.lower()
    if any(word in lowered for word in _HIGH):
        return "high"
    if any(word in lowered for word in _MEDIUM):
        return "medium"
    return "low"


def validate_ingest(body: dict[str, Any]) -> None:
    """400 naming the field for anything the conversation variant of the ingest body cannot hold."""
    parts = body.get("parts")
    if parts is None:
        raise bad_request("parts is required")
    if not isinstance(parts, list) or not parts:
        raise bad_request("parts must be a non-empty array")
    for n, part in enumerate(parts):
        if not isinstance(part, dict):
            raise bad_request(f"parts[{n}] must be an object {{type, role, body}}")
        for key in ("type", "role"):
            if key in part and not isinstance(part[key], str):
                raise bad_request(f"parts[{n}].{key} must be a string")
        if not isinstance(part.get("body"), (str, dict)):
            raise bad_request(f"parts[{n}].body must be a string or an object")
    for key in ("id", "subject"):
        if key in body and (not isinstance(body[key], str) or not body[key]):
            raise bad_request(f"{key} must be a non-empty string")
    metadata = body.get("metadata")
    if metadata is None:
        return
    if not isinstance(metadata, dict):
        raise bad_request("metadata must be an object")
    url = metadata.get("url")
    if url is not None and not (isinstance(url, str) and len(url) <= 2048 and urlsplit(url).netloc):
        raise bad_request("metadata.url must be an absolute URI of at most 2048 characters")
    attributes = metadata.get("attributes")
    if attributes is not None and (
        not isinstance(attributes, dict) or not all(isinstance(v, str) for v in attributes.values())
    ):
        raise bad_request("metadata.attributes must map strings to strings")
    if metadata.get("createdAt") is not None:
        try:
            parse_iso(str(metadata["createdAt"]))
        except ValueError:
            raise bad_request("metadata.createdAt must be a date-time") from None


def new_cluster(
    state: SandboxState,
    org_id: str,
    label: str,
    *,
    impact: str,
    keywords: set[str] | list[str],
    at: str,
    icon: str | None = None,
    muted: bool = False,
    pulse: list[int] | None = None,
    summary: str | None = None,
) -> Record:
    cid = state.new_id()
    state.clusters[cid] = {
        "id": cid,
        "organization": org_id,
        "label": label,
        "createdAt": at,
        "updatedAt": at,
        "icon": (icon or _ICONS[impact])[:50],
        "summary": _document(summary or label),
        "muted": muted,
        "impact": impact,
        "weeklyPulse": list(pulse) if pulse is not None else [0] * WEEKS,
        "pulseWeek": state.clock.iso(week_start(state.clock.now())),
        "keywords": sorted(set(keywords)),
    }
    return state.clusters[cid]


def week_start(at: datetime) -> datetime:
    """Monday 00:00 UTC of the week holding ``at``: the pulse counts calendar weeks."""
    day = at.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return day - timedelta(days=day.weekday())


def roll_pulse(state: SandboxState, cluster: Record) -> list[int]:
    """The cluster's pulse with its last entry the sandbox's current week: the weeks that passed since it was
    last rolled come in as 0 (nothing was ingested in them) and push the oldest out."""
    current = week_start(state.clock.now())
    passed = (current - parse_iso(cluster.get("pulseWeek") or state.clock.iso(current))) // WEEK
    if passed > 0:
        cluster["weeklyPulse"] = (cluster["weeklyPulse"] + [0] * min(passed, WEEKS))[-WEEKS:]
        cluster["pulseWeek"] = state.clock.iso(current)
    return list(cluster["weeklyPulse"])


def count_in_pulse(state: SandboxState, cluster: Record, at: datetime) -> None:
    """One more issue in the week of ``at`` (nothing when that week is outside the 13)."""
    roll_pulse(state, cluster)
    index = WEEKS - 1 - (week_start(state.clock.now()) - week_start(at)) // WEEK
    if 0 <= index < WEEKS:
        cluster["weeklyPulse"][index] += 1


def _pick_cluster(state: SandboxState, org_id: str, words: set[str]) -> Record | None:
    best: tuple[int, str, str] | None = None
    chosen = None
    for cluster in state.clusters.values():
        if cluster["organization"] != org_id:
            continue
        score = len(words & set(cluster["keywords"]))
        if score == 0:
            continue
        key = (-score, cluster["createdAt"], cluster["id"])
        if best is None or key < best:
            best, chosen = key, cluster
    return chosen


def ingest_conversation(state: SandboxState, org_id: str, body: dict[str, Any], at: datetime | None = None) -> Record:
    """Store a conversation (checked by :func:`validate_ingest`), file its issue; returns the conversation."""
    now = state.clock.iso(at)
    metadata = dict(body.get("metadata") or {})
    if metadata.get("createdAt") is not None:
        metadata["createdAt"] = state.clock.iso(parse_iso(str(metadata["createdAt"])))
    parts = [
        {"type": p.get("type", "message"), "role": p.get("role", "user"), "body": p["body"]} for p in body["parts"]
    ]
    user_text = "\n".join(_part_text(p) for p in parts if p["role"] == "user") or _part_text(parts[0])
    subject = body.get("subject") or ""
    text = subject + "\n" + user_text
    impact = impact_of(text)
    source = (metadata.get("attributes") or {}).get("source") or "api"
    external = body.get("id")
    existing = None
    if external:
        existing = next(
            (
                c
                for c in state.conversations.values()
                if c["organization"] == org_id and c.get("externalId") == external
            ),
            None,
        )
    fields = {
        "subject": subject,
        "processedAt": now,
        "source": source,
        "impact": impact,
        "metadata": metadata,
        "parts": parts,
    }
    if existing is not None:
        existing.update(fields)
        for issue in state.conversation_issues.values():
            if issue["conversation"] == existing["id"]:
                issue.update(title=subject or user_text[:80], impact=impact, details=_document(user_text))
        return existing
    conv: Record = {
        "id": state.new_id(),
        "organization": org_id,
        "externalId": external,
        "createdAt": metadata.get("createdAt") or now,
        **fields,
    }
    state.conversations[conv["id"]] = conv
    words = words_of(text)
    title = subject or user_text.split("\n")[0][:80] or "Untitled issue"
    cluster = _pick_cluster(state, org_id, words)
    if cluster is None:
        cluster = new_cluster(state, org_id, title[:60], impact=impact, keywords=words, at=now)
    iid = state.new_id()
    state.conversation_issues[iid] = {
        "id": iid,
        "organization": org_id,
        "title": title,
        "details": _document(user_text),
        "impact": impact,
        "createdAt": now,
        "ingestedAt": now,
        "conversation": conv["id"],
        "cluster": cluster["id"],
    }
    count_in_pulse(state, cluster, parse_iso(now))
    cluster["updatedAt"] = max(cluster["updatedAt"], now)
    if IMPACT_RANK[impact] > IMPACT_RANK[cluster["impact"]]:
        cluster["impact"] = impact
    return conv


# --- rendering ----------------------------------------------------------------------------------------------


def cluster_counts(state: SandboxState, org_id: str, only: str | None = None) -> dict[str, Record]:
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
        "weeklyPulse": roll_pulse(state, rec),
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


def owned(store: dict[str, Record], key: str, org_id: str, what: str) -> Record:
    rec = store.get(key)
    if rec is None or rec.get("organization") != org_id:
        raise not_found(f"No matching {what} found for {key!r}")
    return rec
