"""Taking a secret out of the process's visible command line (``ps``, ``/proc/<pid>/cmdline``).

``folio --token X`` puts the token where every user of the machine can read it for the whole session. On Linux
the command line ``ps`` shows is the process's own argument memory, whose bounds the kernel gives in
``/proc/self/stat`` (``arg_start``, ``arg_end``, fields 48 and 49, since Linux 3.5). :func:`hide_argument` checks
that this memory holds exactly what ``/proc/self/cmdline`` shows, and writes ``*`` over each argument that is the
secret (or its ``--option=`` value), in place: the length stays, nothing else moves. Anything it cannot be sure
of (another system, an older kernel, memory that differs) makes it return False and touch nothing, and the
caller refuses the option instead. Only the standard library (``ctypes``) is used.
"""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path

__all__ = ["hide_argument"]

_ARG_START_FIELD = 48
"""``arg_start`` in ``/proc/<pid>/stat`` (fields counted from 1, as proc(5) does); ``arg_end`` follows it."""


def _argument_memory() -> tuple[int, bytes] | None:
    """Where the command line lives in this process, and what it holds; None when that cannot be known."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        stat = Path("/proc/self/stat").read_bytes()
        shown = Path("/proc/self/cmdline").read_bytes()
    except OSError:
        return None
    # The second field is the command's name in parentheses and may hold spaces: count from the last ")".
    fields = stat[stat.rfind(b")") + 2 :].split()  # from field 3 on
    index = _ARG_START_FIELD - 3
    try:
        start, end = int(fields[index]), int(fields[index + 1])
    except (IndexError, ValueError):
        return None
    if start <= 0 or end <= start or end - start != len(shown):
        return None
    held = ctypes.string_at(start, end - start)
    if held != shown:  # rewritten before (a process title), or not what we think: leave it
        return None
    return start, held


def hide_argument(secret: str) -> bool:
    """Write ``*`` over every command-line argument that is ``secret`` or ends in ``=secret`` (after an option),
    in this process's visible command line and in ``sys.argv``. True when ``ps`` can no longer show it (or it was
    never there); False when the command line could not be rewritten (nothing was changed)."""
    value = secret.encode()
    if not value:
        return True
    found = _argument_memory()
    if found is None:
        return False
    start, held = found
    offset = 0
    for word in held.split(b"\0"):
        if _holds(word, value):
            ctypes.memset(start + offset + len(word) - len(value), ord("*"), len(value))
        offset += len(word) + 1
    if any(_holds(word, value) for word in Path("/proc/self/cmdline").read_bytes().split(b"\0")):
        return False
    sys.argv[:] = [_masked(word, secret) for word in sys.argv]
    return True


def _holds(word: bytes, value: bytes) -> bool:
    """The argument is the secret, or an option's ``=`` value that is (``--token=SECRET``)."""
    return word == value or (word.startswith(b"-") and word.endswith(b"=" + value))


def _masked(word: str, secret: str) -> str:
    if _holds(word.encode(), secret.encode()):
        return word[: len(word) - len(secret)] + "*" * len(secret)
    return word
