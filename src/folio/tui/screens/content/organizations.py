"""The first screen: the organizations the signed-in user belongs to; enter opens one.

Its first frame is painted from the cache when the cache has the list (``services.cached_organizations()``: read
with ``json``, before the HTTP client, pydantic and the models are imported), and the list is read from the service
right after that frame: what a start waits for is Textual and this screen, not the HTTP stack.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Hashable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Header

from folio.services import format
from folio.tui import fresh, styles_dir
from folio.tui.context import context_of
from folio.tui.navigation import Ids
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.screens.panel_screen import PanelScreen
from folio.tui.textual_private import css_update_count
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.resource_list import Column, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from textual.screen import Screen

    from folio.models.organization import Organization
    from folio.services import Services
    from folio.services.first_paint import CachedOrganization, CachedOrganizations, Prefetch

    Org = Organization | CachedOrganization

__all__ = ["FirstFooter", "OrganizationsPanel", "OrganizationsScreen", "organization_row"]

UNKNOWN = format.DASH
COLUMNS = (
    Column("title", "Organization"),
    Column("plan", "Plan", 14),
    Column("type", "Type", 16),
    Column("members", "Members", 8, align="right"),
    Column("created", "Created", 10),
)


def _words(value: str | None) -> str | None:
    """``pro_2024`` -> ``Pro``, ``nonProfit`` -> ``Non profit``: enumerations as a person reads them."""
    if not value:
        return None
    base = value.rsplit("_", 1)[0] if value.rsplit("_", 1)[-1].isdigit() else value
    spaced = "".join(f" {c.lower()}" if c.isupper() else c for c in base).replace("_", " ").replace("-", " ")
    spaced = " ".join(spaced.split())
    return spaced[:1].upper() + spaced[1:]


def organization_row(org: Org) -> Row:
    """The row of one organization, every server string made safe."""
    kind = _words(org.type)
    if kind and org.community_type:
        kind = f"{kind} ({(_words(org.community_type) or '').lower().replace(' ', '-')})"
    # The organization resource carries no member count; billing.paidMembers is the nearest (absent for
    # callers who may not see billing, shown as a dash).
    members = org.billing.paid_members if org.billing else None
    return Row(
        key=org.id,
        cells=[
            safe(org.title or org.id, limit=80),
            safe(_words(org.plan), limit=30) if org.plan else UNKNOWN,
            safe(kind, limit=40) if kind else UNKNOWN,
            f"{members:,.0f}" if members is not None else UNKNOWN,
            format.ago(org.created_at),
        ],
        data=org,
    )


class OrganizationsPanel(ResourcePanel["Org"]):
    """The organizations of the signed-in user; ``J`` joins another one whose email domain admits the user.

    Until the service has answered, the rows may be the cache's (:class:`CachedOrganization`, the fields a row and
    its keys read); the service's :class:`Organization` replace them."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "J",
            "join",
            "Join",
            id="organizations.join",
            tooltip="Join an organization by its id (your email domain must be one it admits)",
        ),
    ]
    COLUMNS = COLUMNS
    EMPTY = "You are not a member of any organization yet. Create or join one on GitBook, then press r to refresh."
    NOUN = "organization"
    FAILED = "Could not load your organizations"
    ROUTE = "organization"
    LOAD_ON_MOUNT = False
    """The first load starts in :meth:`on_mount`: after the first frame when the cache painted it."""

    def __init__(self, services: Services, *, initial: str | None = None, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.initial = initial
        self._done = False
        self._loading_started = False

    def hint(self) -> str:
        if self.failed is None and self.is_mounted and not self.browser.list.loading and self._done:
            return f"{format.count(len(self.items), 'organization')} on {self.services.where}"
        return f"Organizations on {self.services.where}"

    def on_mount(self) -> None:
        if self._started:
            return
        self._started = True
        cached = self.services.cached_organizations() if self.services.connection.reads_cache_first else None
        if self.services.connection.reads_cache_first:
            # The cache's list is read here without the HTTP client (nothing of it is imported yet): the load's
            # own cache pass would read the same answer.
            fresh.cache_pass_done(self, "load", cached.stored_at if cached is not None else None)
        if cached is not None:
            self._paint_first(cached)
            return
        prefetch, self.services.prefetch = self.services.prefetch, None  # one first frame (not :profile's)
        if prefetch is not None and (asked := prefetch.result()) is not None:
            self._paint_first(asked)
        elif prefetch is not None and prefetch.pending:
            self._await_prefetch(prefetch)
        else:  # nothing to show meanwhile: building the client on the loop is quicker
            self.reload()

    def _paint_first(self, organizations: CachedOrganizations) -> None:
        """The first frame shows these rows (the cache's, or the start's prefetch); the service is asked once that
        frame is drawn, through the HTTP client."""
        self.browser.set_rows([organization_row(org) for org in organizations.items], keep=self.initial, staged=False)
        self.items = list(organizations.items)
        context = context_of(self)
        if context is not None and not context.first_frame_drawn:
            context.after_first_frame(partial(self.call_later, self._read_fresh))
        else:  # the app's first frame is drawn already (it said "Loading"), or a bare test app: after these rows'
            self.call_after_refresh(self._read_fresh)

    @work(group="organizations-connect", exit_on_error=False)
    async def _await_prefetch(self, prefetch: Prefetch) -> None:
        """The start's prefetch is still on its way: say the list is loading, and paint it when it comes. One that
        fails or is slower than its ``patience`` is left: the HTTP client asks (and says what is wrong)."""
        self.browser.set_loading(True)
        asked = await asyncio.to_thread(prefetch.wait, prefetch.patience)
        # (``r`` pressed meanwhile started the HTTP client's load: its answer is the one to show)
        if asked is not None and not self._loading_started:
            self.browser.set_loading(False)
            self._paint_first(asked)
        elif not self._loading_started:
            self._read_fresh()

    @work(group="organizations-connect", exit_on_error=False)
    async def _read_fresh(self) -> None:
        """Build the HTTP client in a thread (the screen keeps drawing: the list's header, the footer's keys),
        then read the list from the service."""
        with contextlib.suppress(Exception):  # the load below builds it again, and says what is wrong
            await self.services.connect()
        if not self._loading_started:  # ``r`` meanwhile has read it already
            self.reload()

    def reload(self, *, keep: str | None = None) -> None:
        self._loading_started = True
        super().reload(keep=keep)

    async def fetch(self) -> AsyncIterator[Sequence[Org]]:
        yield await self.services.browse.organizations()

    def row(self, org: Org) -> Row:
        return organization_row(org)

    def opens(self, org: Org) -> tuple[Ids, str] | None:
        return {"org_id": org.id}, org.title or org.id

    def item_of(self, org: Org) -> Item | None:
        return Item(org.id, org.urls.app if org.urls else None, "organization")

    def topics(self) -> tuple[Hashable, ...]:
        return (("organizations",),)

    def action_join(self) -> None:
        """Ask for the organization's id and join it (the list only shows organizations one belongs to)."""
        from folio.tui.modals.text_entry import TextEntryModal  # forms are not needed for the first frame

        access = self.services.access

        async def join(org_id: str) -> object:
            return await access.join(org_id.strip())

        def joined(org_id: str | None) -> None:
            if org_id:
                self.notify(f"Joined the organization {org_id.strip()}.", markup=False)
                self.reload(keep=org_id.strip())

        modal = TextEntryModal(
            "Join an organization: its id (your email domain must be one it admits)",
            join,
            multiline=False,
            send_label="Join",
        )
        self.app.push_screen(modal, joined)

    def loaded(self, items: list[Org], *, complete: bool) -> None:
        super().loaded(items, complete=complete)
        self._done = complete
        self.draw_hint()
        if self.initial and any(org.id == self.initial for org in items):
            self.browser.list.move_to(self.initial)
            self.initial = None
        context = context_of(self)
        if context is not None:  # the app waits for the first screen's answer before less urgent requests
            context.first_screen_shown()


class FirstFooter(KeysFooter):
    """The first screen's footer: its keys are read once the app's first frame is on the terminal (reading the
    screen's bindings and drawing them is a few ms the first frame does without; a frame later, nobody has pressed
    a key yet). Later (``:profile`` builds this screen again) the app's first frame is long drawn, and the keys
    come as on every screen."""

    def bindings_changed(self, screen: Screen[Any]) -> None:
        context = context_of(self)
        if context is not None and not context.first_frame_drawn:
            # in the footer's own context, not the app's
            context.after_first_frame(partial(self.call_later, KeysFooter.bindings_changed, self, screen))
        else:
            super().bindings_changed(screen)


class OrganizationsScreen(PanelScreen[OrganizationsPanel]):
    """Lists the user's organizations: loaded through the resource panel, refreshed with ``r``, opened with
    enter; empty and failed states are said in words. A :class:`PanelScreen` of no scope (no route ids: the route
    table is not read before its frame), with the first screen's footer (:class:`FirstFooter`)."""

    CSS_PATH = [styles_dir() / "organizations.tcss"]
    """The app reads this stylesheet with its own (``FolioApp.CSS_PATH``): the first screen adds no source to parse."""
    PANEL = OrganizationsPanel
    CRUMB = "Organizations"

    def __init__(self, services: Services, *, initial: str | None = None) -> None:
        super().__init__(services)
        self.initial = initial
        self._first_resume = True
        self._css_at_compose: int | None = None

    @on(events.ScreenResume)
    def _styled_as_mounted(self, event: events.ScreenResume) -> None:
        """Its first time on screen: every widget was styled as it mounted, by the stylesheet as it is now (the
        app's CSS has not changed since: no theme was chosen in between), and Textual would style each again (a
        sixth of what the first frame waits for). Later resumes are :class:`FolioScreen`'s to decide."""
        if self._first_resume:
            self._first_resume = False
            if self._css_at_compose == css_update_count(self.app):
                event.refresh_styles = False

    def make_panel(self) -> OrganizationsPanel:
        return OrganizationsPanel(self.services, initial=self.initial, id="organizations")

    def compose(self) -> ComposeResult:
        """PanelScreen's, with :class:`FirstFooter` for its footer."""
        self._css_at_compose = css_update_count(self.app)  # (a theme, a CSS reload changes it)
        yield Header(icon="")
        yield self.make_panel()
        yield FirstFooter()

    @property
    def organizations(self) -> list[Org]:
        return self.panel.items

    def organization_in_view(self) -> str | None:
        """The organization under the cursor: ``:members`` and the other organization commands open its screens."""
        org = self.panel.current if self.is_mounted else None
        return org.id if org is not None else None

    @property
    def org_trail(self) -> tuple[str, ...]:
        """The trail of a screen opened for the organization under the cursor."""
        org = self.panel.current if self.is_mounted else None
        return (*self.trail, org.title or org.id) if org is not None else self.trail

    def action_back(self) -> None:
        """The first screen: there is nothing to go back to (``q`` quits)."""

    def why_not(self, action: str) -> str | None:
        if action == "back":
            return "This is the first screen: q quits."
        return None
