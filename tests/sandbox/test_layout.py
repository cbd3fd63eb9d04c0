"""The sandbox's layout holds: route modules hold handlers and import no other route module; the domain and the
seed never import a route module; modules are imported by name (no importlib); every route module's routes are
served."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from folio.sandbox.app import all_routes

SANDBOX = Path(__file__).resolve().parents[2] / "src" / "folio" / "sandbox"


def _modules() -> list[Path]:
    return sorted(SANDBOX.rglob("*.py"))


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at any depth (imports inside functions too)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _name(path: Path) -> str:
    parts = path.relative_to(SANDBOX.parents[1]).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


ROUTE_MODULES = [p for p in _modules() if p.parent.name == "routes" and p.name != "__init__.py"]


@pytest.mark.parametrize("path", ROUTE_MODULES, ids=lambda p: p.stem)
def test_a_route_module_imports_no_other_route_module(path: Path) -> None:
    others = {i for i in _imports(path) if i.startswith("folio.sandbox.routes.")} - {_name(path)}
    assert others == set(), f"{path.name} imports {sorted(others)}: move what they share into sandbox/domain"


@pytest.mark.parametrize("path", [p for p in _modules() if p.parent.name in ("domain", "seed")], ids=_name)
def test_the_domain_and_the_seed_import_no_route(path: Path) -> None:
    routes = {i for i in _imports(path) if i == "folio.sandbox.routes" or i.startswith("folio.sandbox.routes.")}
    assert routes == set()


def test_modules_are_imported_by_name() -> None:
    dynamic = [_name(p) for p in _modules() if "importlib" in _imports(p) or "import_module" in p.read_text()]
    assert dynamic == []


def test_every_route_module_is_served() -> None:
    served = {r.endpoint.__module__ for r in all_routes()}
    assert served == {_name(p) for p in ROUTE_MODULES}
