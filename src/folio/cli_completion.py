"""``folio completion bash|zsh|fish``: a shell completion script made from Folio's own argument parser, and the
hidden ``folio __complete KIND PREFIX -- WORDS...`` the script calls for what only this machine knows.

    eval "$(folio completion bash)"                       # in ~/.bashrc
    eval "$(folio completion zsh)"                        # in ~/.zshrc, after compinit
    folio completion fish > ~/.config/fish/completions/folio.fish

The script is generated from :func:`folio.cli.build_parser` when it is asked for, so a new subcommand, flag or
choice is completed without touching this module: subcommands at every level, each level's flags, the choices an
argument has (``--format``, ``ls WHAT``), files where a file is asked for. What is not in the parser is asked of
``folio __complete`` as the user types: the profiles of config.toml (``--profile``), and, from the local cache of
the profile's account (never the network), the organizations (``--org``, ``ls spaces SCOPE``) and the spaces
(``ls crs SCOPE``: of ``--org``, else of the profile's organization, else of every organization cached), by id
and by title; it prints one ``value<TAB>description`` line per candidate and nothing when it knows nothing.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import quote, urlencode

if TYPE_CHECKING:
    from folio.cache import ResponseCache

__all__ = ["SHELLS", "add_parser", "candidates", "run", "script", "tree"]

SHELLS = ("bash", "zsh", "fish")
HIDDEN = "__complete"
KINDS = ("profile", "org", "space", "scope")
"""What ``folio __complete`` knows: profile names, organizations, spaces, and ``ls``'s SCOPE (spaces for crs,
organizations otherwise)."""
SPACES_KEY = "GET /orgs/{}/spaces"
SPACES_LIMIT = 1000
"""The spaces list's page size that the organization screen and ``folio ls`` read (its cache keys hold it)."""
MOST_PAGES = 50


# -- arguments -----------------------------------------------------------------------------------------


