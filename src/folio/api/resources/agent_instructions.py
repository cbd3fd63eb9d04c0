"""Organization-wide agent instructions (spec section 4.4b).

current = await client.agent_instructions.get(org_id)
await client.agent_instructions.update(org_id, "Answer in British English.")
"""

from __future__ import annotations

from typing import Any

from folio.api.errors import InvalidRequest
from folio.api.resources._base import Resource, path
from folio.models.agent import AgentInstructions
from folio.models.common import Document

__all__ = ["AgentInstructionsResource"]


def _document(instructions: Document | dict[str, Any] | str) -> dict[str, Any]:
    if isinstance(instructions, str):
        instructions = Document.from_text(instructions)
    if isinstance(instructions, Document):
        return instructions.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(instructions, dict) and instructions.get("object", "document") == "document":
        return {"object": "document", "data": {}, "nodes": [], **instructions}
    raise InvalidRequest("instructions", "must be a rich-text document", "object = document")


class AgentInstructionsResource(Resource):
    """``client.agent_instructions``."""

    async def get(self, organization_id: str) -> AgentInstructions:
        return await self._get(AgentInstructions, path("/orgs/{}/agent-instructions", organization_id))

    async def update(self, organization_id: str, instructions: Document | dict[str, Any] | str) -> AgentInstructions:
        """Replace the instructions: a document, its wire dict, or plain text (one paragraph a line)."""
        return await self._send(
            AgentInstructions,
            "PUT",
            path("/orgs/{}/agent-instructions", organization_id),
            {"instructions": _document(instructions)},
            idempotent=True,
        )
