"""The review service against the seeded sandbox: overviews with reviewers, pages before and after, and the
decisions (reviews, merge, update from main, edits) asserted on what the sandbox now holds."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from folio.api import GitBookClient, RetryPolicy, Token
from folio.api.errors import ApiError, Conflict
from folio.models.change_request import ChangeRequest
from folio.models.common import Page
from folio.sandbox import Faults, SandboxState, SandboxTransport, create_app
from folio.services import Services
from folio.services.review.authoring import ReviewRequestsNotOffered
from folio.services.review.diff import diff_markdown
from folio.services.review.review import (
    ReviewService,
    build_change_set,
    next_status,
    subject_problem,
)
from folio.services.writes import may_have_reached
from tests.conftest import SANDBOX_URL, TOKEN


async def _no_sleep(seconds: float) -> None:
    return None


def cr_of(state: SandboxState, subject: str) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == subject)


def user(state: SandboxState, name: str) -> str:
    return next(uid for uid, u in state.users.items() if u["email"].startswith(name + "@"))


@pytest.fixture
def review(client: GitBookClient) -> ReviewService:
    return Services(client).review


async def test_overview_has_reviewers_and_change_counts(review: ReviewService, state: SandboxState) -> None:
    record = cr_of(state, "Clarify Linux install steps")
    overview = await review.overview(record["space"], record["number"])  # by number
    assert overview.cr.id == record["id"] and overview.cr.status == "open"
    assert overview.counts == {"created": 1, "edited": 1}
    verdicts = {r.name: (r.verdict, r.previous) for r in overview.reviewers}
    assert verdicts == {"Ada Okafor": ("requested", None), "Dana Moreau": ("requested", "changes-requested")}
    waves = cr_of(state, "Explain rollout waves")
    overview = await review.overview(waves["space"], waves["id"])  # by id
    hana = next(r for r in overview.reviewers if r.user_id == user(state, "hana"))
    assert hana.verdict == "changes-requested" and hana.comment == "Can we give an example with numbers?"
    assert overview.approvals == 0


async def test_changes_carry_markdown_before_and_after(review: ReviewService, state: SandboxState) -> None:
    record = cr_of(state, "Clarify Linux install steps")
    cr = await review.change_request(record["space"], record["id"])
    changes = await review.changes(record["space"], cr)
    changed = {p.title: p for p in changes.changed}
    assert set(changed) == {"Linux", "Windows"}
    linux, windows = changed["Linux"], changed["Windows"]
    assert linux.kinds == ("edited",) and linux.path == "installation/linux"
    assert linux.before and "sudo apt update" not in linux.before
    assert linux.after and "sudo apt update" in linux.after and "Debian 12" in linux.after
    assert windows.kinds == ("created",) and windows.before is None and "winget" in (windows.after or "")
    assert linux.url and linux.url.startswith("https://")
    diff = diff_markdown(linux.before, linux.after)
    assert diff.added == 3 and diff.removed == 0
    assert len(changes.pages) > len(changes.changed)  # unchanged pages are there too
    assert all(not p.changed for p in changes.pages if p.title == "Installation")


async def test_deleted_and_moved_pages(review: ReviewService, state: SandboxState) -> None:
    legacy = cr_of(state, "Remove the deprecated Rollouts API page")
    changes = await review.changes(legacy["space"], await review.change_request(legacy["space"], legacy["id"]))
    [gone] = changes.changed
    assert gone.title == "Rollouts API" and gone.kinds == ("deleted",) and gone.after is None and gone.before
    titles = [p.title for p in changes.pages]
    base = [p["title"] for p in state.revisions[legacy["revisionInitial"]]["pages"]]
    assert [t for t in titles if t in base] == [t for t in base if t in titles]  # deleted page kept its place
    weekend = cr_of(state, "Weekend paging rotation")
    changes = await review.changes(weekend["space"], await review.change_request(weekend["space"], weekend["id"]))
    kinds = {p.title: p.kinds for p in changes.changed}
    assert kinds == {"Incident review": ("moved",), "Paging policy": ("edited",)}
    moved = changes.find(next(p.id for p in changes.changed if p.title == "Incident review"))
    assert moved is not None and moved.before == moved.after


async def test_outdated_change_request_diffs_against_its_base(review: ReviewService, state: SandboxState) -> None:
    paging = cr_of(state, "Add pagination to the Robots API")
    cr = await review.change_request(paging["space"], paging["id"])
    assert cr.outdated and cr.base_revision == paging["revisionInitial"]
    changes = await review.changes(paging["space"], cr)
    assert [p.title for p in changes.changed] == ["Robots"]  # main's later "Errors" edit is not its change


async def test_submit_review_is_stored(review: ReviewService, state: SandboxState) -> None:
    record = cr_of(state, "Clarify Linux install steps")
    result = await review.submit(record["space"], record["id"], "approved", "  Looks good.  ")
    assert result.approved
    stored = record["reviews"][-1]
    assert stored["reviewer"] == state.default_user and stored["status"] == "approved"
    assert stored["comment"]["body"] == "Looks good."
    await review.submit(record["space"], record["id"], "changes-requested", "   ")
    assert record["reviews"][-1]["comment"] is None and record["reviews"][-2]["outdated"]


async def test_merge_moves_the_space_revision(review: ReviewService, state: SandboxState) -> None:
    record = cr_of(state, "Failover: lower the DNS TTL first")
    before = state.spaces[record["space"]]["revision"]
    result = await review.merge(record["space"], record["id"])
    assert not result.conflicts and result.revision != before
    assert state.spaces[record["space"]]["revision"] == result.revision
    assert record["status"] == "merged"
    with pytest.raises(Conflict):
        await review.merge(record["space"], record["id"])


async def test_update_from_main_clears_outdated(review: ReviewService, state: SandboxState) -> None:
    record = cr_of(state, "Add pagination to the Robots API")
    result = await review.update_from_main(record["space"], record["id"])
    assert record["revision"] == result.revision
    assert record["revisionMergedAncestor"] == state.spaces[record["space"]]["revision"]
    assert not (await review.change_request(record["space"], record["id"])).outdated


async def test_edits_and_pdf(review: ReviewService, state: SandboxState) -> None:
    record = cr_of(state, "Reorganise troubleshooting")
    await review.rename(record["space"], record["id"], "Reorganise the troubleshooting pages")
    await review.describe(record["space"], record["id"], "Line one\nLine two")
    await review.set_status(record["space"], record["id"], "open")
    assert record["subject"] == "Reorganise the troubleshooting pages" and record["status"] == "open"
    cr = await review.change_request(record["space"], record["id"])
    assert cr.description is not None and cr.description.plain_text() == "Line one\nLine two"
    url = await review.pdf_url(record["space"], record["id"])
    assert url.startswith("https://") and ".pdf" in url


def test_subject_problem_and_next_status() -> None:
    assert subject_problem("Fine") is None
    assert subject_problem("   ") == "The subject cannot be empty."
    problem = subject_problem("x" * 101)
    assert problem is not None and "101" in problem and "100" in problem
    assert [next_status(s) for s in ("draft", "open", "archived", "merged")] == ["open", "archived", "open", None]


def test_build_change_set_counts_body_edits_past_the_change_list() -> None:
    cr = ChangeRequest(id="c", number=1, space="s", revision="r")
    base = [Page(id="a", title="A", markdown="one"), Page(id="b", title="B", markdown="two")]
    head = [Page(id="a", title="A", markdown="one!"), Page(id="c", title="C", markdown="new")]
    result = build_change_set(cr, base, head, [])  # the service's list left them out (its limit)
    assert [(p.id, p.kinds) for p in result.pages] == [("a", ("edited",)), ("b", ("deleted",)), ("c", ("created",))]


# --- review requests taken back ------------------------------------------------------------------------------


def _asked(state: SandboxState, cr_id: str) -> list[str]:
    return list(state.change_requests[cr_id].get("requestedReviewers") or [])


async def test_a_review_request_is_withdrawn(review: ReviewService, state: SandboxState) -> None:
    record = cr_of(state, "Clarify Linux install steps")
    dana = user(state, "dana")
    assert dana in _asked(state, record["id"])
    assert await review.withdraw_request(record["space"], record["id"], dana) is True
    assert dana not in _asked(state, record["id"])
    overview = await review.overview(record["space"], record["id"])
    assert overview.requests_offered and dana not in {r.user_id for r in overview.reviewers if r.verdict == "requested"}
    assert await review.withdraw_request(record["space"], record["id"], dana) is False  # none left: said so
    assert await review.find_withdrawn(record["space"], record["id"], dana) is True


class Sent(httpx.AsyncBaseTransport):
    """Counts the requests sent, by method, before the sandbox gets them (answered or not)."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.methods: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.methods.append(request.method)
        return await self.inner.handle_async_request(request)


