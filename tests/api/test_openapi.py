"""Imported OpenAPI specs through the real client against the sandbox: listing, creating from a url or a text,
create-or-update by slug (each write a new version), visibility, deletion, versions and their content, the
processing state moving from pending to complete, processing errors, and the limits on slug and source."""

from __future__ import annotations

from typing import Any

import pytest

from folio.api import GitBookClient
from folio.api.errors import BadRequest, Conflict, Forbidden, InvalidRequest, NotFound, TransportError
from folio.models.openapi import OpenAPISpec, OpenAPISpecContent, OpenAPISpecVersion
from folio.sandbox import SandboxState

YAML = "openapi: 3.1.0\ninfo:\n  title: Tiny\n  version: 1.0.0\npaths: {}\n"


def specs(state: SandboxState) -> dict[str, Any]:
    return state.openapi_specs[state.demo_org]


def other_org(state: SandboxState) -> str:
    """The seeded organization where the demo user only edits."""
    return next(o for o in state.orgs if o != state.demo_org and state.default_user in state.members[o])


# --- list and read ------------------------------------------------------------------------------------------


async def test_list_gives_the_seeded_specs_by_slug_and_settles_pending_ones(
    client: GitBookClient, state: SandboxState
) -> None:
    assert specs(state)["search-v2"]["processingState"] == "pending"
    listed = await client.openapi.list(state.demo_org).collect()
    assert [s.slug for s in listed] == ["billing-api", "partner-gateway", "petstore", "search-v2"]
    assert all(isinstance(s, OpenAPISpec) and s.object == "openapi-spec" for s in listed)
    by_slug = {s.slug: s for s in listed}
    assert by_slug["search-v2"].processing_state == "complete"
    assert specs(state)["search-v2"]["processingState"] == "complete"
    pet = by_slug["petstore"]
    assert pet.visibility == "public"
    assert pet.source_url == "https://petstore3.swagger.io/api/v3/openapi.json"
    assert pet.last_version == specs(state)["petstore"]["versions"][-1]["id"]
    assert pet.permissions is not None and pet.permissions.edit is True
    assert pet.urls is not None and pet.urls.published and pet.urls.app and pet.urls.location
    assert by_slug["billing-api"].source_url is None  # imported from text


async def test_list_pages_with_a_limit(client: GitBookClient, state: SandboxState) -> None:
    first = await client.openapi.list(state.demo_org, limit=3).fetch()
    assert [s.slug for s in first.items] == ["billing-api", "partner-gateway", "petstore"]
    assert first.count == 4 and first.next_page is not None
    second = await client.openapi.list(state.demo_org, limit=3).fetch(first.next_page)
    assert [s.slug for s in second.items] == ["search-v2"] and second.next_page is None


async def test_seeded_spec_carries_its_processing_error(client: GitBookClient, state: SandboxState) -> None:
    spec = await client.openapi.get(state.demo_org, "partner-gateway")
    assert spec.processing_state == "complete"
    assert spec.last_process_error_code == "FETCH_TIMEOUT"
    assert spec.has_errors and spec.error_count == 1
    assert spec.last_processed_errors[0].code == "FETCH_TIMEOUT"
    assert "timed out" in spec.last_processed_errors[0].message
    assert spec.last_processed_at is not None


async def test_get_unknown_slug_is_not_found(client: GitBookClient, state: SandboxState) -> None:
    with pytest.raises(NotFound) as caught:
        await client.openapi.get(state.demo_org, "no-such-spec")
    assert "No matching OpenAPI specification" in caught.value.message


async def test_unknown_organization_is_not_found(client: GitBookClient) -> None:
    with pytest.raises(NotFound):
        await client.openapi.list("no-such-org").collect()


# --- create, processing -------------------------------------------------------------------------------------


async def test_create_from_url_starts_pending_then_completes_on_the_next_read(
    client: GitBookClient, state: SandboxState
) -> None:
    spec = await client.openapi.create(state.demo_org, slug="orders-v1", url="https://api.example.com/orders.json")
    assert spec.processing_state == "pending" and spec.is_processing
    assert spec.source_url == "https://api.example.com/orders.json"
    assert spec.visibility == "private"
    record = specs(state)["orders-v1"]
    assert len(record["versions"]) == 1 and record["lastVersion"] == spec.last_version
    state.clock.advance(seconds=6)  # processing takes a few seconds of the sandbox clock
    again = await client.openapi.get(state.demo_org, "orders-v1")
    assert again.processing_state == "complete" and not again.has_errors
    assert again.last_processed_at is not None and again.id == spec.id


