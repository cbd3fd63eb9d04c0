"""Change requests through the real client to the sandbox: lists and filters, create, read, edit, merge,
update from main and the PDF link, asserting on the returned models and on what the sandbox now holds."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient, RetryPolicy, Token, errors, pagination
from folio.models.change_request import ChangeRequest, ChangeRequestSummary
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.sandbox.clock import Clock
from folio.sandbox.revisions import new_revision, walk
from folio.sandbox.seed import populate
from tests.conftest import FROZEN_AT, SANDBOX_URL, TOKEN


def space_of(state: SandboxState, title: str) -> str:
    return next(sid for sid, s in state.spaces.items() if s["title"] == title and s["organization"] == state.demo_org)


def cr_of(state: SandboxState, subject: str) -> dict[str, Any]:
    return next(c for c in state.change_requests.values() if c["subject"] == subject)


def titles(state: SandboxState, revision: str) -> list[str]:
    return [p["title"] for p, _, _ in walk(state.revisions[revision]["pages"])]


def markdown(state: SandboxState, revision: str, title: str) -> str:
    return next(p["markdown"] for p, _, _ in walk(state.revisions[revision]["pages"]) if p["title"] == title)


def user(state: SandboxState, name: str) -> str:
    return next(uid for uid, u in state.users.items() if u["email"].startswith(name + "@"))


# --- lists --------------------------------------------------------------------------------------------------


async def test_space_list_defaults_to_open_newest_first(client: GitBookClient, state: SandboxState) -> None:
    space = space_of(state, "Getting Started")
    crs = await client.change_requests.list(space).collect()
    assert [c.subject for c in crs] == ["Clarify Linux install steps"]
    assert crs[0].status == "open" and crs[0].number == 1 and crs[0].space == space
    assert crs[0].created_by is not None and crs[0].created_by.id == user(state, "chen")
    drafts = await client.change_requests.list(space, status="draft").collect()
    assert [(c.number, c.status) for c in drafts] == [(2, "draft")]


async def test_space_list_filters(client: GitBookClient, state: SandboxState) -> None:
    space = space_of(state, "Platform Runbooks")
    me = state.default_user
    mine = await client.change_requests.list(space, creator=me).collect()
    assert [c.subject for c in mine] == ["Failover: lower the DNS TTL first"]
    asked = await client.change_requests.list(space, requested_reviewer=me).collect()
    assert [c.subject for c in asked] == ["Weekend paging rotation"]
    by_emeka = await client.change_requests.list(space, contributor=user(state, "emeka")).collect()
    assert [c.subject for c in by_emeka] == ["Weekend paging rotation"]
    oldest_first = await client.change_requests.list(space, order_by="createdAt").collect()
    assert [c.number for c in oldest_first] == [2, 1]  # newest created first


async def test_organization_list_spans_spaces(client: GitBookClient, state: SandboxState) -> None:
    org, me = state.demo_org, state.default_user
    open_crs = await client.change_requests.list_for_organization(org).collect()
    assert len(open_crs) == 6 and {c.status for c in open_crs} == {"open"}
    assert len({c.space for c in open_crs}) == 4
    updated = [c.updated_at for c in open_crs]
    assert updated == sorted(updated, reverse=True)
    awaiting = await client.change_requests.list_for_organization(org, requested_reviewer=me).collect()
    assert {c.subject for c in awaiting} == {
        "Clarify Linux install steps",
        "Add pagination to the Robots API",
        "Weekend paging rotation",
    }
    mine = await client.change_requests.list_for_organization(org, status=["open", "draft"], creator=me).collect()
    assert {(c.subject, c.status) for c in mine} == {
        ("Reorganise troubleshooting", "draft"),
        ("Explain rollout waves", "open"),
        ("Failover: lower the DNS TTL first", "open"),
    }
    every = await client.change_requests.list_for_organization(
        org, status=["draft", "open", "archived", "merged"]
    ).collect()
    assert len(every) == 10 and {c.status for c in every} == {"draft", "open", "archived", "merged"}


EVERY_STATUS = ["draft", "open", "archived", "merged"]


async def test_organization_summaries_read_what_a_row_shows_and_skip_the_rest(
    client: GitBookClient, state: SandboxState
) -> None:
    org, me = state.demo_org, state.default_user
    for asked in (
        {},
        {"status": EVERY_STATUS},
        {"status": ["open", "draft"], "creator": me},
        {"requested_reviewer": me},
    ):
        rows = await client.change_requests.summaries_for_organization(org, limit=3, **asked).collect()
        full = await client.change_requests.list_for_organization(org, limit=3, **asked).collect()
        assert rows and [r.id for r in rows] == [c.id for c in full], asked
        assert all(type(r) is ChangeRequestSummary for r in rows)
        assert rows == [ChangeRequestSummary.of(c) for c in full]
        assert [(r.title, r.is_active) for r in rows] == [(c.title, c.is_active) for c in full]
    assert all(r.created_by is not None and r.created_by.display_name and r.urls is not None for r in rows)
    assert not hasattr(rows[0], "__dict__") and not hasattr(rows[0], "revision_initial")
    with pytest.raises(errors.NotFound):
        await client.change_requests.summaries_for_organization("no-such-org").collect()


def client_for(state: SandboxState) -> GitBookClient:
    async def nothing(seconds: float) -> None:
        return None

    transport = SandboxTransport(create_app(state))
    return GitBookClient(
        token=Token(TOKEN), base_url=SANDBOX_URL, transport=transport, retry=RetryPolicy(sleep=nothing)
    )


async def test_the_sandboxs_change_request_pages_are_read_by_msgspec_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's and a generated organization's (``--scale``), every status: no page needs pydantic."""
    state = SandboxState(clock=Clock(FROZEN_AT), seed=7)
    populate(state, scale=40)

    def refuse(item_type: object) -> None:
        raise AssertionError(f"a page of change requests was read again by pydantic as {item_type}")

    async with client_for(state) as client:
        expected = {
            org: await client.change_requests.list_for_organization(org, status=EVERY_STATUS, limit=1000).collect()
            for org in state.orgs
        }
        monkeypatch.setattr(pagination, "_envelope_adapter", refuse)
        read = {
            org: await client.change_requests.summaries_for_organization(org, status=EVERY_STATUS, limit=7).collect()
            for org in state.orgs
        }
    assert sum(map(len, read.values())) == len(state.change_requests) > 50
    for org, rows in read.items():
        assert rows == [ChangeRequestSummary.of(c) for c in expected[org]]
        assert all(type(row.number) is int and row.updated_at is not None for row in rows)
        assert all(row.object == "change-request" and row.created_by is not None for row in rows)