async def test_a_withdrawal_whose_answer_was_lost_is_looked_for_not_sent_again(state: SandboxState) -> None:
    faults = Faults(drop_after_write=1.0)  # the withdrawal is applied, its answer lost
    sent = Sent(SandboxTransport(create_app(state, faults=faults)))
    client = GitBookClient(token=Token(TOKEN), base_url=SANDBOX_URL, transport=sent, retry=RetryPolicy(sleep=_no_sleep))
    try:
        review = Services(client).review
        record = cr_of(state, "Clarify Linux install steps")
        dana = user(state, "dana")
        with pytest.raises(ApiError) as lost:
            await review.withdraw_request(record["space"], record["id"], dana)
        assert may_have_reached(lost.value) and dana not in _asked(state, record["id"])
        assert sent.methods.count("DELETE") == 1  # not sent again by the client: its answer would be "there was none"
        faults.drop_after_write = 0.0
        assert await review.find_withdrawn(record["space"], record["id"], dana) is True  # done: found so
        ada = user(state, "ada")
        assert ada in _asked(state, record["id"])
        assert await review.find_withdrawn(record["space"], record["id"], ada) is None  # still asked: send it
    finally:
        await client.aclose()


def _without_review_requests(state: SandboxState) -> Any:
    app = create_app(state)
    app.router.routes = [r for r in app.router.routes if "requested-reviewers" not in getattr(r, "path", "")]
    return app


async def test_a_service_without_review_requests_is_said_so(state: SandboxState) -> None:
    client = GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=SandboxTransport(_without_review_requests(state))
    )
    try:
        review = Services(client).review
        record = cr_of(state, "Clarify Linux install steps")
        overview = await review.overview(record["space"], record["id"])  # the rest of it still loads
        assert overview.requests_offered is False and overview.counts == {"created": 1, "edited": 1}
        assert all(r.verdict != "requested" for r in overview.reviewers)
        with pytest.raises(ReviewRequestsNotOffered, match="does not offer asking for reviewers"):
            await review.withdraw_request(record["space"], record["id"], user(state, "dana"))
        with pytest.raises(ReviewRequestsNotOffered):
            await Services(client).authoring.request_reviewers(record["space"], record["id"], [user(state, "dana")])
    finally:
        await client.aclose()
