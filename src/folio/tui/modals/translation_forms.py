"""The translations screen's form: a new translation of a space.

NewTranslationForm   the target language (a list filtered as you type: ``down`` goes into it, ``enter`` picks),
                     the source space and the language it is written in (picked), optional instructions;
                     creates the translation -> Translation | None
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.widgets import Input, OptionList, Select
from textual.widgets.option_list import Option

from folio.models.translation import Translation
from folio.services.content.translations import LANGUAGE_NAMES, language_label, match_languages, resolve_language
from folio.tui.modals.form import Field, FormModal
from folio.tui.safe import safe

if TYPE_CHECKING:
    from folio.models.space import SpaceSummary
    from folio.services.content.translations import TranslationService

__all__ = ["NewTranslationForm"]

LANGUAGE_CHOICES = tuple((language_label(code), code) for code in LANGUAGE_NAMES)


class NewTranslationForm(FormModal[Translation]):
    """Translate one of ``spaces`` (at least one) into a language."""

    DEFAULT_CSS = """
    NewTranslationForm #language-options { height: 6; margin-left: 14; border: none; padding: 0; }
    """
    TITLE = "New translation"
    INTRO = "The service translates the space into a space of the target language; R runs it again later."
    SEND_LABEL = "Create"
    FAILED = "Not created"

    def __init__(self, translations: TranslationService, org_id: str, spaces: Sequence[SpaceSummary]) -> None:
        self.spaces = list(spaces)
        # Every select opens with a value (the form's selects need one): the first space, English.
        initial = {"source": self.spaces[0].id if self.spaces else None, "source_language": "en"}
        super().__init__(values=initial, draft=f"translation-new:{org_id}", where="a translation")
        self.translations = translations
        self.org_id = org_id

    def fields(self) -> Sequence[Field]:
        spaces = tuple((s.title or s.id, s.id) for s in self.spaces)
        return (
            Field("language", "Language", placeholder="type to filter (fr, French…), down to pick"),
            Field("source", "Source space", kind="select", choices=spaces),
            Field("source_language", "Written in", kind="select", choices=LANGUAGE_CHOICES),
            Field("instructions", "Instructions", kind="text", height=3, hint="Optional: a paragraph a line"),
        )

    # -- the language picker ---------------------------------------------------------------------------------

    def on_mount(self) -> None:
        super().on_mount()
        options = OptionList(id="language-options", compact=True)
        self.query_one(".form--fields").mount(options, after="#problem-language")
        self._filter_languages(self.query_one("#field-language", Input).value)
        self._restore_choices()

    @property
    def options(self) -> OptionList:
        return self.query_one("#language-options", OptionList)

    def _filter_languages(self, typed: str) -> None:
        options = self.options
        options.clear_options()
        options.add_options([Option(language_label(code), id=code) for code in match_languages(typed)])
        if options.option_count:
            options.highlighted = 0

    @on(Input.Changed, "#field-language")
    def _language_typed(self, event: Input.Changed) -> None:
        if self.options.is_mounted:
            self._filter_languages(event.value)

    def _pick(self, code: str) -> None:
        box = self.query_one("#field-language", Input)
        box.value = language_label(code)
        box.cursor_position = len(box.value)
        self.widget("source").focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self._pick(event.option.id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "field-language":
            super().on_input_submitted(event)
            return
        event.stop()
        options = self.options
        typed = resolve_language(event.value)
        highlighted = options.highlighted
        if typed is None and highlighted is not None:
            code = options.get_option_at_index(highlighted).id
            if code is not None:
                self._pick(code)
                return
        self.widget("source").focus()

    def on_key(self, event: events.Key) -> None:
        focused = self.focused
        if event.key == "down" and focused is not None and focused.id == "field-language":
            event.stop()
            self.options.focus()

    # -- drafts: the picked values come back too -----------------------------------------------------------------

    def _restore_choices(self) -> None:
        saved = self.slot.restore(self.app)
        try:
            data = json.loads(saved) if saved else {}
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        allowed = {"source": {s.id for s in self.spaces}, "source_language": set(LANGUAGE_NAMES)}
        for name, known in allowed.items():
            value = data.get(name)
            if isinstance(value, str) and value in known:
                self.query_one(f"#field-{name}", Select).value = value

    # -- sending -----------------------------------------------------------------------------------------------

    def check(self, values: Mapping[str, Any]) -> dict[str, str]:
        problems: dict[str, str] = {}
        language = resolve_language(values.get("language") or "")
        if language is None:
            problems["language"] = "Pick a language from the list (type to filter, down then enter to pick)."
        if not values.get("source"):
            problems["source"] = "Pick the space to translate."
        source_language = values.get("source_language")
        if not source_language:
            problems["source_language"] = "Pick the language the space is written in."
        elif language is not None and language == source_language:
            name = safe(language_label(language), limit=60).plain
            problems["language"] = f"The space is already written in {name}: pick another language."
        return problems

    async def submit(self, values: Mapping[str, Any]) -> Translation:
        return await self.translations.create(
            self.org_id,
            language=resolve_language(values["language"]) or values["language"],
            source_space=values["source"],
            source_language=values["source_language"],
            instructions=values.get("instructions") or "",
        )

    async def find_sent(self, values: Mapping[str, Any]) -> Translation | None:
        language = resolve_language(values["language"]) or values["language"]
        return await self.translations.find_created(self.org_id, language=language, source_space=values["source"])
