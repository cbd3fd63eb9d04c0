"""The app's part that keeps the session: the screens open (with tab, row and filter) saved as the user moves,
rebuilt after a hang-up; and the hang-up itself (SIGHUP, SIGTERM), which keeps every open draft first."""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import TYPE_CHECKING, Any

from folio.tui import session
from folio.tui.app.command_line import CommandLine

if TYPE_CHECKING:
    from folio.cache import LocalState

__all__ = ["SESSION_EVERY", "Keeping"]

log = logging.getLogger("folio.tui.app")

SESSION_EVERY = 10.0
"""Seconds between saves of the session (screen changes save it at once)."""


class Keeping(CommandLine):
    """The session and the hang-up (a part of :class:`FolioApp`)."""

    _signals: list[int]
    _saved_session: dict[str, Any] | None
    _session_to_restore: dict[str, Any] | None = None

    def _local_state(self) -> LocalState | None:
        local = self.services.local
        return local.state if local is not None else None

    def save_session(self) -> None:
        """Keep the screen stack, tabs, rows and filters (``folio.tui.session``) for a start after a hang-up."""
        state = self._local_state()
        if state is None or self._session_to_restore is not None:
            return  # the last session's screens are not back yet: the stack shown now is not the session
        try:
            snapshot = session.snapshot(list(self.screen_stack))
        except Exception:  # a screen mid-change; the next save gets it
            log.debug("the session could not be read", exc_info=True)
            return
        if snapshot != self._saved_session:  # the timer comes round every 10 s: write only what changed
            state.save_session(snapshot)
            self._saved_session = snapshot

    def _read_session(self) -> bool:
        """Read the last session, to reopen it with :meth:`_restore_session`; until then it is not overwritten.
        True when there is one."""
        state = self._local_state()
        data = state.session() if state is not None else None
        self._session_to_restore = data or None
        return bool(data)

    def _restore_session(self) -> bool:
        """Reopen the screens of the session read by :meth:`_read_session` (True when some came back)."""
        data, self._session_to_restore = self._session_to_restore, None
        screens = session.rebuild(self.services, data, self.screen_for) if data else []  # (kept for a reopen)
        for screen in screens:
            self.push_screen(screen)
        return bool(screens)

    def _clear_session(self) -> None:
        state = self._local_state()
        if state is not None:
            state.clear_session()

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
        self.save_session()
        self.exit(return_code=128 + int(sig))
