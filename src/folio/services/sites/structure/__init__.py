"""A published site's structure as an editable tree: moves, what may go where, the operations a move takes on this
service, the published URLs a plan moves, and :class:`StructureService`, which sends them step by step.

    tree = await service.load(org_id, site_id)          # GET .../structure (+ the site, for its published URL)
    move = step(tree, tree.layout, section_id, +1)      # one landing spot down (None: nowhere to go)
    plan = build_plan(tree, confirmed, [move], service.offered)
    await service.apply(tree, confirmed, plan.moves, progress)   # stops at the first failure: StepFailed

The modules, by job:

    tree          the nodes, who is where (Layout), a Move, the defaults and published URLs that follow from order
    moves         what may go where: landing spots, one step up or down, into and out of a group
    capabilities  what this service offers (learned as it answers) and the requests a move takes on it
    plan          what a batch of moves sends, step by step, and the published URLs it moves
    fields        the fields a node may change and the spec's limits on them
    service       StructureService: reads the structure and sends moves, edits, new items and removals
"""

from __future__ import annotations

from folio.services.sites.structure.capabilities import Offered, Operation, Unsupported, operations, simulate
from folio.services.sites.structure.fields import EDITABLE, NULLABLE, field_problems
from folio.services.sites.structure.moves import Spot, into_group, out_of_group, spot_index, spots, step
from folio.services.sites.structure.plan import Plan, PlanStep, UrlChange, build_plan, describe_move
from folio.services.sites.structure.service import EditFailed, Progress, StepFailed, StructureService
from folio.services.sites.structure.tree import (
    GROUP,
    LINK,
    NOUNS,
    SECTION,
    SPACE,
    Layout,
    Move,
    Node,
    StructureTree,
    build_tree,
)

__all__ = [
    "EDITABLE",
    "GROUP",
    "LINK",
    "NOUNS",
    "NULLABLE",
    "SECTION",
    "SPACE",
    "EditFailed",
    "Layout",
    "Move",
    "Node",
    "Offered",
    "Operation",
    "Plan",
    "PlanStep",
    "Progress",
    "Spot",
    "StepFailed",
    "StructureService",
    "StructureTree",
    "Unsupported",
    "UrlChange",
    "build_plan",
    "build_tree",
    "describe_move",
    "field_problems",
    "into_group",
    "operations",
    "out_of_group",
    "simulate",
    "spot_index",
    "spots",
    "step",
]
