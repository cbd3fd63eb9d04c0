"""``folio open URL`` (also ``folio URL``): the TUI, on the screen of a GitBook link; ``folio show URL [--json]``:
the thing the link names, printed in the service's shape.

    folio open https://app.gitbook.com/o/acme/s/sp1/~/changes/12/      the change request #12, on its screen
    folio https://docs.acme.com/guides/install#linux                   the page, scrolled to its "linux" heading
    folio show --json https://app.gitbook.com/o/acme/s/sp1/ | jq .title

The URL is read before anything starts (``folio.services.links``): one Folio cannot map stops the command with
exit 2 and names the part it could not read. ``folio open`` then starts the TUI on the organizations and opens the
link's screen over them once the first frame is drawn (a published URL or a page path is looked up with the
service first; if it leads nowhere the TUI says so and stays on the organizations).

``folio show`` exit codes: 0 printed, 1 the service refused or could not be reached (or, ``--offline``, it was
never seen), 2 a URL Folio cannot read (or that names no published thing of yours), no token, or a link to a list
(``folio show`` prints one thing). What it reads comes from the account's local cache first, when all of it is
there (what the TUI or an earlier command read), as ``folio ls`` does (``folio.cli_ls.Reader``); ``--fresh`` asks
the service. Progress and the cache's age go to stderr, only on a terminal. Heavy modules are imported when the
command runs, not when the parser is built.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from folio.config.logging import DebugLog
    from folio.services import Services
    from folio.services.local import Local

__all__ = ["add_parser", "as_open", "looks_like_url", "run"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

_URL = re.compile(r"^(https?://|app\.gitbook\.com/|api\.gitbook\.com/)", re.IGNORECASE)


def looks_like_url(word: str) -> bool:
    """Whether a word of the command line is a link (``https://…``, or ``app.gitbook.com/…`` without a scheme)."""
    return bool(_URL.match(word))


def as_open(words: list[str]) -> list[str]:
    """``folio [options] URL`` as ``folio [options] open URL``: a link given as the only argument opens it."""
    from folio.cli import _VALUED  # (the options of folio that take a value: the word after one is not the URL)

    value_next = False
    for index, word in enumerate(words):
        if value_next:
            value_next = False
        elif word.startswith("-"):
            value_next = word in _VALUED
        else:
            return [*words[:index], "open", *words[index:]] if looks_like_url(word) else words
    return words


def add_parser(commands: Any, common: Callable[..., None]) -> None:
    """Add ``open`` and ``show`` to the top-level subcommands (``common`` adds --profile/--base-url/--debug)."""
    opener = commands.add_parser(
        "open",
        help="open the TUI on the screen of a GitBook link (also: folio URL)",
        description="Open the TUI on the screen of URL: an organization, collection, space, page (scrolled to its "
        "anchor), change request, comment, site or site section, or OpenAPI spec; an app.gitbook.com link, a "
        "published docs link, or an API link. Exit 2 when Folio cannot read the URL.",
    )
    opener.add_argument("url", metavar="URL", help="the link (app.gitbook.com/…, a published docs address, …)")
    common(opener, top=False)
    show = commands.add_parser(
        "show",
        help="print what a GitBook link names (--json: the service's shape)",
        description="Print the thing URL names, read from the local cache first (--fresh asks the service): with "
        "--json, the service's JSON (its field names; fields without a value left out). Exit 0 printed, 1 the "
        "service refused or could not be reached, 2 a URL Folio cannot read, a link to a list, or no token.",
    )
    show.add_argument("url", metavar="URL", help="the link (app.gitbook.com/…, a published docs address, …)")
    show.add_argument("--json", action="store_true", help="print the service's JSON (stable: for jq and scripts)")
    show.add_argument(
        "--fresh",
        action="store_true",
        help="ask the service, not the local cache",
    )
    common(show, top=False)


def run(args: argparse.Namespace, log: DebugLog | None) -> int:
    """``folio open`` and ``folio show``: the exit code."""
    from folio.services.links import LinkError, parse

    try:
        parse(args.url)
    except LinkError as exc:
        return _say(f"folio: {_printable(str(exc), 400)}", EXIT_USAGE)
    if args.command == "open":
        from folio import cli

        args.link = args.url
        return cli._run_tui(args, log)
    return _run_show(args, log)


def _run_show(args: argparse.Namespace, log: DebugLog | None) -> int:
    from folio import cli
    from folio.cli_ls import _services
    from folio.config.settings import TOKEN_ENV
    from folio.services import Services

    local: Local | None = None
    if args.demo:
        client, _ = cli._demo_client()
        services = Services(client, where="the demo sandbox")
    else:
        settings, resolved = cli._resolve(args, log)
        if resolved.token is None:
            return _say(cli.NO_TOKEN.format(problem=resolved.problem, config=settings.path, env=TOKEN_ENV), 2)
        services, local = _services(args, resolved)
    talk = _is_terminal(sys.stdout) and _is_terminal(sys.stderr)
    try:
        return asyncio.run(_show(services, args, talk=talk))
    finally:
        if local is not None:
            local.close()


async def _show(services: Services, args: argparse.Namespace, *, talk: bool) -> int:
    """Look the link up and read what it names: from the account's cache when all of it is there (what the TUI
    or an earlier command read), unless ``--fresh``; else from the service (``folio.cli_ls.Reader``)."""
    from folio.api.errors import ApiError
    from folio.cli_ls import Progress, Reader
    from folio.services.links import LinkError

    reader = Reader(services, fresh=args.fresh, progress=Progress(None))
    try:
        if talk:
            print("Looking up the link…", file=sys.stderr, flush=True)
        if args.offline:
            services.client.set_offline("asked")
        elif services.local is not None and services.local.account is None:
            await services.me()  # whose token this is: what is read is then kept in that account's cache
        link = await reader.cache_first(lambda: services.links.resolve(args.url))
        found = await reader.cache_first(lambda: services.links.fetch(link))
    except (LinkError, LookupError) as exc:
        return _say(f"folio: {_printable(str(exc), 400)}", EXIT_USAGE)
    except ApiError as exc:
        return _say(f"folio: could not read it: {_printable(exc.describe(), 400)}", EXIT_FAILED)
    finally:
        await services.aclose()
    if reader.stored and talk:
        from folio.services.format import cached_age

        print(f"({cached_age(min(reader.stored))}: --fresh asks the service)", file=sys.stderr)
    data = found.model_dump(mode="json", by_alias=True, exclude_none=True)
    if args.json:
        print(_json(data))
        return EXIT_OK
    title = data.get("title") or data.get("subject") or data.get("displayName") or data.get("slug") or ""
    print(f"{link.what[:1].upper()}{link.what[1:]}: {_printable(str(title))} ({_printable(str(data.get('id', '')))})")
    urls = data.get("urls") if isinstance(data.get("urls"), dict) else {}
    for name in ("app", "published", "location"):
        if urls.get(name):
            print(f"  {name:<10}{_printable(str(urls[name]), 400)}")
    print(f"  {'screen':<10}{link.kind} " + " ".join(f"{k}={_printable(str(v))}" for k, v in link.ids.items()))
    return EXIT_OK


def _json(data: Any) -> str:
    """``data`` as JSON, stable (keys in the service's order), non-ASCII text kept, but every control and format
    character (escapes, bidirectional overrides) written as a ``\\uXXXX`` escape: safe on a terminal, same JSON."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    return "".join(
        f"\\u{ord(c):04x}" if unicodedata.category(c) in ("Cc", "Cf", "Cs") and c != "\n" else c for c in text
    )


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


_ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(\x07|\x1b\\)?|.)?")


def _printable(text: str | None, limit: int = 200) -> str:
    """A server or typed string made safe to print (no escape sequences, no control characters), at most
    ``limit`` characters (``folio.cli``'s rule)."""
    text = _ESCAPES.sub("", text or "")
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf", "Cs") or c == " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _say(message: str, code: int) -> int:
    print(message, file=sys.stderr)
    return code
