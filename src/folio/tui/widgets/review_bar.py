"""The line under a change request's header that says where a review sweep is (a progress bar) and what a pending
review holds (``pending review: 3 comments``). Hidden while there is neither."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content
from textual.widgets import Static

from folio.tui.safe import safe

if TYPE_CHECKING:
    from folio.services.pending_review import PendingReview
    from folio.services.sweep import Sweep

__all__ = ["ReviewBar", "bar"]

BAR = 16
"""Cells of the sweep's progress bar."""


def bar(done: int, total: int, width: int = BAR) -> str:
    """``█████░░░░░``: ``done`` of ``total`` as a bar of ``width`` cells."""
    filled = round(width * done / total) if total else width
    return "\u2588" * filled + "\u2591" * (width - filled)


class ReviewBar(Static):
    """``bar.show(sweep, pending)`` draws it; both None or empty hides it."""

    DEFAULT_CSS = """
    ReviewBar { height: auto; padding: 0 1; background: $boost; display: none; }
    """

    def show(self, sweep: Sweep | None, pending: PendingReview | None, *, stop_words: str = "") -> None:
        lines: list[Content] = []
        if sweep is not None and sweep.total:
            parts: list[str | Content | tuple[str, str]] = [
                ("Sweep ", "bold"),
                (bar(sweep.done, sweep.total), "$text-accent"),
                f" {sweep.done}/{sweep.total}",
            ]
            if stop_words:
                parts += [" \u00b7 ", safe(stop_words, limit=70)]
            parts.append((" \u00b7 space: next", "$text-muted"))
            lines.append(Content.assemble(*parts))
        if pending is not None and pending.summary:
            holding = "holding (P stops)" if pending.holding else "not holding (P holds)"
            lines.append(
                Content.assemble(
                    (pending.summary, "bold $text-warning"),
                    (f" \u00b7 {holding} \u00b7 H lists \u00b7 R sends with your verdict", "$text-muted"),
                )
            )
        self.update(Content("\n").join(lines))
        self.display = bool(lines)
