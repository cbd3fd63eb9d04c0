"""The app's part that moves between screens: ``Open`` messages from any widget, the go-to of loaded things,
jumps that ``-`` undoes, and the stack kept to match the breadcrumb trail.

A jump keeps the screens of the current stack whose trail leads to the screen jumped to (so ``esc`` after
``:space …`` from an organization goes back to that organization, as the breadcrumb says) and replaces the rest;
the screens it replaced are kept alive (installed) so ``-`` puts them back as they were, scroll positions and all.

The last :data:`KEEP_VISITED` screens opened through a route stay alive too once they are left: opening the same
thing again (``enter`` on its row, ``:org``, the go-to) pushes that screen back as it was, cursor and all, instead
of building it again, and it reads its data again once it is on screen (:meth:`FolioScreen.revisit`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import on

from folio.tui.app.connectivity import Connectivity
from folio.tui.navigation import Ids, Open, key_of
from folio.tui.safe import safe
from folio.tui.textual_private import screen_stacks

if TYPE_CHECKING:
    from textual.screen import Screen

    from folio.tui.jump import Candidate

__all__ = ["KEEP_VISITED", "Loaded", "Navigation"]

KEEP_VISITED = 4
"""How many screens left behind stay alive for a reopen (a screen of 10,000 rows holds a few MB)."""

OpenScreen = Callable[[], "Screen[Any]"]


class Loaded:
    """A thing a screen loaded: enough to build its screen again (``kind``, ``ids``) and to name it.

    The go-to keeps one for every space and change request of an organization (tens of thousands), so it is small:
    ids whose values are all strings without a slash are read back from ``key`` (their values joined by slashes,
    :func:`key_of`) and only their names are kept, one tuple shared by every thing named the same way."""

    __slots__ = ("_ids", "key", "kind", "title", "trail")

    def __init__(self, kind: str, ids: Ids, title: str, trail: tuple[str, ...], key: str | None = None) -> None:
        self.kind = kind
        self.key = key_of(ids) if key is None else key
        self.title = title
        self.trail = trail
        self._ids: tuple[str, ...] | dict[str, Any]
        if ids and all(type(value) is str and "/" not in value for value in ids.values()):
            names = tuple(ids)
            self._ids = _NAMES.setdefault(names, names)
        else:
            self._ids = dict(ids)

    @property
    def ids(self) -> dict[str, Any]:
        """The ids it was remembered with (a new dict each time)."""
        if isinstance(self._ids, dict):
            return dict(self._ids)
        return dict(zip(self._ids, self.key.split("/"), strict=True))


_NAMES: dict[tuple[str, ...], tuple[str, ...]] = {}
"""The names of ids seen (``("space_id",)``, ``("org_id", "team_id")``...), one tuple each: a few, from the code."""


class Navigation(Connectivity):
    """Opening, jumping and going back (a part of :class:`FolioApp`)."""

    loaded: dict[tuple[str, str], Loaded]
    before_jump: list[Screen[Any]]
    _kept: set[Screen[Any]]
    _arriving: list[Screen[Any]]
    _visited: dict[tuple[str, str], Screen[Any]] | None = None
    """(kind, key) -> the screen opened for it, kept alive (installed) for a reopen; latest last."""

    # -- opening ---------------------------------------------------------------------------------------------

    @on(Open)
    def _open_requested(self, event: Open) -> None:
        event.stop()
        self.open_route(event.kind, event.ids, title=event.title, jump=event.jump)

    def open_route(self, kind: str, ids: Ids, *, title: str | None = None, jump: bool = False) -> None:
        """Open the screen of ``kind`` for ``ids`` on top of the one in view (``jump``: as a go-to)."""
        trail = tuple(getattr(self.screen, "trail", ()) or ())
        if jump:
            self.jump(lambda: self.screen_for(kind, ids, title=title, trail=trail))
            return
        try:
            screen = self.screen_for(kind, ids, title=title, trail=trail)
        except Exception as exc:  # a screen that cannot be built is a bug of ours: say so, keep the stack
            from folio.tui.errors import notify_error

            notify_error(self, exc, doing="Could not open that screen")
            return
        self.push_screen(screen)

    # -- loaded resources, for the palette's go-to and the command line ----------------------------------------

    def remember(self, kind: str, ids: Ids, title: str, trail: tuple[str, ...] = ()) -> None:
        """Keep a loaded resource (of a route's ``kind``) for the go-to; the latest remembered comes first."""
        key = (kind, key_of(ids))
        loaded = self.loaded
        latest = loaded[next(reversed(loaded))] if loaded else None
        if latest is not None and latest.trail == trail:
            trail = latest.trail  # (one tuple for all the things a screen remembers, not one each)
        loaded.pop(key, None)
        loaded[key] = Loaded(kind, ids, title, trail, key[1])

    def forget(self, kind: str, ids: Ids) -> None:
        """A deleted thing: the go-to no longer offers it, and its kept screen is let go."""
        self.loaded.pop((kind, key_of(ids)), None)
        self.forget_screen(kind, ids)

    def candidates(self, kind: str | None = None) -> list[Candidate]:
        """What is loaded (of ``kind``), latest first, titles made safe."""
        from folio.tui import routes
        from folio.tui.jump import Candidate

        return [
            Candidate(k, key, safe(item.title, limit=120).plain)
            for (k, key), item in reversed(self.loaded.items())
            if (kind is None or k == kind) and (route := routes.route(k)) is not None and route.go_to
        ]

    def go_to(self, kind: str, key: str) -> None:
        """Jump to a remembered resource."""
        found = self.loaded.get((kind, key))
        if found is None:
            self.notify(f"That {kind.replace('-', ' ')} is no longer loaded.", severity="warning", markup=False)
            return
        self.jump(lambda: self.screen_for(found.kind, found.ids, title=found.title, trail=found.trail))

    # -- screens kept for a reopen ---------------------------------------------------------------------------

    def screen_for(self, kind: str, ids: Ids, *, title: str | None = None, trail: tuple[str, ...] = ()) -> Screen[Any]:
        """The screen of ``kind`` for ``ids``: the one left behind earlier when it is still kept (and in no stack),
        under ``trail`` now; otherwise a new one (``routes.build``), kept from now on. Raises as ``routes.build``."""
        visited = self._visited
        if visited is None:
            visited = self._visited = {}
        key = (kind, key_of(ids))
        screen = visited.pop(key, None)
        if screen is not None and (getattr(screen, "services", None) is not self.services or self._in_stack(screen)):
            self._kept.add(screen)  # another account's, or on screen already: let go of it, and a new one
            screen = None
        if screen is None:
            from folio.tui import routes  # (the route table: when a second screen opens, not before the first)

            screen = routes.build(self.services, kind, ids, title=title, trail=trail)
        else:
            screen.parent_trail = trail  # type: ignore[attr-defined]
            screen.revisit_due = True  # type: ignore[attr-defined]  # (FolioScreen: read again once painted)
        visited[key] = screen
        if not self.is_screen_installed(screen):
            self.install_screen(screen, f"folio-visit-{id(screen)}")
        return screen

    def _in_stack(self, screen: Screen[Any]) -> bool:
        return any(screen in stack for stack in screen_stacks(self).values())

    def _release_visited(self) -> None:
        """Let go of the screens kept for a reopen beyond the last :data:`KEEP_VISITED` (none in a stack or
        needed by ``-``), and of those of another account."""
        visited = self._visited
        if not visited:
            return
        left = [key for key, screen in visited.items() if not self._in_stack(screen)]
        extra = len(left) - KEEP_VISITED
        for key in left:
            screen = visited[key]
            if extra <= 0 and getattr(screen, "services", None) is self.services:
                continue
            del visited[key]
            extra -= 1
            if screen in self.before_jump or screen in self._arriving:
                self._kept.add(screen)  # ``-`` still needs it: released with the jump's screens
                continue
            self.uninstall_screen(screen)
            if screen.is_attached:
                screen.remove()

    def forget_screen(self, kind: str, ids: Ids) -> None:
        """The thing of ``kind`` is gone (deleted): a reopen builds its screen again."""
        gone = self._visited.pop((kind, key_of(ids)), None) if self._visited else None
        if gone is not None:
            self._kept.add(gone)  # uninstalled by _release_kept once no stack and no ``-`` needs it
            self.call_later(self._release_kept)

    # -- the stack -------------------------------------------------------------------------------------------

    def jump(self, open_screen: OpenScreen, *, keep: int | None = None) -> None:
        """Open a screen as a jump: keep the first ``keep`` screens (by default those whose trail leads to the
        new screen, at least the first), replace the rest with the new one; ``-`` returns to them as they were."""
        if self._in_dialog():
            self.notify("Close the dialog first, then jump.", severity="warning", markup=False)
            return
        current = self.trail_screens
        try:
            screen = open_screen()
        except Exception as exc:  # a screen that cannot be built is a bug of ours: say so, keep the stack
            from folio.tui.errors import notify_error

            notify_error(self, exc, doing="Could not open that screen")
            return
        if keep is None:
            keep = _leading_to(current, tuple(getattr(screen, "parent_trail", ()) or ()))
        upcoming = [*current[: max(0, keep)], screen]
        self._remember_before_jump(current, upcoming)
        self.call_later(self._set_stack, upcoming)

    def action_previous_screen(self) -> None:
        """``-``: back to where you were before the last jump; pressed again, back to where the jump led."""
        if self._in_dialog():
            return
        if not self.before_jump:
            self.notify(
                "Nothing to return to yet: - returns to where you were before a jump (ctrl+p or :).", markup=False
            )
            return
        target, current = self.before_jump, self.trail_screens
        self._remember_before_jump(current, target)
        self.call_later(self._set_stack, target)

    def _remember_before_jump(self, screens: list[Screen[Any]], upcoming: list[Screen[Any]]) -> None:
        """Keep ``screens`` alive for ``-`` (installed screens outlive a pop); let go of the others later."""
        self.before_jump = list(screens)
        for screen in screens:
            if not self.is_screen_installed(screen):
                self.install_screen(screen, f"folio-jump-{id(screen)}")
                self._kept.add(screen)
        self._arriving = list(upcoming)

    def _release_kept(self) -> None:
        """Uninstall (and so let Textual free) the kept screens that ``-`` no longer needs and no stack holds
        (and those kept for a reopen beyond the last few)."""
        self._release_visited()
        visited = set((self._visited or {}).values())
        for screen in list(self._kept):
            if screen in self.before_jump or screen in self._arriving:
                continue
            if screen in visited:
                self._kept.discard(screen)  # kept for a reopen from now on
                continue
            if any(screen in stack for stack in screen_stacks(self).values()):
                continue
            self._kept.discard(screen)
            self.uninstall_screen(screen)
            if screen.is_attached:
                screen.remove()

    async def _set_stack(self, screens: list[Screen[Any]]) -> None:
        """Make the screens above the default one ``screens``: pop what differs, push the rest."""
        current = self.trail_screens
        same = 0
        while same < min(len(current), len(screens)) and current[same] is screens[same]:
            same += 1
        with self.batch_update():
            for _ in current[same:]:
                await self.pop_screen()
            for screen in screens[same:]:
                await self.push_screen(screen)
        self._arriving = []
        self._release_kept()


def _leading_to(stack: list[Screen[Any]], parent_trail: tuple[str, ...]) -> int:
    """How many screens at the bottom of ``stack`` lead to a screen whose parents' trail is ``parent_trail``:
    each one's own trail is the start of it (the first screen is always kept)."""
    keep = 1
    for index, screen in enumerate(stack[1:], start=1):
        trail = tuple(getattr(screen, "trail", ()) or ())
        if not trail or parent_trail[: len(trail)] != trail:
            break
        keep = index + 1
    return min(keep, len(stack)) if stack else 0
