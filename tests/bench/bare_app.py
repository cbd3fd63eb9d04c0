"""The floor of start-up: a one-widget Textual app, run on a pseudo-terminal by ``bench_startup``.

    python tests/bench/bare_app.py

Its first frame shows :data:`MARKER`; the benchmark times process start to the first output holding it.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

MARKER = "Bare Textual app: first frame"


class BareApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Static(MARKER)


if __name__ == "__main__":
    BareApp().run()
