"""The line under a change request's header that says where a review sweep is (a progress bar) and what a pending
review holds (``pending review: 3 comments``). Hidden while there is neither.

A thread the sweep opened shows the bar too and its ``space`` goes on: ``sweep_below(thread_screen, comment_id)`` is the
screen under it whose sweep stopped at that thread (a :class:`SweepHost`), or None."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from textual.content import Content
from textual.widgets import Static

from folio.tui.safe import safe

if TYPE_CHECKING:
    from textual.screen import Screen

    from folio.services.review.pending_review import PendingReview
    from folio.services.review.sweep import Sweep

__all__ = ["ReviewBar", "SweepHost", "bar", "sweep_below"]

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


@runtime_checkable
class SweepHost(Protocol):
    """A screen that walks a review sweep (the change request's): where it is, and its next step."""

    def sweep_at_thread(self, comment_id: str) -> tuple[Sweep, str] | None:
        """The sweep and its words for the stop, when the sweep stands on the thread ``comment_id``."""

    def action_sweep(self) -> None:
        """The sweep's next step."""


def sweep_below(screen: Screen[Any], comment_id: str) -> SweepHost | None:
    """The screen under ``screen`` when it is a :class:`SweepHost` whose sweep stands on the thread
    ``comment_id`` (the thread ``screen`` shows)."""
    stack = screen.app.screen_stack
    at = stack.index(screen) if screen in stack else 0
    below = stack[at - 1] if at >= 1 else None
    if not isinstance(below, SweepHost):
        return None
    return below if below.sweep_at_thread(comment_id) is not None else None
