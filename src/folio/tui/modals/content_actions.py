"""What happens when a collection or a space is changed from a screen: the questions asked (a form, a picker, a
typed confirmation), the request, and a message that says how it went. The organization screen and the space
screen share them; each runs in a worker of its host (``push_screen_wait`` needs one) and returns what changed
(None: nothing was done).

    collection = await new_collection(screen, services, org_id, parent)
    space = await toggle_lock(screen, services, space_id)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.content import Content
from textual.widget import Widget

from folio.services import format
from folio.services.content.collections import delete_consequence
from folio.services.errors import ServiceError
from folio.services.sites.site_rules import Choice
from folio.services.writes import may_have_reached
from folio.tui.errors import notify_error
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.content_forms import EditCollectionModal, EditSpaceModal, NewCollectionModal, Unchanged
from folio.tui.modals.site_forms import ChoiceModal, TypedConfirmModal
from folio.tui.navigation import Open
from folio.tui.safe import safe

if TYPE_CHECKING:
    from textual.screen import Screen

    from folio.models.space import Collection, Space
    from folio.services import Services

__all__ = [
    "delete_collection",
    "delete_space",
    "duplicate_space",
    "edit_collection",
    "edit_space",
    "new_collection",
    "toggle_lock",
    "transfer_collection",
    "transfer_space",
]

ROOT = "-"
"""The picker's value for "no collection: the root"."""


def _done(host: Widget, text: str) -> None:
    host.notify(text, markup=False)


def _name(thing: Collection | Space) -> str:
    return safe(thing.title or thing.id, limit=60).plain


async def _ask(host: Widget, screen: Screen[Any]) -> Any:
    return await host.app.push_screen_wait(screen)


async def _nothing(value: str) -> None:
    """A picker's choice that sends nothing by itself (the flow sends once everything is picked)."""


# --- collections ---------------------------------------------------------------------------------------------


async def new_collection(
    host: Widget, services: Services, org_id: str, parent: Collection | None, known: set[str]
) -> Collection | None:
    made = await _ask(host, NewCollectionModal(services.collections, org_id, parent, known))
    if made is not None:
        where = f" in “{_name(parent)}”" if parent else ""
        _done(host, f"Created the collection “{_name(made)}”{where}.")
    return made  # type: ignore[no-any-return]


async def edit_collection(host: Widget, services: Services, collection: Collection) -> Collection | None:
    result = await _ask(host, EditCollectionModal(services.collections, collection))
    if isinstance(result, Unchanged):
        _done(host, f"Nothing changed: the {result.what} is as it was.")
        return None
    if result is not None:
        _done(host, f"Saved the collection “{_name(result)}”.")
    return result  # type: ignore[no-any-return]


async def delete_collection(
    host: Widget, services: Services, collection: Collection, *, spaces: int, collections: int
) -> bool:
    body = (
        f"It holds {format.count(spaces, 'space')} and {format.count(collections, 'collection')}. "
        + delete_consequence(spaces, collections)
    )
    sure = await _ask(
        host,
        TypedConfirmModal(
            Content("Delete the collection “") + safe(collection.title or collection.id, limit=60) + "”?",
            collection.title or collection.id,
            body=body,
        ),
    )
    if not sure:
        return False
    try:
        existed = await services.collections.delete(collection)
    except ServiceError as exc:
        notify_error(host, exc, doing=f"Could not delete the collection “{_name(collection)}”")
        return False
    what = "Deleted" if existed else "It was already gone:"
    _done(host, f"{what} the collection “{_name(collection)}”" + (f" and its {spaces} spaces." if spaces else "."))
    return True


async def _pick_organization(
    host: Widget,
    services: Services,
    title: str,
    leaving: str | None,
    *,
    keep_current: bool,
    titles: dict[str, str] | None = None,
) -> str | None:
    """The organization picked (None: none, or the list could not be read); ``titles`` gets each one's name."""
    try:
        found = await services.space_admin.organizations()
    except ServiceError as exc:
        notify_error(host, exc, doing="Could not list your organizations")
        return None
    if titles is not None:
        titles.update((org.id, safe(org.title or org.id, limit=60).plain) for org in found)
    choices = [
        Choice(org.id, (org.title or org.id) + (" (where it is now)" if org.id == leaving else ""))
        for org in found
        if keep_current or org.id != leaving
    ]
    if not choices:
        _done(host, "You belong to no other organization: there is nowhere to transfer it.")
        return None
    picked: str | None = await _ask(
        host,
        ChoiceModal(title, choices, _nothing, current=leaving, help="The service checks your role there."),
    )
    return picked


async def transfer_collection(host: Widget, services: Services, collection: Collection) -> Collection | None:
    title = Content("Transfer the collection “") + safe(collection.title or collection.id, limit=60) + "” to…"
    target = await _pick_organization(host, services, title.plain, collection.organization, keep_current=False)
    if target is None:
        return None
    sure = await _ask(
        host,
        ConfirmModal(
            Content("Transfer “") + safe(collection.title or collection.id, limit=60) + "”?",
            "It moves with its collections and spaces to the root of the other organization.",
            accept_key="y",
            accept_label="Transfer",
        ),
    )
    if not sure:
        return None
    try:
        moved = await services.collections.transfer(collection, target)
    except ServiceError as exc:
        notify_error(host, exc, doing=f"Could not transfer the collection “{_name(collection)}”")
        return None
    _done(host, f"Transferred the collection “{_name(collection)}” to another organization.")
    return moved


# --- spaces --------------------------------------------------------------------------------------------------


async def _space(host: Widget, services: Services, space_id: str) -> Space | None:
    try:
        return await services.space_admin.space(space_id)
    except ServiceError as exc:
        notify_error(host, exc, doing="Could not read the space")
        return None


