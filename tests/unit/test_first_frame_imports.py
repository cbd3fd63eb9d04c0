"""What ``folio`` imports before its first frame (issue 15: the first frame waits for every import before it).

Each case runs ``folio`` in a subprocess, headless (120x40), with a hook on the app's output: at the first frame
that shows the organization list (the demo organization's title), it writes ``sys.modules`` and leaves. Two starts
are checked: ``folio --demo`` and ``folio --base-url`` against ``folio sandbox serve`` (a real account's path); each
as a first start (a new FOLIO_HOME: the list comes from the start's prefetch) and as a second start (the FOLIO_HOME
of a first start that confirmed its account: the list is painted from the cache). In all four the first frame
imports no HTTP stack, no pydantic, no model and no sandbox.

A module on the deny list, or a package that is neither on the allow-list (with the reason) nor in the standard
library, fails the test: import it when first used (in the function, or in a worker after the first frame), or,
when the first frame truly needs it, add it here with the reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sandbox import serving

MARKER = "Northwind Labs"
"""The demo organization's title: on screen only once the organization list is drawn."""

PROBE = r"""
import json, os, sys
out, marker, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
import textual.app as textual_app

run_async = textual_app.App.run_async

async def headless(self, **kw):
    return await run_async(self, headless=True, size=(120, 40))

textual_app.App.run_async = headless
display = textual_app.App._display

def frame(self, screen, renderable):
    display(self, screen, renderable)
    if renderable is not None and marker in renderable.render_segments(self.console):
        httpx_main = sys.modules.get("httpx._main")
        with open(out, "w") as f:
            json.dump({"modules": sorted(sys.modules),
                       "httpx_cli_loaded": getattr(httpx_main, "__file__", None) is not None}, f)
        os._exit(0)

textual_app.App._display = frame
from folio.cli import main
main(argv)
os._exit(3)
"""

PRIME = r"""
import sys
argv = sys.argv[1:]
import textual.app as textual_app

run_async = textual_app.App.run_async

async def headless(self, **kw):
    return await run_async(self, headless=True, size=(120, 40))

textual_app.App.run_async = headless
from folio.tui.app.connectivity import Connectivity

who_am_i = Connectivity._who_am_i

async def then_leave(self):
    await who_am_i(self)  # the account is confirmed and its cache written: what a second start opens
    self.exit()

Connectivity._who_am_i = then_leave
from folio.cli import main
sys.exit(main(argv))
"""

# -- what may be there ----------------------------------------------------------------------------------------

ALLOWED: dict[str, str] = {
    "textual": "the UI",
    "rich": "Textual draws with it",
    "typing_extensions": "Textual",
    "platformdirs": "where config, cache and state live (folio.config.paths)",
}
"""Packages outside the standard library that a first frame imports, and why. Every start paints the organization
list with ``json`` only (``folio.services.first_paint``): a second start from the cache, a first start from the
prefetch (over ``http.client`` for a service, from a child process's sandbox for the demo)."""

DENIED: dict[str, str] = {
    "uvicorn": "a server: only `folio sandbox serve`",
    "click": "httpx's command-line client (folio.cli puts a stand-in for httpx._main)",
    "pygments": "httpx's command-line client, or highlighting: when a screen shows code",
    "markdown_it": "Textual's Markdown widget: when a screen shows a document",
    "textual.widgets._markdown": "a document's screen",
    "textual.widgets._data_table": "the product lists use ResourceList (line API)",
    "textual.widgets._text_area": "forms and editors: when one opens",
    "tree_sitter": "TextArea's highlighting",
    "folio.tui.modals": "a modal: when it opens",
    "folio.tui.screens.content.organization": "the organization screen: when it opens",
    "folio.tui.screens.content.space": "a space's screen: when it opens",
    "folio.tui.screens.review.change_request": "a change request's screen: when it opens",
    "folio.services.review.diff": "diffs: when a change request opens",
    "folio.services.sites.structure": "the structure editor",
    "httpx": "the client is built after the first frame (Services.client)",
    "pydantic": "the list is read with json; the models come with the client's answer",
    "folio.api": "the client is built after the first frame",
    "folio.models": "the models come with the client's answer, after the first frame",
    "starlette": "the demo's sandbox is built after the first frame (its first answer comes from a child process)",
    "folio.sandbox": "the demo's sandbox is built after the first frame; --base-url has none",
    "folio.services.browse": "the browse service comes with the client (services.browse)",
    "folio.services.review.sweep": "[review] approve_requires is read only when config.toml has the table",
    "folio.cache.report": "folio cache info | clear only",
}
"""Modules (and their submodules) the first frame must not import: what they are for, and when they belong."""