async def test_create_answers_201(client: GitBookClient, state: SandboxState) -> None:
    response = await client.request(
        "POST",
        f"/orgs/{state.demo_org}/openapi",
        json={"slug": "raw", "source": {"url": "https://x.example/a"}},
    )
    assert response.status_code == 201
    assert "raw" in specs(state)


async def test_create_from_text_parses_or_reports_a_parse_error(client: GitBookClient, state: SandboxState) -> None:
    await client.openapi.create(state.demo_org, slug="tiny", text=YAML)
    state.clock.advance(seconds=6)  # processing takes a few seconds of the sandbox clock
    good = await client.openapi.get(state.demo_org, "tiny")
    assert good.processing_state == "complete" and good.last_process_error_code is None
    content = await client.openapi.latest_version_content(state.demo_org, "tiny")
    assert isinstance(content, OpenAPISpecContent)
    assert content.filesystem["files"]["openapi.yaml"].startswith("openapi: 3.1.0")
    await client.openapi.create(state.demo_org, slug="junk", text="this is not a description")
    state.clock.advance(seconds=6)
    bad = await client.openapi.get(state.demo_org, "junk")
    assert bad.last_process_error_code == "PARSE_ERROR" and bad.error_count == 1


async def test_unreachable_source_fails_with_fetch_timeout(client: GitBookClient, state: SandboxState) -> None:
    await client.openapi.create(state.demo_org, slug="slow", url="https://timeout.example.com/spec.json")
    state.clock.advance(seconds=6)  # processing takes a few seconds of the sandbox clock
    spec = await client.openapi.get(state.demo_org, "slow")
    assert spec.last_process_error_code == "FETCH_TIMEOUT"
    assert specs(state)["slow"]["lastProcessedErrors"][0]["code"] == "FETCH_TIMEOUT"


async def test_create_with_a_taken_slug_is_a_conflict(client: GitBookClient, state: SandboxState) -> None:
    before = len(specs(state)["petstore"]["versions"])
    with pytest.raises(Conflict):
        await client.openapi.create(state.demo_org, slug="petstore", url="https://example.com/other.json")
    assert len(specs(state)["petstore"]["versions"]) == before


async def test_create_needs_edit_rights(client: GitBookClient, state: SandboxState) -> None:
    org = other_org(state)
    with pytest.raises(Forbidden):
        await client.openapi.create(org, slug="mine", url="https://example.com/spec.json")
    assert "mine" not in state.openapi_specs.get(org, {})


# --- put: create or update ----------------------------------------------------------------------------------


async def test_put_creates_then_updates_with_a_new_version_each_time(
    client: GitBookClient, state: SandboxState
) -> None:
    first = await client.request(
        "PUT",
        f"/orgs/{state.demo_org}/openapi/fleet",
        json={"source": {"url": "https://example.com/fleet-1.json"}},
    )
    assert first.status_code == 201
    spec = await client.openapi.put(state.demo_org, "fleet", url="https://example.com/fleet-2.json")
    assert spec.processing_state == "pending"
    assert spec.source_url == "https://example.com/fleet-2.json"
    record = specs(state)["fleet"]
    assert len(record["versions"]) == 2
    assert spec.last_version == record["versions"][-1]["id"] != record["versions"][0]["id"]
    again = await client.openapi.put(state.demo_org, "fleet", text=YAML)
    assert len(specs(state)["fleet"]["versions"]) == 3 and again.source_url is None
    versions = await client.openapi.versions(state.demo_org, "fleet").collect()
    assert [v.id for v in versions] == [v["id"] for v in reversed(specs(state)["fleet"]["versions"])]
    assert versions[1].url == "https://example.com/fleet-2.json"


async def test_put_on_an_existing_spec_answers_200(client: GitBookClient, state: SandboxState) -> None:
    response = await client.request(
        "PUT",
        f"/orgs/{state.demo_org}/openapi/petstore",
        json={"source": {"url": "https://example.com/pets.json"}},
    )
    assert response.status_code == 200
    assert specs(state)["petstore"]["source"] == {"url": "https://example.com/pets.json"}


