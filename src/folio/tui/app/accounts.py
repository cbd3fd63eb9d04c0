"""The app's part that changes who and how: another profile (account) at run time with ``:profile <name>``, and
the theme (dark, light, high contrast), chosen in config.toml or from the palette and remembered.

The launcher (``folio.cli_tui.Launcher``) builds the services of a profile and keeps the theme in config.toml;
the app only knows it through :class:`Accounts`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from textual.theme import Theme

from folio.tui.app.keeping import Keeping
from folio.tui.app.watching import Watching

if TYPE_CHECKING:
    from folio.services import Services
    from folio.tui.jump import Pending

__all__ = ["THEMES", "Accounts", "Choosing"]

HIGH_CONTRAST = Theme(
    name="folio-high-contrast",
    primary="#FFFF00",
    secondary="#00FFFF",
    accent="#FFFF00",
    foreground="#FFFFFF",
    background="#000000",
    surface="#000000",
    panel="#202020",
    boost="#FFFFFF",
    warning="#FFFF55",
    error="#FF5555",
    success="#55FF55",
    dark=True,
)
THEMES = {"dark": "textual-dark", "light": "textual-light", "high-contrast": HIGH_CONTRAST.name}
"""Folio's theme names (config.toml's ``theme``) and Textual's themes behind them."""


class Accounts(Protocol):
    """What the app asks of whoever launched it."""

    current: str

    def names(self) -> list[str]: ...

    def services_for(self, name: str | None, *, first: bool = False) -> Services: ...

    def remember_theme(self, theme: str) -> str | None: ...


class Choosing(Keeping, Watching):
    """``:profile`` and the theme (a part of :class:`FolioApp`)."""

    accounts: Accounts | None
    theme_name: str
    THEME_NAMES = tuple(THEMES)

    def resolve_command(self, line: str) -> Pending | Callable[[], object] | str:
        """``:profile <name>`` and ``:theme <name>`` here; every other line as the command line says."""
        from folio.tui.jump import CommandError, parse

        try:
            command = parse(line)
        except CommandError:
            return super().resolve_command(line)
        if command.verb == "profile":
            problem = self.profile_problem(command.argument)
            return problem if problem else lambda: self.run_worker(self.use_profile(command.argument))
        if command.verb == "theme":
            name = command.argument.lower().replace(" ", "-")
            return (lambda: self.choose_theme(name)) if name in THEMES else f"Themes: {', '.join(THEMES)}."
        return super().resolve_command(line)

    # -- the theme ---------------------------------------------------------------------------------------------

    def start_theme(self, name: str) -> None:
        self.register_theme(HIGH_CONTRAST)
        self.theme_name = name if name in THEMES else "dark"
        self.theme = THEMES[self.theme_name]

    def choose_theme(self, name: str) -> None:
        """Use theme ``name`` now and keep it in config.toml."""
        if name not in THEMES:
            self.notify(f"No theme is called {name!r}: {', '.join(THEMES)}.", severity="warning", markup=False)
            return
        self.theme_name = name
        self.theme = THEMES[name]
        problem = self.accounts.remember_theme(name) if self.accounts is not None else None
        if problem:
            self.notify(problem, severity="warning", markup=False)
        else:
            self.notify(f"Theme: {name.replace('-', ' ')}.", timeout=2, markup=False)

    # -- the profile -------------------------------------------------------------------------------------------

    @property
    def profile(self) -> str | None:
        return self.accounts.current if self.accounts is not None else None

    def profile_problem(self, name: str) -> str | None:
        """Why ``:profile name`` cannot switch, in words (None: it can)."""
        if self.accounts is None:
            return "Profiles are not available here."
        names = self.accounts.names()
        if name not in names:
            return f"No profile is called “{name[:40]}”. Profiles: {', '.join(names)}."
        if name == self.accounts.current:
            return f"Folio is using the profile {name} already."
        return None

    async def use_profile(self, name: str) -> None:
        """Leave this account's screens and open the organizations of profile ``name``."""
        if self.accounts is None or (problem := self.profile_problem(name)):
            self.notify(problem or "Profiles are not available here.", severity="warning", markup=False)
            return
        try:
            services = self.accounts.services_for(name)
        # broad: the launcher (folio.cli, above the TUI) raises its own LaunchError and config errors, unnamed here
        except Exception as exc:
            self.notify(str(exc) or type(exc).__name__, title="Profile", severity="error", markup=False)
            return
        from folio.tui.screens.content.organizations import OrganizationsScreen

        old = self.services
        self.save_session()
        self.services = services
        self.loaded.clear()
        self.before_jump = []
        self.sub_title = services.where
        self.start_connectivity()
        self.start_inbox_watch()  # (this profile's inbox; the other's watch is let go)
        await self._set_stack([OrganizationsScreen(services)])
        self.notify(f"Profile {name}: {services.where}.", timeout=3, markup=False)
        if old.local is not None:
            old.local.close()
        await old.aclose()
