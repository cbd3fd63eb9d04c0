"""Every screen, as it declared itself (``folio.tui.declare.Route``, at the top level of its module under
``folio.tui.screens``): read from the modules' text, not by importing them, so start-up imports no screen but the
first; a screen's module is imported when it is first built. The command line, the palette, the session, ``Open``
from any list, the organization screen's one-key shortcuts, the ``?`` help and the README's list of commands all
read this table.

Adding a screen: write ``screens/<area>/<name>.py`` with its ``Route`` and its screen class (CONTRIBUTING.md).
"""

from __future__ import annotations

import ast
import importlib
import os
import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from folio.tui.declare import Find, Route

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from textual.screen import Screen

    from folio.services import Services
    from folio.tui.navigation import Ids

__all__ = [
    "AREAS",
    "ROUTES",
    "VERBS",
    "Find",
    "Route",
    "build",
    "declared",
    "noun_of",
    "route",
    "route_of_verb",
    "shortcuts",
    "verbs_help",
]

SCREENS = "folio.tui.screens"
AREAS = ("content", "review", "sites", "people", "insights")
"""The areas of the product, in the order the help and the README list them (a package of ``folio.tui.screens``
and of ``folio.services`` each)."""

_DECLARATION = re.compile(r"^[A-Z][A-Z0-9_]* = Route\(", re.MULTILINE)


def _read(text: str, module: str, area: str) -> Iterator[Route]:
    """The routes a module's text declares: each top-level ``NAME = Route(...)``, its arguments literals."""
    for match in _DECLARATION.finditer(text):
        lines = text[match.start() :].splitlines(keepends=True)
        for end in range(1, len(lines) + 1):
            if not lines[end - 1].rstrip().endswith(")"):
                continue
            try:
                tree = ast.parse("".join(lines[:end]))
            except SyntaxError:
                continue
            call = tree.body[0].value  # type: ignore[attr-defined]
            args = [ast.literal_eval(a) for a in call.args]
            kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}
            yield replace(Route(*args, **kwargs), module=module, area=area)
            break
        else:
            raise SyntaxError(f"{module}: a Route(...) whose arguments are not literals")


def declared(package: str = SCREENS) -> list[Route]:
    """Every route declared in the modules of ``package`` and of its subpackages (every folder of each
    ``__path__``: a test adds a folder to an area's path), by area, then ``order``, then kind."""
    found = list(_declared_in(package, ""))
    rank = {area: index for index, area in enumerate(AREAS)}
    return sorted(found, key=lambda r: (rank.get(r.area, len(AREAS)), r.order, r.kind))


def _declared_in(package: str, area: str) -> Iterator[Route]:
    paths: Iterable[str] = importlib.import_module(package).__path__  # (an area's __init__: its docstring only)
    subpackages: set[str] = set()
    for root in paths:
        for entry in sorted(os.scandir(root), key=lambda e: e.name):
            if entry.name.startswith(("_", ".")):
                continue
            if entry.is_dir() and os.path.exists(os.path.join(entry.path, "__init__.py")):
                subpackages.add(entry.name)
            elif entry.name.endswith(".py"):
                text = Path(entry.path).read_text(encoding="utf-8")
                if "Route(" in text:
                    yield from _read(text, f"{package}.{entry.name[:-3]}", area)
    for name in sorted(subpackages):
        yield from _declared_in(f"{package}.{name}", area or name)


def _table(routes: Iterable[Route]) -> dict[str, Route]:
    table: dict[str, Route] = {}
    for r in routes:
        if r.kind in table:
            raise ValueError(f"two screens declare the route {r.kind!r}: {table[r.kind].module} and {r.module}")
        table[r.kind] = r
    return table


ROUTES: dict[str, Route] = _table(declared())
"""Every route, by kind, in the order the help lists them (by area)."""


def _verbs() -> dict[str, str]:
    table: dict[str, str] = {}
    for r in ROUTES.values():
        for verb in r.verbs:
            if verb in table:
                raise ValueError(f"the verb :{verb} is declared by {table[verb]!r} and {r.kind!r}")
            table[verb] = r.kind
    return table


VERBS: dict[str, str] = _verbs()
"""``:`` verb -> the kind of the route it reaches."""


def reload() -> None:
    """Read the declarations again (a screen module added while running: the tests' throwaway screen)."""
    ROUTES.clear()
    ROUTES.update(_table(declared()))
    VERBS.clear()
    VERBS.update(_verbs())


def route(kind: str) -> Route | None:
    return ROUTES.get(kind)


def route_of_verb(verb: str) -> Route | None:
    kind = VERBS.get(verb.lower())
    return ROUTES[kind] if kind is not None else None


def shortcuts() -> list[Route]:
    """The routes the organization screen reaches by one key each, in the order of the help."""
    return [r for r in ROUTES.values() if r.key]


def build(services: Services, kind: str, ids: Ids, *, title: str | None = None, trail: tuple[str, ...] = ()) -> Any:
    """The screen of ``kind`` for ``ids`` (raises KeyError for an unknown kind or a missing id; the import's
    error when its module cannot be imported)."""
    found = ROUTES[kind]
    missing = [name for name in found.ids if ids.get(name) is None]
    if missing:
        raise KeyError(missing[0])
    screen: Any = getattr(importlib.import_module(found.module), found.screen)
    built: Screen[Any] = screen.from_route(found, services, ids, title=title, trail=trail)
    return built


def noun_of(kind: str) -> str:
    """``change request`` for ``change-request``; a kind with no route (a collection) reads as itself."""
    found = ROUTES.get(kind)
    return found.noun if found is not None else (kind.replace("-", " ") or "item")


HELP_FIRST = ("organization", "space", "change-request", "site")
"""The commands the one-line help spells out; ``?`` lists every one."""


def verbs_help() -> str:
    """One short line: ``:org <title> · :space <title> · :cr <number> · :site <title> · :members … · :q``."""
    first = [ROUTES[k].usage() for k in HELP_FIRST if k in ROUTES]
    others = [f":{ROUTES[k].verbs[0]}" for k in ("members", "teams") if k in ROUTES and ROUTES[k].verbs]
    others += [f":{r.verbs[0]}" for k, r in ROUTES.items() if r.verbs and k not in (*HELP_FIRST, "members", "teams")]
    return " · ".join([*first, *others[:2], *(["…"] if len(others) > 2 else []), ":q"]) + " (? lists all)"


def readme_commands() -> str:
    """The README's list of the ``:`` commands, one line per screen, by area (checked by a test)."""
    lines = ["| Command | Area | What it shows |", "|---|---|---|"]
    for r in ROUTES.values():
        if r.verbs:
            aliases = "".join(f", `:{v}`" for v in r.verbs[1:])
            lines.append(f"| `{r.usage()}`{aliases} | {r.area} | {r.summary} |")
    return "\n".join(lines) + "\n"
