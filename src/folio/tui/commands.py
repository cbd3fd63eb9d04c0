"""The command palette's providers (``ctrl+p``), and the list of a screen's keys the help overlay shares.

    ScreenActions   every action the current screen offers now (its bindings and its focused widgets'),
                    by description, with its key; choosing one runs it
    GoTo            any organization, space, change request or site already loaded (``app.loaded``, filled by
                    the screens through ``remember``): a jump, which ``-`` undoes
    FolioCommands   both, in that order: the app's provider

Titles come from the service: hits are built as :class:`~textual.content.Content` from ``safe()`` text, never
through Textual's markup-parsing helpers (``Matcher.highlight`` parses its argument as markup).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from textual.app import App
from textual.command import DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.content import Content
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen

from folio.tui.actions import action_name

if TYPE_CHECKING:
    from folio.tui.app import FolioApp

__all__ = ["FolioCommands", "GoTo", "KeyEntry", "ScreenActions", "key_entries"]

HIDDEN_ACTIONS = {"command_palette", "app.command_palette"}
"""Actions the palette does not list (opening itself)."""

DISCOVER_LIMIT = 40
"""Loaded things listed before anything is typed (typing searches all of them)."""


class KeyEntry(NamedTuple):  # (defined before the first frame: see folio.cache.records)
    """One action and every key bound to it, as the palette and the help overlay show it."""

    keys: list[str]
    description: str
    tooltip: str
    id: str
    action: str
    node: DOMNode
    enabled: bool
    where: str
    """``screen`` (the screen's own), ``widget`` (a focused widget's) or ``app`` (works on every screen)."""

    @property
    def everywhere(self) -> bool:
        return self.where == "app"

    @property
    def key_text(self) -> str:
        return ", ".join(self.keys)

    def run(self, app: App[Any]) -> Any:
        """Run the action where it is bound (an awaitable)."""
        return app.run_action(self.action, self.node)


def _describe(action: str) -> str:
    name = action.rsplit(".", 1)[-1].replace("_", " ").strip()
    return name[:1].upper() + name[1:]


def key_entries(screen: Screen[Any], order: tuple[str, ...] = ("screen", "widget", "app")) -> list[KeyEntry]:
    """The active bindings of ``screen`` (with its focused widget's), one entry per action, grouped in
    ``order`` (the screen's own, the focused widgets', the app-wide ones)."""
    app = screen.app
    entries: dict[tuple[int, str, str], KeyEntry] = {}
    for active in screen.active_bindings.values():
        binding = active.binding
        if binding.system:
            continue
        group = (id(active.node), binding.action, binding.id or "")
        display = app.get_key_display(binding)
        entry = entries.get(group)
        if entry is None:
            entries[group] = KeyEntry(
                keys=[display],
                description=binding.description or _describe(binding.action),
                tooltip=_tooltip(active, binding),
                id=binding.id or "",
                action=binding.action,
                node=active.node,
                enabled=active.enabled,
                where="app" if active.node is app else "screen" if active.node is screen else "widget",
            )
        elif display not in entry.keys:
            entry.keys.append(display)
    # Within a group, ours (they have ids) before Textual's own (focus next, copy...), then in binding order.
    return sorted(entries.values(), key=lambda e: (order.index(e.where) if e.where in order else len(order), not e.id))


def _tooltip(active: Any, binding: Any) -> str:
    """The binding's tooltip; for one greyed out, why it cannot act now (``folio.tui.actions``)."""
    text = active.tooltip or binding.tooltip or ""
    if active.enabled:
        return str(text)
    why = getattr(active.node, "why_not", None)
    reason = why(action_name(binding.action)) if callable(why) else None
    return f"{reason} ({text})" if reason and text else str(reason or text)


def highlight(matcher: Matcher, text: str, style: str = "") -> Content:
    """``text`` (already plain and safe) with the letters the query matched underlined; never parsed as markup."""
    content = Content.styled(text, style) if style else Content(text)
    score, offsets = matcher.fuzzy_search.match(matcher.query, text)
    if not score:
        return content
    for offset in offsets:
        if not text[offset].isspace():
            content = content.stylize("underline", offset, offset + 1)
    return content


def _help(text: str) -> str:
    # Hit.help is typed as markup text, but the palette passes Content through untouched: a tooltip is ours,
    # yet it is shown as plain text all the same.
    return cast(str, Content(text))


def _action_hits(provider: Provider, query: str | None) -> Iterator[Hit | DiscoveryHit]:
    """The screen's actions (all of them when ``query`` is None), with their keys."""
    matcher = provider.matcher(query) if query is not None else None
    for entry in key_entries(provider.screen, order=("screen", "app", "widget")):
        if not entry.enabled or entry.action in HIDDEN_ACTIONS:
            continue
        command = partial(entry.run, provider.app)
        help_text = _help(entry.tooltip) if entry.tooltip else None
        key = ("  " + entry.key_text, "dim")
        if matcher is None:
            display = Content.assemble(Content(entry.description), key)
            yield DiscoveryHit(display, command, text=entry.description, help=help_text)
        elif (score := matcher.match(entry.description)) > 0:
            display = Content.assemble(highlight(matcher, entry.description), key)
            yield Hit(score, display, command, text=entry.description, help=help_text)


def _go_to_hits(provider: Provider, query: str | None) -> Iterator[Hit | DiscoveryHit]:
    """What is loaded, latest first (the first few when ``query`` is None)."""
    from folio.tui import routes

    if isinstance(provider.screen, ModalScreen):
        return  # a jump would pull the screen from under a dialog that waits for an answer
    app = cast("FolioApp", provider.app)
    candidates = app.candidates() if hasattr(app, "candidates") else []
    matcher = provider.matcher(query) if query is not None else None
    for index, candidate in enumerate(candidates):
        found = routes.route(candidate.kind)
        noun = found.title if found is not None else candidate.kind.replace("-", " ").capitalize()
        command = partial(app.go_to, candidate.kind, candidate.key)
        text, help_text = f"{noun}: {candidate.title}", _help(f"Go to this {noun.lower()}")
        if matcher is None:
            if index >= DISCOVER_LIMIT:
                return
            display = Content.assemble((f"{noun}: ", "dim"), Content(candidate.title))
            yield DiscoveryHit(display, command, text=text, help=help_text)
            continue
        score = max(matcher.match(candidate.title), matcher.match(f"{noun} {candidate.title}") * 0.9)
        if score > 0:
            display = Content.assemble((f"{noun}: ", "dim"), highlight(matcher, candidate.title))
            yield Hit(score, display, command, text=text, help=help_text)


def _screen_hits(provider: Provider, query: str) -> Iterator[Hit]:
    """The screens of the organization in view, as their ``:`` commands open them (``Open: Members``): every
    route of ``find="organization"``, from the route table."""
    from folio.tui import routes

    if isinstance(provider.screen, ModalScreen):
        return
    app = cast("FolioApp", provider.app)
    if app.current_organization() is None:
        return
    matcher = provider.matcher(query)
    for found in routes.ROUTES.values():
        if found.find != "organization" or not found.verbs:
            continue
        name = found.label or found.plural[:1].upper() + found.plural[1:]  # (a list: the things it lists)
        text = f"Open: {name}"
        score = max(matcher.match(text), matcher.match(f":{found.verbs[0]}"))
        if score > 0:
            command = partial(_run_command, app, found.verbs[0])
            yield Hit(
                score,
                highlight(matcher, text),
                command,
                text=text,
                help=_help(f"{found.summary[:1].upper()}{found.summary[1:]} (:{found.verbs[0]})"),
            )


def _run_command(app: FolioApp, line: str) -> None:
    """Do what ``:line`` does (a screen of the organization in view), or say why it does nothing."""
    outcome = app.resolve_command(line)
    if isinstance(outcome, str):
        app.notify(outcome, severity="warning", markup=False)
    elif callable(outcome):
        outcome()


def _setting_hits(provider: Provider, query: str | None) -> Iterator[Hit | DiscoveryHit]:
    """The themes and the other profiles (``:theme``, ``:profile``)."""
    app = cast("FolioApp", provider.app)
    choices: list[tuple[str, Any]] = []
    choose: Any = getattr(app, "choose_theme", None)
    for name in getattr(app, "THEME_NAMES", ()) if choose is not None else ():
        if name != getattr(app, "theme_name", None):
            choices.append((f"Theme: {name.replace('-', ' ')}", partial(choose, name)))
    accounts = getattr(app, "accounts", None)
    if accounts is not None:
        for name in accounts.names():
            if name != accounts.current:
                choices.append((f"Profile: {name}", partial(app.run_worker, partial(app.use_profile, name))))
    matcher = provider.matcher(query) if query is not None else None
    for text, command in choices:
        if matcher is None:
            yield DiscoveryHit(Content(text), command, text=text)
        elif (score := matcher.match(text)) > 0:
            yield Hit(score, highlight(matcher, text), command, text=text)


class ScreenActions(Provider):
    """The actions of the screen the palette was opened on, with their keys."""

    async def discover(self) -> Hits:
        for hit in _action_hits(self, None):
            yield hit

    async def search(self, query: str) -> Hits:
        for hit in _action_hits(self, query):
            yield hit


class GoTo(Provider):
    """Jump to anything loaded so far: organizations, spaces, change requests, sites."""

    async def discover(self) -> Hits:
        for hit in _go_to_hits(self, None):
            yield hit

    async def search(self, query: str) -> Hits:
        for hit in _go_to_hits(self, query):
            yield hit


class FolioCommands(Provider):
    """The app's one provider: the screen's actions, then the go-to. One provider, so the hits arrive in the
    same order every time (two providers race, and equal scores keep their arrival order)."""

    async def discover(self) -> Hits:
        for hit in (*_action_hits(self, None), *_go_to_hits(self, None), *_setting_hits(self, None)):
            yield hit

    async def search(self, query: str) -> Hits:
        hits = (*_action_hits(self, query), *_go_to_hits(self, query), *_screen_hits(self, query))
        for hit in (*hits, *_setting_hits(self, query)):
            yield hit