FIRST_SCREEN: dict[str, tuple[str, ...]] = {
    "folio.tui.screens": ("base", "content", "content.organizations", "panel_screen"),
    "folio.tui.widgets": (
        "footer",
        "header",
        "line_api",
        "resource_browser",
        "resource_list",
        "resource_panel",
        "rows",
    ),
}
"""Within these packages, only the first screen's modules (the organization list and its base, PanelScreen) are
imported before its frame."""


def _denied(modules: set[str], denied: dict[str, str]) -> list[str]:
    return sorted(
        f"{name} ({why})" for name, why in denied.items() if any(m == name or m.startswith(name + ".") for m in modules)
    )


def _beyond_first_screen(modules: set[str]) -> list[str]:
    out = []
    for package, allowed in FIRST_SCREEN.items():
        for module in modules:
            if module.startswith(package + ".") and module[len(package) + 1 :] not in allowed:
                out.append(module)
    return sorted(out)


def _third_party(modules: set[str]) -> set[str]:
    tops = {m.split(".")[0] for m in modules}
    return {t for t in tops if t not in sys.stdlib_module_names and not t.startswith("_") and t != "folio"}


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "FOLIO_"))}
    env["FOLIO_HOME"] = str(tmp_path / "home")
    return env


def _prime(tmp_path: Path, *argv: str) -> None:
    """A first start in ``tmp_path``'s FOLIO_HOME that leaves once who-am-I confirmed the account."""
    done = subprocess.run(
        [sys.executable, "-c", PRIME, *argv],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"the first start did not end well: {done.stderr[-2000:]}"
    assert list((tmp_path / "home").rglob("responses-*.sqlite3")), "the first start kept no cache"


def _probe(tmp_path: Path, *argv: str) -> tuple[set[str], bool]:
    out = tmp_path / "modules.json"
    env = _env(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(out), MARKER, *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and out.exists(), f"no first frame with {MARKER!r}: {done.stderr[-2000:]}"
    found = json.loads(out.read_text())
    modules = set(found["modules"])
    if "httpx" not in modules:
        modules.discard("httpx._main")  # alone, it is folio.cli's stand-in for httpx's command line, not httpx
    return modules, bool(found["httpx_cli_loaded"])


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    with serving.served() as url:
        yield url


@pytest.fixture(scope="module")
def demo_modules() -> tuple[set[str], bool]:
    with tempfile.TemporaryDirectory() as tmp:
        return _probe(Path(tmp), "--demo")


@pytest.fixture(scope="module")
def base_url_modules(served: str) -> tuple[set[str], bool]:
    with tempfile.TemporaryDirectory() as tmp:
        return _probe(Path(tmp), "--base-url", served, "--token", "x")


@pytest.fixture(scope="module")
def demo_second_modules() -> tuple[set[str], bool]:
    with tempfile.TemporaryDirectory() as tmp:
        _prime(Path(tmp), "--demo")
        return _probe(Path(tmp), "--demo")


@pytest.fixture(scope="module")
def base_url_second_modules(served: str) -> tuple[set[str], bool]:
    with tempfile.TemporaryDirectory() as tmp:
        _prime(Path(tmp), "--base-url", served, "--token", "x")
        return _probe(Path(tmp), "--base-url", served, "--token", "x")


def _check(modules: set[str], httpx_cli: bool) -> None:
    assert "folio.tui.screens.content.organizations" in modules  # the probe saw the right frame
    assert "folio.services.first_paint" in modules  # painted with json, not through the client
    assert not httpx_cli, "httpx's command-line client (click, pygments) was imported before the first frame"
    assert _denied(modules, DENIED) == [], "imported before the first frame; import them when first used"
    assert _beyond_first_screen(modules) == [], "not the first screen's: import them when their screen opens"
    unknown = sorted(_third_party(modules) - set(ALLOWED))
    assert unknown == [], "new packages before the first frame: import them when first used, or say why here"


STARTS = ["demo_modules", "base_url_modules", "demo_second_modules", "base_url_second_modules"]


@pytest.mark.parametrize("start", STARTS)
def test_a_start_paints_its_first_frame_before_the_http_stack(start: str, request: pytest.FixtureRequest) -> None:
    modules, httpx_cli = request.getfixturevalue(start)
    _check(modules, httpx_cli)


def test_the_allow_list_holds_only_what_a_first_frame_imports(request: pytest.FixtureRequest) -> None:
    """A package made lazy leaves the list, so it cannot come back unnoticed."""
    seen = set().union(*(_third_party(request.getfixturevalue(start)[0]) for start in STARTS))
    assert sorted(set(ALLOWED) - seen) == [], "no longer imported before the first frame: remove them from ALLOWED"
