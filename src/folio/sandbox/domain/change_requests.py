"""Change requests (spec 2.6, 4.9): finding and rendering records, and what open, merge and update do (the
routes and the seed share them).

A record in ``state.change_requests`` holds the keys documented in :mod:`folio.sandbox.state` and these of its
own: ``contributors`` (user ids), ``reviewRequests`` (user id -> ``{requestedBy, revision, createdAt}``, the
details of ``requestedReviewers``) and ``conversationsIssuesCluster``. A review (in ``reviews``) is
``{id, reviewer, requestedBy, status, revision, outdated, comment, createdAt, updatedAt}``; its ``comment`` is
None or ``{id, body (markdown), postedAt}``.

``outdated`` is derived: the space's current revision is no longer the one the change request starts from
(``revisionMergedAncestor``, else ``revisionInitial``). A merge revision carries ``mergedFrom`` (the change
request id). Reviews are in :mod:`folio.sandbox.domain.reviews`.

A merge obeys the merge rules the space reports (the organization's when the space inherits): see
:func:`merge_blockers`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from starlette.requests import Request

from folio.sandbox.domain.access import RANK, rank_of
from folio.sandbox.domain.spaces import find_space
from folio.sandbox.errors import bad_request, conflict, forbidden, not_found
from folio.sandbox.http import state_of
from folio.sandbox.revisions import clone_pages, keep_edits, new_revision, three_way
from folio.sandbox.state import Record, SandboxState

KNOWN_STATUSES = ("draft", "open", "archived", "merged")
SUBJECT_MAX = 100
# The status changes a PATCH may make; merging goes through the merge operation.
TRANSITIONS: dict[str, tuple[str, ...]] = {
    "draft": ("open", "archived"),
    "open": ("draft", "archived"),
    "archived": ("open",),
    "merged": (),
}

# --- records ------------------------------------------------------------------------------------------------


def find_change_request(state: SandboxState, space_id: str, ref: str) -> Record:
    """A change request of the space by id or by its number in the space (404 when neither matches)."""
    record = state.change_requests.get(ref)
    if record is not None and record["space"] == space_id:
        return record
    for record in state.change_requests.values():
        if record["space"] == space_id and str(record["number"]) == ref:
            return record
    raise not_found(f"No matching change request found for {ref!r}")


def require_rank(state: SandboxState, cr_or_space: Record, user: str, role: str, doing: str) -> None:
    """403 unless ``user``'s role in the space's organization is at least ``role``."""
    space = state.spaces[cr_or_space.get("space") or cr_or_space["id"]]
    if rank_of(state, space["organization"], user) < RANK[role]:
        raise forbidden(f"You need the {role} role or above to {doing}")


def base_revision_id(cr: Record) -> str:
    return cr.get("revisionMergedAncestor") or cr["revisionInitial"]


def is_outdated(state: SandboxState, cr: Record) -> bool:
    return cr["status"] != "merged" and state.spaces[cr["space"]]["revision"] != base_revision_id(cr)


def open_comment_counts(state: SandboxState) -> Counter[str]:
    """Change request id -> how many of its comments are not resolved."""
    return Counter(
        c["changeRequest"] for c in state.comments.values() if c.get("changeRequest") and c.get("status") != "resolved"
    )


def render_change_request(state: SandboxState, cr: Record, counts: Counter[str] | None = None) -> Record:
    """The wire ChangeRequest of a record (``counts``: :func:`open_comment_counts`, when rendering many)."""
    org = state.spaces[cr["space"]]["organization"]
    out: Record = {
        "object": "change-request",
        "id": cr["id"],
        "number": cr["number"],
        "status": cr["status"],
        "subject": cr.get("subject") or "",
        "createdBy": state.user_json(cr["createdBy"]),
        "createdAt": cr["createdAt"],
        "updatedAt": cr["updatedAt"],
        "space": cr["space"],
        "revision": cr["revision"],
        "revisionInitial": cr["revisionInitial"],
        "comments": (counts if counts is not None else open_comment_counts(state)).get(cr["id"], 0),
        "outdated": is_outdated(state, cr),
        "urls": {
            "app": f"{state.app_base}/o/{org}/s/{cr['space']}/~/changes/{cr['number']}/",
            "location": f"{state.api_base}/spaces/{cr['space']}/change-requests/{cr['id']}",
        },
    }
    for key in ("description", "revisionMergedAncestor", "revisionMerged", "mergedAt", "conversationsIssuesCluster"):
        if cr.get(key):
            out[key] = cr[key]
    if cr.get("mergedBy"):
        out["mergedBy"] = state.user_json(cr["mergedBy"])
    return out


def check_document(body: dict[str, Any], name: str) -> Record | None:
    """A rich-text document field of a request body (400 naming the field when it is not one)."""
    value = body.get(name)
    if name in body and not (
        isinstance(value, dict) and value.get("object") == "document" and isinstance(value.get("nodes"), list)
    ):
        raise bad_request(f"{name} must be a document ({{object: document, data, nodes}})")
    return value


# --- what the operations do (the seed does them too) --------------------------------------------------------


def open_change_request(
    state: SandboxState,
    space_id: str,
    user: str,
    *,
    subject: str = "",
    number: int | None = None,
    at: str | None = None,
) -> Record:
    """A new draft on the space's current revision; its own revision is a copy of it."""
    initial = state.revisions[state.spaces[space_id]["revision"]]
    when = at or state.now()
    revision = new_revision(
        state,
        space_id,
        clone_pages(initial["pages"]),
        parents=[initial["id"]],
        at=when,
        files=[dict(f) for f in initial.get("files") or []],
        variables=dict(initial.get("variables") or {}),
    )
    if number is None:
        numbers = (c["number"] for c in state.change_requests.values() if c["space"] == space_id)
        number = 1 + max(numbers, default=0)
    record: Record = {
        "id": state.new_id(),
        "space": space_id,
        "number": number,
        "status": "draft",
        "subject": subject,
        "description": None,
        "createdBy": user,
        "createdAt": when,
        "updatedAt": when,
        "revision": revision,
        "revisionInitial": initial["id"],
        "revisionMergedAncestor": None,
        "revisionMerged": None,
        "mergedBy": None,
        "mergedAt": None,
        "requestedReviewers": [],
        "reviewRequests": {},
        "reviews": [],
        "contributors": [user],
        "conversationsIssuesCluster": None,
    }
    state.change_requests[record["id"]] = record
    return record


