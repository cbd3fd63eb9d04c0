"""The `:` command line's language, and the fuzzy matching it and the palette's go-to share (pure: no app).

    :org <title>      an organization already loaded        :space <title>    a space already loaded
    :cr <number>      a change request of the current space (or, with only an organization, a loaded one)
    :site <title>     a site already loaded                 :q                quit
    and the verb of every other route (``folio.tui.routes``); a GitBook link pasted (``https://app.gitbook.com/…``,
    a published docs address, ``:open <URL>``) opens its screen (``folio.services.links``)

:func:`parse` turns the typed line into a :class:`Command` or raises :class:`CommandError` (its message is a
sentence for the user); :func:`matches` ranks loaded things against a title; :func:`change_request_number`
reads the number a loaded change request was remembered with.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass

from folio.tui.routes import Route, route_of_verb, verbs_help

__all__ = [
    "HELP",
    "MORE_COMMANDS",
    "Candidate",
    "Command",
    "CommandError",
    "Pending",
    "best",
    "change_request_number",
    "matches",
    "parse",
    "score",
]

_QUIT = {"q", "q!", "qa", "quit"}

HELP = verbs_help()
"""One line naming every command (the command line's placeholder and its error messages), from the routes."""

MORE_COMMANDS: tuple[tuple[str, str, str, str], ...] = (
    (":sweep", "Review sweep", "Walk the review of the change request in view, page by page", ":sweep"),
    (":theme <name>", "Theme", "Use a theme now and keep it in config.toml: dark, light or high-contrast", ":theme"),
    (":profile <name>", "Profile", "Switch to another profile (account) of config.toml", ":profile"),
    (":open <URL>", "Open a link", "Open the screen of a GitBook link (pasting the link alone does too)", ":open"),
    (":q", "Quit", "Leave Folio (no question asked)", ", ".join(f":{verb}" for verb in sorted(_QUIT))),
)
"""The commands that are no route's (usage, title, what it does, the verbs): the ``?`` overlay lists them
after the routes' own."""

_NUMBER = re.compile(r"#?(\d{1,9})")
_LINK = re.compile(r"(https?://|app\.gitbook\.com/|api\.gitbook\.com/)", re.IGNORECASE)


@dataclass(frozen=True)
class Pending:
    """A line that needs a look at the service before it acts (``:cr 99`` in a space without #99): ``check``
    says why not in words (None: go on), then ``then`` runs."""

    check: Callable[[], Awaitable[str | None]]
    then: Callable[[], object]
    looking: str = "Looking…"


class CommandError(ValueError):
    """A line that is not a command; ``str(error)`` says why, in words."""


@dataclass(frozen=True)
class Command:
    """A parsed line: ``verb`` and its argument (a title to match, or a change request's number)."""

    verb: str
    """The route's first verb (``org``, ``space``, ``cr``, ``members``), or ``quit``."""
    argument: str = ""

    @property
    def route(self) -> Route | None:
        """The route the verb reaches (None for ``quit``, ``profile`` and ``theme``)."""
        return route_of_verb(self.verb) if self.verb not in ("quit", "profile", "theme", "open") else None

    @property
    def number(self) -> int:
        """The change request number of a ``:cr`` command."""
        return int(self.argument)


def parse(line: str) -> Command:
    """``":space user guide"`` -> ``Command("space", "user guide")``; raises :class:`CommandError` otherwise."""
    text = " ".join(line.split())
    text = text.removeprefix(":").strip()
    if not text:
        raise CommandError(f"Type a command: {HELP}")
    word, _, argument = text.partition(" ")
    if _LINK.match(text):
        return Command("open", text.split(" ")[0])  # a link pasted: its screen
    if word.lower() == "open":
        if not _LINK.match(argument):
            raise CommandError(":open needs a GitBook link, e.g. :open https://app.gitbook.com/o/…")
        return Command("open", argument.split(" ")[0])
    if word.lower() in _QUIT:
        if argument:
            raise CommandError(":q takes nothing after it.")
        return Command("quit")
    if word.lower() in ("profile", "theme"):
        if not argument:
            raise CommandError(
                f":{word.lower()} needs a name, e.g. :{word.lower()} {'work' if word.lower() == 'profile' else 'light'}"
            )
        return Command(word.lower(), argument)
    found = route_of_verb(word)
    if found is None:
        raise CommandError(f"Unknown command “{_shorten(word)}”. Commands: {HELP}")
    verb = found.verbs[0]
    if not argument and found.find in ("title", "number"):
        example = "42" if found.find == "number" else "a title"
        needs = "a number" if found.find == "number" else "a title"
        raise CommandError(f":{verb} needs {needs}, e.g. :{verb} {example}")
    if found.find == "number":
        number = _NUMBER.fullmatch(argument)
        if number is None or int(number.group(1)) == 0:
            raise CommandError(f"“{_shorten(argument)}” is not a change request number: try :{verb} 42")
        return Command(verb, str(int(number.group(1))))
    return Command(verb, argument)


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- fuzzy matching ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """Something loaded that a title can match: its ``kind`` and ``key`` (as remembered) and its title."""

    kind: str
    key: str
    title: str


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def score(query: str, title: str) -> float:
    """How well ``query`` names ``title``, 0 (not at all) to 1 (exactly), case and spacing ignored.

    Exact 1.0 · prefix 0.9 · every query word starts a title word 0.8 · substring 0.7 · the query's letters in
    order (a subsequence) 0.1-0.5, the tighter the better."""
    q, t = _fold(query), _fold(title)
    if not q or not t:
        return 0.0
    if q == t:
        return 1.0
    if t.startswith(q):
        return 0.9
    title_words = t.split()
    if all(any(w.startswith(part) for w in title_words) for part in q.split()):
        return 0.8
    if q in t:
        return 0.7
    compact = q.replace(" ", "")
    position, first, last = 0, -1, -1
    for char in compact:
        found = t.find(char, position)
        if found < 0:
            return 0.0
        first = found if first < 0 else first
        last, position = found, found + 1
    spread = last - first + 1
    return 0.1 + 0.4 * len(compact) / spread


def matches(query: str, candidates: Iterable[Candidate], *, kind: str | None = None) -> list[Candidate]:
    """The candidates (of ``kind``, if given) that ``query`` matches, best first, then by title."""
    scored = [(score(query, c.title), c) for c in candidates if kind is None or c.kind == kind]
    ranked = sorted((pair for pair in scored if pair[0] > 0), key=lambda pair: (-pair[0], _fold(pair[1].title)))
    return [c for _, c in ranked]


def best(query: str, candidates: Sequence[Candidate], *, kind: str | None = None) -> Candidate | None:
    """The one candidate ``query`` names: an exact title, else the best match when it clearly leads."""
    ranked = matches(query, candidates, kind=kind)
    if not ranked:
        return None
    if len(ranked) == 1 or score(query, ranked[0].title) > score(query, ranked[1].title):
        return ranked[0]
    return None


_LEADING_NUMBER = re.compile(r"\s*#(\d+)\b")
_TRAILING_NUMBER = re.compile(r"[/:#](\d+)$")


def change_request_number(candidate: Candidate) -> int | None:
    """The number of a remembered change request: from a title such as ``#42 Fix typos`` or a key ending
    in ``/42`` (``<space id>/42``), or a key that is the number itself."""
    found = _LEADING_NUMBER.match(candidate.title)
    if found:
        return int(found.group(1))
    if candidate.key.isdigit():
        return int(candidate.key)
    found = _TRAILING_NUMBER.search(candidate.key)
    return int(found.group(1)) if found else None
