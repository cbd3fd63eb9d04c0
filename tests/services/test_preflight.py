"""The merge pre-flight against the seeded sandbox: the merge rules (the space's or the organization's) checked
against the reviews, and a careful reviewer's checks (up to date, open comments, viewed pages, broken links),
on change requests made in the sandbox."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient
from folio.models.change_request import ChangeRequest, ChangeRequestReview
from folio.models.organization import MergeRule
from folio.sandbox import SandboxState
from folio.sandbox.domain.change_requests import open_change_request
from folio.sandbox.seed.change_requests import Edit, commit, edit
from folio.sandbox.state import Record
from folio.services import Services
from folio.services.review.preflight import Check, Preflight, rule_checks
from tests.conftest import TOKEN


def space_id(state: SandboxState, title: str) -> str:
    return next(sid for sid, s in state.spaces.items() if s["title"] == title and s["organization"] == state.demo_org)


def user(state: SandboxState, name: str) -> str:
    return next(uid for uid, u in state.users.items() if u["email"].startswith(name + "@"))


def make_cr(state: SandboxState, space: str, edits: list[Edit], subject: str = "Pre-flight me") -> Record:
    record = open_change_request(state, space, state.default_user, subject=subject, at=state.now())
    commit(state, record, edits, state.now())
    return record


def line(flight: Preflight, label: str) -> Check:
    return next(c for c in flight.checks if c.label.startswith(label))


@pytest.fixture
def services(client: GitBookClient) -> Services:
    return Services(client)


TIP = [edit("Troubleshooting", "", "\nRestart the robot first.\n")]


async def test_a_specific_reviewer_who_has_not_approved_fails_until_they_approve(
    services: Services, client: GitBookClient, state: SandboxState
) -> None:
    space = space_id(state, "Getting Started")
    cr = make_cr(state, space, TIP)
    chen = user(state, "chen")
    rules: list[dict[str, Any]] = [{"rule": "require_specific_reviewers", "users": [chen]}]
    state.spaces[space]["mergeRules"] = {"type": "rules", "rules": rules}
    flight = await services.preflight.check(space, cr["number"])
    chen_name = state.users[chen]["displayName"]
    rule = line(flight, "Approved by")
    assert rule == Check(f"Approved by {chen_name}", False, f"Not yet approved by {chen_name}.", "ask_reviewers", True)
    assert not flight.passed and flight.source == "the space"

    me = state.default_user
    state.tokens = {TOKEN: chen}
    await client.reviews.submit(space, cr["id"], "approved", None)
    state.tokens = {TOKEN: me}
    again = await services.preflight.check(space, cr["id"])
    assert line(again, "Approved by").ok is True and line(again, "Approved by").fix is None


async def test_the_organization_rules_count_when_the_space_inherits(services: Services, state: SandboxState) -> None:
    space = space_id(state, "Getting Started")
    cr = make_cr(state, space, TIP)
    assert state.spaces[space]["mergeRules"] == {"type": "inherit"}
    org = state.orgs[state.spaces[space]["organization"]]
    org["mergeRules"] = {
        "type": "rules",
        "rules": [
            {"rule": "require_at_least_one_approved_review"},
            {"rule": "custom", "expression": "changeRequest.subject != ''", "message": "Say what it does"},
        ],
    }
    flight = await services.preflight.check(space, cr["id"])
    assert flight.source == "the organization"
    assert line(flight, "At least one approval").ok is False
    custom = line(flight, "Custom rule")
    assert custom.ok is None and custom.detail == "Checked by the service when merging."
    org["mergeRules"] = {"type": "rules", "rules": [{"rule": "allow_bypass", "users": [state.default_user]}]}
    flight = await services.preflight.check(space, cr["id"])
    assert flight.bypass and [c.label for c in flight.checks if c.rule] == [
        "Merge rules: none to meet (only who may bypass them)"
    ]
    org["mergeRules"] = {"type": "none"}
    flight = await services.preflight.check(space, cr["id"])
    assert line(flight, "Merge rules: none set by the organization").ok is True and not flight.bypass


async def test_the_careful_reviewer_checks(services: Services, client: GitBookClient, state: SandboxState) -> None:
    space = space_id(state, "Getting Started")
    cr = make_cr(
        state, space, [*TIP, edit("Welcome", "", "\nSee [the FAQ](/pages/no-such-faq).\n")], subject="Two pages"
    )
    flight = await services.preflight.check(space, cr["id"])
    assert line(flight, "Up to date with main").ok is True
    assert line(flight, "No open comments").ok is True
    assert line(flight, "Every changed page viewed") == Check(
        "Every changed page viewed", False, "2 of 2 changed pages not marked viewed.", "changes"
    )
    broken = line(flight, "No broken links introduced")
    assert broken.ok is False and broken.fix == "changes"
    assert broken.detail == "1 broken: Welcome links to a missing page (no-such-faq)."

    await client.comments.create(space, "Is this right?", change_request=cr["id"])
    changes = await services.review.changes(space, flight.cr)
    for page in changes.changed:
        services.review.viewed.set_viewed(cr["id"], cr["revision"], page.id)
    flight = await services.preflight.check(space, cr["id"])
    assert line(flight, "No open comments") == Check("No open comments", False, "1 open thread.", "comments")
    assert line(flight, "Every changed page viewed").ok is True


async def test_an_outdated_change_request_is_told_to_update(services: Services, state: SandboxState) -> None:
    record = next(c for c in state.change_requests.values() if c["subject"] == "Add pagination to the Robots API")
    flight = await services.preflight.check(record["space"], record["id"])
    assert line(flight, "Up to date with main") == Check(
        "Up to date with main", False, "Main changed since it began.", "update_from_main"
    )


def test_rules_read_the_latest_review_that_is_not_outdated() -> None:
    cr = ChangeRequest.model_validate(
        {
            "id": "cr1",
            "number": 3,
            "status": "open",
            "subject": "",
            "createdAt": "2026-01-01T00:00:00Z",
            "updatedAt": "2026-01-01T00:00:00Z",
            "space": "s1",
            "revision": "r2",
            "revisionInitial": "r1",
            "comments": 0,
            "outdated": False,
            "createdBy": {"object": "user", "id": "author", "displayName": "Ana"},
        }
    )
    reviews = [  # newest first, as the service lists them
        _review("b", "changes-requested"),
        _review("a", "approved"),
        _review("b", "approved", outdated=True),
    ]
    rules = [
        MergeRule(rule="require_specific_reviewers", users=["a", "b"]),
        MergeRule(rule="require_one_of_specific_reviewers", users=["a", "c"]),
        MergeRule(rule="require_all_reviews_approved"),
        MergeRule(rule="require_change_request_subject"),
        MergeRule(rule="require_author_to_merge"),
        MergeRule(rule="require_agent_review"),
    ]
    checks = rule_checks(rules, cr, reviews, "me", {"a": "Ada", "b": "Bo", "c": "Cy", "author": "Ana"})
    assert [(c.label, c.ok) for c in checks] == [
        ("Approved by Ada, Bo", False),
        ("Approved by one of Ada or Cy", True),
        ("Every review approves it", False),
        ("It has a subject", False),
        ("Merged by its author", False),
        ("Rule require_agent_review", None),
    ]
    assert checks[0].detail == "Not yet approved by Bo." and checks[2].detail == "Bo asked for changes."
    assert checks[3].fix == "edit_subject" and checks[4].detail == "Only its author, Ana, may merge it."


def _review(who: str, status: str, *, outdated: bool = False) -> ChangeRequestReview:
    return ChangeRequestReview.model_validate(
        {"id": f"{who}-{status}", "status": status, "outdated": outdated, "reviewer": {"object": "user", "id": who}}
    )


async def test_a_service_without_review_requests_still_gets_its_checklist(state: SandboxState) -> None:
    from folio.api import Token
    from folio.sandbox.app import create_app
    from folio.sandbox.transport import SandboxTransport
    from tests.conftest import SANDBOX_URL

    app = create_app(state)
    app.router.routes = [r for r in app.router.routes if "requested-reviewers" not in getattr(r, "path", "")]
    client = GitBookClient(token=Token(TOKEN), base_url=SANDBOX_URL, transport=SandboxTransport(app))
    try:
        space = space_id(state, "Getting Started")
        record = make_cr(state, space, TIP)
        flight = await Services(client).preflight.check(space, record["id"])
        assert line(flight, "No open comments").ok is True and flight.source == "the organization"
    finally:
        await client.aclose()