async def test_a_put_whose_answer_is_lost_is_not_sent_again(state: SandboxState) -> None:
    # Every PUT that arrives adds a version: the client never repeats one on its own (the caller looks first).
    from tests.api.test_client_core import faulty, make_client

    app, faults = faulty(state, drop_after_write=1.0)
    before = len(specs(state)["petstore"]["versions"])
    sleeps: list[float] = []
    async with make_client(app, sleeps) as c:
        with pytest.raises(TransportError):
            await c.openapi.put(state.demo_org, "petstore", url="https://example.com/pets-once.json")
    assert len(specs(state)["petstore"]["versions"]) == before + 1
    assert faults._count == 1 and sleeps == []


# --- visibility and delete ----------------------------------------------------------------------------------


async def test_visibility_moves_between_private_and_public(client: GitBookClient, state: SandboxState) -> None:
    public = await client.openapi.update(state.demo_org, "billing-api", visibility="public")
    assert public.visibility == "public" and public.urls is not None and public.urls.published
    assert specs(state)["billing-api"]["visibility"] == "public"
    content = await client.openapi.latest_version_content(state.demo_org, "billing-api")
    assert content.public_url == public.urls.published
    private = await client.openapi.update(state.demo_org, "billing-api", visibility="private")
    assert private.visibility == "private" and private.urls is not None and private.urls.published is None
    assert specs(state)["billing-api"]["visibility"] == "private"


async def test_delete_removes_the_spec_and_is_quiet_the_second_time(client: GitBookClient, state: SandboxState) -> None:
    await client.openapi.delete(state.demo_org, "search-v2")
    assert "search-v2" not in specs(state)
    with pytest.raises(NotFound):
        await client.openapi.get(state.demo_org, "search-v2")
    response = await client.request("DELETE", f"/orgs/{state.demo_org}/openapi/search-v2")
    assert response.status_code == 204


# --- versions -----------------------------------------------------------------------------------------------


async def test_versions_latest_and_by_id(client: GitBookClient, state: SandboxState) -> None:
    records = specs(state)["petstore"]["versions"]
    versions = await client.openapi.versions(state.demo_org, "petstore").collect()
    assert len(versions) == 3 and all(isinstance(v, OpenAPISpecVersion) for v in versions)
    assert versions[0].id == records[-1]["id"]  # newest first
    latest = await client.openapi.latest_version(state.demo_org, "petstore")
    assert latest.id == records[-1]["id"] and latest.object == "openapi-spec-version"
    assert latest.url == "https://petstore3.swagger.io/api/v3/openapi.json"
    assert latest.urls is not None and latest.urls.location and latest.urls.location.endswith(latest.id)
    oldest = await client.openapi.version(state.demo_org, "petstore", records[0]["id"])
    assert oldest.id == records[0]["id"] and oldest.created_at is not None
    assert oldest.created_at < latest.created_at  # type: ignore[operator]
    content = await client.openapi.version_content(state.demo_org, "petstore", records[0]["id"])
    assert content.filesystem["files"]["openapi.json"]["info"]["version"] == "1.0.17"
    assert content.source_url == "https://petstore3.swagger.io/api/v3/openapi.json"
    newest = await client.openapi.latest_version_content(state.demo_org, "petstore")
    assert newest.filesystem["files"]["openapi.json"]["info"]["version"] == "1.0.19"


async def test_unknown_versions_are_not_found(client: GitBookClient, state: SandboxState) -> None:
    with pytest.raises(NotFound):
        await client.openapi.version(state.demo_org, "petstore", "nope")
    with pytest.raises(NotFound):
        await client.openapi.version_content(state.demo_org, "petstore", "nope")
    with pytest.raises(NotFound):
        await client.openapi.versions(state.demo_org, "no-such-spec").collect()
    with pytest.raises(NotFound):
        await client.openapi.latest_version(state.demo_org, "no-such-spec")
    specs(state)["petstore"]["versions"].clear()
    specs(state)["petstore"]["lastVersion"] = None
    with pytest.raises(NotFound):
        await client.openapi.latest_version_content(state.demo_org, "petstore")


