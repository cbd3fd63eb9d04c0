"""Installs are reproducible: every runtime dependency has an upper bound, and every dependency (runtime and dev)
is pinned in constraints.txt at a version its range admits, which is the version installed here."""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def _project() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]  # type: ignore[no-any-return]


def _runtime() -> list[Requirement]:
    return [Requirement(line) for line in _project()["dependencies"]]  # type: ignore[attr-defined]


def _dev() -> list[Requirement]:
    return [Requirement(line) for line in _project()["optional-dependencies"]["dev"]]  # type: ignore[index]


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, pinned = line.partition("==")
        assert sep, f"constraints.txt pins with ==: {line!r}"
        pins[canonicalize_name(name)] = pinned.strip()
    return pins


@pytest.mark.parametrize("requirement", _runtime(), ids=str)
def test_runtime_dependency_has_an_upper_bound(requirement: Requirement) -> None:
    assert any(spec.operator in ("<", "<=", "==", "~=") for spec in requirement.specifier), (
        f"{requirement} has no upper bound: a new major version could break an install"
    )


@pytest.mark.parametrize("requirement", [*_runtime(), *_dev()], ids=str)
def test_dependency_is_pinned_within_its_range(requirement: Requirement) -> None:
    pins = _pins()
    name = canonicalize_name(requirement.name)
    assert name in pins, f"{requirement.name} is not in constraints.txt: run `make constraints`"
    assert requirement.specifier.contains(pins[name], prereleases=True), (
        f"constraints.txt pins {requirement.name}=={pins[name]}, outside {requirement.specifier}"
    )


@pytest.mark.parametrize("requirement", _runtime(), ids=str)
def test_installed_runtime_dependency_is_the_pinned_one(requirement: Requirement) -> None:
    assert version(requirement.name) == _pins()[canonicalize_name(requirement.name)]
