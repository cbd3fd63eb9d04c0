"""``folio ls orgs|spaces|crs|members|sites|specs [SCOPE]``: the common lists, for a terminal, a script or a picker.

    folio ls orgs                                             a table on a terminal, tab-separated lines in a pipe
    folio ls spaces "Northwind Labs" --json | jq -r '.[].title'
    folio ls crs --awaiting-me --json | jq -r '.[] | .urls.app'
    folio ls crs "User Guide" --status all --format tsv | fzf | cut -f1

SCOPE is the organization (its id or title; default: ``--org``, else the profile's ``organization``, else the only
one you belong to); for ``crs`` it is a space of it (id or title; without one, every space of the organization).
Every page of the list is read (a progress line on stderr while a long list is read, on a terminal only).

What is read comes from the local cache first, when every page of it is there (what the TUI or an earlier ``ls``
read, through the same requests); ``--fresh`` asks the service. ``--json`` prints a JSON array of the service's
shapes (as Folio's models read them: camelCase, absent fields left out); ``--format tsv`` prints one line per item,
fields in the fixed order of :data:`KINDS` (id first), tabs and control characters taken out of the values; the
default is a table on a terminal and tab-separated lines otherwise. Nothing but the list goes to stdout, and
nothing but errors to stderr when stdout is not a terminal.

Exit codes: 0 listed (an empty list too), 1 the service refused or could not be reached (or, offline, the list
was never seen), 2 bad usage, no token, or a scope that names no organization or space of yours.
Heavy modules (httpx, pydantic, the models) are imported when the command runs, not when the parser is built.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO, TypeVar

from folio.cli_conversations import _printable

if TYPE_CHECKING:
    from folio.api.pagination import Paginator
    from folio.config.logging import DebugLog
    from folio.config.settings import Resolved
    from folio.models.organization import Organization
    from folio.models.space import Space
    from folio.services import Services
    from folio.services.local import Local

__all__ = ["KINDS", "add_parser", "run"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
T = TypeVar("T")
STATUSES = ("draft", "open", "archived", "merged")
"""A change request's statuses (``--status``; ``all`` is every one of them)."""
SPACES_LIMIT = 1000
"""Spaces per request: the organization screen's (so its cached pages answer ``ls spaces``)."""
CHANGE_REQUESTS_LIMIT = 1000
"""Change requests per request: the inbox's and the space screen's."""
PAGE_SIZE = 100
"""Members and specs per request: their screens' (``folio.services.people``, ``folio.services.insights``)."""
FLEX_LEAST, COMFORT, LEAST = 16, 10, 6
"""A narrow terminal's table: the flexible column keeps 16 cells while the others give way to 10, then to 6."""
SITES_LIMIT = 1000
"""Sites per request: the sites panel's (``folio.services.sites``: the API's most)."""


class Kind(NamedTuple):
    noun: str
    """What one is called (``change request``)."""
    nouns: str
    columns: tuple[str, ...]
    """The fields of ``--format tsv``, in order (the table's columns are these, less ``url``)."""
    flex: str
    """The table's column that gives way when the terminal is narrow."""


KINDS: dict[str, Kind] = {
    "orgs": Kind("organization", "organizations", ("id", "title", "url"), "title"),
    "spaces": Kind(
        "space", "spaces", ("id", "title", "visibility", "collection", "open_crs", "updated", "url"), "title"
    ),
    "crs": Kind(
        "change request",
        "change requests",
        ("id", "space", "number", "status", "subject", "author", "updated", "url"),
        "subject",
    ),
    "members": Kind("member", "members", ("id", "name", "email", "role", "joined", "last_seen"), "name"),
    "sites": Kind("site", "sites", ("id", "title", "published", "visibility", "url"), "title"),
    "specs": Kind("OpenAPI spec", "OpenAPI specs", ("id", "slug", "state", "version", "updated", "url"), "slug"),
}
"""Each list: its words, its tab-separated fields in their fixed order, and the table's flexible column."""

HEADERS = {"number": "#", "open_crs": "open", "last_seen": "seen"}
"""The table's header of a field, where it is not the field's name (in capitals)."""
COLUMNS_HELP = "\n".join(f"  {name:<8} {'  '.join(kind.columns)}" for name, kind in KINDS.items())


class Unusable(Exception):
    """The command cannot be done as asked (an unknown scope, a filter for another list): exit 2, in words."""


# -- arguments -----------------------------------------------------------------------------------------


