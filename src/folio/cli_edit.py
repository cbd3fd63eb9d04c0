"""``folio edit PAGE [--cr N] [--subject S] [--yes] [--force]``: a page's markdown edited in ``$EDITOR`` and sent
into a change request, without the TUI (scripts, plain SSH).

    folio edit https://app.gitbook.com/o/ORG/s/SPACE/~/changes/4/guides/install    # into change request #4
    folio edit SPACE/guides/install --subject "Fix the install steps"               # into a new change request
    EDITOR=./fix-typos.py folio edit SPACE/guides/install --cr 4 --yes              # from a script

PAGE is the page's address in the app (``…/o/<org>/s/<space>/<page path>``, or ``…/s/<space>/~/changes/<N>/<page
path>``) or ``<space id>/<page path>`` (an empty path: the first page). The page is read from the change request the
address or ``--cr`` names, else from the main content; the editor runs on its markdown; an unchanged text sends
nothing; otherwise the diff is printed, the send is confirmed (``--yes``: without asking), and the text goes into
that change request, or from the main content into a new one (``--subject``, default "Edit <page title>"). The
change request's number and address are printed.

The edited text is a draft until the service has it: refused, lost or not confirmed, it is kept on this machine
and the next ``folio edit`` of the same page offers it. When the change request moved on since the text was read
(someone changed the page), nothing is sent: their change is printed, and ``--force`` sends yours anyway.

Exit codes: 0 sent, or nothing to send; 1 refused (the service said no, the change request moved on, an answer lost
and the edit not done, the send not confirmed, the editor failed); 2 bad input (an address that names no page, no
token, options that contradict, no terminal to confirm on without ``--yes``).

The token and address are resolved as for every command; ``--demo`` edits the demo data of a new in-process
sandbox (nothing is kept). Heavy modules are imported when the command runs, not when the parser is built.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.config.logging import DebugLog
    from folio.services import Services
    from folio.services.local import Local
    from folio.services.review.diff import MarkdownDiff
    from folio.services.review.page_address import PageAddress
    from folio.services.review.writing import EditedPage

__all__ = ["add_parser", "run"]

EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2
NOTHING_CHANGED = "Nothing changed: nothing was sent."


def add_parser(commands: Any, common: Callable[..., None]) -> None:
    """Add ``edit`` to the top-level subcommands (``common`` adds --profile/--base-url/--debug)."""
    edit = commands.add_parser(
        "edit",
        help="edit a page's markdown in $EDITOR and send it into a change request",
        description="Edit a page's markdown in $FOLIO_EDITOR (else $VISUAL, else $EDITOR, else vi) and send it into "
        "a change request: "
        "the one PAGE's address or --cr names, else a new one. The diff is shown and the send confirmed first. "
        "Exit 0 when sent (or nothing changed), 1 when refused, 2 on bad input.",
    )
    edit.add_argument(
        "page",
        metavar="PAGE",
        help="the page's address in the app (https://app.gitbook.com/o/<org>/s/<space>/<page path>, or "
        ".../s/<space>/~/changes/<N>/<page path>), or <space id>/<page path> (no path: the first page)",
    )
    edit.add_argument(
        "--cr",
        metavar="N",
        default=None,
        help="the change request to read the page from and send into (its number)",
    )
    edit.add_argument(
        "--subject",
        metavar="S",
        default=None,
        help="send into a new change request with this subject (default for a page of the main content: "
        "'Edit <page title>')",
    )
    edit.add_argument("--yes", action="store_true", help="send without asking (and continue an unsent edit)")
    edit.add_argument(
        "--force",
        action="store_true",
        help="send even when the change request moved on since the page was read (their change is replaced)",
    )
    edit.add_argument(
        "--demo",
        action="store_true",
        default=argparse.SUPPRESS,
        help="edit the demo data of a new built-in sandbox (nothing is kept)",
    )
    common(edit, top=False)


def run(args: argparse.Namespace, log: DebugLog | None) -> int:
    """``folio edit``: the exit code."""
    from folio.services.review.page_address import BadAddress, parse_page_address

    try:
        address = parse_page_address(args.page)
    except BadAddress as exc:
        return _say(f"folio: {_printable(exc.describe(), 600)}", EXIT_USAGE)
    cr: int | str | None = address.change_request
    if args.cr is not None:
        given = args.cr.strip().lstrip("#")
        if not given:
            return _say("folio: --cr needs a change request's number.", EXIT_USAGE)
        mine: int | str = int(given) if given.isdigit() else given
        if cr is not None and str(mine) != str(cr):
            return _say(
                f"folio: the address is in change request #{cr} but --cr names {_printable(given)}: give one of them.",
                EXIT_USAGE,
            )
        cr = mine
    if args.subject is not None:
        from folio.services.review.authoring import check_subject

        problem = check_subject(args.subject)
        if problem is not None:
            return _say(f"folio: --subject: {problem} Nothing was read or sent.", EXIT_USAGE)
    if args.subject is not None and cr is not None:
        return _say(
            f"folio: --subject makes a new change request, but the page is taken from change request #{cr}: "
            "leave out --subject to send into it, or give the page's address in the main content.",
            EXIT_USAGE,
        )
    from folio import cli
    from folio.config.settings import TOKEN_ENV

    if getattr(args, "demo", False):
        client, _ = cli._demo_client()
        print("The demo sandbox (--demo): nothing sent here is kept after this command.", file=sys.stderr)
        return asyncio.run(Edit(args, address, cr).run(client, None))
    settings, resolved = cli._resolve(args, log)
    if resolved.token is None:
        return _say(cli.NO_TOKEN.format(problem=resolved.problem, config=settings.path, env=TOKEN_ENV), EXIT_USAGE)
    client = cli._client(resolved.base_url, resolved.token)
    local = None
    if not args.no_cache:  # the drafts of this account live there
        from folio.cli_tui import service_url
        from folio.config.paths import paths
        from folio.services.local import Local

        folders = paths()
        local = Local(
            cache_dir=folders.cache_dir,
            state_dir=folders.state_dir,
            base_url=service_url(client.base_url),
            secret=resolved.token.strip(),
        )
    return asyncio.run(Edit(args, address, cr).run(client, local))


class Edit:
    """One ``folio edit``: the page found and opened, the editor, the diff, the confirmation, the send."""

    def __init__(self, args: argparse.Namespace, address: PageAddress, cr: int | str | None) -> None:
        self.args = args
        self.address = address
        self.cr = cr
        self.kept_on_disk = False
        """Whether a draft outlives this process (the account's local state is open)."""

    async def run(self, client: GitBookClient, local: Local | None) -> int:
        from folio.services import Services

        async with client:
            services = Services(client, local=local)
            try:
                return await self._run(services)
            finally:
                if local is not None:
                    local.close()

    async def _run(self, services: Services) -> int:
        from folio.api.errors import ApiError, Unauthorized
        from folio.services.review.page_address import BadAddress, locate
        from folio.services.review.writing import NotEditable

        writing = services.writing
        try:
            if services.local is not None:
                await services.me()  # which account's drafts these are
                self.kept_on_disk = services.local.state is not None
            space_id, found = await locate(services.client, self.address, change_request=self.cr)
            page = await writing.open(space_id, found.id, change_request=self.cr)
        except BadAddress as exc:
            return _say(f"folio: {_printable(exc.describe(), 600)}", EXIT_USAGE)
        except NotEditable as exc:
            return _say(f"folio: {_printable(exc.describe())} Nothing was sent.", EXIT_REFUSED)
        except Unauthorized as exc:
            return _say(f"folio: the service refused the token: {_printable(exc.describe())}", EXIT_USAGE)
        except ApiError as exc:
            return _say(f"folio: could not read the page: {_printable(exc.describe(), 600)}", EXIT_REFUSED)
        start, page = self._draft_or_page(services, page)
        return await self._edit(services, page, start)

    # -- the unsent edit of an earlier run -----------------------------------------------------------------------

    def _draft_or_page(self, services: Services, page: EditedPage) -> tuple[str, EditedPage]:
        """The text the editor starts from: an unsent edit of this page when there is one and it is taken (the
        page then stands at the text that edit began from, so a colleague's change since is not overwritten
        silently), else the page's text."""
        from folio.services.review.writing import same_text

        writing = services.writing
        draft = writing.draft(page)
        if draft is None:
            return page.markdown, page
        if same_text(draft.text, page.markdown):  # the page holds it already
            writing.drop(page)
            return page.markdown, page
        age = _age(time.time() - draft.saved_at) if draft.saved_at else "earlier"
        print(f"You have an unsent edit of “{_printable(page.title)}” ({page.where}), from {age}.", file=sys.stderr)
        changed = draft.base and not same_text(draft.base, page.markdown)
        if changed:
            print(
                "The page changed since that edit began: sending it will show their change and ask for --force.",
                file=sys.stderr,
            )
        if self.args.yes or _ask("Continue your unsent edit? [Y/n] ", default=True):
            return draft.text, replace(page, markdown=draft.base or page.markdown, revision=draft.revision)
        kept = _save_aside(draft.text, page)
        writing.drop(page)
        print(f"Your unsent edit is set aside in {kept}; starting from the page as it is now.", file=sys.stderr)
        return page.markdown, page

    # -- edit, show, confirm, send -------------------------------------------------------------------------------

    async def _edit(self, services: Services, page: EditedPage, start: str) -> int:
        from folio.services.editor import EditorMissing, edit_text
        from folio.services.review.writing import same_text

        writing = services.writing
        print(f"Editing “{_printable(page.title)}” ({page.where})…", file=sys.stderr, flush=True)
        try:
            text = edit_text(start, name=(page.path or page.title).replace("/", "-"))
        except EditorMissing as exc:
            return _say(f"folio: {_printable(str(exc))} Nothing was sent.", EXIT_USAGE)
        except RuntimeError as exc:
            return _say(f"folio: {_printable(str(exc))} Nothing was sent.", EXIT_REFUSED)
        if same_text(text, page.markdown):
            if start != page.markdown:  # an unsent edit undone: nothing of it is left to send
                writing.drop(page)
            print(NOTHING_CHANGED)
            return EXIT_OK
        writing.keep(page, text)
        _print_diff(writing.diff(page, text), f"{page.title} ({page.where})", "your edit")
        new = page.change_request is None
        subject = (self.args.subject or _default_subject(page.title)) if new else None
        target = f"a new change request “{subject}”" if new else f"change request #{page.number}"
        if not self.args.yes:
            if not _interactive():
                return _say(
                    f"folio: this is not a terminal, so sending into {_printable(target)} cannot be confirmed: "
                    f"nothing was sent. {self._kept()} {self._again()}",
                    EXIT_USAGE,
                )
            if not _ask(f"Send into {_printable(target)}? [y/N] ", default=False):
                return _say(f"Not sent. {self._kept()}", EXIT_REFUSED)
        return await self._send(services, page, text, subject)

    async def _send(self, services: Services, page: EditedPage, text: str, subject: str | None) -> int:
        from folio.api.errors import ApiError, Unauthorized
        from folio.services.errors import Invalid, Refusal
        from folio.services.reconcile import NotDone
        from folio.services.review.writing import MovedOn, NothingChanged, same_text

        writing = services.writing
        try:
            if page.change_request is None and not self.args.force:
                # a new change request starts from the main content as it is now: an edit begun on an older text
                # of the page (an unsent edit of an earlier run, a long wait at the question) would replace
                # what changed since without a word
                theirs = await self._main_now(services, page)
                if theirs is None or not same_text(theirs, page.markdown):
                    gone = "the page was deleted there" if theirs is None else "someone changed this page"
                    return self._moved(f"The main content moved on since your edit began: {gone}.", theirs, text)
            sent = await writing.send(page, text, subject=subject, force=self.args.force)
        except NothingChanged:
            print(NOTHING_CHANGED)
            return EXIT_OK
        except MovedOn as moved:
            return self._moved(moved.describe(), moved.theirs, text)
        except NotDone as exc:
            return _say(f"folio: {_printable(exc.describe(), 600)} {self._kept()}", EXIT_REFUSED)
        except Invalid as exc:
            return _say(f"folio: {_printable(exc.describe(), 600)} Nothing was sent. {self._kept()}", EXIT_USAGE)
        except Refusal as exc:
            return _say(f"folio: {_printable(exc.describe(), 600)} Nothing was sent. {self._kept()}", EXIT_REFUSED)
        except Unauthorized as exc:
            message = f"folio: the service refused the token: {_printable(exc.describe())}. {self._kept()}"
            return _say(message, EXIT_USAGE)
        except ApiError as exc:
            message = f"folio: the edit was not sent: {_printable(exc.describe(), 600)}. {self._kept()}"
            return _say(message, EXIT_REFUSED)
        print(_printable(sent.words(), 600))
        if sent.url:
            print(_printable(sent.url, 600))
        return EXIT_OK

    def _moved(self, words: str, theirs: str | None, text: str) -> int:
        """Someone changed the page since the edit began: their page against the edit, and nothing sent."""
        from folio.services.review.diff import diff_markdown

        print(_printable(words, 600), file=sys.stderr)
        if theirs is not None:
            _print_diff(diff_markdown(theirs, text), "their page now", "your edit", out=sys.stderr)
        return _say(
            f"Nothing was sent. {self._kept()} Open it again (answer n to start from their text), or pass --force "
            "to send anyway.",
            EXIT_REFUSED,
        )

    async def _main_now(self, services: Services, page: EditedPage) -> str | None:
        """The page's markdown in the main content now (None: gone)."""
        from folio.api.errors import NotFound

        if page.revision is not None and (await services.client.spaces.get(page.space_id)).revision == page.revision:
            return page.markdown
        try:
            now = await services.client.content.page(page.space_id, page.page_id, format="markdown")
        except NotFound:
            return None
        return now.markdown or ""

    def _again(self) -> str:
        if self.kept_on_disk:
            return "Send it with --yes (your edit is offered first; FOLIO_EDITOR=true sends it as it is)."
        return "Run the command again with --yes."

    def _kept(self) -> str:
        if self.kept_on_disk:
            return "Your edit is kept: `folio edit` of this page offers it again."
        return "Your edit is not kept (nothing is kept on this machine in this run): copy it from the diff above."


# -- the terminal --------------------------------------------------------------------------------------------------


def _interactive() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):
        return False


