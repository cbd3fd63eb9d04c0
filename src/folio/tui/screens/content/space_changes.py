"""The space screen's changes to the space itself (``folio.tui.screens.content.space``): ``e`` edit, ``L`` lock or
unlock, ``d`` duplicate, ``t`` transfer, ``D`` delete, each a flow of ``folio.tui.modals.content_actions``, and
why one cannot act now. A mixin of :class:`~folio.tui.screens.content.space.SpaceScreen` (its own module keeps the
screen's under the size limit)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from folio.tui.modals import content_actions as flows

if TYPE_CHECKING:
    from folio.models.space import Space
    from folio.services import Services

__all__ = ["SPACE_ACTIONS", "SpaceChanges", "renamed_trail", "space_why_not"]

SPACE_ACTIONS = ("edit_space", "lock_space", "duplicate_space", "transfer_space", "delete_space")


def space_why_not(space: Space | None, action: str) -> str | None:
    """Why ``action`` (one of :data:`SPACE_ACTIONS`) cannot change ``space`` now (None: it can)."""
    if action not in SPACE_ACTIONS:
        return None
    if space is None:
        return "The space is not loaded yet."
    if space.deleted:
        return "The space is deleted: restore it first."
    admin = space.permissions is None or space.permissions.admin
    if action != "duplicate_space" and not admin:
        return "It takes the admin role on the space."
    return None


def renamed_trail(trail: tuple[str, ...], old: str, new: str) -> tuple[str, ...]:
    """``trail`` with its last ``old`` (the organization a space left) named ``new`` (where it is now)."""
    if not old or not new or old not in trail:
        return trail
    at = len(trail) - 1 - trail[::-1].index(old)
    return (*trail[:at], new, *trail[at + 1 :])


class SpaceChanges:
    """The actions; the screen provides ``services``, ``space_id``, ``load_space``, ``action_back`` and
    ``run_worker``."""

    services: Services
    space_id: str

    def _change(self, flow: Any, after: Callable[[Any], object] | None = None) -> None:
        screen: Any = self

        async def run() -> None:
            result = await flow(screen, self.services, self.space_id)
            if result is not None:
                (after or (lambda _: screen.load_space()))(result)

        screen.run_worker(run(), group="space-change", exit_on_error=False)

    def action_edit_space(self) -> None:
        self._change(flows.edit_space)

    def action_lock_space(self) -> None:
        self._change(flows.toggle_lock)

    def action_duplicate_space(self) -> None:
        self._change(flows.duplicate_space, lambda _: None)  # the copy opens

    def action_transfer_space(self) -> None:
        def renamed(old: str, new: str) -> None:
            screen: Any = self
            screen.parent_trail = renamed_trail(screen.parent_trail, old, new)
            screen.set_crumb(screen.crumb)  # the header says where the space is now

        self._change(partial(flows.transfer_space, moved_to=renamed))

    def action_delete_space(self) -> None:
        self._change(flows.delete_space, self._deleted)

    def _deleted(self, space: object) -> None:
        """The space is deleted: back to where it was opened from (its facts say so if this is the first screen)."""
        screen: Any = self
        screen.load_space()
        screen.action_back()
