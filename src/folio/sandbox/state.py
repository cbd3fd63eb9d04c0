"""The sandbox's in-memory state: plain dicts of records, one store per resource kind.

Records hold what the service stores, in wire names (camelCase) where a field goes out as is; each area's route
module renders its records to the wire shape (derived fields such as counts are computed at render time from the
other stores). Ids are deterministic for a given seed.

Stores and the keys their records carry (beyond those an area adds for itself):

    users            id -> wire User dict
    orgs             id -> organization fields of spec 2.2 (wire names)
    members          org id -> user id -> {role, disabled, joinedAt, lastSeenAt, sso}
    invites          org id -> invite id -> {id, role | level, space | collection (a target id), createdAt}
    teams            id -> {id, organization, title, createdAt, members: {user id: "owner"|"member"}}
    saml             id -> {id, organization, label, entityID, certificate, ssoURL, defaultTeam, defaultRole, ...}
    collections      id -> {id, organization, title, description, parent, defaultLevel, order}
    spaces           id -> {id, organization, parent, title, emoji, visibility, createdAt, updatedAt, deletedAt,
                             editMode, language, revision (current revision id), defaultLevel, mergeRules, order}
    revisions        id -> {id, space, type, parents, createdAt, message, pages: [page tree], files: [file dicts],
                             variables}; a page is {id, title, type, slug, description, emoji, markdown,
                             pages: [children], createdAt, updatedAt, ...}
    change_requests  id -> {id, space, number, status, subject, description (document), createdBy (user id),
                             createdAt, updatedAt, revision, revisionInitial, revisionMergedAncestor,
                             revisionMerged, mergedBy, mergedAt, requestedReviewers: [user id], reviews: [...]}
    comments         id -> {id, space, changeRequest (id or None), postedBy (user id), postedAt, editedAt,
                             body (markdown str), target {page: {id}, node: {id}}, status, resolvedAt, resolvedBy,
                             reactions: [{emoji, users: [{user, reactedAt}]}], replies: [reply records]}
    sites, site_sections, section_groups, site_spaces, site_external_links, adaptive_schemas, share_links
    openapi_specs    org id -> slug -> record (with versions)
    clusters, conversations, conversation_issues, translations, agent_instructions (org id -> record)
"""

from __future__ import annotations

import random
import string
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from folio.sandbox.clock import Clock

Record = dict[str, Any]

_ALPHABET = string.ascii_letters + string.digits


@dataclass(repr=False)
class SandboxState:
    clock: Clock = field(default_factory=Clock)
    seed: int = 7
    api_base: str = "https://api.gitbook.com/v1"
    app_base: str = "https://app.gitbook.com"
    tokens: dict[str, str] = field(default_factory=dict)
    """token -> user id: who a bearer token is (how a test acts as a non-admin). Empty: any bearer token is the
    demo's owner (``default_user``); otherwise a token not in it is refused with 401."""
    default_user: str = ""
    demo_org: str = ""
    """The id of the seeded demo organization (the first one the demo user sees)."""

    users: dict[str, Record] = field(default_factory=dict)
    orgs: dict[str, Record] = field(default_factory=dict)
    members: dict[str, dict[str, Record]] = field(default_factory=lambda: defaultdict(dict))
    invites: dict[str, dict[str, Record]] = field(default_factory=lambda: defaultdict(dict))
    teams: dict[str, Record] = field(default_factory=dict)
    saml: dict[str, Record] = field(default_factory=dict)
    collections: dict[str, Record] = field(default_factory=dict)
    spaces: dict[str, Record] = field(default_factory=dict)
    revisions: dict[str, Record] = field(default_factory=dict)
    change_requests: dict[str, Record] = field(default_factory=dict)
    comments: dict[str, Record] = field(default_factory=dict)
    sites: dict[str, Record] = field(default_factory=dict)
    site_sections: dict[str, Record] = field(default_factory=dict)
    section_groups: dict[str, Record] = field(default_factory=dict)
    site_spaces: dict[str, Record] = field(default_factory=dict)
    site_external_links: dict[str, Record] = field(default_factory=dict)
    adaptive_schemas: dict[str, Record] = field(default_factory=dict)
    share_links: dict[str, Record] = field(default_factory=dict)
    openapi_specs: dict[str, dict[str, Record]] = field(default_factory=lambda: defaultdict(dict))
    clusters: dict[str, Record] = field(default_factory=dict)
    conversations: dict[str, Record] = field(default_factory=dict)
    conversation_issues: dict[str, Record] = field(default_factory=dict)
    translations: dict[str, Record] = field(default_factory=dict)
    agent_instructions: dict[str, Record] = field(default_factory=dict)

    hits: set[tuple[str, str]] = field(default_factory=set)
    """(method, route path) of every request a route answered: lets the test suite prove each was exercised."""

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self._counter = 0

    def __repr__(self) -> str:
        # Never the tokens (they would show in tracebacks' locals), never thousands of records.
        return f"SandboxState(seed={self.seed}, orgs={len(self.orgs)}, spaces={len(self.spaces)})"

    def new_id(self, length: int = 20) -> str:
        """A fresh id in the service's style (letters and digits), deterministic for a seed."""
        self._counter += 1
        return "".join(self.rng.choices(_ALPHABET, k=length))

    def now(self) -> str:
        return self.clock.iso()

    def user_for_token(self, token: str) -> str | None:
        if self.tokens:
            return self.tokens.get(token)
        return self.default_user or None

    def user_json(self, user_id: str) -> Record:
        user = self.users.get(user_id)
        if user is None:
            return {
                "object": "user",
                "id": user_id,
                "displayName": "Unknown user",
                "urls": {"location": f"{self.api_base}/users/{user_id}"},
            }
        return dict(user)