def _ask(question: str, *, default: bool) -> bool:
    """A yes or no typed on the terminal (``default`` for an empty line; not a terminal: ``default``)."""
    if not _interactive():
        return default
    print(question, end="", file=sys.stderr, flush=True)
    try:
        answer = sys.stdin.readline()
    except (EOFError, OSError):
        return False
    if not answer:  # end of input
        return False
    answer = answer.strip().lower()
    return default if not answer else answer in ("y", "yes")


def _coloured(stream: Any) -> bool:
    try:
        return bool(stream.isatty()) and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError, OSError):
        return False


_COLOURS = {"add": "\x1b[32m", "delete": "\x1b[31m", "hunk": "\x1b[36m", "note": "\x1b[2m"}
_SIGNS = {"add": "+", "delete": "-", "context": " ", "hunk": "", "note": ""}


def _print_diff(diff: MarkdownDiff, before: str, after: str, *, out: Any = None) -> None:
    """The diff, unified, each line made printable; coloured only on a terminal."""
    stream = out if out is not None else sys.stdout
    colour = _coloured(stream)
    bold, reset = ("\x1b[1m", "\x1b[0m") if colour else ("", "")
    print(f"{bold}--- {_printable(before)}{reset}", file=stream)
    print(f"{bold}+++ {_printable(after)}{reset}", file=stream)
    for line in diff.unified:
        text = _SIGNS.get(line.kind, " ") + _line(line.text)
        start = _COLOURS.get(line.kind, "") if colour else ""
        print(f"{start}{text}{reset if start else ''}", file=stream)
    print(f"({diff.summary} lines)", file=stream, flush=True)


