"""The translations of an organization's spaces (``:translations [words]``): the target language (name and
code), the source space (its title) and its language, the status, the runs and when it last ran. ``n`` creates
one, ``e`` edits its instructions, ``R`` runs it again (here ``R`` is this, not "refresh all"), ``D`` deletes it,
``enter`` opens the space it writes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.binding import Binding, BindingType
from textual.content import Content

from folio.models.translation import Translation
from folio.services import format
from folio.services.content.translations import instructions_text, language_label
from folio.services.errors import ServiceError
from folio.tui.declare import Route
from folio.tui.errors import notify_error
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.modals.translation_forms import NewTranslationForm
from folio.tui.navigation import Open
from folio.tui.safe import safe
from folio.tui.screens.base import Item
from folio.tui.screens.panel_screen import PanelScreen
from folio.tui.widgets.resource_list import Column, ResourceList, Row
from folio.tui.widgets.resource_panel import ResourcePanel

if TYPE_CHECKING:
    from folio.models.space import SpaceSummary
    from folio.services import Services

__all__ = ["TranslationsPanel", "TranslationsScreen"]

TRANSLATIONS = Route(
    kind="translations",
    noun="translations",
    plural="translations",
    screen="TranslationsScreen",
    verbs=("translations", "translate"),
    find="organization",
    key="L",
    label="Translations",
    hint="Translations of the spaces",
    order=60,
    summary="the organization's translations of spaces: languages, status, runs",
)

COLUMNS = (
    Column("language", "Language"),
    Column("source", "Source space"),
    Column("from", "From", 6),
    Column("status", "Status", 10),
    Column("runs", "Runs", 5, align="right"),
    Column("last", "Last run", 10),
)
STATUS_MARK = {"pending": "\u25cc pending", "running": "\u25d0 running", "completed": "\u2713 done"}


def _bind(key: str, action: str, label: str, name: str, tooltip: str) -> Binding:
    return Binding(key, action, label, id=f"translations.{name}", tooltip=tooltip)


class TranslationsPanel(ResourcePanel[Translation]):
    """The organization's translations, with the titles of their source spaces."""

    org_id: str

    COLUMNS = COLUMNS
    EMPTY = "No translation in this organization yet. Press n to translate a space."
    NOUN = "translation"
    BINDINGS: ClassVar[list[BindingType]] = [
        _bind("n", "new_translation", "New", "new", "Translate a space into another language"),
        _bind("e", "edit_instructions", "Instructions", "instructions", "Edit what the translation is told"),
        _bind("R", "run_translation", "Run again", "run", "Run the translation again (asks first)"),
        _bind("D", "delete_translation", "Delete", "delete", "Delete the translation (asks first)"),
    ]

    def __init__(self, services: Services, org_id: str, *, id: str | None = None) -> None:
        super().__init__(services, id=id)
        self.org_id = org_id
        self.spaces: list[SpaceSummary] = []
        self.titles: dict[str, str] = {}
        self.spaces_failed = False

    async def fetch(self) -> AsyncIterator[Sequence[Translation]]:
        pages = aiter(self.services.translations.pages(self.org_id))
        # The spaces (for their titles) are read with the first page, not before it.
        first, _ = await asyncio.gather(anext(pages, None), self._read_spaces())
        if first is None:
            return
        yield first
        async for page in pages:
            yield page

    async def _read_spaces(self) -> None:
        try:
            spaces = await self.services.translations.spaces(self.org_id)
        except ServiceError:  # the list still shows, with space ids; the hint says why
            self.spaces_failed = True
            return
        self.spaces_failed = False
        self.spaces = spaces
        self.titles = {s.id: s.title or s.id for s in spaces}

    def row(self, translation: Translation) -> Row:
        source = translation.source
        space = self.titles.get(source.space, source.space) if source else format.DASH
        stats = translation.stats
        return Row(
            key=translation.id,
            cells=[
                safe(language_label(translation.language), limit=60),
                safe(space, limit=200),
                safe(source.language or format.DASH, limit=10) if source else format.DASH,
                safe(STATUS_MARK.get(translation.status, translation.status), limit=20),
                f"{stats.runs:,}",
                format.ago(translation.updated_at) if stats.runs else "never",
            ],
            style="dim" if translation.in_progress else "",
            data=translation,
        )

    def item_of(self, translation: Translation) -> Item | None:
        return Item(translation.id, translation.urls.location if translation.urls else None, "translation")

    def hint(self) -> str:
        if self.spaces_failed:
            return "The spaces could not be read: their ids are shown (r tries again)"
        return "n translates a space · R runs it again · enter opens the translated space"

    def loaded(self, items: list[Translation], *, complete: bool) -> None:
        super().loaded(items, complete=complete)
        self.draw_hint()

    def why_not(self, action: str) -> str | None:
        if action == "new_translation":
            if not self.spaces:
                return "There is no space to translate here (or the spaces could not be read: r tries again)."
            return None
        translation = self.current
        if translation is None:
            return "No translation is selected."
        if translation.permissions is not None and not translation.permissions.edit:
            return "Your role cannot change this translation."
        if action == "run_translation" and translation.status == "running":
            return "It is running now: run it again once it is done."
        return None

    def on_resource_list_selected(self, event: ResourceList.Selected) -> None:
        event.stop()
        translation: Translation = event.row.data  # type: ignore[assignment]
        target = translation.result.space if translation.result else None
        if not target:
            self.notify("It has not run yet: there is no translated space to open.", timeout=4, markup=False)
            return
        title = f"{self.titles.get(translation.source.space, '') if translation.source else ''}"
        name = f"{title} ({translation.language})" if title else language_label(translation.language)
        self.post_message(Open("space", {"space_id": target}, title=name))

    # -- actions -------------------------------------------------------------------------------------------------

    def _label(self, translation: Translation) -> str:
        source = translation.source
        space = self.titles.get(source.space, source.space) if source else "?"
        return safe(f"{space} into {language_label(translation.language)}", limit=200).plain

    def action_new_translation(self) -> None:
        form = NewTranslationForm(self.services.translations, self.org_id, self.spaces)
        self.app.push_screen(form, self._created)

    def _created(self, translation: Translation | None) -> None:
        if translation is not None:
            self.notify(f"Translation created: {self._label(translation)}.", markup=False)
            self.reload(keep=translation.id)

    def action_edit_instructions(self) -> None:
        translation = self.current
        if translation is None:
            return
        tid = translation.id

        async def send(text: str) -> object:
            return await self.services.translations.update_instructions(self.org_id, tid, text)

        modal = TextEntryModal(
            Content.assemble("Instructions for ", (self._label(translation), "bold")),
            send,
            text=instructions_text(translation),
            send_label="Save",
            draft=f"translation-instructions:{self.org_id}/{tid}",
            where=f"the instructions of {self._label(translation)}",
            allow_empty=True,
        )
        self.app.push_screen(modal, lambda sent: self._instructions_saved(translation, sent))

    def _instructions_saved(self, translation: Translation, sent: str | None) -> None:
        if sent is not None:
            self.notify(f"Instructions saved: {self._label(translation)}.", markup=False)
            self.reload(keep=translation.id)

    def action_run_translation(self) -> None:
        translation = self.current
        if translation is None:
            return
        modal = ConfirmModal(
            Content.assemble("Run ", (self._label(translation), "bold"), " again?"),
            "The translated space is written again from the source as it is now.",
            accept_key="y",
            accept_label="Run",
        )

        def confirmed(ok: bool | None) -> None:
            if ok:
                self._run(translation)

        self.app.push_screen(modal, confirmed)

    @work(exclusive=False, group="translations-write", exit_on_error=False)
    async def _run(self, translation: Translation) -> None:
        try:
            await self.services.translations.run(self.org_id, translation.id)
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not run {self._label(translation)}")
            return
        self.notify(f"Running again: {self._label(translation)}.", markup=False)
        self.reload(keep=translation.id)

    def action_delete_translation(self) -> None:
        translation = self.current
        if translation is None:
            return
        modal = ConfirmModal(
            Content.assemble("Delete the translation ", (self._label(translation), "bold"), "?"),
            "It is no longer kept up to date; the translated space itself stays.",
            accept_key="y",
            accept_label="Delete",
        )

        def confirmed(ok: bool | None) -> None:
            if ok:
                self._delete(translation)

        self.app.push_screen(modal, confirmed)

    @work(exclusive=False, group="translations-write", exit_on_error=False)
    async def _delete(self, translation: Translation) -> None:
        try:
            await self.services.translations.delete(self.org_id, translation.id)
        except ServiceError as exc:
            notify_error(self, exc, doing=f"Could not delete {self._label(translation)}")
            return
        self.notify(f"Translation deleted: {self._label(translation)}.", markup=False)
        self.reload()


class TranslationsScreen(PanelScreen[TranslationsPanel]):
    """``:translations``: the organization's translations (``:translations french`` opens them filtered)."""

    org_id: str

    ROUTE = TRANSLATIONS.kind
    PANEL = TranslationsPanel
    CRUMB = "Translations"
