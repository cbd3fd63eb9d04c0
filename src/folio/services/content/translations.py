"""Translations of an organization's spaces (spec sections 2.11 and 4.12), as the translations screen uses them:
the list with each source space's title, creating one, its instructions as plain text, running it again,
deleting it; the languages by name.

    tr = services.translations
    async for page in tr.pages(org_id): ...
    titles = await tr.space_titles(org_id)                   # {space id: title}, one list read for them all
    await tr.create(org_id, language="fr", source_space=space_id, source_language="en", instructions="...")
    language_label("pt-br")                                  # "Portuguese, Brazil (pt-br)"
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from folio.api import limits
from folio.models.common import Document
from folio.models.translation import Translation

if TYPE_CHECKING:
    from folio.api.client import GitBookClient
    from folio.models.space import SpaceSummary

__all__ = [
    "LANGUAGE_NAMES",
    "TranslationService",
    "instructions_text",
    "language_label",
    "language_name",
    "match_languages",
    "resolve_language",
]

PAGE_SIZE = 100

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian", "pt": "Portuguese",
    "pt-br": "Portuguese, Brazil", "ru": "Russian", "ja": "Japanese", "zh": "Chinese, Simplified",
    "zh-tw": "Chinese, Traditional", "yue": "Cantonese", "ko": "Korean", "ar": "Arabic", "hi": "Hindi",
    "nl": "Dutch", "pl": "Polish", "tr": "Turkish", "sv": "Swedish", "no": "Norwegian", "da": "Danish",
    "fi": "Finnish", "el": "Greek", "cs": "Czech", "hu": "Hungarian", "ro": "Romanian", "th": "Thai",
    "vi": "Vietnamese", "id": "Indonesian", "ms": "Malay", "he": "Hebrew", "uk": "Ukrainian", "sk": "Slovak",
    "bg": "Bulgarian", "hr": "Croatian", "lt": "Lithuanian", "lv": "Latvian", "et": "Estonian",
    "sl": "Slovenian",
}  # fmt: skip
"""The names of the languages the public description lists (``TranslationLanguage``), in its order."""


def language_name(code: str | None) -> str:
    """``French`` for ``fr``; a code the table does not know reads as itself."""
    if not code:
        return "—"
    return LANGUAGE_NAMES.get(code, code)


def language_label(code: str | None) -> str:
    """``French (fr)``: the name and the code."""
    if not code:
        return "—"
    name = LANGUAGE_NAMES.get(code)
    return f"{name} ({code})" if name else code


def match_languages(query: str) -> list[str]:
    """The codes matching what was typed, best first: the code itself, names and codes starting with it, then
    names containing it (every word typed must appear). Empty: every language, in the table's order."""
    words = query.lower().replace("(", " ").replace(")", " ").split()
    if not words:
        return list(LANGUAGE_NAMES)
    ranked: list[tuple[int, int, str]] = []
    for order, (code, name) in enumerate(LANGUAGE_NAMES.items()):
        haystack = f"{name.lower()} {code}"
        if not all(word in haystack for word in words):
            continue
        first = words[0]
        rank = 0 if code == first else 1 if name.lower().startswith(first) or code.startswith(first) else 2
        ranked.append((rank, order, code))
    return [code for _, _, code in sorted(ranked)]


def resolve_language(text: str) -> str | None:
    """The code ``text`` names: a code, a name, ``Name (code)`` as the picker writes it, or what only one
    language matches; None when it names none, or several."""
    typed = text.strip().lower()
    if not typed:
        return None
    for code, name in LANGUAGE_NAMES.items():
        if typed in (code, name.lower(), language_label(code).lower()):
            return code
    found = match_languages(typed)
    return found[0] if len(found) == 1 else None


def instructions_text(translation: Translation) -> str:
    """The instructions as plain text (a paragraph a line), as the edit form shows them."""
    return translation.instructions.plain_text().strip("\n") if translation.instructions else ""


class TranslationService:
    """The translations of an organization."""

    def __init__(self, client: GitBookClient) -> None:
        self._client = client

    async def pages(self, org_id: str) -> AsyncIterator[list[Translation]]:
        async for envelope in self._client.translations.list(org_id, limit=PAGE_SIZE).pages():
            yield list(envelope.items)

    async def spaces(self, org_id: str) -> list[SpaceSummary]:
        """The organization's spaces that can be translated (deleted ones left out), in the service's order."""
        spaces = await self._client.spaces.summaries(org_id, limit=limits.LIST_LIMIT_MAX).collect()
        return [s for s in spaces if not s.deleted]

    async def get(self, org_id: str, translation_id: str) -> Translation:
        return await self._client.translations.get(org_id, translation_id)

    async def create(
        self, org_id: str, *, language: str, source_space: str, source_language: str, instructions: str = ""
    ) -> Translation:
        """Translate ``source_space`` (written in ``source_language``) into ``language``; instructions are sent
        as a document of one paragraph a line, and left out when empty."""
        if instructions.strip():
            return await self._client.translations.create(
                org_id,
                language=language,
                source_space=source_space,
                source_language=source_language,
                instructions=instructions,
            )
        return await self._client.translations.create(
            org_id, language=language, source_space=source_space, source_language=source_language
        )

    async def find_created(self, org_id: str, *, language: str, source_space: str) -> Translation | None:
        """A translation of ``source_space`` into ``language``: how a create whose answer was lost is looked for."""
        async for translation in self._client.translations.list(org_id, limit=limits.LIST_LIMIT_MAX):
            if translation.language == language and translation.source and translation.source.space == source_space:
                return translation
        return None

    async def update_instructions(self, org_id: str, translation_id: str, text: str) -> Translation:
        return await self._client.translations.update(
            org_id, translation_id, instructions=Document.from_text(text) if text.strip() else Document()
        )

    async def run(self, org_id: str, translation_id: str) -> None:
        """Run the translation again (the service answers at once; the run goes on after)."""
        await self._client.translations.run(org_id, translation_id)

    async def delete(self, org_id: str, translation_id: str) -> None:
        await self._client.translations.delete(org_id, translation_id)
