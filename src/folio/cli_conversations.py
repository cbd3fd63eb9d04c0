"""``folio conversations ingest FILE.json [--org ID] [--yes]``: send the conversations of a JSON file (one
conversation object or a list of them, the API's shape) to an organization, each checked before it is sent, and say
what became of each: sent, or refused and why. A bad item does not stop the good ones. The count is said first; a
file of more than ``CONFIRM_ABOVE`` (100) conversations is sent only with ``--yes``. A conversation whose answer was
lost is looked for before it is sent again.

Exit codes: 0 when every conversation went, 1 when some did not (or the service could not be asked), 2 when the
file cannot be read or is too large without ``--yes`` (nothing is sent) or there is no token or organization to use.

The token and address are resolved as for every command (``--token``, ``$GITBOOK_TOKEN``, the profile); the
organization is ``--org``, else the profile's ``organization``, else the only one the token's user belongs to.
``folio --demo conversations ingest FILE`` sends to a new in-process sandbox of the demo data (its demo organization
unless ``--org`` is given), a try-out: nothing is kept after the command.
Heavy modules are imported when the command runs, not when the parser is built.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.config.logging import DebugLog

__all__ = ["add_parser", "run"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_parser(commands: Any, common: Callable[..., None]) -> None:
    """Add ``conversations ingest`` to the top-level subcommands (``common`` adds --profile/--base-url/--debug)."""
    conversations = commands.add_parser("conversations", help="an organization's conversations: ingest a file")
    actions = conversations.add_subparsers(dest="conversations_command", metavar="ACTION", required=True)
    ingest = actions.add_parser(
        "ingest",
        help="send the conversations of a JSON file (one object or a list), each checked first",
        description="Send the conversations of FILE (a JSON object, or a list of them: subject, id, metadata, "
        "parts), each checked before it is sent. Exit 0 when all went, 1 when some did not, 2 when the file "
        "cannot be read or holds more than 100 conversations without --yes (nothing is sent).",
    )
    ingest.add_argument("file", metavar="FILE.json", help="the conversations to send")
    ingest.add_argument(
        "--org",
        metavar="ID",
        default=None,
        help="the organization (default: the profile's, else the only one you belong to)",
    )
    ingest.add_argument(
        "--yes",
        action="store_true",
        help="send a file of more than 100 conversations (without it such a file is counted, not sent)",
    )
    common(ingest, top=False)


def run(args: argparse.Namespace, log: DebugLog | None) -> int:
    """``folio conversations ingest``: the exit code."""
    from folio.services.insights.conversations import (
        CONFIRM_ABOVE,
        UnreadableFile,
        count_words,
        needs_confirming,
        read_conversations,
    )

    try:
        items = read_conversations(args.file)
    except UnreadableFile as exc:
        return _say(f"folio: cannot read the conversations file {_printable(exc.describe())}. Nothing was sent.", 2)
    if needs_confirming(len(items)) and not args.yes:
        return _say(
            f"folio: {_printable(args.file)} holds {count_words(len(items))}: more than {CONFIRM_ABOVE} are sent "
            "only with --yes. Nothing was sent.",
            EXIT_USAGE,
        )
    from folio import cli
    from folio.config.settings import TOKEN_ENV

    if args.demo:
        client, demo_org = cli._demo_client()
        print("The demo sandbox (--demo): nothing sent here is kept after this command.")
        return asyncio.run(_ingest(client, args.org or demo_org, items))
    settings, resolved = cli._resolve(args, log)
    if resolved.token is None:
        return _say(cli.NO_TOKEN.format(problem=resolved.problem, config=settings.path, env=TOKEN_ENV), 2)
    return asyncio.run(
        _ingest(cli._client(resolved.base_url, resolved.token), args.org or resolved.organization, items)
    )


async def _ingest(client: GitBookClient, org_id: str | None, items: list[Any]) -> int:
    from folio.api.errors import ApiError
    from folio.services.insights.conversations import ConversationsService, IngestReport, count_words

    async with client:
        try:
            org_id = org_id or await _only_organization(client)
        except ApiError as exc:
            return _say(f"folio: could not find your organization: {_printable(exc.describe())}", EXIT_FAILED)
        except LookupError as exc:
            return _say(f"folio: {_printable(str(exc))}", EXIT_USAGE)
        print(f"Sending {count_words(len(items))} to organization {_printable(org_id)}:")
        report = IngestReport()
        async for outcome in ConversationsService(client).ingest_each(org_id, items):  # one line as each is known
            report.outcomes.append(outcome)
            verdict = "sent   " if outcome.sent else "refused"
            why = f": {_printable(outcome.why, 600)}" if outcome.why else ""
            print(f"  {verdict}  {outcome.position}. {_printable(outcome.label)}{why}", flush=True)
    print(report.summary())
    return EXIT_OK if report.all_sent else EXIT_FAILED


async def _only_organization(client: GitBookClient) -> str:
    """The one organization the token's user belongs to (LookupError, naming them, when there are several)."""
    organizations = await client.organizations.list().collect()
    if len(organizations) == 1:
        return organizations[0].id
    if not organizations:
        raise LookupError("you belong to no organization: there is nowhere to send conversations.")
    named = ", ".join(f"{o.id} ({o.title})" for o in organizations[:10])
    more = ", …" if len(organizations) > 10 else ""
    raise LookupError(f"give --org: you belong to {len(organizations)} organizations: {named}{more}")


_ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(\x07|\x1b\\)?|.)?")


def _printable(text: str | None, limit: int = 200) -> str:
    """A server or file string made safe to print (no escape sequences, no control characters), at most
    ``limit`` characters (``folio.cli``'s rule, with a limit of its own: a refusal may name several fields)."""
    text = _ESCAPES.sub("", text or "")
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf", "Cs") or c == " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _say(message: str, code: int) -> int:
    print(message, file=sys.stderr)
    return code