def _refuse(host: Widget, space: Space, need: str, what: str) -> bool:
    """Say it and return True when the caller's permissions on ``space`` lack ``need``."""
    permissions = space.permissions
    if permissions is None or getattr(permissions, need, False):
        return False
    host.notify(f"You cannot {what} “{_name(space)}”: it takes the admin role on the space.", markup=False)
    return True


async def edit_space(host: Widget, services: Services, space_id: str) -> Space | None:
    space = await _space(host, services, space_id)
    if space is None or _refuse(host, space, "admin", "edit"):
        return None
    result = await _ask(host, EditSpaceModal(services.space_admin, space))
    if isinstance(result, Unchanged):
        _done(host, f"Nothing changed: the {result.what} is as it was.")
        return None
    if result is not None:
        _done(host, f"Saved the space “{_name(result)}”.")
    return result  # type: ignore[no-any-return]


async def toggle_lock(host: Widget, services: Services, space_id: str) -> Space | None:
    """Lock a live space (no edits at all), or let members edit a locked one directly again."""
    space = await _space(host, services, space_id)
    if space is None or _refuse(host, space, "admin", "lock or unlock"):
        return None
    try:
        changed = await services.space_admin.set_locked(space, not space.locked)
    except ServiceError as exc:
        notify_error(host, exc, doing=f"Could not {'unlock' if space.locked else 'lock'} “{_name(space)}”")
        return None
    if changed.locked:
        _done(host, f"Locked “{_name(changed)}”: nobody can edit it until it is unlocked.")
    else:
        _done(host, f"Unlocked “{_name(changed)}”: members edit it directly again.")
    return changed


async def duplicate_space(host: Widget, services: Services, space_id: str) -> Space | None:
    """Copy the space (asked first); the copy opens."""
    space = await _space(host, services, space_id)
    if space is None:
        return None
    sure = await _ask(
        host,
        ConfirmModal(
            Content("Duplicate “") + safe(space.title or space.id, limit=60) + "”?",
            "A copy of the space and its current content is made in the same collection, and opens.",
            accept_key="y",
            accept_label="Duplicate",
        ),
    )
    if not sure:
        return None
    try:
        known = await services.space_admin.known_ids(space.organization)
    except ServiceError as exc:
        notify_error(host, exc, doing=f"Could not duplicate “{_name(space)}”")
        return None
    try:
        copy = await services.space_admin.duplicate(space)
    except ServiceError as exc:
        found = await _found_copy(services, space, known) if may_have_reached(exc) else None
        if found is None:
            notify_error(host, exc, doing=f"Could not duplicate “{_name(space)}”")
            return None
        copy = found
    _done(host, f"Duplicated “{_name(space)}” as “{_name(copy)}”.")
    host.post_message(Open("space", {"space_id": copy.id}, title=copy.title))
    return copy


async def _found_copy(services: Services, space: Space, known: list[str]) -> Space | None:
    """After a duplicate whose answer was lost: the copy, if the service made it."""
    try:
        return await services.space_admin.find_duplicate(space, known)
    except ServiceError:
        return None


async def transfer_space(
    host: Widget, services: Services, space_id: str, *, moved_to: Callable[[str, str], object] | None = None
) -> Space | None:
    """Move the space to another organization and/or into a collection there (picked one after the other).
    ``moved_to(old, new)`` is told the names of both organizations when it left its own."""
    space = await _space(host, services, space_id)
    if space is None or _refuse(host, space, "admin", "transfer"):
        return None
    title = "Transfer “" + _name(space) + "” to the organization…"
    titles: dict[str, str] = {}
    target = await _pick_organization(host, services, title, space.organization, keep_current=True, titles=titles)
    if target is None:
        return None
    try:
        collections = await services.space_admin.collections(target)
    except ServiceError as exc:
        notify_error(host, exc, doing="Could not list the collections there")
        return None
    choices = [Choice(ROOT, "No collection: the organization's root")]
    choices += [Choice(c.id, c.title or c.id) for c in collections]
    here = space.parent if target == space.organization else None
    where = await _ask(host, ChoiceModal("…and into the collection", choices, _nothing, current=here or ROOT))
    if where is None:
        return None
    collection = None if where == ROOT else str(where)
    try:
        moved = await services.space_admin.transfer(space, target, collection)
    except ServiceError as exc:
        notify_error(host, exc, doing=f"Could not transfer “{_name(space)}”")
        return None
    named = next((c.title for c in collections if c.id == collection), None)
    _done(host, f"Transferred “{_name(space)}”" + (f" into “{safe(named, limit=60).plain}”." if named else "."))
    if moved_to is not None and target != space.organization:
        moved_to(titles.get(space.organization or "", ""), titles.get(target, target))
    return moved


async def delete_space(host: Widget, services: Services, space_id: str) -> Space | None:
    """Delete the space after its title is typed; it can be restored for 7 days."""
    space = await _space(host, services, space_id)
    if space is None or _refuse(host, space, "admin", "delete"):
        return None
    sure = await _ask(
        host,
        TypedConfirmModal(
            Content("Delete the space “") + safe(space.title or space.id, limit=60) + "”?",
            space.title or space.id,
            body="It can be restored for 7 days; after that it is removed for good, with its change requests.",
        ),
    )
    if not sure:
        return None
    try:
        await services.space_admin.delete(space)
    except ServiceError as exc:
        notify_error(host, exc, doing=f"Could not delete “{_name(space)}”")
        return None
    _done(host, f"Deleted “{_name(space)}”: it can be restored for 7 days.")
    return space
