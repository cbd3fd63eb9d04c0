"""What ``folio`` imports before its first frame (issue 15: the first frame waits for every import before it).

Each case runs ``folio`` in a subprocess, headless (120x40), with a hook on the app's output: at the first frame
that shows the organization list (the demo organization's title), it writes ``sys.modules`` and leaves. Two starts
are checked: ``folio --demo`` (the sandbox in the process) and ``folio --base-url`` against ``folio sandbox serve``
(a real account's path: no sandbox, no Starlette); each as a first start (a new FOLIO_HOME: the list waits for the
service) and as a second start (the FOLIO_HOME of a first start that confirmed its account: the list is painted from
the cache, and the first frame imports no HTTP stack, no pydantic, no model and no sandbox, ``SECOND_START``).

A module on a deny list, or a package that is neither on the allow-list of what is heavy and needed today (with
the reason) nor in the standard library, fails the test: import it when first used (in the function, or in a
worker after the first frame), or, when the first frame truly needs it, add it here with the reason.
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

HEAVY_ALLOWED: dict[str, str] = {
    "textual": "the UI",
    "rich": "Textual draws with it",
    "typing_extensions": "Textual, pydantic",
    "platformdirs": "where config, cache and state live (folio.config.paths)",
    "pydantic": "the organization list's model (folio.models.organization)",
    "pydantic_core": "pydantic",
    "annotated_types": "pydantic",
    "typing_inspection": "pydantic",
    "httpx": "the client reads the organization list (folio.api.client)",
    "idna": "httpx",
    "anyio": "httpx",
    "sniffio": "httpx (older anyio)",
    "httpcore": "--base-url: httpx's connection to the service",
    "h11": "--base-url: httpcore's HTTP/1.1",
    "certifi": "--base-url: httpx's TLS context is made with the client",
    "starlette": "--demo only: the in-process sandbox answers the first read",
}
"""Packages outside the standard library that the first frame imports today, and why."""

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
    "folio.tui.screens.organization": "the organization screen: when it opens",
    "folio.tui.screens.space": "a space's screen: when it opens",
    "folio.tui.screens.change_request": "a change request's screen: when it opens",
    "folio.models.space": "a space's models: when a space list or screen loads",
    "folio.models.change_request": "change requests' models: when they load",
    "folio.models.content": "pages' models: when a space opens",
    "folio.models.site": "sites' models: when they load",
    "folio.services.diff": "diffs: when a change request opens",
    "folio.services.structure": "the structure editor",
}
"""Modules (and their submodules) the first frame must not import: what they are for, and when they belong."""

SECOND_START_ALLOWED: dict[str, str] = {
    "textual": "the UI",
    "rich": "Textual draws with it",
    "typing_extensions": "Textual",
    "platformdirs": "where config, cache and state live (folio.config.paths)",
}
"""A second start paints the organization list from the cache (``folio.services.first_paint``, json only): its
first frame needs no package but these."""

SECOND_START_DENIED: dict[str, str] = {
    "httpx": "the client is built after the first frame (Services.client)",
    "pydantic": "the cached list is read with json; the models come with the fresh answer",
    "folio.api": "the client is built after the first frame",
    "folio.models": "the models come with the fresh answer, after the first frame",
    "starlette": "the demo's sandbox is built after the first frame",
    "folio.sandbox": "the demo's sandbox is built after the first frame",
    "folio.services.browse": "the browse service comes with the client (services.browse)",
    "folio.services.sweep": "[review] approve_requires is read only when config.toml has the table",
    "folio.cache.report": "folio cache info | clear only",
}

BASE_URL_DENIED: dict[str, str] = {
    "starlette": "--base-url talks to a real service: no sandbox in the process",
    "folio.sandbox": "--base-url talks to a real service: no sandbox in the process",
}

FIRST_SCREEN: dict[str, tuple[str, ...]] = {
    "folio.models": ("_base", "common", "organization", "search"),
    "folio.tui.screens": ("base", "organizations"),
    "folio.tui.widgets": ("footer", "line_api", "resource_browser", "resource_list", "resource_panel", "rows"),
    "folio.api.resources": ("_base", "organizations"),
}
"""Within these packages, only the first screen's modules (the organization list) are imported before its frame;
``folio.models.search`` is there because ``folio.api.resources.organizations`` imports its search hits' models when
the organization list is read."""


def _denied(modules: set[str], denied: dict[str, str]) -> list[str]:
    return sorted(
        f"{name} ({why})" for name, why in denied.items() if any(m == name or m.startswith(name + ".") for m in modules)
    )


def _beyond_first_screen(modules: set[str]) -> list[str]:
    out = []
    for package, allowed in FIRST_SCREEN.items():
        for module in modules:
            if module.startswith(package + "."):
                first = module[len(package) + 1 :].split(".")[0]
                if first not in allowed:
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


def _check(modules: set[str], httpx_cli: bool, denied: dict[str, str]) -> None:
    assert not httpx_cli, "httpx's command-line client (click, pygments) was imported before the first frame"
    assert _denied(modules, denied) == [], "imported before the first frame; import them when first used"
    assert _beyond_first_screen(modules) == [], "not the first screen's: import them when their screen opens"
    unknown = sorted(_third_party(modules) - set(HEAVY_ALLOWED))
    assert unknown == [], "new packages before the first frame: import them when first used, or say why here"


def test_demo_imports_only_what_its_first_frame_needs(demo_modules: tuple[set[str], bool]) -> None:
    modules, httpx_cli = demo_modules
    assert "folio.tui.screens.organizations" in modules  # the probe saw the right frame
    _check(modules, httpx_cli, DENIED)


def test_base_url_imports_no_sandbox_before_its_first_frame(base_url_modules: tuple[set[str], bool]) -> None:
    modules, httpx_cli = base_url_modules
    assert "folio.tui.screens.organizations" in modules
    _check(modules, httpx_cli, {**DENIED, **BASE_URL_DENIED})


@pytest.mark.parametrize("start", ["demo_second_modules", "base_url_second_modules"])
def test_a_second_start_paints_from_the_cache_before_the_http_stack(start: str, request: pytest.FixtureRequest) -> None:
    modules, httpx_cli = request.getfixturevalue(start)
    assert "folio.services.first_paint" in modules  # the list came from the cache, not from the service
    _check(modules, httpx_cli, {**DENIED, **BASE_URL_DENIED, **SECOND_START_DENIED})
    unknown = sorted(_third_party(modules) - set(SECOND_START_ALLOWED))
    assert unknown == [], "new packages before a second start's first frame: import them after it"


def test_the_second_start_allow_list_holds_only_what_its_first_frame_imports(
    demo_second_modules: tuple[set[str], bool], base_url_second_modules: tuple[set[str], bool]
) -> None:
    seen = _third_party(demo_second_modules[0]) | _third_party(base_url_second_modules[0])
    assert sorted(set(SECOND_START_ALLOWED) - seen) == [], "no longer imported: remove them from SECOND_START_ALLOWED"


def test_the_allow_list_holds_only_what_a_first_frame_imports(
    demo_modules: tuple[set[str], bool], base_url_modules: tuple[set[str], bool]
) -> None:
    """A package made lazy leaves the list, so it cannot come back unnoticed."""
    seen = _third_party(demo_modules[0]) | _third_party(base_url_modules[0])
    stale = sorted(set(HEAVY_ALLOWED) - seen - {"sniffio"})  # sniffio: only with anyio before 4.x
    assert stale == [], "no longer imported before the first frame: remove them from HEAVY_ALLOWED"


def test_the_checks_catch_what_they_are_for() -> None:
    """The lists catch a denied module, a second screen's model and an unknown package."""
    modules = {"folio.tui.modals.form", "folio.models.space", "folio.models.organization", "click", "numpy"}
    assert [d.split(" ")[0] for d in _denied(modules, DENIED)] == ["click", "folio.models.space", "folio.tui.modals"]
    assert _beyond_first_screen(modules) == ["folio.models.space"]
    assert _third_party(modules) == {"click", "numpy"}


def test_every_denied_folio_module_exists() -> None:
    """A renamed module would leave its line here guarding nothing."""
    import importlib.util

    names = [n for n in {**DENIED, **BASE_URL_DENIED} if n.startswith("folio.")]
    assert [n for n in names if importlib.util.find_spec(n) is None] == []
