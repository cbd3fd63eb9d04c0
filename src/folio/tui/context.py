"""What the app hands every screen, typed: the services, the account signed in, the organization in view and the
way to other screens. A screen reaches it as ``self.context`` (``FolioScreen``); a widget as
``context_of(self)``, which is None only in an app that is not Folio's (a widget's own test).

    self.context.services                      # the use-cases (folio.services)
    await self.context.account()               # who is signed in (asked once, then kept)
    self.context.organization_id               # the organization in view, if any
    self.context.open("member", {"org_id": o, "user_id": u}, title="Ada")
    self.context.remember("space", ids, title)  # reachable from the palette's go-to and :space
    self.context.forget("team", ids)            # deleted: the go-to no longer offers it
    self.context.after_first_frame(callback)    # what the first frame does not need

No screen scans the stack or asks the app for an attribute it may not have: what a screen needs of the app is
here, and ``FolioApp`` is the only :class:`Navigator`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import App

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from folio.models.common import User
    from folio.services import Services
    from folio.tui.navigation import Ids

__all__ = ["Context", "ContextApp", "Navigator", "context_of"]


class Navigator(Protocol):
    """What the context asks of the app (``FolioApp``)."""

    services: Services

    @property
    def first_frame_drawn(self) -> bool: ...

    def open_route(self, kind: str, ids: Ids, *, title: str | None = None, jump: bool = False) -> None: ...

    def remember(self, kind: str, ids: Ids, title: str, trail: tuple[str, ...] = ()) -> None: ...

    def forget(self, kind: str, ids: Ids) -> None: ...

    def current_organization(self) -> tuple[str, int] | None: ...

    def after_first_frame(self, callback: Callable[[], object]) -> None: ...

    def first_screen_shown(self) -> None: ...


class Context:
    """The app, as a screen sees it."""

    def __init__(self, navigator: Navigator) -> None:
        self._navigator = navigator

    @property
    def services(self) -> Services:
        """The services of the account in use (a profile switch changes them)."""
        return self._navigator.services

    async def account(self) -> User:
        """Who is signed in (asked of the service once per account, then kept)."""
        return await self._navigator.services.me()

    @property
    def organization_id(self) -> str | None:
        """The organization in view: that of the nearest screen that has one, or the only one loaded."""
        found = self._navigator.current_organization()
        return found[0] if found is not None else None

    def open(self, kind: str, ids: Ids, *, title: str | None = None, jump: bool = False) -> None:
        """Open the screen of a route (``jump``: as a jump, which ``-`` returns from)."""
        self._navigator.open_route(kind, ids, title=title, jump=jump)

    def remember(self, kind: str, ids: Ids, title: str, trail: tuple[str, ...] = ()) -> None:
        """Make a loaded thing reachable from the palette's go-to and the command line."""
        self._navigator.remember(kind, ids, title, trail)

    def forget(self, kind: str, ids: Ids) -> None:
        """A deleted thing: the go-to no longer offers it, and its kept screen is let go."""
        self._navigator.forget(kind, ids)

    @property
    def first_frame_drawn(self) -> bool:
        return self._navigator.first_frame_drawn

    def after_first_frame(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` once the first frame is on the terminal (now, if it is)."""
        self._navigator.after_first_frame(callback)

    def first_screen_shown(self) -> None:
        """The first screen has its first answer: what waited for it may start."""
        self._navigator.first_screen_shown()


class ContextApp(App[None]):
    """An app that hands its screens a :class:`Context` (``FolioApp``)."""

    context: Context


def context_of(node: DOMNode | App[Any]) -> Context | None:
    """The context of the app ``node`` runs in; None outside Folio's app (a widget's test) or once the node is
    no longer mounted."""
    try:
        app = node if isinstance(node, App) else node.app
    except RuntimeError:  # Textual's NoActiveAppError: a widget no longer mounted has no app
        return None
    return app.context if isinstance(app, ContextApp) else None
