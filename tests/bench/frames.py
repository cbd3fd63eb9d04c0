"""Key press to next frame, in a headless Textual app: the clock the list, tree and structure benchmarks share.

    clock = FrameClock(app)                    # wraps app._display; every frame is timestamped
    ms = await clock.press(pilot, "pagedown")  # from the key event reaching the app to the next frame
    clock.cpu[-1]                              # ms of this process's CPU in that time (what the key cost here)
    ms = await clock.after(t0)                 # from t0 to the next frame (mount time)
    clock.restore()

A frame counts when the screen hands the terminal its update, rendered to terminal codes as a real terminal would
be sent them. ``pilot.press`` itself costs tens of ms of wall time, so latency is taken from frame timestamps,
never from how long a Pilot call took. The key is sent to the driver the way a terminal's key would arrive.

On a shared machine the wall time of a key also holds the time other processes had the CPU, and the wait for
Textual's next screen update (it draws at most 60 times a second, on a fixed beat): the CPU time of the same span
says what the key cost this process, which is what a change to our code moves.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from textual import events
from textual.app import App
from textual.pilot import Pilot

__all__ = ["FrameClock", "NoFrame"]

SPECIAL_CHARACTERS = {"space": " ", "enter": "\r", "tab": "\t", "escape": "\x1b"}


class NoFrame(RuntimeError):
    """The app drew nothing after the key (the key changed nothing): a benchmark that measures the wrong thing."""


class FrameClock:
    def __init__(self, app: App[Any], *, timeout: float = 30.0) -> None:
        self.app = app
        self.timeout = timeout
        self.frames: list[float] = []
        self.cpu_frames: list[float] = []
        self.cpu: list[float] = []
        """CPU ms of this process from each :meth:`press` to its frame, in order."""
        self._display = app._display
        app._display = self._timed  # type: ignore[method-assign]

    def _timed(self, screen: Any, renderable: Any) -> None:
        if renderable is not None:
            renderable.render_segments(self.app.console)  # what a real terminal would be sent
            self.frames.append(time.perf_counter())
            self.cpu_frames.append(time.process_time())
        self._display(screen, renderable)

    def restore(self) -> None:
        self.app._display = self._display  # type: ignore[method-assign]

    async def after(self, t0: float, *, clear: bool = False) -> float:
        """ms from ``t0`` to the next frame (with ``clear``, frames already drawn do not count)."""
        if clear:
            self.frames.clear()
            self.cpu_frames.clear()
        while not self.frames:
            if time.perf_counter() - t0 > self.timeout:
                raise NoFrame(f"no frame within {self.timeout:.0f} s")
            await asyncio.sleep(0.0005)
        return (self.frames[0] - t0) * 1000

    async def press(self, pilot: Pilot[Any], key: str) -> float:
        """Send ``key`` once the app is idle; ms from the key event reaching the app to the next frame."""
        await pilot.pause()
        driver = self.app._driver
        assert driver is not None
        self.frames.clear()
        self.cpu_frames.clear()
        char = key if len(key) == 1 else SPECIAL_CHARACTERS.get(key)
        t0, cpu0 = time.perf_counter(), time.process_time()
        driver.send_message(events.Key(key, char))
        try:
            took = await self.after(t0)
        except NoFrame:
            raise NoFrame(f"no frame after the key {key!r} within {self.timeout:.0f} s") from None
        self.cpu.append((self.cpu_frames[0] - cpu0) * 1000)
        return took
