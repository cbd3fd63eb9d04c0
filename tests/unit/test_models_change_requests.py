"""Parsing the service's variants of change requests, merge and update results, the change list, reviews and
requested reviewers (shapes from the public OpenAPI description)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import ValidationError

from folio.models.change_request import (
    KNOWN_CHANGE_REQUEST_STATUSES,
    KNOWN_CHANGE_TYPES,
    ChangeRequest,
    ChangeRequestChanges,
    ChangeRequestReview,
    MergeResult,
    PdfLink,
    RequestedReviewer,
    RequestReviewersResult,
    UpdateResult,
)

USER = {"object": "user", "id": "u1", "displayName": "Ada", "urls": {"location": "https://x.test/users/u1"}}
BRUNO = {"object": "user", "id": "u2", "displayName": "Bruno", "urls": {"location": "https://x.test/users/u2"}}
DOC = {
    "object": "document",
    "data": {},
    "nodes": [
        {
            "object": "block",
            "type": "paragraph",
            "data": {},
            "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": "Why this", "marks": []}]}],
        }
    ],
}


def change_request(**over: Any) -> dict[str, Any]:
    """The fields the description requires, and nothing else."""
    base: dict[str, Any] = {
        "object": "change-request",
        "id": "cr1",
        "number": 12,
        "status": "open",
        "subject": "Fix the install guide",
        "createdBy": USER,
        "createdAt": "2026-10-01T10:00:00.000Z",
        "updatedAt": "2026-10-02T10:00:00.000Z",
        "space": "s1",
        "revision": "r2",
        "revisionInitial": "r1",
        "comments": 3,
        "outdated": False,
        "urls": {"app": "https://app.test/cr/12", "location": "https://api.test/spaces/s1/change-requests/cr1"},
    }
    base.update(over)
    return base


def test_change_request_required_fields() -> None:
    cr = ChangeRequest.model_validate(change_request())
    assert (cr.id, cr.number, cr.status, cr.subject, cr.space) == ("cr1", 12, "open", "Fix the install guide", "s1")
    assert cr.created_by is not None and cr.created_by.display_name == "Ada"
    assert cr.created_at == datetime(2026, 10, 1, 10, tzinfo=UTC)
    assert (cr.revision, cr.revision_initial, cr.base_revision) == ("r2", "r1", "r1")
    assert cr.comments == 3 and cr.outdated is False and cr.is_active and cr.title == "#12 Fix the install guide"
    assert cr.description is None and cr.merged_by is None and cr.links == []


def test_change_request_merged_with_every_optional_field() -> None:
    cr = ChangeRequest.model_validate(
        change_request(
            status="merged",
            description=DOC,
            mergedBy=BRUNO,
            mergedAt="2026-10-03T10:00:00.000Z",
            revisionMergedAncestor="r3",
            revisionMerged="r4",
            siteTopic={"site": "site1", "topic": "t1"},
            styleguide={"site": "site1", "run": "run1", "changedPages": 2},
            links=[{"id": "l1", "ref": {"kind": "url", "url": "https://jira.test/X-1"}}],
            imports=[{"object": "import-run", "id": "i1", "status": "completed"}],
            conversationsIssuesCluster="cl1",
        )
    )
    assert cr.status == "merged" and not cr.is_active
    assert cr.description is not None and cr.description.plain_text() == "Why this"
    assert cr.merged_by is not None and cr.merged_by.id == "u2"
    assert cr.base_revision == "r3" and cr.revision_merged == "r4"
    assert cr.site_topic == {"site": "site1", "topic": "t1"} and cr.styleguide is not None
    assert len(cr.links) == 1 and len(cr.imports) == 1 and cr.conversations_issues_cluster == "cl1"


@pytest.mark.parametrize("status", [*KNOWN_CHANGE_REQUEST_STATUSES, "in-review"])
def test_change_request_status_is_open_ended(status: str) -> None:
    assert ChangeRequest.model_validate(change_request(status=status)).status == status


def test_change_request_lenient_but_strict_on_ids() -> None:
    sparse = ChangeRequest.model_validate({"id": "cr2", "number": 1, "space": "s1", "newField": {"x": 1}})
    assert sparse.subject == "" and sparse.title == "#1 Untitled" and sparse.model_extra == {"newField": {"x": 1}}
    for missing in ("id", "number", "space"):
        data = change_request()
        del data[missing]
        with pytest.raises(ValidationError):
            ChangeRequest.model_validate(data)


def test_merge_update_and_pdf_answers() -> None:
    merged = MergeResult.model_validate({"revision": "r9", "result": "merge"})
    assert merged.revision == "r9" and not merged.conflicts
    assert MergeResult.model_validate({"revision": "r9", "result": "conflicts"}).conflicts
    updated = UpdateResult.model_validate({"revision": "r8", "result": "update"})
    assert updated.revision == "r8" and not updated.conflicts
    with pytest.raises(ValidationError):
        UpdateResult.model_validate({"revision": "r8", "result": "merge"})
    assert PdfLink.model_validate({"url": "https://pdf.test/x.pdf"}).url == "https://pdf.test/x.pdf"


def test_change_list_variants() -> None:
    page = {"id": "p1", "type": "document", "title": "Linux", "path": "installation/linux"}
    file = {"id": "f1", "name": "diagram.png", "contentType": "image/png", "downloadURL": "https://f.test/d.png"}
    answer = ChangeRequestChanges.model_validate(
        {
            "changes": [
                {"type": "page_created", "page": page},
                {
                    "type": "page_edited",
                    "page": page,
                    "attributes": {"title": {"before": "A", "after": "B"}, "document": {"after": "doc-2"}},
                },
                {"type": "page_deleted", "page": {"id": "p2", "type": "group", "title": "Old"}},
                {
                    "type": "page_moved",
                    "page": page,
                    "parent": {"after": {"id": "p3", "type": "document", "title": "Guides"}},
                },
                {"type": "file_edited", "file": file, "attributes": {"size": {"before": 1, "after": 2}}},
                {"type": "variables_edited", "variables": {"version": {"before": "1", "after": "2"}}},
                {"type": "tag_created", "tag": {"id": "t1", "title": "beta"}},
                {"type": "something_new", "whatever": True},
            ],
            "more": 4,
            "mergedFrom": change_request(),
        }
    )
    created, edited, deleted, moved, file_edit, variables, tag, unknown = answer.changes
    assert (created.type, created.subject) == ("page_created", "installation/linux")
    assert edited.attributes["title"].before == "A" and edited.attributes["document"].before is None
    assert deleted.page is not None and deleted.page.type == "group" and deleted.subject == "Old"
    assert moved.parent is not None and moved.parent.before is None and moved.parent.after is not None
    assert file_edit.file is not None and file_edit.file.download_url == "https://f.test/d.png"
    assert file_edit.subject == "diagram.png" and file_edit.attributes["size"].after == 2
    assert variables.subject == "version" and tag.subject == "beta"
    assert unknown.type not in KNOWN_CHANGE_TYPES and unknown.subject == ""
    assert answer.more == 4 and answer.merged_from is not None and answer.merged_from.id == "cr1"


def review(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "object": "change-request-review",
        "id": "rv1",
        "revision": "r2",
        "reviewer": USER,
        "status": "approved",
        "outdated": False,
        "createdAt": "2026-10-02T10:00:00.000Z",
        "updatedAt": "2026-10-02T10:00:00.000Z",
        "urls": {"location": "https://api.test/reviews/rv1"},
    }
    base.update(over)
    return base


def test_review_without_and_with_comment() -> None:
    plain = ChangeRequestReview.model_validate(review())
    assert plain.approved and plain.comment is None and plain.requested_by is None
    comment = {
        "object": "comment",
        "id": "c1",
        "postedBy": BRUNO,
        "postedAt": "2026-10-02T10:00:00.000Z",
        "reactions": [],
        "replies": 0,
        "repliers": [],
        "body": {"document": DOC},
        "target": {"space": "s1", "revision": "r2", "changeRequest": "cr1", "review": "rv2"},
        "urls": {"location": "https://api.test/comments/c1"},
        "permissions": {"view": True, "edit": False, "delete": False},
        "status": "open",
    }
    asked = ChangeRequestReview.model_validate(
        review(id="rv2", status="changes-requested", outdated=True, requestedBy=BRUNO, comment=comment)
    )
    assert not asked.approved and asked.outdated and asked.requested_by is not None
    assert asked.comment is not None and asked.comment.text == "Why this"
    assert asked.comment.target.review == "rv2"
    markdown = ChangeRequestReview.model_validate(review(comment={**comment, "body": {"markdown": "Ship it"}}))
    assert markdown.comment is not None and markdown.comment.text == "Ship it"
    with pytest.raises(ValidationError):
        ChangeRequestReview.model_validate(review(status="commented"))


def test_requested_reviewers_user_and_team() -> None:
    common = {
        "object": "change-request-requested-reviewer",
        "revision": "r2",
        "requestedBy": BRUNO,
        "createdAt": "2026-10-02T10:00:00.000Z",
    }
    result = RequestReviewersResult.model_validate(
        {
            "users": [
                {**common, "kind": "user", "user": USER},
                {**common, "kind": "team", "team": {"object": "team", "id": "t1"}},
            ]
        }
    )
    person, team = result.users
    assert isinstance(person, RequestedReviewer) and (person.reviewer_id, person.name) == ("u1", "Ada")
    assert team.kind == "team" and (team.reviewer_id, team.name) == ("t1", "t1")
    assert person.requested_by is not None and person.requested_by.id == "u2" and person.revision == "r2"
    assert RequestedReviewer.model_validate({"kind": "group"}).reviewer_id is None
