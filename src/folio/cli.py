"""The command line, and the one place things are wired: arguments -> settings -> client -> services -> app.

    folio [--demo] [--offline] [--profile NAME] [--base-url URL] [--token TOKEN|-] [--insecure] [--debug]  the TUI
    folio cache info | clear
    folio conversations ingest FILE.json [--org ID]                              send a file of conversations
    folio ls orgs|spaces|crs|members|sites|specs [SCOPE] [--json|--format tsv]   list, for scripts and pickers
    folio completion bash|zsh|fish                                               print a completion script
    folio edit PAGE [--cr N] [--subject S] [--yes] [--force]                     a page edited in $EDITOR, sent
    folio open URL  (or: folio URL)                                              the TUI, on a GitBook link's screen
    folio show URL [--json] [--fresh]                                            print what a GitBook link names
    folio watch [--interval SECONDS] [--once]                                    announce review requests, merges
    folio auth login|status|logout [--profile NAME] [--base-url URL]              manage the saved token
    folio sandbox serve [--host H] [--port P] [--scale N] [--faults SPEC] [--seed S]  serve the sandbox

Heavy modules (Textual, httpx, pydantic, the sandbox) are imported inside the paths that need them, so
``folio --help`` is fast. :func:`transport_factory` and :func:`retry_policy` are the seams tests use to put the
in-process sandbox under every client this module builds, and to record its waits.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import unicodedata
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from folio import __version__
from folio.config.paths import paths
from folio.config.settings import TOKEN_ENV, Resolved, Settings, SettingsError

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.api.retry import RetryPolicy
    from folio.config.logging import DebugLog
    from folio.models.common import User

__all__ = ["DEMO_TOKEN", "build_parser", "main", "retry_policy", "transport_factory"]

DEMO_TOKEN = "folio-demo-token"
DEMO_BASE_URL = "https://sandbox.folio.invalid"
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def transport_factory(base_url: str) -> Any:
    """The httpx transport for a client of ``base_url``; None is httpx's own network transport.
    Tests replace this function to put the in-process sandbox under the command line."""
    return None


def retry_policy() -> RetryPolicy | None:
    """The retry policy of every client this module builds; None is the client's own (reads retried, 429 waited
    out). Tests replace this function to record the waits instead of sleeping them."""
    return None


# -- arguments -----------------------------------------------------------------------------------


def _common(parser: argparse.ArgumentParser, *, top: bool) -> None:
    # On subcommands the defaults are SUPPRESS, so `folio --profile x auth status` is not undone by the
    # subparser's own default: either place works.
    default: Any = None if top else argparse.SUPPRESS
    parser.add_argument(
        "--profile",
        metavar="NAME",
        default=default,
        help="the profile of config.toml to use (default: its default_profile)",
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        default=default,
        help="the service's address (default: the profile's, else https://api.gitbook.com)",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        default=False if top else argparse.SUPPRESS,
        help="write a debug log (the token never appears in it) under the logs folder",
    )
    parser.add_argument(
        "--insecure",
        action="store_true",
        default=False if top else argparse.SUPPRESS,
        help="allow a plain http base URL to another machine (the token then travels unencrypted); without it "
        "only https, or http to this machine (localhost, 127.0.0.1, ::1), is used",
    )


def build_parser(*, commands: bool = True) -> argparse.ArgumentParser:
    """The command line's parser; without ``commands``, only the options of ``folio`` itself (opening the TUI)."""
    parser = argparse.ArgumentParser(
        prog="folio",
        description="A keyboard-driven terminal client for the GitBook API.",
        epilog=f"The token comes from --token, then ${TOKEN_ENV}, then the profile (folio auth login). "
        "A token given as --token TOKEN is wiped from the process's command line as Folio starts (ps then shows "
        "****; where that cannot be done, --token TOKEN is refused), but it stays in the shell's history: prefer "
        f"${TOKEN_ENV}, a profile, or --token - (asked for, hidden). Try it without an account: folio --demo",
    )
    parser.add_argument("--version", action="version", version=f"folio {__version__}")
    parser.add_argument("--demo", action="store_true", help="open on the built-in sandbox's demo data (no account)")
    parser.add_argument(
        "--offline",
        action="store_true",
        help="browse what was seen before, read-only, without the network (comments are queued)",
    )
    parser.add_argument("--no-cache", action="store_true", help="keep nothing on this machine for this run")
    parser.add_argument(
        "--token",
        metavar="TOKEN",
        help=f"the API token for this run (prefer ${TOKEN_ENV}); '-' asks for it without showing it (or reads a "
        "line of stdin when that is not a terminal); a token given here is wiped from what ps shows at start",
    )
    _common(parser, top=True)
    if not commands:
        parser.set_defaults(command=None)
        return parser
    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND")

    auth = subcommands.add_parser("auth", help="log in, see how you are logged in, log out")
    auth_commands = auth.add_subparsers(dest="auth_command", metavar="ACTION", required=True)
    login = auth_commands.add_parser("login", help="ask for a token (hidden), check it, save it in a profile")
    status = auth_commands.add_parser("status", help="which profile and token are used, and whether it works")
    logout = auth_commands.add_parser("logout", help="remove the profile's saved token")
    for sub in (login, status, logout):
        _common(sub, top=False)

    cache = subcommands.add_parser("cache", help="the local cache: what it holds, and clearing it")
    cache_commands = cache.add_subparsers(dest="cache_command", metavar="COMMAND", required=True)
    cache_commands.add_parser("info", help="where the cache is, how big, how old; drafts and outbox waiting")
    cache_commands.add_parser("clear", help="delete the cached answers of every account (drafts and outbox stay)")
    from folio.cli_conversations import add_parser as add_conversations

    add_conversations(subcommands, _common)
    from folio.cli_ls import add_parser as add_ls

    add_ls(subcommands, _common)
    from folio.cli_completion import add_parser as add_completion

    add_completion(subcommands, _common)
    from folio.cli_edit import add_parser as add_edit

    add_edit(subcommands, _common)
    from folio.cli_open import add_parser as add_open

    add_open(subcommands, _common)
    from folio.cli_watch import add_parser as add_watch

    add_watch(subcommands, _common)
    sandbox = subcommands.add_parser("sandbox", help="the built-in emulator of the API")
    sandbox_commands = sandbox.add_subparsers(dest="sandbox_command", metavar="ACTION", required=True)
    serve = sandbox_commands.add_parser("serve", help="serve the sandbox over HTTP (uvicorn)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8787, help="port to listen on; 0 picks a free one")
    serve.add_argument("--scale", type=int, default=0, metavar="N", help="add N generated items per area")
    serve.add_argument("--faults", metavar="SPEC", help='e.g. "latency=0.2,error_rate=0.1,burst_429=3"')
    serve.add_argument("--seed", type=int, default=7, help="seed of the demo data (default: 7)")
    serve.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="log every request")
    return parser


