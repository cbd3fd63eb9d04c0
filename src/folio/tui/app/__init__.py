"""The Textual application: the theme and global keys, the header's breadcrumbs, the first screen, and the
ways to move between screens.

    esc         back one screen (FolioScreen.action_back)
    ctrl+p      the command palette: this screen's actions, and a go-to of everything loaded so far
    :           the command line: :org / :space / :site <title>, :cr <number>, :q
    -           return to where you were before the last jump (a go-to or a : command), and again to come back
    ?           every key of this screen, with the binding ids the config's [keymap] remaps
    /           filter the list shown, also while its first page loads (the list has no focus then)
    R           load every screen of the trail again (r, on a screen, loads that screen)
    ctrl+o      the outbox: writes made offline, sent in order when Folio is back online
    q, ctrl+c   quit, without a question (a `q` or `esc` in a burst of keys is not taken: see BURST_GAP)

The app is made of parts, one job each: ``connectivity`` (offline, probe, refreshing by itself, outbox),
``navigation`` (``Open`` messages, go-to, jumps and ``-``), ``command_line`` (``:``), ``keeping`` (the session
and the hang-up). Every kind of screen is a route (``folio.tui.routes``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.content import Content
from textual.screen import ModalScreen, Screen

from folio.config.settings import RefreshSettings
from folio.tui import collector, styles_dir
from folio.tui.actions import why_unavailable
from folio.tui.app.accounts import Accounts, Choosing
from folio.tui.app.keeping import SESSION_EVERY
from folio.tui.commands import FolioCommands, key_entries
from folio.tui.context import Context
from folio.tui.errors import watch_workers
from folio.tui.safe import safe
from folio.tui.screens.content.organizations import OrganizationsScreen
from folio.tui.textual_private import dom_bindings
from folio.tui.widgets.header import Crumbs

if TYPE_CHECKING:
    from folio.services import Services

__all__ = ["CRUMB", "FolioApp"]

CRUMB = "\u203a"
"""Joins the segments of a breadcrumb trail in a screen's ``sub_title``."""

BURST_GAP = 0.030
"""Seconds: a key this soon after the one before is part of a burst (pasted, sent by a script, or typed ahead
while a screen loads; the driver reads them in one go), faster than a person types. A `q` (quit) or an `esc`
(back) in a burst is not taken as leaving: the screen or the filter the burst was typed at may not be ready yet."""

TYPING_STARTS = frozenset({"slash", "colon"})
"""Keys after which the rest of a burst is text: `/` starts a list's filter, `:` the command line. The app sees
the whole burst before the screen has started either, so it remembers that one came."""

LEAVING = {"quit": "quit", "back": "go back"}
"""The actions a key in a burst does not run, and how the notice names them."""


