"""An OpenAPI spec's versions, and a version's files.

SpecScreen          the spec in a line, where it is used (from cached pages), its versions newest first, each by
                    its description's own version (``info.version``) and its id, the latest marked; ``enter``
                    opens a version's files, ``space`` marks a version (and moves down) and ``d`` on another
                    compares the two
SpecVersionScreen   a version's files as a tree beside the file under the cursor (shown as text, drawn a
                    screenful at a time); or, comparing two versions, the operations (method and path) added,
                    removed and changed, then the files added, removed and changed beside the diff of the one
                    under the cursor (``s`` side by side, ``n``/``N`` next change)
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Header, Log, Static

from folio.services import format
from folio.services.errors import ServiceError
from folio.services.insights.references import FileChange, SpecFile, Usages, file_tree
from folio.services.review.diff import diff_markdown
from folio.tui import styles_dir
from folio.tui.declare import Route
from folio.tui.errors import error_message
from folio.tui.navigation import Ids, Open
from folio.tui.safe import safe
from folio.tui.screens.base import FolioScreen, Item
from folio.tui.screens.insights.specs import spec_detail
from folio.tui.screens.panel_screen import PanelScreen
from folio.tui.widgets.diff_view import DiffView
from folio.tui.widgets.footer import KeysFooter
from folio.tui.widgets.resource_list import Column, ResourceList, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from folio.models.openapi import OpenAPISpec, OpenAPISpecContent, OpenAPISpecVersion
    from folio.services import Services

__all__ = ["SpecScreen", "SpecVersionScreen", "VersionsPanel", "usage_text"]

SPEC = Route(
    kind="spec",
    noun="OpenAPI spec",
    screen="SpecScreen",
    ids=("org_id", "slug"),
    verbs=("spec",),
    find="title",
    order=11,
    summary="an OpenAPI spec: its versions, where it is used; compare two versions",
)

SPEC_VERSION = Route(
    kind="spec-version",
    noun="OpenAPI spec version",
    screen="SpecVersionScreen",
    ids=("org_id", "slug", "version_id"),
    optional=("base",),
    go_to=False,
    order=12,
    summary="a version of an OpenAPI spec: its files, or the changes from another version",
)

MAX_TEXT = 20_000_000
"""Characters of a file shown; a longer file is cut here, and says so."""
MAX_LINE = 10_000
"""Characters of a line shown (a longer line ends with an ellipsis)."""
SIDE_BY_SIDE_MIN = 120


def short(version_id: str) -> str:
    return safe(version_id, limit=40).plain[:8]


def usage_text(usages: Usages) -> str:
    """Where the spec is used, in words, saying how much of the organization the cache covered."""
    if usages.spaces_total is None:
        return "Where it is used: not known yet (open the organization's spaces first: only cached pages are read)."
    covered = f"the cached pages of {usages.spaces_read} of {format.count(usages.spaces_total, 'space')}"
    if not usages.pages:
        return f"Used on no page, from {covered}."
    shown = "; ".join(f"{u.space_title} \u203a {u.page_title}" for u in usages.pages[:4])
    more = f"; and {len(usages.pages) - 4} more" if len(usages.pages) > 4 else ""
    return f"Used on {format.count(len(usages.pages), 'page')}: {shown}{more} (from {covered})."


class VersionsPanel(ResourcePanel["OpenAPISpecVersion"]):
    """The spec's versions, newest first; the latest is marked, and one may be marked to compare."""

    org_id: str

    COLUMNS = (
        Column("mark", "", 2),
        Column("version", "Version", 12),
        Column("id", "Id", 10),
        Column("created", "Created", 11),
        Column("latest", "", 7),
        Column("url", "Where it is read from"),
    )
    EMPTY = "This spec has no version yet: it is made when the service has fetched the source."
    NOUN = "version"
    ROUTE = SPEC_VERSION.kind
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "mark", "Mark", id="spec.mark", tooltip="Mark this version to compare another with it"),
        Binding("d", "compare", "Compare", id="spec.compare", tooltip="Compare this version with the marked one"),
    ]

    def __init__(self, services: Services, org_id: str, slug: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.slug = slug
        self.spec: OpenAPISpec | None = None
        self.marked: str | None = None
        self.labels: dict[str, str] = {}
        """Each version's own version string (the description's ``info.version``), once its content was read."""

    def compose(self) -> ComposeResult:
        yield Static(id="spec-summary")
        yield Static(Content("Where it is used: looking in the cached pages…"), id="spec-usage")
        yield from super().compose()

    async def fetch(self) -> AsyncIterator[Sequence[OpenAPISpecVersion]]:
        refs = self.services.references
        self.spec, versions = await asyncio.gather(
            refs.get(self.org_id, self.slug), refs.versions(self.org_id, self.slug)
        )
        self._summary()
        yield versions

    @property
    def latest(self) -> str | None:
        if self.spec is not None and self.spec.last_version:
            return self.spec.last_version
        return self.items[0].id if self.items else None

    def row(self, version: OpenAPISpecVersion) -> Row:
        return Row(
            key=version.id,
            cells=[
                "\u25cf" if version.id == self.marked else "",
                safe(self.labels[version.id], limit=40) if version.id in self.labels else format.DASH,
                safe(version.id, limit=40),
                format.ago(version.created_at),
                "latest" if version.id == self.latest else "",
                safe(version.url, limit=300) if version.url else format.DASH,
            ],
            style="bold" if version.id == self.marked else "",
            data=version,
        )

    def opens(self, version: OpenAPISpecVersion) -> tuple[Ids, str] | None:
        ids = {"org_id": self.org_id, "slug": self.slug, "version_id": version.id, "base": None}
        return ids, f"version {short(version.id)}"

    def item_of(self, version: OpenAPISpecVersion) -> Item | None:
        return Item(version.id, version.url, "version")

    def hint(self) -> str:
        if self.marked:
            return f"Marked {short(self.marked)}: d on another version compares them · space unmarks"
        return "enter shows a version's files · space marks one, d on another compares them"

    def why_not(self, action: str) -> str | None:
        if action == "mark":
            return self.needs_current(action)
        if action == "compare":
            if self.current is None:
                return "No version is selected."
            if self.marked is None:
                return "Mark a version with space first, then press d on another."
            if self.marked == self.current.id:
                return "This is the marked version: press d on another one."
        return None

    def loaded(self, items: list[OpenAPISpecVersion], *, complete: bool) -> None:
        super().loaded(items, complete=complete)
        if complete and self.marked is not None and all(v.id != self.marked for v in items):
            self.marked = None
        self.draw_hint()
        if complete and any(v.id not in self.labels for v in items):
            self._read_labels([v.id for v in items])

    @work(exclusive=True, group="spec-version-labels", exit_on_error=False)
    async def _read_labels(self, version_ids: list[str]) -> None:
        """Each version's ``info.version``, read from its content (a version that gives none keeps a dash)."""
        labels = await self.services.references.version_labels(self.org_id, self.slug, version_ids)
        if labels.items() - self.labels.items():
            self.labels.update(labels)
            self._redraw()

    def _redraw(self) -> None:
        self.browser.set_rows([self.row(v) for v in self.items], staged=False)
        self.draw_hint()
        self.screen.refresh_bindings()

    def _summary(self) -> None:
        spec = self.spec
        if spec is None:
            return
        for line in self.query("#spec-summary").results(Static):
            line.update(spec_detail(spec))

    def show_usage(self, text: str) -> None:
        for line in self.query("#spec-usage").results(Static):
            line.update(safe(text, limit=600))

    def action_mark(self) -> None:
        """Mark or unmark the version under the cursor and move down one row (as marking members does)."""
        version = self.current
        if version is not None:
            self.marked = None if self.marked == version.id else version.id
            self._redraw()
            self.browser.list.action_cursor_down()
            self.draw_hint()
            self.screen.refresh_bindings()

    def action_compare(self) -> None:
        version = self.current
        if version is None or self.marked is None or self.marked == version.id:
            return
        order = [v.id for v in self.items]  # newest first: the later index is the older version
        older, newer = sorted((self.marked, version.id), key=order.index, reverse=True)
        ids = {"org_id": self.org_id, "slug": self.slug, "version_id": newer, "base": older}
        self.post_message(Open("spec-version", ids, title=f"{short(older)} \u2192 {short(newer)}"))


class SpecScreen(PanelScreen[VersionsPanel]):
    """``:spec <slug>``: spec ``slug`` of organization ``org_id``: its summary and where it is used (both above
    the list, in its panel), its versions."""

    org_id: str
    slug: str

    ROUTE = SPEC.kind
    CSS_PATH = [styles_dir() / "references.tcss"]
    PANEL = VersionsPanel

    def __init__(self, services: Services, org_id: str, slug: str, *, trail: tuple[str, ...] = ()) -> None:
        super().__init__(services, org_id, slug, title=slug, trail=trail)  # its crumb: the slug, made safe

    def make_panel(self) -> VersionsPanel:
        # Not the route's kind as its id: the panel's own line of the spec is ``spec-summary``, the id the
        # base panel would give its hint.
        return VersionsPanel(self.services, self.org_id, self.slug, id="spec-versions")

    def on_mount(self) -> None:  # PanelScreen's runs too (Textual calls both)
        self._usages()

    @work(exclusive=True, group="spec-usages", exit_on_error=False)
    async def _usages(self) -> None:
        try:
            usages = await self.services.references.usages(self.org_id, self.slug)
        except ServiceError as exc:
            self.panel.show_usage(error_message(exc, doing="Where it is used could not be read").plain)
            return
        self.panel.show_usage(usage_text(usages))

    def action_refresh(self) -> None:
        self.panel.reload()
        self._usages()


# --- a version's files, or two versions compared ----------------------------------------------------------------


@dataclass(frozen=True)
class FileRow:
    """A row of the files list: a folder, a file of the version, or a file of a comparison."""

    path: str
    file: SpecFile | None = None
    change: FileChange | None = None


CHANGE_MARK = {"added": "+", "removed": "-", "changed": "~", "same": " "}


class FilesPanel(ResourcePanel[FileRow]):
    """The files of a version, as a tree with their lengths."""

    COLUMNS: ClassVar[Sequence[Column]] = (Column("path", "File"), Column("lines", "Lines", 7, align="right"))
    EMPTY = "This version has no file."
    NOUN = "file"

    def __init__(self, screen: SpecVersionScreen, *, id: str | None = None) -> None:
        super().__init__(screen.services, id=id)
        self.owner = screen

    async def fetch(self) -> AsyncIterator[Sequence[FileRow]]:
        yield await self.owner.rows()

    def row(self, item: FileRow) -> Row:
        if item.change is not None:
            change = item.change
            cells: list[Content | str] = [CHANGE_MARK[change.status], safe(change.path, limit=300), change.status]
            return Row(item.path, cells, style="dim" if change.status == "same" else "", data=item)
        name, depth = item.path.rsplit("/", 1)[-1], item.path.count("/")
        if item.file is None:
            return Row(item.path, [safe(name + "/", limit=200), ""], style="bold", indent=depth, data=item)
        label = name + (" (entry)" if item.file.entry else "")
        return Row(item.path, [safe(label, limit=200), f"{item.file.lines:,}"], indent=depth, data=item)

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        self.owner.focus_viewer()


class ChangedFilesPanel(FilesPanel):
    """The files of two versions compared, each with what happened to it."""

    COLUMNS = (Column("mark", "", 1), Column("path", "File"), Column("status", "Change", 7))
    EMPTY = "Neither version has a file."


class SpecVersionScreen(FolioScreen):
    """``version_id`` of a spec: its files; with ``base``, the files of ``base`` -> ``version_id`` compared.

    Not a :class:`~folio.tui.screens.panel_screen.PanelScreen`: its list of files is one half of the screen, beside
    the file (or the diff) under the cursor, under a summary of the version; the list reads its rows from the
    screen (:meth:`rows`), and ``enter`` on a file moves to the viewer rather than opening a route."""

    org_id: str

    ROUTE = SPEC_VERSION.kind
    CSS_PATH = [styles_dir() / "references.tcss"]
    AUTO_FOCUS = "ResourceList"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "layout", "Layout", id="spec-version.layout", tooltip="The diff unified or side by side"),
        Binding("n", "next_change", "Next change", id="spec-version.next", tooltip="The next change of the file"),
        Binding(
            "N", "previous_change", "Previous", show=False, id="spec-version.previous", tooltip="The change before"
        ),
    ]

    def __init__(
        self,
        services: Services,
        org_id: str,
        slug: str,
        version_id: str,
        *,
        base: str | None = None,
        trail: tuple[str, ...] = (),
    ) -> None:
        super().__init__(services, trail=trail)
        self.org_id = org_id
        self.slug = slug
        self.version_id = version_id
        self.base = base
        self.content: OpenAPISpecContent | None = None
        self.shown: str | None = None
        self.crumb = f"{short(base)} \u2192 {short(version_id)}" if base else f"version {short(version_id)}"

    def compose(self) -> ComposeResult:
        yield Header(icon="")
        yield Static(id="version-summary")
        with Horizontal(id="version-body"):
            yield (ChangedFilesPanel if self.base else FilesPanel)(self, id="version-files")
            yield DiffView(id="version-diff") if self.base else Log(id="version-text", auto_scroll=False)
        yield KeysFooter()

    @property
    def files(self) -> FilesPanel:
        return self.query_one(FilesPanel)

    async def rows(self) -> list[FileRow]:
        """The list's rows, read through the service (the files panel's fetch)."""
        refs = self.services.references
        if self.base:
            comparison = await refs.comparison(self.org_id, self.slug, self.base, self.version_id)
            changes = comparison.files
            counts = {k: sum(1 for c in changes if c.status == k) for k in ("changed", "added", "removed", "same")}
            words = ", ".join(f"{n} {k}" for k, n in counts.items() if n) or "no file"
            operations = (
                comparison.operations.summary()
                if comparison.operations is not None
                else "Operations: not compared (an entry file is not a description Folio can read)."
            )
            self._say(f"From {short(self.base)} to {short(self.version_id)}: {words}.\n{operations}")
            return [FileRow(c.path, change=c) for c in changes]
        self.content, files = await refs.version_files(self.org_id, self.slug, self.version_id)
        by_path = {f.path: f for f in files}
        url = self.content.source_url or self.content.public_url
        self._say(f"{format.count(len(files), 'file')} · content at {url or 'no URL given'} (Y copies it)")
        return [FileRow(path, file=by_path.get(path)) for path, _name, _depth, _folder in file_tree(by_path)]

    def _say(self, text: str) -> None:
        self.query_one("#version-summary", Static).update(safe(text, limit=900, multiline=True))

    @on(ResourceList.Highlighted)
    def _highlighted(self, event: ResourceList.Highlighted) -> None:
        item: FileRow | None = event.row.data if event.row else None  # type: ignore[assignment]
        if item is not None and item.path != self.shown:
            self.shown = item.path
            self._show(item)

    @work(exclusive=True, group="spec-version-file", exit_on_error=False)
    async def _show(self, item: FileRow) -> None:
        if item.change is not None:
            view = self.query_one(DiffView)
            change = item.change
            if change.status == "same":
                view.show(None, "No change to this file.")
                return
            before, after = change.before, change.after
            diff = await asyncio.to_thread(lambda: diff_markdown(_clean(before), _clean(after)))
            if diff.changed:
                view.show(diff)
            else:
                view.show(None, "No change to this file's text.")
            return
        log = self.query_one(Log)
        log.clear()
        if item.file is None:
            log.write_line(safe(f"{item.path}/ is a folder: pick a file.", limit=300).plain)
            return
        if item.file.lines > 10_000:
            log.write_line(f"Preparing {item.file.lines:,} lines…")
        lines = await asyncio.to_thread(_lines, item.file.text)
        if self.shown == item.path:
            log.clear()
            log.write_lines(lines, scroll_end=False)
            log.scroll_home(animate=False)

    def focus_viewer(self) -> None:
        self.query_one(DiffView if self.base else Log).focus()

    def current_item(self) -> Item | None:
        url = (self.content.source_url or self.content.public_url) if self.content else None
        return Item(self.version_id, url, "version content")

    def action_refresh(self) -> None:
        self.shown = None
        self.files.reload()

    def why_not(self, action: str) -> str | None:
        if action in ("layout", "next_change", "previous_change") and not self.base:
            return "Only when comparing two versions (space on one, d on another, in the versions)."
        if action == "layout" and self.size.width < SIDE_BY_SIDE_MIN:
            return f"Side by side needs {SIDE_BY_SIDE_MIN} columns or more."
        return None

    def action_layout(self) -> None:
        view = self.query_one(DiffView)
        view.side_by_side = not view.side_by_side

    def action_next_change(self) -> None:
        if not self.query_one(DiffView).jump(+1):
            self.notify("No change further down this file.", timeout=2, markup=False)

    def action_previous_change(self) -> None:
        if not self.query_one(DiffView).jump(-1):
            self.notify("No change further up this file.", timeout=2, markup=False)


def _clean(text: str | None) -> str | None:
    return None if text is None else safe(text[:MAX_TEXT], limit=MAX_TEXT, multiline=True).plain


def _lines(text: str) -> list[str]:
    """The file's lines made safe (off the event loop: a large file takes a moment). A line of printable ASCII
    has nothing to remove; any other goes through ``safe``."""
    lines = [
        line.rstrip() if line.isascii() and line.isprintable() else safe(line, limit=MAX_LINE, multiline=True).plain
        for line in text[:MAX_TEXT].split("\n")
    ]
    if len(text) > MAX_TEXT:
        lines.append(f"(The file is longer than {MAX_TEXT:,} characters: the rest is not shown.)")
    return lines