# --- limits -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "kw", "field"),
    [
        ("", {"url": "https://example.com/a.json"}, "slug"),
        ("x" * 101, {"url": "https://example.com/a.json"}, "slug"),
        ("bad slug", {"url": "https://example.com/a.json"}, "slug"),
        ("-leading", {"url": "https://example.com/a.json"}, "slug"),
        ("double--dash", {"url": "https://example.com/a.json"}, "slug"),
        ("ok", {"url": "https://example.com/" + "a" * 2030}, "source.url"),
        ("ok", {"url": "not a url"}, "source.url"),
        ("ok", {"url": "https://exa mple.com/x"}, "source.url"),
        ("ok", {"url": "https://example.com/a\x07.json"}, "source.url"),
        ("ok", {}, "source"),
        ("ok", {"url": "https://example.com/a.json", "text": YAML}, "source"),
        ("ok", {"text": ""}, "source.text"),
    ],
)
async def test_limits_are_caught_before_sending(
    client: GitBookClient, state: SandboxState, slug: str, kw: dict[str, Any], field: str
) -> None:
    before = dict(specs(state))
    with pytest.raises(InvalidRequest) as caught:
        await client.openapi.create(state.demo_org, slug=slug, **kw)
    assert caught.value.field == field
    with pytest.raises(InvalidRequest) as caught:
        await client.openapi.put(state.demo_org, slug, **kw)
    assert caught.value.field == field
    assert specs(state) == before


async def test_other_source_variants_pass_through(client: GitBookClient, state: SandboxState) -> None:
    spec = await client.openapi.create(state.demo_org, slug="passed", source={"text": YAML})
    assert spec.slug == "passed" and specs(state)["passed"]["source"] == {"text": YAML}
    with pytest.raises(InvalidRequest) as caught:
        await client.openapi.create(state.demo_org, slug="passed2", source={"url": "ftp:/nowhere"})
    assert caught.value.field == "source.url"


async def test_visibility_is_checked_before_sending(client: GitBookClient, state: SandboxState) -> None:
    with pytest.raises(InvalidRequest) as caught:
        await client.openapi.update(state.demo_org, "petstore", visibility="internal")  # type: ignore[arg-type]
    assert caught.value.field == "visibility"
    assert specs(state)["petstore"]["visibility"] == "public"


@pytest.mark.parametrize(
    ("method", "suffix", "body", "words"),
    [
        ("POST", "", {"slug": "bad slug", "source": {"url": "https://e.x/a"}}, "slug"),
        ("POST", "", {"slug": "x" * 101, "source": {"url": "https://e.x/a"}}, "slug"),
        ("POST", "", {"source": {"url": "https://e.x/a"}}, "slug is required"),
        ("POST", "", {"slug": "ok"}, "source is required"),
        ("POST", "", {"slug": "ok", "source": {"file": "a.yaml"}}, "source must be one of"),
        ("POST", "", {"slug": "ok", "source": {"url": "https://e.x/" + "a" * 2048}}, "source.url"),
        ("POST", "", {"slug": "ok", "source": {"url": "relative/path"}}, "source.url"),
        ("POST", "", {"slug": "ok", "source": {"url": "https://exa mple.com/x"}}, "source.url must be a URI"),
        ("PUT", "/petstore", {"source": {"url": "https://exa mple.com/x"}}, "source.url must be a URI"),
        ("PUT", "/bad--slug", {"source": {"url": "https://e.x/a"}}, "specSlug"),
        ("PUT", "/petstore", {"source": {"text": ""}}, "source.text"),
        ("PATCH", "/petstore", {"visibility": "secret"}, "visibility"),
        ("PATCH", "/petstore", {}, "visibility is required"),
    ],
)
async def test_invalid_bodies_are_refused_by_the_service(
    client: GitBookClient, state: SandboxState, method: str, suffix: str, body: dict[str, Any], words: str
) -> None:
    before = {slug: dict(rec) for slug, rec in specs(state).items()}
    with pytest.raises(BadRequest) as caught:
        await client.request_json(method, f"/orgs/{state.demo_org}/openapi{suffix}", json=body)
    assert words in caught.value.message
    assert {slug: dict(rec) for slug, rec in specs(state).items()} == before
