"""The OpenAPI specs of an organization (``:specs [words]``): slug, visibility, processing state, when last processed,
the latest version and the source URL; the spec under the cursor in full below the list, with the errors of its
last processing. ``n`` adds one, ``e`` gives it a new source, ``v`` makes it public or private, ``D`` deletes it
(type the slug), ``enter`` opens its versions.

While a spec is being processed its row follows by itself: a look after 2 s, then after twice as long each time
it is still processing, up to every 30 s; nothing is asked while no spec is processing or while another screen
is on top. When processing ends a notification says so, with the errors when it failed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.timer import Timer
from textual.widgets import Static

from folio.models.openapi import OpenAPISpec
from folio.services import format
from folio.services.errors import ServiceError
from folio.services.insights.references import ProcessingWatch, display_state, processing_report
from folio.tui import styles_dir
from folio.tui.context import context_of
from folio.tui.declare import Route
from folio.tui.errors import notify_error
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.site_forms import TypedConfirmModal
from folio.tui.modals.spec_forms import NewSpecForm, SpecSourceForm
from folio.tui.navigation import Ids
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.screens.panel_screen import PanelScreen
from folio.tui.widgets.resource_list import Column, ResourceList, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from textual import events

    from folio.services import Services

__all__ = ["STATE_LOOKS", "SpecsPanel", "SpecsScreen", "state_text"]

SPECS = Route(
    kind="specs",
    noun="OpenAPI specs",
    plural="OpenAPI specs",
    screen="SpecsScreen",
    verbs=("specs", "openapi"),
    find="organization",
    key="P",
    label="API specs",
    hint="Imported OpenAPI descriptions",
    order=10,
    summary="the organization's imported OpenAPI specs: processing, visibility, sources",
)

COLUMNS = (
    Column("slug", "Slug"),
    Column("visibility", "Visibility", 10),
    Column("state", "Processing", 22),
    Column("processed", "Processed", 10),
    Column("version", "Latest", 9),
    Column("source", "Source URL"),
)
STATE_LOOKS = {
    "pending": ("\u25cc pending", "text-warning"),
    "progress": ("\u25d0 in progress", "text-warning"),
    "complete": ("\u2713 complete", "text-success"),
    "failed": ("\u2717 failed", "text-error"),
}
"""Each state's words (with a mark, so it reads without colour) and the theme variable it is coloured with."""


def state_text(spec: OpenAPISpec) -> str:
    """``✗ failed FETCH_TIMEOUT``, ``◌ pending``: the state in words, with the error code of a failed run."""
    state = display_state(spec)
    words = STATE_LOOKS[state][0]
    return f"{words} {spec.last_process_error_code}" if state == "failed" else words


def _bind(key: str, action: str, label: str, name: str, tooltip: str) -> Binding:
    return Binding(key, action, label, id=f"specs.{name}", tooltip=tooltip)