def add_parser(commands: Any, common: Callable[..., None]) -> None:
    """Add ``ls`` to the top-level subcommands (``common`` adds --profile/--base-url/--debug/--insecure)."""
    ls = commands.add_parser(
        "ls",
        help="list organizations, spaces, change requests, members, sites or OpenAPI specs (--json, --format tsv)",
        description="List what an organization holds, every page of it, read from the local cache first\n"
        "(--fresh asks the service).\n\n"
        "SCOPE is the organization (id or title; default: --org, else the profile's, else the only one\n"
        "you belong to); for crs it is a space (id or title; default: every space of the organization).\n\n"
        "Exit 0 listed, 1 the service refused or could not be reached, 2 bad usage, no token, or an\n"
        "unknown organization or space.",
        epilog="--format tsv prints one line per item, tab-separated, in this fixed order (id first, for fzf and "
        "cut; times in UTC, ISO 8601):\n" + COLUMNS_HELP + "\n\nExamples:\n"
        "  folio ls crs --awaiting-me --json | jq -r '.[] | \"\\(.id)\\t\\(.subject)\"'\n"
        "  folio ls spaces --org 'Northwind Labs' --format tsv | fzf -d '\\t' --with-nth=2 | cut -f1",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ls.add_argument("kind", choices=tuple(KINDS), metavar="WHAT", help="orgs, spaces, crs, members, sites or specs")
    ls.add_argument(
        "scope",
        nargs="?",
        metavar="SCOPE",
        help="the organization (id or title); for crs, a space (id or title)",
    )
    ls.add_argument(
        "--org",
        metavar="ORG",
        default=None,
        help="the organization (id or title; default: the profile's, else the only one you belong to)",
    )
    shown = ls.add_mutually_exclusive_group()
    shown.add_argument(
        "--json",
        dest="format",
        action="store_const",
        const="json",
        help="a JSON array of the service's shapes (same as --format json)",
    )
    shown.add_argument(
        "--format",
        dest="format",
        choices=("table", "tsv", "json"),
        default=None,
        help="table (the default on a terminal), tsv (the default otherwise: the fields below) or json",
    )
    ls.add_argument("--fresh", action="store_true", help="ask the service, not the local cache")
    ls.add_argument(
        "--status",
        choices=(*STATUSES, "all"),
        default=None,
        help="crs: the change requests of this status (default: open; all: every status)",
    )
    ls.add_argument(
        "--awaiting-me",
        action="store_true",
        help="crs: only those whose review is asked of you and that you have not reviewed yet",
    )
    ls.add_argument("--mine", action="store_true", help="crs: only those you created")
    common(ls, top=False)


def _usage_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments that argparse cannot see, in words (None: nothing)."""
    if args.kind != "crs":
        for given, flag in ((args.status, "--status"), (args.awaiting_me, "--awaiting-me"), (args.mine, "--mine")):
            if given:
                return f"{flag} filters change requests: use it with `folio ls crs`, not `ls {args.kind}`."
    if args.kind == "orgs" and (args.scope or args.org):
        return "`folio ls orgs` lists every organization of yours: it takes no organization."
    if args.kind != "crs" and args.scope and args.org and args.scope != args.org:
        return f"give the organization once: SCOPE ({args.scope!r}) or --org ({args.org!r}), not both."
    return None


# -- entry point -------------------------------------------------------------------------------------


def run(args: argparse.Namespace, log: DebugLog | None) -> int:
    """``folio ls``: the exit code."""
    problem = _usage_problem(args)
    if problem is not None:
        return _say(f"folio: {problem}", EXIT_USAGE)
    from folio import cli
    from folio.config.settings import TOKEN_ENV
    from folio.services import Services

    shown = args.format or ("table" if _is_terminal(sys.stdout) else "tsv")
    talk = _is_terminal(sys.stdout) and _is_terminal(sys.stderr)
    local: Local | None = None
    default_org: str | None
    if args.demo:
        client, demo_org = cli._demo_client()
        services, default_org = Services(client, where="the demo sandbox"), demo_org
    else:
        settings, resolved = cli._resolve(args, log)
        if resolved.token is None:
            return _say(cli.NO_TOKEN.format(problem=resolved.problem, config=settings.path, env=TOKEN_ENV), 2)
        services, local = _services(args, resolved)
        default_org = resolved.organization
    try:
        return asyncio.run(_main(services, args, default_org, shown, Progress(sys.stderr if talk else None)))
    finally:
        if local is not None:
            local.close()


def _services(args: argparse.Namespace, resolved: Resolved) -> tuple[Services, Local | None]:
    """The services of the resolved profile, over its account's cache (none with ``--no-cache``)."""
    from folio import cli
    from folio.cli_tui import API_BASE_URL, service_url
    from folio.config.paths import paths
    from folio.services import Services

    assert resolved.token is not None
    url, secret = resolved.base_url or API_BASE_URL, resolved.token.strip()
    local: Local | None = None
    if not args.no_cache:
        from folio.services.local import Local

        folders = paths()
        local = Local(
            cache_dir=folders.cache_dir, state_dir=folders.state_dir, base_url=service_url(url), secret=secret
        )
        local.open_known()
    return Services(where=url, local=local, connect=partial(cli._client, url, secret)), local


async def _main(
    services: Services, args: argparse.Namespace, default_org: str | None, shown: str, progress: Progress
) -> int:
    from folio.api.errors import ApiError

    kind = KINDS[args.kind]
    reader = Reader(services, fresh=args.fresh, progress=progress)
    try:
        if args.offline:
            services.client.set_offline("asked")
        elif services.local is not None and services.local.account is None:
            await services.me()  # whose token this is: what is read is then kept in that account's cache
        items, titles = await _read(reader, args, default_org, shown)
    except Unusable as exc:
        return _say(f"folio: {exc}", EXIT_USAGE)
    except ApiError as exc:
        return _say(f"folio: could not list the {kind.nouns}: {_printable(exc.describe(), 400)}", EXIT_FAILED)
    finally:
        progress.done()
        await services.aclose()
    if reader.stored and progress.stream is not None:
        from folio.services.format import cached_age

        progress.stream.write(f"({cached_age(min(reader.stored))}: --fresh asks the service)\n")
    try:
        _write(sys.stdout, args.kind, items, shown, titles)
    except BrokenPipeError:
        # The reader of the pipe has gone (``| head``): what it did not read is not an error. stdout is pointed
        # at devnull so that the interpreter's last flush does not fail on the closed pipe again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return EXIT_OK


def _write(out: TextIO, kind: str, items: list[Any], shown: str, titles: dict[str, str]) -> None:
    if shown == "json":
        dumped = [item.model_dump(mode="json", by_alias=True, exclude_none=True) for item in items]
        out.write(json.dumps(dumped, indent=2, ensure_ascii=False) + "\n")
    elif shown == "tsv":
        for item in items:
            out.write("\t".join(_tsv(value) for value in fields(kind, item)) + "\n")
    else:
        out.write(table(kind, items, titles=titles, width=_width()))
    out.flush()


# -- reading -------------------------------------------------------------------------------------------


class Progress:
    """``Reading change requests… 2,000`` on one line of ``stream`` while a list of several pages is read (None:
    silent); :meth:`done` takes it away."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream
        self.shown = False

    def show(self, nouns: str, count: int) -> None:
        if self.stream is None:
            return
        self.stream.write(f"\r\x1b[KReading {nouns}… {count:,}")
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        if self.stream is not None and self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


class Reader:
    """Reads lists to their last page: from the account's cache when every page of it is there (unless
    ``fresh``), else from the service (which keeps what it sends in the cache). ``stored`` collects when the
    cached answers used were kept."""

    def __init__(self, services: Services, *, fresh: bool, progress: Progress) -> None:
        self.services = services
        self.fresh = fresh
        self.progress = progress
        self.stored: list[float] = []

    async def items(self, nouns: str, make: Callable[[], Paginator[Any]]) -> list[Any]:
        """Every item of the list ``make()`` pages through."""
        return await self.cache_first(lambda: self._walk(nouns, make()))

    async def cache_first(self, read: Callable[[], Awaitable[T]]) -> T:
        """``await read()`` answered by the cache alone, else (something was not there) by the service."""
        connection = self.services.connection
        if not self.fresh and connection.keeps_cache and not connection.offline:
            from folio.api.errors import NotCached

            try:
                with connection.cache_only(), connection.freshness() as seen:
                    found = await read()
            except NotCached:
                pass  # (some page was not kept: the service is asked for the whole list)
            else:
                self.stored.extend(seen.stored)
                return found
        return await read()

    async def _walk(self, nouns: str, paginator: Paginator[Any]) -> list[Any]:
        found: list[Any] = []
        async for page in paginator.pages():
            found.extend(page.items)
            if page.next_page is not None:
                self.progress.show(nouns, len(found))
        return found

    async def me(self) -> str:
        """The signed-in user's id."""
        user = await self.cache_first(self.services.me)
        return str(user.id)


