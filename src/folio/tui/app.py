"""The Textual application: the theme and global keys, the header's breadcrumbs, the first screen, and the
ways to move between screens.

    esc         back one screen (FolioScreen.action_back)
    ctrl+p      the command palette: this screen's actions, and a go-to of everything loaded so far
    :           the command line: :org / :space / :site <title>, :cr <number>, :q
    -           return to where you were before the last jump (a go-to or a : command), and again to come back
    ?           every key of this screen, with the binding ids the config's [keymap] remaps
    R           load every screen of the trail again (r, on a screen, loads that screen)
    ctrl+o      the outbox: writes made offline, sent in order when Folio is back online
    q, ctrl+c   quit, without a question

A jump replaces the screens above the first one with the screen jumped to; the screens it replaced are kept
alive (installed) so ``-`` puts them back as they were, scroll positions and all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.content import Content
from textual.screen import ModalScreen, Screen

from folio.config.settings import RefreshSettings
from folio.tui import session, styles_dir
from folio.tui.commands import FolioCommands, key_entries
from folio.tui.jump import KINDS, Candidate, CommandError, best, change_request_number, matches, parse
from folio.tui.safe import safe
from folio.tui.screens.organizations import OrganizationsScreen

if TYPE_CHECKING:
    from folio.cache import LocalState
    from folio.services import Services

__all__ = ["CRUMB", "FolioApp"]

log = logging.getLogger(__name__)

CRUMB = "\u203a"
"""Joins the segments of a breadcrumb trail in a screen's ``sub_title``."""

OpenScreen = Callable[[], Screen[Any]]
SESSION_EVERY = 10.0
"""Seconds between saves of the session (screen changes save it at once)."""
FIRST_SCREEN_WAIT = 2.0
"""Seconds the who-am-I request waits for the first screen's list before it goes anyway."""
PROBE_EVERY = 15.0
"""Seconds between checks that the service answers again, while offline because the network was down."""
PLURALS = {"organization": "organizations", "space": "spaces", "change-request": "change requests", "site": "sites"}


