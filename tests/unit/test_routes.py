"""The route table (folio.tui.routes): read from the screens' declarations without importing them, the same as
what the modules hold once imported, and the README's table of commands generated from it."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from folio.tui import routes
from folio.tui.declare import Route

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
TABLE = re.compile(r"(<!-- commands:[^\n]*-->\n)(.*?)(<!-- /commands -->)", re.S)


def write_readme() -> None:
    """``make readme``: the README's table of ``:`` commands, from the routes."""
    text = README.read_text(encoding="utf-8")
    README.write_text(TABLE.sub(lambda m: m.group(1) + routes.readme_commands() + m.group(3), text), encoding="utf-8")


def test_the_readme_lists_every_command_as_the_screens_declare_them() -> None:
    found = TABLE.search(README.read_text(encoding="utf-8"))
    assert found is not None, "the README lost its <!-- commands --> table"
    assert found.group(2) == routes.readme_commands(), "the README's commands are stale: run `make readme`"


@pytest.mark.parametrize("kind", sorted(routes.ROUTES))
def test_a_declaration_read_from_the_text_is_the_one_the_module_holds(kind: str) -> None:
    route = routes.ROUTES[kind]
    module = importlib.import_module(route.module)
    held = [value for value in vars(module).values() if isinstance(value, Route) and value.kind == kind]
    assert held == [route]  # (module and area are set by the table, and not compared)
    screen = getattr(module, route.screen)
    assert kind == screen.ROUTE, f"{route.screen}.ROUTE must be its route's kind"
    assert route.area in routes.AREAS and f".{route.area}." in route.module


def test_every_declaration_in_the_screens_is_read() -> None:
    """A ``Route(...)`` the text reader would miss (not at the top level, not literals) is found by a full parse."""
    declared = set()
    for path in (ROOT / "src/folio/tui/screens").rglob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            value = node.value if isinstance(node, ast.Assign) else None
            if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "Route":
                declared.add(ast.literal_eval(next(k.value for k in value.keywords if k.arg == "kind")))
    assert declared == set(routes.ROUTES)


def test_a_kind_declared_twice_is_refused() -> None:
    twice = [Route(kind="a", noun="a", screen="A", verbs=("x",)), Route(kind="b", noun="b", screen="B", verbs=("x",))]
    table = routes._table(twice)
    assert set(table) == {"a", "b"}
    with pytest.raises(ValueError, match="two screens declare the route 'a'"):
        routes._table([twice[0], twice[0]])


def test_a_route_that_is_not_literals_is_refused() -> None:
    text = 'X = Route(\n    kind=KIND,\n    noun="n",\n    screen="S",\n)\n'
    with pytest.raises(ValueError):
        list(routes._read(text, "m", "people"))


def test_a_screen_of_the_organization_takes_its_id_and_words() -> None:
    route = Route(kind="k", noun="thing", screen="S", verbs=("k",), find="organization")
    assert (route.ids, route.optional, route.go_to, route.plural) == (("org_id",), ("words",), False, "things")
    assert route.usage() == ":k [words]"


def test_a_missing_id_is_a_key_error_and_nothing_is_imported() -> None:
    with pytest.raises(KeyError, match="space_id"):
        routes.build(None, "space", {})  # type: ignore[arg-type]
