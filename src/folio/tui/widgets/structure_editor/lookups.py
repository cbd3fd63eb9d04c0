"""After a write of the structure editor whose answer was lost: the structure is read again and the write looked
for, so it is not sent twice (a creation) and what it did is shown and can be undone.

    made = await find_created(session, "site-section-group", {"title": "Guides", "where": None, ...})
    held = await find_edit(session, section_id, {"title": "Kits"})
    if answer_lost(refusal.error): ...                  # a move: read the structure again, not "refused"

No Textual here, like the edit session they work on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from folio.services.sites.structure import GROUP, NOUNS, SECTION, StructureTree
from folio.services.writes import may_have_reached
from folio.tui.widgets.structure_editor.send_queue import Change

if TYPE_CHECKING:
    from folio.tui.widgets.structure_editor.session import EditSession

__all__ = ["answer_lost", "find_created", "find_edit"]


def answer_lost(exc: BaseException) -> bool:
    """Whether a failed change may have been made all the same (its answer was lost), looking through the
    structure service's wrappers (a failed step of a move, an edit saved in part) to what caused them."""
    cause = getattr(exc, "cause", None)
    return may_have_reached(cause if isinstance(cause, BaseException) else exc)


def _made(tree: StructureTree, key: str, kind: str, values: dict[str, Any]) -> bool:
    """Whether ``key`` of ``tree`` is what a creation of ``kind`` with ``values`` would have made."""
    node, parent = tree.nodes[key], tree.layout.parent.get(key)
    if node.kind != kind:
        return False
    if kind == GROUP:
        return node.title == values.get("title") and parent == values.get("where")
    if kind == SECTION:
        spaces = {tree.nodes[k].space for k in tree.layout.kids(key)}
        titled = values.get("title") is None or node.title == values.get("title")
        return titled and values.get("space") in spaces and parent == values.get("where")
    return node.space == values.get("space") and parent == values.get("section")


async def find_created(session: EditSession, kind: str, values: dict[str, Any]) -> str | None:
    """The node a creation of ``kind`` with ``values`` made, found in the structure read again (one that was not
    in the tree before, with the title, space and place asked for), or None. Found, it goes on the history as
    :meth:`EditSession.create` would have put it."""
    tree = session.tree
    if tree is None:
        return None
    fresh = await session.service.load(tree.org_id, tree.site_id)
    new = (key for key in fresh.layout.walk() if key not in tree.nodes)
    made = next((key for key in new if _made(fresh, key, kind, values)), None)
    if made is not None:
        session.history.append(Change(f"Create a {NOUNS[kind]}", created=made))
    return made


async def find_edit(session: EditSession, key: str, changes: dict[str, Any]) -> bool | None:
    """True when the structure read again holds ``changes`` to ``key`` (the edit is then shown, and on the
    history), else None."""
    tree = session.tree
    if tree is None or key not in tree.nodes:
        return None
    fresh = await session.service.load(tree.org_id, tree.site_id)
    node = fresh.nodes.get(key)
    if node is None:
        return None
    defaults = fresh.defaults()
    for name, value in changes.items():
        if (key in defaults) != bool(value) if name == "default" else getattr(node, name) != value:
            return None
    before = tree.default_among(key) if changes.get("default") else None
    back = tree.apply_edit(key, changes)
    session.revision += 1
    session.history.append(Change(f"Edit {tree.name(key)}", item=key, back=back, default_before=before))
    return True
