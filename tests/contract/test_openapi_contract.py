"""The contract: every operation in scope was exercised through a sandbox route, the sandbox's answers validate
against the public OpenAPI description's response schemas, and the requests the client built validate against
its request schemas. Runs after tests/api in a full run (it reads what they recorded); alone, it runs them first.

Where api-spec.md deliberately differs from the description, the difference is listed in EXCEPTIONS with why.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests import conftest
from tests.contract.catalogue import ALL, OPTIONAL
from tests.contract.openapi import Description, load, pointer

ROOT = Path(__file__).resolve().parents[2]

# (method, path with {}) -> why the sandbox follows api-spec.md there, not the description.
EXCEPTIONS: dict[tuple[str, str], str] = {}

# Query parameters api-spec.md gives that the description lacks: (method, path) -> {name: why}.
EXTRA_QUERY: dict[tuple[str, str], dict[str, str]] = {
    ("GET", "/spaces/{}/change-requests"): {
        "conversationsIssuesCluster": "api-spec.md 4.9 lists this filter; the description does not",
    },
    ("GET", "/orgs/{}/change-requests"): {
        "conversationsIssuesCluster": "api-spec.md 4.9 lists this filter; the description does not",
    },
}


def _norm(template: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", template)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if conftest.EXCHANGES:
        return {"hits": sorted(conftest.HITS), "exchanges": conftest.EXCHANGES}
    # Run alone: record the API tests in a subprocess.
    out = tmp_path_factory.mktemp("contract") / "recorded.json"
    env = {**os.environ, "FOLIO_RECORD_EXCHANGES": str(out)}
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "tests/api"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=900,
    )
    data: dict[str, Any] = json.loads(out.read_text())
    return data


@pytest.fixture(scope="module")
def description() -> Description:
    return load()


def test_every_operation_in_scope_was_exercised(recorded: dict[str, Any]) -> None:
    hits = {(m, _norm(p)) for m, p in recorded["hits"]}
    missing = sorted(set(ALL) - hits)
    assert missing == [], f"{len(missing)} operations in scope no test exercised through the sandbox"


def test_optional_operations_are_exactly_those_the_description_lacks(description: Description) -> None:
    lacking = {(m, p) for m, p in ALL if not description.has(m, p)}
    assert lacking == OPTIONAL


def _in_scope(method: str, template: str) -> bool:
    return (method, _norm(template)) in set(ALL)


def test_sandbox_answers_validate_against_the_description(recorded: dict[str, Any], description: Description) -> None:
    problems: dict[str, str] = {}
    checked = 0
    for ex in recorded["exchanges"]:
        found = description.operation(ex["method"], ex["path"])
        if found is None:
            continue
        template, op = found
        key = (ex["method"], _norm(template))
        if not _in_scope(*key) or key in EXCEPTIONS:
            continue
        status = str(ex["status"])
        responses = op.get("responses", {})
        if status not in responses and "default" not in responses:
            if ex["status"] < 400:
                problems.setdefault(f"{key} {status}", f"status not described (has {sorted(responses)})")
            continue
        name = status if status in responses else "default"
        response = responses[name]
        if "$ref" in response:
            ref_name = response["$ref"].rsplit("/", 1)[-1]
            base = pointer("components", "responses", ref_name)
            response = description.doc["components"]["responses"][ref_name]
        else:
            base = pointer("paths", template, ex["method"].lower(), "responses", name)
        schema = response.get("content", {}).get("application/json", {}).get("schema")
        if schema is None or ex["response"] is None:
            continue
        checked += 1
        error = next(
            iter(description.validator(base + "/content/application~1json/schema").iter_errors(ex["response"])), None
        )
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path)
            problems.setdefault(f"{key} {status}", f"at {where or '(root)'}: {error.message[:300]}")
    assert checked > 100
    assert problems == {}


def test_client_requests_validate_against_the_description(recorded: dict[str, Any], description: Description) -> None:
    problems: dict[str, str] = {}
    checked = 0
    for ex in recorded["exchanges"]:
        found = description.operation(ex["method"], ex["path"])
        if found is None:
            continue
        template, op = found
        key = (ex["method"], _norm(template))
        if not _in_scope(*key) or key in EXCEPTIONS:
            continue
        params = description.parameters(op)
        for name, _value in ex["query"]:
            if name in EXTRA_QUERY.get(key, {}):
                continue
            if name not in params or params[name].get("in") != "query":
                problems.setdefault(f"{key} ?{name}", "query parameter not described")
        body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
        if ex["request"] is None or body is None or ex["status"] == 400:
            continue
        checked += 1
        base = pointer("paths", template, ex["method"].lower(), "requestBody", "content", "application/json", "schema")
        error = next(iter(description.validator(base).iter_errors(ex["request"])), None)
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path)
            problems.setdefault(f"{key}", f"at {where or '(root)'}: {error.message[:300]}")
    assert checked > 20
    assert problems == {}