async def _read(
    reader: Reader, args: argparse.Namespace, default_org: str | None, shown: str
) -> tuple[list[Any], dict[str, str]]:
    """The items of ``args.kind`` in the scope asked for, and (for a table of change requests) the titles of
    their spaces."""
    client = reader.services.client
    if args.kind == "orgs":
        return await reader.items("organizations", client.organizations.list), {}
    if args.kind == "crs":
        return await _change_requests(reader, args, default_org, shown)
    org_id = await _organization(reader, args.scope or args.org, default_org)
    makers: dict[str, Callable[[], Paginator[Any]]] = {
        "spaces": lambda: client.spaces.list(org_id, limit=SPACES_LIMIT),
        "members": lambda: client.members.list(org_id, sort="joinedAt", limit=PAGE_SIZE),
        "sites": lambda: client.sites.list(org_id, limit=SITES_LIMIT),
        "specs": lambda: client.openapi.list(org_id, limit=PAGE_SIZE),
    }
    return await reader.items(KINDS[args.kind].nouns, makers[args.kind]), {}


async def _organizations(reader: Reader) -> list[Organization]:
    return await reader.items("organizations", reader.services.client.organizations.list)


async def _organization(reader: Reader, wanted: str | None, default: str | None) -> str:
    """The id of the organization ``wanted`` names (id or title), else of ``default``, else of the only one."""
    if not wanted and default:
        return default
    organizations = await _organizations(reader)
    if wanted:
        return str(_pick(wanted, organizations, "organization", _org_label).id)
    if len(organizations) == 1:
        return organizations[0].id
    if not organizations:
        raise Unusable("you belong to no organization: there is nothing to list.")
    raise Unusable(
        f"give --org: you belong to {len(organizations)} organizations: {_labels(organizations, _org_label)}"
    )


