"""Translations of spaces into other languages (spec section 4.12).

tr = await client.translations.create(org_id, language="fr", source_space=space_id, source_language="en")
await client.translations.update(org_id, tr.id, instructions="Keep product names in English.")
await client.translations.run(org_id, tr.id)              # runs it again; stats.runs grows
"""

from __future__ import annotations

from typing import Any

from folio.api import limits
from folio.api.errors import InvalidRequest
from folio.api.pagination import Paginator
from folio.api.resources._base import UNSET, Resource, path
from folio.models.common import Document
from folio.models.translation import Translation, TranslationLanguage

__all__ = ["TranslationsResource", "instructions_body"]

LANGUAGE_MAX = 16


def _check_language(field: str, value: str) -> None:
    # Any language code the service may add parses; only the shape of a language code is checked here.
    if not isinstance(value, str):
        raise InvalidRequest(field, f"must be text, not {type(value).__name__}", "a language code")
    limits.check_length(field, value, min=2, max=LANGUAGE_MAX)


def instructions_body(instructions: Document | dict[str, Any] | str) -> dict[str, Any]:
    """The ``instructions`` document from a Document, its wire dict, or plain text (a paragraph a line)."""
    if isinstance(instructions, str):
        instructions = Document.from_text(instructions)
    if isinstance(instructions, Document):
        return instructions.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(instructions, dict) and instructions.get("object", "document") == "document":
        return {"object": "document", "data": {}, "nodes": [], **instructions}
    raise InvalidRequest("instructions", "must be a rich-text document", "object = document")


class TranslationsResource(Resource):
    """``client.translations``."""

    def list(self, organization_id: str, *, limit: int | None = None) -> Paginator[Translation]:
        return self._list(Translation, path("/orgs/{}/translations", organization_id), limit=limit)

    async def create(
        self,
        organization_id: str,
        *,
        language: TranslationLanguage,
        source_space: str,
        source_language: TranslationLanguage,
        instructions: Document | dict[str, Any] | str = UNSET,
    ) -> Translation:
        """Translate ``source_space`` (written in ``source_language``) into ``language``."""
        _check_language("language", language)
        _check_language("source.language", source_language)
        if not source_space:
            raise InvalidRequest("source.space", "is empty", "a space id")
        if language == source_language:
            raise InvalidRequest("language", f"is the source's language ({language})", "another language")
        payload: dict[str, Any] = {
            "language": language,
            "source": {"space": source_space, "language": source_language},
        }
        if instructions is not UNSET:
            payload["instructions"] = instructions_body(instructions)
        return await self._send(Translation, "POST", path("/orgs/{}/translations", organization_id), payload)

    async def get(self, organization_id: str, translation_id: str) -> Translation:
        return await self._get(Translation, path("/orgs/{}/translations/{}", organization_id, translation_id))

    async def update(
        self, organization_id: str, translation_id: str, *, instructions: Document | dict[str, Any] | str
    ) -> Translation:
        """Replace the instructions the translation follows."""
        return await self._send(
            Translation,
            "PUT",
            path("/orgs/{}/translations/{}", organization_id, translation_id),
            {"instructions": instructions_body(instructions)},
            idempotent=True,
        )

    async def delete(self, organization_id: str, translation_id: str) -> None:
        await self._send_empty("DELETE", path("/orgs/{}/translations/{}", organization_id, translation_id))

    async def run(self, organization_id: str, translation_id: str) -> None:
        """Run the translation again (the service answers at once; the run goes on after)."""
        await self._send_empty("POST", path("/orgs/{}/translations/{}/run", organization_id, translation_id))
