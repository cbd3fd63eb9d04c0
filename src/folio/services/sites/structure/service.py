""":class:`StructureService`: reads a site's structure and sends its changes step by step, learning what this
service offers as it goes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from folio.api.errors import NotOffered
from folio.services.errors import Refusal
from folio.services.sites.structure.capabilities import Offered, Operation, Unsupported, operations, simulate
from folio.services.sites.structure.plan import describe_move
from folio.services.sites.structure.tree import GROUP, NOUNS, SECTION, SPACE, Layout, Move, StructureTree, build_tree

if TYPE_CHECKING:
    from folio.api.client import GitBookClient

__all__ = ["EditFailed", "Progress", "StepFailed", "StructureService"]


class StepFailed(Refusal):
    """Step ``index`` of a run failed; ``stranded`` when part of it stayed on the service."""

    def __init__(self, index: int, move: Move, cause: BaseException, *, stranded: bool = False) -> None:
        self.index, self.move, self.cause, self.stranded = index, move, cause, stranded
        self.status = getattr(cause, "status", None)
        super().__init__(self.describe())

    def describe(self) -> str:
        describe = getattr(self.cause, "describe", None)
        text = describe() if callable(describe) else f"{type(self.cause).__name__}: {self.cause}"
        if self.stranded:
            text += " Part of this step stayed on the service; press r to reload the structure."
        return str(text)


Progress = Callable[[int, int, str], None]
"""``progress(done, total, label)``: called before each step and once at the end."""


class StructureService:
    """Reads a site's structure and sends its changes, learning what this service offers as it goes."""

    def __init__(self, client: GitBookClient) -> None:
        self.client = client
        self.offered = Offered()

    async def load(self, org_id: str, site_id: str) -> StructureTree:
        site, structure = await asyncio.gather(
            self.client.sites.get(org_id, site_id), self.client.sites.structure(org_id, site_id)
        )
        return build_tree(org_id, site_id, site, structure)

    async def spaces(self, org_id: str) -> list[tuple[str, str]]:
        """The organization's spaces as (id, title), by title: what a new section or site space can show."""
        found = await self.client.spaces.summaries(org_id, limit=1000).collect()
        return sorted(((s.id, s.title or s.id) for s in found if not s.deleted), key=lambda p: p[1].lower())

    # -- moves ---------------------------------------------------------------------------------------------------

    async def apply(
        self, tree: StructureTree, layout: Layout, moves: Sequence[Move], progress: Progress | None = None
    ) -> int:
        """Send ``moves`` in order; ``layout`` (the service's structure) follows each request that succeeds.
        Raises :class:`StepFailed` at the first failure, after taking back the part of that step that was sent."""
        total = len(moves)
        for n, move in enumerate(moves):
            if progress:
                progress(n, total, describe_move(tree, layout, move))
            start = layout.position(move.id)
            try:
                await self._move(tree, layout, move.id, move.to_parent, move.to_index)
            except Exception as exc:
                stranded = False
                if layout.position(move.id) != start:
                    try:
                        await self._move(tree, layout, move.id, *start)
                    except Exception:
                        stranded = True
                raise StepFailed(n, move, exc, stranded=stranded) from exc
        if progress:
            progress(total, total, "Done")
        return total

    async def undo(
        self, tree: StructureTree, layout: Layout, moves: Sequence[Move], progress: Progress | None = None
    ) -> int:
        """Take back ``moves`` (already applied), last first."""
        return await self.apply(tree, layout, [m.inverse() for m in reversed(moves)], progress)

    async def _move(self, tree: StructureTree, layout: Layout, item: str, parent: str | None, index: int) -> None:
        # Re-planned after every answer: a NotOffered turns to the next way of doing the rest of the move.
        while True:
            here, at = layout.position(item)
            ops = operations(tree, layout, Move(item, here, at, parent, index), self.offered)
            if not ops:
                return
            try:
                await self._send(tree, ops[0])
            except NotOffered:
                if not self._learn(ops[0].verb):
                    raise
                continue
            simulate(layout, ops[0])

    def _learn(self, verb: str) -> bool:
        flags = {
            "sort": "sort",
            "update-section": "section_group_update",
            "add-to-group": "add_to_group",
            "move-site-space": "site_space_move",
        }
        name = flags.get(verb)
        if name is None or not getattr(self.offered, name):
            return False
        setattr(self.offered, name, False)
        return True

    async def _send(self, tree: StructureTree, op: Operation) -> None:
        c, org, site = self.client, tree.org_id, tree.site_id
        before = op.before[1] if op.before else None
        after = op.after[1] if op.after else None
        if op.verb == "sort":
            await c.sites.sort_structure(org, site, (op.kind, op.item), before=op.before, after=op.after)
        elif op.verb == "move-site-space":
            await c.site_spaces.move(org, site, op.item, before=before, after=after)
        elif op.verb == "move-section":
            await c.site_sections.move(org, site, op.item, before=before, after=after)
        elif op.verb == "update-group":
            await c.sites.update_section_group(org, site, op.item, parent=op.parent)
        elif op.verb == "add-to-group":
            await c.sites.add_section_to_group(org, site, str(op.parent), op.item)
        else:
            answer = await c.site_sections.update(org, site, op.item, section_group=op.parent)
            if answer.section_group != op.parent:  # an older service ignores siteSectionGroupId
                raise NotOffered("The section update did not change the section's group.")

    # -- edits, new items, removals ------------------------------------------------------------------------------

    async def edit(self, tree: StructureTree, item: str, changes: dict[str, Any]) -> None:
        """Send a node's changed fields (the update of its kind), then ``default`` (the site's or the section's
        update). Raises :class:`EditFailed` naming what was saved when only part went through."""
        node, c, org, site = tree.nodes[item], self.client, tree.org_id, tree.site_id
        fields = {k: v for k, v in changes.items() if k != "default"}
        if fields and node.kind == SECTION:
            await c.site_sections.update(org, site, item, **fields)
        elif fields and node.kind == GROUP:
            await c.sites.update_section_group(org, site, item, **fields)
        elif fields and node.kind == SPACE:
            await c.site_spaces.update(org, site, item, **fields)
        elif fields:
            raise Unsupported(f"This service offers no update of a {node.noun}.")
        if not changes.get("default"):
            return
        try:
            owner = tree.layout.parent[item]
            if node.kind == SECTION:
                await c.sites.update(org, site, default_site_section=item)
            elif owner is None:
                await c.sites.update(org, site, default_site_space=item)
            else:
                await c.site_sections.update(org, site, owner, default_site_space=item)
        except Exception as exc:
            if not fields:
                raise
            raise EditFailed(exc, tuple(fields)) from exc

    async def create_section(
        self, tree: StructureTree, space_id: str, *, title: str | None, icon: str | None, group: str | None
    ) -> str:
        section = await self.client.site_sections.create(
            tree.org_id, tree.site_id, space_id, title=title, icon=icon, section_group=group
        )
        return section.id

    async def create_group(
        self, tree: StructureTree, title: str, *, icon: str | None, sections: Sequence[str], parent: str | None
    ) -> str:
        group = await self.client.sites.create_section_group(
            tree.org_id, tree.site_id, title, icon=icon, sections=list(sections) or None, parent=parent
        )
        return group.id

    async def create_site_space(self, tree: StructureTree, space_id: str, *, section: str | None) -> str:
        ss = await self.client.site_spaces.create(tree.org_id, tree.site_id, space_id, section_id=section)
        return ss.id

    async def delete(self, tree: StructureTree, item: str, kind: str | None = None) -> None:
        """Remove a node (``kind`` when the tree no longer holds it): a section with its site spaces, a group
        leaving its children in its place."""
        kind = kind or tree.nodes[item].kind
        c, org, site = self.client, tree.org_id, tree.site_id
        if kind == SECTION:
            await c.site_sections.delete(org, site, item)
        elif kind == GROUP:
            await c.sites.delete_section_group(org, site, item)
        elif kind == SPACE:
            await c.site_spaces.delete(org, site, item)
        else:
            raise Unsupported(f"This service offers no removal of a {NOUNS.get(kind, 'item')}.")


class EditFailed(Refusal):
    """The fields of an edit were saved (``applied``), its default was not."""

    def __init__(self, cause: BaseException, applied: tuple[str, ...]) -> None:
        self.cause, self.applied = cause, applied
        self.status = getattr(cause, "status", None)
        super().__init__(self.describe())

    def describe(self) -> str:
        describe = getattr(self.cause, "describe", None)
        text = describe() if callable(describe) else str(self.cause)
        return f"{text} (saved: {', '.join(self.applied)}; not saved: default)"
