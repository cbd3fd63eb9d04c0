"""Editing a text in the user's own editor: the terminal is handed to ``$EDITOR`` and back.

    text = edit_in_editor(app, before)

A screen says the RuntimeError's words when the editor cannot run or fails (a change request's description, the
agent's instructions).
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from typing import Any

from textual.app import App

from folio.services.editor import editor_command

__all__ = ["edit_in_editor"]


def edit_in_editor(app: App[Any], text: str) -> str:
    """Hand the terminal to ``$EDITOR`` (else ``$VISUAL``, else vi) on a temporary file holding ``text``; the
    file's text when the editor quits. Raises RuntimeError (in words) when the editor cannot run or fails."""
    command = editor_command()
    with tempfile.NamedTemporaryFile("w", suffix=".md", prefix="folio-", delete=False, encoding="utf-8") as handle:
        handle.write(text)
    try:
        try:
            with app.suspend():
                status = subprocess.run([*command, handle.name], check=False).returncode
        except FileNotFoundError:
            raise RuntimeError(f"The editor {command[0]!r} was not found; set EDITOR.") from None
        except Exception as exc:  # SuspendNotSupported and kin: the terminal cannot be handed over here
            raise RuntimeError(f"This terminal cannot be handed to an editor here ({type(exc).__name__}).") from None
        if status != 0:
            raise RuntimeError(f"The editor {command[0]!r} exited with status {status}.")
        return Path(handle.name).read_text(encoding="utf-8")
    finally:
        Path(handle.name).unlink(missing_ok=True)
