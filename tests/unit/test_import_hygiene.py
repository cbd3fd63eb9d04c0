"""The layers below the TUI never load Textual, and ``folio --help`` loads neither Textual nor httpx.

Each check runs in a fresh interpreter, so modules other tests imported do not hide a regression.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def _modules_after(code: str) -> set[str]:
    probe = code + "\nimport json as _j, sys as _s\nprint(_j.dumps(sorted(_s.modules)))\n"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    return set(json.loads(result.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "module", ["folio.api", "folio.services", "folio.models", "folio.config", "folio.sandbox", "folio.cli"]
)
def test_lower_layers_do_not_load_textual(module: str) -> None:
    loaded = _modules_after(f"import {module}")
    assert module in loaded
    assert "textual" not in loaded


def test_the_services_and_api_together_do_not_load_textual() -> None:
    loaded = _modules_after(
        "import folio.api, folio.services, folio.models, folio.config, folio.sandbox\n"
        "from folio.services.browse import BrowseService\n"
        "import folio.models.organization"
    )
    assert "folio.services.browse" in loaded
    assert "textual" not in loaded


def test_help_loads_neither_textual_nor_httpx() -> None:
    loaded = _modules_after(
        "import contextlib, io\n"
        "from folio.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    try:\n"
        "        main(['--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "assert 'folio' in out.getvalue()\n"
    )
    assert "folio.cli" in loaded
    for heavy in ("textual", "httpx", "pydantic", "folio.sandbox", "uvicorn", "starlette"):
        assert heavy not in loaded, f"`folio --help` imported {heavy}"


def test_folio_help_runs_as_a_program() -> None:
    result = subprocess.run([sys.executable, "-m", "folio", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "--demo" in result.stdout and "auth" in result.stdout and "sandbox" in result.stdout


def test_the_command_imports_httpx_without_its_command_line_client() -> None:
    """httpx imports its own CLI (click, pygments lexers, rich.syntax) when click is installed; `folio` keeps it out
    of its start-up, and the stand-in still leads to the real client if anything calls it."""
    loaded = _modules_after(
        "from folio.cli import _skip_httpx_cli\n"
        "_skip_httpx_cli()\n"
        "import httpx\n"
        "assert callable(httpx.main)\n"
        "from folio.sandbox import create_app\n"
        "import folio.api, folio.services\n"
    )
    assert "httpx" in loaded and "folio.sandbox" in loaded
    for heavy in ("click", "pygments.lexers", "rich.syntax", "rich.progress"):
        assert heavy not in loaded, f"importing httpx through folio loaded {heavy}"


def test_without_the_stand_in_httpx_would_load_click() -> None:
    """The premise of the test above: if httpx stops importing its CLI, the stand-in can go."""
    loaded = _modules_after("import httpx")
    assert "click" in loaded
