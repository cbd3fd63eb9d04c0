"""Reviewing a change request through the real client to the sandbox: the change list, reviews and requested
reviewers, asserting on the returned models and on what the sandbox now holds."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient, Token, errors
from folio.models.change_request import ChangeRequestReview, RequestedReviewer
from folio.models.common import Document
from folio.sandbox import SandboxState, SandboxTransport, create_app
from tests.conftest import SANDBOX_URL, TOKEN


def cr_of(state: SandboxState, subject: str) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == subject)


def user(state: SandboxState, name: str) -> str:
    return next(uid for uid, u in state.users.items() if u["email"].startswith(name + "@"))


# --- the change list ------------------------------------------------------------------------------------------


async def test_changes_of_an_edit_and_a_new_page(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Clarify Linux install steps")
    result = await client.change_requests.changes(record["space"], record["number"])
    kinds = {(c.type, c.subject) for c in result.changes}
    assert kinds == {("page_edited", "installation/linux"), ("page_created", "installation/windows")}
    edited = next(c for c in result.changes if c.type == "page_edited")
    assert edited.page is not None and edited.page.title == "Linux" and edited.page.type == "document"
    document = edited.attributes["document"]
    assert document.before != document.after and str(document.after).startswith("doc-")
    assert result.more is None


async def test_changes_of_a_move_and_a_deletion(client: GitBookClient, state: SandboxState) -> None:
    moved = cr_of(state, "Reorganise troubleshooting")
    result = await client.change_requests.changes(moved["space"], moved["id"])
    move = next(c for c in result.changes if c.type == "page_moved")
    assert move.page is not None and move.page.title == "Troubleshooting"
    assert move.parent is not None and move.parent.before is None
    assert move.parent.after is not None and move.parent.after.title == "Your first robot"
    assert [c.type for c in result.changes].count("page_moved") == 1  # siblings that shifted are not moves
    deleted = cr_of(state, "Remove the deprecated Rollouts API page")
    gone = await client.change_requests.changes(deleted["space"], deleted["id"])
    assert [(c.type, c.page.title if c.page else None) for c in gone.changes] == [("page_deleted", "Rollouts API")]


async def test_changes_limit(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Clarify Linux install steps")
    one = await client.change_requests.changes(record["space"], record["id"], limit=1)
    assert len(one.changes) == 1 and one.more == 1
    with pytest.raises(errors.InvalidRequest):
        await client.change_requests.changes(record["space"], record["id"], limit=0)
    with pytest.raises(errors.BadRequest):
        await client.request_json(
            "GET", f"/spaces/{record['space']}/change-requests/{record['id']}/changes", params={"limit": 0}
        )
    with pytest.raises(errors.NotFound):
        await client.change_requests.changes(record["space"], "4040")


# --- reviews ------------------------------------------------------------------------------------------------


async def test_list_and_get_reviews(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Clarify Linux install steps")
    reviews = await client.reviews.list(record["space"], record["number"]).collect()
    assert len(reviews) == 1
    review = reviews[0]
    assert review.status == "changes-requested" and review.outdated is True  # Dana was asked again since
    assert review.reviewer is not None and review.reviewer.id == user(state, "dana")
    assert review.requested_by is not None and review.requested_by.id == user(state, "chen")
    assert review.comment is not None and review.comment.text == "Please say which Ubuntu versions are supported."
    assert await client.reviews.list(record["space"], record["id"], outdated=False).collect() == []
    same = await client.reviews.get(record["space"], record["id"], review.id, format="document")
    assert same.id == review.id and same.comment is not None and same.comment.body is not None
    assert same.comment.body.document is not None
    assert same.comment.text == "Please say which Ubuntu versions are supported."
    with pytest.raises(errors.NotFound):
        await client.reviews.get(record["space"], record["id"], "no-such-review")


async def test_submit_review(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Weekend paging rotation")
    me = state.default_user
    assert me in record["requestedReviewers"]
    review = await client.reviews.submit(record["space"], record["number"], "changes-requested", comment="Who covers?")
    assert isinstance(review, ChangeRequestReview)
    assert (review.status, review.outdated, review.revision) == ("changes-requested", False, record["revision"])
    assert review.requested_by is not None and review.requested_by.id == user(state, "emeka")
    assert review.comment is not None and review.comment.text == "Who covers?"
    assert me not in record["requestedReviewers"]
    stored = record["reviews"][-1]
    assert (stored["reviewer"], stored["comment"]["body"]) == (me, "Who covers?")
    second = await client.reviews.submit(record["space"], record["id"], comment=Document.from_text("Fine now"))
    assert second.approved and second.comment is not None and second.comment.text == "Fine now"
    assert stored["outdated"] is True and record["reviews"][-1]["outdated"] is False
    mine = [
        r
        for r in await client.reviews.list(record["space"], record["id"]).collect()
        if r.reviewer and r.reviewer.id == me
    ]
    assert [(r.status, r.outdated) for r in mine] == [("approved", False), ("changes-requested", True)]


async def test_submit_review_refusals(client: GitBookClient, state: SandboxState) -> None:
    merged = cr_of(state, "Document the canary channel")
    with pytest.raises(errors.Conflict):
        await client.reviews.submit(merged["space"], merged["id"])
    record = cr_of(state, "Explain rollout waves")
    count = len(record["reviews"])
    with pytest.raises(errors.InvalidRequest):
        await client.reviews.submit(record["space"], record["id"], "rejected")  # type: ignore[arg-type]
    url = f"/spaces/{record['space']}/change-requests/{record['id']}/reviews"
    for bad in ({"status": "rejected"}, {"status": "approved", "comment": "text"}, {}):
        with pytest.raises(errors.BadRequest):
            await client.request_json("POST", url, json=bad)
    assert len(record["reviews"]) == count


async def test_only_reviewers_may_review(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Explain rollout waves")
    ivan = user(state, "ivan")  # a reader
    state.tokens = {TOKEN: ivan}
    with pytest.raises(errors.Forbidden):
        await client.reviews.submit(record["space"], record["id"])
    state.tokens = {}
    await client.reviews.request_reviewers(record["space"], record["id"], [ivan])
    state.tokens = {TOKEN: ivan}
    review = await client.reviews.submit(record["space"], record["id"])
    assert review.reviewer is not None and review.reviewer.id == ivan and ivan not in record["requestedReviewers"]


# --- requested reviewers ------------------------------------------------------------------------------------


async def test_requested_reviewers(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Clarify Linux install steps")
    asked = await client.reviews.requested_reviewers(record["space"], record["number"]).collect()
    assert {r.reviewer_id for r in asked} == {state.default_user, user(state, "dana")}
    assert all(isinstance(r, RequestedReviewer) and r.kind == "user" for r in asked)
    dana = next(r for r in asked if r.reviewer_id == user(state, "dana"))
    assert dana.requested_by is not None and dana.requested_by.id == user(state, "chen")
    assert dana.name == "Dana Moreau" and dana.revision == record["revision"]


async def test_request_reviewers_opens_a_draft(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "December 2026 release notes")
    hana, bruno = user(state, "hana"), user(state, "bruno")
    sent = await client.reviews.request_reviewers(record["space"], record["id"], [hana, bruno], subject="Dec notes")
    assert [r.reviewer_id for r in sent] == [hana, bruno]
    assert sent[0].requested_by is not None and sent[0].requested_by.id == state.default_user
    assert record["requestedReviewers"] == [hana, bruno] and record["status"] == "open"
    assert record["subject"] == "Dec notes"
    cr = await client.change_requests.get(record["space"], record["id"])
    assert cr.status == "open"


async def test_request_reviewers_refusals(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Failover: lower the DNS TTL first")
    before = list(record["requestedReviewers"])
    with pytest.raises(errors.InvalidRequest):
        await client.reviews.request_reviewers(record["space"], record["id"], [])
    with pytest.raises(errors.InvalidRequest):
        await client.reviews.request_reviewers(record["space"], record["id"], [user(state, "hana")], subject="s" * 101)
    with pytest.raises(errors.BadRequest):
        await client.reviews.request_reviewers(record["space"], record["id"], ["not-a-member"])
    with pytest.raises(errors.BadRequest):
        await client.request_json(
            "POST",
            f"/spaces/{record['space']}/change-requests/{record['id']}/requested-reviewers",
            json={"users": "hana"},
        )
    assert record["requestedReviewers"] == before
    archived = cr_of(state, "Refresh the welcome page")
    with pytest.raises(errors.Conflict):
        await client.reviews.request_reviewers(archived["space"], archived["id"], [user(state, "hana")])
    assert archived["requestedReviewers"] == []


async def test_remove_requested_reviewer(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Failover: lower the DNS TTL first")
    bruno = user(state, "bruno")
    assert await client.reviews.remove_requested_reviewer(record["space"], record["number"], bruno) is True
    assert bruno not in record["requestedReviewers"] and bruno not in record["reviewRequests"]
    assert await client.reviews.remove_requested_reviewer(record["space"], record["id"], bruno) is False
    assert await client.reviews.requested_reviewers(record["space"], record["id"]).collect() == []
    with pytest.raises(errors.NotFound):
        await client.reviews.remove_requested_reviewer(record["space"], "no-such-cr", bruno)


async def test_only_editors_ask_for_reviewers_or_take_a_request_back(
    client: GitBookClient, state: SandboxState
) -> None:
    record = cr_of(state, "Failover: lower the DNS TTL first")
    bruno, hana = user(state, "bruno"), user(state, "hana")
    before = list(record["requestedReviewers"])
    state.tokens = {TOKEN: user(state, "ivan")}  # a reader
    with pytest.raises(errors.Forbidden):
        await client.reviews.remove_requested_reviewer(record["space"], record["id"], bruno)
    with pytest.raises(errors.Forbidden):
        await client.reviews.request_reviewers(record["space"], record["id"], [hana])
    assert record["requestedReviewers"] == before


async def test_a_service_without_review_requests_raises_not_offered(state: SandboxState) -> None:
    app = create_app(state)
    app.router.routes = [r for r in app.router.routes if "requested-reviewers" not in getattr(r, "path", "")]
    client = GitBookClient(token=Token(TOKEN), base_url=SANDBOX_URL, transport=SandboxTransport(app))
    record = cr_of(state, "Failover: lower the DNS TTL first")
    try:
        with pytest.raises(errors.NotFound) as missing:  # no such change request: not found, not "not offered"
            await client.reviews.requested_reviewers(record["space"], "no-such-cr").collect()
        assert not isinstance(missing.value, errors.NotOffered)
        with pytest.raises(errors.NotOffered):
            await client.reviews.requested_reviewers(record["space"], record["id"]).collect()
        with pytest.raises(errors.NotOffered):  # known now: later calls fail at once
            await client.reviews.remove_requested_reviewer(record["space"], record["id"], user(state, "bruno"))
        with pytest.raises(errors.NotOffered):
            await client.reviews.request_reviewers(record["space"], record["id"], [user(state, "hana")])
    finally:
        await client.aclose()
