"""The OpenAPI specs service (and the translations service, the other half of the same issue) over the seeded
sandbox: the checks as typed, the processing state in words and the pace of following it, a version's files and
two versions compared, where a spec is used read from the cache only; the languages by name."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from folio.api import GitBookClient, RetryPolicy, Token
from folio.models.openapi import OpenAPISpec
from folio.models.translation import KNOWN_TRANSLATION_LANGUAGES, Translation
from folio.sandbox import SandboxState, SandboxTransport, create_app
from folio.services import Services
from folio.services.content.translations import (
    LANGUAGE_NAMES,
    instructions_text,
    language_label,
    match_languages,
    resolve_language,
)
from folio.services.insights.references import (
    POLL_FIRST,
    POLL_MAX,
    OperationChanges,
    ProcessingWatch,
    SpecFile,
    compare_files,
    compare_operations,
    display_state,
    file_tree,
    files_of,
    info_version,
    next_delay,
    operations,
    processing_report,
    slug_problem,
    url_problem,
)
from tests.api.test_client_cache import DictStore
from tests.conftest import SANDBOX_URL, TOKEN, Link


def spec(**fields: object) -> OpenAPISpec:
    return OpenAPISpec.model_validate({"id": "s1", "slug": "petstore", **fields})


# --- checks as typed ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "problem"),
    [
        ("petstore", None),
        ("billing-v2", None),
        ("a" * 100, None),
        ("", "Slug is empty"),
        ("a" * 101, "Slug is too long (101 characters)"),
        ("pet store", "letters and digits in groups"),
        ("pet--store", "letters and digits in groups"),
        ("-pet", "letters and digits in groups"),
    ],
)
def test_slug_problems(slug: str, problem: str | None) -> None:
    found = slug_problem(slug)
    assert (found is None) if problem is None else (found is not None and problem in found)


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("https://example.com/openapi.yaml", None),
        ("http://example.com/a.json", None),
        ("", "Write the URL"),
        ("example.com/openapi.yaml", "not an absolute URI"),
        ("ftp://example.com/openapi.yaml", "http:// or https://"),
        ("https://example.com/" + "a" * 2030, "too long"),
        ("https://exa mple.com/x", "has a space at character 12"),
        ("https://example.com/a\tb.json", "a blank or control character"),
        ("https://example.com/\x1b[31m.json", "a blank or control character"),
        (" https://example.com/a.json", "has a space at character 1"),
    ],
)
def test_url_problems(url: str, problem: str | None) -> None:
    found = url_problem(url)
    assert (found is None) if problem is None else (found is not None and problem in found)


# --- the processing state -------------------------------------------------------------------------------------


def test_display_state_names_a_failed_run() -> None:
    assert display_state(spec(processingState="pending")) == "pending"
    assert display_state(spec(processingState="progress")) == "progress"
    assert display_state(spec(processingState="complete")) == "complete"
    failed = spec(
        processingState="complete",
        lastProcessErrorCode="FETCH_TIMEOUT",
        lastProcessedErrors=[{"message": "timed out after 30 s", "code": "FETCH_TIMEOUT"}, {"message": "again"}],
        lastProcessedErrorCount=7,
    )
    assert display_state(failed) == "failed"
    assert processing_report(failed) == "FETCH_TIMEOUT:\n• timed out after 30 s\n• again\n… and 5 more"


def test_the_wait_doubles_up_to_thirty_seconds() -> None:
    waits = [POLL_FIRST]
    for _ in range(6):
        waits.append(next_delay(waits[-1]))
    assert waits == [2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0]
    assert POLL_MAX == 30.0


def test_the_watch_reports_each_ended_spec_once() -> None:
    watch = ProcessingWatch()
    pending = spec(processingState="pending")
    assert watch.follow(pending) and watch.slugs == {"petstore"}
    assert not watch.follow(spec(slug="done", processingState="complete"))
    other = OpenAPISpec.model_validate({"id": "s2", "slug": "billing", "processingState": "progress"})
    assert watch.ended([pending, other]) == [] and watch.slugs == {"petstore", "billing"}
    watch.looked()
    watch.looked()
    assert watch.delay == 8.0
    finished = spec(processingState="complete", lastProcessErrorCode="PARSE_ERROR")
    assert watch.ended([finished, other]) == [finished]
    assert watch.ended([finished, other]) == []  # once
    assert watch.ended([]) == [] and watch.slugs == set()  # gone from the list: forgotten
    watch.reset()
    assert watch.delay == POLL_FIRST


# --- files ----------------------------------------------------------------------------------------------------


def test_files_of_the_shapes_a_filesystem_may_take() -> None:
    sandbox = files_of({"entrypoint": "openapi.json", "files": {"openapi.json": {"openapi": "3.1.0"}}})
    assert sandbox == [SpecFile("openapi.json", '{\n  "openapi": "3.1.0"\n}', entry=True)]
    listed = files_of({"files": [{"path": "b.yaml", "content": "b: 1"}, {"name": "a.yaml", "text": "a: 1"}]})
    assert [(f.path, f.text, f.entry) for f in listed] == [("a.yaml", "a: 1", False), ("b.yaml", "b: 1", False)]
    plain = files_of({"/spec/main.yaml": "openapi: 3.1.0\n", "spec/parts/x.yaml": "x: 1"})
    assert [f.path for f in plain] == ["spec/main.yaml", "spec/parts/x.yaml"]
    assert (plain[0].lines, plain[1].lines, SpecFile("x", "").lines) == (1, 1, 0)


def test_file_tree_puts_each_folder_before_its_files() -> None:
    rows = file_tree(["openapi.yaml", "parts/schemas/pet.yaml", "parts/paths.yaml"])
    assert rows == [
        ("openapi.yaml", "openapi.yaml", 0, False),
        ("parts", "parts/", 0, True),
        ("parts/paths.yaml", "paths.yaml", 1, False),
        ("parts/schemas", "schemas/", 1, True),
        ("parts/schemas/pet.yaml", "pet.yaml", 2, False),
    ]


def test_compare_files() -> None:
    before = [SpecFile("a.yaml", "a: 1"), SpecFile("b.yaml", "b: 1"), SpecFile("c.yaml", "c: 1")]
    after = [SpecFile("a.yaml", "a: 1"), SpecFile("b.yaml", "b: 2"), SpecFile("d.yaml", "d: 1")]
    assert [(c.path, c.status) for c in compare_files(before, after)] == [
        ("a.yaml", "same"),
        ("b.yaml", "changed"),
        ("c.yaml", "removed"),
        ("d.yaml", "added"),
    ]


# --- the service over the sandbox -------------------------------------------------------------------------------


@pytest.fixture
def services(client: GitBookClient) -> Services:
    return Services(client, where="the test sandbox")


async def test_a_new_spec_answers_pending_then_reads_complete(services: Services, state: SandboxState) -> None:
    refs = services.references
    created = await refs.create(state.demo_org, "orders", "https://api.northwind.dev/orders/openapi.json")
    assert display_state(created) == "pending" and created.is_processing
    assert state.openapi_specs[state.demo_org]["orders"]["source"] == {
        "url": "https://api.northwind.dev/orders/openapi.json"
    }
    state.clock.advance(seconds=6)  # processing takes a few seconds of the sandbox clock
    read = await refs.get(state.demo_org, "orders")
    assert display_state(read) == "complete" and read.last_version == created.last_version
    assert await refs.find(state.demo_org, "no-such-spec") is None


async def test_a_failed_fetch_is_reported(services: Services, state: SandboxState) -> None:
    refs = services.references
    await refs.create(state.demo_org, "slow", "https://timeout.example.com/openapi.yaml")
    state.clock.advance(seconds=6)  # processing takes a few seconds of the sandbox clock
    read = await refs.get(state.demo_org, "slow")
    assert display_state(read) == "failed" and read.last_process_error_code == "FETCH_TIMEOUT"
    assert "timed out" in processing_report(read)


async def test_source_visibility_and_delete(services: Services, state: SandboxState) -> None:
    refs, org = services.references, state.demo_org
    before = len(state.openapi_specs[org]["billing-api"]["versions"])
    updated = await refs.update_source(org, "billing-api", "https://api.northwind.dev/billing/openapi.yaml")
    assert updated.source_url == "https://api.northwind.dev/billing/openapi.yaml"
    assert len(state.openapi_specs[org]["billing-api"]["versions"]) == before + 1
    await refs.set_visibility(org, "billing-api", "public")
    assert state.openapi_specs[org]["billing-api"]["visibility"] == "public"
    await refs.delete(org, "billing-api")
    assert "billing-api" not in state.openapi_specs[org]


async def test_versions_newest_first_and_their_files(services: Services, state: SandboxState) -> None:
    refs, org = services.references, state.demo_org
    versions = await refs.versions(org, "petstore")
    stored = state.openapi_specs[org]["petstore"]["versions"]
    assert [v.id for v in versions] == [v["id"] for v in reversed(stored)]
    content, files = await refs.version_files(org, "petstore", versions[0].id)
    assert content.source_url == "https://petstore3.swagger.io/api/v3/openapi.json"
    assert [(f.path, f.entry) for f in files] == [("openapi.json", True)]
    assert '"version": "1.0.19"' in files[0].text
    changes = await refs.compare(org, "petstore", versions[-1].id, versions[0].id)
    assert [(c.path, c.status) for c in changes] == [("openapi.json", "changed")]
    assert '"1.0.17"' in (changes[0].before or "") and '"1.0.19"' in (changes[0].after or "")


async def test_each_version_by_its_own_version_and_two_compared_by_operation(
    services: Services, state: SandboxState
) -> None:
    refs, org = services.references, state.demo_org
    pets = await refs.versions(org, "petstore")
    assert await refs.version_labels(org, "petstore", [v.id for v in pets]) == dict(
        zip([v.id for v in pets], ["1.0.19", "1.0.18", "1.0.17"], strict=True)
    )
    billing = await refs.versions(org, "billing-api")  # YAML text
    labels = await refs.version_labels(org, "billing-api", [v.id for v in billing])
    assert [labels[v.id] for v in billing] == ["2.4.0", "2.3.0"]
    assert len(await refs.version_labels(org, "petstore", [v.id for v in pets], most=1)) == 1
    comparison = await refs.comparison(org, "petstore", pets[-1].id, pets[0].id)
    assert [(c.path, c.status) for c in comparison.files] == [("openapi.json", "changed")]
    assert comparison.operations == OperationChanges(
        added=["GET /pet/findByStatus"], removed=[], changed=["DELETE /pet/{petId}"]
    )


YAML_SPEC = """openapi: 3.1.0
info:
  title: Fleet
  version: '2.0.0' # the release
