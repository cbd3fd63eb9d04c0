"""Organization-wide agent instructions (spec section 2.12)."""

from __future__ import annotations

from folio.models._base import Model, Timestamp
from folio.models.common import Document, Urls

__all__ = ["AgentInstructions"]


class AgentInstructions(Model):
    """The instructions every agent of the organization follows (``object`` = ``agent-instructions``)."""

    object: str = "agent-instructions"
    instructions: Document | None = None
    updated_at: Timestamp | None = None
    updated_by: str | None = None
    urls: Urls | None = None

    def text(self) -> str:
        """The instructions as plain text (empty when there are none)."""
        return self.instructions.plain_text() if self.instructions else ""
