"""``folio completion bash|zsh|fish`` and ``folio __complete``: the scripts are made from the parser (a new
subcommand is completed without more code), bash completes subcommands, flags, choices, files, profiles and the
organizations and spaces ``folio ls`` kept in the cache (a real completion run: the script sourced, its function
called with ``COMP_WORDS`` set, ``folio`` on the PATH); zsh and fish are checked the same way where installed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import folio
from folio import cli, cli_completion
from folio.sandbox import SandboxState, SandboxTransport
from tests.conftest import SANDBOX_URL, TOKEN

BASH = shutil.which("bash")
ZSH = shutil.which("zsh")
FISH = shutil.which("fish")

TOP = ["auth", "cache", "conversations", "ls", "completion", "edit", "open", "show", "watch", "sandbox"]
"""The visible subcommands in the parser's order (a new one is added here on purpose)."""


@pytest.fixture
def cached(app: Any, state: SandboxState, isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> SandboxState:
    """A profile ``work`` on the sandbox (its token in config.toml, organization unset) and a second profile, with
    the organizations and every organization's spaces read once by ``folio ls`` (so kept in the account's cache)."""
    config = isolated_home / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(
        f'default_profile = "work"\n[profiles.work]\nbase_url = "{SANDBOX_URL}"\ntoken = "{TOKEN}"\n'
        '[profiles.home]\nbase_url = "https://api.gitbook.com"\n'
    )
    config.chmod(0o600)
    monkeypatch.setattr(cli, "transport_factory", lambda base_url: SandboxTransport(app))
    assert cli.main(["ls", "orgs"]) == 0
    for org in state.orgs:
        assert cli.main(["ls", "spaces", "--org", org]) == 0
    monkeypatch.setattr(cli, "transport_factory", _no_network)
    return state


def _no_network(base_url: str) -> Any:
    raise AssertionError("completion must not reach the network")


def complete(kind: str, prefix: str, *words: str) -> list[tuple[str, str]]:
    return list(cli_completion.candidates(kind, prefix, list(words)))


def values(kind: str, prefix: str, *words: str) -> list[str]:
    return [value for value, _ in complete(kind, prefix, *words)]


def spaces_of(state: SandboxState, org: str) -> list[dict[str, Any]]:
    return [s for s in state.spaces.values() if s["organization"] == org and not s.get("deletedAt")]


# -- the parser, as the scripts see it ---------------------------------------------------------------------------


def test_every_subcommand_and_flag_of_the_parser_is_in_the_tree() -> None:
    nodes = {n.path: n for n in cli_completion.tree(cli.build_parser())}
    assert set(nodes[""].commands) == set(TOP)
    assert "__complete" not in nodes[""].commands  # hidden
    assert {"auth login", "auth status", "cache clear", "sandbox serve", "conversations ingest"} <= set(nodes)
    ls = nodes["ls"]
    assert ls.positionals == ["=orgs spaces crs members sites specs", "@scope"]
    by_flag = {name: o.value for o in ls.options for name in o.names}
    assert by_flag["--org"] == "@org" and by_flag["--profile"] == "@profile" and by_flag["--fresh"] == ""
    assert by_flag["--format"] == "=table tsv json" and by_flag["--status"] == "=draft open archived merged all"
    assert nodes["conversations ingest"].positionals == ["file"]
    assert nodes["completion"].positionals == ["=bash zsh fish"]


def test_help_lists_the_new_commands_and_not_the_hidden_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert "    ls " in out and "    completion " in out and "__complete" not in out


def test_a_new_subcommand_is_completed_without_more_code(tmp_path: Path) -> None:
    parser = cli.build_parser()
    commands = next(a for a in parser._actions if a.dest == "command")
    added = commands.add_parser("frobnicate", help="a command added later")  # type: ignore[attr-defined]
    added.add_argument("--colour", choices=("red", "blue"))
    added.add_argument("--org", metavar="ORG")
    for shell in cli_completion.SHELLS:
        text = cli_completion.script(shell, parser)
        assert "frobnicate" in text and "--colour" in text and "red blue" in text
    if BASH:
        script = tmp_path / "folio.bash"
        script.write_text(cli_completion.script("bash", parser))
        assert "frobnicate" in bash(script, tmp_path, "folio", "fr")
        assert bash(script, tmp_path, "folio", "frobnicate", "--colour", "") == ["red", "blue"]


# -- folio __complete --------------------------------------------------------------------------------------------


def test_profiles_come_from_config_toml(cached: SandboxState) -> None:
    assert complete("profile", "") == [("home", "https://api.gitbook.com"), ("work", SANDBOX_URL)]
    assert values("profile", "W") == ["work"]  # (case aside)


def test_organizations_by_id_and_by_title_from_the_cache(cached: SandboxState) -> None:
    orgs = {o["id"]: o["title"] for o in cached.orgs.values()}
    found = complete("org", "")
    assert set(found) == set(orgs.items()) | {(title, org) for org, title in orgs.items()}
    title = orgs[cached.demo_org]
    assert complete("org", title[:3].lower()) == [(title, cached.demo_org)]


def test_ls_scope_is_an_organization_but_a_space_for_crs(cached: SandboxState) -> None:
    assert set(values("scope", "", "ls", "spaces")) == set(values("org", ""))
    every = [s for org in cached.orgs for s in spaces_of(cached, org)]
    assert set(values("scope", "", "ls", "--format", "tsv", "crs")) == {s["id"] for s in every} | {
        s["title"] for s in every
    }
    other = next(org for org in cached.orgs if org != cached.demo_org)
    named = {s["title"] for s in spaces_of(cached, other)}
    assert set(values("space", "", "ls", "crs", "--org", other)) == named | {s["id"] for s in spaces_of(cached, other)}
    title = cached.orgs[other]["title"]
    assert set(values("scope", "", "ls", "--org", title, "crs")) == set(values("space", "", "--org", other))


def test_nothing_is_known_without_a_token_an_account_or_a_kind(
    cached: SandboxState, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert values("org", "", "--profile", "home") == []  # no token: no account, no cache
    assert values("org", "", "--demo") == []  # the demo keeps nothing
    assert values("colour", "") == []
    monkeypatch.setenv("GITBOOK_TOKEN", "a-token-never-seen-here")
    assert values("org", "") == []


def test_the_hidden_command_prints_lines_and_never_fails(
    cached: SandboxState, capsys: pytest.CaptureFixture[str], isolated_home: Path
) -> None:
    title = cached.orgs[cached.demo_org]["title"]
    assert cli.main(["__complete", "org", title[:4], "--", "ls", "--org"]) == 0
    assert capsys.readouterr().out == f"{title}\t{cached.demo_org}\n"
    (isolated_home / "config" / "config.toml").write_text("not [ toml")
    assert cli.main(["__complete", "org", ""]) == 0
    assert capsys.readouterr() == ("", "")


# -- the shells -------------------------------------------------------------------------------------------------


def _shim(folder: Path) -> Path:
    """A ``folio`` on the PATH that runs this checkout with this interpreter."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "folio"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m folio "$@"\n')
    shim.chmod(0o755)
    return bin_dir


def _env(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{_shim(folder)}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(Path(folio.__file__).resolve().parents[1])
    env.pop("GITBOOK_TOKEN", None)
    return env


BASH_RUN = """source "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=()
_folio
printf '%s\\n' "${COMPREPLY[@]}"
"""


def bash(script: Path, folder: Path, *words: str) -> list[str]:
    """What bash's completion function offers for ``words`` (the last one being typed)."""
    assert BASH is not None
    result = subprocess.run(
        [BASH, "--norc", "--noprofile", "-c", BASH_RUN, "bash", str(script), *words],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env(folder),
        check=True,
    )
    assert result.stderr == ""
    return [line for line in result.stdout.splitlines() if line]


@pytest.fixture
def bash_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    if BASH is None:
        pytest.skip("bash is not installed")
    capsys.readouterr()
    assert cli.main(["completion", "bash"]) == 0
    script = tmp_path / "folio.bash"
    script.write_text(capsys.readouterr().out)
    check = subprocess.run([BASH, "-n", str(script)], capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stderr
    return script


def test_bash_completes_commands_flags_choices_and_files(bash_script: Path, tmp_path: Path) -> None:
    assert bash(bash_script, tmp_path, "folio", "") == TOP
    assert bash(bash_script, tmp_path, "folio", "c") == ["cache", "conversations", "completion"]
    assert bash(bash_script, tmp_path, "folio", "auth", "") == ["login", "status", "logout"]
    assert bash(bash_script, tmp_path, "folio", "ls", "") == ["orgs", "spaces", "crs", "members", "sites", "specs"]
    assert bash(bash_script, tmp_path, "folio", "ls", "crs", "--a") == ["--awaiting-me"]
    assert bash(bash_script, tmp_path, "folio", "ls", "crs", "--status", "") == [
        "draft",
        "open",
        "archived",
        "merged",
        "all",
    ]
    assert bash(bash_script, tmp_path, "folio", "--demo", "ls", "--format", "t") == ["table", "tsv"]
    assert bash(bash_script, tmp_path, "folio", "--de") == ["--demo", "--debug"]
    assert bash(bash_script, tmp_path, "folio", "completion", "") == ["bash", "zsh", "fish"]
    (tmp_path / "talks.json").write_text("[]")
    assert bash(bash_script, tmp_path, "folio", "conversations", "ingest", str(tmp_path / "tal")) == [
        str(tmp_path / "talks.json")
    ]
    assert bash(bash_script, tmp_path, "folio", "--base-url", "") == []  # (anything: nothing to propose)


def test_bash_completes_profiles_organizations_and_spaces(
    cached: SandboxState, bash_script: Path, tmp_path: Path
) -> None:
    assert bash(bash_script, tmp_path, "folio", "--profile", "") == ["home", "work"]
    title = cached.orgs[cached.demo_org]["title"]
    quoted = title.replace(" ", "\\ ")  # a title of several words is one word on the command line
    assert bash(bash_script, tmp_path, "folio", "ls", "spaces", "--org", title[:3]) == [quoted]
    assert bash(bash_script, tmp_path, "folio", "ls", "members", cached.demo_org[:6]) == [cached.demo_org]
    space = spaces_of(cached, cached.demo_org)[0]
    offered = bash(bash_script, tmp_path, "folio", "ls", "crs", "--org", cached.demo_org, space["title"][:4])
    assert space["title"].replace(" ", "\\ ") in offered
    assert all(not s.startswith("--") for s in offered)


def test_zsh_completes_the_same(cached: SandboxState, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if ZSH is None:
        pytest.skip("zsh is not installed")
    capsys.readouterr()
    assert cli.main(["completion", "zsh"]) == 0
    script = tmp_path / "_folio"
    script.write_text(capsys.readouterr().out)
    check = subprocess.run([ZSH, "-n", str(script)], capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stderr
    # compadd and _files work only inside a completion widget: stand-ins print what would be offered
    run = """source "$1"; shift
compadd() { local -a found; while (( $# )); do case $1 in -a) found+=("${(@P)2}"); shift 2;; -d) shift 2;; -l) shift;;
  *) found+=("$1"); shift;; esac; done; print -rl -- $found }
_files() { print -r -- FILES }
words=("$@"); CURRENT=${#words}; _folio
"""

    def offered(*words: str) -> list[str]:
        result = subprocess.run(
            [ZSH, "-f", "-c", run, "zsh", str(script), *words],
            capture_output=True,
            text=True,
            timeout=60,
            env=_env(tmp_path),
            check=True,
        )
        assert result.stderr == ""
        return result.stdout.splitlines()

    assert offered("folio", "") == TOP
    assert offered("folio", "ls", "crs", "--status", "") == ["draft", "open", "archived", "merged", "all"]
    assert offered("folio", "conversations", "ingest", "") == ["FILES"]
    assert offered("folio", "--profile", "") == ["home", "work"]
    title = cached.orgs[cached.demo_org]["title"]
    assert offered("folio", "ls", "sites", title[:3]) == [title]


def test_fish_completes_the_same(cached: SandboxState, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if FISH is None:
        pytest.skip("fish is not installed")
    capsys.readouterr()
    assert cli.main(["completion", "fish"]) == 0
    script = tmp_path / "folio.fish"
    script.write_text(capsys.readouterr().out)
    check = subprocess.run([FISH, "--no-execute", str(script)], capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stderr

    def offered(line: str) -> list[str]:
        result = subprocess.run(
            [FISH, "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", str(script), line],
            capture_output=True,
            text=True,
            timeout=60,
            env=_env(tmp_path),
            check=True,
        )
        assert result.stderr == ""
        return [row.split("\t")[0] for row in result.stdout.splitlines()]

    assert offered("folio ") == sorted(TOP)
    assert offered("folio auth ") == ["login", "logout", "status"]
    assert offered("folio ls crs --status ") == sorted(["draft", "open", "archived", "merged", "all"])
    assert offered("folio --profile ") == ["home", "work"]
    title = cached.orgs[cached.demo_org]["title"]
    assert offered(f"folio ls sites {title[:3]}") == [title]