class FolioApp(Choosing):
    """Folio's TUI. Takes its services ready-made (``folio.cli`` wires them) and opens on the organizations.

    ``keymap`` (binding id -> keys, from the config's ``[keymap]``) remaps any binding that has an id.
    ``inbox_watch``: the seconds between looks at the inbox while Folio is open (``folio.tui.app.watching``;
    None, as in tests: no looks).
    ``start`` (for tests and jumps) builds the first screen instead of the organizations.
    """

    TITLE = "Folio"
    CSS_PATH = [styles_dir() / "app.tcss", styles_dir() / "organizations.tcss"]
    """The first screen's stylesheet is read with the app's: pushed later, it would parse every source again."""
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
            "slash",
            "filter_list",
            "Filter",
            show=False,
            priority=True,  # before the keys typed after it are handed on: they must find the filter started
            id="app.filter",
            tooltip="Filter the list shown, also while it loads (what you type after / goes into the filter)",
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
            priority=True,  # before the focused widget: the keys typed right after `:` are the line's (a burst)
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
        accounts: Accounts | None = None,
        theme_name: str = "dark",
        link: str | None = None,
        inbox_watch: float | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.context = Context(self)
        watch_workers(self)  # a worker that fails with a bug of ours says so (folio.tui.errors)
        self.accounts = accounts
        """Who launched Folio: builds another profile's services, keeps the theme (None in tests)."""
        self.start_theme(theme_name)
        self.restore = restore
        """Reopen the screens of the last session when it did not end with a quit (the CLI sets it)."""
        self.link = link
        """A GitBook link to open over the organizations once the first frame is drawn (``folio open URL``):
        the last session is then not reopened."""
        self._signals = []
        self._offline_was = None
        self._saved_session = None
        self.refresh_settings = refresh or RefreshSettings(interval=0)
        self.inbox_watch = inbox_watch
        self.services = services
        self.organization = organization
        self.start = start
        self.loaded = {}
        """(kind, key) -> what was loaded: what the palette's go-to and the command line reach."""
        self.command_history = []
        self.before_jump = []
        """The screens above the first one before the last jump (``-`` puts them back); they stay installed."""
        self._kept = set()
        self._first_screen = asyncio.Event()
        """Set once the first screen has shown what it loaded: requests that can wait, wait for it."""
        self._frame_drawn = False
        self._after_frame: list[Callable[[], object]] = []
        self._arriving = []
        """The screens a stack change under way is about to push: never let go of those."""
        self.sub_title = services.where
        self._key_at: float | None = None
        """When the last key came (its event's time): what tells a burst (:data:`BURST_GAP`)."""
        self._burst_types = False
        """A key of :data:`TYPING_STARTS` came in the burst under way: its printable keys are text."""
        if keymap:
            self.set_keymap(dict(keymap))

    def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, lambda screen: self.call_later(self._release_kept))
        self.screen_change_signal.subscribe(self, lambda screen: self.call_later(self.save_session))
        self.set_interval(SESSION_EVERY, self.save_session)
        self._install_hang_up()
        self.start_connectivity()
        # After Textual's start batch (mount runs inside it, and it holds every frame back): the first screen's
        # first frame is then drawn as soon as it is laid out, not drawn, dropped and drawn again.
        self.call_later(self._open_first_screen)

    def _open_first_screen(self) -> None:
        self.after_first_frame(partial(collector.start_drawn, self))  # (the collector, held for the start: on again)
        self.after_first_frame(self.start_inbox_watch)  # (its first look waits for the first screen's list)
        if self.start is not None:
            self._first_screen.set()
            self.push_screen(self.start())
        else:
            self.push_screen(OrganizationsScreen(self.services, initial=self.organization))
            # The last session's screens come back after the first frame (what they show imports the models and
            # the HTTP client); until then nothing overwrites it.
            if self.link:
                self.after_first_frame(partial(self.open_link, self.link))
            elif self.restore and self._read_session():
                self.after_first_frame(self._restore_session)

    @property
    def first_frame_drawn(self) -> bool:
        """Whether the first screen's first frame is on the terminal (:meth:`after_first_frame` calls at once)."""
        return self._frame_drawn

    def after_first_frame(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` once the first frame is on the terminal (now, if it is): what the first frame does not
        need (the HTTP client, the models, the footer's keys, the session's screens) starts then, not before it.
        The first screen asks while it mounts, so the refresh after the ask draws it. ``callback`` runs in the
        app's context: a widget passes ``partial(self.call_later, ...)`` to run in its own."""
        if self._frame_drawn:
            callback()
            return
        self._after_frame.append(callback)
        if len(self._after_frame) == 1:
            self.call_after_refresh(self._first_frame_drawn)

    def _first_frame_drawn(self) -> None:
        self._frame_drawn = True
        waiting, self._after_frame = self._after_frame, []
        for callback in waiting:
            callback()

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header as breadcrumbs, ``Folio > Organizations``: a screen's ``sub_title`` is its trail,
        segments joined by :data:`CRUMB` (they may hold server strings, so each goes through ``safe``). Drawn
        narrower than it is, the trail loses crumbs at its start, never the last (``folio.tui.widgets.header``)."""
        segments = [safe(s, limit=60) for s in (part.strip() for part in sub_title.split(CRUMB)) if s]
        return Crumbs(title, segments)

    # -- global actions ------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # `q` and `:` belong to a dialog's text, or mean nothing there (the palette is asking for the screen
        # under it: what it lists runs once it has closed)
        top = self.screen
        if action in ("quit", "command_line") and isinstance(top, ModalScreen) and not isinstance(top, CommandPalette):
            return False
        if action == "command_line" and self._typing_text():
            return False  # `:` is a character of what is being typed
        if action == "filter_list":  # only for a list nobody has the focus of (a list has its own `/`)
            focused = self.screen.focused
            return (focused is None or focused.loading) and not self._shadowed(action)
        # One key, one meaning per screen: a key the screen (or a widget in it) binds is never the app's, even
        # while the screen's action is greyed out (it says why instead).
        return not self._shadowed(action)

    def _typing_text(self) -> bool:
        """Text is being typed: a text field has the focus, or a list's filter takes the keys typed after `/`."""
        # (by name: importing TextArea before the first frame costs its start-up)
        texts = {"Input", "TextArea"}
        focused = self.focused
        if focused is not None and any(cls.__name__ in texts for cls in type(focused).__mro__):
            return True
        # the keys typed go to the focused widget: a filter takes them when it is the list of a browser typing
        return focused is not None and any(node.has_class("-typing") for node in focused.ancestors_with_self)

    def _shadowed(self, action: str) -> bool:
        """Whether a key of the app's ``action`` is bound by the screen or a widget from it to the focus. (The
        nodes' own bindings are read, not the screen's binding chain, which copies every map: this runs for each
        of the app's keys each time the footer or a key asks which keys are active.)"""
        keys = [
            key
            for key, bindings in dom_bindings(self).key_to_bindings.items()
            if any(b.action == action for b in bindings)
        ]
        screen = self.screen
        focused = screen.focused
        nodes = focused.ancestors_with_self if focused is not None and not focused.loading else [screen]
        for node in nodes:
            if node is self:
                continue
            key_to_bindings = dom_bindings(node).key_to_bindings
            if any(b.id for key in keys for b in key_to_bindings.get(key, ())):
                return True
        return False

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded and self._left_in_burst(event):
            return
        await super().on_event(event)

    def _left_in_burst(self, event: events.Key) -> bool:
        """A key that would quit or go back but came in a burst (:data:`BURST_GAP`) is not taken (True): it says
        so instead. A key a text field or a list's filter takes as typed goes on as usual."""
        before, self._key_at = self._key_at, event.time
        if before is None or event.time - before >= BURST_GAP:
            self._burst_types = event.key in TYPING_STARTS
            return False
        if event.is_printable and (self._burst_types or self._typing_text()):
            return False  # a character of what is being typed (after a `/` of the same burst: the filter it starts)
        self._burst_types = self._burst_types or event.key in TYPING_STARTS
        focused = self.focused
        if focused is not None and any(
            node.has_class("resource-browser--filter") for node in focused.ancestors_with_self
        ):
            return False  # the filter box takes esc (it clears the filter)
        active = self.screen.active_bindings.get(event.key)
        if active is None or not active.enabled or active.binding.action not in LEAVING:
            return False
        key = self.get_key_display(active.binding)
        self.notify(
            f"{key} came in a burst of keys, faster than typed by hand: not taken as {LEAVING[active.binding.action]}"
            f" (press {key} again for that).",
            timeout=5,
            markup=False,
        )
        return True

    def action_filter_list(self) -> None:
        """``/`` that no list took (its list has no focus yet: its first page is loading, or the focus is
        elsewhere): the filter of the list shown starts, and the keys typed after it go into it."""
        from folio.tui.widgets.resource_browser import ResourceBrowser  # (not needed before the first frame)

        for browser in self.screen.query(ResourceBrowser):
            if all(node.display for node in browser.ancestors_with_self if node is not self.screen):
                browser.action_start_filter()  # (the first list shown: a tab hidden is not displayed)
                return

    def on_key(self, event: events.Key) -> None:
        """A key whose binding is greyed out here says why (``folio.tui.actions``), instead of doing nothing."""
        reason = why_unavailable(self.screen, event.key)
        if reason:
            self.notify(reason, timeout=4, markup=False)

    def action_interrupt(self) -> None:
        self._leave()

    async def action_quit(self) -> None:
        self._leave()

    def _leave(self) -> None:
        """A quit the user asked for: the next start opens on the organizations, not on this session."""
        self._clear_session()
        self.exit()

    def action_help(self) -> None:
        from folio.tui.modals.help import HelpModal

        if isinstance(self.screen, HelpModal):
            return
        title = getattr(self.screen, "crumb", "") or ""
        self.push_screen(HelpModal(key_entries(self.screen), title=safe(title, limit=60).plain))
