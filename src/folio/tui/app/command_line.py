"""The app's ``:`` command line: each verb is a route's (``folio.tui.routes``), and what it opens is found the
way the route says: a loaded thing by title, a change request of the open space by number, or a screen of the
organization in view."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from folio.tui.app.navigation import Navigation
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen

if TYPE_CHECKING:
    from textual.screen import Screen

    from folio.services.links import Link
    from folio.tui import routes
    from folio.tui.jump import Pending

__all__ = ["CommandLine"]


class CommandLine(Navigation):
    """``:`` (a part of :class:`FolioApp`)."""

    command_history: list[str]

    def action_command_line(self) -> None:
        from folio.tui import routes
        from folio.tui.widgets.command_line import CommandLineScreen, CommandSuggester

        def titles(verb: str) -> list[str]:
            found = routes.route_of_verb(verb)
            return [c.title for c in self.candidates(found.kind)] if found and found.find == "title" else []

        suggester = CommandSuggester(titles)
        self.push_screen(CommandLineScreen(self.resolve_command, history=self.command_history, suggester=suggester))

    def resolve_command(self, line: str) -> Pending | Callable[[], object] | str:
        """What a ``:`` line does (a callable to run once the line is closed), or why it does nothing."""
        from folio.tui.jump import CommandError, best, matches, parse  # (imported when a line is first typed)

        if " ".join(line.split()).removeprefix(":").strip().lower() == "sweep":
            return self._sweep()
        try:
            command = parse(line)
        except CommandError as error:
            return str(error)
        if command.verb == "open":
            return self._resolve_link(command.argument)
        route = command.route
        if route is None:
            return self.exit
        if route.find == "number":
            return self._resolve_change_request(int(command.argument))
        if route.find == "organization":
            return self._resolve_in_organization(route, command.argument)
        if route.find == "none":  # a screen of the account, not of one thing: :inbox
            return lambda: self.jump(lambda: self.screen_for(route.kind, {}, trail=("Organizations",)))
        loaded = self.candidates(route.kind)
        asked = safe(command.argument, limit=60).plain
        if not loaded:
            return (
                f"No {route.plural} loaded yet: open a list of {route.plural} first, "
                f"then :{command.verb} finds them by title."
            )
        choice = best(command.argument, loaded, kind=route.kind)
        if choice is not None:
            return lambda: self.go_to(choice.kind, choice.key)
        ranked = matches(command.argument, loaded, kind=route.kind)
        if not ranked:
            return f"No loaded {route.noun} matches “{asked}”."
        names = ", ".join(c.title for c in ranked[:3]) + (", …" if len(ranked) > 3 else "")
        return f"“{asked}” matches several {route.plural}: {names}. Type more of the title."

    # -- links (folio.services.links) --------------------------------------------------------------------------

    def _resolve_link(self, url: str) -> Pending:
        """A GitBook link typed or pasted: looked up (a page path, a published address) while the line says so,
        then its screen opened as a jump; a link Folio cannot map is said in the line, naming the part."""
        from folio.tui.jump import Pending

        found: list[Link] = []

        async def look_up() -> str | None:
            found.append(await self.services.links.resolve(url))
            return None

        return Pending(look_up, lambda: self.show_link(found[-1]), looking="Looking up the link…")

    def open_link(self, url: str) -> None:
        """Open the screen of ``url`` (``folio open URL``): looked up in a worker, then opened as a jump; a link
        that leads nowhere is said in a notification (the screen in view stays)."""
        self.run_worker(self._open_link(url), group="link", exclusive=True, exit_on_error=False)

    async def _open_link(self, url: str) -> None:
        from folio.services.errors import ServiceError
        from folio.tui.errors import notify_error

        try:
            link = await self.services.links.resolve(url)
        except ServiceError as exc:
            notify_error(self, exc, doing="Could not open the link")
            return
        self.show_link(link)

    def show_link(self, link: Link) -> None:
        """Jump to the screen ``link`` names, on its tab and row (``Link.view``), over the organizations."""

        def build() -> Screen[Any]:
            screen = self.screen_for(link.kind, link.ids, trail=("Organizations",))
            if link.view:
                setattr(screen, "_folio_restore", dict(link.view))  # noqa: B010 (any screen: folio.tui.restore)
            return screen

        self.jump(build, keep=1)

    def _sweep(self) -> Callable[[], object] | str:
        """``:sweep``: the review sweep of the change request in view (``space`` on its changes tab)."""
        from textual.screen import ModalScreen

        screen = next((s for s in reversed(self.trail_screens) if not isinstance(s, ModalScreen)), None)
        if not isinstance(screen, FolioScreen) or not screen.sweeps:
            return "Open a change request first: :sweep walks its review, page by page and thread by thread."
        reason = screen.why_not("sweep")
        return reason if reason else partial(screen.run_action, "sweep")

    def current_organization(self) -> tuple[str, int] | None:
        """The organization in view (the nearest screen of the stack that has one) and that screen's index; with
        none in the stack, the only organization loaded (index -1)."""
        stack = self.trail_screens
        # the organization screen itself first (so :settings from :sso replaces it, not piles on it), then any
        # screen of an organization
        for only_the_organization in (True, False):
            for index in range(len(stack) - 1, -1, -1):
                screen = stack[index]
                if not isinstance(screen, FolioScreen):
                    continue
                org_id = screen.organization_in_view()
                if org_id and (screen.ROUTE == "organization" or not only_the_organization):
                    return org_id, index
        orgs = self.candidates("organization")
        return (orgs[0].key, -1) if len(orgs) == 1 else None

    def _resolve_in_organization(self, route: routes.Route, argument: str) -> Callable[[], object] | str:
        found = self.current_organization()
        if found is None:
            return f"Open an organization first: :{route.verbs[0]} shows the {route.plural} of the one in view."
        org_id, index = found
        ids: dict[str, Any] = {"org_id": org_id}
        if argument:
            ids["words"] = argument
        if index < 0:
            return lambda: self.jump(lambda: self.screen_for(route.kind, ids, trail=("Organizations",)))
        stack = self.trail_screens
        screen = stack[index]
        trail = screen.org_trail if isinstance(screen, FolioScreen) else ()
        return lambda: self.jump(lambda: self.screen_for(route.kind, ids, trail=trail), keep=index + 1)

    def _resolve_change_request(self, number: int) -> Pending | Callable[[], object] | str:
        from folio.tui.jump import change_request_number

        stack = self.trail_screens
        for index in range(len(stack) - 1, -1, -1):
            screen = stack[index]
            if isinstance(screen, FolioScreen) and screen.space_id:
                return self._open_change_request(screen.space_id, number, screen.trail, index)
        found = [c for c in self.candidates("change-request") if change_request_number(c) == number]
        if len(found) == 1:
            return lambda: self.go_to(found[0].kind, found[0].key)
        if found:
            return f"Several loaded change requests are #{number} (in different spaces): open the space first."
        return f"No loaded change request is #{number}, and no space is open: open a space first."

    def _open_change_request(self, space_id: str, number: int, trail: tuple[str, ...], index: int) -> Pending:
        """Open change request ``number`` of the space of the screen at ``index``, on top of that screen, once
        the service says it exists (a missing one is said in the command line, not on a screen of its own)."""
        from folio.tui.jump import Pending

        ids = {"space_id": space_id, "ref": number}

        async def exists() -> str | None:
            if not await self.services.review.exists(space_id, number):
                return f"This space has no change request #{number}."
            return None

        def go() -> None:
            self.jump(lambda: self.screen_for("change-request", ids, trail=trail), keep=index + 1)

        return Pending(exists, go, looking=f"Looking for #{number}…")