def _org_label(org: Organization) -> str:
    return f"{_printable(org.title, 80)} ({_printable(org.id, 40)})"


def _space_label(space: Space) -> str:
    return f"{_printable(space.title, 80)} ({_printable(space.id, 40)})"


def _labels(things: Sequence[Any], label: Callable[[Any], str], most: int = 10) -> str:
    return ", ".join(label(t) for t in things[:most]) + (", …" if len(things) > most else "")


def _pick(wanted: str, things: Sequence[Any], noun: str, label: Callable[[Any], str]) -> Any:
    """The one of ``things`` whose id is ``wanted``, else whose title is (case aside); :class:`Unusable` when
    none is, or several are."""
    for thing in things:
        if thing.id == wanted:
            return thing
    named = [t for t in things if (t.title or "").casefold() == wanted.casefold()]
    if len(named) == 1:
        return named[0]
    if named:
        raise Unusable(f"{len(named)} {noun}s are titled {_printable(wanted, 80)!r}: give the id of one: "
                       f"{_labels(named, label)}")  # fmt: skip
    known = _labels(things, label) if things else "none"
    raise Unusable(f"no {noun} of yours is {_printable(wanted, 80)!r} (by id or title); yours: {known}")


async def _space(reader: Reader, wanted: str, org: str | None, default_org: str | None) -> Space:
    """The space ``wanted`` names (id or title) in the organization ``org`` names, else in ``default_org``, else
    in any of yours."""
    client = reader.services.client
    if org or default_org:
        org_ids = [await _organization(reader, org, default_org)]
    else:
        org_ids = [o.id for o in await _organizations(reader)]
    spaces: list[Space] = []
    for org_id in org_ids:
        spaces += await reader.items("spaces", partial(client.spaces.list, org_id, limit=SPACES_LIMIT))
    return _pick(wanted, spaces, "space", _space_label)  # type: ignore[no-any-return]


async def _change_requests(
    reader: Reader, args: argparse.Namespace, default_org: str | None, shown: str
) -> tuple[list[Any], dict[str, str]]:
    client = reader.services.client
    status = args.status or "open"
    statuses = STATUSES if status == "all" else (status,)
    me = await reader.me() if args.awaiting_me or args.mine else None
    reviewer = me if args.awaiting_me else None
    creator = me if args.mine else None
    if args.scope:
        space = await _space(reader, args.scope, args.org, default_org)
        found: dict[str, Any] = {}
        for one in statuses:  # (a space's list takes one status: the space screen's reads, one per status)
            make = partial(
                client.change_requests.list,
                space.id,
                status=one,
                requested_reviewer=reviewer,
                creator=creator,
                limit=CHANGE_REQUESTS_LIMIT,
            )
            for cr in await reader.items("change requests", make):
                found.setdefault(cr.id, cr)
        epoch = datetime.min.replace(tzinfo=UTC)
        ordered = sorted(found.values(), key=lambda cr: cr.updated_at or epoch, reverse=True)
        return ordered, {space.id: space.title}
    org_id = await _organization(reader, args.org, default_org)
    make = partial(
        client.change_requests.list_for_organization,
        org_id,
        status=list(statuses),
        requested_reviewer=reviewer,
        creator=creator,
        limit=CHANGE_REQUESTS_LIMIT,
    )
    crs = await reader.items("change requests", make)
    titles: dict[str, str] = {}
    if shown == "table" and crs:  # the table names the spaces (the fields and the JSON keep their ids)
        from folio.api.errors import ApiError

        try:
            spaces = await reader.items("spaces", partial(client.spaces.list, org_id, limit=SPACES_LIMIT))
        except ApiError:
            spaces = []  # (the ids are shown instead)
        titles = {s.id: s.title for s in spaces}
    return crs, titles


