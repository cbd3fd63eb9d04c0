"""The structure editor's questions, each run in a worker of the editor: discard the batch, show and apply its
plan, create a node, edit a node's fields, remove a node. The modals themselves live in ``folio.tui.modals``."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from textual.content import Content

from folio.services.errors import ServiceError
from folio.services.format import count
from folio.services.sites.structure import EDITABLE, GROUP, NOUNS, SECTION, SPACE, field_problems
from folio.tui.errors import error_message
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.structure_forms import EditNodeModal, NewNodeModal
from folio.tui.modals.structure_plan import StructurePlanModal
from folio.tui.widgets.structure_editor import lookups

if TYPE_CHECKING:
    from folio.services.sites.sites import ConditionChoices
    from folio.tui.widgets.structure_editor.view import StructureEditor

__all__ = ["edit_node", "leave_batch", "new_node", "remove_node", "show_plan"]


async def leave_batch(editor: StructureEditor) -> None:
    """Ask before the collected moves are discarded."""
    batch = editor.collected or []
    question = ConfirmModal(
        Content(f"Discard the {count(len(batch), 'collected move')}?"),
        Content("Nothing was sent; the tree goes back as it was."),
        accept_label="Discard",
    )
    if editor.structure is None or not await editor.app.push_screen_wait(question):
        return
    dropped = editor.session.discard_batch()
    editor.refresh_rows(editor.current)
    editor.say(f"Discarded {count(dropped, 'collected move')}.")


async def show_plan(editor: StructureEditor) -> None:
    """The plan of the collected moves (or of one move that changes a default); applied from the modal, step
    by step. A single move whose plan is closed unsent goes back where it was."""
    session, tree = editor.session, editor.structure
    plan = session.plan()
    if tree is None or plan is None:
        return
    alone = session.confirming
    intro = ""
    if alone is not None:
        urls = " and moves published URLs" if plan.urls else ""
        intro = f"{alone}: this changes the site's default{urls}. a applies it; esc leaves everything as it is."
    modal = StructurePlanModal(editor.service, tree, session.confirmed, plan, intro=intro)
    result = await editor.app.push_screen_wait(modal)
    if not result.started and alone is not None:
        session.discard_batch()
        editor.refresh_rows(editor.current)
        editor.say(f"Not moved: {alone}. Nothing was sent.")
        return
    if not result.started:
        editor.say("The plan was not sent: the moves are still collected.")
        return
    session.planned(result.applied)
    if result.lost:  # a step may have been done all the same: show what the service holds
        await editor.reload().wait()
        what = alone or "The plan"
        text = f"{what}: an answer was lost, so the structure was read again: it shows what the service holds."
        editor.say(text, "error")
        editor.notify(text, severity="warning", markup=False)
        editor.post_message(editor.Changed(editor, text))
        return
    if result.applied == result.total and alone is not None:
        text, tone = f"Done: {alone}.", ""
    elif result.applied == result.total:
        text, tone = f"Applied the plan: {count(result.total, 'move')}.", ""
    elif result.undone:
        text, tone = "The plan failed and its applied steps were undone: nothing changed.", "error"
    else:
        text, tone = f"The plan stopped: {result.applied} of {count(result.total, 'move')} applied.", "error"
    editor.refresh_rows(editor.current)
    editor.say(text, tone)
    editor.notify(text, severity="error" if tone else "information", markup=False)
    if result.applied:
        editor.post_message(editor.Changed(editor, text))


def _where_new(editor: StructureEditor) -> tuple[str | None, str | None]:
    """(group, section) around the cursor: where a new item goes."""
    tree, key = editor.structure, editor.current
    if tree is None or key is None:
        return None, None
    parents, section = tree.layout.parent, None
    if tree.nodes[key].kind == SPACE:
        key = parents.get(key) or key
    if tree.nodes[key].kind == SECTION:
        section, key = key, parents.get(key)  # type: ignore[assignment]
    return (key if key and tree.nodes[key].kind == GROUP else None), section


async def new_node(editor: StructureEditor) -> None:
    """A new section (from a space), group or site space, created from the modal; the tree is read again."""
    tree = editor.structure
    if tree is None:
        return
    try:
        spaces = await editor.service.spaces(editor.org_id)
    except ServiceError as exc:
        editor.say(error_message(exc, doing="Could not list the organization's spaces"), "error")
        return
    kinds = {k: [(i, n.title) for i in tree.layout.walk() if (n := tree.nodes[i]).kind == k] for k in NOUNS}
    group, section = _where_new(editor)
    modal = NewNodeModal(
        spaces=spaces,
        groups=kinds[GROUP],
        sections=kinds[SECTION],
        group=group,
        section=section,
        with_sections=tree.sections,
        check=field_problems,
        submit=editor.session.create,
        find_sent=lambda kind, values: lookups.find_created(editor.session, kind, values),
        draft=f"structure-new:{editor.org_id}/{editor.site_id}",
    )
    made = await editor.app.push_screen_wait(modal)
    if made is None:
        editor.say("Nothing created.")
        return
    editor.notify("Created: it is in the structure now.", markup=False)
    editor.post_message(editor.Changed(editor, "created"))
    await editor.reload().wait()
    editor.refresh_rows(made)
    editor.say("Created. z removes it again.")


async def edit_node(editor: StructureEditor, key: str) -> None:
    """A node's fields in a form; saved from the modal, shown at once, put back if the service refuses."""
    tree = editor.structure
    if tree is None:
        return
    node = tree.nodes[key]
    fields = EDITABLE[node.kind]
    values = {f: getattr(node, f) for f in fields if f != "default"}
    values["default"] = key in editor.defaults

    async def submit(changes: dict[str, Any]) -> None:
        try:
            await editor.session.save_edit(key, changes, shown=lambda: editor.refresh_rows(key))
        except ServiceError as exc:
            editor.refresh_rows(key)
            editor.say(error_message(exc, doing=f"Not saved: {tree.name(key)}", hint="The tree is back."), "error")
            raise

    def conditions() -> Awaitable[ConditionChoices]:
        return editor.services.sites.condition_choices(editor.org_id, editor.site_id)

    async def find_sent(changes: dict[str, Any]) -> bool | None:
        found = await lookups.find_edit(editor.session, key, changes)
        if found:
            editor.refresh_rows(key)
        return found

    modal = EditNodeModal(
        f"Edit {tree.name(key)}",
        node.kind,
        fields,
        values,
        check=field_problems,
        submit=submit,
        conditions=conditions if "condition" in fields else None,
        find_sent=find_sent,
        draft=f"structure-edit:{editor.org_id}/{editor.site_id}/{key}",
        where=f"the fields of {tree.name(key)}",
    )
    changes = await editor.app.push_screen_wait(modal)
    if not changes:
        editor.say("Nothing changed." if changes is not None else "Edit closed: nothing sent.")
        return
    text = f"Saved {tree.name(key)}: {', '.join(changes)}."
    editor.say(text)
    editor.notify(text, markup=False)
    editor.post_message(editor.Changed(editor, text))


async def remove_node(editor: StructureEditor, key: str) -> None:
    """Ask, then take the node out of the tree and queue its removal."""
    tree = editor.structure
    if tree is None:
        return
    node = tree.nodes[key]
    extra = {
        SECTION: f" Its {len(tree.layout.kids(key))} site spaces go with it.",
        GROUP: " Its sections stay, in its place.",
    }.get(node.kind, "")
    question = ConfirmModal(
        Content(f"Remove {tree.name(key)}?"), Content(f"This cannot be undone.{extra}"), accept_label="Remove"
    )
    if not await editor.app.push_screen_wait(question):
        editor.say("Nothing removed.")
        return
    editor.attempt(lambda: editor.session.remove(key, f"Remove {tree.name(key)}"))
