"""The writes of the organization screen's collections and spaces tabs, mixed into
:class:`~folio.tui.screens.content.organization.OrganizationScreen` (its keys, their reasons when they cannot act, and
the moves the collections tree drops).

    n   a new collection: inside the collection under the cursor, else at the root
    e   edit the collection (title, description, default role) or the space (title, emoji, role, language,
        merge rules) under the cursor
    D   delete it (its title typed; a collection says how many spaces it holds and what becomes of them)
    t   transfer it to another organization (a space: and/or into a collection there)
    d   duplicate the space (the copy opens)      l   lock or unlock the space's editing

The tree's own keys (``space``, arrows, ``<`` ``>``, enter, esc, the mouse) move rows; each drop arrives here as
:class:`~folio.tui.widgets.collections_tree.CollectionsTree.Dropped` and is sent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import work
from textual.binding import Binding, BindingType

from folio.models.space import Collection, SpaceSummary
from folio.services.errors import ServiceError
from folio.services.reconcile import NotDone
from folio.tui.actions import Explains
from folio.tui.errors import error_message
from folio.tui.modals import content_actions as flows
from folio.tui.widgets.collections_tree import CollectionsTree

if TYPE_CHECKING:
    from folio.tui.screens.content.organization import OrganizationScreen

__all__ = ["ContentActions"]

CONTENT_ACTIONS = ("new_collection", "edit_content", "delete_content", "transfer_content", "duplicate_space",
                   "lock_space")  # fmt: skip


def _binding(key: str, action: str, label: str, name: str, tooltip: str, *, show: bool = True) -> Binding:
    return Binding(key, action, label, show=show, id=f"organization.{name}", tooltip=tooltip)


class ContentActions(Explains):
    """The collections and spaces tabs' writes (see the module's docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        _binding("n", "new_collection", "New", "new-collection",
                 "New collection: inside the collection under the cursor, else at the root"),
        _binding("e", "edit_content", "Edit", "edit", "Edit the collection or space under the cursor"),
        _binding("D", "delete_content", "Delete", "delete", "Delete the collection or space (type its title)"),
        _binding("t", "transfer_content", "Transfer", "transfer",
                 "Transfer it to another organization (a space: or into a collection)", show=False),
        _binding("d", "duplicate_space", "Duplicate", "duplicate", "Duplicate the space (the copy opens)",
                 show=False),
        _binding("l", "lock_space", "Lock", "lock", "Lock the space's editing, or unlock it", show=False),
    ]  # fmt: skip

    def _org(self) -> OrganizationScreen:
        return cast("OrganizationScreen", self)

    # -- what is under the cursor ---------------------------------------------------------------------------------

    def _content_row(self) -> tuple[str, Any] | None:
        """(row key, data) of the row under the cursor in the collections or spaces tab (None: another tab, or
        no row)."""
        org = self._org()
        tab = org.tabs.active
        widget = org._mounted(tab) if tab in ("collections", "spaces") else None
        row = widget.list.highlighted if widget is not None else None
        return (row.key, row.data) if row is not None else None

    def why_not(self, action: str) -> str | None:
        if action not in CONTENT_ACTIONS:
            return super().why_not(action)
        org = self._org()
        found = self._content_row()
        if action == "new_collection":
            if org.tabs.active != "collections":
                return "Collections are made in the collections tab (press 1)."
            parent = found[1] if found is not None and isinstance(found[1], Collection) else None
            if parent is not None and parent.permissions is not None and not parent.permissions.create:
                return "Your role does not let you create content in this collection."
            if parent is None and org.organization is not None and not org.organization.permissions.create_content:
                return "Your role does not let you create content in this organization."
            return None
        if found is None or found[1] is None:
            return "Pick a collection or a space first."
        data = found[1]
        if action in ("duplicate_space", "lock_space") and not isinstance(data, SpaceSummary):
            return "Only a space is duplicated or locked: pick a space."
        if isinstance(data, Collection) and data.permissions is not None and not data.permissions.admin:
            return "Only an admin of the collection can change it."
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in CONTENT_ACTIONS:
            if not self._org().tabs_attached() or self._org().tabs.active not in ("collections", "spaces"):
                return False
            tree = self._org()._tree()
            if tree is not None and tree.grab is not None:
                return False  # the keys of the grab only, while a row is in hand
        return super().check_action(action, parameters)

    # -- actions ----------------------------------------------------------------------------------------------

    def _run(self, flow: Callable[[], Awaitable[Any]], then: Callable[[Any], None] | None = None) -> None:
        async def run() -> None:
            result = await flow()
            if result:
                self._org().load_content()
                if then is not None:
                    then(result)

        self.run_worker(run(), group="organization-content-write", exit_on_error=False)

    def action_new_collection(self) -> None:
        org = self._org()
        found = self._content_row()
        parent = found[1] if found is not None and isinstance(found[1], Collection) else None
        known = {c.id for c in org.collections}

        def select(made: Collection) -> None:
            tree = org._tree()
            if tree is not None:
                if parent is not None:
                    tree.collapsed.discard(f"c:{parent.id}")
                tree.restore(f"c:{made.id}", "")

        self._run(lambda: flows.new_collection(org, org.services, org.org_id, parent, known), select)

    def action_edit_content(self) -> None:
        org, found = self._org(), self._content_row()
        data = found[1] if found else None
        if isinstance(data, Collection):
            self._run(lambda: flows.edit_collection(org, org.services, data))
        elif isinstance(data, SpaceSummary):
            self._run(lambda: flows.edit_space(org, org.services, data.id))

    def action_delete_content(self) -> None:
        org, found = self._org(), self._content_row()
        data = found[1] if found else None
        if isinstance(data, Collection) and found is not None:
            tree = org._tree()
            content = tree.content if tree is not None else None
            spaces = content.spaces_under(found[0]) if content else 0
            inner = content.collections_under(found[0]) if content else 0
            self._run(lambda: flows.delete_collection(org, org.services, data, spaces=spaces, collections=inner))
        elif isinstance(data, SpaceSummary):
            self._run(lambda: flows.delete_space(org, org.services, data.id))

    def action_transfer_content(self) -> None:
        org, found = self._org(), self._content_row()
        data = found[1] if found else None
        if isinstance(data, Collection):
            self._run(lambda: flows.transfer_collection(org, org.services, data))
        elif isinstance(data, SpaceSummary):
            self._run(lambda: flows.transfer_space(org, org.services, data.id))

    def action_duplicate_space(self) -> None:
        org, found = self._org(), self._content_row()
        if found is not None and isinstance(found[1], SpaceSummary):
            space_id = found[1].id
            self._run(lambda: flows.duplicate_space(org, org.services, space_id))

    def action_lock_space(self) -> None:
        org, found = self._org(), self._content_row()
        if found is not None and isinstance(found[1], SpaceSummary):
            space_id = found[1].id
            self._run(lambda: flows.toggle_lock(org, org.services, space_id))

    # -- moves ------------------------------------------------------------------------------------------------

    def on_collections_tree_dropped(self, event: CollectionsTree.Dropped) -> None:
        event.stop()
        self._send_move(event)

    @work(group="organization-move", exit_on_error=False)
    async def _send_move(self, event: CollectionsTree.Dropped) -> None:
        org = self._org()
        try:
            await org.services.collections.move(event.move, org.org_id)
        except ServiceError as exc:
            # NotDone: the answer was lost and the tree, read again, does not have it there
            title = "Not done" if isinstance(exc, NotDone) else "Refused"
            message = error_message(exc, doing=f"{title}: {event.label}", hint="It is back where it was.")
            event.tree.settle(message)
            org.notify(message.plain, title=title, severity="error", markup=False)
            return
        event.tree.settle(None)
        org.notify(f"Done: {event.label}.", markup=False)
        org.load_content()
