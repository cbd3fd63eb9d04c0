"""Seed: issues clusters, conversations and their issues; and the ingestion that the POST route shares.

Ingesting is deterministic: the words (4+ letters) of the subject and of the user's parts are matched against
each cluster's keywords; the issue goes to the cluster sharing most words (the oldest on a tie), or to a new
cluster when none shares a word. The issue's impact comes from the words too (``crash``, ``cannot``... high;
``slow``, ``confusing``... medium; otherwise low).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from folio.sandbox.clock import parse_iso
from folio.sandbox.errors import bad_request
from folio.sandbox.state import Record, SandboxState

IMPACT_RANK = {"low": 0, "medium": 1, "high": 2}
WEEKS = 13
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
        "keywords": sorted(set(keywords)),
    }
    return state.clusters[cid]


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
    cluster["weeklyPulse"][-1] += 1
    cluster["updatedAt"] = max(cluster["updatedAt"], now)
    if IMPACT_RANK[impact] > IMPACT_RANK[cluster["impact"]]:
        cluster["impact"] = impact
    return conv


# label, icon, impact, muted, keywords
CLUSTERS = [
    (
        "Login loops after SSO redirect",
        "right-to-bracket",
        "high",
        False,
        "login redirect loop okta session sign",
    ),
    (
        "Rate limit errors are unclear",
        "gauge-high",
        "medium",
        False,
        "rate limit limited throttle retry quota",
    ),
    (
        "Search misses recently published pages",
        "magnifying-glass",
        "medium",
        False,
        "search index results find",
    ),
    ("Low contrast of code blocks in dark mode", "moon", "low", True, "dark contrast code theme colors"),
    ("Webhook retries deliver duplicate events", "bolt", "high", False, "webhook duplicate events delivery"),
    ("PDF export drops images", "file-pdf", "low", False, "export images print"),
]

# source, subject, what the user wrote
CONVERSATIONS = [
    ("intercom", "Stuck in a login loop", "After the Okta redirect I land on the login page again, forever."),
    (
        "zendesk",
        "Session lost after sign in",
        "I sign in with SSO and the session is lost after the redirect.",
    ),
    ("slack", "What does 429 mean here?", "The API says rate limited but the retry header is missing."),
    ("docs-assistant", "Quota unclear", "How do I know my rate limit quota before I get throttled?"),
    ("intercom", "New page not in search", "I published a page an hour ago and search does not find it."),
    ("docs-assistant", "Search results stale", "Search results show an old title for a published page."),
    ("zendesk", "Code unreadable in dark theme", "Code blocks have low contrast in the dark theme."),
    ("slack", "Webhook sent twice", "Our webhook got duplicate events after a delivery retry: data lost."),
    ("intercom", "Duplicate webhook events", "Every webhook delivery arrives twice since Monday."),
    ("zendesk", "PDF export without images", "When I export the space to PDF the images are missing."),
    ("docs-assistant", "Broken login on mobile", "Login on mobile Safari is broken after the redirect."),
    ("slack", "Rate limit during sync", "Git sync fails with a rate limit error at night."),
    ("intercom", "Invoice address change", "How do I change the billing address on our invoices?"),
]
ANSWER = "Thanks, I have passed this to the documentation team."


def _message(role: str, text: str) -> dict[str, str]:
    return {"type": "message", "role": role, "body": text}


def seed(state: SandboxState, *, scale: int = 0) -> None:
    org = state.demo_org
    if not org:
        return
    now = state.clock.now()
    for n, (label, icon, impact, muted, keywords) in enumerate(CLUSTERS):
        pulse = [state.rng.randint(0, 9) for _ in range(WEEKS)]
        opened = state.clock.iso(now - timedelta(days=80 - 9 * n))
        summary = f"Users report: {label.lower()}."
        new_cluster(state, org, label, impact=impact, keywords=keywords.split(), icon=icon, muted=muted,
                    pulse=pulse, at=opened, summary=summary)  # fmt: skip
    for n, (source, subject, text) in enumerate(CONVERSATIONS):
        at = now - timedelta(days=len(CONVERSATIONS) - n, hours=n)
        metadata = {
            "url": f"https://{source}.example.com/conversations/{1000 + n}",
            "attributes": {"source": source, "plan": ("pro", "business")[n % 2]},
            "createdAt": state.clock.iso(at - timedelta(minutes=30)),
        }
        parts = [_message("user", text), _message("assistant", ANSWER)]
        body = {"id": f"{source}-{1000 + n}", "subject": subject, "metadata": metadata, "parts": parts}
        ingest_conversation(state, org, body, at=at)
    for n in range(scale):
        source, subject, text = CONVERSATIONS[n % len(CONVERSATIONS)]
        body = {"subject": f"{subject} #{n}", "parts": [_message("user", text)],
                "metadata": {"attributes": {"source": source}}}  # fmt: skip
        ingest_conversation(state, org, body, at=now - timedelta(minutes=5 * n + 1))
