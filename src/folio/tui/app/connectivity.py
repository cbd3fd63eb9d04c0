"""The app's part that watches the link to the service: offline and back, the probe, refreshing by itself, the
who-am-I that confirms the account, and the outbox sent when the link returns. Everything it knows of the link
it asks ``services.connection``."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from folio.config.settings import RefreshSettings
from folio.services import errors as service_errors
from folio.tui.context import ContextApp
from folio.tui.screens.base import FolioScreen

if TYPE_CHECKING:
    from textual.screen import Screen

    from folio.services import Services

__all__ = ["FIRST_SCREEN_WAIT", "PROBE_EVERY", "Connectivity"]

FIRST_SCREEN_WAIT = 2.0
"""Seconds the who-am-I request waits for the first screen's list before it goes anyway."""
PROBE_EVERY = 15.0
"""Seconds between checks that the service answers again, while offline because the network was down."""


class Connectivity(ContextApp):
    """Offline state in the header, the probe, ``[refresh]``, ``R``, ``ctrl+o`` (a part of :class:`FolioApp`)."""

    services: Services
    refresh_settings: RefreshSettings
    _offline_was: str | None
    _first_screen: asyncio.Event

    @property
    def trail_screens(self) -> list[Screen[Any]]:
        """The screens above the default one (the first is the screen Folio opened on)."""
        return list(self.screen_stack[1:])

    def _in_dialog(self) -> bool:
        from textual.screen import ModalScreen

        return any(isinstance(s, ModalScreen) for s in self.screen_stack)

    def start_connectivity(self) -> None:
        """Watch the link of ``self.services`` (again after ``:profile`` changed them)."""
        connection = self.services.connection
        connection.subscribe(self._offline_changed)
        self._offline_was = connection.offline_reason
        self._draw_offline(connection.offline_reason)
        self.run_worker(self._who_am_i(), group="who-am-i", exit_on_error=False)
        if getattr(self, "_timers_started", False):
            return
        self._timers_started = True
        self.set_interval(PROBE_EVERY, self._probe_online)
        if self.refresh_settings.interval:
            self.set_interval(self.refresh_settings.interval, self._refresh_by_itself)

    def _offline_changed(self, reason: str | None) -> None:
        """Folio went offline (``asked``, ``network``) or back online: say so; back from a dropped link, send
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
        profile = getattr(self, "profile", None)
        name = f"Folio · {profile}" if profile else "Folio"
        self.title = name if reason is None else f"{name} [offline: read-only]"

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
        except service_errors.ServiceError:
            return
        local = self.services.local
        for problem in local.problems if local is not None else []:
            self.notify(problem, title="Local data", severity="warning", timeout=10, markup=False)
        await self._send_outbox()  # what an earlier run queued goes out now

    async def _send_outbox(self) -> None:
        if self.services.local is None:
            return
        outbox = self.services.outbox
        if outbox is None or not outbox.waiting():
            return  # the usual case: nothing to send, and the outbox's screen code is not even imported
        from folio.tui.modals.outbox import flush_outbox

        await flush_outbox(self, self.services)

    def action_outbox(self) -> None:
        """``ctrl+o``: the writes made offline, waiting or stuck."""
        from folio.tui.modals.outbox import OutboxModal

        if self.services.local is None:
            self.notify("Nothing is kept on this machine in this run (--no-cache): there is no outbox.")
            return
        self.push_screen(OutboxModal(self.services))

    async def _probe_online(self) -> None:
        if self.services.connection.offline_reason == "network":
            await self.services.connection.probe()

    def _refresh_by_itself(self) -> None:
        """The interval of ``[refresh]`` came round: reload the screen in view (and, with ``background``, the
        ones under it), unless a dialog is open, Folio is offline, or the service's rate limit is spent."""
        if self._in_dialog() or not self.services.connection.may_refresh():
            return
        screens = self.trail_screens if self.refresh_settings.background else [self.screen]
        for screen in screens:
            if isinstance(screen, FolioScreen):
                screen.action_refresh()

    def action_refresh_all(self) -> None:
        """``R``: load again every screen of the trail (the one in view and those ``esc`` goes back to)."""
        for screen in self.trail_screens:
            if isinstance(screen, FolioScreen):
                screen.action_refresh()
        self.notify("Loading every screen of the trail again.", timeout=2)
