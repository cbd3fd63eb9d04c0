"""The structure editor of a published site: one tree of section groups, sections and site spaces (or a site's
root site spaces), reordered as if by drag and drop, by keyboard or mouse. Other screens embed it:

    yield StructureEditor(services, org_id, site_id)

``space`` picks the node under the cursor up, ``up``/``down`` move it through the places it may land (the tree
shows it there), ``<``/``>`` take it out of / into a group, ``space`` or ``enter`` drops it, ``esc`` puts it
back. ``alt+up``/``alt+down`` (or ``K``/``J``, which every terminal sends) move it one step at once. The mouse
drags a node and drops it where it is released. Every change shows at once and waits in the send queue, sent in
order in the background; a refusal puts the tree back and says why. ``b`` collects moves instead, ``P`` shows
their plan (each request, each published URL that moves) and applies it; ``z`` undoes the last change;
``n``/``e``/``D`` create, edit and remove (the condition field offers the site's template conditions).
``Changed`` tells the host each change that reached the service (the site screen reads the published view
again). The tree draws only the rows on screen (the line API), so a move redraws at once in a site of 2,500 nodes.

The modules, by job:

    session     EditSession: the node in hand, the batch, the undo history and the send queue (no Textual)
    grab        the node in hand: where it may land, where the mouse puts it (no Textual)
    send_queue  changes on their way to the service, in order, rolled back at a refusal (no Textual)
    view        StructureEditor, the widget: draws, and turns keys and the mouse into session calls
    rows        the tree view, the lines of text and the painter of rows
    dialogs     the questions: discard the batch, the plan, new, edit, remove

The widget is imported when first asked for, so the session can be imported (and tested) without Textual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from folio.tui.widgets.structure_editor.rows import COLUMNS
    from folio.tui.widgets.structure_editor.view import StructureEditor

__all__ = ["COLUMNS", "StructureEditor"]


def __getattr__(name: str) -> Any:
    if name == "StructureEditor":
        from folio.tui.widgets.structure_editor.view import StructureEditor

        return StructureEditor
    if name == "COLUMNS":
        from folio.tui.widgets.structure_editor.rows import COLUMNS

        return COLUMNS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