# -- words ---------------------------------------------------------------------------------------------------------


def _default_subject(title: str) -> str:
    """``Edit <title>``, cut to the 100 characters a subject may have."""
    from folio.services.review.authoring import SUBJECT_MAX

    subject = f"Edit {title.strip() or 'Untitled'}"
    return subject if len(subject) <= SUBJECT_MAX else subject[: SUBJECT_MAX - 1] + "…"


def _age(seconds: float) -> str:
    if seconds < 90:
        return "a moment ago"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} minutes ago"
    if seconds < 36 * 3600:
        return f"{round(seconds / 3600)} hours ago"
    return f"{round(seconds / 86400)} days ago"


def _save_aside(text: str, page: EditedPage) -> str:
    """An unsent edit the user chose not to continue, written to a file (its path) so it is not lost."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", page.path or page.title).strip("-")[:40] or "page"
    with tempfile.NamedTemporaryFile(
        "w", suffix=".md", prefix=f"folio-unsent-{stem}-", delete=False, encoding="utf-8"
    ) as handle:
        handle.write(text)
    return handle.name


_ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]?|\][^\x07\x1b]*(\x07|\x1b\\)?|.)?")


def _line(text: str) -> str:
    """A line of a page made safe to print: no escape sequences, no control characters but tabs."""
    text = _ESCAPES.sub("", text)
    return "".join(c for c in text if c == "\t" or unicodedata.category(c) not in ("Cc", "Cf", "Cs"))


def _printable(text: str | None, limit: int = 200) -> str:
    """A server string made safe to print (no escape sequences, no control characters), at most ``limit``
    characters."""
    text = _ESCAPES.sub("", text or "")
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf", "Cs") or c == " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _say(message: str, code: int) -> int:
    print(message, file=sys.stderr)
    return code
