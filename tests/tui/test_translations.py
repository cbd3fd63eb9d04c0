"""The translations screen, driven by keys over the seeded sandbox (three translations of the demo organization:
Getting Started into French and Japanese, User Guide into German); what a write did is checked in the sandbox."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Select

from folio.models.common import document_text
from folio.sandbox import SandboxState
from folio.services import Services
from folio.tui.commands import key_entries
from folio.tui.modals.confirm import ConfirmModal
from folio.tui.modals.text_entry import TextEntryModal
from folio.tui.modals.translation_forms import NewTranslationForm
from folio.tui.screens.content.space import SpaceScreen
from folio.tui.screens.content.translations import TranslationsScreen
from tests.tui.conftest import settle


def translations_screen(services: Services, state: SandboxState) -> Callable[[], TranslationsScreen]:
    return lambda: TranslationsScreen(services, state.demo_org, trail=("Northwind Labs",))


def rows(screen: TranslationsScreen) -> list[list[str]]:
    return [[c if isinstance(c, str) else c.plain for c in r.cells] for r in screen.panel.browser.list.visible_rows]


def notes(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


def translation_into(state: SandboxState, language: str) -> dict[str, Any]:
    return next(t for t in state.translations.values() if t["language"] == language)


def space_id(state: SandboxState, title: str) -> str:
    return str(next(s["id"] for s in state.spaces.values() if s["title"] == title))


async def keys(pilot: Pilot[None], *pressed: str) -> None:
    await pilot.press(*pressed)
    await settle(pilot)


async def test_the_list_names_languages_and_source_spaces(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    async with open_app(translations_screen(services, state)) as (app, _pilot):
        screen = app.screen
        assert [r[:5] for r in rows(screen)] == [
            ["Japanese (ja)", "Getting Started", "en", "\u2713 done", "1"],
            ["German (de)", "User Guide", "en", "\u2713 done", "2"],
            ["French (fr)", "Getting Started", "en", "\u2713 done", "3"],
        ]


async def test_r_runs_again_here_and_the_help_says_so(services: Services, state: SandboxState, open_app: Any) -> None:
    french = translation_into(state, "fr")
    async with open_app(translations_screen(services, state)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, TranslationsScreen)
        entries = {e.id: e for e in key_entries(screen)}
        assert entries["translations.run"].keys == ["R"] and entries["translations.run"].enabled
        assert "app.refresh-all" not in entries  # the panel's R takes the key here
        assert screen.panel.browser.list.move_to(french["id"])
        runs = french["stats"]["runs"]
        await keys(pilot, "R")
        assert isinstance(app.screen, ConfirmModal)
        await keys(pilot, "n")
        assert french["stats"]["runs"] == runs  # cancelled: nothing sent
        await keys(pilot, "R", "y")
        assert not isinstance(app.screen, ConfirmModal)
        assert french["stats"]["runs"] == runs + 1
        assert any(n.startswith("Running again: Getting Started into French (fr)") for n in notes(app))
        assert next(r for r in rows(screen) if r[0] == "French (fr)")[4] == str(runs + 1)


async def test_create_a_translation(services: Services, state: SandboxState, open_app: Any) -> None:
    handbook = space_id(state, "Admin Handbook")
    async with open_app(translations_screen(services, state)) as (app, pilot):
        screen = app.screen
        await keys(pilot, "n")
        form = app.screen
        assert isinstance(form, NewTranslationForm)
        options = form.query_one("#language-options", OptionList)
        await keys(pilot, *"ital")
        assert [options.get_option_at_index(i).id for i in range(options.option_count)] == ["it"]
        await keys(pilot, "down", "enter")  # into the list, pick Italian
        assert form.query_one("#field-language", Input).value == "Italian (it)"
        source = form.query_one("#field-source", Select)
        assert form.focused is source
        source.value = handbook  # what picking it in the drop-down sets
        await settle(pilot)
        form.query_one("#field-instructions").focus()
        await keys(pilot, *"Keep product names in English.")
        await keys(pilot, "ctrl+s")
        assert app.screen is screen
        created = translation_into(state, "it")
        assert created["source"] == {"space": handbook, "language": "en"}
        assert document_text(created["instructions"]).strip() == "Keep product names in English."
        assert ["Italian (it)", "Admin Handbook"] in [r[:2] for r in rows(screen)]
        assert screen.panel.current is not None and screen.panel.current.id == created["id"]


async def test_a_translation_into_its_own_language_is_refused_and_kept(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    count = len(state.translations)
    async with open_app(translations_screen(services, state)) as (app, pilot):
        await keys(pilot, "n")
        form = app.screen
        assert isinstance(form, NewTranslationForm)
        await keys(pilot, *"english", "ctrl+s")
        assert app.screen is form and len(state.translations) == count
        assert "already written in English (en)" in form.problem_text
        await keys(pilot, "ctrl+u", *"xx", "ctrl+s")
        assert app.screen is form and "Pick a language from the list" in form.problem_text
        assert form.values()["language"] == "xx"  # what was typed stays


async def test_edit_the_instructions(services: Services, state: SandboxState, open_app: Any) -> None:
    french = translation_into(state, "fr")
    async with open_app(translations_screen(services, state)) as (app, pilot):
        assert app.screen.panel.browser.list.move_to(french["id"])
        await keys(pilot, "e")
        modal = app.screen
        assert isinstance(modal, TextEntryModal)
        assert modal.text == "Keep product names and code in English. Use the formal 'vous'."
        assert modal.slot.key == f"translation-instructions:{state.demo_org}/{french['id']}"  # kept as a draft
        await keys(pilot, "end", *" Keep it short.", "ctrl+s")
        assert not isinstance(app.screen, TextEntryModal)
        assert document_text(french["instructions"]).strip() == (
            "Keep product names and code in English. Use the formal 'vous'. Keep it short."
        )


async def test_delete_a_translation(services: Services, state: SandboxState, open_app: Any) -> None:
    german = translation_into(state, "de")
    async with open_app(translations_screen(services, state)) as (app, pilot):
        screen = app.screen
        assert screen.panel.browser.list.move_to(german["id"])
        await keys(pilot, "D")
        assert isinstance(app.screen, ConfirmModal)
        await keys(pilot, "y")
        assert german["id"] not in state.translations
        assert "German (de)" not in [r[0] for r in rows(screen)]


async def test_enter_opens_the_translated_space(services: Services, state: SandboxState, open_app: Any) -> None:
    french = translation_into(state, "fr")
    async with open_app(translations_screen(services, state)) as (app, pilot):
        assert app.screen.panel.browser.list.move_to(french["id"])
        await keys(pilot, "enter")
        assert isinstance(app.screen, SpaceScreen) and app.screen.space_id == french["result"]["space"]


async def test_translations_words_open_the_list_filtered_by_them(
    services: Services, state: SandboxState, open_app: Any
) -> None:
    """``:translations french`` from the translations: the words go to the screen (``words``), and its list
    opens filtered by them (the filter box holds them); the route builds it the same (``routes.build``)."""
    from folio.tui import routes

    async with open_app(translations_screen(services, state)) as (app, pilot):
        await keys(pilot, "colon")
        await pilot.press(*"translations", "space", *"french")
        await keys(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, TranslationsScreen) and screen.org_id == state.demo_org
        assert [r[0] for r in rows(screen)] == ["French (fr)"]
        assert screen.words == "french"
        assert screen.panel.browser.has_class("-filtering")
    start = lambda: routes.build(services, "translations", {"org_id": state.demo_org, "words": "german"})  # noqa: E731
    async with open_app(start) as (app, _pilot):
        screen = app.screen
        assert isinstance(screen, TranslationsScreen)
        assert [r[0] for r in rows(screen)] == ["German (de)"]