paths:
  /fleets:
    get:
      summary: List fleets
    post:
      summary: Add a fleet
  "/fleets/{id}":
    parameters: []
    delete:
      summary: Remove a fleet
components: {}
"""


def test_info_version_from_json_and_yaml() -> None:
    assert info_version('{"openapi": "3.1.0", "info": {"title": "x", "version": "4.2"}}') == "4.2"
    assert info_version('{"openapi": "3.1.0", "info": {"title": "x"}}') is None
    assert info_version(YAML_SPEC) == "2.0.0"
    assert info_version("openapi: 3.1.0\npaths: {}\n") is None
    assert info_version("[" * 5000) is None  # not JSON: no version, no error


def test_operations_of_a_yaml_description_and_changes_between_two() -> None:
    assert operations(YAML_SPEC) == {
        "GET /fleets": "summary: List fleets",
        "POST /fleets": "summary: Add a fleet",
        "DELETE /fleets/{id}": "summary: Remove a fleet",
    }
    assert operations("just some text") is None
    newer = YAML_SPEC.replace("Add a fleet", "Add fleets").replace('  "/fleets/{id}":', "  /boats:")
    changes = compare_operations([SpecFile("a.yaml", YAML_SPEC, True)], [SpecFile("a.yaml", newer, True)])
    assert changes == OperationChanges(
        added=["DELETE /boats"], removed=["DELETE /fleets/{id}"], changed=["POST /fleets"]
    )
    assert changes.summary() == (
        "Operations: 1 added (DELETE /boats) · 1 removed (DELETE /fleets/{id}) · 1 changed (POST /fleets)."
    )
    assert OperationChanges([], [], []).summary() == "Operations: none added, removed or changed."
    many = OperationChanges([f"GET /p{n}" for n in range(5)], [], [])
    assert many.summary() == "Operations: 5 added (GET /p0, GET /p1, GET /p2, and 2 more)."
    assert compare_operations([SpecFile("a.txt", "notes", True)], [SpecFile("a.yaml", YAML_SPEC, True)]) is None
    two = [SpecFile("a.yaml", YAML_SPEC), SpecFile("b.yaml", YAML_SPEC)]  # no entry among several files
    assert compare_operations(two, two) is None


# --- where a spec is used: the cache only -----------------------------------------------------------------------


@pytest.fixture
async def cached(state: SandboxState) -> AsyncIterator[tuple[Services, Link]]:
    async def no_sleep(seconds: float) -> None:
        return None

    link = Link(SandboxTransport(create_app(state)))
    client = GitBookClient(token=Token(TOKEN), base_url=SANDBOX_URL, transport=link, retry=RetryPolicy(sleep=no_sleep))
    client.store = DictStore()
    yield Services(client, where="the test sandbox"), link
    await client.aclose()


def _add_api_page(state: SandboxState, title: str, slug: str) -> str:
    space = next(s for s in state.spaces.values() if s["title"] == title)
    page_id = state.new_id()
    state.revisions[space["revision"]]["pages"].append(
        {
            "id": page_id,
            "type": "computed",
            "title": "Pet API",
            "computed": {
                "type": "builtin:openapi",
                "dependencies": {"spec": {"ref": {"kind": "openapi", "spec": slug}}},
            },
        }
    )
    return page_id


async def test_usages_are_read_from_cached_pages_without_a_request(
    cached: tuple[Services, Link], state: SandboxState
) -> None:
    services, link = cached
    org = state.demo_org
    _add_api_page(state, "REST API Reference", "petstore")
    nothing = await services.references.usages(org, "petstore")
    assert (nothing.pages, nothing.spaces_total) == ([], None) and link.sent == []

    async for _ in services.browse.spaces_pages(org):  # the organization screen's spaces tab, cached
        pass
    api = next(s for s in state.spaces.values() if s["title"] == "REST API Reference")
    await services.space.pages(api["id"])  # the space screen's page tree, cached
    sent = len(link.sent)
    found = await services.references.usages(org, "petstore")
    assert len(link.sent) == sent  # not one request
    assert [(u.space_title, u.page_title) for u in found.pages] == [("REST API Reference", "Pet API")]
    assert found.spaces_read == 1 and found.spaces_total == len(
        [s for s in state.spaces.values() if s["organization"] == org and not s.get("deletedAt")]
    )
    other = await services.references.usages(org, "billing-api")
    assert other.pages == [] and len(link.sent) == sent


# --- translations -----------------------------------------------------------------------------------------------


def test_every_language_of_the_description_has_a_name() -> None:
    assert set(LANGUAGE_NAMES) == set(KNOWN_TRANSLATION_LANGUAGES)
    assert language_label("pt-br") == "Portuguese, Brazil (pt-br)"
    assert language_label("xx") == "xx"  # one the service adds later reads as its code


@pytest.mark.parametrize(
    ("typed", "first", "resolved"),
    [
        ("fr", "fr", "fr"),
        ("French (fr)", "fr", "fr"),
        ("french", "fr", "fr"),
        ("port", "pt", None),  # two Portugueses: not resolved until one is picked
        ("brazil", "pt-br", "pt-br"),
        ("chinese trad", "zh-tw", "zh-tw"),
        ("zz", None, None),
    ],
)
def test_languages_filtered_as_typed(typed: str, first: str | None, resolved: str | None) -> None:
    found = match_languages(typed)
    assert (found[0] if found else None) == first
    assert resolve_language(typed) == resolved


def test_match_with_nothing_typed_lists_every_language() -> None:
    assert match_languages("  ") == list(LANGUAGE_NAMES)


async def test_translation_create_run_instructions_delete(services: Services, state: SandboxState) -> None:
    tr, org = services.translations, state.demo_org
    spaces = await tr.spaces(org)
    handbook = next(s for s in spaces if s.title == "Admin Handbook")
    created = await tr.create(
        org, language="it", source_space=handbook.id, source_language="en", instructions="Formal.\nShort."
    )
    assert isinstance(created, Translation) and state.translations[created.id]["language"] == "it"
    assert instructions_text(created) == "Formal.\nShort."
    found = await tr.find_created(org, language="it", source_space=handbook.id)
    assert found is not None and found.id == created.id
    plain = await tr.create(org, language="de", source_space=handbook.id, source_language="en")
    assert state.translations[plain.id]["instructions"]["nodes"] == []
    await tr.get(org, created.id)  # a read finishes the queued first run
    runs = state.translations[created.id]["stats"]["runs"]
    await tr.run(org, created.id)
    assert state.translations[created.id]["status"] == "running"
    assert state.translations[created.id]["stats"]["runs"] == runs + 1
    saved = await tr.update_instructions(org, created.id, "")
    assert instructions_text(saved) == "" and state.translations[created.id]["instructions"]["nodes"] == []
    await tr.delete(org, created.id)
    assert created.id not in state.translations
