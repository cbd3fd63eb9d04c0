"""Translations of a space into another language (spec section 2.11).

A translation reads a source space (``source = {space, language}``) and writes the result into a space of the
target ``language``; running it again (``run``) refreshes the result and adds to ``stats``.
"""

from __future__ import annotations

from pydantic import Field

from folio.models._base import Model, OpenEnum, Timestamp
from folio.models.common import Document, Urls

__all__ = [
    "KNOWN_TRANSLATION_LANGUAGES",
    "KNOWN_TRANSLATION_STATUSES",
    "Translation",
    "TranslationLanguage",
    "TranslationPermissions",
    "TranslationResult",
    "TranslationSource",
    "TranslationStats",
]

TranslationLanguage = OpenEnum
KNOWN_TRANSLATION_LANGUAGES = (
    "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko",
    "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th",
    "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl",
)  # fmt: skip
"""The languages the public description lists; the service may add more, and any string parses."""

TranslationStatus = OpenEnum
KNOWN_TRANSLATION_STATUSES = ("pending", "running", "completed")


class TranslationSource(Model):
    """The space a translation reads, and the language it is written in."""

    space: str
    language: TranslationLanguage | None = None


class TranslationResult(Model):
    """Where the last run wrote: the space of the target language and the revision it made there."""

    space: str | None = None
    revision: str | None = None
    language: TranslationLanguage | None = None


class TranslationStats(Model):
    """Runs, words, pages and seconds: in total and for the latest run."""

    runs: int = 0
    total_words: int = 0
    total_pages: int = 0
    total_duration: int = 0
    latest_run_duration: int = 0
    latest_pages: int = 0
    latest_words: int = 0


class TranslationPermissions(Model):
    """What the caller may do with the translation."""

    view: bool = False
    edit: bool = False


class Translation(Model):
    """A translation (``object`` = ``translation``) of a source space into ``language``."""

    object: str = "translation"
    id: str
    status: TranslationStatus = "pending"
    source: TranslationSource | None = None
    language: TranslationLanguage = ""
    instructions: Document | None = None
    result: TranslationResult | None = None
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    stats: TranslationStats = Field(default_factory=TranslationStats)
    permissions: TranslationPermissions | None = None
    urls: Urls | None = None

    @property
    def in_progress(self) -> bool:
        """Queued or running: ``result`` and ``stats`` will change."""
        return self.status in ("pending", "running")
