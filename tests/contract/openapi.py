"""The service's public OpenAPI description, fetched the way DEVELOPERS.md says (``npm pack``), never committed,
and turned into validators (``oneOf`` read as ``anyOf``: the description's branches overlap)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

PACKAGE = "@gitbook/api@0.202.0"
CACHE = Path(__file__).resolve().parents[2] / ".cache" / "openapi" / "0.202.0"
URN = "urn:gitbook-openapi"


def fetch() -> Path:
    """The description's path, downloading it with npm on first use."""
    target = CACHE / "openapi.json"
    if target.exists():
        return target
    npm = shutil.which("npm")
    if npm is None:
        message = "npm is needed to fetch the public OpenAPI description (npm pack @gitbook/api@0.202.0)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [npm, "pack", PACKAGE, "--silent", "--pack-destination", tmp],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        tarball = Path(tmp) / out.stdout.strip().splitlines()[-1]
        with tarfile.open(tarball) as tar:
            member = tar.getmember("package/spec/openapi.json")
            extracted = tar.extractfile(member)
            assert extracted is not None
            partial = target.with_suffix(".part")
            partial.write_bytes(extracted.read())
            partial.replace(target)
    return target


def _one_of_as_any_of(node: Any) -> Any:
    if isinstance(node, dict):
        return {("anyOf" if k == "oneOf" else k): _one_of_as_any_of(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_one_of_as_any_of(v) for v in node]
    return node


class Description:
    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = _one_of_as_any_of(doc)
        self.registry: Registry = Registry().with_resource(
            URN, Resource.from_contents(self.doc, default_specification=DRAFT202012)
        )
        self._ops: list[tuple[str, re.Pattern[str], str, dict[str, Any]]] = []
        for template, item in self.doc["paths"].items():
            pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
            for method, op in item.items():
                if method in ("get", "post", "put", "patch", "delete"):
                    self._ops.append((method.upper(), pattern, template, op))
        # Literal segments first ("versions/latest" before "versions/{versionId}").
        self._ops.sort(key=lambda o: o[2].count("{"))

    def operation(self, method: str, path: str) -> tuple[str, dict[str, Any]] | None:
        for m, pattern, template, op in self._ops:
            if m == method and pattern.match(path):
                return template, op
        return None

    def has(self, method: str, template: str) -> bool:
        norm = re.sub(r"\{[^}]+\}", "{}", template)
        return any(m == method and re.sub(r"\{[^}]+\}", "{}", t) == norm for m, _, t, _ in self._ops)

    def validator(self, pointer: str) -> Draft202012Validator:
        return Draft202012Validator({"$ref": f"{URN}#{pointer}"}, registry=self.registry)

    def parameters(self, op: dict[str, Any]) -> dict[str, dict[str, Any]]:
        out = {}
        for param in op.get("parameters", []):
            if "$ref" in param:
                name = param["$ref"].rsplit("/", 1)[-1]
                param = self.doc["components"]["parameters"][name]
            out[param["name"]] = param
        return out


@cache
def load() -> Description:
    return Description(json.loads(fetch().read_text()))


def pointer(*parts: str) -> str:
    return "/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)
