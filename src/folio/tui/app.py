"""The Textual application: the theme and global keys, the header's breadcrumbs, and the first screen."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen

from folio.tui import styles_dir
from folio.tui.safe import safe
from folio.tui.screens.organizations import OrganizationsScreen

if TYPE_CHECKING:
    from folio.services import Services

__all__ = ["CRUMB", "FolioApp"]

CRUMB = "\u203a"
"""Joins the segments of a breadcrumb trail in a screen's ``sub_title``."""


class FolioApp(App[None]):
    """Folio's TUI. Takes its services ready-made (``folio.cli`` wires them) and opens on the organizations.

    ``keymap`` (binding id -> keys, from the config's ``[keymap]``) remaps any binding that has an id.
    ``start`` (for tests and jumps) builds the first screen instead of the organizations.
    """

    TITLE = "Folio"
    CSS_PATH = [styles_dir() / "app.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", id="app.quit", tooltip="Leave Folio"),
    ]

    def __init__(
        self,
        services: Services,
        *,
        keymap: Mapping[str, str] | None = None,
        organization: str | None = None,
        start: Callable[[], Screen[Any]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.services = services
        self.organization = organization
        self.start = start
        self.loaded: dict[tuple[str, str], tuple[str, Callable[[], Screen[Any]]]] = {}
        self.sub_title = services.where
        if keymap:
            self.set_keymap(dict(keymap))

    # -- loaded resources, for the palette's go-to ----------------------------------------------------------

    def remember(self, kind: str, key: str, title: str, open_screen: Callable[[], Screen[Any]]) -> None:
        """Keep a loaded resource (an organization, space, change request or site) for the palette's go-to."""
        self.loaded[(kind, key)] = (title, open_screen)

    def action_previous_screen(self) -> None:
        """``-``: back to the screen before (the palette's jumps refine this)."""
        if len(self.screen_stack) > 2:
            self.pop_screen()

    def on_mount(self) -> None:
        if self.start is not None:
            self.push_screen(self.start())
        else:
            self.push_screen(OrganizationsScreen(self.services.browse, initial=self.organization))

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header as breadcrumbs, ``Folio > Organizations``: a screen's ``sub_title`` is its trail,
        segments joined by :data:`CRUMB` (they may hold server strings, so each goes through ``safe``)."""
        parts: list[str | Content | tuple[str, str]] = [(title, "bold")]
        for segment in (s.strip() for s in sub_title.split(CRUMB)) if sub_title else ():
            if segment:
                parts += [(f" {CRUMB} ", "dim"), safe(segment, limit=60)]
        return Content.assemble(*parts)