async def test_organization_list_cluster_filter(client: GitBookClient, state: SandboxState) -> None:
    cr_of(state, "Explain rollout waves")["conversationsIssuesCluster"] = "cluster-1"
    found = await client.change_requests.list_for_organization(state.demo_org, cluster="cluster-1").collect()
    assert [(c.subject, c.conversations_issues_cluster) for c in found] == [("Explain rollout waves", "cluster-1")]


async def test_lists_not_found_and_bad_status(client: GitBookClient, state: SandboxState) -> None:
    with pytest.raises(errors.NotFound):
        await client.change_requests.list_for_organization("no-such-org").collect()
    with pytest.raises(errors.NotFound):
        await client.change_requests.list("no-such-space").collect()
    with pytest.raises(errors.BadRequest):
        await client.change_requests.list(space_of(state, "User Guide"), status="closed").collect()


# --- create, read, edit -------------------------------------------------------------------------------------


async def test_create_copies_the_space_revision(client: GitBookClient, state: SandboxState) -> None:
    space = space_of(state, "Getting Started")
    main = state.spaces[space]["revision"]
    cr = await client.change_requests.create(space, subject="Add a FAQ")
    assert isinstance(cr, ChangeRequest)
    assert (cr.number, cr.status, cr.subject, cr.outdated) == (4, "draft", "Add a FAQ", False)
    assert cr.revision_initial == main and cr.revision != main
    record = state.change_requests[cr.id]
    assert record["createdBy"] == state.default_user and record["number"] == 4
    revision = state.revisions[record["revision"]]
    assert revision["parents"] == [main] and revision["space"] == space
    assert titles(state, record["revision"]) == titles(state, main)
    assert revision["pages"] is not state.revisions[main]["pages"]


async def test_create_sends_location_and_template(client: GitBookClient, state: SandboxState) -> None:
    space = space_of(state, "Release Notes")
    template = {"id": "tpl", "params": {"contentRefs": {}}}
    response = await client.request("POST", f"/spaces/{space}/change-requests", json={"template": template})
    assert response.status_code == 201
    body = response.json()
    assert response.headers["location"].endswith(f"/spaces/{space}/change-requests/{body['id']}")
    assert body["subject"] == "" and body["number"] == 2