def merge_change_request(state: SandboxState, cr: Record, user: str, *, at: str | None = None) -> str:
    """The change request's changes since its base, applied onto the space's current content as a new space
    revision of type ``merge``; the change request becomes ``merged``. Returns the new revision's id."""
    space = state.spaces[cr["space"]]
    base, main = state.revisions[base_revision_id(cr)], state.revisions[space["revision"]]
    theirs = state.revisions[cr["revision"]]
    pages = three_way(base["pages"], main["pages"], theirs["pages"])
    when = at or state.now()
    rid = new_revision(  # change requests cannot change files or variables here: main's stay
        state,
        cr["space"],
        pages,
        parents=[main["id"], theirs["id"]],
        rev_type="merge",
        at=when,
        message=f"Merge change request #{cr['number']}: {cr.get('subject') or 'Untitled'}",
        files=[dict(f) for f in main.get("files") or []],
        variables=dict(main.get("variables") or {}),
        extra={"mergedFrom": cr["id"]},
    )
    space.update(revision=rid, updatedAt=when)
    cr.update(status="merged", revisionMerged=rid, mergedBy=user, mergedAt=when, updatedAt=when)
    return rid


def update_change_request(state: SandboxState, cr: Record, *, at: str | None = None) -> str:
    """Main's changes since the change request's base brought into it (its own edits and moves win), as a new
    revision of type ``update``. Returns the change request's revision (the same when it was up to date)."""
    main_id = state.spaces[cr["space"]]["revision"]
    if main_id == base_revision_id(cr):
        return str(cr["revision"])
    base, main = state.revisions[base_revision_id(cr)], state.revisions[main_id]
    ours = state.revisions[cr["revision"]]
    pages = three_way(base["pages"], ours["pages"], main["pages"])
    keep_edits(base["pages"], ours["pages"], pages)
    when = at or state.now()
    rid = new_revision(
        state,
        cr["space"],
        pages,
        parents=[ours["id"], main_id],
        rev_type="update",
        at=when,
        message="Update from main content",
        files=[dict(f) for f in main.get("files") or []],
        variables=dict(main.get("variables") or {}),
    )
    cr.update(revision=rid, revisionMergedAncestor=main_id, updatedAt=when)
    return rid


