"""``[inbox]`` of config.toml: how often the inbox across every organization is polled, and the sections of the
``:inbox`` screen (gh-dash style: each a title and a filter in words).

    [inbox]
    interval = 60                 # seconds between polls (folio watch, and the TUI while open); at least 15
    watch = true                  # false: the TUI does not poll (folio watch still does)

    [[inbox.sections]]
    title = "Needs my review"
    filter = "awaiting-me"        # words: awaiting-me, mine, outdated, and one status: draft, open, archived,
                                  # merged or all (open when none is given)
    [[inbox.sections]]
    title = "Mine, merged"
    filter = "mine merged"

    sections = inbox_settings(Settings.load()).sections   # SettingsError, naming the key, for a bad value

Without ``[[inbox.sections]]`` the screen has :data:`DEFAULT_SECTIONS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from folio.config.settings import Settings, SettingsError

__all__ = [
    "DEFAULT_INTERVAL",
    "DEFAULT_SECTIONS",
    "MIN_INTERVAL",
    "STATUSES",
    "SWITCHES",
    "InboxSection",
    "InboxSettings",
    "inbox_settings",
    "section_of",
]

DEFAULT_INTERVAL = 60.0
"""Seconds between two polls of the inbox: polite to the service, soon enough for a person."""
MIN_INTERVAL = 15.0
"""No poll comes sooner than this after the one before, whatever the config says."""
MAX_SECTIONS = 9
"""Sections are reached by the keys 1 to 9."""
STATUSES = ("draft", "open", "archived", "merged", "all")
SWITCHES = {"awaiting-me": "awaiting_me", "mine": "mine", "outdated": "outdated"}
"""The words of a filter that narrow it, and the switch of the inbox filter each turns on."""


@dataclass(frozen=True)
class InboxSection:
    """One section of ``:inbox``: its title and its filter (a status and the three switches)."""

    title: str
    status: str = "open"
    awaiting_me: bool = False
    mine: bool = False
    outdated: bool = False

    @property
    def words(self) -> str:
        """The filter as it is written in config.toml: ``awaiting-me``, ``mine merged``."""
        switches = [word for word, name in SWITCHES.items() if getattr(self, name)]
        return " ".join([*switches, *([self.status] if self.status != "open" or not switches else [])])


DEFAULT_SECTIONS = (
    InboxSection("Needs my review", awaiting_me=True),
    InboxSection("Mine", mine=True),
)


@dataclass(frozen=True)
class InboxSettings:
    interval: float = DEFAULT_INTERVAL
    watch: bool = True
    """Whether the TUI polls while it is open (``folio watch`` polls whatever this says)."""
    sections: tuple[InboxSection, ...] = DEFAULT_SECTIONS


def section_of(title: str, words: str) -> InboxSection:
    """The section ``title`` filtered by ``words`` (``"mine merged"``); ValueError naming a word it does not know,
    or two statuses."""
    status: str | None = None
    switches: dict[str, bool] = {}
    for word in words.lower().split():
        if word in SWITCHES:
            switches[SWITCHES[word]] = True
        elif word in STATUSES:
            if status is not None and status != word:
                raise ValueError(f"two statuses ({status} and {word}): give one")
            status = word
        else:
            known = ", ".join([*SWITCHES, *STATUSES])
            raise ValueError(f"{word!r} is not a filter word (known: {known})")
    return InboxSection(title, status or "open", **switches)


def inbox_settings(settings: Settings) -> InboxSettings:
    """``[inbox]`` of ``settings`` (the defaults when there is none). Raises :class:`SettingsError` naming the key
    and what it takes."""
    where = str(settings.path)
    table = settings.extra.get("inbox", {})
    if not isinstance(table, dict):
        raise SettingsError(f"{where}: [inbox] must be a table (interval = 60, watch = true, [[inbox.sections]])")
    interval = table.get("interval", DEFAULT_INTERVAL)
    if isinstance(interval, bool) or not isinstance(interval, int | float) or not MIN_INTERVAL <= interval <= 86400:
        raise SettingsError(f"{where}: inbox.interval must be seconds between {MIN_INTERVAL:.0f} and 86400")
    watch = table.get("watch", True)
    if not isinstance(watch, bool):
        raise SettingsError(f"{where}: inbox.watch must be true or false")
    raw = table.get("sections")
    if raw is None:
        return InboxSettings(float(interval), watch)
    example = '[[inbox.sections]] with title = "Needs my review" and filter = "awaiting-me"'
    if not isinstance(raw, list) or not raw:
        raise SettingsError(f"{where}: inbox.sections must be one or more tables: {example}")
    if len(raw) > MAX_SECTIONS:
        raise SettingsError(f"{where}: inbox.sections has {len(raw)} sections; at most {MAX_SECTIONS} (keys 1 to 9)")
    return InboxSettings(float(interval), watch, tuple(_section(where, n, item) for n, item in enumerate(raw, 1)))


def _section(where: str, number: int, item: Any) -> InboxSection:
    name = f"inbox.sections[{number}]"
    if not isinstance(item, dict):
        raise SettingsError(f'{where}: {name} must be a table: title = "…", filter = "…"')
    title, words = item.get("title"), item.get("filter", "")
    if not isinstance(title, str) or not title.strip() or len(title) > 40:
        raise SettingsError(f"{where}: {name}.title must be a name of 1 to 40 characters")
    if not isinstance(words, str):
        raise SettingsError(f'{where}: {name}.filter must be words such as "awaiting-me" or "mine merged"')
    unknown = sorted(set(item) - {"title", "filter"})
    if unknown:
        raise SettingsError(f"{where}: {name} has {', '.join(unknown)}: a section takes only title and filter")
    try:
        return section_of(title.strip(), words)
    except ValueError as exc:
        raise SettingsError(f"{where}: {name}.filter: {exc}") from None