async def test_create_limits(client: GitBookClient, state: SandboxState) -> None:
    space = space_of(state, "Getting Started")
    before = len(state.change_requests)
    with pytest.raises(errors.InvalidRequest) as caught:
        await client.change_requests.create(space, subject="x" * 101)
    assert caught.value.field == "subject"
    with pytest.raises(errors.InvalidRequest):
        await client.change_requests.create(space, template={"params": {}})
    assert len(state.change_requests) == before
    with pytest.raises(errors.BadRequest) as bad:
        await client.request_json("POST", f"/spaces/{space}/change-requests", json={"subject": "y" * 101})
    assert "subject" in bad.value.message
    with pytest.raises(errors.BadRequest):
        await client.request_json("POST", f"/spaces/{space}/change-requests", json={"template": {"id": 3}})
    assert len(state.change_requests) == before


async def test_create_needs_edit_role(client: GitBookClient, state: SandboxState) -> None:
    state.tokens = {TOKEN: user(state, "ivan")}  # a reader
    before = len(state.change_requests)
    with pytest.raises(errors.Forbidden):
        await client.change_requests.create(space_of(state, "Getting Started"), subject="Nope")
    assert len(state.change_requests) == before


async def test_get_by_id_or_number(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Add pagination to the Robots API")
    by_id = await client.change_requests.get(record["space"], record["id"])
    by_number = await client.change_requests.get(record["space"], record["number"])
    assert by_id == by_number
    assert by_id.outdated is True and by_id.base_revision == record["revisionInitial"]
    assert by_id.urls is not None and by_id.urls.location is not None
    assert by_id.urls.location.endswith(f"/change-requests/{record['id']}")
    canary = cr_of(state, "Document the canary channel")
    merged = await client.change_requests.get(canary["space"], canary["id"])
    assert merged.status == "merged" and merged.merged_by is not None and merged.revision_merged is not None
    with pytest.raises(errors.NotFound):
        await client.change_requests.get(record["space"], "999")
    with pytest.raises(errors.NotFound):
        await client.change_requests.get(space_of(state, "User Guide"), record["id"])  # another space's


async def test_update_subject_description_status(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Reorganise troubleshooting")
    cr = await client.change_requests.update(
        record["space"],
        record["number"],
        subject="Move troubleshooting",
        description="Why:\nit is robot-specific",
        status="open",
    )
    assert (cr.subject, cr.status) == ("Move troubleshooting", "open")
    assert cr.description is not None and cr.description.plain_text() == "Why:\nit is robot-specific"
    assert record["subject"] == "Move troubleshooting" and record["status"] == "open"
    assert record["description"]["object"] == "document"
    archived = await client.change_requests.update(record["space"], record["id"], status="archived")
    assert archived.status == "archived" and record["status"] == "archived"
    with pytest.raises(errors.Conflict):
        await client.change_requests.update(record["space"], record["id"], status="draft")
    assert record["status"] == "archived"


async def test_update_limits_and_refusals(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Explain rollout waves")
    space, number = record["space"], record["number"]
    with pytest.raises(errors.InvalidRequest):
        await client.change_requests.update(space, number, subject="z" * 101)
    with pytest.raises(errors.InvalidRequest):
        await client.change_requests.update(space, number, status="merged")  # type: ignore[arg-type]
    assert record["subject"] == "Explain rollout waves" and record["status"] == "open"
    url = f"/spaces/{space}/change-requests/{number}"
    for bad in (
        {"status": "merged"},
        {"subject": "z" * 101},
        {"description": "plain text"},
        {"status": None},
    ):
        with pytest.raises(errors.BadRequest):
            await client.request_json("PATCH", url, json=bad)
    assert record["subject"] == "Explain rollout waves" and record["status"] == "open"
    merged = cr_of(state, "Document the canary channel")
    with pytest.raises(errors.Conflict):
        await client.change_requests.update(merged["space"], merged["id"], status="open")
    assert merged["status"] == "merged"


async def test_patch_prefer_minimal(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "December 2026 release notes")
    response = await client._http.patch(
        f"/spaces/{record['space']}/change-requests/{record['id']}",
        json={"subject": "December notes"},
        headers={"Prefer": "return=minimal"},
    )
    assert response.status_code == 204 and response.headers["preference-applied"] == "return=minimal"
    assert record["subject"] == "December notes"


async def test_patch_without_a_change_keeps_updated_at(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Explain rollout waves")
    before = record["updatedAt"]
    cr = await client.change_requests.update(record["space"], record["id"], subject=record["subject"], status="open")
    assert cr.subject == "Explain rollout waves" and record["updatedAt"] == before != state.now()


# --- merge and update ---------------------------------------------------------------------------------------


async def test_merge_outdated_change_request_keeps_both_sides(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Add pagination to the Robots API")
    space = state.spaces[record["space"]]
    main = space["revision"]
    result = await client.change_requests.merge(record["space"], record["number"])
    assert result.result == "merge" and not result.conflicts
    assert space["revision"] == result.revision != main
    revision = state.revisions[result.revision]
    assert revision["type"] == "merge" and revision["parents"] == [main, record["revision"]]
    assert revision["mergedFrom"] == record["id"]
    assert "`limit` (at most 1000)" in markdown(state, result.revision, "Robots")  # the change request's edit
    assert "## Rate limits" in markdown(state, result.revision, "Errors")  # main's edit since it began
    assert (record["status"], record["revisionMerged"], record["mergedBy"]) == (
        "merged",
        result.revision,
        state.default_user,
    )
    cr = await client.change_requests.get(record["space"], record["id"])
    assert cr.status == "merged" and cr.outdated is False and cr.merged_at is not None
    with pytest.raises(errors.Conflict):
        await client.change_requests.merge(record["space"], record["id"])
    assert space["revision"] == result.revision


async def test_merge_applies_moves_and_deletions(client: GitBookClient, state: SandboxState) -> None:
    weekend = cr_of(state, "Weekend paging rotation")
    result = await client.change_requests.merge(weekend["space"], weekend["id"])
    assert titles(state, result.revision)[0] == "Incident review"
    legacy = cr_of(state, "Remove the deprecated Rollouts API page")
    merged = await client.change_requests.merge(legacy["space"], legacy["id"])
    assert "Rollouts API" not in titles(state, merged.revision)
    archived = cr_of(state, "Refresh the welcome page")
    with pytest.raises(errors.Conflict):
        await client.change_requests.merge(archived["space"], archived["id"])
    assert archived["status"] == "archived"


async def test_merge_needs_review_role(client: GitBookClient, state: SandboxState) -> None:
    state.tokens = {TOKEN: user(state, "emeka")}  # an editor
    record = cr_of(state, "Weekend paging rotation")
    with pytest.raises(errors.Forbidden):
        await client.change_requests.merge(record["space"], record["id"])
    assert record["status"] == "open"


async def test_update_from_main_brings_main_changes_in(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Add pagination to the Robots API")
    before, main = record["revision"], state.spaces[record["space"]]["revision"]
    result = await client.change_requests.update_from_main(record["space"], record["number"])
    assert result.result == "update" and result.revision == record["revision"] != before
    revision = state.revisions[result.revision]
    assert revision["type"] == "update" and revision["parents"] == [before, main]
    assert "## Rate limits" in markdown(state, result.revision, "Errors")
    assert "`limit` (at most 1000)" in markdown(state, result.revision, "Robots")
    cr = await client.change_requests.get(record["space"], record["id"])
    assert cr.outdated is False and cr.revision_merged_ancestor == main and cr.base_revision == main
    again = await client.change_requests.update_from_main(record["space"], record["id"])
    assert again.revision == result.revision  # already up to date: nothing new


async def test_update_keeps_the_change_requests_own_moves(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Reorganise troubleshooting")
    space = record["space"]
    main = state.spaces[space]["revision"]
    pages = [dict(p) for p in state.revisions[main]["pages"]]
    pages[0] = {**pages[0], "markdown": pages[0]["markdown"] + "\nNew on main.\n"}
    state.spaces[space]["revision"] = new_revision(state, space, pages, parents=[main])
    assert (await client.change_requests.get(space, record["id"])).outdated is True
    result = await client.change_requests.update_from_main(space, record["id"])
    tree = state.revisions[result.revision]["pages"]
    assert "New on main." in tree[0]["markdown"]
    robot = next(p for p, _, _ in walk(tree) if p["title"] == "Your first robot")
    assert [p["title"] for p in robot["pages"]] == ["Troubleshooting"]
    assert "QR code does not scan" in robot["pages"][0]["markdown"]


async def test_update_refused_when_merged(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Document the canary channel")
    with pytest.raises(errors.Conflict):
        await client.change_requests.update_from_main(record["space"], record["id"])
    with pytest.raises(errors.NotFound):
        await client.change_requests.update_from_main(record["space"], "no-such-cr")


# --- pdf ----------------------------------------------------------------------------------------------------


async def test_pdf_link(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Clarify Linux install steps")
    link = await client.change_requests.pdf(record["space"], record["number"])
    assert link.url.startswith("https://") and record["id"] in link.url
    page = next(p["id"] for p, _, _ in walk(state.revisions[record["revision"]]["pages"]) if p["title"] == "Windows")
    one = await client.change_requests.pdf(record["space"], record["id"], only=True, page=page)
    assert f"page={page}" in one.url and "only=true" in one.url
    with pytest.raises(errors.BadRequest):
        await client.change_requests.pdf(record["space"], record["id"], only=True)
    with pytest.raises(errors.NotFound):
        await client.change_requests.pdf(record["space"], record["id"], page="no-such-page")


# --- merge rules (issue 16) -----------------------------------------------------------------------------------


def require(state: SandboxState, space_id: str, *rules: dict[str, Any]) -> None:
    state.spaces[space_id]["mergeRules"] = {"type": "rules", "rules": list(rules)}


async def test_merge_refused_until_the_specific_reviewer_approves(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Failover: lower the DNS TTL first")
    chen, before = user(state, "chen"), state.spaces[record["space"]]["revision"]
    require(state, record["space"], {"rule": "require_specific_reviewers", "users": [chen]})
    with pytest.raises(errors.Conflict) as refused:
        await client.change_requests.merge(record["space"], record["id"])
    assert "merge rules are not met" in refused.value.message
    assert f"{state.users[chen]['displayName']} must approve it" in refused.value.message
    assert record["status"] == "open" and state.spaces[record["space"]]["revision"] == before
    me = state.default_user
    state.tokens = {TOKEN: chen}
    await client.reviews.submit(record["space"], record["id"], "changes-requested", "Not yet")
    state.tokens = {TOKEN: me}
    with pytest.raises(errors.Conflict):  # a verdict that is not an approval does not count
        await client.change_requests.merge(record["space"], record["id"])
    state.tokens = {TOKEN: chen}
    await client.reviews.submit(record["space"], record["id"], "approved", None)
    state.tokens = {TOKEN: me}
    result = await client.change_requests.merge(record["space"], record["id"])
    assert record["status"] == "merged" and state.spaces[record["space"]]["revision"] == result.revision


async def test_merge_obeys_the_organization_rules_a_space_inherits(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Failover: lower the DNS TTL first")
    space = state.spaces[record["space"]]
    assert space["mergeRules"] == {"type": "inherit"}
    emeka = user(state, "emeka")
    state.orgs[space["organization"]]["mergeRules"] = {
        "type": "rules",
        "rules": [{"rule": "require_specific_reviewers", "users": [emeka]}],
    }
    with pytest.raises(errors.Conflict) as refused:
        await client.change_requests.merge(record["space"], record["id"])
    assert "require_specific_reviewers" in refused.value.message
    space["mergeRules"] = {"type": "none"}  # its own: no rules
    await client.change_requests.merge(record["space"], record["id"])
    assert record["status"] == "merged"


async def test_merge_rules_bypass_and_the_simple_rules(client: GitBookClient, state: SandboxState) -> None:
    record = cr_of(state, "Add pagination to the Robots API")  # outdated
    space_id, me = record["space"], state.default_user
    require(state, space_id, {"rule": "require_up_to_date_change_request"}, {"rule": "require_author_to_merge"})
    with pytest.raises(errors.Conflict) as refused:
        await client.change_requests.merge(space_id, record["id"])
    assert "updated from main first" in refused.value.message
    assert ("only its author" in refused.value.message) == (record["createdBy"] != me)
    require(
        state,
        space_id,
        {"rule": "require_up_to_date_change_request"},
        {"rule": "allow_bypass", "users": [me]},
    )
    await client.change_requests.merge(space_id, record["id"])  # the caller may bypass the rules
    assert record["status"] == "merged"