def cr_from_path(request: Request) -> Record:
    """The change request the path names, in a live space (404 otherwise)."""
    state, params = state_of(request), request.path_params
    space = find_space(state, params["spaceId"])
    return find_change_request(state, space["id"], params["changeRequestId"])


def still_active(cr: Record, doing: str) -> None:
    if cr["status"] in ("merged", "archived"):
        raise conflict(f"The change request is {cr['status']}: it cannot be {doing}")


# --- merge rules --------------------------------------------------------------------------------------------


def merge_rules_of(state: SandboxState, space: Record) -> list[Record]:
    """The rules a merge in ``space`` obeys: the space's own, or its organization's when it inherits (none for
    ``{type: none}``)."""
    rules = space.get("mergeRules") or {"type": "inherit"}
    if rules.get("type") == "inherit":
        rules = state.orgs.get(space["organization"], {}).get("mergeRules") or {"type": "none"}
    return [r for r in rules.get("rules") or [] if isinstance(r, dict)] if rules.get("type") == "rules" else []


def _verdicts(cr: Record) -> dict[str, str]:
    """Reviewer -> the status of their latest review that is not outdated."""
    out: dict[str, str] = {}
    for review in cr.get("reviews") or []:  # oldest first: a later one replaces an earlier one
        if not review.get("outdated"):
            out[review["reviewer"]] = review["status"]
    return out


def _name(state: SandboxState, uid: str) -> str:
    user = state.users.get(uid) or {}
    return str(user.get("displayName") or user.get("email") or uid)


def merge_blockers(state: SandboxState, cr: Record, user: str) -> list[str]:
    """Why ``user`` may not merge ``cr`` under the merge rules, one sentence a broken rule (empty: it may).

    A reviewer's say is their latest review that is not outdated. ``allow_bypass`` lets its users merge whatever
    the other rules say. Not enforced here: ``custom`` (an expression of the service's own syntax) and
    ``require_agent_review`` (the sandbox has no agent)."""
    rules = merge_rules_of(state, state.spaces[cr["space"]])
    if any(r.get("rule") == "allow_bypass" and user in (r.get("users") or []) for r in rules):
        return []
    verdicts = _verdicts(cr)
    approved = {uid for uid, status in verdicts.items() if status == "approved"}
    out: list[str] = []
    for rule in rules:
        name, users = rule.get("rule"), [u for u in rule.get("users") or [] if isinstance(u, str)]
        if name == "require_specific_reviewers" and (missing := [u for u in users if u not in approved]):
            out.append(f"{', '.join(_name(state, u) for u in missing)} must approve it (require_specific_reviewers)")
        elif name == "require_one_of_specific_reviewers" and users and not approved & set(users):
            who = " or ".join(_name(state, u) for u in users)
            out.append(f"{who} must approve it (require_one_of_specific_reviewers)")
        elif name == "require_at_least_one_review" and not verdicts:
            out.append("it needs a review (require_at_least_one_review)")
        elif name == "require_at_least_one_approved_review" and not approved:
            out.append("it needs an approval (require_at_least_one_approved_review)")
        elif name == "require_all_reviews_approved" and set(verdicts) - approved:
            out.append("every review must approve it (require_all_reviews_approved)")
        elif name == "require_up_to_date_change_request" and is_outdated(state, cr):
            out.append("it must be updated from main first (require_up_to_date_change_request)")
        elif name == "require_change_request_subject" and not (cr.get("subject") or "").strip():
            out.append("it needs a subject (require_change_request_subject)")
        elif name == "require_change_request_description" and not _has_text(cr.get("description")):
            out.append("it needs a description (require_change_request_description)")
        elif name == "require_author_to_merge" and user != cr["createdBy"]:
            out.append(f"only its author, {_name(state, cr['createdBy'])}, may merge it (require_author_to_merge)")
    return out


def _has_text(node: Any) -> bool:
    """Whether a rich-text document (or any part of one) holds some non-blank text."""
    if isinstance(node, dict):
        if isinstance(node.get("text"), str) and node["text"].strip():
            return True
        return any(_has_text(v) for k, v in node.items() if k in ("nodes", "leaves"))
    if isinstance(node, list):
        return any(_has_text(v) for v in node)
    return False
