"""The user's editor (``folio.services.editor``): the command from $VISUAL, else $EDITOR, else vi, split as a shell
would; a text edited on a temporary file that is gone afterwards; an editor missing or failing said in words."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from folio.services.editor import EditorMissing, edit_text, editor_command


@pytest.mark.parametrize(
    ("environ", "command"),
    [
        ({"EDITOR": "nano", "VISUAL": "code --wait"}, ["code", "--wait"]),
        ({"EDITOR": "nano", "VISUAL": " "}, ["nano"]),
        ({"EDITOR": "nano", "VISUAL": "code --wait", "FOLIO_EDITOR": "true"}, ["true"]),
        ({"VISUAL": "code --wait"}, ["code", "--wait"]),
        ({"EDITOR": "  ", "VISUAL": "emacs -nw"}, ["emacs", "-nw"]),
        ({"EDITOR": "'/opt/my editor/bin/ed' -s"}, ["/opt/my editor/bin/ed", "-s"]),
        ({}, ["vi"]),
    ],
)
def test_the_command_is_editor_else_visual_else_vi(environ: dict[str, str], command: list[str]) -> None:
    assert editor_command(environ) == command


def test_a_command_that_cannot_be_split_says_which_variable() -> None:
    with pytest.raises(EditorMissing, match=r"\$EDITOR cannot be read as a command"):
        editor_command({"EDITOR": "vim '-c"})


def test_the_text_is_edited_on_a_temporary_file_that_is_then_removed() -> None:
    seen: list[list[str]] = []

    def run(argv: list[str]) -> int:
        seen.append(argv)
        path = Path(argv[-1])
        assert path.read_text(encoding="utf-8") == "# Install\n"
        path.write_text("# Install\n\nNew.\n", encoding="utf-8")
        return 0

    assert (
        edit_text("# Install\n", name="guides/install", run=run, environ={"EDITOR": "ed -s"}) == "# Install\n\nNew.\n"
    )
    (argv,) = seen
    assert argv[:2] == ["ed", "-s"]
    assert Path(argv[-1]).name.startswith("folio-guides-install-") and argv[-1].endswith(".md")
    assert not Path(argv[-1]).exists()


def test_a_real_editor_process_edits_the_file(tmp_path: Path) -> None:
    script = tmp_path / "upper.py"
    script.write_text("import sys, pathlib\np = pathlib.Path(sys.argv[-1])\np.write_text(p.read_text().upper())\n")
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    assert edit_text("hello\n", environ={"EDITOR": command}) == "HELLO\n"


def test_an_editor_that_fails_or_is_missing_says_so() -> None:
    with pytest.raises(RuntimeError, match="The editor 'ed' exited with status 3") as failed:
        edit_text("x", run=lambda argv: 3, environ={"EDITOR": "ed"})
    assert not isinstance(failed.value, EditorMissing)
    with pytest.raises(EditorMissing, match="The editor 'no-such-editor-7f3a' was not found; set EDITOR"):
        edit_text("x", environ={"EDITOR": "no-such-editor-7f3a"})


def test_a_file_left_not_utf8_is_refused_in_words() -> None:
    def run(argv: list[str]) -> int:
        Path(argv[-1]).write_bytes(b"\xff\xfe bad")
        return 0

    with pytest.raises(RuntimeError, match="not UTF-8 text"):
        edit_text("x", run=run, environ={"EDITOR": "ed"})