# -- output --------------------------------------------------------------------------------------------


def fields(kind: str, item: Any) -> list[str | datetime | None]:
    """The values of ``item`` in the order of ``KINDS[kind].columns`` (a time as a datetime; None: unknown)."""
    urls = getattr(item, "urls", None)
    app = (urls.app or urls.location) if urls is not None else None
    if kind == "orgs":
        return [item.id, item.title, app]
    if kind == "spaces":
        return [item.id, item.title, item.visibility, item.parent, str(item.change_requests_open), item.updated_at,
                app]  # fmt: skip
    if kind == "crs":
        author = (item.created_by.display_name or item.created_by.id) if item.created_by else None
        return [item.id, item.space, str(item.number), item.status, item.subject, author, item.updated_at, app]
    if kind == "members":
        return [item.id, item.user.display_name, item.user.email, item.role or "guest", item.joined_at,
                item.last_seen_at]  # fmt: skip
    if kind == "sites":
        published = item.published_url or app
        return [item.id, item.title, "yes" if item.published else "no", item.visibility, published]
    return [item.id, item.slug, item.processing_state, item.last_version, item.updated_at, app]


def _tsv(value: str | datetime | None) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        moment = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return _printable(value, 2000)


def table(kind: str, items: Sequence[Any], *, titles: dict[str, str] | None = None, width: int = 100) -> str:
    """``items`` as a table for people, at most ``width`` columns wide (the flexible column gives way): times
    as ages, no URLs, the spaces of change requests by title when ``titles`` knows them."""
    from folio.services.format import ago, now

    spec = KINDS[kind]
    if not items:
        return f"No {spec.nouns}.\n"
    keep = [i for i, name in enumerate(spec.columns) if name != "url"]
    header = [HEADERS.get(spec.columns[i], spec.columns[i]).upper() for i in keep]
    at = now()
    rows: list[list[str]] = []
    for item in items:
        values = fields(kind, item)
        if kind == "crs" and titles and isinstance(values[1], str):
            values[1] = titles.get(values[1], values[1])
        row = []
        for i in keep:
            value = values[i]
            row.append(ago(value, at) if isinstance(value, datetime) else _printable(value, 120) or "-")
        rows.append(row)
    widths = [max(_cells(r[c]) for r in [header, *rows]) for c in range(len(keep))]
    flex = [spec.columns[i] for i in keep].index(spec.flex)
    _narrow(widths, flex, width - 2 * (len(widths) - 1))
    lines = ["  ".join(_fit(cell, widths[c]) for c, cell in enumerate(r)).rstrip() for r in [header, *rows]]
    return "\n".join(lines) + "\n"


def _narrow(widths: list[int], flex: int, room: int) -> None:
    """Narrow the columns' ``widths`` to fit ``room`` cells: the others to ``COMFORT`` first, then the flexible one
    to ``FLEX_LEAST``, then the others to ``LEAST`` (the first, the id, stays whole; a terminal too narrow even
    then gets lines that wrap)."""
    others = [c for c in range(1, len(widths)) if c != flex]
    for columns, least in ((others, COMFORT), ([flex], FLEX_LEAST), (others, LEAST), ([flex], LEAST)):
        while sum(widths) > room:
            widest = max(columns, key=lambda c: widths[c], default=None)
            if widest is None or widths[widest] <= least:
                break
            widths[widest] -= 1


def _cells(text: str) -> int:
    from rich.cells import cell_len

    return cell_len(text)


def _fit(text: str, width: int) -> str:
    """``text`` in exactly ``width`` cells: cut with ``…`` when longer, padded when shorter."""
    from rich.cells import cell_len, set_cell_size

    if cell_len(text) > width:
        text = set_cell_size(text, width - 1) + "…"
    return set_cell_size(text, width)


def _width() -> int:
    import shutil

    return shutil.get_terminal_size((100, 24)).columns


def _is_terminal(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


def _say(message: str, code: int) -> int:
    print(message, file=sys.stderr)
    return code