def add_parser(commands: Any, common: Callable[..., None]) -> None:
    """Add ``completion SHELL`` and the hidden ``__complete`` to the top-level subcommands."""
    completion = commands.add_parser(
        "completion",
        help="print a shell completion script: bash, zsh or fish",
        description="Print the completion script of SHELL: subcommands, flags, choices, profiles, and (from the "
        "local cache, without the network) the names and ids of your organizations and spaces.",
        epilog='bash: eval "$(folio completion bash)" in ~/.bashrc\n'
        'zsh:  eval "$(folio completion zsh)" in ~/.zshrc (after compinit)\n'
        "fish: folio completion fish > ~/.config/fish/completions/folio.fish",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    completion.add_argument("shell", choices=SHELLS, metavar="SHELL", help="bash, zsh or fish")
    hidden = commands.add_parser(HIDDEN, add_help=False)  # (no help=: not listed by --help)
    hidden.add_argument("words", nargs=argparse.REMAINDER)


def run(args: argparse.Namespace) -> int:
    """``folio completion SHELL`` (the script) or ``folio __complete ...`` (the candidates): the exit code."""
    if args.command == HIDDEN:
        words = list(args.words)
        kind, prefix = [*words, "", ""][:2]
        context = words[2:]
        if context[:1] == ["--"]:
            context = context[1:]
        try:
            for value, description in candidates(kind, prefix, context):
                sys.stdout.write(f"{value}\t{description}\n" if description else f"{value}\n")
        except Exception:  # completing must never print a traceback into the user's command line
            return 0
        return 0
    from folio.cli import build_parser

    sys.stdout.write(script(args.shell, build_parser()))
    return 0


# -- the parser, as data -------------------------------------------------------------------------------


class Option(NamedTuple):
    names: tuple[str, ...]
    value: str
    """What follows it: "" (a flag), ``=a b c`` (one of these), ``@kind`` (asked of ``folio __complete``),
    ``file``, or ``*`` (anything: nothing is proposed)."""
    help: str


class Node(NamedTuple):
    """One level of the command line (``""``, ``"auth"``, ``"auth login"``): its subcommands (name -> help), its
    options, and what each positional argument takes (as :attr:`Option.value`)."""

    path: str
    commands: dict[str, str]
    options: list[Option]
    positionals: list[str]


def _value(action: argparse.Action) -> str:
    if action.nargs == 0:
        return ""
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        return "=" + " ".join(str(c) for c in action.choices)
    if action.dest in ("profile", "org", "scope"):
        return "@" + action.dest
    metavar = str(action.metavar or "")
    if action.dest == "file" or metavar.startswith("FILE"):
        return "file"
    return "*"


def _help(text: str | None) -> str:
    return " ".join((text or "").split()).replace("%%", "%") if text != argparse.SUPPRESS else ""


def tree(parser: argparse.ArgumentParser) -> list[Node]:
    """Every level of ``parser``'s command line, the top first (hidden commands, ``__…``, left out)."""
    nodes: list[Node] = []

    def visit(level: argparse.ArgumentParser, path: str) -> None:
        node = Node(path, {}, [], [])
        nodes.append(node)
        for action in level._actions:
            if isinstance(action, argparse._SubParsersAction):
                helps = {choice.dest: _help(choice.help) for choice in action._choices_actions}
                for name, sub in action.choices.items():
                    if not name.startswith("__"):
                        node.commands[name] = helps.get(name, "")
                        visit(sub, f"{path} {name}".strip())
            elif action.option_strings:
                if action.help != argparse.SUPPRESS:
                    node.options.append(Option(tuple(action.option_strings), _value(action), _help(action.help)))
            else:
                node.positionals.append(_value(action))

    visit(parser, "")
    return nodes


# -- the scripts ---------------------------------------------------------------------------------------


def script(shell: str, parser: argparse.ArgumentParser) -> str:
    """The completion script of ``shell`` for ``parser``'s command line."""
    nodes = tree(parser)
    if shell == "fish":
        return _fish(nodes)
    helpers = _sh_helpers(nodes)
    return (BASH if shell == "bash" else ZSH).replace("@HELPERS@", helpers)


def _q(text: str) -> str:
    return shlex.quote(text)


def _sh_helpers(nodes: list[Node]) -> str:
    """The functions bash and zsh share (``case`` tables, the same syntax in both): the subcommands of a level,
    its options, what follows an option, what the n-th positional takes."""
    out = ["_folio_commands() {", '    case "$1" in']
    out += [
        f"        {_q(n.path)}) printf '%s\\n' {' '.join(_q(c) for c in n.commands)} ;;" for n in nodes if n.commands
    ]
    out += ["    esac", "}", "_folio_options() {", '    case "$1" in']
    for n in nodes:
        names = " ".join(_q(name) for o in n.options for name in o.names)
        out.append(f"        {_q(n.path)}) printf '%s\\n' {names} ;;")
    out += ["    esac", "}", "_folio_option_value() {", '    case "$1|$2" in']
    for n in nodes:
        for o in n.options:
            if o.value:
                labels = "|".join(_q(f"{n.path}|{name}") for name in o.names)
                out.append(f"        {labels}) printf '%s\\n' {_q(o.value)} ;;")
    out += ["    esac", "}", "_folio_positional() {", '    case "$1|$2" in']
    for n in nodes:
        for i, value in enumerate(n.positionals):
            out.append(f"        {_q(f'{n.path}|{i}')}) printf '%s\\n' {_q(value)} ;;")
    out += ["    esac", "}"]
    return "\n".join(out)


BASH = r"""# bash completion for folio, generated by `folio completion bash` from folio's own arguments.
# Use it with:  eval "$(folio completion bash)"   (in ~/.bashrc)
@HELPERS@
_folio_reply() {
    local cur=$1 IFS=$'\n'
    shift
    COMPREPLY=($(compgen -W "$*" -- "$cur"))
}
_folio_values() {  # $1: what the word takes (=words, @kind, file, *), $2: the word so far
    case "$1" in
        [=]*) _folio_reply "$2" ${1#=} ;;
        @*)
            local IFS=$'\n' line
            COMPREPLY=()
            local -a asked=("${COMP_WORDS[@]:1:COMP_CWORD-1}")
            for line in $("${COMP_WORDS[0]}" __complete "${1#@}" "$2" -- "${asked[@]}" 2>/dev/null); do
                COMPREPLY+=("$(printf '%q' "${line%%$'\t'*}")")
            done
            ;;
        file) local IFS=$'\n'; COMPREPLY=($(compgen -f -- "$2")) ;;
        *) COMPREPLY=() ;;
    esac
}
_folio() {
    local cur=${COMP_WORDS[COMP_CWORD]} level='' word what n=0 i=1 commands
    COMPREPLY=()
    while (( i < COMP_CWORD )); do
        word=${COMP_WORDS[i]}
        if [[ $word == -* ]]; then
            if [[ $word != *=* && -n $(_folio_option_value "$level" "$word") ]]; then
                (( i++ ))
            fi
        elif (( n == 0 )) && [[ $'\n'$(_folio_commands "$level")$'\n' == *$'\n'"$word"$'\n'* ]]; then
            level=${level:+$level }$word
        else
            (( n++ ))
        fi
        (( i++ ))
    done
    if (( COMP_CWORD > 1 )); then
        word=${COMP_WORDS[COMP_CWORD-1]}
        if [[ $word == -* && $word != *=* ]]; then
            what=$(_folio_option_value "$level" "$word")
            if [[ -n $what ]]; then
                _folio_values "$what" "$cur"
                return 0
            fi
        fi
    fi
    if [[ $cur == -* ]]; then
        _folio_reply "$cur" $(_folio_options "$level")
        return 0
    fi
    commands=$(_folio_commands "$level")
    if [[ -n $commands ]] && (( n == 0 )); then
        _folio_reply "$cur" $commands
        return 0
    fi
    what=$(_folio_positional "$level" "$n")
    [[ -n $what ]] && _folio_values "$what" "$cur"
    return 0
}
complete -F _folio folio
"""

ZSH = r"""#compdef folio
# zsh completion for folio, generated by `folio completion zsh` from folio's own arguments.
# Use it with:  eval "$(folio completion zsh)"   (in ~/.zshrc, after compinit), or save it as _folio in your fpath.
@HELPERS@
_folio_values() {  # $1: what the word takes (=words, @kind, file, *), $2: the word so far
    local -a values shown
    local line
    case "$1" in
        [=]*) values=(${=${1#=}}); compadd -a values ;;
        @*)
            for line in ${(f)"$(${words[1]} __complete ${1#@} "$2" -- ${words[2,CURRENT-1]} 2>/dev/null)"}; do
                values+=("${line%%$'\t'*}")
                if [[ $line == *$'\t'* ]]; then shown+=("${line%%$'\t'*}  -- ${line#*$'\t'}"); else shown+=("$line"); fi
            done
            (( ${#values} )) && compadd -l -d shown -a values
            ;;
        file) _files ;;
    esac
}
_folio() {
    local cur=${words[CURRENT]} level='' word what n=0 i=2
    local -a commands
    while (( i < CURRENT )); do
        word=${words[i]}
        if [[ $word == -* ]]; then
            if [[ $word != *=* && -n $(_folio_option_value "$level" "$word") ]]; then
                (( i++ ))
            fi
        elif (( n == 0 )) && (( ${${(f)"$(_folio_commands "$level")"}[(Ie)$word]} )); then
            level=${level:+$level }$word
        else
            (( n++ ))
        fi
        (( i++ ))
    done
    if (( CURRENT > 2 )); then
        word=${words[CURRENT-1]}
        if [[ $word == -* && $word != *=* ]]; then
            what=$(_folio_option_value "$level" "$word")
            if [[ -n $what ]]; then
                _folio_values "$what" "$cur"
                return
            fi
        fi
    fi
    if [[ $cur == -* ]]; then
        commands=(${(f)"$(_folio_options "$level")"})
        compadd -a commands
        return
    fi
    commands=(${(f)"$(_folio_commands "$level")"})
    if (( ${#commands} )) && (( n == 0 )); then
        compadd -a commands
        return
    fi
    what=$(_folio_positional "$level" "$n")
    [[ -n $what ]] && _folio_values "$what" "$cur"
}
if (( $+functions[compdef] )); then
    compdef _folio folio
fi
"""


def _fish(nodes: list[Node]) -> str:
    """The fish script: the same tables as fish functions, and one ``complete`` line per subcommand, option and
    positional, each under the condition that the command line is at its level."""
    out = [
        "# fish completion for folio, generated by `folio completion fish` from folio's own arguments.",
        "# Use it with:  folio completion fish > ~/.config/fish/completions/folio.fish",
        "function __folio_commands",
        '    switch "$argv[1]"',
    ]
    for n in nodes:
        if n.commands:
            out += [f"        case {_fq(n.path)}", f"            printf '%s\\n' {' '.join(_fq(c) for c in n.commands)}"]
    out += ["    end", "end", "function __folio_valued", '    switch "$argv[1]|$argv[2]"']
    valued = [_fq(f"{n.path}|{name}") for n in nodes for o in n.options if o.value for name in o.names]
    if valued:
        out += [f"        case {' '.join(valued)}", "            return 0"]
    out += [
        "    end",
        "    return 1",
        "end",
        "function __folio_state --description 'the level of the command line, the positionals given, and whether"
        " an option waits for its value'",
        "    set -l tokens (commandline -opc)",
        "    set -e tokens[1]",
        "    set -l level ''",
        "    set -l n 0",
        "    set -l skip 0",
        "    for word in $tokens",
        "        if test $skip = 1",
        "            set skip 0",
        "        else if string match -q -- '-*' $word",
        "            if not string match -q -- '*=*' $word; and __folio_valued \"$level\" $word",
        "                set skip 1",
        "            end",
        '        else if test $n = 0; and contains -- $word (__folio_commands "$level")',
        '            set level (string trim -- "$level $word")',
        "        else",
        "            set n (math $n + 1)",
        "        end",
        "    end",
        '    echo "level:$level"',
        "    echo $n",
        "    echo $skip",
        "end",
        "function __folio_at --description 'the command line is at level $argv[1] (and at its positional $argv[2])'",
        "    set -l state (__folio_state)",
        '    test "$state[1]" = "level:$argv[1]"; or return 1',
        "    test (count $argv) -lt 2; and return 0",
        '    test "$state[3]" = 0; and test "$state[2]" = "$argv[2]"',
        "end",
        "function __folio_ask --description 'candidates from folio __complete (the cache and config.toml only)'",
        "    set -l words (commandline -opc)",
        "    $words[1] __complete $argv[1] (commandline -ct) -- $words[2..-1] 2>/dev/null",
        "end",
        "complete -c folio -f",
    ]
    for n in nodes:
        at = _fq(n.path)
        level, first = _fq(f"__folio_at {at}"), _fq(f"__folio_at {at} 0")
        for name, text in n.commands.items():
            out.append(f"complete -c folio -n {first} -a {_fq(name)} -d {_fq(text)}")
        for o in n.options:
            flags = " ".join(f"-l {_fq(x[2:])}" if x.startswith("--") else f"-s {_fq(x[1:])}" for x in o.names)
            out.append(f"complete -c folio -n {level} {flags}{_fish_value(o.value)} -d {_fq(o.help[:80])}")
        for i, value in enumerate(n.positionals):
            if value and value != "*":
                out.append(f"complete -c folio -n {_fq(f'__folio_at {at} {i}')}{_fish_value(value)}")
    return "\n".join(out) + "\n"


def _fq(text: str) -> str:
    """``text`` as one fish word: single quotes, with ``\\`` and ``'`` escaped (fish's rules, not sh's)."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish_value(value: str) -> str:
    if not value:
        return ""
    if value.startswith("="):
        return f" -x -a {_fq(value[1:])}"
    if value.startswith("@"):
        return f" -x -a {_fq('(__folio_ask ' + value[1:] + ')')}"
    if value == "file":
        return " -r -F"
    return " -x"


# -- what only this machine knows ---------------------------------------------------------------------


def candidates(kind: str, prefix: str, words: list[str]) -> Iterator[tuple[str, str]]:
    """``(value, description)`` for ``kind`` whose value starts with ``prefix`` (case aside), given the words of
    the command line so far (``--profile``, ``--org``, ``--base-url`` and ``ls crs`` are read from them)."""
    if kind not in KINDS:
        return
    wanted = prefix.casefold()
    for value, description in _found(kind, words):
        if value.casefold().startswith(wanted):
            yield value, description


def _option(words: list[str], name: str) -> str | None:
    """The value of option ``name`` in ``words`` (``--org X`` or ``--org=X``), the last one given."""
    found = None
    for i, word in enumerate(words):
        if word == name and i + 1 < len(words):
            found = words[i + 1]
        elif word.startswith(name + "="):
            found = word.split("=", 1)[1]
    return found


def _found(kind: str, words: list[str]) -> Iterator[tuple[str, str]]:
    from folio.config.settings import Settings

    settings = Settings.load()
    if kind == "profile":
        for name, known in sorted(settings.profiles.items()):
            yield name, known.base_url or ""
        return
    if "--demo" in words:
        return  # (the demo's sandbox is new at each run: nothing of it is kept)
    profile = _option(words, "--profile")
    resolved = settings.resolve(profile=profile, base_url=_option(words, "--base-url"))
    if resolved.token is None:
        return
    cache = _open_cache(resolved.base_url, resolved.token)
    if cache is None:
        return
    try:
        organizations = _cached_organizations(cache)
        if kind == "scope":
            kind = "space" if _ls_kind(words) == "crs" else "org"
        if kind == "org":
            yield from _named(organizations)
            return
        org = _option(words, "--org") or resolved.organization
        chosen = ([o for o in organizations if org in o] or [(org, "")]) if org else organizations
        for org_id, _ in chosen:
            yield from _named(_cached_spaces(cache, org_id))
    finally:
        cache.close()


def _ls_kind(words: list[str]) -> str | None:
    """What ``ls`` lists in ``words`` (its first word after ``ls`` that is not an option or its value)."""
    if "ls" not in words:
        return None
    rest = words[words.index("ls") + 1 :]
    skip = False
    for word in rest:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = "=" not in word and word in ("--org", "--format", "--status", "--profile", "--base-url")
        else:
            return word
    return None


def _named(things: list[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """Each of ``(id, title)`` by its id (described by its title) and by its title (described by its id)."""
    for thing_id, title in things:
        yield thing_id, title
    for thing_id, title in things:
        if title and title != thing_id:
            yield title, thing_id


def _open_cache(base_url: str | None, token: str) -> ResponseCache | None:
    """The response cache of the account the token was last seen with (None: never seen on this machine)."""
    from folio.cache import ResponseCache, accounts
    from folio.cli_tui import API_BASE_URL, service_url
    from folio.config.paths import paths
    from folio.services.local import token_fingerprint

    folder = paths().cache_dir
    fingerprint = token_fingerprint(service_url(base_url or API_BASE_URL), token.strip())
    account = accounts.lookup(folder, fingerprint)
    return ResponseCache.open(account, folder=folder) if account else None


def _pages(cache: ResponseCache, key: str) -> Iterator[dict[str, Any]]:
    """The cached pages of the list whose first page is ``key``, while they are there."""
    query = ""
    for _ in range(MOST_PAGES):
        hit = cache.get(key + query)
        if hit is None:
            return
        try:
            page = json.loads(hit.body)
        except ValueError:
            return
        if not isinstance(page, dict):
            return
        yield page
        following = page.get("next")
        token = following.get("page") if isinstance(following, dict) else None
        if not isinstance(token, str) or not token:
            return
        query = ("&" if "?" in key else "?") + urlencode([("page", token)])


def _items(cache: ResponseCache, key: str) -> list[tuple[str, str]]:
    found = []
    for page in _pages(cache, key):
        for item in page.get("items") or []:
            if isinstance(item, dict) and isinstance(item.get("space"), dict) and "id" not in item:
                item = item["space"]  # (a wrapped space, as the list may send it)
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                title = item.get("title")
                found.append((item["id"], title if isinstance(title, str) else ""))
    return found


def _cached_organizations(cache: ResponseCache) -> list[tuple[str, str]]:
    return _items(cache, "GET /orgs")


def _cached_spaces(cache: ResponseCache, org_id: str) -> list[tuple[str, str]]:
    key = SPACES_KEY.format(quote(org_id, safe="")) + "?" + urlencode([("limit", SPACES_LIMIT)])
    return _items(cache, key)