class FolioApp(App[None]):
    """Folio's TUI. Takes its services ready-made (``folio.cli`` wires them) and opens on the organizations.

    ``keymap`` (binding id -> keys, from the config's ``[keymap]``) remaps any binding that has an id.
    ``start`` (for tests and jumps) builds the first screen instead of the organizations.
    """

    TITLE = "Folio"
    CSS_PATH = [styles_dir() / "app.tcss"]
    COMMANDS: ClassVar[set[Any]] = {FolioCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", show=False, id="app.quit", tooltip="Leave Folio (no question asked)"),
        Binding(
            "ctrl+c",
            "interrupt",
            "Quit",
            show=False,
            id="app.interrupt",
            tooltip="Leave Folio (in a text field ctrl+c copies instead)",
        ),
        Binding(
            "ctrl+o",
            "outbox",
            "Outbox",
            show=False,
            id="app.outbox",
            tooltip="The comments, replies, reactions and resolves made offline, waiting to be sent",
        ),
        Binding(
            "R",
            "refresh_all",
            "Refresh all",
            show=False,
            id="app.refresh-all",
            tooltip="Load again every screen of the trail, not only this one",
        ),
        Binding(
            "question_mark",
            "help",
            "Keys",
            id="app.help",
            tooltip="Every key of this screen, with the ids to remap them by",
        ),
        Binding(
            "ctrl+p",
            "command_palette",
            "Commands",
            show=False,
            priority=True,
            id="app.palette",
            tooltip="Search this screen's actions and go to anything loaded",
        ),
        Binding(
            "colon",
            "command_line",
            "Command",
            show=False,
            id="app.command-line",
            tooltip="Type :org, :space or :site and a title, :cr and a number, or :q",
        ),
    ]

    def __init__(
        self,
        services: Services,
        *,
        keymap: Mapping[str, str] | None = None,
        organization: str | None = None,
        start: Callable[[], Screen[Any]] | None = None,
        refresh: RefreshSettings | None = None,
        restore: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.restore = restore
        """Reopen the screens of the last session when it did not end with a quit (the CLI sets it)."""
        self._signals: list[int] = []
        self._offline_was: str | None = None
        self._saved_session: dict[str, Any] | None = None
        self.refresh_settings = refresh or RefreshSettings(interval=0)
        self.services = services
        self.organization = organization
        self.start = start
        self.loaded: dict[tuple[str, str], tuple[str, OpenScreen]] = {}
        """(kind, key) -> (title, how to open it): what the palette's go-to and the command line reach."""
        self.command_history: list[str] = []
        self.before_jump: list[Screen[Any]] = []
        """The screens above the first one before the last jump (``-`` puts them back); they stay installed."""
        self._kept: set[Screen[Any]] = set()
        self._first_screen = asyncio.Event()
        """Set once the first screen has shown what it loaded: requests that can wait, wait for it."""
        self._arriving: list[Screen[Any]] = []
        """The screens a stack change under way is about to push: never let go of those."""
        self.sub_title = services.where
        if keymap:
            self.set_keymap(dict(keymap))

    def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, lambda screen: self.call_later(self._release_kept))
        self.screen_change_signal.subscribe(self, lambda screen: self.call_later(self.save_session))
        self.set_interval(SESSION_EVERY, self.save_session)
        self._install_hang_up()
        client = getattr(self.services, "client", None)
        if client is not None:
            client.on_offline_change = self._offline_changed
            self._offline_was = client.offline_reason
            self._draw_offline(client.offline_reason)
            self.run_worker(self._who_am_i(), group="who-am-i", exit_on_error=False)
            self.set_interval(PROBE_EVERY, self._probe_online)
        if self.refresh_settings.interval:
            self.set_interval(self.refresh_settings.interval, self._refresh_by_itself)
        if self.start is not None:
            self._first_screen.set()
            self.push_screen(self.start())
        else:
            self.push_screen(OrganizationsScreen(self.services.browse, initial=self.organization))
            if self.restore:
                self._restore_session()

    # -- offline, and refreshing by itself ------------------------------------------------------------------

    def _offline_changed(self, reason: str | None) -> None:
        """The client went offline (``asked``, ``network``) or back online: say so; back from a dropped link, send
        what waits in the outbox."""
        self._draw_offline(reason)
        if reason == "network":
            self.notify(
                "The service cannot be reached: showing what was seen before, read-only. "
                f"Folio tries again every {PROBE_EVERY:.0f} s.",
                title="Offline",
                severity="warning",
                timeout=8,
            )
        elif reason is None and self._offline_was == "network":
            self.notify("The service answers again: back online.", title="Online", timeout=4)
            self.run_worker(self._send_outbox(), group="outbox-flush", exit_on_error=False)
        self._offline_was = reason

    def _draw_offline(self, reason: str | None) -> None:
        self.title = "Folio" if reason is None else "Folio [offline: read-only]"

    def first_screen_shown(self) -> None:
        """The organizations screen has its first answer (or its error): once it is drawn, what waited goes."""
        self.call_after_refresh(self._first_screen.set)

    async def _who_am_i(self) -> None:
        """Ask who is signed in, once the first screen is drawn (or after FIRST_SCREEN_WAIT s): it confirms which
        account's cache and drafts this is, and is not worth delaying the organization list for."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._first_screen.wait(), FIRST_SCREEN_WAIT)
        # The screens say what is wrong with the service; the local data waits for a good answer.
        try:
            await self.services.me()
        except Exception:
            return
        local = getattr(self.services, "local", None)
        for problem in local.problems if local is not None else []:
            self.notify(problem, title="Local data", severity="warning", timeout=10, markup=False)
        await self._send_outbox()  # what an earlier run queued goes out now

    async def _send_outbox(self) -> None:
        if getattr(self.services, "local", None) is None:
            return
        outbox = self.services.outbox
        if outbox is None or not outbox.waiting():
            return  # the usual case: nothing to send, and the outbox's screen code is not even imported
        from folio.tui.modals.outbox import flush_outbox

        await flush_outbox(self, self.services)

    def action_outbox(self) -> None:
        """``ctrl+o``: the writes made offline, waiting or stuck."""
        from folio.tui.modals.outbox import OutboxModal

        if getattr(self.services, "local", None) is None:
            self.notify("Nothing is kept on this machine in this run (--no-cache): there is no outbox.")
            return
        self.push_screen(OutboxModal(self.services))

    async def _probe_online(self) -> None:
        if self.services.client.offline_reason == "network":
            await self.services.client.probe_online()

    def _refresh_by_itself(self) -> None:
        """The interval of ``[refresh]`` came round: reload the screen in view (and, with ``background``, the
        ones under it), unless a dialog is open, Folio is offline, or the service's rate limit is spent."""
        if self._in_dialog() or not self.services.client.may_refresh():
            return
        screens = self.trail_screens if self.refresh_settings.background else [self.screen]
        for screen in screens:
            refresh = getattr(screen, "action_refresh", None)
            if callable(refresh):
                refresh()

    def action_refresh_all(self) -> None:
        """``R``: load again every screen of the trail (the one in view and those ``esc`` goes back to)."""
        for screen in self.trail_screens:
            refresh = getattr(screen, "action_refresh", None)
            if callable(refresh):
                refresh()
        self.notify("Loading every screen of the trail again.", timeout=2)

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header as breadcrumbs, ``Folio > Organizations``: a screen's ``sub_title`` is its trail,
        segments joined by :data:`CRUMB` (they may hold server strings, so each goes through ``safe``)."""
        parts: list[str | Content | tuple[str, str]] = [(title, "bold")]
        for segment in (s.strip() for s in sub_title.split(CRUMB)) if sub_title else ():
            if segment:
                parts += [(f" {CRUMB} ", "dim"), safe(segment, limit=60)]
        return Content.assemble(*parts)

    # -- loaded resources, for the palette's go-to and the command line ------------------------------------

    def remember(self, kind: str, key: str, title: str, open_screen: OpenScreen) -> None:
        """Keep a loaded resource (``kind``: organization, space, change-request, site) for the go-to; the
        latest remembered comes first."""
        self.loaded.pop((kind, key), None)
        self.loaded[(kind, key)] = (title, open_screen)

    def candidates(self, kind: str | None = None) -> list[Candidate]:
        """What is loaded (of ``kind``), latest first, titles made safe."""
        return [
            Candidate(k, key, safe(title, limit=120).plain)
            for (k, key), (title, _open) in reversed(self.loaded.items())
            if kind is None or k == kind
        ]

    def go_to(self, kind: str, key: str) -> None:
        """Jump to a remembered resource."""
        found = self.loaded.get((kind, key))
        if found is None:
            self.notify(f"That {kind.replace('-', ' ')} is no longer loaded.", severity="warning", markup=False)
            return
        self.jump(found[1])

    # -- the stack -----------------------------------------------------------------------------------------

    @property
    def trail_screens(self) -> list[Screen[Any]]:
        """The screens above the default one (the first is the screen Folio opened on)."""
        return list(self.screen_stack[1:])

    def _in_dialog(self) -> bool:
        return any(isinstance(s, ModalScreen) for s in self.screen_stack)

    def jump(self, open_screen: OpenScreen, *, keep: int = 1) -> None:
        """Open a screen as a jump: keep the first ``keep`` screens, replace the rest with the new one; ``-``
        returns to the screens as they were."""
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
        """Uninstall (and so let Textual free) the kept screens that ``-`` no longer needs and no stack holds."""
        for screen in list(self._kept):
            if screen in self.before_jump or screen in self._arriving:
                continue
            if any(screen in stack for stack in self._screen_stacks.values()):
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

    # -- global actions ------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # `q` and `:` belong to a dialog's text, or mean nothing there (the palette is asking for the screen
        # under it: what it lists runs once it has closed)
        top = self.screen
        return not (
            action in ("quit", "command_line") and isinstance(top, ModalScreen) and not isinstance(top, CommandPalette)
        )

    def action_interrupt(self) -> None:
        self._leave()

    async def action_quit(self) -> None:
        self._leave()

    def _leave(self) -> None:
        """A quit the user asked for: the next start opens on the organizations, not on this session."""
        state = self._local_state()
        if state is not None:
            state.clear_session()
        self.exit()

    # -- the session, and a terminal that hangs up ----------------------------------------------------------

    def _local_state(self) -> LocalState | None:
        local = getattr(self.services, "local", None)
        return getattr(local, "state", None)

    def save_session(self) -> None:
        """Keep the screen stack, tabs, rows and filters (``folio.tui.session``) for a start after a hang-up."""
        state = self._local_state()
        if state is None:
            return
        try:
            snapshot = session.snapshot(list(self.screen_stack))
        except Exception:  # a screen mid-change; the next save gets it
            log.debug("the session could not be read", exc_info=True)
            return
        if snapshot != self._saved_session:  # the timer comes round every 10 s: write only what changed
            state.save_session(snapshot)
            self._saved_session = snapshot

    def _restore_session(self) -> bool:
        state = self._local_state()
        data = state.session() if state is not None else None
        screens = session.rebuild(self.services, data) if data else []
        for screen in screens:
            self.push_screen(screen)
        return bool(screens)

    def _install_hang_up(self) -> None:
        try:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGHUP, signal.SIGTERM):
                loop.add_signal_handler(sig, self.hang_up, sig)
                self._signals.append(sig)
        except (NotImplementedError, RuntimeError, ValueError, AttributeError):
            log.info("no signal handlers here: drafts are still saved as they are typed")

    def on_unmount(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        for sig in self._signals:
            loop.remove_signal_handler(sig)
        self._signals.clear()

    def hang_up(self, sig: int = signal.SIGHUP) -> None:
        """The terminal went away (SIGHUP: the SSH session dropped) or Folio is told to stop (SIGTERM): keep
        every open draft and the session, then exit."""
        for screen in self.screen_stack:
            keep = getattr(screen, "save_draft", None)
            if callable(keep):
                keep()
            slot, text = getattr(screen, "slot", None), getattr(screen, "comment", None)
            if slot is not None and isinstance(text, str):
                slot.save(self, text)
        self.save_session()
        self.exit(return_code=128 + int(sig))

    def action_help(self) -> None:
        from folio.tui.modals.help import HelpModal

        if isinstance(self.screen, HelpModal):
            return
        title = getattr(self.screen, "crumb", "") or ""
        self.push_screen(HelpModal(key_entries(self.screen), title=safe(title, limit=60).plain))

    def action_command_line(self) -> None:
        from folio.tui.widgets.command_line import CommandLineScreen, CommandSuggester

        suggester = CommandSuggester(lambda verb: [c.title for c in self.candidates(KINDS.get(verb, "-"))])
        self.push_screen(CommandLineScreen(self.resolve_command, history=self.command_history, suggester=suggester))

    # -- the command line ----------------------------------------------------------------------------------

    def resolve_command(self, line: str) -> Callable[[], object] | str:
        """What a ``:`` line does (a callable to run once the line is closed), or why it does nothing."""
        try:
            command = parse(line)
        except CommandError as error:
            return str(error)
        if command.verb == "quit":
            return self.exit
        if command.verb == "cr":
            return self._resolve_change_request(command.number)
        kind = KINDS[command.verb]
        plural = PLURALS[kind]
        loaded = self.candidates(kind)
        asked = safe(command.argument, limit=60).plain
        if not loaded:
            return f"No {plural} loaded yet: open a list of {plural} first, then :{command.verb} finds them by title."
        choice = best(command.argument, loaded, kind=kind)
        if choice is not None:
            return lambda: self.go_to(choice.kind, choice.key)
        ranked = matches(command.argument, loaded, kind=kind)
        if not ranked:
            return f"No loaded {kind.replace('-', ' ')} matches “{asked}”."
        names = ", ".join(c.title for c in ranked[:3]) + (", …" if len(ranked) > 3 else "")
        return f"“{asked}” matches several {plural}: {names}. Type more of the title."

    def _resolve_change_request(self, number: int) -> Callable[[], object] | str:
        stack = self.trail_screens
        for index in range(len(stack) - 1, -1, -1):
            space_id = getattr(stack[index], "space_id", None)
            if isinstance(space_id, str) and space_id:
                return self._open_change_request(space_id, number, tuple(getattr(stack[index], "trail", ())), index)
        found = [c for c in self.candidates("change-request") if change_request_number(c) == number]
        if len(found) == 1:
            return lambda: self.go_to(found[0].kind, found[0].key)
        if found:
            return f"Several loaded change requests are #{number} (in different spaces): open the space first."
        return f"No loaded change request is #{number}, and no space is open: open a space first."

    def _open_change_request(
        self, space_id: str, number: int, trail: tuple[str, ...], index: int
    ) -> Callable[[], object]:
        """Open change request ``number`` of the space of the screen at ``index``, on top of that screen."""

        def build() -> Screen[Any]:
            from folio.tui.screens.change_request import ChangeRequestScreen  # lazily: a heavy screen

            return ChangeRequestScreen(self.services, space_id, number, trail=trail)

        return lambda: self.jump(build, keep=index + 1)
