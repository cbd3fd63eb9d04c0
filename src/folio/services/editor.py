"""The user's own editor: which command it is, and a text edited in it on a temporary file.

    command = editor_command()      # $FOLIO_EDITOR, else $VISUAL, else $EDITOR, else vi, split as a shell would
    text = edit_text(before, name="getting-started")   # the terminal handed to it; the file's text when it quits

``folio edit`` runs it as it is; the TUI (``folio.tui.external_editor``) builds the same command and runs it while
the app is suspended. Both raise RuntimeError in words when the editor cannot run or fails. No Textual here.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

__all__ = ["FALLBACK", "EditorMissing", "edit_text", "editor_command", "open_at_line"]

FALLBACK = "vi"
"""The editor when none of ``$FOLIO_EDITOR``, ``$VISUAL`` and ``$EDITOR`` names one."""


PLUS_LINE = frozenset({"vi", "vim", "nvim", "nano", "emacs", "emacsclient", "micro", "kak"})
"""Editors that open a file at a line given as ``+N`` before the file."""
COLON_LINE = frozenset({"hx", "helix"})
"""Editors that open a file at a line given as ``file:N``."""


def open_at_line(command: list[str], path: str, line: int | None) -> list[str]:
    """The command that opens ``path`` in ``command``'s editor, at ``line`` (1-based) where the editor is known to
    take one; an unknown editor gets the file alone."""
    name = Path(command[0]).name if command else ""
    if line is None or line < 1:
        return [*command, path]
    if name in PLUS_LINE:
        return [*command, f"+{line}", path]
    if name in COLON_LINE:
        return [*command, f"{path}:{line}"]
    return [*command, path]


class EditorMissing(RuntimeError):
    """The editor cannot be run at all: not found, or its variable is not a command."""


def editor_command(environ: Mapping[str, str] | None = None) -> list[str]:
    """The editor's command as words: ``$FOLIO_EDITOR`` (for scripts: it wins over a shell's own), else
    ``$VISUAL``, else ``$EDITOR``, else vi, split as a shell would, so
    ``EDITOR="code --wait"`` works. Raises RuntimeError when the variable cannot be split (an open quote)."""
    env = os.environ if environ is None else environ
    name, value = next(
        ((n, env[n]) for n in ("FOLIO_EDITOR", "VISUAL", "EDITOR") if env.get(n, "").strip()), ("", FALLBACK)
    )
    try:
        words = shlex.split(value)
    except ValueError as exc:
        raise EditorMissing(f"${name} cannot be read as a command ({exc}): {value!r}.") from None
    return words or [FALLBACK]


def edit_text(
    text: str,
    *,
    name: str = "",
    run: Callable[[list[str]], int] | None = None,
    environ: Mapping[str, str] | None = None,
) -> str:
    """``text`` edited in the user's editor, on a temporary ``.md`` file (``name`` goes into the file's name, so the
    editor's title says which page it is); the file's text when the editor quits. ``run`` runs the command and
    gives its exit status (default: a plain subprocess on this terminal). Raises RuntimeError in words when the
    editor exits with an error, :class:`EditorMissing` (a RuntimeError) when it cannot be run."""
    command = editor_command(environ)
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")[:40]
    prefix = f"folio-{stem}-" if stem else "folio-"
    with tempfile.NamedTemporaryFile("w", suffix=".md", prefix=prefix, delete=False, encoding="utf-8") as handle:
        handle.write(text)
    try:
        try:
            status = (run or _run)([*command, handle.name])
        except FileNotFoundError:
            raise EditorMissing(f"The editor {command[0]!r} was not found; set EDITOR.") from None
        except OSError as exc:
            raise EditorMissing(f"The editor {command[0]!r} could not be run ({exc.strerror or exc}).") from None
        if status != 0:
            raise RuntimeError(f"The editor {command[0]!r} exited with status {status}.")
        try:
            return Path(handle.name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise RuntimeError("The edited file is not UTF-8 text: nothing was taken from it.") from None
    finally:
        Path(handle.name).unlink(missing_ok=True)


def _run(argv: list[str]) -> int:
    return subprocess.run(argv, check=False).returncode
