"""`folio sandbox serve` in a child process for the tests that need a real socket: :func:`served` starts it on
port 0 and yields its address, read from the line it prints first."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

ADDRESS = re.compile(r"^Serving on (http://127\.0\.0\.1:(\d+))$")


def read_address(proc: subprocess.Popen[str], timeout: float = 30.0) -> str:
    """The first stdout line, read in a thread so a silent child cannot hang the test."""
    assert proc.stdout is not None
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(proc.stdout.readline()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    reader.join(timeout)
    assert line, f"no address line within {timeout}s"
    match = ADDRESS.match(line[0].strip())
    if match is None:
        why = proc.stderr.read() if proc.poll() is not None and proc.stderr else ""
        raise AssertionError(f"unexpected first line: {line[0]!r}; stderr: {why[-2000:]}")
    assert int(match.group(2)) > 0
    return match.group(1)


@contextmanager
def served(*args: str) -> Iterator[str]:
    """`folio sandbox serve` on 127.0.0.1, port 0 (``args``: more options); its address while it runs."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "folio", "sandbox", "serve", "--host", "127.0.0.1", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        yield read_address(proc)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
