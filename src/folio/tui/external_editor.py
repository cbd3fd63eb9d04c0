"""Editing a text in the user's own editor: the terminal is handed to ``$EDITOR`` and back.

    text = edit_in_editor(app, before)
    text = edit_in_editor(app, page_markdown, line=12)   # opened at line 12 where the editor takes a line

A screen says the RuntimeError's words when the editor cannot run or fails (a change request's description, the
agent's instructions, a page's markdown). The line is given as ``+N`` to vi, vim, nvim, nano, emacs, micro and
kak, as ``file:N`` to Helix (``hx``); any other editor opens the file at its start.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from typing import Any

from textual.app import App

from folio.services.editor import editor_command, open_at_line

__all__ = ["edit_in_editor"]


def edit_in_editor(app: App[Any], text: str, *, line: int | None = None) -> str:
    """Hand the terminal to the user's editor (``folio.services.editor.editor_command``) on a temporary file
    holding ``text`` (at ``line`` where the editor takes one); the file's text when the editor quits. Raises
    RuntimeError (in words) when the editor cannot run or fails."""
    command = editor_command()
    with tempfile.NamedTemporaryFile("w", suffix=".md", prefix="folio-", delete=False, encoding="utf-8") as handle:
        handle.write(text)
    try:
        try:
            with app.suspend():
                status = subprocess.run(open_at_line(command, handle.name, line), check=False).returncode
        except FileNotFoundError:
            raise RuntimeError(f"The editor {command[0]!r} was not found; set EDITOR.") from None
        except Exception as exc:  # SuspendNotSupported and kin: the terminal cannot be handed over here
            raise RuntimeError(f"This terminal cannot be handed to an editor here ({type(exc).__name__}).") from None
        if status != 0:
            raise RuntimeError(f"The editor {command[0]!r} exited with status {status}.")
        return Path(handle.name).read_text(encoding="utf-8")
    finally:
        Path(handle.name).unlink(missing_ok=True)
