"""The app's part that watches the inbox while Folio is open: the poll of ``folio watch``
(:class:`folio.services.review.inbox_watch.InboxWatch`), in a worker of the app started once the first screen has
shown what it loaded, each announcement a toast and a terminal notification (OSC 9 / 99 / 777 where the terminal
shows them, else the bell). What is announced is remembered in the account's local state, shared with ``folio
watch``: what one said, the other does not say again.

    app = FolioApp(services, inbox_watch=60.0)   # folio.cli_tui passes [inbox] interval (None: watch = false)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from typing import TYPE_CHECKING

from folio.tui.context import ContextApp
from folio.tui.textual_private import write_to_terminal

if TYPE_CHECKING:
    from folio.services import Services

__all__ = ["FIRST_SCREEN_WAIT", "Watching"]

log = logging.getLogger(__name__)

FIRST_SCREEN_WAIT = 5.0
FIRST_LOOK_AFTER = 2.0
"""Seconds between the first screen showing its list and the watch's first look (never more than the interval):
the first look builds the client (the demo's sandbox), which the first frames do not wait for."""
"""Seconds the first look waits for the first screen's list before it goes anyway."""


class Watching(ContextApp):
    """Starts the inbox watch (a part of :class:`FolioApp`)."""

    services: Services
    inbox_watch: float | None
    _first_screen: asyncio.Event

    def start_inbox_watch(self) -> None:
        """Watch the inbox of ``self.services`` every ``inbox_watch`` seconds (nothing when it is None); called
        after the first frame, and again when ``:profile`` changed the services (the old watch is let go)."""
        if self.inbox_watch:
            self.run_worker(
                self._watch_inbox(self.services, self.inbox_watch),
                group="inbox-watch",
                exclusive=True,
                exit_on_error=False,
                description="watch the inbox",
            )

    async def _watch_inbox(self, services: Services, interval: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._first_screen.wait(), FIRST_SCREEN_WAIT)
        await asyncio.sleep(min(FIRST_LOOK_AFTER, interval))
        # (imported once the first screen has shown what it loaded: nothing of the watch is on its path)
        from folio.services.review.inbox_watch import InboxWatch, Problem

        async for event in InboxWatch(services, interval=interval).run():
            if services is not self.services:
                return  # another profile's now (its own watch is started with it)
            if isinstance(event, Problem):
                log.info("inbox watch: %s", event.words)  # the screens say what is wrong with the service
                continue
            self.notify(event.words, title="Inbox", timeout=10, markup=False)
            self._tell_terminal(event.words)

    def _tell_terminal(self, words: str) -> None:
        from folio.services.review.inbox_watch import terminal_notification

        sequence = terminal_notification("Folio", words, os.environ)
        if sequence == "\a":
            self.bell()
        else:
            write_to_terminal(self, sequence)