# -- entry point ---------------------------------------------------------------------------------


def _skip_httpx_cli() -> None:
    """Keep ``import httpx`` from importing httpx's own command-line client.

    httpx imports ``httpx._main`` (click, pygments lexers, rich.syntax and rich.progress: ~45 ms) whenever click is
    installed, which it is, as uvicorn's dependency. Folio never runs that client, so the command puts a module in
    its place that loads the real one only if something calls it. Done here, at the entry point, not in a layer:
    code that imports Folio as a library keeps httpx as it is.
    """
    if "httpx" in sys.modules or "httpx._main" in sys.modules:
        return
    import types

    def main() -> None:  # pragma: no cover - nobody runs httpx's CLI through Folio
        del sys.modules["httpx._main"]
        from httpx._main import main as real

        real()

    stand_in = types.ModuleType("httpx._main", "httpx's command-line client, loaded when first called (folio.cli).")
    stand_in.main = main  # type: ignore[attr-defined]
    sys.modules["httpx._main"] = stand_in


_VALUED = ("--profile", "--base-url", "--token")
"""The options of ``folio`` that take a value (the word after them is not a command)."""


def _opens_the_tui(argv: list[str]) -> bool:
    """Whether ``argv`` holds only options of ``folio`` itself (and their values): no command, no help. The
    commands' parsers (about 2.5 ms to build) are then left out; any other word, an abbreviated option included,
    gets the whole parser and its messages."""
    value_next = False
    for word in argv:
        if value_next:
            value_next = False
        elif word in ("-h", "--help") or not word.startswith("-"):
            return False
        else:
            value_next = word in _VALUED
    return True


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if any("://" in word or word.lower().startswith("app.gitbook.com/") for word in words):
        from folio.cli_open import as_open

        words = as_open(words)  # folio URL: folio open URL
    args = build_parser(commands=not _opens_the_tui(words)).parse_args(words)
    if args.command != "sandbox":
        _skip_httpx_cli()
    if args.token is not None:
        problem = _take_token(args, visible=argv is None)
        if problem is not None:
            return _fail(problem, EXIT_USAGE)
    log: DebugLog | None = None
    try:
        if args.debug:
            from folio.config.logging import setup_debug_log

            known = (args.token, os.environ.get(TOKEN_ENV, "").strip())
            log = setup_debug_log(paths().log_dir, [t for t in known if t])
            print(f"Debug log: {log.path}", file=sys.stderr)
        if args.command == "auth":
            return _auth(args, log)
        if args.command == "sandbox":
            return _serve(args)
        if args.command == "cache":
            return _cache(args)
        if args.command == "conversations":
            from folio.cli_conversations import run as run_conversations

            return run_conversations(args, log)
        if args.command == "ls":
            from folio.cli_ls import run as run_ls

            return run_ls(args, log)
        if args.command in ("completion", "__complete"):
            from folio.cli_completion import run as run_completion

            return run_completion(args)
        if args.command == "edit":
            from folio.cli_edit import run as run_edit

            return run_edit(args, log)
        if args.command in ("open", "show"):
            from folio.cli_open import run as run_open

            return run_open(args, log)
        if args.command == "watch":
            from folio.cli_watch import run as run_watch

            return run_watch(args, log)
        return _run_tui(args, log)
    except SettingsError as exc:
        print(f"folio: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    finally:
        if log is not None:
            log.close()


def _fail(message: str, code: int = EXIT_FAILED) -> int:
    print(f"folio: {message}", file=sys.stderr)
    return code


TOKEN_IN_ARGV = (
    "--token TOKEN would leave the token readable by every user of this machine (ps shows the command line), and "
    "Folio cannot wipe it from there on this system. Give it another way: export {env}=<your token>, or "
    "--token - (asked for, hidden), or save it once with folio auth login."
)


def _take_token(args: argparse.Namespace, *, visible: bool) -> str | None:
    """Read the token of ``--token -``, or wipe the one given from the process's command line (``visible``: this
    is the process's own command line, not a test's list). The problem in words when neither can be done."""
    if args.token == "-":
        args.token = _ask_token()
        return None if args.token else "--token - was given, but no token was entered."
    if visible:
        from folio.config.process import hide_argument

        if not hide_argument(args.token):
            return TOKEN_IN_ARGV.format(env=TOKEN_ENV)
    return None


def _ask_token() -> str:
    """The token typed at a hidden prompt, or the first line of stdin when that is not a terminal."""
    try:
        if sys.stdin is not None and sys.stdin.isatty():
            import getpass

            return getpass.getpass("GitBook API token (input hidden): ").strip()
        return (sys.stdin.readline() if sys.stdin is not None else "").strip()
    except (EOFError, OSError):
        return ""


def _resolve(args: argparse.Namespace, log: DebugLog | None) -> tuple[Settings, Resolved]:
    settings = Settings.load()
    resolved = settings.resolve(profile=args.profile, token=getattr(args, "token", None), base_url=args.base_url)
    _check_url(resolved.base_url, insecure=getattr(args, "insecure", False))
    if log is not None and resolved.token:
        log.redactor.add_secret(resolved.token)
    return settings, resolved


def _check_url(url: str | None, *, insecure: bool = False) -> None:
    """Refuse a base URL Folio cannot use, and plain http to another machine unless ``insecure`` (``--insecure``:
    then it only warns). Raises :class:`SettingsError` (exit 2)."""
    if url is None:
        return
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SettingsError(f"{url!r} is not a usable base URL: give one such as https://api.gitbook.com")
    if parts.scheme == "http" and not _loopback(parts.hostname):
        if not insecure:
            raise SettingsError(
                f"{url!r} is plain http to another machine ({parts.hostname}): the token would travel unencrypted. "
                "Use https, or add --insecure if you mean it (http to localhost, 127.0.0.1 or ::1 needs no flag)."
            )
        print(
            f"folio: warning: {parts.hostname} is reached over plain http (--insecure); the token travels unencrypted",
            file=sys.stderr,
        )


def _loopback(host: str) -> bool:
    """``host`` is this machine: ``localhost`` or a loopback address (127.0.0.0/8, ::1)."""
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _client(base_url: str | None, token: str, transport: Any = None) -> GitBookClient:
    from folio.api import DEFAULT_BASE_URL, GitBookClient, Token

    url = base_url or DEFAULT_BASE_URL
    return GitBookClient(
        token=Token(token),
        base_url=url,
        transport=transport if transport is not None else transport_factory(url),
        retry=retry_policy(),
    )


def _demo_client() -> tuple[GitBookClient, str]:
    """What ``--demo`` talks to: a client of a new in-process sandbox of the demo data (nothing is kept after the
    command), and the id of its demo organization."""
    from folio.sandbox import SandboxTransport, create_app

    app = create_app()
    return _client(DEMO_BASE_URL, DEMO_TOKEN, SandboxTransport(app)), app.state.sandbox.demo_org


def _printable(text: str | None) -> str:
    """A server string made safe to print on a terminal (no escape sequences, no control characters)."""
    text = re.sub(r"\x1b(\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(\x07|\x1b\\)?|.)?", "", text or "")
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf", "Cs") or c == " ")
    return text[:200]


def _who(user: User) -> str:
    name = _printable(user.display_name) or _printable(user.id)
    return f"{name} <{_printable(user.email)}>" if user.email else name


# -- the TUI -------------------------------------------------------------------------------------

NO_TOKEN = """folio: there is no GitBook token to use ({problem}).
  Log in once:                 folio auth login   (saves it in {config})
  Or give it for this shell:   export {env}=<your token>
  Or try the built-in demo:    folio --demo
Tokens are made in GitBook, under your account's developer settings (personal access tokens)."""


SWITCH_INTERVAL = 0.002
"""Seconds a thread may hold the interpreter while another waits for it, for the TUI's run (Python's default is 5 ms).
Textual writes each frame to the terminal from a thread of its own, which waits that long at each step while the
loop works on (after a first frame, the client being built; while pages arrive): a first frame reached the terminal
13 ms after it was drawn. With 2 ms, a first start shows its list about 10 ms sooner (``bench_startup``)."""


def _run_tui(args: argparse.Namespace, log: DebugLog | None) -> int:
    from folio.tui import collector

    collector.hold_for_start()  # no collector pass before the first frame; the app turns it on once that is drawn
    switch_interval = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        from folio.cli_tui import run_tui

        return run_tui(args, log)
    finally:
        sys.setswitchinterval(switch_interval)
        collector.start_drawn()  # (a start that ended before its first frame)


# -- folio cache ---------------------------------------------------------------------------------


def _cache(args: argparse.Namespace) -> int:
    from folio.cache import clear_all, describe

    folders = paths()
    if args.cache_command == "clear":
        removed = clear_all(folders.cache_dir)
        print(f"Removed {removed} cache file{'s' if removed != 1 else ''} from {folders.cache_dir}.")
        print("Drafts and the outbox are kept (they are in " + str(folders.state_dir) + ").")
        return EXIT_OK
    print(describe(folders.cache_dir, folders.state_dir))
    return EXIT_OK


# -- folio auth ----------------------------------------------------------------------------------


def _auth(args: argparse.Namespace, log: DebugLog | None) -> int:
    if args.demo:
        if args.auth_command == "status":
            return _demo_status()
        return _fail(
            f"--demo uses the built-in sandbox and needs no token: there is nothing to {args.auth_command}"
            " (leave out --demo to manage a profile's token).",
            EXIT_USAGE,
        )
    if args.auth_command == "login":
        return _login(args, log)
    if args.auth_command == "status":
        return _status(args, log)
    return _logout(args)


async def _check_token(base_url: str | None, token: str) -> tuple[User | None, str | None]:
    """Who the token belongs to, or why it cannot be used (never the token itself)."""
    from folio.api import errors

    async with _client(base_url, token) as client:
        try:
            return await client.users.me(), None
        except errors.Unauthorized as exc:
            return None, f"the service refused the token: {exc.describe()}"
        except errors.ApiError as exc:
            return None, f"the token could not be checked: {exc.describe()}"


def _login(args: argparse.Namespace, log: DebugLog | None) -> int:
    import getpass

    settings = Settings.load()
    name = args.profile or settings.default_profile
    existing = settings.profile(name)
    base_url = args.base_url or (existing.base_url if existing else None)
    _check_url(base_url, insecure=getattr(args, "insecure", False))
    profile = settings.ensure_profile(name)
    try:
        value = getpass.getpass(f"GitBook API token for profile {name!r} (input hidden): ").strip()
    except EOFError:
        value = ""
    if not value:
        return _fail("no token was entered; nothing was saved.")
    if log is not None:
        log.redactor.add_secret(value)
    user, problem = asyncio.run(_check_token(base_url, value))
    if user is None:
        return _fail(f"{_printable(problem)}. Nothing was saved.")
    profile.token = value
    profile.token_env = None
    if args.base_url:
        profile.base_url = args.base_url
    settings.save()
    print(f"Logged in as {_who(user)} on {base_url or 'https://api.gitbook.com'}.")
    print(f"Saved profile {name!r} in {settings.path}.")
    if os.environ.get(TOKEN_ENV, "").strip():
        print(f"Note: {TOKEN_ENV} is set in this shell, and it comes before saved profiles.")
    return EXIT_OK


def _status(args: argparse.Namespace, log: DebugLog | None) -> int:
    settings, resolved = _resolve(args, log)
    from folio.api import DEFAULT_BASE_URL

    print(f"Profile:  {resolved.profile}" + ("" if settings.profile(resolved.profile) else " (not saved)"))
    print(f"Config:   {settings.path}" + ("" if settings.exists else " (no file yet)"))
    print(f"Base URL: {resolved.base_url or DEFAULT_BASE_URL}")
    if resolved.token is None:
        print(f"Token:    none: {resolved.problem}")
        print("Log in with `folio auth login`, or try `folio --demo`.")
        return EXIT_FAILED
    print(f"Token:    from {resolved.token_source}")
    if settings.loose_mode:
        print(f"Warning:  {settings.path} can be read by other users; run: chmod 600 {settings.path}")
    user, problem = asyncio.run(_check_token(resolved.base_url, resolved.token))
    if user is None:
        print(f"Check:    does not work: {_printable(problem)}")
        return EXIT_FAILED
    print(f"Check:    works: signed in as {_who(user)}")
    return EXIT_OK


def _demo_status() -> int:
    async def check() -> tuple[User | None, str | None]:
        from folio.api import errors

        client, _ = _demo_client()
        async with client:
            try:
                return await client.users.me(), None
            except errors.ApiError as exc:
                return None, exc.describe()

    print("Profile:  demo (--demo: the built-in sandbox, no account; nothing is saved)")
    print(f"Base URL: {DEMO_BASE_URL} (in this process)")
    print("Token:    the demo's own")
    user, problem = asyncio.run(check())
    if user is None:
        print(f"Check:    does not work: {_printable(problem)}")
        return EXIT_FAILED
    print(f"Check:    works: signed in as {_who(user)}")
    return EXIT_OK


def _logout(args: argparse.Namespace) -> int:
    settings = Settings.load()
    name = args.profile or settings.default_profile
    profile = settings.profile(name)
    if profile is None or not profile.token:
        print(f"Profile {name!r} has no saved token; nothing to remove.")
    else:
        profile.token = None
        settings.save()
        print(f"Removed the saved token of profile {name!r} from {settings.path}.")
    if profile is not None and profile.token_env:
        print(f"The profile still reads its token from {profile.token_env}.")
    if os.environ.get(TOKEN_ENV, "").strip():
        print(f"Note: {TOKEN_ENV} is still set in this shell, so Folio still has a token.")
    return EXIT_OK


# -- folio sandbox serve -------------------------------------------------------------------------


def _serve(args: argparse.Namespace) -> int:
    from folio.sandbox.server import serve

    if args.port < 0 or args.port > 65535:
        return _fail(f"--port {args.port} is not a port number (0..65535; 0 picks a free one)", EXIT_USAGE)
    try:
        return serve(
            args.host,
            args.port,
            scale=args.scale,
            faults=args.faults,
            seed=args.seed,
            log_level="debug" if args.debug else "warning",
        )
    except ValueError as exc:  # a bad --faults spec
        return _fail(str(exc), EXIT_USAGE)
