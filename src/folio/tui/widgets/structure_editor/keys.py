"""The structure editor's keys: each binding has an id (users remap keys by id in the config) and a tooltip, and
:func:`applies` says which apply now (False hides one from the footer, None greys it out)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType

if TYPE_CHECKING:
    from folio.tui.widgets.structure_editor.session import EditSession

__all__ = ["KEYS", "applies"]

KEYS: list[BindingType] = [
    Binding("up,k", "up", "Up", show=False, id="structure.up", tooltip="Previous row, or move what you hold up"),
    Binding("down,j", "down", "Down", show=False, id="structure.down", tooltip="Next row, or move it down"),
    Binding("home,g", "first", "First", show=False, id="structure.first", tooltip="First row"),
    Binding("end,G", "last", "Last", show=False, id="structure.last", tooltip="Last row"),
    Binding("pageup", "page(-1)", "Page up", show=False, id="structure.page-up", tooltip="Up one screen"),
    Binding("pagedown", "page(1)", "Page down", show=False, id="structure.page-down", tooltip="Down one screen"),
    Binding("space", "grab", "Pick up/drop", id="structure.grab", tooltip="Pick up the node to move it; drop it"),
    Binding("enter", "drop", "Drop", id="structure.drop", tooltip="Drop what you hold where it is shown"),
    Binding("escape", "cancel", "Cancel", id="structure.cancel", tooltip="Put what you hold back"),
    Binding("alt+up,K", "step(-1)", "Move up", show=False, id="structure.step-up", tooltip="Move one step up"),
    Binding("alt+down,J", "step(1)", "Move down", show=False, id="structure.step-down", tooltip="One step down"),
    Binding("less_than_sign", "out", "Out", show=False, id="structure.out", tooltip="Out of its group"),
    Binding("greater_than_sign", "into", "Into", show=False, id="structure.into", tooltip="Into the next group"),
    Binding("n", "new", "New", id="structure.new", tooltip="New section (from a space), group or site space"),
    Binding("e", "edit", "Edit", id="structure.edit", tooltip="Edit the node's fields"),
    Binding("D", "remove", "Remove", id="structure.remove", tooltip="Remove the node (asks first)"),
    Binding("b", "batch", "Batch", id="structure.batch", tooltip="Collect moves and send them as one plan"),
    Binding("P", "plan", "Plan", id="structure.plan", tooltip="Show the plan of the collected moves"),
    Binding("z", "undo", "Undo", id="structure.undo", tooltip="Undo the last applied change"),
]


def applies(action: str, session: EditSession) -> bool | None:
    """Whether ``action`` does something now: holding a node, in a batch, before the structure is loaded."""
    holding, collected = session.grab is not None, session.collected
    if action in ("drop", "cancel"):
        return holding
    if session.tree is None:
        return action in ("up", "down") or None
    if action in ("new", "edit", "remove"):
        return None if holding or collected is not None else True
    if action == "plan":
        return bool(collected) or None
    if action in ("batch", "undo", "first", "last", "page"):
        return None if holding else True
    return True
