"""The pure rules of the sites screens: the visitor schema's problems in words (and that they agree with the
models' rules, which the sandbox applies), settings as rows with their limits, the published filter's cycle, and
outlines and summaries of a structure."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from folio.models.site import Site
from folio.models.site_structure import SiteSectionsStructure, SiteSpacesStructure, adaptive_schema_problems
from folio.services.sites.sites import (
    STARTER_SCHEMA,
    check_setting,
    claim_counts,
    next_published_filter,
    outline,
    parse_schema,
    proxy_value,
    published_filter_label,
    schema_problems,
    schema_text,
    settings,
    structure_summary,
)

GOOD: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "isBeta": {"type": "boolean", "description": "Beta"},
        "plan": {"type": "boolean"},
        "unsigned": {
            "type": "object",
            "properties": {"optedIn": {"type": "boolean"}},
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}


def _with(path: list[str], value: Any) -> dict[str, Any]:
    schema = copy.deepcopy(GOOD)
    node = schema
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return schema


# --- the visitor schema --------------------------------------------------------------------------------------------

BAD = [
    pytest.param([], "The schema must be a JSON object", id="not-an-object"),
    pytest.param(_with(["type"], "array"), 'The schema\'s "type" must be "object"', id="type"),
    pytest.param(_with(["additionalProperties"], True), '"additionalProperties" must be false', id="additional"),
    pytest.param(_with(["additionalProperties"], KeyError), '"additionalProperties" must be false', id="no-additional"),
    pytest.param(_with(["$schema"], "draft-04"), "a draft-07 schema", id="draft"),
    pytest.param(_with(["title"], "x"), "keys the service does not accept: title", id="unknown-key"),
    pytest.param(_with(["properties"], KeyError), 'needs "properties"', id="no-properties"),
    pytest.param(
        _with(["properties", "plan", "type"], "string"),
        'Claim "plan" must be of type "boolean", not "string"',
        id="string-claim",
    ),
    pytest.param(_with(["properties", "plan"], True), 'Claim "plan" must be an object', id="claim-not-object"),
    pytest.param(
        _with(["properties", "plan", "enum"], [True]), 'Claim "plan" has keys the service does not accept: enum', id="x"
    ),
    pytest.param(_with(["properties", "plan", "description"], 3), "its description must be text", id="description"),
    pytest.param(_with(["properties", "unsigned"], []), '"unsigned" property must be an object', id="unsigned-list"),
    pytest.param(
        _with(["properties", "unsigned", "type"], "string"), '"unsigned" property\'s "type"', id="unsigned-type"
    ),
    pytest.param(
        _with(["properties", "unsigned", "additionalProperties"], True),
        '"unsigned" property\'s "additionalProperties" must be false',
        id="unsigned-additional",
    ),
    pytest.param(
        _with(["properties", "unsigned", "properties", "optedIn", "type"], "number"),
        'Unsigned claim "optedIn" must be of type "boolean", not "number"',
        id="unsigned-claim",
    ),
    pytest.param(
        _with(["properties", "unsigned", "properties"], KeyError),
        '"unsigned" property needs "properties"',
        id="unsigned-properties",
    ),
]


@pytest.mark.parametrize(("schema", "words"), BAD)
def test_each_problem_is_said_in_words(schema: Any, words: str) -> None:
    problems = schema_problems(schema)
    assert any(words in p for p in problems), problems
    # The words agree with the models' rules, which the sandbox (and so the service's shape) applies.
    assert adaptive_schema_problems(schema)


@pytest.mark.parametrize(
    "schema",
    [
        GOOD,
        STARTER_SCHEMA,
        {"type": "object", "properties": {}, "additionalProperties": False},
        _with(["properties", "unsigned"], KeyError),
        _with(["description"], "Visitors of the docs"),
    ],
)
def test_acceptable_schemas_have_no_problems(schema: Any) -> None:
    assert schema_problems(schema) == []
    assert adaptive_schema_problems(schema) == []


def test_several_problems_are_all_listed() -> None:
    schema = {"type": "array", "properties": {"a": {"type": "string"}, "b": {"type": "boolean"}}}
    problems = schema_problems(schema)
    assert problems == [
        'The schema\'s "type" must be "object".',
        'The schema\'s "additionalProperties" must be false.',
        'Claim "a" must be of type "boolean", not "string".',
    ]


def test_parse_schema_says_where_json_is_broken() -> None:
    value, problems = parse_schema('{"type": "object",\n  "properties": }')
    assert value is None
    assert problems == ["Not valid JSON: Expecting value at line 2, column 17."]
    value, problems = parse_schema(schema_text(GOOD))
    assert value == GOOD and problems == []
    assert parse_schema("[1]")[1] == ["The schema must be a JSON object, { ... }."]


def test_claim_counts_and_schema_text() -> None:
    assert claim_counts(GOOD) == (2, 1)
    assert claim_counts(STARTER_SCHEMA) == (0, 0)
    assert claim_counts("nonsense") == (0, 0)
    assert schema_text({"a": "é"}) == '{\n  "a": "é"\n}'


# --- settings ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "text", "problem"),
    [
        ("title", "Docs", None),
        ("title", "D", "Title is too short (1 characters); the limit is 2..128 characters."),
        ("title", "", "Title is empty; the limit is 2..128 characters."),
        ("title", "x" * 129, "Title is too long (129 characters); the limit is 2..128 characters."),
        ("basename", "docs", None),
        ("basename", "", "Basename is empty; the limit is 1..100 characters."),
        ("basename", "b" * 101, "Basename is too long (101 characters); the limit is 1..100 characters."),
        ("proxy", "company.com/docs", None),
        ("proxy", "null", None),
        ("proxy", "  ", None),
        ("proxy", "company.com", "Proxy 'company.com' has a form the service does not accept: write a domain"),
        ("proxy", "a.io/" + "p" * 520, "Proxy is too long (525 characters); the limit is at most 512 characters."),
        ("visibility", "anything", None),
    ],
)
def test_text_settings_are_checked_with_the_limit_named(key: str, text: str, problem: str | None) -> None:
    found = check_setting(key, text)
    if problem is None:
        assert found is None
    else:
        assert found is not None and found.startswith(problem), found


def test_proxy_value_null_removes() -> None:
    assert proxy_value("null") is None
    assert proxy_value("") is None
    assert proxy_value(" company.com/docs ") == "company.com/docs"


def _site(**fields: Any) -> Site:
    return Site.model_validate({"id": "s1", "title": "Docs", "visibility": "public", **fields})


SECTIONS = SiteSectionsStructure.model_validate(
    {
        "type": "sections",
        "structure": [
            {
                "object": "site-section-group",
                "id": "g1",
                "title": "Product",
                "children": [
                    {
                        "object": "site-section",
                        "id": "sec1",
                        "title": "Guide",
                        "path": "guide",
                        "default": True,
                        "urls": {"published": "https://docs.example.com/"},
                        "siteSpaces": [
                            {"id": "ss1", "path": "en", "title": "English", "default": True},
                            {"id": "ss2", "path": "fr", "title": "Français", "condition": "visitor.claims.fr == true"},
                        ],
                    }
                ],
            },
            {
                "object": "site-section",
                "id": "sec2",
                "title": "API",
                "path": "api",
                "condition": "visitor.claims.isBeta == true",
                "siteSpaces": [{"id": "ss3", "path": "rest", "title": "REST", "hidden": True, "default": True}],
            },
            {"object": "site-external-link", "id": "l1", "title": "Status", "url": "https://status.example.com"},
        ],
    }
)
ROOT = SiteSpacesStructure.model_validate(
    {
        "type": "siteSpaces",
        "structure": [
            {"id": "r1", "path": "one", "title": "One", "default": True},
            {"id": "r2", "path": "two", "title": "Two", "hidden": True},
        ],
    }
)


def test_settings_rows_show_values_and_offer_the_sites_own_choices() -> None:
    site = _site(proxy={"origin": "company.com/docs"}, adaptiveContent={"enabled": True}, agentsContext="excluded")
    rows = {s.key: s for s in settings(site, SECTIONS)}
    assert [s.label for s in settings(site, SECTIONS)] == [
        "Title",
        "Visibility",
        "Basename",
        "Proxy",
        "Agents context",
        "Adaptive content",
        "Default section",
        "Default site space",
    ]
    assert (rows["title"].value, rows["title"].kind, rows["title"].help) == ("Docs", "text", "2..128 characters.")
    assert [c.value for c in rows["visibility"].choices] == ["public", "unlisted", "share-link", "visitor-auth"]
    assert rows["basename"].value == "—" and rows["basename"].current == ""
    assert rows["proxy"].value == "company.com/docs" and "null" in rows["proxy"].help
    assert rows["agentsContext"].value == "excluded" and rows["adaptiveContent"].value == "on"
    assert rows["defaultSiteSection"].value == "Guide" and rows["defaultSiteSection"].current == "sec1"
    assert [c.value for c in rows["defaultSiteSection"].choices] == ["sec1", "sec2"]
    assert rows["defaultSiteSpace"].value == "English"
    assert [c.label for c in rows["defaultSiteSpace"].choices] == ["English (/en)", "Français (/fr)"]


def test_settings_of_a_site_without_sections() -> None:
    rows = {s.key: s for s in settings(_site(), ROOT)}
    assert rows["defaultSiteSection"].choices == () and "no sections" in rows["defaultSiteSection"].value
    assert [c.value for c in rows["defaultSiteSpace"].choices] == ["r1", "r2"]
    assert rows["defaultSiteSpace"].value == "One"
    assert rows["adaptiveContent"].value == "off" and rows["proxy"].value == "—"
    assert {s.key: s for s in settings(_site(), None)}["defaultSiteSpace"].choices == ()


def test_published_filter_cycles() -> None:
    assert [next_published_filter(v) for v in (None, True, False)] == [True, False, None]
    assert [published_filter_label(v) for v in (None, True, False)] == [
        "All sites",
        "Published sites",
        "Unpublished sites",
    ]


# --- outlines ------------------------------------------------------------------------------------------------------


def test_outline_nests_groups_sections_and_site_spaces() -> None:
    nodes = outline(SECTIONS)
    assert [(n.kind, n.title) for n in nodes] == [
        ("site-section-group", "Product"),
        ("site-section", "API  /api"),
        ("site-external-link", "Status"),
    ]
    guide = nodes[0].children[0]
    assert (guide.title, guide.url, guide.notes) == ("Guide  /guide", "https://docs.example.com/", ("default",))
    assert [(c.title, c.notes) for c in guide.children] == [
        ("English  /en", ("default",)),
        ("Français  /fr", ("if visitor.claims.fr == true",)),
    ]
    assert nodes[1].notes == ("if visitor.claims.isBeta == true",)
    assert nodes[1].children[0].notes == ("default", "hidden")
    assert nodes[2].url == "https://status.example.com"
    assert [n.title for n in outline(ROOT)] == ["One  /one", "Two  /two"]


def test_structure_summary_in_words() -> None:
    assert structure_summary(SECTIONS) == (
        "2 sections in 1 group (1 with a condition), 1 link · 3 site spaces (1 hidden, 1 with a condition)"
    )
    assert structure_summary(ROOT) == "2 site spaces at the root, no sections (1 hidden)"
    assert structure_summary(SiteSpacesStructure()) == "0 site spaces at the root, no sections"
