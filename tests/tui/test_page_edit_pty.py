"""A page edited in $EDITOR in a real terminal: ``folio --demo`` on a pseudo-terminal (80x24,
``TERM=xterm-256color``), ``EDITOR`` a script that appends a line and records that it ran. The keys go to the
space, ``E`` hands the terminal to the editor, and the app must take it back: the send dialog is drawn, ctrl+s
sends, and the outcome is said on the screen. Skipped only where there is no pseudo-terminal."""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pty = pytest.importorskip("pty")
fcntl = pytest.importorskip("fcntl")
termios = pytest.importorskip("termios")

import struct  # noqa: E402  (after the skips: a platform without a pseudo-terminal stops above)

SRC = Path(__file__).resolve().parents[2] / "src"
TIMEOUT = 30.0
ESCAPES = re.compile(rb"\x1b(\[[0-9;?$>]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][A-Z0-9]|[=>78])")
EDITOR = """\
import sys
from pathlib import Path

path = Path(sys.argv[-1])
path.write_text(path.read_text(encoding="utf-8") + "\\nA line from the PTY editor.\\n", encoding="utf-8")
with open(sys.argv[0] + ".ran", "a", encoding="utf-8") as log:
    log.write(str(path) + "\\n")
"""


class Terminal:
    """A process on a pseudo-terminal: keys in, the screen's text (escape sequences stripped) out."""

    def __init__(self, argv: list[str], env: dict[str, str], size: tuple[int, int] = (80, 24)) -> None:
        try:
            self.master, slave = os.openpty()
        except OSError as exc:  # no pseudo-terminals here (a container without /dev/pts)
            pytest.skip(f"no pseudo-terminal: {exc}")
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, close_fds=True
        )
        os.close(slave)
        self.output = bytearray()

    @property
    def text(self) -> str:
        return ESCAPES.sub(b"", bytes(self.output)).decode("utf-8", errors="replace")

    def read_until(self, marker: str, *, since: int = 0) -> int:
        """Read until ``marker`` shows in the text after position ``since``; where the text ended."""
        started = time.monotonic()
        while time.monotonic() - started < TIMEOUT:
            if marker in self.text[since:]:
                return len(self.text)
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 1 << 16)
                except OSError:  # EIO: the process closed the terminal
                    break
                if not chunk:
                    break
                self.output += chunk
            elif self.proc.poll() is not None:
                break
        tail = self.text[-1500:]
        raise AssertionError(f"{marker!r} never appeared within {TIMEOUT:.0f} s; the screen ended with: {tail}")

    def settle(self, quiet: float = 0.5) -> None:
        """Read until nothing new comes for ``quiet`` seconds."""
        while True:
            ready, _, _ = select.select([self.master], [], [], quiet)
            if not ready:
                return
            try:
                chunk = os.read(self.master, 1 << 16)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk

    def press(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        os.close(self.master)


def test_E_hands_the_terminal_to_the_editor_and_takes_it_back(tmp_path: Path) -> None:
    script = tmp_path / "editor.py"
    script.write_text(EDITOR, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "FOLIO_"))}
    env.pop("VISUAL", None)
    env.update(
        TERM="xterm-256color",
        FOLIO_HOME=str(tmp_path / "home"),
        PYTHONPATH=str(SRC),
        EDITOR=f"{sys.executable} {script}",
    )
    term = Terminal([sys.executable, "-m", "folio", "--demo"], env)
    try:
        term.read_until("Northwind Labs")  # the organizations
        term.settle()
        at = len(term.text)
        term.press("\r")
        term.read_until("Getting Started", since=at)  # the demo organization's spaces
        term.settle()
        term.press(":")
        term.settle(0.3)
        term.press("space getting started\r")
        term.read_until("Welcome to Northwind")  # the space, its first page shown
        term.settle()
        term.press("E")
        at = term.read_until("Send it into a change request")  # the app took the terminal back: the dialog
        assert (tmp_path / "editor.py.ran").read_text().strip().endswith(".md")
        term.settle()
        term.press("\x13")  # ctrl+s
        term.read_until("Made change request", since=at)
        assert term.proc.poll() is None  # still running
    finally:
        term.close()
