"""A plan: what a batch of moves sends, step by step, and every published URL it moves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from folio.services.sites.structure.capabilities import Offered, Operation, Unsupported, operations
from folio.services.sites.structure.tree import Layout, Move, StructureTree

__all__ = ["Plan", "PlanStep", "UrlChange", "build_plan", "describe_move"]


@dataclass(frozen=True)
class UrlChange:
    """A published URL a plan moves: ``title`` names the node (“section “A””); None: no URL."""

    id: str
    title: str
    old: str | None
    new: str | None


@dataclass
class PlanStep:
    move: Move
    label: str
    operations: list[Operation]
    problem: str | None = None


@dataclass
class Plan:
    """What a batch of moves sends, step by step, and every published URL it moves."""

    steps: list[PlanStep]
    urls: list[UrlChange]
    published: bool

    @property
    def moves(self) -> list[Move]:
        return [s.move for s in self.steps]

    @property
    def sendable(self) -> bool:
        return all(s.problem is None for s in self.steps)


def describe_move(tree: StructureTree, layout: Layout, move: Move) -> str:
    """``Move section “A” to group “G”, before section “B”`` (``layout``: before the move)."""
    rest = [k for k in layout.kids(move.to_parent) if k != move.id]
    near = f"before {tree.name(rest[move.to_index])}" if move.to_index < len(rest) else "at the end"
    if move.to_parent != layout.parent.get(move.id):
        return f"Move {tree.name(move.id)} to {tree.name(move.to_parent)}, {near}"
    if move.to_index >= len(rest):
        near = f"to the end of {tree.name(move.to_parent)}"
    return f"Move {tree.name(move.id)} {near}"


def build_plan(tree: StructureTree, start: Layout, moves: Sequence[Move], offered: Offered) -> Plan:
    """The steps of ``moves`` replayed from ``start`` (the service's structure), with the URLs that move."""
    layout = start.copy()
    steps: list[PlanStep] = []
    for move in moves:
        label = describe_move(tree, layout, move)
        try:
            ops = operations(tree, layout, move, offered)
            problem = None
        except Unsupported as exc:
            ops, problem = [], str(exc)
        steps.append(PlanStep(move, label, ops, problem))
        layout.apply(move)
    _, old = tree.resolve(start)
    _, new = tree.resolve(layout)
    urls = [
        UrlChange(key, tree.name(key), old.get(key), new.get(key))
        for key in (k for k in start.walk() if k in old or k in new)
        if old.get(key) != new.get(key)
    ]
    return Plan(steps, urls, tree.base_url is not None)
