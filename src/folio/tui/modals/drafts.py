"""Drafts of what is typed in a modal, kept in the account's local state (``services.local.state``) as it is
typed, and removed only once the service accepted the text. Used by the text entry and review modals."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from folio.cache import LocalState

__all__ = ["DraftSlot"]


@dataclass
class DraftSlot:
    """Where one entry's draft lives: ``key`` names the target (``reply:space/cr/comment``), ``where`` says it
    in words (``a reply to Ada``). Without a key, or without local state, every call does nothing."""

    key: str | None
    where: str = ""
    initial: str = ""

    @staticmethod
    def state_of(app: Any) -> LocalState | None:
        local = getattr(getattr(app, "services", None), "local", None)
        return getattr(local, "state", None)

    def restore(self, app: Any) -> str | None:
        """The unsent draft of this entry, if it differs from the text the entry opened with."""
        state = self.state_of(app)
        saved = state.draft(self.key) if state is not None and self.key else None
        if saved is None or not saved.text.strip() or saved.text == self.initial:
            return None
        return saved.text

    def save(self, app: Any, text: str) -> None:
        state = self.state_of(app)
        if state is None or not self.key:
            return
        if text == self.initial:
            state.drop_draft(self.key)
        else:
            state.save_draft(self.key, text, where=self.where)

    def drop(self, app: Any) -> None:
        state = self.state_of(app)
        if state is not None and self.key:
            state.drop_draft(self.key)

    def kept_where(self, app: Any, fallback: str) -> str:
        """Where the text is kept, for a failed send's message."""
        state = self.state_of(app)
        if state is None or not self.key:
            return fallback
        where = state.path if state.enabled else state.info().fallback
        if where is None:
            return fallback
        return f"Your text is kept as a draft (in {where}): try again, or reopen this later."
