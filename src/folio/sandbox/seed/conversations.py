"""Seed: issues clusters, conversations and their issues of the demo organization, ingested as the POST route
ingests them (:func:`folio.sandbox.domain.conversations.ingest_conversation`), over pulses that follow a trend
per cluster (:data:`PULSE_TRENDS`); one cluster is linked to a change request (:data:`LINKED`), so a cluster's
change requests can be tried in the demo. ``scale`` ingests that many more conversations."""

from __future__ import annotations

from datetime import timedelta

from folio.sandbox.domain.conversations import WEEKS, ingest_conversation, new_cluster, week_start
from folio.sandbox.state import SandboxState

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

# label -> (issues a week when the cluster opened, issues a week now): the trend of its pulse.
PULSE_TRENDS: dict[str, tuple[float, float]] = {
    "Login loops after SSO redirect": (2, 8),  # getting worse since an identity provider change
    "Rate limit errors are unclear": (5, 4),
    "Search misses recently published pages": (7, 2),  # a fix to indexing shipped
    "Low contrast of code blocks in dark mode": (3, 1),
    "Webhook retries deliver duplicate events": (1, 6),
    "PDF export drops images": (2, 2),
}

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
LINKED = ("Rate limit errors are unclear", "Reorganise troubleshooting")
"""(cluster label, change request subject): the seeded change request that answers the cluster."""


def _message(role: str, text: str) -> dict[str, str]:
    return {"type": "message", "role": role, "body": text}


def plausible_pulse(draws: list[int], opened: int, first: float, last: float) -> list[int]:
    """A weekly count that moves like a real one: 0 before the cluster opened (week index ``opened``), then a
    line from ``first`` to ``last`` issues a week with noise that carries over from week to week (``draws``:
    0..9 each, one a week)."""
    pulse, drift = [], 0.0
    span = max(1, WEEKS - 1 - max(opened, 0))
    for week, draw in enumerate(draws):
        drift = 0.5 * drift + (draw - 4.5) / 3.5
        if week < opened:
            pulse.append(0)
            continue
        level = first + (last - first) * (week - max(opened, 0)) / span
        pulse.append(max(0, round(level + drift)))
    return pulse


def seed(state: SandboxState, *, scale: int = 0) -> None:
    org = state.demo_org
    if not org:
        return
    now = state.clock.now()
    for n, (label, icon, impact, muted, keywords) in enumerate(CLUSTERS):
        draws = [state.rng.randint(0, 9) for _ in range(WEEKS)]
        opened = now - timedelta(days=80 - 9 * n)
        age = (week_start(now) - week_start(opened)) // timedelta(days=7)
        pulse = plausible_pulse(draws, WEEKS - 1 - age, *PULSE_TRENDS[label])
        summary = f"Users report: {label.lower()}."
        new_cluster(state, org, label, impact=impact, keywords=keywords.split(), icon=icon, muted=muted,
                    pulse=pulse, at=state.clock.iso(opened), summary=summary)  # fmt: skip
    _link(state, org, *LINKED)
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


def _link(state: SandboxState, org: str, label: str, subject: str) -> None:
    """Link the demo organization's change request ``subject`` to its cluster ``label`` (when both are seeded)."""
    cluster = next((c for c in state.clusters.values() if c["organization"] == org and c["label"] == label), None)
    spaces = {sid for sid, s in state.spaces.items() if s["organization"] == org}
    change = next((c for c in state.change_requests.values() if c["space"] in spaces and c["subject"] == subject), None)
    if cluster is not None and change is not None:
        change["conversationsIssuesCluster"] = cluster["id"]
