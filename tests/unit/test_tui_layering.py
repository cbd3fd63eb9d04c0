"""The TUI's own structure: no import cycle among its modules, no hidden imports, and no reach past the services
into the HTTP client (the screens ask ``services.connection``)."""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).resolve().parents[2] / "src" / "folio" / "tui"


def _module(path: Path) -> str:
    parts = path.relative_to(TUI.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _top_level_imports(tree: ast.Module, module: str, is_package: bool) -> set[str]:
    """What a module imports of folio.tui, ``if TYPE_CHECKING:`` blocks excluded (imports inside functions count:
    they are still edges of the graph a cycle closes over)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("folio.tui"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module if is_package else module.rsplit(".", 1)[0]
                for _ in range(node.level - 1):
                    package = package.rsplit(".", 1)[0]
                base = f"{package}.{base}" if base else package
            if base.startswith("folio.tui"):
                found.add(base)
                found.update(f"{base}.{a.name}" for a in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _graph() -> dict[str, set[str]]:
    files = {_module(p): p for p in TUI.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text())
        graph[name] = {m for m in _top_level_imports(tree, name, path.name == "__init__.py") if m in files}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt == node or nxt.startswith(node + ".") or node.startswith(nxt + "."):
                continue  # a package and its own modules
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := walk(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := walk(node)):
            return found
    return None


def test_the_tui_has_no_import_cycle() -> None:
    cycle = _cycle(_graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_no_hidden_imports_and_no_reach_into_the_client() -> None:
    offenders: list[str] = []
    for path in TUI.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            text = ast.unparse(node) if isinstance(node, ast.Call | ast.Attribute) else ""
            hidden = "import_module" in text.split("(")[0] or "__import__" in text
            # folio.tui.routes imports a screen's module when it is first built, by its declaration: the one
            # dynamic import, and no edge of the graph above (it runs after every module is loaded)
            if isinstance(node, ast.Call) and hidden and path.name != "routes.py":
                offenders.append(f"{path.name}: {text[:60]}")
            if isinstance(node, ast.Attribute) and node.attr == "client":
                offenders.append(f"{path.name}: {text[:60]}")
            if isinstance(node, ast.Call) and text.startswith("getattr(") and "'client'" in text.replace('"', "'"):
                offenders.append(f"{path.name}: {text[:60]}")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(("folio.api", "httpx")):
                offenders.append(f"{path.name}: imports {node.module}")
    assert offenders == []


def test_the_graph_reader_sees_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