class SpecsPanel(ResourcePanel[OpenAPISpec]):
    """The organization's specs, their keys, and the following of those being processed."""

    org_id: str

    COLUMNS = COLUMNS
    EMPTY = "No OpenAPI spec in this organization yet. Press n to add one from its URL."
    NOUN = "OpenAPI spec"
    ROUTE = "spec"
    BINDINGS: ClassVar[list[BindingType]] = [
        _bind("n", "new_spec", "Add", "new", "Add a spec from the URL of its OpenAPI description"),
        _bind("e", "edit_source", "Source", "source", "Give the spec a new source URL (a new version)"),
        _bind("v", "toggle_visibility", "Visibility", "visibility", "Make the spec public or private"),
        _bind("D", "delete_spec", "Delete", "delete", "Delete the spec (type its slug to confirm)"),
    ]

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.can_add: bool | None = None
        """Whether the caller may add specs here (None: not known yet)."""
        self.following = ProcessingWatch()
        self.paused = False
        self._timer: Timer | None = None
        self._styles: dict[str, str] = {}

    # -- the list ----------------------------------------------------------------------------------------------

    def fetch(self) -> AsyncIterator[Sequence[OpenAPISpec]]:
        return self.services.references.specs_pages(self.org_id)

    def row(self, spec: OpenAPISpec) -> Row:
        state = display_state(spec)
        return Row(
            key=spec.id,
            cells=[
                safe(spec.slug or spec.id, limit=100),
                safe(spec.visibility or "private", limit=20),
                safe(state_text(spec), limit=60),
                format.ago(spec.last_processed_at, unknown="never"),
                safe(spec.last_version[:8], limit=8) if spec.last_version else format.DASH,
                safe(spec.source_url, limit=300) if spec.source_url else "(from text)",
            ],
            search=" ".join(
                [spec.slug, spec.visibility or "", state, spec.last_process_error_code or "", spec.source_url or ""]
            ).lower(),
            style=self._style_of(state),
            data=spec,
        )

    def _style_of(self, state: str) -> str:
        if state == "complete":
            return ""
        if not self._styles:
            variables = self.app.get_css_variables()
            self._styles = {name: variables.get(var, "") for name, (_, var) in STATE_LOOKS.items()}
        return self._styles.get(state, "")

    def opens(self, spec: OpenAPISpec) -> tuple[Ids, str] | None:
        return {"org_id": self.org_id, "slug": spec.slug}, spec.slug

    def item_of(self, spec: OpenAPISpec) -> Item | None:
        url = (spec.urls.published or spec.urls.app) if spec.urls else None
        return Item(spec.id, url, "OpenAPI spec")

    def hint(self) -> str:
        processing = sum(1 for s in self.items if s.is_processing)
        if processing and self._timer is not None:
            return f"Following {format.count(processing, 'spec')} being processed (next look in {self.poll_delay:g} s)"
        if processing and self.paused:
            return f"{format.count(processing, 'spec')} being processed (followed while this screen is shown)"
        return "n adds a spec · enter shows its versions · / filters"

    def why_not(self, action: str) -> str | None:
        if action == "new_spec":
            return "Your role cannot add OpenAPI specs in this organization." if self.can_add is False else None
        if action in ("edit_source", "toggle_visibility", "delete_spec"):
            spec = self.current
            if spec is None:
                return "No OpenAPI spec is selected."
            if spec.permissions is not None and not spec.permissions.edit:
                return "Your role cannot change this spec."
        return None

    def on_mount(self) -> None:
        super().on_mount()
        self._permissions()

    @work(exclusive=True, group="specs-permissions", exit_on_error=False)
    async def _permissions(self) -> None:
        try:
            org = await self.services.browse.organization(self.org_id)
        except ServiceError:  # unknown: the service will say if the add is refused
            return
        self.can_add = org.permissions.create_open_api_spec if org.permissions else None
        self.screen.refresh_bindings()

    def loaded(self, items: list[OpenAPISpec], *, complete: bool) -> None:
        super().loaded(items, complete=complete)
        # A paint from the cache says nothing new; a list cut short by an error cannot say a spec is gone.
        if complete and not self.services.connection.is_cache_only():
            self._settled(items)
            self._schedule()
        self.draw_hint()
        self.show_detail()

    # -- following the processing ----------------------------------------------------------------------------

    @property
    def polling(self) -> bool:
        """Whether a look is scheduled."""
        return self._timer is not None

    @property
    def poll_delay(self) -> float:
        return self.following.delay

    def _settled(self, specs: Sequence[OpenAPISpec]) -> None:
        """Report the specs whose processing ended since they were seen processing."""
        for spec in self.following.ended(specs):
            self._report(spec)

    def _report(self, spec: OpenAPISpec) -> None:
        name = safe(spec.slug, limit=100).plain
        if display_state(spec) == "failed" or spec.has_errors:
            report = safe(processing_report(spec), limit=1500, multiline=True).plain
            self.notify(f"{name}: processing failed.\n{report}", severity="error", timeout=12, markup=False)
        else:
            self.notify(f"{name}: processed; its latest version is ready.", timeout=6, markup=False)

    def _schedule(self) -> None:
        if self.paused or not any(s.is_processing for s in self.items):
            self.stop_polling()
            self.following.reset()
            return
        if self._timer is None:
            self._timer = self.set_timer(self.poll_delay, self._look)
        self.draw_hint()

    def stop_polling(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def pause(self) -> None:
        """Another screen is on top: ask nothing until this one is shown again."""
        self.paused = True
        self.stop_polling()
        self.draw_hint()

    def resume(self) -> None:
        self.paused = False
        self.following.reset()
        self._schedule()

    def _look(self) -> None:
        self._timer = None
        self.poll()

    @work(exclusive=True, group="specs-poll", exit_on_error=False)
    async def poll(self) -> None:
        """Read again each spec being processed, update its row, report the ones that ended."""
        fresh: dict[str, OpenAPISpec | None] = {}
        for spec in [s for s in self.items if s.is_processing]:
            try:
                fresh[spec.slug] = await self.services.references.find(self.org_id, spec.slug)
            except ServiceError:  # the next look tries again, a little later
                continue
        if not self.browser.is_attached:
            return
        items = [fresh.get(s.slug, s) for s in self.items]  # None: deleted meanwhile
        self.items = [s for s in items if s is not None]
        self.browser.set_rows([self.row(s) for s in self.items], staged=False)
        self._settled(self.items)
        self.following.looked()
        self._schedule()
        self.draw_hint()
        self.show_detail()
        self.screen.refresh_bindings()

    # -- the spec under the cursor ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield Static(id="spec-detail")

    def on_resource_list_highlighted(self, event: ResourceList.Highlighted) -> None:
        super().on_resource_list_highlighted(event)
        self.show_detail()

    def show_detail(self) -> None:
        spec = self.current
        for line in self.query("#spec-detail").results(Static):  # none once the screen is taken down
            line.update(spec_detail(spec) if spec is not None else Content(""))

    # -- actions -------------------------------------------------------------------------------------------------

    def action_new_spec(self) -> None:
        self.app.push_screen(NewSpecForm(self.services.references, self.org_id), self._added)

    def _added(self, spec: OpenAPISpec | None) -> None:
        if spec is None:
            return
        self.notify(f"Added {safe(spec.slug, limit=100).plain}: the service is processing it.", markup=False)
        self._follow(spec)
        self.reload(keep=spec.id)

    def _follow(self, spec: OpenAPISpec) -> None:
        """A write answered ``spec`` being processed: report when it ends, and look again soon (the wait starts
        over, and the reload that follows schedules it)."""
        if self.following.follow(spec):
            self.stop_polling()

    def action_edit_source(self) -> None:
        spec = self.current
        if spec is not None:
            self.app.push_screen(SpecSourceForm(self.services.references, self.org_id, spec), self._updated)

    def _updated(self, spec: OpenAPISpec | None) -> None:
        if spec is None:
            return
        self.notify(
            f"New source sent for {safe(spec.slug, limit=100).plain}: a new version is processed.", markup=False
        )
        self._follow(spec)
        self.reload(keep=spec.id)

    def action_toggle_visibility(self) -> None:
        spec = self.current
        if spec is None:
            return
        if spec.visibility == "public":
            self._set_visibility(spec, "private")
            return
        name = safe(spec.slug, limit=100).plain
        modal = ConfirmModal(
            Content.assemble("Make ", (name, "bold"), " public?"),
            "Anyone with its public link can then read the description.",
            accept_key="p",
            accept_label="Make public",
        )

        def confirmed(ok: bool | None) -> None:
            if ok:
                self._set_visibility(spec, "public")

        self.app.push_screen(modal, confirmed)

    @work(exclusive=False, group="specs-write", exit_on_error=False)
    async def _set_visibility(self, spec: OpenAPISpec, visibility: str) -> None:
        name = safe(spec.slug, limit=100).plain
        try:
            await self.services.references.set_visibility(
                self.org_id,
                spec.slug,
                "public" if visibility == "public" else "private",
            )
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not make {name} {visibility}")
            return
        self.notify(f"{name} is now {visibility}.", markup=False)
        self.reload(keep=spec.id)

    def action_delete_spec(self) -> None:
        spec = self.current
        if spec is None:
            return
        name = safe(spec.slug, limit=100).plain
        modal = TypedConfirmModal(
            Content.assemble("Delete the OpenAPI spec ", (name, "bold"), "?"),
            spec.slug,
            body="Its versions go with it; pages that show it lose their reference.",
            noun="slug",
        )

        def confirmed(ok: bool | None) -> None:
            if ok:
                self._delete(spec)

        self.app.push_screen(modal, confirmed)

    @work(exclusive=False, group="specs-write", exit_on_error=False)
    async def _delete(self, spec: OpenAPISpec) -> None:
        name = safe(spec.slug, limit=100).plain
        try:
            await self.services.references.delete(self.org_id, spec.slug)
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not delete {name}")
            return
        self.following.forget(spec.slug)
        self.notify(f"Deleted the OpenAPI spec {name}.", markup=False)
        context = context_of(self)
        if context is not None:  # the palette no longer offers it
            context.forget("spec", {"org_id": self.org_id, "slug": spec.slug})
        self.reload()


def spec_detail(spec: OpenAPISpec) -> Content:
    """The spec in full: state (coloured with the theme), when processed, its source, the errors of its last run."""
    state = display_state(spec)
    parts: list[str | Content | tuple[str, str]] = [
        safe(spec.slug, limit=100).stylize("bold"),
        " \u00b7 ",
        safe(spec.visibility or "private", limit=20),
        " \u00b7 ",
        (state_text(spec), f"${STATE_LOOKS[state][1]}"),
        "\n",
        ("processed ", "$text-muted"),
        format.when(spec.last_processed_at, unknown="never"),
    ]
    if spec.source_url:
        parts += [(" \u00b7 source ", "$text-muted"), safe(spec.source_url, limit=300)]
    if spec.has_errors:
        errors = processing_report(spec, most=3, heading=False)
        parts += ["\n", (safe(errors, limit=900, multiline=True).plain, "$text-error")]
    return Content.assemble(*parts)


class SpecsScreen(PanelScreen[SpecsPanel]):
    """``:specs [words]``: the organization's OpenAPI specs (the list opens filtered by the words); the
    processing is followed only while the screen is shown."""

    org_id: str

    ROUTE = SPECS.kind
    CSS_PATH = [styles_dir() / "references.tcss"]
    PANEL = SpecsPanel
    CRUMB = "OpenAPI specs"

    def on_screen_suspend(self, event: events.ScreenSuspend) -> None:
        self.panel.pause()

    def on_screen_resume(self) -> None:  # FolioScreen's runs too (Textual calls both)
        if self.is_mounted and self.query(SpecsPanel):
            self.panel.resume()
