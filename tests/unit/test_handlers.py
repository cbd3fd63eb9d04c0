"""Textual calls one handler per class for a message: ``_on_<message>`` when the class has it, else
``on_<message>``. A class that defines both loses the second without a word (the organization screen's reload on
return did, #14): no class of ``folio.tui`` may."""

from __future__ import annotations

import ast
from pathlib import Path

import folio.tui


def test_no_class_defines_both_the_private_and_the_public_handler_of_a_message() -> None:
    both = []
    for path in Path(folio.tui.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                names = {f.name for f in node.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)}
                both += [f"{path.name}: {node.name}.{n}" for n in names if n.startswith("_on_") and n[1:] in names]
    assert both == []
