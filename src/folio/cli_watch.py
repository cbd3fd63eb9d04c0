"""``folio watch [--interval SECONDS] [--once]``: the inbox across every organization of the profile, polled, one
line on stdout for each new review request, merge of your change request, or reply on your thread.

    $ folio watch
    Review asked of you: #2 Remove the deprecated Rollouts API page, by Emeka Obi (Northwind Labs) https://…
    $ folio watch --once | while read -r line; do notify-send "GitBook" "$line"; done

Each line is written (and flushed) as it is known. When stderr is a terminal, each is also a terminal notification
(OSC 9 in iTerm2, WezTerm, Ghostty and Windows Terminal, kitty's OSC 99, OSC 777 in VTE terminals and foot, the bell
elsewhere and inside tmux or screen). What was announced is kept in the account's local state, so ``folio watch``
started again, or the TUI, does not announce it again. The first look at an account (a fresh install) announces
nothing: what is in the inbox then is taken as seen, and stderr says so. With ``--no-cache`` nothing is kept, so
every run starts with such a first look.

``--once`` looks once and exits (for scripts and tests; a first look prints nothing). ``--interval`` is the seconds
between looks (default: ``[inbox] interval`` of config.toml, else 60; at least 15). ``--demo`` watches a new
in-process sandbox of the demo data in which, after Folio's first look, a teammate asks for your review: the next
look announces it (with ``--once``, that look); nothing is kept. Exit 0 on ctrl+c; 1 when a ``--once`` look failed;
2 for a usage problem (no token, a bad config).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from folio.config.logging import DebugLog
    from folio.services import Services
    from folio.services.review.inbox_watch import InboxWatch

__all__ = ["add_parser", "run"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
DEMO_REQUESTER = "emeka@"
DEMO_CHANGE_REQUEST = "Remove the deprecated Rollouts API page"


def add_parser(commands: Any, common: Callable[..., None]) -> None:
    """Add ``watch`` to the top-level subcommands (``common`` adds --profile/--base-url/--debug)."""
    watch = commands.add_parser(
        "watch",
        help="announce new review requests, merges of your change requests and replies on your threads",
        description="Poll the inbox across every organization of the profile and print one line for each new "
        "review request, merge of your change request, or reply on your thread (a terminal notification too when "
        "stderr is a terminal). Each is announced once; the first look at an account announces nothing.",
    )
    watch.add_argument(
        "--interval",
        type=float,
        metavar="SECONDS",
        default=None,
        help="seconds between looks (default: [inbox] interval of config.toml, else 60; at least 15)",
    )
    watch.add_argument("--once", action="store_true", help="look once, print what is new, and exit")
    watch.add_argument(
        "--demo",
        action="store_true",
        default=argparse.SUPPRESS,
        help="watch the built-in sandbox's demo data, where a teammate asks for your review after the first look",
    )
    common(watch, top=False)


def run(args: argparse.Namespace, log: DebugLog | None) -> int:
    """``folio watch``: the exit code."""
    from folio import cli
    from folio.config.inbox import MIN_INTERVAL, inbox_settings
    from folio.config.settings import TOKEN_ENV

    if args.demo:
        interval = args.interval if args.interval is not None else 60.0
    else:
        settings, resolved = cli._resolve(args, log)
        interval = args.interval if args.interval is not None else inbox_settings(settings).interval
        if resolved.token is None:
            return _say(cli.NO_TOKEN.format(problem=resolved.problem, config=settings.path, env=TOKEN_ENV), EXIT_USAGE)
    if interval < MIN_INTERVAL and not args.once:
        return _say(f"folio: --interval {interval:g} is too often: at least {MIN_INTERVAL:.0f} seconds", EXIT_USAGE)
    if args.demo:
        services, teammate_asks = _demo_services()
        print("The demo sandbox (--demo): a teammate asks for your review after the first look.", file=sys.stderr)
        return _loop(services, interval, args.once, demo=teammate_asks)
    assert resolved.token is not None
    return _loop(_services(resolved.base_url, resolved.token, keep=not args.no_cache), interval, args.once)


def _services(base_url: str | None, token: str, *, keep: bool) -> Services:
    """The services of the profile, with its local state (what was announced) unless ``keep`` is False."""
    from functools import partial

    from folio import cli
    from folio.cli_tui import API_BASE_URL, service_url
    from folio.config.paths import paths
    from folio.services import Services

    url = base_url or API_BASE_URL
    local = None
    if keep:
        from folio.services.local import Local

        folders = paths()
        local = Local(cache_dir=folders.cache_dir, state_dir=folders.state_dir, base_url=service_url(url), secret=token)
        local.open_known()
    from urllib.parse import urlsplit

    where = urlsplit(service_url(url)).netloc
    return Services(where=where, local=local, connect=partial(cli._client, url, token))


def _demo_services() -> tuple[Services, Callable[[], None]]:
    """A new in-process sandbox of the demo data, and what its teammate does after Folio's first look: ask the
    demo user (Ada) to review a change request."""
    from folio import cli
    from folio.sandbox import SandboxTransport, create_app
    from folio.sandbox.domain.reviews import request_review
    from folio.services import Services

    app = create_app()
    state = app.state.sandbox

    def teammate_asks() -> None:
        teammate = next(uid for uid, u in state.users.items() if str(u.get("email", "")).startswith(DEMO_REQUESTER))
        record = next(c for c in state.change_requests.values() if c["subject"] == DEMO_CHANGE_REQUEST)
        request_review(state, record, state.default_user, teammate)

    return Services(cli._client(cli.DEMO_BASE_URL, cli.DEMO_TOKEN, SandboxTransport(app))), teammate_asks


def _loop(services: Services, interval: float, once: bool, *, demo: Callable[[], None] | None = None) -> int:
    try:
        return asyncio.run(_watch(services, interval, once, demo=demo))
    except KeyboardInterrupt:
        print("Stopped watching.", file=sys.stderr)
        return EXIT_OK
    except BrokenPipeError:  # what read the lines has gone (``folio watch | head -1``): nothing more to say
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # (no second error at exit)
        return EXIT_OK
    finally:
        if services.local is not None:
            services.local.close()


async def _watch(services: Services, interval: float, once: bool, *, demo: Callable[[], None] | None) -> int:
    from folio.api.errors import ApiError
    from folio.services.errors import Refusal
    from folio.services.review.inbox_watch import InboxWatch, MemorySeen, Problem

    notify = _notifier(sys.stderr)
    try:
        watch = InboxWatch(services, interval=interval, seen=MemorySeen() if demo else None)
        try:
            if demo is not None:
                await watch.poll()  # the demo's first look, silent; then a teammate asks for Ada's review
                watch.seeded = []
                demo()
            if once:
                found = await watch.poll()
                _first_look(watch)
                for said in found:
                    _announce(said.line, notify)
                return EXIT_OK
            me = await services.me()
            print(
                f"Watching the inbox of {_printable(me.display_name or me.id)} every {interval:g} s (ctrl+c stops).",
                file=sys.stderr,
                flush=True,
            )
        except (ApiError, Refusal) as exc:
            print(f"folio: could not look at the inbox: {_printable(exc.describe(), 400)}", file=sys.stderr)
            return EXIT_FAILED
        async for event in watch.run():
            if isinstance(event, Problem):
                print(f"folio: {_printable(event.words, 400)}", file=sys.stderr, flush=True)
                continue
            _announce(event.line, notify)
            _first_look(watch)
        return EXIT_OK  # (run never ends by itself)
    finally:
        with contextlib.suppress(Exception):  # (closing after ctrl+c: nothing to say)
            await services.aclose()


def _first_look(watch: InboxWatch) -> None:
    if watch.seeded:
        count = len(watch.seeded)
        print(
            f"First look at {count} organization{'s' if count != 1 else ''}: what is in the inbox now is taken as "
            "seen; what comes from now on is announced.",
            file=sys.stderr,
            flush=True,
        )
        watch.seeded = []


def _announce(line: str, notify: Callable[[str], None] | None) -> None:
    text = _printable(line, 600)
    print(text, flush=True)
    if notify is not None:
        notify(text)


def _notifier(stream: TextIO) -> Callable[[str], None] | None:
    """A terminal notification on ``stream`` when it is a terminal (None otherwise)."""
    from folio.services.review.inbox_watch import terminal_notification

    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):
        return None

    def notify(text: str) -> None:
        with contextlib.suppress(OSError):
            stream.write(terminal_notification("Folio", text, os.environ))
            stream.flush()

    return notify


def _printable(text: str | None, limit: int = 200) -> str:
    from folio.cli_conversations import _printable as printable

    return printable(text, limit)


def _say(message: str, code: int) -> int:
    print(message, file=sys.stderr)
    return code
