"""Parsing the service's variants of comments, replies and commenters (shapes from the public description)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from folio.models.comment import KNOWN_COMMENT_STATUSES, Comment, Commenter, CommentReply
from folio.models.member import Member

USER = {"object": "user", "id": "u1", "displayName": "Ada", "urls": {"location": "https://x.test/users/u1"}}
OTHER = {
    "object": "user",
    "id": "u2",
    "displayName": "Bruno",
    "photoURL": "https://x.test/b.png",
    "urls": {"location": "https://x.test/users/u2"},
}
DOC = {
    "object": "document",
    "data": {},
    "nodes": [
        {
            "object": "block",
            "type": "paragraph",
            "data": {},
            "nodes": [{"object": "text", "leaves": [{"object": "leaf", "text": "Hello world", "marks": []}]}],
        }
    ],
}


def comment(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "object": "comment",
        "id": "c1",
        "postedBy": USER,
        "postedAt": "2026-10-01T10:00:00.000Z",
        "reactions": [],
        "replies": 0,
        "repliers": [],
        "body": {"markdown": "Typo"},
        "target": {"space": "s1", "revision": "r1"},
        "urls": {"location": "https://x.test/c1"},
        "permissions": {"view": True, "edit": False, "delete": False},
        "status": "open",
    }
    base.update(over)
    return base


def test_open_comment_on_a_space() -> None:
    c = Comment.model_validate(comment())
    assert c.status == "open" and not c.resolved and c.text == "Typo"
    assert c.target.space == "s1" and c.change_request is None and c.page_id is None
    assert c.permissions.reply is False  # the service may leave ``reply`` out
    assert c.posted_at == datetime(2026, 10, 1, 10, tzinfo=UTC)


def test_resolved_comment_in_a_change_request_with_everything() -> None:
    c = Comment.model_validate(
        comment(
            status="resolved",
            resolvedAt="2026-10-02T10:00:00Z",
            resolvedBy=OTHER,
            editedAt="2026-10-01T11:00:00Z",
            target={
                "space": "s1",
                "revision": "r2",
                "changeRequest": "cr1",
                "review": "rv1",
                "page": {"id": "p1"},
                "node": {"id": "n1"},
                "tableCell": {"record": "rec", "definition": "def"},
            },
            replies=3,
            repliers=[
                {"updatedAt": "2026-10-01T12:00:00Z", "count": 2, "user": OTHER},
                {"updatedAt": "2026-10-01T11:30:00Z", "count": 1, "user": USER},
            ],
            reactions=[
                {
                    "emoji": "👍",
                    "count": 2,
                    "users": [
                        {"user": USER, "reactedAt": "2026-10-01T10:05:00Z"},
                        {"user": OTHER, "reactedAt": "2026-10-01T10:06:00Z"},
                    ],
                }
            ],
            permissions={"view": True, "edit": True, "reply": True, "delete": True},
        )
    )
    assert c.resolved and c.resolved_by and c.resolved_by.photo_url == "https://x.test/b.png"
    assert c.change_request == "cr1" and c.target.review == "rv1" and c.page_id == "p1"
    assert c.target.node and c.target.node.id == "n1"
    assert c.target.table_cell and c.target.table_cell.definition == "def"
    assert c.replies == 3 and [r.count for r in c.repliers] == [2, 1]
    thumbs = c.reaction("👍")
    assert thumbs and thumbs.count == 2 and thumbs.by("u2") and not thumbs.by("u3")
    assert c.edited_at is not None and c.permissions.edit


@pytest.mark.parametrize(
    ("body", "text"),
    [({"markdown": "**bold**"}, "**bold**"), ({"document": DOC}, "Hello world"), ({}, "")],
)
def test_body_variants(body: dict[str, Any], text: str) -> None:
    assert Comment.model_validate(comment(body=body)).text == text
    reply = CommentReply.model_validate(
        {
            "object": "comment-reply",
            "id": "r1",
            "postedBy": USER,
            "postedAt": "2026-10-01T10:00:00Z",
            "reactions": [],
            "body": body,
            "urls": {"location": "https://x.test/r1"},
            "permissions": {"view": True, "edit": True, "delete": True},
        }
    )
    assert reply.text == text and reply.object == "comment-reply"


def test_unknown_fields_and_statuses_do_not_crash() -> None:
    c = Comment.model_validate(comment(status="archived", futureField={"a": 1}, target={"space": "s", "x": 1}))
    assert c.status == "archived" and c.status not in KNOWN_COMMENT_STATUSES
    assert c.model_extra and c.model_extra["futureField"] == {"a": 1}


def test_lenient_where_the_service_may_omit() -> None:
    c = Comment.model_validate({"id": "c9"})
    assert c.replies == 0 and c.reactions == [] and c.status == "open" and c.text == ""
    with pytest.raises(ValueError):
        Comment.model_validate({"object": "comment"})  # an id is required


def test_commenter_is_an_organization_member() -> None:
    m = Commenter.model_validate(
        {
            "object": "member",
            "id": "u1",
            "role": None,
            "user": USER,
            "disabled": False,
            "joinedAt": "2025-01-01T00:00:00Z",
            "sso": False,
            "spaces": 0,
            "teams": 1,
            "sites": 0,
        }
    )
    assert isinstance(m, Member) and m.role is None and m.user.display_name == "Ada"


def test_wire_round_trip_uses_camel_case() -> None:
    wire = Comment.model_validate(comment(editedAt="2026-10-01T11:00:00Z")).to_wire()
    assert "postedBy" in wire and "editedAt" in wire and "posted_by" not in wire
