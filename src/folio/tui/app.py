"""The Textual application: the theme and global keys, the header's breadcrumbs, and the first screen."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.content import Content

from folio.tui import styles_dir
from folio.tui.safe import safe
from folio.tui.screens.organizations import OrganizationsScreen

if TYPE_CHECKING:
    from folio.services.browse import BrowseService

__all__ = ["CRUMB", "FolioApp"]

CRUMB = "\u203a"
"""Joins the segments of a breadcrumb trail in a screen's ``sub_title``."""


class FolioApp(App[None]):
    """Folio's TUI. Takes its services ready-made (``folio.cli`` wires them) and opens on the organizations.

    ``keymap`` (binding id -> keys, from the config's ``[keymap]``) remaps any binding that has an id.
    """

    TITLE = "Folio"
    CSS_PATH = [styles_dir() / "app.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", id="app.quit", tooltip="Leave Folio"),
    ]

    def __init__(
        self,
        browse: BrowseService,
        *,
        keymap: Mapping[str, str] | None = None,
        organization: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.browse = browse
        self.organization = organization
        self.sub_title = browse.where
        if keymap:
            self.set_keymap(dict(keymap))

    def on_mount(self) -> None:
        self.push_screen(OrganizationsScreen(self.browse, initial=self.organization))

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header as breadcrumbs, ``Folio > Organizations``: a screen's ``sub_title`` is its trail,
        segments joined by :data:`CRUMB` (they may hold server strings, so each goes through ``safe``)."""
        parts: list[str | Content | tuple[str, str]] = [(title, "bold")]
        for segment in (s.strip() for s in sub_title.split(CRUMB)) if sub_title else ():
            if segment:
                parts += [(f" {CRUMB} ", "dim"), safe(segment, limit=60)]
        return Content.assemble(*parts)
